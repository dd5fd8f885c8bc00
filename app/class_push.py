"""Tell the students' pages at once that the teacher's screen changed, instead of each page
asking every second.

A student's page that polls sees the teacher's Step when its next poll comes round (half a
poll's interval late on average, a whole one at worst) and every idle poll costs the server a
fragment run. So each server process keeps one *watcher*: a thread that reads the version of
each class that has a student's page on this process (one indexed read per class, ten times a
second, however many students) and, when the teacher published a newer frame than a page drew,
asks that page's session to run again, as Streamlit's own "run on save" does when a source
file changes. The page's slow poll stays as the safety net (a watcher that could not start, a
session this process does not hold).

Data flows one way still: the teacher publishes to the store; the watcher only reads it; a
student's run draws what it reads and tells the watcher which version that was
(:meth:`Watcher.drawn`).

Streamlit has no public call to rerun another session; the watcher reaches the session through
the runtime's session manager (:func:`_session`). Where that is missing (``AppTest`` has no
runtime; a Streamlit without those names) :func:`watcher` is ``None`` and the pages poll at the
old pace.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["WATCH_SECONDS", "Watcher", "current_fragment", "runtime_sessions"]

#: How often the watcher reads the classes' versions (seconds): the most a push waits.
WATCH_SECONDS = 0.1

_LOG = logging.getLogger(__name__)


@dataclass
class _Page:
    """A student's page this process holds: its class and the frame version it last drew."""

    code: str
    drawn: int | None
    fragment: str  # the fragment that draws the frame ("": the whole page)
    pushed: int | None = None  # the version a rerun was last asked for (asked once each)


class Watcher:
    """One per server process: pushes a rerun to each student's page whose class published a
    frame newer than the page drew.

    ``version_of(code)`` reads a class's frame version (``None``: the class ended; a page
    that drew a live class is pushed then too, and its run says the class is over).
    ``session_of(session_id)`` gives the session's rerun handle, or ``None`` when the session
    is gone (the page is forgotten). The handle's ``rerun(fragment, sent)`` asks for a run of
    that fragment ("": the whole page) *only if the session is idle*, and then calls
    ``sent()``; a busy session is left alone (its run reads the store itself, and a rerun
    request folded into a browser's pending one would drop the widget values it carries: a
    student's answer) and is looked at again next round."""

    def __init__(
        self,
        version_of: Callable[[str], int | None],
        session_of: Callable[[str], Any],
        every: float = WATCH_SECONDS,
    ) -> None:
        self._version_of = version_of
        self._session_of = session_of
        self._every = every
        self._pages: dict[str, _Page] = {}
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self.pushes = 0  # reruns requested of idle sessions (for the tests)

    def drawn(self, session_id: str, code: str, version: int | None, fragment: str = "") -> None:
        """A student's run drew ``version`` of class ``code`` in ``fragment`` (its id; "":
        the whole page), the part a push reruns. Called at the end of that part's run."""
        with self._lock:
            page = self._pages.get(session_id)
            if page is None or page.code != code:
                self._pages[session_id] = _Page(code, version, fragment)
            else:
                page.drawn, page.fragment = version, fragment
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="class-push", daemon=True
                )
                self._thread.start()

    def forget(self, session_id: str) -> None:
        """The page left the class (it shows the join form again)."""
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
        """One round: read each watched class's version once and ask every page behind it to
        run again. Returns how many pages were asked (the idle ones among them are pushed)."""
        with self._lock:
            codes = {page.code for page in self._pages.values()}
        versions: dict[str, int | None] = {}
        for code in codes:
            try:
                versions[code] = self._version_of(code)
            except OSError:  # the store is away for a moment: the next round tries again
                continue
        with self._lock:
            behind = [
                (sid, page)
                for sid, page in self._pages.items()
                if page.code in versions
                and versions[page.code] != page.drawn
                and versions[page.code] != page.pushed
            ]
        asked = 0
        for sid, page in behind:
            session = self._session_of(sid)
            if session is None:
                self.forget(sid)
                continue
            session.rerun(page.fragment, functools.partial(self._sent, page, versions[page.code]))
            asked += 1
        return asked

    def _sent(self, page: _Page, version: int | None) -> None:
        with self._lock:
            page.pushed = version  # asked once per version, not again every round
            self.pushes += 1


class _RuntimeSession:
    """A rerun handle on one of this process's Streamlit sessions."""

    def __init__(self, session: Any) -> None:
        self._session = session

    def rerun(self, fragment: str, sent: Callable[[], None]) -> None:
        session = self._session
        # the session's last client state (its address and page, no widget changes), as
        # "run on save" uses: the part runs again and every widget keeps its value. A fragment
        # that a full run since removed is refused by request_rerun: the slow poll catches up.
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
    when there is no runtime (AppTest) or it lacks what the watcher uses."""
    try:
        from streamlit.runtime import Runtime
        from streamlit.runtime.app_session import AppSession
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

    def session_of(session_id: str) -> _RuntimeSession | None:
        info = manager.get_active_session_info(session_id)
        if info is None:
            return None
        if not all(hasattr(info.session, name) for name in ("_scriptrunner", "_client_state")):
            _LOG.warning("class push: this Streamlit's sessions differ; pages poll instead")
            return None
        return _RuntimeSession(info.session)

    return session_of
