"""Stepping the search: Step, Step N, a phase at a time, Reset, and the autoplay's ticks."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

import streamlit as st

from app.drawing.figures import series_point
from app.inputs.widget_values import SESSION_FULL_MESSAGE
from app.live import ab, clicks
from app.live.history import record_entry, run_phase
from app.live.session import (
    autoplay_speed,
    notify,
    reported,
    safe,
    server_nodes,
    session,
)
from app.live.state import rebuild
from app.words.i18n import _, decimal, n_
from mcts_core import NodeCapReached
from mcts_core.phases import RunStop

if TYPE_CHECKING:
    from mcts_lab.breakpoints.conditions import BreakpointStop


class Progress(Protocol):
    """A progress bar's setter (``DeltaGenerator.progress``): ``value`` from 0 to 1, ``text``
    beside it."""

    def __call__(self, value: float, *, text: str) -> object: ...


#: Every session's live tree together at most (about 220 bytes a node: ~330 MB). Past it, no
#: session's tree grows until one is reset or its session closes.
SERVER_MAX_NODES = 1_500_000

#: Step N stops after this long, whatever N (and says so): one click never holds the server.
STEP_N_SECONDS = 10.0


def cannot_grow() -> bool:
    """True (with a message) when this click must not grow the tree: the game is over at the
    root, or the server's trees together hold ``SERVER_MAX_NODES``."""
    if game_over_notice():
        return True
    if server_nodes() >= SERVER_MAX_NODES:
        notify(
            "warning",
            n_(
                "The server is full: the class's trees hold {n} node together "
                "(the limit is {limit}). Reset this tree, or wait for others to.",
                "The server is full: the class's trees hold {n} nodes together "
                "(the limit is {limit}). Reset this tree, or wait for others to.",
                server_nodes(),
                n=decimal(server_nodes()),
                limit=decimal(SERVER_MAX_NODES),
            ),
        )
        return True
    return False


def say_if_from_history() -> None:
    """The rule for a click that grows the tree while an older history entry is shown: it
    always continues the newest tree (the older trees are pictures, not kept searches), and
    says so, naming the entry shown and where it went on from: without a word, a Step from
    iteration 101 (entry shown) seemed to jump to 103 (newest 102, plus one)."""
    lab = session()
    if not lab.history:
        return
    newest = lab.history[-1]
    shown = st.session_state.get("history_index", newest.number)
    entry = next((e for e in lab.history if e.number == shown), None)
    if entry is None or entry.number == newest.number:
        return
    notify(
        "info",
        _(
            "You were looking at entry {entry} (iteration {iteration}); a click that searches "
            "always continues the newest tree, entry {newest} (iteration {newest_iteration}), "
            "so it went on from iteration {newest_iteration}.",
            entry=entry.number,
            iteration=decimal(entry.iteration),
            newest=newest.number,
            newest_iteration=decimal(newest.iteration),
        ),
    )


def game_over_notice() -> bool:
    search = session().search
    if search.game.is_terminal(search.root_state):
        notify(
            "info",
            _(
                "The game is over at the root: there is nothing to search. Reset the "
                "position or pick another."
            ),
        )
        return True
    return False


@safe
def on_step() -> None:
    """One iteration (autoplay's tick, the class's Reveal; the Step button's own click is
    :func:`on_step_click`)."""
    if cannot_grow():
        return
    say_if_from_history()
    _step_once()


#: Clicks folded into one run at most (a phone that queued a minute of clicks on a stalled
#: connection must not start a long search).
MAX_FOLDED_CLICKS = 100


@safe
def on_step_click() -> None:
    """The Step button: one iteration per click that reached the server. Clicks that arrived
    while this session's previous run was still going were merged by Streamlit into this one
    run (app/live/clicks.py counts them): they run here as extra iterations and a note says so,
    so no click is lost without a word. While a quiz question waits for the next iteration,
    only one runs (more would void the question) and the note says the others were not run."""
    count = clicks.take()
    if count == 0:
        return  # an earlier run took this click with its own
    if count > 1 and _question_waits():
        notify(
            "warning",
            n_(
                "The server was busy: {n} more Step click came while this one waited and was "
                "not run (the quiz's question is about one iteration).",
                "The server was busy: {n} more Step clicks came while this one waited and were "
                "not run (the quiz's question is about one iteration).",
                count - 1,
            ),
        )
        count = 1
    if cannot_grow():
        return
    say_if_from_history()
    if count == 1:
        _step_once()
        return
    count = min(count, MAX_FOLDED_CLICKS)
    ab.prepare()
    search = session().search
    start = time.perf_counter()
    result = ab.run(search, count - 1, STEP_N_SECONDS, None, count)
    try:
        trace = ab.step(search)
    except NodeCapReached:
        notify("warning", SESSION_FULL_MESSAGE)
        return
    done = result.iterations + 1
    _rates(done, time.perf_counter() - start)
    # TRANSLATORS: a history entry's label: {n} Step clicks run together
    record_entry(lambda: _("step x{n}", n=done), trace)
    notify(
        "info",
        # the clicks decide the grammar (the verb agrees with them); the iterations are
        # always more than one
        n_(
            "The server was busy: {n} Step click arrived while your last one ran, so "
            "they ran together ({iterations} iterations; the tree shows the last).",
            "The server was busy: {n} Step clicks arrived while your last one ran, so "
            "they ran together ({iterations} iterations; the tree shows the last).",
            count,
            n=decimal(count),
            iterations=decimal(done),
        ),
    )


def _question_waits() -> bool:
    quiz = session().quiz
    return bool(st.session_state.get("quiz")) and quiz is not None and quiz.pending is not None


def _step_once() -> None:
    ab.prepare()  # with ``ab`` on: B follows A (nothing with it off)
    search = session().search
    start = time.perf_counter()
    try:
        trace = ab.step(search)  # A's iteration, and B's beside it
    except NodeCapReached:
        notify("warning", SESSION_FULL_MESSAGE)
        return
    _rates(1, time.perf_counter() - start)
    # TRANSLATORS: a history entry's label: one Step click
    record_entry(lambda: _("step"), trace)


@reported
def run_batch(
    progress: Progress | None = None,
    should_stop: Callable[[], bool] | None = None,
    until: BreakpointStop | None = None,
) -> None:
    """Step N: run ``iterations_per_click`` iterations; the last one records its trace.

    ``should_stop``, a breakpoint (a function of the session's search that says stop), is
    asked after every iteration (:func:`app.live.ab.run`, then ``Search.run``); True ends the
    batch there: the entry is that iteration (no traced one after it) and a line says so, with
    ``until``'s ``reason`` when it has one (``mcts_lab.breakpoints.conditions.BreakpointStop``)."""
    if cannot_grow():
        return
    say_if_from_history()
    ab.prepare()  # with ``ab`` on: B follows A (nothing with it off)
    lab = session()
    search = lab.search
    n = int(st.session_state["iterations_per_click"])
    start = time.perf_counter()
    if n > 1:
        chart_every = max(1, (n - 1) // 50)
        every = 1 if should_stop is not None else chart_every  # a breakpoint sees each one

        def report(done: int) -> None:
            # a chart point every 1/50 of the batch, so Step N draws a curve, not a jump
            if search.root.children and done % chart_every == 0:
                lab.series.append(series_point(search))
            if progress is not None:
                progress(
                    done / n,
                    text=n_(
                        "{done} / {n} iteration",
                        "{done} / {n} iterations",
                        n,
                        done=decimal(done),
                        n=decimal(n),
                    ),
                )

        result = ab.run(search, n - 1, STEP_N_SECONDS, report, every, should_stop)  # and B's
        if search.node_cap_reached:
            notify("warning", SESSION_FULL_MESSAGE)
        elif result.stopped is RunStop.CANCELLED:
            # the condition held after this iteration: the entry is the tree as it is now
            why = getattr(until, "reason", None)  # mcts_lab's words (English)
            at, ran = search.iterations, result.iterations
            notify("info", _stopped_at(at, why, ran, n))
            lab.last_rate = ran / max(1e-9, time.perf_counter() - start)
            # TRANSLATORS: a history entry's label: Run until ran {n} iterations
            record_entry(lambda: _("until: {n}", n=decimal(ran)), None,
                         narration=lambda: _stopped_at(at, why))  # fmt: skip
            return
        elif result.iterations < n - 1:
            notify(
                "info",
                n_(
                    "Step {step} stopped after {seconds} s, at {n} iteration: one click never "
                    "holds the shared server longer.",
                    "Step {step} stopped after {seconds} s, at {n} iterations: one click never "
                    "holds the shared server longer.",
                    result.iterations + 1,
                    step=decimal(n),
                    seconds=decimal(STEP_N_SECONDS),
                    n=decimal(result.iterations + 1),
                ),
            )
    try:
        trace = ab.step(search)
    except NodeCapReached:
        notify("warning", SESSION_FULL_MESSAGE)
        return
    elapsed = time.perf_counter() - start
    lab.last_rate = n / elapsed if elapsed else 0.0
    # TRANSLATORS: a history entry's label: Step N ran {n} iterations
    record_entry(lambda: _("step {n}", n=decimal(n)), trace)
    if until is not None:  # the last, traced iteration: did the condition hold there?
        if should_stop is not None and should_stop():
            notify(
                "info",
                _(
                    "Stopped at iteration {n}: {reason}.",
                    n=decimal(search.iterations),
                    reason=until.reason,
                ),
            )
        else:
            notify(
                "info",
                n_(
                    "The condition did not hold within {n} iteration.",
                    "The condition did not hold within {n} iterations.",
                    n,
                    n=decimal(n),
                ),
            )


def _stopped_at(at: int, why: str | None, ran: int | None = None, n: int = 0) -> str:
    """Where a breakpoint stopped Step N: "Stopped at iteration 12: <why>" and, with ``ran``,
    after how many of the ``n`` iterations. ``why`` is mcts_lab's reason (English) or none."""
    if ran is None:
        if why:
            return _("Stopped at iteration {n}: {reason}.", n=decimal(at), reason=why)
        return _("Stopped at iteration {n}: its breakpoint.", n=decimal(at))
    if why:
        return n_(
            "Stopped at iteration {at}: {reason}, after {ran} of {n} iteration.",
            "Stopped at iteration {at}: {reason}, after {ran} of {n} iterations.",
            n,
            at=decimal(at),
            reason=why,
            ran=decimal(ran),
            n=decimal(n),
        )
    return n_(
        "Stopped at iteration {at}: its breakpoint, after {ran} of {n} iteration.",
        "Stopped at iteration {at}: its breakpoint, after {ran} of {n} iterations.",
        n,
        at=decimal(at),
        ran=decimal(ran),
        n=decimal(n),
    )


#: Session keys: the breakpoint's condition (a name of
#: ``mcts_lab.breakpoints.conditions.BREAKPOINTS``, or ``""``: none) and its argument (a root move,
#: ``MOVE>=K`` for ``visits``).
UNTIL, UNTIL_ARG = "run_until", "run_until_arg"


@safe
def on_run_until() -> None:
    """**Run until** (``run_until_go``): Step N, stopped at the first iteration where the chosen
    condition holds (``mcts_lab.breakpoints.conditions``: the CLI's ``--until``), at most N; the
    history entry and a line say where it stopped and why, or that it did not hold within N."""
    from mcts_lab.breakpoints.conditions import BreakpointError, breakpoint_stop, parse_condition

    name = str(st.session_state.get(UNTIL) or "")
    if not name:
        notify("info", _("Choose a condition to run until."))
        return
    argument = str(st.session_state.get(UNTIL_ARG) or "").strip()[:80]
    search = session().search
    try:
        condition = parse_condition(f"{name}:{argument}" if argument else name, search.game,
                                    search.root_state)  # fmt: skip
        stop = breakpoint_stop([condition], search)
    except BreakpointError as error:
        notify("warning", _("Not run: {error}.", error=error))
        return
    if stop():  # (it holds already: nothing to run)
        notify(
            "info",
            _("{condition} holds already: {reason}.", condition=condition.text,
              reason=stop.reason),
        )  # fmt: skip
        return
    run_batch(should_stop=stop, until=stop)


def _rates(iterations: int, seconds: float) -> None:
    """The last click's speed, iterations a second (the statistics line shows it)."""
    session().last_rate = iterations / seconds if seconds else 0.0


@safe
def on_phase_step() -> None:
    if cannot_grow():
        return
    say_if_from_history()
    run_phase()


@safe
def on_reset() -> None:
    rebuild(_("Reset: the tree is empty again (same position, settings and seed)."))


@safe
def on_unfocus() -> None:
    st.session_state["tree_focus"] = ""


def autoplay_interval() -> float | None:
    """Seconds between autoplay ticks, or None when autoplay is off."""
    s = st.session_state
    if not s["autoplay"]:
        return None
    return 1.0 / min(5.0, max(0.5, autoplay_speed()))


def autoplay_tick() -> None:
    """One autoplay step, when the rerun came from the timer rather than a click: one
    iteration, or Step N with "N per tick". Stops at the end of the game or a full tree."""
    lab = session()
    clicked, lab.clicked = lab.clicked, False
    if clicked or not st.session_state["autoplay"]:
        return
    search = lab.search
    if search.game.is_terminal(search.root_state) or search.tree_full:
        st.session_state["autoplay"] = False
        notify("info", _("Autoplay stopped: the game is over or the tree is full."))
        return
    lab.clicked = False
    if st.session_state["autoplay_batch"]:
        run_batch()
    else:
        on_step()
    lab.clicked = False
    st.session_state["autoplay"] = True  # the step's own callback wrapper switched it off
