"""The class store's interface (:class:`ClassStore`, what the room needs of a store) and what
its two backends share: the one error the app catches (:class:`StoreError`), the wrapper that
turns a backend's own errors into it, the retention and the default URL."""

from __future__ import annotations

import functools
import logging
import os
import tempfile
from collections.abc import Callable
from typing import Any, Protocol

from app.classroom.core.records import ClassInfo, Poll, Student

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

    def answer_of(self, code: str, poll_id: str, round_: int, student_id: str) -> str | None:
        """One student's answer to a round (``None``: none given). Read on a student's page at
        every Step: one keyed read, not the round's answers (a class of 120 would make each
        page's run read 120 answers, 120 pages a Step)."""

    def answer_count(self, code: str, poll_id: str, round_: int) -> int: ...

    def put_confidence(
        self, code: str, poll_id: str, round_: int, student_id: str, level: str
    ) -> None:
        """A student's confidence in their answer to a round ("" takes it back), kept beside
        the answer under the same (round, student) (a store from before confidence has none:
        :meth:`confidences` reads it as empty)."""

    def confidences(self, code: str, poll_id: str, round_: int) -> dict[str, str]:
        """Student id -> confidence level, for one round (students who gave one)."""

    def confidence_of(self, code: str, poll_id: str, round_: int, student_id: str) -> str | None:
        """One student's confidence level for a round (``None``: none given); one keyed read,
        as :meth:`answer_of`."""

    def put_lost(self, code: str, screen: str, student_id: str, lost: bool) -> None:
        """A student says they are lost on the teacher's screen ``screen`` (a key of what it
        shows: :func:`app.classroom.core.room.screen_key`), or takes it back (``lost`` False)."""

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


def translate_errors(cls: type, errors: tuple[type[BaseException], ...]) -> type:
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
