"""Tell the students' pages at once that the teacher's screen changed, instead of each page
asking every second.

A student's page that polls sees the teacher's Step when its next poll comes round (half a
poll's interval late on average, a whole one at worst) and every idle poll costs the server a
fragment run. So each server process keeps one *watcher*: a thread that reads the version of
each class that has a student's page on this process (one indexed read per class, ten times a
second, however many students) and, when the teacher published a newer frame than a page drew,
asks that page's session to run the part that draws it again, as Streamlit's own "run on save"
does when a source file changes. It also tells the room which pages are still open, so a
student's page has no timer that fires during a lesson (see :class:`Watcher` for why that
matters; its one quarter-hour timer is there so that a page whose connection comes back asks
for a run: app/classroom/student/page.py).

Data flows one way still: the teacher publishes to the store; the watcher only reads it; a
student's run draws what it reads and tells the watcher which version that was
(:meth:`Watcher.drawn`).

Streamlit has no public call to rerun another session; the watcher reaches the sessions
through the runtime's session manager (:func:`runtime_sessions`). Where that is missing
(``AppTest`` has no runtime; a Streamlit without those names) there is no watcher and a
student's page polls every second instead (app/classroom/student/).
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.classroom.core.room import HERE_SECONDS

__all__ = ["WATCH_SECONDS", "Watcher", "current_fragment", "runtime_sessions"]

#: How often the watcher reads the classes' versions (seconds): the most a push waits.
WATCH_SECONDS = 0.1
#: A page pushed and still behind after this long is rerun whole (a lost fragment rerun).
RETRY_SECONDS = 2.0

_LOG = logging.getLogger(__name__)


@dataclass
class _Page:
    """A student's page this process holds: its class, its student, and what it drew."""

    code: str
    student: str  # the student's id in the class
    drawn: int | None  # the frame version it last drew
    fragment: str  # the fragment that draws the frame ("": the whole page)
    pushed: int | None = None  # the version a rerun was last asked for (asked once each)
    pushed_at: float = 0.0
    here_at: float = 0.0  # when the room was last told the page is open


class Watcher:
    """One per server process: pushes a rerun to each student's page whose class published a
    frame newer than the page drew, and tells the room every HERE_SECONDS which pages are
    still open (so a page needs no timer that fires during a lesson: a timer's message, sent
    before a push reached the browser, would carry the previous round's answer into the new
    round).

    ``version_of(code)`` reads a class's frame version (``None``: the class ended; a page
    that drew a live class is pushed then too, and its run says the class is over).
    ``here_of(code, student)`` says the student's page is open; ``False`` when the teacher
    removed the name (the page is rerun whole and says so). ``session_of(session_id)`` gives
    the session's rerun handle, or ``None`` when the session is gone (the page is forgotten).
    The handle's ``rerun(fragment, sent)`` asks for a run of that fragment ("": the whole
    page) *only if the session is idle*, and then calls ``sent()``; a busy session is left
    alone (its run reads the store itself, and a rerun request folded into a browser's pending
    one would drop the widget values it carries: a student's answer) and is looked at again
    next round."""

    def __init__(
        self,
        version_of: Callable[[str], int | None],
        here_of: Callable[[str, str], bool],
        session_of: Callable[[str], Any],
        every: float = WATCH_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._version_of = version_of
        self._here_of = here_of
        self._session_of = session_of
        self._every = every
        self._clock = clock
        self._pages: dict[str, _Page] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def drawn(
        self, session_id: str, code: str, student: str, version: int | None, fragment: str = ""
    ) -> None:
        """A student's run drew ``version`` of class ``code`` in ``fragment`` (its id; "":
        the whole page), the part a push reruns. Called at the end of that part's run."""
        with self._lock:
            page = self._pages.get(session_id)
            if page is None or (page.code, page.student) != (code, student):
                self._pages[session_id] = _Page(code, student, version, fragment,
                                                here_at=self._clock())  # fmt: skip
            else:
                page.drawn, page.fragment = version, fragment
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="class-push", daemon=True)
                self._thread.start()

    def forget(self, session_id: str) -> None:
        """The page left the class (the join form, or the student explores on their own)."""
        with self._lock:
            self._pages.pop(session_id, None)

    def pages(self) -> int:
        """How many students' pages this process watches."""
        with self._lock:
            return len(self._pages)

    def stop(self) -> None:
        """End the thread (tests; a server process ends it by exiting)."""
        self._wake.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout=5)

    def _run(self) -> None:
        while not self._wake.wait(self._every):
            try:
                self.check()
            except Exception:  # never let one bad read end the pushes for the process
                _LOG.exception("class push: a check failed")

    def check(self) -> int:
        """One round: read each watched class's version once, ask every page behind it to run
        again, and say which pages are still open when their time comes. Returns how many
        pages were asked to run (the idle ones among them are pushed)."""
        now = self._clock()
        with self._lock:
            pages = list(self._pages.items())
        versions: dict[str, int | None] = {}
        for code in {page.code for _, page in pages}:
            try:
                versions[code] = self._version_of(code)
            except OSError:  # the store is away for a moment: the next round tries again
                continue
        asked = 0
        for sid, page in pages:
            fragment = self._due(page, versions, now)
            if fragment is None:
                continue
            session = self._session_of(sid)
            if session is None:
                self.forget(sid)
                continue
            version = versions.get(page.code, page.drawn)
            session.rerun(fragment, functools.partial(self._sent, page, version, now))
            asked += 1
        return asked

    def _due(self, page: _Page, versions: dict[str, int | None], now: float) -> str | None:
        """What of this page to run again now: its frame's fragment (a new version), the whole
        page (a push that did not take, or a name the teacher removed), or nothing."""
        if page.code in versions and versions[page.code] != page.drawn:
            if versions[page.code] != page.pushed:
                return page.fragment
            if now - page.pushed_at >= RETRY_SECONDS:
                return ""
        if now - page.here_at >= HERE_SECONDS:
            page.here_at = now
            try:
                if not self._here_of(page.code, page.student):
                    return ""
            except OSError:
                pass
        return None

    def _sent(self, page: _Page, version: int | None, now: float) -> None:
        with self._lock:
            page.pushed, page.pushed_at = version, now  # asked once per version


class _RuntimeSession:
    """A rerun handle on one of this process's Streamlit sessions."""

    def __init__(self, session: Any) -> None:
        self._session = session

    def rerun(self, fragment: str, sent: Callable[[], None]) -> None:
        session = self._session
        # the session's last client state (its address and page, no widget changes), as
        # "run on save" uses: the part runs again and every widget keeps its value. A fragment
        # that a full run since removed is refused by request_rerun: the watcher's retry after
        # RETRY_SECONDS reruns the whole page.
        client_state = type(session._client_state)()
        client_state.CopyFrom(session._client_state)
        client_state.fragment_id = fragment

        def push() -> None:
            # On the session's own event loop, where the browser's messages are handled too:
            # no message can come between the look and the request. A session with a script
            # runner is running or about to (a browser's rerun is pending): left alone.
            if session._scriptrunner is None:
                session.request_rerun(client_state)
                sent()

        session._call_soon_on_event_loop(push)


def current_fragment() -> str:
    """The id of the fragment running now ("" outside one, or where Streamlit keeps it under
    another name: a push then reruns the whole page, which also works)."""
    try:
        from streamlit.runtime.scriptrunner_utils.script_run_context import ThreadState
    except ImportError:  # pragma: no cover - a Streamlit that keeps it elsewhere
        return ""
    return str(getattr(ThreadState.get(), "fragment_id", None) or "")


def runtime_sessions() -> Callable[[str], Any] | None:
    """``session_of`` for :class:`Watcher` over this process's Streamlit runtime, or ``None``
    when there is no runtime (AppTest) or it lacks what the watcher uses. Called from a
    session's run (its session is the one checked)."""
    try:
        from streamlit.runtime import Runtime
        from streamlit.runtime.app_session import AppSession
        from streamlit.runtime.scriptrunner import get_script_run_ctx
    except ImportError:  # pragma: no cover - a Streamlit without these modules
        return None
    if not Runtime.exists():
        return None
    manager = getattr(Runtime.instance(), "_session_mgr", None)
    needed = ("request_rerun", "_call_soon_on_event_loop")
    if (
        manager is None
        or not hasattr(manager, "get_active_session_info")
        or not all(hasattr(AppSession, name) for name in needed)
    ):
        return None

    # what a push reads of a session, checked on the session asking (every session is alike):
    # without them there is no watcher and the pages poll, rather than wait for pushes
    ctx = get_script_run_ctx()
    info = None if ctx is None else manager.get_active_session_info(ctx.session_id)
    if info is None or not all(
        hasattr(info.session, name) for name in ("_scriptrunner", "_client_state")
    ):
        _LOG.warning("class push: this Streamlit's sessions differ; students' pages poll")
        return None

    def session_of(session_id: str) -> _RuntimeSession | None:
        info = manager.get_active_session_info(session_id)
        return None if info is None else _RuntimeSession(info.session)

    return session_of
