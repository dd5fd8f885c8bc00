"""The A/B view: search B follows search A click by click, and the first place they part.

A is the session's search (the sidebar's settings). With the ``ab`` toggle on, B is a second
search on A's root position with A's seed and A's settings except the few the A/B tab sets
(``ab_c``, ``ab_policy``, ``ab_rollout``, ``ab_solver``). Every Step and Step N click runs the
same number of iterations of B as of A. Until their selection paths first part, both are
stepped by :class:`mcts_lab.compare.Lockstep` (with traces, so the first divergence is found
and explained exactly as ``mcts-lab compare`` finds it); after that, B runs without traces and
A its usual fast loop. The search for the divergence stops after ``LOCKSTEP_LIMIT`` iterations
(a traced iteration costs several untraced ones), and identical settings, which never part,
are never traced: B then costs a click its own iterations only.

B lives in the session (``Session.ab``) only while the toggle is on: with it off nothing is
built or computed, and a click costs what it did. The pair starts from two empty trees, so
when B is (re)built while A already has iterations (the toggle goes on, B's settings change,
or A changed under it: a reset, a new position, a played move, A's settings, a phase step), A
is started again too, and the screen says so.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import streamlit as st

from app.live import session, state
from app.live.session import Pair
from app.words.i18n import _
from mcts_core import ConfigError, IterationTrace, NodeCapReached, RunResult, Search, SearchConfig
from mcts_core.phases import RunStop
from mcts_lab.compare.lockstep import Lockstep

#: The lockstep looks for the first divergence (both searches traced, several times slower
#: than the fast loop) in the first this-many iterations at most; two identical settings never
#: part, so they are not traced at all.
LOCKSTEP_LIMIT = 5_000

#: The B settings the tab sets, and the sidebar widget (A's) each starts from.
B_WIDGETS = {"ab_c": "c", "ab_policy": "policy", "ab_rollout": "rollout", "ab_solver": "solver"}
#: The tab's widgets whose values the session keeps (``Session.ab_widgets``): Streamlit drops a
#: widget's value while its tab is closed, and B must go on following A from any tab.
AB_KEYS = ("ab", *B_WIDGETS)


def config_b(config_a: SearchConfig) -> SearchConfig:
    """A's settings with the A/B tab's four laid over them (``ConfigError`` for a nonsense
    combination)."""
    s = {**session.DEFAULTS, **session.session().ab_widgets}
    return dataclasses.replace(
        config_a,
        c=float(s["ab_c"]),
        tree_policy=s["ab_policy"],
        rollout=s["ab_rollout"],
        solver=bool(s["ab_solver"]),
    )


def stale(pair: Pair, search: Search) -> str | None:
    """Why the pair no longer describes A (so the next step starts both again), or None (a
    reason for the code and the log, never shown: English)."""
    if pair.lockstep.a is not search:
        return "A was rebuilt (a reset, a new position, seed or game)"
    if search.root_state != pair.root:
        return "a move was played"
    if search.config != pair.config_a:
        return "A's settings changed"
    if not pair.stopped and (
        search.iterations != pair.b.iterations or search.next_phase != "select"
    ):
        return "A ran iterations without B (phase steps)"
    return None


def build() -> None:
    """(Re)build B beside A; A starts again when it is not an empty tree. A setting B cannot
    have leaves no B (and a message)."""
    lab = session.session()
    lab.ab = None
    search = lab.search
    if search.game.is_terminal(search.root_state):
        return
    try:
        b = config_b(search.config)
        lockstep = Lockstep(search.game, search.root_state, search.config, b, seed=search.seed)
    except ConfigError as error:
        session.notify("error", _("B not built: {error}.", error=error))
        return
    fresh = (
        search.iterations == 0
        and search.node_count == 1
        and search.next_phase == "select"
        and search.rng.getstate() == lockstep.a.rng.getstate()
    )
    if not fresh:
        state.restart_search()
        search = lab.search
        lockstep = Lockstep(search.game, search.root_state, search.config, b, seed=search.seed)
        session.notify(
            "info",
            _(
                "A/B: both trees start empty, so that B steps in lockstep with A "
                "(same position and seed)."
            ),
        )
    lockstep.a = search  # the session's own search is A: it is never run twice
    session.track_search(lockstep.b)  # B counts towards the server's node limit
    lab.ab = Pair(lockstep, search.config, search.root_state, LOCKSTEP_LIMIT)


def prepare() -> None:
    """Before a Step / Step N click: with ``ab`` on, make sure B follows A (a click may rebuild
    the pair and so restart A). With ``ab`` off, nothing."""
    lab = session.session()
    if not is_on():
        lab.ab = None
        return
    if lab.ab is None or stale(lab.ab, lab.search) is not None:
        build()


def is_on() -> bool:
    """The ``ab`` toggle as last set (kept in the session while the tab is closed)."""
    return bool(session.session().ab_widgets.get("ab", False))


def _remember() -> None:
    """Keep the tab's widget values in the session (read by :func:`is_on` and
    :func:`config_b`, and restored when the tab is drawn again)."""
    s = st.session_state
    session.session().ab_widgets = {key: s[key] for key in AB_KEYS}


def restore() -> None:
    """Before the tab's widgets are drawn: give them the values the session kept."""
    s = st.session_state
    for key, value in session.session().ab_widgets.items():
        if s.get(key) != value:
            s[key] = value


def _following(search: Search) -> Pair | None:
    pair = session.session().ab
    if pair is None or pair.stopped or pair.lockstep.a is not search:
        return None
    return pair


def _check_b(pair: Pair, search: Search) -> None:
    """After B ran: if it is behind A, it stops following (and the tab says why)."""
    if pair.b.iterations < search.iterations:  # the words: Pair.note, made when shown
        pair.stopped = "full" if pair.b.tree_full else "proven"
        pair.stopped_at = pair.b.iterations


def step(search: Search) -> IterationTrace:
    """One iteration of A (the trace returned) and, with B following, one of B."""
    pair = _following(search)
    if pair is None:
        return search.step()
    if pair.looking:
        try:
            return pair.lockstep.step().trace_a
        except NodeCapReached:
            _check_b(pair, search)
            raise
    trace = search.step()
    if not pair.b.tree_full:
        pair.b.run(iterations=1)
    _check_b(pair, search)
    return trace


def run(
    search: Search,
    iterations: int,
    seconds: float,
    progress: Callable[[int], None] | None,
    progress_every: int,
    should_stop: Callable[[], bool] | None = None,
) -> RunResult:
    """Step N's untraced iterations of A, within ``seconds``; B runs as many. Until the first
    divergence both step in lockstep (with traces); then A runs its fast loop and B as many.

    ``should_stop`` is a breakpoint: asked every ``progress_every`` iterations (every one in
    the lockstep), True ends the run there with ``RunStop.CANCELLED``, as ``Search.run`` does."""
    pair = _following(search)
    if pair is None:
        return search.run(
            iterations,
            seconds,
            progress=progress,
            progress_every=progress_every,
            should_stop=should_stop,
        )
    start = time.perf_counter()
    done = 0
    stopped = RunStop.ITERATIONS
    while pair.looking and done < iterations:
        if time.perf_counter() - start >= seconds:
            stopped = RunStop.SECONDS
            break
        if should_stop is not None and done and should_stop():
            stopped = RunStop.CANCELLED
            break
        if search.tree_full:
            break
        try:
            pair.lockstep.step()
        except NodeCapReached:
            stopped = RunStop.NODE_CAP
            break
        done += 1
        if progress is not None and done % progress_every == 0:
            progress(done)
    left = seconds - (time.perf_counter() - start)
    if done < iterations and stopped == RunStop.ITERATIONS and left > 0:
        report = None if progress is None else (lambda d: progress(done + d))
        result = search.run(
            iterations - done,
            left,
            progress=report,
            progress_every=progress_every,
            should_stop=should_stop,
        )
        if not pair.b.tree_full:
            pair.b.run(iterations=result.iterations)
        done += result.iterations
        stopped = result.stopped
    elif done < iterations and left <= 0:
        stopped = RunStop.SECONDS
    _check_b(pair, search)
    return RunResult(done, time.perf_counter() - start, stopped)


# ------------------------------------------------------------------ callbacks


@session.safe
def on_toggle() -> None:
    """``ab`` switched: on, B starts with A's settings (change one in the tab); off, B is
    dropped."""
    s = st.session_state
    if not s["ab"]:
        _remember()
        session.session().ab = None
        return
    for key, a_key in B_WIDGETS.items():
        s[key] = s[a_key]
    _remember()
    build()


@session.safe
def on_b_change() -> None:
    """One of B's settings changed: B is built again (and A started again with it)."""
    _remember()
    if is_on():
        build()
