"""The class store in one SQLite file (WAL mode; Python's ``sqlite3``): no set-up, one or
several processes on one machine. The default (:data:`.base.DEFAULT_URL`)."""

from __future__ import annotations

import collections
import contextlib
import os
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from app.classroom.core.records import ClassInfo, Poll, Student
from app.classroom.core.store.base import translate_errors

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


class _Queue:
    """A lock its waiters get in the order they came: the writer that finishes hands it to the
    next one waiting. A plain lock lets a writer that just arrived (already running) take it
    before the one woken for it (still waiting for the interpreter), and on a busy replica
    an answer could wait behind a dozen later writes."""

    def __init__(self) -> None:
        self._mutex = threading.Lock()
        self._held = False
        self._waiting: collections.deque[threading.Event] = collections.deque()

    def acquire(self, timeout: float) -> bool:
        with self._mutex:
            if not self._held:
                self._held = True
                return True
            mine = threading.Event()
            self._waiting.append(mine)
        if mine.wait(timeout):
            return True
        with self._mutex:
            if mine.is_set():  # handed over as the wait ran out: it is ours
                return True
            self._waiting.remove(mine)
            return False

    def release(self) -> None:
        with self._mutex:
            if self._waiting:
                self._waiting.popleft().set()  # (still held: the next writer's now)
            else:
                self._held = False


#: How long a write waits for another process's write before failing (milliseconds).
BUSY_MS = 10_000
#: The same for a student's answer and the rate-limit count before it (two writes): a phone
#: is told within 2 s that its answer was not sent (and can send it again), never after 10 s.
ANSWER_BUSY_MS = 900


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
        self._writing = _Queue()  # this process's writers, one at a time, in turn (_write)
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
        db.execute(f"PRAGMA busy_timeout={BUSY_MS}")
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
    def _write(self, busy_ms: int = BUSY_MS) -> Iterator[sqlite3.Connection]:
        """One write transaction (taken at once, so two writers queue instead of failing),
        waiting at most ``busy_ms`` in all for the other writers.

        This process's writers queue first (:class:`_Queue`): the next is woken the moment
        the last one commits, where SQLite's own wait polls the file's lock, sleeping up to
        0.1 s between looks, and a busy replica's answers then timed out behind writes that had
        long finished (a replica carrying 120 students after a kill refused 2-4 answers a
        lesson after 0.7 s). The other processes' writers are waited for by SQLite, with what
        is left of ``busy_ms``."""
        deadline = time.monotonic() + busy_ms / 1000
        if not self._writing.acquire(timeout=busy_ms / 1000):
            raise sqlite3.OperationalError("database is locked (this process's writers)")
        try:
            with self._borrow() as db:
                left = max(1, int((deadline - time.monotonic()) * 1000))
                if busy_ms != BUSY_MS:
                    db.execute(f"PRAGMA busy_timeout={left}")
                try:
                    db.execute("BEGIN IMMEDIATE")
                    try:
                        yield db
                    except BaseException:
                        db.execute("ROLLBACK")
                        raise
                    db.execute("COMMIT")
                finally:
                    if busy_ms != BUSY_MS:
                        db.execute(f"PRAGMA busy_timeout={BUSY_MS}")
        finally:
            self._writing.release()

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
        with self._write(ANSWER_BUSY_MS) as db:  # (a phone waits for it: told within 2 s)
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

    def answer_of(self, code: str, poll_id: str, round_: int, student_id: str) -> str | None:
        row = self._one(
            "SELECT choice FROM answers WHERE code = ? AND poll = ? AND round = ? AND student = ?",
            code, poll_id, round_, student_id,
        )  # fmt: skip
        return None if row is None else str(row[0])

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

    def confidence_of(self, code: str, poll_id: str, round_: int, student_id: str) -> str | None:
        row = self._one(
            "SELECT level FROM confidences WHERE code = ? AND poll = ? AND round = ? "
            "AND student = ?",
            code, poll_id, round_, student_id,
        )  # fmt: skip
        return None if row is None else str(row[0])

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
        with self._write(ANSWER_BUSY_MS) as db:  # (a student's request waits for it)
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


translate_errors(SQLiteStore, (sqlite3.Error,))
