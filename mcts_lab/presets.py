"""Named search settings: ``--preset NAME`` in the CLI and the preset picker in the app.

A preset is a set of :class:`~mcts_core.SearchConfig` fields laid over the defaults; anything
the user sets explicitly (a CLI flag, a widget) wins over the preset. Two presets:

- ``tutorial``: the botbowl MCTS tutorial's search, the same for every game: its UCB1
  (``Q + 2*Cp*sqrt(2 ln N / n)``) with ``Cp = 0.707``, values in [0, 1], actions expanded in
  the game's listed order, a random rollout to the end of the current turn and then the
  heuristic, the most visited move played, no solver.
- ``strong``: the strongest settings measured per game (``scripts/measure_strength.py`` on the
  positions with exact values in ``mcts_lab/positions/``; the figures are in docs/search.md),
  kept in each game's registration (``GameSpec.presets``, :mod:`games.registry`); a game
  without its own gets the solver.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from games.registry import game_spec

__all__ = ["PRESET_NAMES", "PRESET_HELP", "preset_overrides"]

_TUTORIAL: Mapping[str, Any] = MappingProxyType(
    {
        "tree_policy": "ucb1",
        "c": 0.707,
        "value_range": "unit",
        "expansion_order": "listed",
        "rollout": "random",
        "rollout_horizon": "turn",
        "final_policy": "most_visited",
        "solver": False,
    }
)

#: ``strong`` for a game whose registration sets no ``strong`` preset of its own.
_STRONG_DEFAULT: Mapping[str, Any] = MappingProxyType({"solver": True})

PRESET_NAMES = ("tutorial", "strong")

#: One line per preset, for the CLI's help and the app's picker.
PRESET_HELP = {
    "tutorial": "the botbowl tutorial's search: UCB1 with Cp 0.707, values in [0, 1], "
    "listed expansion, random rollout to the end of the turn",
    "strong": "the strongest settings measured for the game (solver on; see docs/search.md)",
}


def preset_overrides(name: str, game_name: str) -> dict[str, Any]:
    """The :class:`~mcts_core.SearchConfig` fields the preset ``name`` sets for ``game_name``.

    Raises ``ValueError`` for an unknown preset name.
    """
    if name == "tutorial":
        return dict(_TUTORIAL)
    if name == "strong":
        return dict(_game_presets(game_name).get("strong", _STRONG_DEFAULT))
    raise ValueError(f"unknown preset {name!r}; choose one of {', '.join(PRESET_NAMES)}")


def _game_presets(game_name: str) -> Mapping[str, Mapping[str, Any]]:
    try:
        return game_spec(game_name).presets
    except ValueError:  # a game outside the registry (a test's toy game): the defaults
        return {}
