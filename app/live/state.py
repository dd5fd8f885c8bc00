"""Start-up, links and the settings' callbacks: the session's first state (defaults, a link's
values checked), building the search from the sidebar (:func:`new_search`, :func:`rebuild`),
the shared link, and the callbacks of the game, position, seed, preset and search settings.

The session record itself is :mod:`app.live.session`; the other callbacks live beside this
module in ``app/live/`` (Step and phases in ``stepping``, moves in ``play``, runs in ``jobs``).
Widgets carry stable keys (see docs/app.md); the search lives in the session (never in
``st.cache_resource``, which all users would share).
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
import urllib.parse
from typing import Any

import streamlit as st

from app.inputs.links import (
    LINKED_SETTINGS,
    MAX_VALUE_CHARS,
    echo,
    link_phase,
    link_steps,
    read_link,
    setting_link_text,
)
from app.inputs.public_url import public_base
from app.inputs.widget_values import CONFIG_WIDGETS, config_from_widgets, game_settings
from app.live.history import record_entry
from app.live.session import (
    DEFAULTS,
    LIVE_SEARCHES,
    Session,
    notify,
    safe,
    sentences,
    session,
)
from app.words.i18n import N_, _, current_tag, decimal, n_, number_text
from games.registry import all_specs, game_spec, make_game, opening_state
from mcts_core import ConfigError, NodeCapReached, PositionError, Search, SearchConfig
from mcts_core.phases import PHASES, Phase
from mcts_lab.presets import PRESET_NAMES, preset_overrides

#: Every registered game's option widgets (``gridiron_size``, the gridiron weights ``w_*``).
DEFAULTS.update({option.key: option.default for spec in all_specs() for option in spec.options})


def game_options() -> dict[str, Any]:
    return _options_for(st.session_state["game"])


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
        warnings.append(
            _(
                "ignored position {position} from the link: {error}",
                position=echo(position),
                error=error,
            )
        )
        state = None
    if state is None:  # the game's opening (gridiron: after the kick-off)
        state = opening_state(game, int(st.session_state["seed"]))
        st.session_state["position"] = (
            "" if state == game.initial_state() else game.format_state(state)
        )
    try:
        config = config_from_widgets()
    except ConfigError as error:
        warnings.append(_("ignored search settings from the link: {error}", error=error))
        for _row, _link, key in LINKED_SETTINGS:  # what a link may set (the settings table's rows)
            st.session_state[key] = DEFAULTS[key]
        config = config_from_widgets()
    search = Search(game, state, config, seed=int(st.session_state["seed"]))
    LIVE_SEARCHES.add(search)
    st.session_state["lab"] = Session(search=search, position=game.format_state(state))
    steps, refused = link_steps(st.query_params.get("steps"))
    warnings += [refused] if refused else []
    for text in warnings:
        notify("warning", text)
    if "lesson" not in st.query_params:  # (a lesson link replays after its page)
        replay_link(steps)


def replay_link(steps: int) -> None:
    """Rebuild a link's tree: its ``steps`` iterations, then the phases of the next one that
    its ``phase`` names (the sender was in the middle of an iteration)."""
    phase, refused = link_phase(st.query_params.get("phase"))
    if refused:
        notify("warning", refused)
    if steps:
        replay_link_steps(steps)
    if phase is not None:
        replay_link_phases(phase)


def replay_link_phases(last: Phase) -> None:
    """Run the next iteration's phases up to ``last`` (each written to the history as the
    Phase button writes it): the screen shows the sender's half-done iteration."""
    from app.live.history import run_phase

    search = session().search
    if search.game.is_terminal(search.root_state) or search.tree_full:
        return
    for _phase in PHASES[: PHASES.index(last) + 1]:
        run_phase()


def replay_link_steps(steps: int) -> None:
    """Grow the session's tree to a link's ``steps`` iterations: the same seeded iterations
    again (Step, Step N and phases build the same tree as one run of that many iterations),
    the last one traced, so the screen shows its path and narration as the sender saw them."""
    search = session().search
    missing = steps - search.iterations
    if missing <= 0 or search.game.is_terminal(search.root_state):
        return
    result = search.run(iterations=missing - 1, seconds=LINK_REPLAY_SECONDS)
    trace = None
    if result.iterations == missing - 1 and not search.tree_full:
        with contextlib.suppress(NodeCapReached):
            trace = search.step()
    if search.iterations < steps:
        notify(
            "warning",
            n_(
                "The link's tree was rebuilt to {done} of {n} iteration ({why}).",
                "The link's tree was rebuilt to {done} of {n} iterations ({why}).",
                steps,
                done=decimal(search.iterations),
                n=decimal(steps),
                why=result.stopped,
            ),
        )
    n = search.iterations
    if trace is None:
        record_entry(
            # TRANSLATORS: a history entry's label: a shared link rebuilt the tree
            lambda: n_("link: {n} iteration", "link: {n} iterations", n, n=decimal(n)),
            None,
            narration=lambda: n_(
                "Opened a shared link: the tree was rebuilt by running its {n} seeded "
                "iteration again.",
                "Opened a shared link: the tree was rebuilt by running its {n} seeded "
                "iterations again.",
                n,
                n=decimal(n),
            ),
        )
    else:
        record_entry(
            # TRANSLATORS: a history entry's label: a shared link rebuilt the tree
            lambda: n_(
                "link: {n} iteration (the last one shown)",
                "link: {n} iterations (the last one shown)",
                n,
                n=decimal(n),
            ),
            trace,
        )


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


def share_link(with_language: bool = False) -> str:
    """The address that rebuilds this tree on a student's device: the public base (never
    loopback when the machine has a LAN address; ``MCTS_LAB_PUBLIC_URL`` first) with
    :func:`replay_params`, and ``lang=`` (this page's language) only when ``with_language``."""
    params = replay_params()
    if with_language:
        params["lang"] = current_tag()
    return public_base(st.context.url) + "?" + urllib.parse.urlencode(params)


def replay_params() -> dict[str, str]:
    """The link parameters that rebuild this screen's tree elsewhere (a shared link, a
    student's "Explore on my own"): the shareable state without Present mode (the teacher's
    projector setting)."""
    from app.live.history import current_entry

    params = {k: v for k, v in shared_params().items() if k not in ("presentation", "phase")}
    entry = current_entry()
    if entry is not None and entry.position != session().position and entry.position:
        params["position"] = entry.position  # an entry from before a played move: its root
    steps = _shown_steps()
    if steps:
        params["steps"] = str(steps)
    else:
        params.pop("steps", None)
    if entry is not None and entry.phase is not None and entry.phase is not Phase.BACKPROPAGATE:
        params["phase"] = entry.phase.label  # in the middle of an iteration
    return params


def _shown_steps() -> int:
    """The iterations that rebuild the tree of the history entry on screen from this root:
    Back shows an older entry (the link rebuilds that one, not the newest), and a tree kept
    across a played move has had fewer iterations from this root than the search counted
    from the game's start (its root's visits, not the count)."""
    from app.live.history import current_entry

    search = session().search
    since_root = min(search.iterations, search.root.visits)  # iterations from this root
    entry = current_entry()
    if entry is None:
        return since_root
    if entry.position != session().position:  # before a played move: that root's count
        return entry.root_visits
    return max(0, since_root - (search.iterations - entry.iteration))


#: Session key: URL parameters kept in the address beside the shareable state (a student
#: exploring on their own keeps their class's, so a reload finds the class again). Never in
#: :func:`share_link`.
URL_KEEP = "url_keep"


def keep_in_url(params: dict[str, str] | None) -> None:
    """Keep ``params`` in the address beside the shareable state from now on (``None``: stop)."""
    if params is None:
        st.session_state.pop(URL_KEEP, None)
    else:
        st.session_state[URL_KEEP] = dict(params)


def start_over() -> None:
    """Forget this session's search and settings: the next :func:`init` starts afresh from the
    address's parameters."""
    for key in ("lab", *DEFAULTS):
        st.session_state.pop(key, None)


def sync_query_params() -> None:
    """Write the shareable state into the URL (only when it changed)."""
    wanted = {**shared_params(), **st.session_state.get(URL_KEEP, {})}
    if {k: st.query_params.get(k) for k in st.query_params} != wanted:
        st.query_params.from_dict(wanted)


def shared_params() -> dict[str, str]:
    """The URL parameters that reproduce this screen: game, position, settings, tree size."""
    s = st.session_state
    wanted = {
        "game": s["game"],
        "position": session().position,
        "seed": str(s["seed"]),
        **{link: setting_link_text(row, s[widget]) for row, link, widget in LINKED_SETTINGS},
        "iterations": str(s["iterations_per_click"]),
    }
    if s["presentation"]:
        wanted["presentation"] = "1"
    if s["exact"]:
        wanted["exact"] = "1"
    if s["lesson"]:  # the open lesson page (app/lessons/lesson_view.py): a link reopens it
        wanted["lesson"] = s["lesson"]
        wanted["page"] = str(s.get("lesson_page", 1))
    search = session().search
    if search.iterations:
        wanted["steps"] = str(search.iterations)  # the link rebuilds this tree (see init)
    done = PHASES.index(search.next_phase)
    if done:  # in the middle of an iteration: the phases run of the next one (the last named)
        wanted["phase"] = PHASES[done - 1].label
    return wanted


def restart_search() -> None:
    """A fresh, empty search from the applied position with the sidebar's settings (the A/B
    view starts A again with B)."""
    new_search()


def new_search(state: object | None = None) -> None:
    """A fresh search from the applied position (or ``state``) with the sidebar's settings."""
    lab = session()
    s = st.session_state
    game = make_game(s["game"], **game_options())
    if state is None:
        state = game.parse_state(lab.position) if lab.position else game.initial_state()
    lab.search = Search(game, state, config_from_widgets(), seed=int(s["seed"]))
    LIVE_SEARCHES.add(lab.search)
    lab.position = game.format_state(state)
    lab.history.clear()
    lab.entries_written = 0  # a new tree starts its history at entry 1
    lab.series.clear()
    lab.svg_cache.clear()
    lab.play_rng = random.Random(int(s["seed"]))


def rebuild(done: str, state: object | None = None, level: str = "info") -> bool:
    """:func:`new_search`, then ``done`` said (an info line, or ``level``); True when it was
    built. A
    position the game cannot read, a search setting out of range or game options that make no
    game keep the previous search, and the message says which of the three it was."""
    try:
        new_search(state)
    except PositionError as error:
        notify(
            "error",
            _("The position cannot be used: {error}. The previous tree is kept.", error=error),
        )
    except ConfigError as error:
        notify(
            "error",
            _("A search setting is not valid: {error}. The previous tree is kept.", error=error),
        )
    except ValueError as error:  # make_game's options (a board size): neither of the above
        notify(
            "error",
            _("The game cannot be set up: {error}. The previous tree is kept.", error=error),
        )
    else:
        notify(level, done)
        return True
    return False


#: How the settings a game changes are named in the message that says so (translated there).
SETTING_NAMES = {"c": "C", "expansion": N_("expansion order"), "rollout_depth": N_("rollout depth")}


def _setting_name(key: str) -> str:
    """A setting's name in the message (C is a term: not translated)."""
    name = SETTING_NAMES.get(key, key)
    return _(name) if key in SETTING_NAMES and key != "c" else name


def _setting_text(key: str, value: Any) -> str:
    if key == "rollout_depth":
        if value < 0:
            # TRANSLATORS: the rollout depth "to the end" of the game
            return _("to the end")
        if value == 0:
            return _("0 (the heuristic values the leaf)")
        return str(value)
    # the value itself (a widget's stable value, "listed"), digits with the language's symbols
    return number_text(f"{value:g}") if isinstance(value, float) else str(value)


@safe
def on_game_change() -> None:
    s = st.session_state
    name = s["game"]
    settings = [game_settings(spec.name) for spec in all_specs()]
    wanted = {key: DEFAULTS[key] for values in settings for key in values}
    wanted.update(game_settings(name))
    changes = [
        # TRANSLATORS: a setting a game changed: "C 1.4 -> 0.5", "rollout depth to the end -> 4"
        _(
            "{setting} {before} -> {after}",
            setting=_setting_name(key),
            before=_setting_text(key, s[key]),
            after=_setting_text(key, value),
        )
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
    listed = ""
    for change in changes:  # a list: the separator is the language's
        listed = _("{changes}; {change}", changes=listed, change=change) if listed else change
    text = sentences(
        _("New game: {game}. The tree starts empty.", game=_(game_spec(name).label)),
        _("The forced opening move (the kick-off) was played, so the first Step has choices.")
        if session().position
        else "",
        _("Settings changed for this game: {changes}.", changes=listed) if changes else "",
    )
    rebuild(text, start)


@safe
def on_position_change() -> None:
    lab = session()
    text = str(st.session_state["position"]).strip()
    if len(text) > MAX_VALUE_CHARS:  # the same limit as a link's
        notify(
            "error",
            n_(
                "Position not used: too long ({n} character).",
                "Position not used: too long ({n} characters).",
                len(text),
                n=decimal(len(text)),
            ),
        )
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
    except ValueError as error:  # a PositionError, or a plain one from a game written elsewhere
        notify(
            "error",
            _(
                "Position {position} not used: {error}. The previous position is kept.",
                position=echo(text),
                error=error,
            ),
        )
        st.session_state["position"] = lab.position
        return
    st.session_state.update(implied)
    if rebuild(_("New root position: the tree was rebuilt from it."), state):
        st.session_state["tree_focus"] = ""
    else:
        st.session_state["position"] = lab.position


@safe
def on_seed_change() -> None:
    rebuild(
        _(
            "Seed {seed}: the tree was rebuilt (same seed, same tree).",
            seed=st.session_state["seed"],
        )
    )


@safe
def on_param_change(keep_preset: bool = False) -> None:
    """A search parameter changed: keep the tree if its statistics stay meaningful. A setting
    changed by hand makes the preset picker say "custom"."""
    if not keep_preset:
        st.session_state["preset"] = "custom"
    lab = session()
    try:
        config = config_from_widgets()
    except ConfigError as error:
        notify(
            "error",
            _("Setting not used: {error}. The search keeps its previous settings.", error=error),
        )
        return
    kept = lab.search.reconfigure(config)
    if kept:
        notify(
            "success",
            n_(
                "Tree kept ({n} node): the new setting applies from the next iteration on.",
                "Tree kept ({n} nodes): the new setting applies from the next iteration on.",
                lab.search.node_count,
                n=decimal(lab.search.node_count),
            ),
        )
    else:
        lab.history.clear()
        lab.series.clear()
        notify(
            "warning",
            _(
                "Tree rebuilt: this setting changes what the stored values mean "
                "(value shaping, solver), so the old statistics were dropped."
            ),
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
    rebuild(
        _("Tree rebuilt: the heuristic weights changed what leaf values mean."), level="warning"
    )
