"""Game rules for MCTS Lab, all behind the small protocol in :mod:`games.base`.

Each game is one module here that ends with its registration, ``SPEC = GameSpec(...)``
(:mod:`games.spec`), listed once in :mod:`games.registry`; OpenSpiel games come through
:mod:`games.openspiel_game` as ``openspiel:<game string>``.
"""

from __future__ import annotations

from games.base import NO_CHANCE, Game
from games.registry import GAME_NAMES, game_spec, make_game

__all__ = ["NO_CHANCE", "Game", "GAME_NAMES", "game_spec", "make_game"]
