"""Small helpers the CLI and the app share: games, configs, positions and the search summary.

Everything here is a plain function that returns data (dicts, dataclasses); nothing prints.
The summary dict is the ``mcts-lab search --json`` object documented in ``docs/cli.md``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol, Required, SupportsInt, TypeAlias, TypedDict, cast

from games.registry import (
    GAME_NAMES,
    all_specs,
    game_spec,
    is_openspiel,
    make_game,
    opening_state,
)
from mcts_core import ChanceNode, RunResult, Search, SearchConfig
from mcts_core.game import Action, Game, State
from mcts_lab.settings import SETTINGS

__all__ = [
    "AnyGame",
    "ChildRow",
    "SearchSummary",
    "CONFIG_OPTIONS",
    "GAME_SIZES",
    "INDEXED_BY_ACTION",
    "action_index",
    "build_config",
    "build_game",
    "check_game_name",
    "game_size",
    "children_rows",
    "opening_state",
    "parse_position",
    "principal_variation",
    "search_summary",
    "signed_value",
]


#: A game of whatever state type: the :class:`~mcts_core.game.Game` protocol as the search
#: holds it (the lab builds games by name, so their state types are not known statically).
AnyGame: TypeAlias = Game[Any]


class ChildRow(TypedDict, total=False):
    """One root child in :func:`search_summary` (``children[]`` of ``search --json``)."""

    action: Required[str]
    action_index: Required[int]
    visits: Required[int]
    #: mean value from the root mover's view, in [-1, 1]
    value: Required[float]
    #: "win", "draw" or "loss" for the root mover once proven, else ``None``
    proven: Required[str | None]
    #: with ``--exact``: the move's exact value from the root mover's view (``None``: unknown)
    exact: float | None


class SearchSummary(TypedDict, total=False):
    """The ``mcts-lab search --json`` object (docs/cli.md); values from the root mover's view
    in [-1, 1]. The optional fields are added by ``--exact`` (``regret``) and ``--until``."""

    game: Required[str]
    position: Required[str]
    root_player: Required[int | None]
    iterations: Required[int]
    seconds: Required[float]
    iterations_per_second: Required[float]
    stopped: Required[str | None]
    nodes: Required[int]
    max_depth: Required[int]
    root_value: Required[float | None]
    root_proven: Required[str | None]
    best_action: Required[str | None]
    best_action_index: Required[int | None]
    children: Required[list[ChildRow]]
    final_choices: Required[dict[str, str]]
    principal_variation: Required[list[str]]
    config: Required[dict[str, object]]
    note: Required[str]
    seed: Required[int]
    game_options: dict[str, int]
    #: ``--exact``: the best exact value over all moves minus the chosen move's
    regret: float | None
    #: ``--until``: the conditions, the iteration where one held, and why the run stopped
    until: list[str]
    stopped_at: int | None
    stop_reason: str


#: The values of ``--size``: every registered game's ``size`` option (gridiron: players per
#: team, 1 v 1, 3 v 3, 5 v 5).
def _sizes() -> tuple[int, ...]:
    sizes: set[int] = set()
    for spec in all_specs():
        option = spec.option("size")
        sizes.update(option.choices if option is not None else ())
    return tuple(sorted(sizes))


GAME_SIZES = _sizes()

#: Games whose actions are already the documented index (tic-tac-toe's cell 0..8, Connect
#: Four's 0-based column 0..6: ``GameSpec.indexed_by_action``); OpenSpiel games too (their
#: action ids). Other games use the action's position in ``legal_actions``.
INDEXED_BY_ACTION = frozenset(spec.name for spec in all_specs() if spec.indexed_by_action)

#: CLI option name (``--min-visits`` -> ``min_visits``) -> :class:`SearchConfig` field
#: (:data:`mcts_lab.settings.SETTINGS`).
CONFIG_OPTIONS: Mapping[str, str] = {setting.option: setting.field for setting in SETTINGS}


def build_game(name: str, size: int | None = None) -> AnyGame:
    """The game called ``name``: a registered one (:data:`games.GAME_NAMES`) or
    ``openspiel:<game string>``. ``size`` sets the game's ``size`` option (the gridiron preset:
    1, 3 or 5; default: the option's default) and is ignored by games without one. Unknown
    names, sizes and OpenSpiel strings raise ``ValueError``."""
    try:
        spec = game_spec(name)
        option = spec.option("size")
        game: AnyGame
        if option is None:
            game = make_game(name)
            return game
        size = option.default if size is None else size
        if size not in option.choices:
            choices = ", ".join(map(str, option.choices[:-1])) + f" or {option.choices[-1]}"
            raise ValueError(f"{name} size must be {choices}, got {size!r}")
        game = make_game(name, size=size)
        return game
    except ImportError as error:  # a game module that is not there (yet)
        raise ValueError(f"game {name!r} is not available: {error}") from None


def check_game_name(name: str) -> str:
    """``name`` if it names a game :func:`build_game` can build (an OpenSpiel game is loaded to
    check it), normalised (``openspiel: pig`` -> ``openspiel:pig``); ``ValueError`` that lists
    the choices otherwise, or says why OpenSpiel refused."""
    if name in GAME_NAMES:
        return name
    if is_openspiel(name):
        return game_spec(name).name
    raise ValueError(
        f"invalid choice: {name!r} (choose from {', '.join(GAME_NAMES)}, or openspiel:NAME with "
        "an OpenSpiel game string, e.g. openspiel:pig(winscore=20))"
    )


def game_size(game: AnyGame) -> int | None:
    """The game's ``size`` option (the gridiron preset), or ``None`` for a game without one."""
    try:
        has_size = game_spec(game.name).option("size") is not None
    except ValueError:  # a game built outside the registry
        return None
    return getattr(game, "size", None) if has_size else None


def build_config(
    options: Mapping[str, Any] | None = None,
    *,
    base: Mapping[str, Any] | None = None,
    **more: Any,
) -> SearchConfig:
    """A :class:`SearchConfig` from CLI option names (see :data:`CONFIG_OPTIONS`).

    ``base`` holds :class:`SearchConfig` fields laid under the options (a preset, see
    :mod:`mcts_lab.presets`). ``None`` option values leave the base or the config's default in
    place (``depth=None`` is the default anyway: play to the end). Unknown names and invalid
    values raise ``ValueError``.
    """
    values = {**(options or {}), **more}
    unknown = sorted(set(values) - set(CONFIG_OPTIONS))
    if unknown:
        raise ValueError(f"unknown search option(s): {', '.join(unknown)}")
    return SearchConfig(
        **{
            **(base or {}),
            **{CONFIG_OPTIONS[k]: v for k, v in values.items() if v is not None},
        }
    )


def parse_position(game: AnyGame, text: str | None, seed: int = 0) -> State:
    """The state a position string describes; ``None`` means where the game starts: the
    initial position after any forced opening move (:func:`opening_state`, dice seeded with
    ``seed``), as in the app.

    The game's ``parse_state`` raises ``ValueError`` naming what is wrong with a bad string.
    """
    if text is None:
        start: State = opening_state(game, seed)
        return start
    state: State = game.parse_state(text)
    return state


class NumberedMoves(Protocol):
    """What :func:`action_index` reads of a game: its name and its legal moves."""

    @property
    def name(self) -> str: ...
    def legal_actions(self, state: State) -> Sequence[Action]: ...


def action_index(game: NumberedMoves, state: State, action: Action) -> int:
    """The documented number of an action: the cell (0..8) in tic-tac-toe, the 0-based column
    (0..6) in Connect Four, the action id in an OpenSpiel game (``GameSpec.indexed_by_action``),
    and in other games the action's index in ``game.legal_actions(state)`` (the game's stable,
    documented order)."""
    if _indexed_by_action(game.name):
        return int(cast(SupportsInt, action))  # these games' actions are numbers
    return list(game.legal_actions(state)).index(action)


def _indexed_by_action(name: str) -> bool:
    try:
        return game_spec(name).indexed_by_action
    except ValueError:  # a game built outside the registry (a test's toy game)
        return False


def signed_value(q: float, value_range: str | SearchConfig) -> float:
    """A mean value in the search's range turned into [-1, 1]: unchanged for "symmetric",
    ``2q - 1`` for "unit" ([0, 1]), so a reported value means the same whatever the range.
    ``value_range`` is the range's name or a config to read it from."""
    if isinstance(value_range, SearchConfig):
        value_range = value_range.value_range
    return q if value_range == "symmetric" else 2.0 * q - 1.0


def children_rows(search: Search) -> list[ChildRow]:
    """The root's children as JSON-ready dicts, in expansion order.

    Each: ``action`` (label), ``action_index`` (see :func:`action_index`), ``visits``, ``value``
    (mean value from the ROOT MOVER's view in [-1, 1]) and ``proven`` ("win"/"draw"/"loss" for
    the root mover when the solver proved it, else ``None``).
    """
    game, state = search.game, search.root_state
    value_range = search.config.value_range
    return [
        {
            "action": child.label,
            "action_index": action_index(game, state, child.action),
            "visits": child.visits,
            "value": round(signed_value(child.q, value_range), 6),
            "proven": child.proven,
        }
        for child in search.children_summary()
    ]


def principal_variation(search: Search, max_moves: int = 12) -> list[str]:
    """Labels of the most visited line from the root (actions, with the most visited chance
    outcome's label appended after a colon where an action has several outcomes)."""
    game = search.game
    state = search.root_state
    labels: list[str] = []
    # root, then per move its next decision, or its chance node and the outcome drawn
    for node in search.principal_variation(max_moves)[1:]:
        if isinstance(node, ChanceNode):
            continue  # its outcome node follows and carries the action and outcome
        action = node.action
        label = game.action_label(state, action)
        if isinstance(node.parent, ChanceNode):
            label += f": {game.outcome_label(state, action, node.outcome)}"
        labels.append(label)
        state = game.next_state(state, action, node.outcome)
    return labels


def search_summary(search: Search, result: RunResult | None = None) -> SearchSummary:
    """The documented JSON summary of a search (``mcts-lab search --json``, docs/cli.md).

    ``result`` is what ``Search.run`` returned (``None`` when nothing ran, e.g. a finished
    position). Values are from the root mover's view in [-1, 1].
    """
    game = search.game
    state = search.root_state
    terminal = game.is_terminal(state)
    seconds = result.seconds if result is not None else 0.0
    data: SearchSummary = {
        "game": game.name,
        "position": game.format_state(state),
        "root_player": None if terminal else game.current_player(state),
        "iterations": search.iterations,
        "seconds": round(seconds, 6),
        "iterations_per_second": round(result.iterations / seconds, 1)
        if result is not None and seconds > 0
        else 0.0,
        "stopped": result.stopped if result is not None else None,
        "nodes": search.node_count,
        "max_depth": search.max_depth,
        "root_value": None,
        "root_proven": None,
        "best_action": None,
        "best_action_index": None,
        "children": children_rows(search),
        "final_choices": {},
        "principal_variation": [],
        "config": search.config.to_dict(),
        "note": "",
        # with game, position, config and iterations: what reproduces the run
        "seed": search.seed,
    }
    size = game_size(game)
    if size is not None:
        data["game_options"] = {"size": size}
    if terminal:
        data["note"] = "the position is already over: there is no move to choose"
        return data
    player = search.root.player
    if search.root.visits:
        data["root_value"] = round(
            signed_value(search.root.mean(player), search.config.value_range), 6
        )
    if search.config.solver and search.root.proven is not None:
        value = search.root.proven[player]
        data["root_proven"] = "win" if value > 0 else "loss" if value < 0 else "draw"
    if data["children"]:
        best = search.best_child()
        data["best_action"] = best.label
        data["best_action_index"] = action_index(game, state, best.action)
        data["final_choices"] = {name: c.label for name, c in search.final_choices().items()}
        data["principal_variation"] = principal_variation(search)
    if result is not None and result.message:
        data["note"] = result.message
    return data
