"""The one module that owns ``st.session_state``: defaults, the search, history, callbacks.

Everything the screen changes goes through a function here. Widgets carry stable keys (see
docs/app.md); the search lives in the session (never in ``st.cache_resource``, which all users
would share).

A *history entry* is written for every click that changes the tree or the root: Step, Step N
(its last iteration's trace), each phase of a phase step, a played move, a reset. Each entry
keeps the trace it shows and the DOT of the tree as drawn then (bounded, so the history is
bounded too: the last ``HISTORY_LIMIT`` entries; older ones are dropped and the screen says so).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import random
import re
import time
import urllib.parse
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.script_requests import ScriptRequestType

from app import exact as perfect
from app.figures import TreeBounds, TreeDrawing, path_ids, series_point, tree_dot
from app.links import (
    ITERATIONS_RANGE,
    MAX_VALUE_CHARS,
    echo,
    link_steps,
    read_link,
)
from app.narration import PhaseContext, narrate_iteration, narrate_phase, selection_end
from app.public_url import public_base
from app.tree_view import TreeView, build_view
from games.registry import DEFAULT_GAME, all_specs, game_spec, make_game
from mcts_core import IterationTrace, NodeCapReached, Search, SearchConfig
from mcts_core.nodes import ActionNode
from mcts_core.queries import principal_variation
from mcts_core.rollout import sample_outcome
from mcts_lab.presets import PRESET_NAMES, preset_overrides

LOG = logging.getLogger("mcts_lab.app")
HISTORY_LIMIT = 200
SERIES_LIMIT = 400
#: One session's tree at most (the CLI's default cap is 500,000): a class shares one server.
SESSION_MAX_NODES = 200_000
#: Every session's live tree together at most (about 220 bytes a node: ~330 MB). Past it, no
#: session's tree grows until one is reset or its session closes.
SERVER_MAX_NODES = 1_500_000
#: Step N stops after this long, whatever N (and says so): one click never holds the server.
STEP_N_SECONDS = 10.0
#: The arena starts no new pair of games after this long (and says so).
ARENA_SECONDS = 60.0
#: The searches of the sessions alive in this server process (gone when a session closes).
_LIVE_SEARCHES: weakref.WeakSet[Search] = weakref.WeakSet()
SESSION_FULL_MESSAGE = (
    f"This tree is full: the app holds one tree to {SESSION_MAX_NODES:,} nodes so that a class "
    "can share one server. Reset, or play a move to keep only its subtree."
)
MAX_ITERATIONS_PER_CLICK = ITERATIONS_RANGE[1]
PLAY_MODES = ("Human vs MCTS", "MCTS vs MCTS", "MCTS vs random")

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
    "autoplay": False,
    "autoplay_batch": False,
    "presentation": False,
    "arena_games": 5,
    "arena_iterations": 100,
    "arena_rollout": "none",
    "arena_opponent": "random",
    "quiz": False,  # quiz mode (app/quiz_view.py)
    "quiz_answer": None,  # the open question's answer
    "lesson": "",  # the open lesson's name ("" = none; app/lesson_view.py)
    "exact": False,  # exact values beside Q (app/exact.py; computed once per root position)
    "ab": False,  # the A/B tab's lockstep (app/ab.py): B follows every Step / Step N
    "ab_c": 1.4,  # B's settings (copied from A's when ``ab`` goes on)
    "ab_policy": "uct",
    "ab_rollout": "random",
    "ab_solver": False,
    "sweep_param": "c",  # the arena tab's sweep (mcts_lab.sweep, serial, in this process)
    "sweep_values": "0.5,1.4,3",
    "sweep_games": 2,
}

#: Every registered game's option widgets (``gridiron_size``, the gridiron weights ``w_*``).
DEFAULTS.update({option.key: option.default for spec in all_specs() for option in spec.options})

#: Query-string parameters: (session key, parser). Values are checked like typed input.


@dataclass
class HistoryEntry:
    """One click's worth of history: what happened, the trace to show, the tree as drawn."""

    number: int
    iteration: int
    what: str
    trace: IterationTrace | None
    phase: str | None = None
    phase_result: Any = None
    dot: str = ""
    drawn: int = 0
    hidden: int = 0
    position: str = ""
    nodes: int = 0  # the tree's size, depth and last click's speed when the entry was written
    depth: int = 0
    rate: float = 0.0
    view: Any = None  # the browser tree drawing as it was (app.tree_view.TreeView)
    narration: str = ""  # what happened, in one or two plain sentences
    root_stats: dict[Any, tuple[float, float]] = field(default_factory=dict)  # action: share, Q
    favourite: Any = None  # the root's best_action() then (recorded while ``exact`` is on)


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
    last_rate: float = 0.0
    last_nodes_rate: float = 0.0
    play_rng: random.Random = field(default_factory=lambda: random.Random(0))
    svg_cache: dict[str, str] = field(default_factory=dict)
    arena: Any = None  # the last arena result (mcts_lab.arena.ArenaResult)
    clicked: bool = False  # a callback ran in this rerun (so an autoplay tick must not step)
    autoplay_applied: tuple[bool, float] = (
        False,
        0.0,
    )  # the autoplay (on, speed) the screen's timer was built with
    phase_context: PhaseContext | None = None  # why the pending iteration's selection stopped
    quiz: Any = None  # the quiz's question, last answer and score (app.quiz.QuizState)
    #: exact answers by (game, root position), computed once each (see :func:`exact_answer`)
    exact: dict[tuple[str, str], perfect.ExactAnswer] = field(default_factory=dict)
    ab: Any = None  # search B and its lockstep with A while ``ab`` is on (app.ab.Pair)
    ab_widgets: dict[str, Any] = field(default_factory=dict)  # the A/B tab's values (app.ab)
    sweep: Any = None  # the last sweep (mcts_lab.sweep.SweepResult)
    #: values a callback of the screen's fragment gave to widgets outside it (the sidebar's),
    #: waiting for the full rerun that draws them (see :func:`set_outside_widget`)
    outside_writes: dict[str, Any] = field(default_factory=dict)


# ------------------------------------------------------------------ access


def session() -> Session:
    return st.session_state["lab"]


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


def outside_writes_waiting() -> bool:
    """True when a fragment callback wrote a widget outside the fragment: the screen must
    rerun the whole app so the sidebar shows (and later sends) the new value."""
    return bool(session().outside_writes)


def game_options() -> dict[str, Any]:
    return _options_for(st.session_state["game"])


def player_names() -> tuple[str, str]:
    return game_spec(st.session_state["game"]).player_names


def draw_tree(highlight: set[int] | None = None, expanded: int | None = None) -> TreeDrawing:
    """The bounded drawing of the current tree with the sidebar's bounds."""
    search = session().search
    return tree_dot(
        search,
        bounds_from_widgets(),
        highlight or set(),
        expanded,
        player_names(),
        mark_turn_ends=multi_action(search.game),
    )


def multi_action(game: Any) -> bool:
    """True for games whose turns are several actions (the tree marks where a turn ends)."""
    return game_spec(game.name).multi_action_turns


def notify(level: str, text: str) -> None:
    session().notices.append(Notice(level, text))


#: SearchConfig field -> the sidebar widget that sets it (the preset picker writes through it).
CONFIG_WIDGETS = {
    "c": "c",
    "tree_policy": "policy",
    "prior": "prior",
    "min_visits": "min_visits",
    "expansion_order": "expansion",
    "rollout": "rollout",
    "epsilon": "epsilon",
    "rollout_depth": "rollout_depth",
    "rollout_horizon": "horizon",
    "win_value": "win_value",
    "draw_value": "draw_value",
    "loss_value": "loss_value",
    "heuristic_weight": "heuristic_weight",
    "value_range": "value_range",
    "final_policy": "final_policy",
    "solver": "solver",
}
PRESET_CHOICES = ("custom", *PRESET_NAMES)


def config_from_widgets() -> SearchConfig:
    """The search config the sidebar describes (``ValueError`` for a nonsense combination)."""
    s = st.session_state
    depth = int(s["rollout_depth"])
    return SearchConfig(
        c=float(s["c"]),
        tree_policy=s["policy"],
        prior=s["prior"],
        min_visits=int(s["min_visits"]),
        expansion_order=s["expansion"],
        rollout=s["rollout"],
        epsilon=float(s["epsilon"]),
        rollout_depth=None if depth < 0 else depth,
        rollout_horizon=s["horizon"],
        win_value=float(s["win_value"]),
        draw_value=float(s["draw_value"]),
        loss_value=float(s["loss_value"]),
        heuristic_weight=float(s["heuristic_weight"]),
        value_range=s["value_range"],
        final_policy=s["final_policy"],
        solver=bool(s["solver"]),
        max_nodes=SESSION_MAX_NODES,
    )


def bounds_from_widgets() -> TreeBounds:
    s = st.session_state
    focus_text = str(s["tree_focus"]).strip().lstrip("#")
    # ASCII digits only ("²".isdigit() is true and int("²") raises), and a sane length
    ok = focus_text.isascii() and focus_text.isdigit() and len(focus_text) <= 12
    focus = int(focus_text) if ok else None
    return TreeBounds(
        max_nodes=int(s["tree_max_nodes"]),
        top_k=int(s["tree_top_k"]),
        min_visits=int(s["tree_min_visits"]),
        focus=focus,
    )


# ------------------------------------------------------------------- set-up


def init() -> None:
    """Set defaults once per session, restoring a shared URL's parameters first."""
    if "lab" in st.session_state:
        return
    for key, value in DEFAULTS.items():
        st.session_state.setdefault(key, value)
    values, warnings = read_link(st.query_params)  # every value checked, none can raise
    st.session_state.update(values)
    given = set(values)
    name = st.session_state["game"]
    for key, value in game_settings(name).items():
        if key not in given:
            st.session_state[key] = value
    position = st.session_state["position"]
    # the variant a position names: a shared 3 v 3 gridiron position opens on 3 v 3
    st.session_state.update(_options_of_position(name, position))
    game = make_game(name, **_options_for(name))
    try:
        state = game.parse_state(position) if position else None
    except ValueError as error:
        warnings.append(f"ignored position {echo(position)} from the link: {error}")
        state = None
    if state is None:  # the game's opening (gridiron: after the kick-off)
        state = opening_state(game, int(st.session_state["seed"]))
        st.session_state["position"] = (
            "" if state == game.initial_state() else game.format_state(state)
        )
    try:
        config = config_from_widgets()
    except ValueError as error:
        warnings.append(f"ignored search settings from the link: {error}")
        for key in ("c", "policy"):
            st.session_state[key] = DEFAULTS[key]
        config = config_from_widgets()
    search = Search(game, state, config, seed=int(st.session_state["seed"]))
    _LIVE_SEARCHES.add(search)
    st.session_state["lab"] = Session(search=search, position=game.format_state(state))
    steps, refused = link_steps(st.query_params.get("steps"))
    warnings += [refused] if refused else []
    for text in warnings:
        notify("warning", text)
    if steps and "lesson" not in st.query_params:  # (a lesson link replays after its page)
        replay_link_steps(steps)


def replay_link_steps(steps: int) -> None:
    """Grow the session's tree to a link's ``steps`` iterations: the same seeded iterations
    again (Step, Step N and phases build the same tree as one run of that many iterations),
    the last one traced, so the screen shows its path and narration as the sender saw them."""
    search = session().search
    before = search.iterations
    missing = steps - before
    if missing <= 0 or search.game.is_terminal(search.root_state):
        return
    start = time.perf_counter()
    result = search.run(iterations=missing - 1, seconds=LINK_REPLAY_SECONDS)
    trace = None
    if result.iterations == missing - 1 and not search.tree_full:
        try:
            trace = search.step()
        except NodeCapReached:
            trace = None
    _rates(search.iterations - before, time.perf_counter() - start, search)
    if search.iterations < steps:
        notify("warning", f"The link's tree was rebuilt to {search.iterations:,} of {steps:,} "
               f"iterations ({result.stopped}).")  # fmt: skip
    what = f"link: {search.iterations:,} iterations"
    if trace is None:
        _record(what, None, narration=(
            f"Opened a shared link: the tree was rebuilt by running its {search.iterations:,} "
            "seeded iterations again."
        ))  # fmt: skip
    else:
        _record(what + " (the last one shown)", trace)


#: A shared link rebuilds its tree by replaying its iterations within this time.
LINK_REPLAY_SECONDS = 10.0


def _options_of_position(game_name: str, position: str) -> dict[str, Any]:
    """The option widgets' values a position string implies (``{"gridiron_size": 3}`` for a
    3 v 3 gridiron position; ``{}`` for an empty or malformed one: parsing reports it)."""
    spec = game_spec(game_name)
    implied = spec.options_of_position(position) if position else {}
    return {option.key: implied[option.name] for option in spec.options if option.name in implied}


def _options_for(game_name: str, widgets: dict[str, Any] | None = None) -> dict[str, Any]:
    """Constructor options from the game's option widgets (``widgets`` overrides some by key):
    the gridiron size and its heuristic weights (the shaping sliders)."""
    options = {}
    for option in game_spec(game_name).options:
        value = (widgets or {}).get(option.key, st.session_state[option.key])
        options[option.name] = float(value) if option.slider else value
    return options


def share_link() -> str:
    """The address that rebuilds this tree on a student's device: the public base (never
    loopback when the machine has a LAN address; ``MCTS_LAB_PUBLIC_URL`` first) with the
    shareable state, without Present mode (the teacher's projector setting)."""
    params = {k: v for k, v in shared_params().items() if k != "presentation"}
    return public_base(st.context.url) + "?" + urllib.parse.urlencode(params)


def sync_query_params() -> None:
    """Write the shareable state into the URL (only when it changed)."""
    wanted = shared_params()
    if {k: st.query_params.get(k) for k in st.query_params} != wanted:
        st.query_params.from_dict(wanted)


def shared_params() -> dict[str, str]:
    """The URL parameters that reproduce this screen: game, position, settings, tree size."""
    s = st.session_state
    wanted = {
        "game": s["game"],
        "position": session().position,
        "seed": str(s["seed"]),
        "c": f"{float(s['c']):g}",
        "policy": s["policy"],
        "iterations": str(s["iterations_per_click"]),
        "solver": "1" if s["solver"] else "0",
    }
    if s["presentation"]:
        wanted["presentation"] = "1"
    if s["exact"]:
        wanted["exact"] = "1"
    if s["lesson"]:  # the open lesson page (app/lesson_view.py): a link reopens it
        wanted["lesson"] = s["lesson"]
        wanted["page"] = str(s.get("lesson_page", 1))
    iterations = session().search.iterations
    if iterations:
        wanted["steps"] = str(iterations)  # the link rebuilds this tree (see init)
    return wanted


def restart_search() -> None:
    """A fresh, empty search from the applied position with the sidebar's settings (the A/B
    view starts A again with B)."""
    _new_search()


def track_search(search: Search) -> None:
    """Count ``search`` (the A/B view's B) towards the server's node limit while it lives."""
    _LIVE_SEARCHES.add(search)


def _new_search(state: Any | None = None) -> None:
    """A fresh search from the applied position (or ``state``) with the sidebar's settings."""
    lab = session()
    s = st.session_state
    game = make_game(s["game"], **game_options())
    if state is None:
        state = game.parse_state(lab.position) if lab.position else game.initial_state()
    lab.search = Search(game, state, config_from_widgets(), seed=int(s["seed"]))
    _LIVE_SEARCHES.add(lab.search)
    lab.position = game.format_state(state)
    lab.history.clear()
    lab.entries_written = 0  # a new tree starts its history at entry 1
    lab.series.clear()
    lab.svg_cache.clear()
    lab.play_rng = random.Random(int(s["seed"]))


# ------------------------------------------------------------------ callbacks


def click_stops_autoplay() -> None:
    """A click's first effect: autoplay stops, and the screen's timer tick must not step too.

    Buttons whose work runs in the script body (Step N, the arena: they draw a progress bar)
    use it as their ``on_click``; every other callback gets it from :func:`safe`."""
    st.session_state["autoplay"] = False
    session().clicked = True


def reported(work: Callable[..., None]) -> Callable[..., None]:
    """Run ``work``; an unexpected error becomes a message instead of a traceback, and the
    session keeps its search (work changes state only after its checks pass)."""

    @functools.wraps(work)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            work(*args, **kwargs)
        except Exception as error:  # noqa: BLE001 - never a traceback on screen
            LOG.exception("%s failed", work.__name__)
            notify(
                "error", f"That did not work ({type(error).__name__}: {error}). Nothing was lost."
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


def game_settings(game_name: str) -> dict[str, Any]:
    """The widgets' values a game starts with when picked (its registration's ``settings``,
    e.g. gridiron: no rollouts, the heuristic expansion order, less exploration)."""
    return {
        CONFIG_WIDGETS[field]: -1 if field == "rollout_depth" and value is None else value
        for field, value in game_spec(game_name).settings.items()
    }


#: How the settings a game changes are named in the message that says so.
SETTING_NAMES = {"c": "C", "expansion": "expansion order", "rollout_depth": "rollout depth"}


def _setting_text(key: str, value: Any) -> str:
    if key == "rollout_depth":
        return (
            "to the end"
            if value < 0
            else "0 (the heuristic values the leaf)"
            if value == 0
            else str(value)
        )
    return f"{value:g}" if isinstance(value, float) else str(value)


def opening_state(game: Any, seed: int) -> Any:
    """Where a game starts on screen: its initial state, after any forced opening move (a lone
    legal action such as gridiron's kick-off) played with seeded dice, so the first Step already
    has real choices to make."""
    state = game.initial_state()
    rng = random.Random(seed)
    for _ in range(4):  # a few forced moves at most
        if game.is_terminal(state):
            break
        legal = list(game.legal_actions(state))
        if len(legal) != 1:
            break
        outcomes = game.chance_outcomes(state, legal[0])
        state = game.next_state(state, legal[0], outcomes[sample_outcome(outcomes, rng)][0])
    return state


@safe
def on_game_change() -> None:
    s = st.session_state
    name = s["game"]
    settings = [game_settings(spec.name) for spec in all_specs()]
    wanted = {key: DEFAULTS[key] for values in settings for key in values}
    wanted.update(game_settings(name))
    changes = [
        f"{SETTING_NAMES.get(key, key)} {_setting_text(key, s[key])} -> {_setting_text(key, value)}"
        for key, value in wanted.items()
        if s[key] != value
    ]
    for key, value in wanted.items():
        s[key] = value
    s["tree_focus"] = ""
    s["preset"] = "custom"
    game = make_game(name, **game_options())
    start = opening_state(game, int(s["seed"]))
    session().position = "" if start == game.initial_state() else game.format_state(start)
    s["position"] = session().position
    try:
        _new_search(start)
    except ValueError as error:
        notify("error", str(error))
        return
    text = f"New game: {game_spec(name).label}. The tree starts empty."
    if session().position:
        text += " The forced opening move (the kick-off) was played, so the first Step has choices."
    if changes:
        text += " Settings changed for this game: " + "; ".join(changes) + "."
    notify("info", text)


@safe
def on_position_change() -> None:
    lab = session()
    text = str(st.session_state["position"]).strip()
    if len(text) > MAX_VALUE_CHARS:  # the same limit as a link's
        notify("error", f"Position not used: {len(text):,} characters is too long.")
        st.session_state["position"] = lab.position
        return
    game = lab.search.game
    name = st.session_state["game"]
    implied = _options_of_position(name, text)
    # a position of another variant (a 3 v 3 gridiron position) switches to it
    if any(st.session_state[key] != value for key, value in implied.items()):
        game = make_game(name, **_options_for(name, implied))
    try:
        state = game.parse_state(text) if text else game.initial_state()
    except ValueError as error:
        notify("error", f"Position {echo(text)} not used: {error}. The previous position is kept.")
        st.session_state["position"] = lab.position
        return
    st.session_state.update(implied)
    _new_search(state)
    st.session_state["tree_focus"] = ""
    notify("info", "New root position: the tree was rebuilt from it.")


@safe
def on_seed_change() -> None:
    try:
        _new_search()
    except ValueError as error:
        notify("error", str(error))
        return
    notify("info", f"Seed {st.session_state['seed']}: the tree was rebuilt (same seed, same tree).")


@safe
def on_param_change(keep_preset: bool = False) -> None:
    """A search parameter changed: keep the tree if its statistics stay meaningful. A setting
    changed by hand makes the preset picker say "custom"."""
    if not keep_preset:
        st.session_state["preset"] = "custom"
    lab = session()
    try:
        config = config_from_widgets()
    except ValueError as error:
        notify("error", f"Setting not used: {error}. The search keeps its previous settings.")
        return
    kept = lab.search.reconfigure(config)
    if kept:
        notify(
            "success",
            f"Tree kept ({lab.search.node_count:,} nodes): the new setting "
            "applies from the next iteration on.",
        )
    else:
        lab.history.clear()
        lab.series.clear()
        notify(
            "warning",
            "Tree rebuilt: this setting changes what the stored values mean "
            "(value shaping, solver), so the old statistics were dropped.",
        )


@safe
def on_preset_change() -> None:
    """Set every search widget to the picked preset: the defaults, then the preset's fields
    (``custom`` leaves the widgets as they are)."""
    name = st.session_state["preset"]
    if name not in PRESET_NAMES:
        return
    fields = {f.name: f.default for f in dataclasses.fields(SearchConfig)}
    fields.update(preset_overrides(name, st.session_state["game"]))
    for field_name, key in CONFIG_WIDGETS.items():
        value = fields[field_name]
        if field_name == "rollout_depth":
            value = -1 if value is None else value
        st.session_state[key] = value
    on_param_change(keep_preset=True)


@safe
def on_variant_change() -> None:
    """An option that makes another variant of the game (gridiron's size): start it anew."""
    on_game_change()


@safe
def on_weights_change() -> None:
    """New heuristic weights make a new game: the tree's values change meaning, so rebuild."""
    _new_search()
    notify("warning", "Tree rebuilt: the heuristic weights changed what leaf values mean.")


# ----------------------------------------------------------------- stepping


def _record(
    what: str,
    trace: IterationTrace | None,
    phase: str | None = None,
    result: Any = None,
    narration: str = "",
) -> None:
    """Write a history entry: the trace, the tree as drawn now, the numbers and the narration.

    ``narration`` is used for entries without a trace (a move played); steps and phases are
    narrated from their trace or phase result."""
    lab = session()
    search = lab.search
    names = player_names()
    c, policy = float(st.session_state["c"]), str(st.session_state["policy"])
    highlight = path_ids(trace) if trace is not None else set()
    if phase == "select" and result is not None:
        highlight = _phase_path(result)
    new_id = None
    if trace is not None and trace.expansion is not None:
        new_id = trace.expansion.node_id
    elif phase == "expand" and result is not None:
        new_id = result.node_id
    changed = {u.node_id for u in trace.updates} if trace is not None else set()
    if phase is not None:
        context: Any = trace if trace is not None else lab.phase_context
        narration = narrate_phase(phase, result, context, names, c, policy)
    elif trace is not None:
        narration = narrate_iteration(trace, names, c, policy)
    lab.entries_written += 1
    children = bool(search.root.children)
    lab.history.append(
        HistoryEntry(
            number=lab.entries_written,
            iteration=search.iterations,
            what=what,
            trace=trace,
            phase=phase,
            phase_result=result,
            position=lab.position,
            nodes=search.node_count,
            depth=search.max_depth,
            rate=lab.last_rate,
            view=tree_view_now(highlight, new_id, changed),
            narration=narration,
            root_stats=root_stats(search),
            favourite=search.best_action() if st.session_state["exact"] and children else None,
        )
    )
    st.session_state["history_index"] = lab.entries_written
    if search.root.children:
        lab.series.append(series_point(search))
        if len(lab.series) > SERIES_LIMIT:  # keep every other old point: bounded, still spans
            lab.series[:] = lab.series[: SERIES_LIMIT // 2 : 2] + lab.series[SERIES_LIMIT // 2 :]


def tree_view_now(
    highlight: set[int] | None = None, new_id: int | None = None, changed: set[int] | None = None
) -> TreeView:
    """The browser drawing of the current tree with the drawing settings (focus, top-k)."""
    s = st.session_state
    return build_view(
        session().search,
        path_ids=highlight or set(),
        new_id=new_id,
        changed_ids=changed or set(),
        focus_id=bounds_from_widgets().focus,
        player_names=player_names(),
        max_children=int(s["tree_top_k"]),
        max_levels=int(s["tree_levels"]),
    )


def root_stats(search: Search) -> dict[Any, tuple[float, float]]:
    """Each root move's share of the root's visits and its Q (the mover's view)."""
    children = search.children_summary()
    total = sum(c.visits for c in children) or 1
    return {c.action: (c.visits / total, c.q) for c in children}


def pv_decisions(search: Search) -> list[tuple[int, Any]]:
    """The principal variation's decisions from the root: (player who moves, action), skipping
    the dice outcomes between them."""
    return [
        (move.parent.player, move.action)
        for move in principal_variation(search)[1:]
        if isinstance(move.parent, ActionNode)
    ]


def pv_labels(search: Search) -> list[tuple[int, str]]:
    """The principal variation's decisions as (player, the move's label) for a text line."""
    labels = []
    state = search.root_state
    game = search.game
    for move in principal_variation(search, max_length=12)[1:]:
        if isinstance(move.parent, ActionNode):
            labels.append((move.parent.player, str(game.action_label(state, move.action))))
            if isinstance(move, ActionNode):
                state = game.next_state(state, move.action, move.outcome)
        elif isinstance(move, ActionNode) and move.parent is not None:  # the dice's result
            state = game.next_state(state, move.parent.action, move.outcome)
    return labels


def _phase_path(steps: Any) -> set[int]:
    ids = {0}
    for step in steps:
        ids.add(step.node_id)
        chosen = getattr(step, "chosen_terms", None)
        if chosen is not None:
            ids.add(chosen.node_id)
        child = getattr(step, "child_id", None)
        if child is not None:
            ids.add(child)
    return ids


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
    return sum(search.node_count for search in list(_LIVE_SEARCHES))


def _cannot_grow() -> bool:
    """True (with a message) when this click must not grow the tree: the game is over at the
    root, or the server's trees together hold ``SERVER_MAX_NODES``."""
    if _game_over_notice():
        return True
    if server_nodes() >= SERVER_MAX_NODES:
        notify(
            "warning",
            f"The server is full: the class's trees hold {server_nodes():,} nodes together "
            f"(the limit is {SERVER_MAX_NODES:,}). Reset this tree, or wait for others to.",
        )
        return True
    return False


def _game_over_notice() -> bool:
    search = session().search
    if search.game.is_terminal(search.root_state):
        notify(
            "info",
            "The game is over at the root: there is nothing to search. Reset the "
            "position or pick another.",
        )
        return True
    return False


@safe
def on_step() -> None:
    from app import ab

    if _cannot_grow():
        return
    ab.prepare()  # with ``ab`` on: B follows A (nothing with it off)
    search = session().search
    start = time.perf_counter()
    try:
        trace = ab.step(search)  # A's iteration, and B's beside it
    except NodeCapReached:
        notify("warning", SESSION_FULL_MESSAGE)
        return
    _rates(1, time.perf_counter() - start, search)
    _record("step", trace)


@reported
def run_batch(progress: Any = None) -> None:
    """Step N: run ``iterations_per_click`` iterations; the last one records its trace."""
    from app import ab

    if _cannot_grow():
        return
    ab.prepare()  # with ``ab`` on: B follows A (nothing with it off)
    lab = session()
    search = lab.search
    n = int(st.session_state["iterations_per_click"])
    before = search.node_count
    start = time.perf_counter()
    if n > 1:
        every = max(1, (n - 1) // 50)

        def report(done: int) -> None:
            # a chart point every 1/50 of the batch, so Step N draws a curve, not a jump
            if search.root.children:
                lab.series.append(series_point(search))
            if progress is not None:
                progress(done / n, text=f"{done:,} / {n:,} iterations")

        result = ab.run(search, n - 1, STEP_N_SECONDS, report, every)  # and B's as many
        if search.node_cap_reached:
            notify("warning", SESSION_FULL_MESSAGE)
        elif result.iterations < n - 1:
            notify(
                "info",
                f"Step {n:,} stopped after {STEP_N_SECONDS:g} s, at {result.iterations + 1:,} "
                "iterations: one click never holds the shared server longer.",
            )
    try:
        trace = ab.step(search)
    except NodeCapReached:
        notify("warning", SESSION_FULL_MESSAGE)
        return
    elapsed = time.perf_counter() - start
    lab.last_rate = n / elapsed if elapsed else 0.0
    lab.last_nodes_rate = (search.node_count - before) / elapsed if elapsed else 0.0
    _record(f"step {n:,}", trace)


def _rates(iterations: int, seconds: float, search: Search) -> None:
    lab = session()
    lab.last_rate = iterations / seconds if seconds else 0.0
    lab.last_nodes_rate = lab.last_rate * 2


@safe
def on_phase_step() -> None:
    if _cannot_grow():
        return
    search = session().search
    phase = search.next_phase
    lab = session()
    if phase == "select":
        path = search.select()
        lab.phase_context = selection_end(search, path)
        _record("phase: select", None, "select", path)
    elif phase == "expand":
        _record("phase: expand", None, "expand", search.expand())
    elif phase == "evaluate":
        _record("phase: simulate", None, "evaluate", search.evaluate())
    else:
        trace = search.backpropagate()
        lab.phase_context = None
        _record("phase: backpropagate", trace, "backpropagate", trace)


@safe
def on_reset() -> None:
    try:
        _new_search()
    except ValueError as error:
        notify("error", str(error))
        return
    notify("info", "Reset: the tree is empty again (same position, settings and seed).")


@safe
def on_unfocus() -> None:
    st.session_state["tree_focus"] = ""


@safe
def on_back() -> None:
    _move_in_history(-1)


@safe
def on_forward() -> None:
    _move_in_history(+1)


def _move_in_history(delta: int) -> None:
    lab = session()
    if not lab.history:
        return
    first, last = lab.history[0].number, lab.history[-1].number
    current = int(st.session_state.get("history_index", last))
    st.session_state["history_index"] = min(last, max(first, current + delta))


#: Autoplay's first speed, clicks per second (the slider ``autoplay_speed`` holds it after).
AUTOPLAY_SPEED = 1.0


def autoplay_speed() -> float:
    """Autoplay's clicks per second: the slider's value, :data:`AUTOPLAY_SPEED` before it is
    first drawn. (Not in :data:`DEFAULTS`: the slider is given its value, see screen.py.)"""
    return float(st.session_state.get("autoplay_speed", AUTOPLAY_SPEED))


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
        notify("info", "Autoplay stopped: the game is over or the tree is full.")
        return
    lab.clicked = False
    if st.session_state["autoplay_batch"]:
        run_batch()
    else:
        on_step()
    lab.clicked = False
    st.session_state["autoplay"] = True  # the step's own callback wrapper switched it off


# -------------------------------------------------------------------- play


def play_move(action: Any, who: str) -> bool:
    """Play ``action`` at the root for real; keep the subtree. False (and a message) if illegal."""
    lab = session()
    search = lab.search
    game = search.game
    state = search.root_state
    if game.is_terminal(state):
        notify("error", "The game is over: no more moves. Reset or set up a new position.")
        return False
    legal = list(game.legal_actions(state))
    if action not in legal:
        notify("error", f"Illegal move refused: {_describe(game, state, action)}. Nothing changed.")
        return False
    label = game.action_label(state, action)
    outcomes = game.chance_outcomes(state, action)
    outcome = outcomes[sample_outcome(outcomes, lab.play_rng)][0]  # the real dice
    before = search.node_count
    reuse = search.advance(action, outcome)
    lab.position = game.format_state(search.root_state)
    set_outside_widget("position", lab.position)  # Play best and the boards run in the screen
    st.session_state["tree_focus"] = ""
    lab.series.clear()
    dice = game.outcome_label(state, action, outcome)
    kept = f"kept {reuse.kept_nodes:,} of {before:,} nodes ({reuse.kept_share:.0%})"
    notify("success", f"{who} played {label}{' — ' + dice if dice else ''}. Tree reuse: {kept}.")
    _record(f"{who}: {label}", None)
    if game.is_terminal(search.root_state):
        returns = game.returns(search.root_state)
        names = player_names()
        result = "draw" if returns[0] == 0 else f"{names[0 if returns[0] > 0 else 1]} wins"
        notify("info", f"Game over: {result}.")
    return True


def _describe(game: Any, state: Any, action: Any) -> str:
    try:
        return f"{game.action_label(state, action)} is not possible here"
    except Exception:  # noqa: BLE001 - a label for an impossible action may not exist
        return f"{action!r} is not possible here"


@safe
def on_board_click(action: Any) -> None:
    play_move(action, "You")


@safe
def on_play_best() -> None:
    lab = session()
    search = lab.search
    if _game_over_notice():
        return
    mcts_side = search.game.current_player(search.root_state)
    if not search.root.children:
        search.run(iterations=int(st.session_state["iterations_per_click"]))
    best = search.best_child()
    if not play_move(best.action, "MCTS"):
        return
    if st.session_state["play_mode"] == "MCTS vs random":
        # the random player answers until it is MCTS's turn again (a gridiron turn is many
        # actions; bounded so a strange position cannot loop)
        for _ in range(1000):
            state = search.root_state
            game = search.game
            if game.is_terminal(state) or game.current_player(state) == mcts_side:
                break
            legal = list(game.legal_actions(state))
            play_move(legal[lab.play_rng.randrange(len(legal))], "Random player")


@reported
def run_arena(progress: Any = None) -> None:
    """Play the arena with the sidebar's search settings (C, policy, expansion order, ...)."""
    from dataclasses import replace

    from mcts_lab.arena import play_arena, rollout_config

    s = st.session_state
    lab = session()
    base = rollout_config(s["arena_rollout"])
    config = replace(config_from_widgets(), rollout_depth=base.rollout_depth,
                     rollout_horizon=base.rollout_horizon)  # fmt: skip
    game = make_game(s["game"], **game_options())
    lab.arena = play_arena(
        game, games=int(s["arena_games"]), iterations=int(s["arena_iterations"]),
        config=config, opponent=s["arena_opponent"], seed=int(s["seed"]), progress=progress,
        seconds=ARENA_SECONDS, should_stop=click_waiting,
    )  # fmt: skip
    if lab.arena.stopped:
        notify("info", f"The arena stopped early ({lab.arena.stopped}): the table counts the "
               "games played.")  # fmt: skip


def run_sweep_now(progress: Any = None) -> Notice | None:
    """The arena tab's sweep: ``sweep_param`` over ``sweep_values``, ``sweep_games`` games per
    side per value, with the arena's iterations, rollout and opponent on the sidebar's settings;
    serial in this process, bounded like the arena (``ARENA_SECONDS``, a click stops it).

    Returns what to say beside the sweep (bad values, a setting without effect, an early stop),
    or ``None``; never raises."""
    from dataclasses import replace

    from mcts_lab.arena import rollout_config
    from mcts_lab.sweep import parse_values, resolve_param, run_sweep

    s = st.session_state
    lab = session()
    try:
        param = resolve_param(str(s["sweep_param"]))
        values = parse_values(param, str(s["sweep_values"])[:MAX_VALUE_CHARS])
    except ValueError as error:
        return Notice("warning", "Sweep values: " + str(error).removeprefix("--values: ") + ".")
    try:
        base = rollout_config(s["arena_rollout"])
        config = replace(config_from_widgets(), rollout_depth=base.rollout_depth,
                         rollout_horizon=base.rollout_horizon)  # fmt: skip
        lab.sweep = run_sweep(
            s["game"], param=param, values=values, games=int(s["sweep_games"]),
            iterations=int(s["arena_iterations"]), config=config, opponent=s["arena_opponent"],
            seed=int(s["seed"]), size=game_options().get("size"), backend="serial",
            progress=progress, seconds=ARENA_SECONDS, should_stop=click_waiting,
        )  # fmt: skip
    except ValueError as error:
        return Notice("warning", f"Sweep not run: {str(error).removeprefix('--')}.")
    except Exception as error:  # noqa: BLE001 - never a traceback on screen
        LOG.exception("sweep failed")
        return Notice("error", f"The sweep did not work ({type(error).__name__}: {error}).")
    if lab.sweep.stopped:
        return Notice("info", f"The sweep stopped early ({lab.sweep.stopped}): the chart and "
                      "the table count the games played.")  # fmt: skip
    return None


# ------------------------------------------------------------------- views


def current_entry() -> HistoryEntry | None:
    """The history entry the scrubber points at (the newest by default)."""
    lab = session()
    if not lab.history:
        return None
    wanted = st.session_state.get("history_index", lab.entries_written)
    for entry in lab.history:
        if entry.number == wanted:
            return entry
    return lab.history[-1]


#: Root positions whose exact answers a session keeps (one per position played, at most).
EXACT_CACHE = 32


def exact_answer(position: str | None = None) -> perfect.ExactAnswer | None:
    """The exact values of the root's moves at ``position`` (default: the current root), or
    ``None`` when the ``exact`` toggle is off or the game is over there.

    Worked out once per game and position within ``app.exact.EXACT_SECONDS`` and kept in the
    session, so only the first view that shows them after a new root pays; a Step click after
    that pays a dictionary lookup. Views call this as they draw, never a callback.
    """
    if not st.session_state["exact"]:
        return None
    return solved_exact(perfect.EXACT_SECONDS, position)


def solved_exact(seconds: float, position: str | None = None) -> perfect.ExactAnswer | None:
    """The exact answer at ``position`` (default: the current root) within ``seconds``, or
    ``None`` when the game is over there; whatever the ``exact`` toggle says (the quiz asks
    too). One cache per session for every caller: a kept answer serves a request whose budget
    is no larger than its own, or any request once every move is solved."""
    lab = session()
    search = lab.search
    game = search.game
    position = lab.position if position is None else position
    key = (game.name, position)
    answer = lab.exact.get(key)
    if answer is not None and (answer.seconds >= seconds or None not in answer.values.values()):
        return answer
    root = search.root_state if position == lab.position else game.parse_state(position)
    if game.is_terminal(root):
        return None
    labels = {a: str(game.action_label(root, a)) for a in game.legal_actions(root)}
    answer = perfect.solve(game, root, labels, seconds)
    if len(lab.exact) >= EXACT_CACHE:
        lab.exact.clear()
    lab.exact[key] = answer
    return answer


def exact_verdict(entry: HistoryEntry | None) -> str | None:
    """The sentence that says the search's favourite is wrong at the entry shown (``None``
    when ``exact`` is off, the favourite is a best move, or it is not known). The newest entry
    reads the live favourite (the toggle may have gone on since it was written)."""
    if entry is None or not st.session_state["exact"]:
        return None
    lab = session()
    search = lab.search
    favourite = entry.favourite
    if entry.number == lab.entries_written and entry.position == lab.position:
        favourite = search.best_action() if search.root.children else None
    if favourite is None:
        return None
    answer = exact_answer(entry.position)
    return None if answer is None else perfect.verdict(answer, favourite)


def svg_for(dot: str) -> str | None:
    """Server-side SVG of a DOT drawing (cached), or ``None`` without Graphviz's ``dot``."""
    lab = session()
    cached = lab.svg_cache.get(dot)
    if cached is not None:
        return cached
    try:
        import graphviz

        svg = _fit(graphviz.Source(dot).pipe(format="svg").decode("utf-8"))
    except Exception:  # noqa: BLE001 - no dot binary (ExecutableNotFound) or a render error
        return None
    if len(lab.svg_cache) > 8:
        lab.svg_cache.clear()
    lab.svg_cache[dot] = svg
    return svg


def _fit(svg: str) -> str:
    """Let a wide drawing shrink to the panel's width (never grow past its natural size):
    the SVG keeps its viewBox; its fixed width becomes a max-width."""
    start = svg.find("<svg")
    end = svg.find(">", start)
    head = svg[start:end]
    width = re.search(r'\swidth="([0-9.]+)pt"', head)
    if width is None:
        return svg
    head = re.sub(r'\s(width|height)="[^"]*"', "", head)
    natural = float(width.group(1)) * 4 / 3  # pt -> px
    style = f' style="width:100%; max-width:{natural:.0f}px; height:auto"'
    return svg[:start] + head + style + svg[end:]
