"""Where a class lives: one small interface, two backends every app process can share.

- :class:`SQLiteStore`: one SQLite file in WAL mode (Python's ``sqlite3``): no set-up, one or
  several processes on one machine. The default (:data:`DEFAULT_URL`).
- :class:`RedisStore`: a Redis server (the ``redis`` client), for replicas on several machines.

:func:`open_store` picks one from a URL (``MCTS_LAB_STORE``): ``sqlite:///path/to/file.db`` or
``redis://host:6379/0``. The rules (who may do what, limits, validation) are the room's
(:mod:`app.classroom.room`); a store keeps records and answers small questions quickly. The
question the app asks most, :meth:`ClassStore.version` (each app process's watcher, ten times a
second per class), is one indexed read. Either backend's failure (a Redis server away, a SQLite
file that cannot be written) reaches the caller as :class:`StoreError`, an ``OSError``: the app
says "the class store did not answer" instead of showing a traceback.

Nothing here is lost when a process restarts: every record is in the store. A class untouched
for :data:`RETENTION_SECONDS` is deleted (SQLite: by :meth:`ClassStore.purge`, which the room
calls when a class starts; Redis: by the keys' time to live).
"""

from __future__ import annotations

import contextlib
import functools
import logging
import os
import queue
import sqlite3
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol

from app.classroom.records import ClassInfo, Poll, Student

__all__ = [
    "DEFAULT_URL",
    "default_store_path",
    "RETENTION_SECONDS",
    "ClassStore",
    "RedisStore",
    "SQLiteStore",
    "StoreError",
    "open_store",
    "store_url",
]

#: A class untouched this long is deleted with its students, questions and answers.
RETENTION_SECONDS = 7 * 24 * 3600


def default_store_path() -> str:
    """The default SQLite file: in the user's own data folder, not the shared temporary one
    (a reboot may clear that, and other users can list it): ``$XDG_DATA_HOME/mcts-lab/`` or
    ``~/.local/share/mcts-lab/`` (``%LOCALAPPDATA%\\mcts-lab\\`` on Windows),
    ``classes.db``. Without a home folder, the temporary folder after all."""
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        base = os.environ["LOCALAPPDATA"]
    elif os.environ.get("XDG_DATA_HOME"):
        base = os.environ["XDG_DATA_HOME"]
    else:
        home = os.path.expanduser("~")
        base = os.path.join(home, ".local", "share") if home != "~" else tempfile.gettempdir()
    return os.path.join(base, "mcts-lab", "classes.db")


#: The store when ``MCTS_LAB_STORE`` names none: :func:`default_store_path`, shared by every
#: app process of this user on this machine and private to the user (the folder 0700 and the
#: file 0600 when they are made).
DEFAULT_URL = "sqlite:///" + default_store_path()


class ClassStore(Protocol):
    """What the room needs of a store. Codes are upper-case join codes; ``now`` is epoch s."""

    def create_class(self, code: str, secret_hash: str, now: float) -> bool:
        """Keep a new class; False (nothing written) when ``code`` is in use."""

    def class_info(self, code: str) -> ClassInfo | None: ...

    def secret_hash(self, code: str) -> str | None: ...

    def touch(self, code: str, now: float) -> None:
        """The teacher acted now (keeps the class from going idle)."""

    def end_class(self, code: str, now: float) -> None:
        """No more joins or answers; the version grows (the students' pages are told)."""

    def publish(self, code: str, frame: str, now: float) -> int:
        """Keep ``frame`` (JSON text) as what the class sees; returns its version (one more
        than the last)."""

    def version(self, code: str) -> int | None:
        """The published frame's version (``None``: no such class). Polled: must be cheap."""

    def frame(self, code: str) -> tuple[int, str] | None:
        """The published frame and its version (``(0, "")`` before the first)."""

    def put_student(self, code: str, student: Student) -> None:
        """Add or replace a student (by id)."""

    def update_student(
        self, code: str, student_id: str, change: Callable[[Student], Student | None]
    ) -> Student | None:
        """Replace the student by ``change(student)`` in one step: no other write to the record
        comes between the read and the write (a page's "still here" must not undo the
        teacher's removal of the name). ``change`` may be called more than once (a backend
        that retries) and returns ``None`` to write nothing. What was written, else ``None``
        (no such student, or ``change`` wrote nothing)."""

    def students(self, code: str) -> list[Student]:
        """Every student of the class, removed ones too, in joining order."""

    def student(self, code: str, student_id: str) -> Student | None:
        """One student by id, removed or not (``None``: no such student). Read on every run of
        a student's page: one indexed read, not the class's list."""

    def put_poll(self, code: str, poll: Poll) -> None:
        """Keep a poll (a question's round) and make it the class's current one."""

    def current_poll(self, code: str) -> Poll | None: ...

    def polls(self, code: str) -> list[Poll]:
        """Every round of every question, in the order they opened."""

    def put_answer(
        self, code: str, poll_id: str, round_: int, student_id: str, choice: str, now: float
    ) -> None:
        """A student's answer to a round (replacing their earlier answer to it)."""

    def drop_answer(self, code: str, poll_id: str, round_: int, student_id: str) -> None:
        """Take back a student's answer to a round (none given: nothing happens)."""

    def answers(self, code: str, poll_id: str, round_: int) -> dict[str, str]:
        """Student id -> choice, for one round."""

    def answer_count(self, code: str, poll_id: str, round_: int) -> int: ...

    def put_confidence(
        self, code: str, poll_id: str, round_: int, student_id: str, level: str
    ) -> None:
        """A student's confidence in their answer to a round ("" takes it back), kept beside
        the answer under the same (round, student) (a store from before confidence has none:
        :meth:`confidences` reads it as empty)."""

    def confidences(self, code: str, poll_id: str, round_: int) -> dict[str, str]:
        """Student id -> confidence level, for one round (students who gave one)."""

    def put_lost(self, code: str, screen: str, student_id: str, lost: bool) -> None:
        """A student says they are lost on the teacher's screen ``screen`` (a key of what it
        shows: :func:`app.classroom.room.screen_key`), or takes it back (``lost`` False)."""

    def lost(self, code: str, screen: str) -> set[str]:
        """The students lost on screen ``screen`` (ids: only counted where a teacher sees
        them)."""

    def hit(self, key: str, limit: int, window: float, now: float, add: int = 1) -> bool:
        """Count ``add`` attempts (one; 0 only looks) under ``key`` in the current
        ``window``-second slot; False when that makes more than ``limit`` (a rate limit every
        process shares)."""

    def purge(self, before: float) -> int:
        """Delete the classes last touched before ``before``; how many."""

    def close(self) -> None: ...


_LOG = logging.getLogger(__name__)


class StoreError(OSError):
    """The class store did not answer (the backend's own error is its cause)."""


def _store_errors(cls: type, errors: tuple[type[BaseException], ...]) -> type:
    """``cls`` with every public method and ``__init__`` turning the backend's ``errors``
    into :class:`StoreError` (one exception for the app to catch, whichever the backend)."""

    def translating(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        def call(*args: Any, **kwargs: Any) -> Any:
            try:
                return method(*args, **kwargs)
            except errors as error:
                # the backend's words stay in the log: they name the server's address, which
                # a phone or the projector must not show
                _LOG.warning("class store: %s failed: %s", method.__name__, error)
                raise StoreError(
                    f"the class store did not answer ({type(error).__name__})"
                ) from error

        return call

    for name, method in list(vars(cls).items()):
        if callable(method) and (name == "__init__" or not name.startswith("_")):
            setattr(cls, name, translating(method))
    return cls


def store_url() -> str:
    """The store's URL: ``MCTS_LAB_STORE``, else :data:`DEFAULT_URL`."""
    return os.environ.get("MCTS_LAB_STORE", "").strip() or DEFAULT_URL


def open_store(url: str | None = None) -> ClassStore:
    """The store at ``url`` (default :func:`store_url`); ``ValueError`` for another scheme."""
    url = url or store_url()
    if url.startswith("sqlite://"):
        path = url[len("sqlite://") :]
        if not path or path == "/":
            raise ValueError(f"no file in the store URL {url!r}: sqlite:///path/to/file.db")
        return SQLiteStore(path)
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisStore(url)
    raise ValueError(f"unknown store {url[:40]!r}: use sqlite:///path/to/file.db or redis://host")


# -------------------------------------------------------------------------- SQLite

_SCHEMA = """
CREATE TABLE IF NOT EXISTS classes (
    code TEXT PRIMARY KEY, secret_hash TEXT NOT NULL, created REAL NOT NULL,
    active REAL NOT NULL, ended INTEGER NOT NULL DEFAULT 0, version INTEGER NOT NULL DEFAULT 0,
    frame TEXT NOT NULL DEFAULT '', poll_id TEXT NOT NULL DEFAULT '',
    poll_round INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS students (
    code TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, record TEXT NOT NULL,
    PRIMARY KEY (code, id));
CREATE TABLE IF NOT EXISTS polls (
    code TEXT NOT NULL, id TEXT NOT NULL, round INTEGER NOT NULL, opened REAL NOT NULL,
    record TEXT NOT NULL, PRIMARY KEY (code, id, round));
CREATE TABLE IF NOT EXISTS answers (
    code TEXT NOT NULL, poll TEXT NOT NULL, round INTEGER NOT NULL, student TEXT NOT NULL,
    choice TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (code, poll, round, student));
CREATE TABLE IF NOT EXISTS hits (key TEXT PRIMARY KEY, slot INTEGER NOT NULL,
    count INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS confidences (
    code TEXT NOT NULL, poll TEXT NOT NULL, round INTEGER NOT NULL, student TEXT NOT NULL,
    level TEXT NOT NULL, PRIMARY KEY (code, poll, round, student));
CREATE TABLE IF NOT EXISTS lost (
    code TEXT NOT NULL, screen TEXT NOT NULL, student TEXT NOT NULL,
    PRIMARY KEY (code, screen, student));
"""


class SQLiteStore:
    """A class store in one SQLite file (WAL mode: readers never wait for the writer); every
    process on the machine may open the same file. Connections are pooled, not kept per
    thread: Streamlit starts a thread per run chain (every student's poll, about once a
    second), and a connection per thread cost a connect each time and, kept, memory."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._idle: queue.SimpleQueue[sqlite3.Connection] = queue.SimpleQueue()
        self._connections: list[sqlite3.Connection] = []  # every one opened (for close())
        self._lock = threading.Lock()
        with self._borrow() as db:
            db.executescript(_SCHEMA)  # (executescript commits on its own)

    def _connect(self) -> sqlite3.Connection:
        directory = os.path.dirname(os.path.abspath(self.path))
        os.makedirs(directory, mode=0o700, exist_ok=True)
        # made private to this user before SQLite opens it (its WAL and shared-memory files
        # take the database file's permissions): the answers and names are the class's
        with contextlib.suppress(FileExistsError):
            os.close(os.open(self.path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
        db = sqlite3.connect(self.path, timeout=10, isolation_level=None,
                             check_same_thread=False)  # fmt: skip
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")  # WAL: durable at checkpoints, never corrupt
        db.execute("PRAGMA busy_timeout=10000")
        with self._lock:
            self._connections.append(db)
        return db

    @contextmanager
    def _borrow(self) -> Iterator[sqlite3.Connection]:
        """A connection for this thread alone until the block ends (the pool grows to the
        number of threads inside the store at once, a handful)."""
        try:
            db = self._idle.get_nowait()
        except queue.Empty:
            db = self._connect()
        try:
            yield db
        finally:
            self._idle.put(db)

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (taken at once, so two writers queue instead of failing)."""
        with self._borrow() as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")

    def _all(self, sql: str, *args: Any) -> list[Any]:
        with self._borrow() as db:
            return db.execute(sql, args).fetchall()

    def _one(self, sql: str, *args: Any) -> Any:
        with self._borrow() as db:
            return db.execute(sql, args).fetchone()

    def create_class(self, code: str, secret_hash: str, now: float) -> bool:
        with self._write() as db:
            cursor = db.execute(
                "INSERT OR IGNORE INTO classes (code, secret_hash, created, active) "
                "VALUES (?, ?, ?, ?)",
                (code, secret_hash, now, now),
            )
            return cursor.rowcount == 1

    def class_info(self, code: str) -> ClassInfo | None:
        row = self._one(
            "SELECT code, created, active, ended, version FROM classes WHERE code = ?", code
        )
        return None if row is None else ClassInfo(row[0], row[1], row[2], bool(row[3]), row[4])

    def secret_hash(self, code: str) -> str | None:
        row = self._one("SELECT secret_hash FROM classes WHERE code = ?", code)
        return None if row is None else str(row[0])

    def touch(self, code: str, now: float) -> None:
        with self._write() as db:
            db.execute("UPDATE classes SET active = ? WHERE code = ?", (now, code))

    def end_class(self, code: str, now: float) -> None:
        with self._write() as db:
            # a new version: the students' pages learn the class is over as they learn of a frame
            db.execute(
                "UPDATE classes SET ended = 1, active = ?, version = version + 1 WHERE code = ?",
                (now, code),
            )

    def publish(self, code: str, frame: str, now: float) -> int:
        with self._write() as db:
            db.execute(
                "UPDATE classes SET version = version + 1, frame = ?, active = ? WHERE code = ?",
                (frame, now, code),
            )
            row = db.execute("SELECT version FROM classes WHERE code = ?", (code,)).fetchone()
        if row is None:
            raise KeyError(code)
        return int(row[0])

    def version(self, code: str) -> int | None:
        row = self._one("SELECT version FROM classes WHERE code = ?", code)
        return None if row is None else int(row[0])

    def frame(self, code: str) -> tuple[int, str] | None:
        row = self._one("SELECT version, frame FROM classes WHERE code = ?", code)
        return None if row is None else (int(row[0]), str(row[1]))

    def put_student(self, code: str, student: Student) -> None:
        with self._write() as db:
            db.execute(
                "INSERT INTO students (code, id, seq, record) VALUES (?, ?, "
                "(SELECT COALESCE(MAX(seq), 0) + 1 FROM students WHERE code = ?), ?) "
                "ON CONFLICT (code, id) DO UPDATE SET record = excluded.record",
                (code, student.id, code, student.to_json()),
            )

    def update_student(
        self, code: str, student_id: str, change: Callable[[Student], Student | None]
    ) -> Student | None:
        with self._write() as db:  # BEGIN IMMEDIATE: other writers wait until the commit
            row = db.execute(
                "SELECT record FROM students WHERE code = ? AND id = ?", (code, student_id)
            ).fetchone()
            changed = None if row is None else change(Student.from_json(row[0]))
            if changed is not None:
                db.execute(
                    "UPDATE students SET record = ? WHERE code = ? AND id = ?",
                    (changed.to_json(), code, student_id),
                )
            return changed

    def students(self, code: str) -> list[Student]:
        rows = self._all("SELECT record FROM students WHERE code = ? ORDER BY seq", code)
        return [Student.from_json(row[0]) for row in rows]

    def student(self, code: str, student_id: str) -> Student | None:
        row = self._one("SELECT record FROM students WHERE code = ? AND id = ?", code, student_id)
        return None if row is None else Student.from_json(row[0])

    def put_poll(self, code: str, poll: Poll) -> None:
        with self._write() as db:
            db.execute(
                "INSERT INTO polls (code, id, round, opened, record) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (code, id, round) DO UPDATE SET record = excluded.record",
                (code, poll.id, poll.round, poll.opened, poll.to_json()),
            )
            db.execute(
                "UPDATE classes SET poll_id = ?, poll_round = ? WHERE code = ?",
                (poll.id, poll.round, code),
            )

    def current_poll(self, code: str) -> Poll | None:
        row = self._one(
            "SELECT p.record FROM classes c JOIN polls p ON p.code = c.code "
            "AND p.id = c.poll_id AND p.round = c.poll_round WHERE c.code = ?",
            code,
        )
        return None if row is None else Poll.from_json(row[0])

    def polls(self, code: str) -> list[Poll]:
        rows = self._all("SELECT record FROM polls WHERE code = ? ORDER BY opened, round", code)
        return [Poll.from_json(row[0]) for row in rows]

    def put_answer(
        self, code: str, poll_id: str, round_: int, student_id: str, choice: str, now: float
    ) -> None:
        with self._write() as db:
            db.execute(
                "INSERT INTO answers (code, poll, round, student, choice, at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (code, poll, round, student) "
                "DO UPDATE SET choice = excluded.choice, at = excluded.at",
                (code, poll_id, round_, student_id, choice, now),
            )

    def drop_answer(self, code: str, poll_id: str, round_: int, student_id: str) -> None:
        with self._write() as db:
            db.execute(
                "DELETE FROM answers WHERE code = ? AND poll = ? AND round = ? AND student = ?",
                (code, poll_id, round_, student_id),
            )

    def answers(self, code: str, poll_id: str, round_: int) -> dict[str, str]:
        rows = self._all(
            "SELECT student, choice FROM answers WHERE code = ? AND poll = ? AND round = ?",
            code,
            poll_id,
            round_,
        )
        return {str(student): str(choice) for student, choice in rows}

    def answer_count(self, code: str, poll_id: str, round_: int) -> int:
        row = self._one(
            "SELECT COUNT(*) FROM answers WHERE code = ? AND poll = ? AND round = ?",
            code, poll_id, round_,
        )  # fmt: skip
        return int(row[0])

    def put_confidence(
        self, code: str, poll_id: str, round_: int, student_id: str, level: str
    ) -> None:
        with self._write() as db:
            if level:
                db.execute(
                    "INSERT INTO confidences (code, poll, round, student, level) VALUES "
                    "(?, ?, ?, ?, ?) ON CONFLICT (code, poll, round, student) "
                    "DO UPDATE SET level = excluded.level",
                    (code, poll_id, round_, student_id, level),
                )
            else:
                db.execute(
                    "DELETE FROM confidences WHERE code = ? AND poll = ? AND round = ? "
                    "AND student = ?",
                    (code, poll_id, round_, student_id),
                )

    def confidences(self, code: str, poll_id: str, round_: int) -> dict[str, str]:
        rows = self._all(
            "SELECT student, level FROM confidences WHERE code = ? AND poll = ? AND round = ?",
            code, poll_id, round_,
        )  # fmt: skip
        return {str(student): str(level) for student, level in rows}

    def put_lost(self, code: str, screen: str, student_id: str, lost: bool) -> None:
        with self._write() as db:
            if lost:
                db.execute(
                    "INSERT OR IGNORE INTO lost (code, screen, student) VALUES (?, ?, ?)",
                    (code, screen, student_id),
                )
            else:
                db.execute(
                    "DELETE FROM lost WHERE code = ? AND screen = ? AND student = ?",
                    (code, screen, student_id),
                )

    def lost(self, code: str, screen: str) -> set[str]:
        rows = self._all("SELECT student FROM lost WHERE code = ? AND screen = ?", code, screen)
        return {str(row[0]) for row in rows}

    def hit(self, key: str, limit: int, window: float, now: float, add: int = 1) -> bool:
        slot = int(now // window)
        with self._write() as db:
            db.execute(
                "INSERT INTO hits (key, slot, count) VALUES (?, ?, ?) ON CONFLICT (key) DO "
                "UPDATE SET count = CASE WHEN slot = excluded.slot THEN count + excluded.count "
                "ELSE excluded.count END, slot = excluded.slot",
                (key, slot, add),
            )
            count = db.execute("SELECT count FROM hits WHERE key = ?", (key,)).fetchone()[0]
        return int(count) <= limit

    def purge(self, before: float) -> int:
        with self._write() as db:
            codes = [row[0] for row in db.execute(
                "SELECT code FROM classes WHERE active < ?", (before,)
            ).fetchall()]  # fmt: skip
            for table in ("answers", "confidences", "lost", "polls", "students", "classes"):
                db.executemany(f"DELETE FROM {table} WHERE code = ?", [(c,) for c in codes])
            # rate-limit slots older than a day count nothing any more
            db.execute("DELETE FROM hits WHERE slot < ?", (int(before // 60),))
        return len(codes)

    def close(self) -> None:
        with self._lock:
            for db in self._connections:
                db.close()
            self._connections.clear()
        self._idle = queue.SimpleQueue()


# --------------------------------------------------------------------------- Redis


_store_errors(SQLiteStore, (sqlite3.Error,))


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
        pipe = self._redis.pipeline()
        pipe.hset(self._key(code, "polls"), f"{poll.id}|{poll.round}", poll.to_json())
        pipe.hset(self._key(code), "poll", f"{poll.id}|{poll.round}")
        self._keep(pipe, code, "polls")
        pipe.execute()

    def current_poll(self, code: str) -> Poll | None:
        which = self._redis.hget(self._key(code), "poll")
        if not which:
            return None
        text = self._redis.hget(self._key(code, "polls"), which)
        return None if text is None else Poll.from_json(text)

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


_store_errors(RedisStore, _redis_errors())
