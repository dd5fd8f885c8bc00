"""The session model: what one browser session keeps besides its widgets (``Session``,
its history entries and notices), the defaults of every widget key, the shared-server limits,
and the guards every callback runs under (an error becomes a notice, never a traceback)."""

from __future__ import annotations

import functools
import logging
import random
import time
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType

from app.drawing.tree_model import TreeView
from app.inputs.links import (
    ITERATIONS_RANGE,
)
from app.quiz import QuizState
from app.words.exact import ExactAnswer
from app.words.i18n import N_, _, current_tag, decimal
from app.words.narration import PhaseContext
from games.registry import DEFAULT_GAME, game_spec
from mcts_core import Evaluation, Expansion, IterationTrace, Search, SearchConfig
from mcts_core.game import Action, State
from mcts_core.phases import Phase
from mcts_core.trace import PathStep
from mcts_lab.arena import ArenaResult
from mcts_lab.compare.lockstep import Lockstep
from mcts_lab.sweep.sweeps import SweepResult

LOG = logging.getLogger("mcts_lab.app")


HISTORY_LIMIT = 200
SERIES_LIMIT = 400


#: The searches of the sessions alive in this server process (gone when a session closes).
LIVE_SEARCHES: weakref.WeakSet[Search] = weakref.WeakSet()
MAX_ITERATIONS_PER_CLICK = ITERATIONS_RANGE[1]
#: The Play tab's modes: stable values (``play_mode``'s, compared in code), shown with
#: ``format_func=_`` in the current language.
PLAY_MODES = (N_("Human vs MCTS"), N_("MCTS vs MCTS"), N_("MCTS vs random"))

#: Words kept to be shown later (a history entry's label and narration, the A/B note): a
#: function that makes them in the language current when they are shown, so a session that
#: switches language, or a phone in another language, never sees the words of the run that
#: wrote them. ``lambda: _("Reset", ...)``.
Words = Callable[[], str]


def no_words() -> str:
    return ""


def sentences(*parts: str) -> str:
    """Sentences one after the other (empty ones left out), joined the language's way (a
    space in English, none in Chinese): the joining pattern is itself a message."""
    kept = [p for p in parts if p]
    if not kept:
        return ""
    text = kept[0]
    for part in kept[1:]:
        # TRANSLATORS: two sentences one after the other (a space in English; none in Chinese)
        text = _("{sentence} {next}", sentence=text, next=part)
    return text


#: Widget keys and their defaults. Keys are a documented interface (docs/app.md).
DEFAULTS: dict[str, Any] = {
    "game": DEFAULT_GAME,
    "position": "",
    "seed": 0,
    "c": 1.4,
    "policy": "uct",
    "prior": "uniform",
    "min_visits": 0,
    "expansion": "listed",
    "rollout": "random",
    "rollout_depth": -1,  # -1: play to the end
    "horizon": "game",
    "epsilon": 0.1,
    "win_value": 1.0,
    "draw_value": 0.0,
    "loss_value": -1.0,
    "heuristic_weight": 1.0,
    "value_range": "symmetric",
    "final_policy": "most_visited",
    "solver": False,
    "preset": "custom",
    "iterations_per_click": 100,
    "run_until": "",  # a breakpoint's condition (app/live/stepping.py: on_run_until), and its
    "run_until_arg": "",  # move (and count)
    "play_mode": PLAY_MODES[0],
    "tree_max_nodes": 50,
    "tree_top_k": 3,
    "tree_levels": 6,
    "tree_min_visits": 1,
    "tree_focus": "",
    "print_depth": 3,
    "print_children": 8,
    "show_printed": False,
    "show_arena": False,
    # the Charts tab's watch expressions, ';' between them (mcts_lab.breakpoints.watch)
    "watch": "",
    "autoplay": False,
    "autoplay_batch": False,
    "presentation": False,
    "arena_games": 5,
    "arena_iterations": 100,
    "arena_rollout": "none",
    "arena_opponent": "random",
    "quiz": False,  # quiz mode (app/quiz/quiz_view.py)
    "quiz_answer": None,  # the open question's answer
    "lesson": "",  # the open lesson's name ("" = none; app/lessons/lesson_view.py)
    "exact": False,  # exact values beside Q (app/words/exact.py; computed once per root position)
    "ab": False,  # the A/B tab's lockstep (app/live/ab.py): B follows every Step / Step N
    "ab_c": 1.4,  # B's settings (copied from A's when ``ab`` goes on)
    "ab_policy": "uct",
    "ab_rollout": "random",
    "ab_solver": False,
    "sweep_param": "c",  # the arena tab's sweep (mcts_lab.sweep.sweeps, serial, in this process)
    "sweep_values": "0.5,1.4,3",
    "sweep_games": 2,
}


#: What a phase step returned: the selection's path, the expansion (``None``: nothing to
#: expand), the evaluation, or the finished iteration's trace (backpropagate).
PhaseResult = tuple[PathStep, ...] | Expansion | Evaluation | IterationTrace | None


@dataclass
class HistoryEntry:
    """One click's worth of history: what happened, the trace to show, the tree as drawn."""

    number: int
    iteration: int
    #: what the click did ("step", "phase: select"), made when shown (:attr:`what`)
    say_what: Words
    trace: IterationTrace | None
    #: the phase a phase step ran (``None``: a whole iteration, a move played, a reset)
    phase: Phase | None = None
    phase_result: PhaseResult = None  # what the phase step returned (``phase`` says which)
    dot: str = ""
    drawn: int = 0
    hidden: int = 0
    position: str = ""
    #: the iterations from this entry's root (``position``) when it was written: a link to
    #: this entry rebuilds that many (a tree kept across a played move counted more)
    root_visits: int = 0
    nodes: int = 0  # the tree's size, depth and last click's speed when the entry was written
    depth: int = 0
    rate: float = 0.0
    view: TreeView | None = None  # the browser tree drawing as it was
    #: what happened, in one or two plain sentences, made when shown (:attr:`narration`)
    tell: Words = no_words
    root_stats: dict[Action, tuple[float, float]] = field(default_factory=dict)  # action: share, Q
    #: the root's best_action() then (recorded while ``exact`` is on)
    favourite: Action | None = None
    #: what the tree drawing marked (the last path, the new node, the nodes the backup changed)
    marks: tuple[set[int], int | None, set[int]] = (set(), None, set())
    #: the drawing settings ``view`` was drawn with: (focus id, children per node, levels,
    #: Present mode)
    drawn_with: tuple[int | None, int, int, bool] = (None, 0, 0, False)
    #: the narration made so far, by language tag (made once per language it is shown in)
    told: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    @property
    def what(self) -> str:
        """What the click did, in the current language ("step", "phase: select")."""
        return self.say_what()

    @property
    def narration(self) -> str:
        """What happened, in the current language (made from the entry's data when first shown
        in that language)."""
        tag = current_tag()
        text = self.told.get(tag)
        if text is None:
            text = self.told[tag] = self.tell()
        return text


@dataclass
class Pair:
    """A and B in lockstep. ``lockstep.a`` is the session's search itself (A is never run
    twice); ``root`` is the position both started from; ``note`` says why B stopped following
    A (its tree is full, or its solver proved the root), else "", made from ``stopped`` (why:
    ``"full"`` or ``"proven"``, "" while B follows) and ``stopped_at`` (B's iterations then)
    in the current language. Built and stepped by :mod:`app.live.ab`."""

    lockstep: Lockstep
    config_a: SearchConfig
    root: State
    limit: int  # iterations after which the divergence is no longer looked for
    stopped: str = ""
    stopped_at: int = 0

    @property
    def note(self) -> str:
        if not self.stopped:
            return ""
        if self.stopped == "full":
            return _(
                "B stopped at iteration {n}: its tree is full. Reset to start both again.",
                n=decimal(self.stopped_at),
            )
        return _(
            "B stopped at iteration {n}: its run stopped (a proven root). Reset to start both "
            "again.",
            n=decimal(self.stopped_at),
        )

    @property
    def b(self) -> Search:
        return self.lockstep.b

    @property
    def looking(self) -> bool:
        """True while the next iteration is stepped with traces and compared: the settings
        differ, no divergence is found yet, and fewer than ``limit`` iterations ran."""
        lockstep = self.lockstep
        return (
            lockstep.first_divergence is None
            and bool(lockstep.differences)
            and self.b.iterations < self.limit
            and not self.b.tree_full
        )


@dataclass
class Notice:
    level: str  # "success", "info", "warning", "error"
    text: str


@dataclass
class Session:
    """Non-widget state of one browser session."""

    search: Search
    position: str  # the applied root position (the text box may hold a rejected one)
    history: deque[HistoryEntry] = field(default_factory=lambda: deque(maxlen=HISTORY_LIMIT))
    entries_written: int = 0
    series: list[dict[str, Any]] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    last_rate: float = 0.0  # the last click's iterations a second
    play_rng: random.Random = field(default_factory=lambda: random.Random(0))
    svg_cache: dict[str, str] = field(default_factory=dict)
    arena: ArenaResult | None = None  # the last arena result
    clicked: bool = False  # a callback ran in this rerun (so an autoplay tick must not step)
    autoplay_stopped_at: float = -1e9  # time.monotonic() when a click last stopped autoplay
    autoplay_applied: tuple[bool, float] = (
        False,
        0.0,
    )  # the autoplay (on, speed) the screen's timer was built with
    phase_context: PhaseContext | None = None  # why the pending iteration's selection stopped
    quiz: QuizState | None = None  # the quiz's question, last answer and score
    #: exact answers by (game, root position), computed once each (see :func:`exact_answer`)
    exact: dict[tuple[str, str], ExactAnswer] = field(default_factory=dict)
    ab: Pair | None = None  # search B and its lockstep with A while ``ab`` is on
    ab_widgets: dict[str, Any] = field(default_factory=dict)  # the A/B tab's values (app.live.ab)
    sweep: SweepResult | None = None  # the last sweep
    #: values a callback of the screen's fragment gave to widgets outside it (the sidebar's),
    #: waiting for the full rerun that draws them (see :func:`set_outside_widget`)
    outside_writes: dict[str, Any] = field(default_factory=dict)
    sidebar_stale: bool = False  # a fragment callback changed what the sidebar shows


def session() -> Session:
    lab: Session = st.session_state["lab"]
    return lab


def set_outside_widget(key: str, value: Any) -> None:
    """Give ``value`` to the widget ``key`` that lives outside the screen's fragment (the
    sidebar's Root position), from a callback that may run in a fragment rerun.

    A fragment rerun does not redraw the sidebar, so the browser would keep the widget's old
    value and send it back with the next click, undoing the change (a played move went back to
    the old root). The write is kept until :func:`apply_outside_writes` gives it to the widget
    in a full rerun, which the screen asks for (:func:`outside_writes_waiting`)."""
    st.session_state[key] = value
    session().outside_writes[key] = value


def apply_outside_writes() -> None:
    """In a full run, before the sidebar is drawn: the values fragment callbacks gave to its
    widgets. Writing them again in this run is what makes Streamlit send them to the browser
    (a value written in an earlier run is not sent)."""
    lab = session()
    for key, value in lab.outside_writes.items():
        st.session_state[key] = value
    lab.outside_writes.clear()
    lab.sidebar_stale = False


def redraw_sidebar() -> None:
    """From a callback that may run in a fragment rerun: what the sidebar shows changed (a
    class ended: Start a class and its results under Past classes), so the screen reruns the
    whole page after its own run, as for :func:`set_outside_widget`."""
    session().sidebar_stale = True


def outside_writes_waiting() -> bool:
    """True when a fragment callback wrote a widget outside the fragment, or changed what the
    sidebar shows: the screen must rerun the whole app so the sidebar shows (and later sends)
    the new value."""
    lab = session()
    return bool(lab.outside_writes) or lab.sidebar_stale


#: Autoplay's first speed, clicks per second (the slider ``autoplay_speed`` holds it after).
AUTOPLAY_SPEED = 1.0


def autoplay_speed() -> float:
    """Autoplay's clicks per second: the slider's value, :data:`AUTOPLAY_SPEED` before it is
    first drawn. (Not in :data:`DEFAULTS`: the slider is given its value, see
    app/screen/page.py.)"""
    return float(st.session_state.get("autoplay_speed", AUTOPLAY_SPEED))


def player_names() -> tuple[str, str]:
    """The two players' names in the page's language ("Home" is "Local" in Spanish; X and O
    stay marks): for words only, never stored as a value."""
    first, second = game_spec(st.session_state["game"]).player_names
    return _(first), _(second)


def multi_action(game: Any) -> bool:
    """True for games whose turns are several actions (the tree marks where a turn ends)."""
    return game_spec(game.name).multi_action_turns


def notify(level: str, text: str) -> None:
    session().notices.append(Notice(level, text))


def track_search(search: Search) -> None:
    """Count ``search`` (the A/B view's B) towards the server's node limit while it lives."""
    LIVE_SEARCHES.add(search)


def click_stops_autoplay() -> None:
    """A click's first effect: autoplay stops, and the screen's timer tick must not step too.

    Buttons whose work runs in the script body (Step N, the arena: they draw a progress bar)
    use it as their ``on_click``; every other callback gets it from :func:`safe`."""
    if st.session_state.get("autoplay"):
        session().autoplay_stopped_at = time.monotonic()
    st.session_state["autoplay"] = False
    session().clicked = True


#: Seconds after a click stopped autoplay in which an "on" from the page is taken as stale.
AUTOPLAY_STALE_SECONDS = 1.5


def on_autoplay_toggle() -> None:
    """The Autoplay toggle changed. An "on" just after a click stopped autoplay is the page's
    old value, not a choice: the page's next timer tick can leave before the redrawn toggle
    reaches it and sends the toggle as it last saw it (on), which would start autoplay again
    behind the click. Such an "on" is undone; a deliberate one a moment later holds."""
    if not st.session_state.get("autoplay"):
        return
    if time.monotonic() - session().autoplay_stopped_at < AUTOPLAY_STALE_SECONDS:
        st.session_state["autoplay"] = False


def reported(work: Callable[..., None]) -> Callable[..., None]:
    """Run ``work``; an unexpected error becomes a message instead of a traceback, and the
    session keeps its search (work changes state only after its checks pass)."""

    @functools.wraps(work)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            work(*args, **kwargs)
        except Exception as error:
            LOG.exception("%s failed", work.__name__)
            notify(
                "error",
                _(
                    "That did not work ({error_type}: {error}). Nothing was lost.",
                    error_type=type(error).__name__,
                    error=error,
                ),
            )

    return run


def safe(callback: Callable[..., None]) -> Callable[..., None]:
    """A widget callback: stops autoplay (:func:`click_stops_autoplay`), then runs
    :func:`reported`."""
    guarded = reported(callback)

    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> None:
        click_stops_autoplay()
        guarded(*args, **kwargs)

    return run


def click_waiting() -> bool:
    """True when the user clicked something while this run goes on. Streamlit queues a click
    inside the screen's fragment until the run ends (it does not interrupt a fragment), so a
    long run polls this to stop early: the click is the cancel button."""
    ctx = get_script_run_ctx()
    requests = getattr(ctx, "script_requests", None)
    # ScriptRequests keeps its state private; an unknown layout means "no click waiting"
    return getattr(requests, "_state", None) == ScriptRequestType.RERUN


def server_nodes() -> int:
    """Nodes in every live session's tree in this server process."""
    return sum(search.node_count for search in list(LIVE_SEARCHES))
