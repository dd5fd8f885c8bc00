"""Step clicks that reach the server, counted before Streamlit merges them.

A click on a button sends the browser's rerun message at once. When the session's previous
run is still going, Streamlit keeps one pending rerun and folds every later click into it
(``ScriptRequests`` ORs the button's ``trigger_value``): three clicks during a slow run become
one callback, and two of them were lost without a word. Past one process's capacity that was
most clicks (docs/load_test.md).

So the server counts the Step clicks as they arrive, per session, before the merge
(:func:`install` wraps ``AppSession.handle_backmsg``, which every browser message passes on the
server's event loop), and the Step button's callback takes the count (:func:`take`): the one
run does as many iterations as clicks arrived (app/live/stepping.py). Where the count is not kept
(``streamlit.testing``'s AppTest has no ``AppSession``, or a Streamlit whose ``AppSession``
lacks the method), :func:`take` says 1: one click, one iteration, as before.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

from streamlit.runtime.scriptrunner import get_script_run_ctx

__all__ = ["STEP_KEY", "install", "take"]

#: The Step button's widget key (app/screen/page.py); its widget id ends with ``-step``.
STEP_KEY = "step"

_lock = threading.Lock()
#: Session id -> Step clicks that arrived and no callback took yet. A session appears on its
#: first counted click and leaves when it shuts down.
_pending: dict[str, int] = {}
_installed = False


def _is_step_click(msg: Any) -> bool:
    if msg.WhichOneof("type") != "rerun_script":
        return False
    return any(
        w.id.endswith(f"-{STEP_KEY}") and w.WhichOneof("value") == "trigger_value"
        and w.trigger_value
        for w in msg.rerun_script.widget_states.widgets
    )  # fmt: skip


def install() -> None:
    """Count Step clicks in this server process (once; later calls do nothing)."""
    global _installed
    with _lock:
        if _installed:
            return
        _installed = True
    try:
        from streamlit.runtime.app_session import AppSession
    except ImportError:  # pragma: no cover - a Streamlit without it: one click, one step
        return
    handle, shutdown = (
        getattr(AppSession, "handle_backmsg", None),
        getattr(AppSession, "shutdown", None),
    )
    if handle is None or shutdown is None:  # pragma: no cover - as above
        return

    @functools.wraps(handle)
    def counting(self: Any, msg: Any) -> None:
        try:
            if _is_step_click(msg):
                with _lock:
                    _pending[self.id] = _pending.get(self.id, 0) + 1
        finally:  # counted first: the run this click starts finds it
            handle(self, msg)

    @functools.wraps(shutdown)
    def forgetting(self: Any) -> None:
        with _lock:
            _pending.pop(self.id, None)
        shutdown(self)

    AppSession.handle_backmsg = counting  # type: ignore[method-assign]
    AppSession.shutdown = forgetting  # type: ignore[method-assign]


def take() -> int:
    """The Step clicks of this session that arrived since the last take: the one click that
    started this run plus those Streamlit folded into it. 0 when an earlier run already took
    this run's click (it arrived while that run's callback was starting); 1 where clicks are
    not counted."""
    ctx = get_script_run_ctx()
    session_id = getattr(ctx, "session_id", None)
    with _lock:
        if session_id is None or session_id not in _pending:
            return 1
        count = _pending[session_id]
        _pending[session_id] = 0
    return count
