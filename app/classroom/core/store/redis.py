"""The class store on a Redis server (the ``redis`` client, imported when a store opens), for
replicas on several machines."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.classroom.core.records import ClassInfo, Poll, Student
from app.classroom.core.store.base import RETENTION_SECONDS, translate_errors


class RedisStore:
    """A class store on a Redis server. One hash per class (``mcl:{code}``) with the frame and
    its version, and beside it hashes of students, polls and each round's answers; every key
    of a class lives :data:`RETENTION_SECONDS` after its last write."""

    def __init__(self, url: str) -> None:
        import redis  # only this backend needs the client

        self.url = url
        # decode_responses: every reply is str (typed Any: the client's stubs say bytes | str)
        self._redis: Any = redis.Redis.from_url(url, decode_responses=True, socket_timeout=10,
                                           health_check_interval=30)  # fmt: skip
        self._redis.ping()  # fail at once, with the client's message, if nothing answers

    @staticmethod
    def _key(code: str, part: str = "") -> str:
        return f"mcl:{code}" + (f":{part}" if part else "")

    def _keep(self, pipe: Any, code: str, *parts: str) -> None:
        """Restart the time to live of the class's hash and of ``parts``."""
        for part in ("", *parts):
            pipe.expire(self._key(code, part), RETENTION_SECONDS)

    def create_class(self, code: str, secret_hash: str, now: float) -> bool:
        key = self._key(code)
        if not self._redis.hsetnx(key, "secret_hash", secret_hash):
            return False
        pipe = self._redis.pipeline()
        pipe.hset(key, mapping={"created": now, "active": now, "ended": 0, "version": 0,
                                "frame": "", "poll": ""})  # fmt: skip
        self._keep(pipe, code)
        pipe.execute()
        return True

    def class_info(self, code: str) -> ClassInfo | None:
        values = self._redis.hmget(self._key(code), ["created", "active", "ended", "version"])
        if values[0] is None:
            return None
        created, active, ended, version = values
        return ClassInfo(code, float(created), float(active), ended == "1", int(version))

    def secret_hash(self, code: str) -> str | None:
        value = self._redis.hget(self._key(code), "secret_hash")
        return None if value is None else str(value)

    def touch(self, code: str, now: float) -> None:
        pipe = self._redis.pipeline()
        pipe.hset(self._key(code), "active", now)
        self._keep(pipe, code, "students", "polls")
        pipe.execute()

    def end_class(self, code: str, now: float) -> None:
        pipe = self._redis.pipeline()  # a new version, as above
        pipe.hset(self._key(code), mapping={"ended": 1, "active": now})
        pipe.hincrby(self._key(code), "version", 1)
        pipe.execute()

    def publish(self, code: str, frame: str, now: float) -> int:
        key = self._key(code)
        if not self._redis.exists(key):
            raise KeyError(code)
        pipe = self._redis.pipeline()  # MULTI/EXEC: the version and its frame change together
        pipe.hincrby(key, "version", 1)
        pipe.hset(key, mapping={"frame": frame, "active": now})
        self._keep(pipe, code, "students", "polls")
        return int(pipe.execute()[0])

    def version(self, code: str) -> int | None:
        value = self._redis.hget(self._key(code), "version")
        return None if value is None else int(value)

    def frame(self, code: str) -> tuple[int, str] | None:
        version, frame = self._redis.hmget(self._key(code), ["version", "frame"])
        return None if version is None else (int(version), str(frame or ""))

    def put_student(self, code: str, student: Student) -> None:
        pipe = self._redis.pipeline()
        pipe.hset(self._key(code, "students"), student.id, student.to_json())
        self._keep(pipe, code, "students")
        pipe.execute()

    def update_student(
        self, code: str, student_id: str, change: Callable[[Student], Student | None]
    ) -> Student | None:
        key = self._key(code, "students")

        def swap(pipe: Any) -> Student | None:
            # WATCHed: a write to the class's students between this read and EXEC fails the
            # EXEC, and the client runs swap again on what is there now
            text = pipe.hget(key, student_id)
            changed = None if text is None else change(Student.from_json(text))
            pipe.multi()
            if changed is not None:
                pipe.hset(key, student_id, changed.to_json())
                self._keep(pipe, code, "students")
            return changed

        changed: Student | None = self._redis.transaction(swap, key, value_from_callable=True)
        return changed

    def students(self, code: str) -> list[Student]:
        records = self._redis.hgetall(self._key(code, "students"))
        students = [Student.from_json(text) for text in records.values()]
        return sorted(students, key=lambda s: (s.joined, s.id))

    def student(self, code: str, student_id: str) -> Student | None:
        text = self._redis.hget(self._key(code, "students"), student_id)
        return None if text is None else Student.from_json(text)

    def put_poll(self, code: str, poll: Poll) -> None:
        record = poll.to_json()
        pipe = self._redis.pipeline()
        pipe.hset(self._key(code, "polls"), f"{poll.id}|{poll.round}", record)
        # the current round's record also beside its name in the class's hash: every page
        # reads it at every Step, in one round trip (MULTI/EXEC: the two never disagree)
        pipe.hset(self._key(code), mapping={"poll": f"{poll.id}|{poll.round}",
                                            "poll_record": record})  # fmt: skip
        self._keep(pipe, code, "polls")
        pipe.execute()

    def current_poll(self, code: str) -> Poll | None:
        which, record = self._redis.hmget(self._key(code), ["poll", "poll_record"])
        if not which:
            return None
        if not record:  # a class whose round was opened before the record was kept here
            record = self._redis.hget(self._key(code, "polls"), which)
        return None if record is None else Poll.from_json(record)

    def polls(self, code: str) -> list[Poll]:
        records = self._redis.hgetall(self._key(code, "polls"))
        return sorted(
            (Poll.from_json(t) for t in records.values()), key=lambda p: (p.opened, p.round)
        )

    def put_answer(
        self, code: str, poll_id: str, round_: int, student_id: str, choice: str, now: float
    ) -> None:
        part = f"answers:{poll_id}|{round_}"
        pipe = self._redis.pipeline()
        pipe.hset(self._key(code, part), student_id, choice)
        self._keep(pipe, code, part)
        pipe.execute()

    def drop_answer(self, code: str, poll_id: str, round_: int, student_id: str) -> None:
        self._redis.hdel(self._key(code, f"answers:{poll_id}|{round_}"), student_id)

    def answers(self, code: str, poll_id: str, round_: int) -> dict[str, str]:
        return dict(self._redis.hgetall(self._key(code, f"answers:{poll_id}|{round_}")))

    def answer_of(self, code: str, poll_id: str, round_: int, student_id: str) -> str | None:
        found = self._redis.hget(self._key(code, f"answers:{poll_id}|{round_}"), student_id)
        return None if found is None else str(found)

    def answer_count(self, code: str, poll_id: str, round_: int) -> int:
        return int(self._redis.hlen(self._key(code, f"answers:{poll_id}|{round_}")))

    def put_confidence(
        self, code: str, poll_id: str, round_: int, student_id: str, level: str
    ) -> None:
        part = f"confidence:{poll_id}|{round_}"
        if not level:
            self._redis.hdel(self._key(code, part), student_id)
            return
        pipe = self._redis.pipeline()
        pipe.hset(self._key(code, part), student_id, level)
        self._keep(pipe, code, part)
        pipe.execute()

    def confidences(self, code: str, poll_id: str, round_: int) -> dict[str, str]:
        return dict(self._redis.hgetall(self._key(code, f"confidence:{poll_id}|{round_}")))

    def confidence_of(self, code: str, poll_id: str, round_: int, student_id: str) -> str | None:
        found = self._redis.hget(self._key(code, f"confidence:{poll_id}|{round_}"), student_id)
        return None if found is None else str(found)

    def put_lost(self, code: str, screen: str, student_id: str, lost: bool) -> None:
        part = f"lost:{screen}"
        if not lost:
            self._redis.srem(self._key(code, part), student_id)
            return
        pipe = self._redis.pipeline()
        pipe.sadd(self._key(code, part), student_id)
        self._keep(pipe, code, part)
        pipe.execute()

    def lost(self, code: str, screen: str) -> set[str]:
        return {str(sid) for sid in self._redis.smembers(self._key(code, f"lost:{screen}"))}

    def hit(self, key: str, limit: int, window: float, now: float, add: int = 1) -> bool:
        slot_key = f"mcl-rate:{key}:{int(now // window)}"
        pipe = self._redis.pipeline()
        pipe.incrby(slot_key, add)
        pipe.expire(slot_key, max(1, int(window) + 1))
        count = pipe.execute()[0]
        return int(count) <= limit

    def purge(self, before: float) -> int:
        """Nothing to do: Redis deletes a class's keys when their time to live runs out."""
        return 0

    def close(self) -> None:
        self._redis.close()


def _redis_errors() -> tuple[type[BaseException], ...]:
    try:
        import redis
    except ImportError:  # pragma: no cover - the client is a dependency; without it no Redis
        return ()
    return (redis.RedisError,)


translate_errors(RedisStore, _redis_errors())
