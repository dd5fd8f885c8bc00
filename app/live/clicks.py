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

Every button's clicks are counted so, by its widget key, and the same count keeps a button to
one action a click (the teacher's Vote again and Close the vote take it): Streamlit runs a
click's callback again when the click's run is cut short (it replays the run's triggers in the
next: a teacher's Vote again opened round 3 as well as round 2 once, under load), and a replayed
click has no message of its own, so its callback finds the count taken (0) and does nothing.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

from streamlit.runtime.scriptrunner import get_script_run_ctx

__all__ = ["STEP_KEY", "arrived", "install", "take", "widget_key"]

#: The Step button's widget key (app/screen/page.py); its widget id ends with ``-step``.
STEP_KEY = "step"

_lock = threading.Lock()
#: Session id -> widget key -> clicks that arrived and no callback took yet. A key appears on
#: its first click; the session leaves when it shuts down.
_pending: dict[str, dict[str, int]] = {}
_installed = False


def widget_key(widget_id: str) -> str:
    """The key a widget was given, from the id Streamlit makes of it (``$$ID-<hash>-<key>``;
    the app's keys have no hyphen)."""
    return widget_id.rsplit("-", 1)[-1]


def _clicked(msg: Any) -> list[str]:
    """The keys of the buttons this browser message clicks (a trigger set)."""
    if msg.WhichOneof("type") != "rerun_script":
        return []
    return [
        widget_key(w.id) for w in msg.rerun_script.widget_states.widgets
        if w.WhichOneof("value") == "trigger_value" and w.trigger_value
    ]  # fmt: skip


def arrived(session_id: str, msg: Any) -> None:
    """Count the clicks of browser message ``msg`` for ``session_id`` (before Streamlit has it)."""
    keys = _clicked(msg)
    if keys:
        with _lock:
            counts = _pending.setdefault(session_id, {})
            for key in keys:
                counts[key] = counts.get(key, 0) + 1


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
            arrived(self.id, msg)
        finally:  # counted first: the run this click starts finds it
            handle(self, msg)

    @functools.wraps(shutdown)
    def forgetting(self: Any) -> None:
        with _lock:
            _pending.pop(self.id, None)
        shutdown(self)

    AppSession.handle_backmsg = counting  # type: ignore[method-assign]
    AppSession.shutdown = forgetting  # type: ignore[method-assign]


def take(key: str = STEP_KEY) -> int:
    """The clicks on the button keyed ``key`` of this session that arrived since
    the last take: the one click that started this run plus those Streamlit folded into it. 0
    when an earlier run already took this run's click (it arrived while that run's callback was
    starting, or Streamlit runs the callback again); 1 where clicks are not counted."""
    ctx = get_script_run_ctx()
    session_id = getattr(ctx, "session_id", None)
    with _lock:
        counts = _pending.get(session_id or "")
        if counts is None or key not in counts:
            return 1
        count = counts[key]
        counts[key] = 0
    return count
