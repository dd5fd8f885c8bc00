"""The games the CLI and the app offer, each registered once.

A built-in game is a module in ``games/`` that ends with ``SPEC = GameSpec(...)``
(:mod:`games.spec`) plus its line in :data:`GAME_MODULES`; modules are imported when a spec is
first asked for. Any OpenSpiel game is reachable as ``openspiel:<OpenSpiel game string>``
(``openspiel:pig(winscore=20)``) when ``pyspiel`` is installed: its spec is built on the fly
(:mod:`games.openspiel_game`).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import random
from typing import Any

from games.base import sample_outcome
from games.spec import GameSpec

__all__ = [
    "opening_state",
    "DEFAULT_GAME",
    "GAME_MODULES",
    "GAME_NAMES",
    "OPENSPIEL_EXAMPLES",
    "OPENSPIEL_PREFIX",
    "all_specs",
    "game_choices",
    "game_spec",
    "is_openspiel",
    "make_game",
    "openspiel_available",
    "unknown_game_message",
]

#: Every built-in game: its name -> the module holding its rules and its ``SPEC``.
GAME_MODULES = {
    "tic_tac_toe": "games.tic_tac_toe",
    "connect_four": "games.connect_four",
    "gridiron": "games.gridiron",
    "nim": "games.nim",
}

#: Names accepted by :func:`make_game`, the CLI's ``--game`` and the app's game picker (besides
#: ``openspiel:...``).
GAME_NAMES = tuple(GAME_MODULES)

#: The game the app opens with.
DEFAULT_GAME = "tic_tac_toe"

OPENSPIEL_PREFIX = "openspiel:"

#: OpenSpiel games the app's picker offers when ``pyspiel`` is installed (any other one works
#: in the CLI and in ``make_game``).
OPENSPIEL_EXAMPLES = (
    "openspiel:tic_tac_toe",
    "openspiel:connect_four",
    "openspiel:pig(winscore=20)",
    "openspiel:breakthrough(rows=5,columns=5)",
)


def is_openspiel(name: str) -> bool:
    """True for an ``openspiel:...`` name."""
    return name.startswith(OPENSPIEL_PREFIX)


def openspiel_available() -> bool:
    """True when ``pyspiel`` can be imported (the ``[openspiel]`` extra is installed)."""
    return importlib.util.find_spec("pyspiel") is not None


def unknown_game_message(name: str) -> str:
    """What is wrong with a name that is neither registered nor ``openspiel:...``."""
    return (
        f"unknown game {name!r}; choose one of {', '.join(GAME_NAMES)}, or "
        "openspiel:NAME with an OpenSpiel game string (e.g. openspiel:pig(winscore=20))"
    )


@functools.cache
def game_spec(name: str) -> GameSpec:
    """The spec of the game called ``name``: a built-in game or ``openspiel:<game string>``.

    Raises ``ValueError`` for an unknown name, and for an OpenSpiel game that is not installed,
    does not exist or is not a two-player, perfect-information, sequential game.
    """
    if is_openspiel(name):
        from games.openspiel_game import openspiel_spec

        return openspiel_spec(name)
    module_name = GAME_MODULES.get(name)
    if module_name is None:
        raise ValueError(unknown_game_message(name))
    spec = importlib.import_module(module_name).SPEC
    if not isinstance(spec, GameSpec) or spec.name != name:
        raise RuntimeError(f"{module_name}.SPEC must be a GameSpec named {name!r}")
    return spec


def make_game(name: str, **options: Any) -> Any:
    """Build a game by name. ``options`` go to the spec's ``make`` (e.g. ``size=3``)."""
    return game_spec(name).make(**options)


def all_specs() -> tuple[GameSpec, ...]:
    """The built-in games' specs, in :data:`GAME_NAMES` order."""
    return tuple(game_spec(name) for name in GAME_NAMES)


def game_choices() -> tuple[str, ...]:
    """The app's game picker: the built-in games, then :data:`OPENSPIEL_EXAMPLES` when
    ``pyspiel`` is installed."""
    return GAME_NAMES + (OPENSPIEL_EXAMPLES if openspiel_available() else ())


def opening_state(game: Any, seed: int) -> Any:
    """Where a game starts in the app and the CLI: its initial state, after any forced opening
    move (a lone legal action such as gridiron's kick-off) played with dice from
    ``random.Random(seed)``, so the first search already has real choices to make."""
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
