"""Game rules for MCTS Lab, all behind the small protocol in :mod:`games.base`."""

from __future__ import annotations

from games.base import NO_CHANCE, Game

__all__ = ["NO_CHANCE", "Game", "GAME_NAMES", "make_game"]

#: Names accepted by :func:`make_game`, the CLI's ``--game`` and the app's game picker.
GAME_NAMES = ("tic_tac_toe", "connect_four", "gridiron")


def make_game(name: str, **options: object) -> Game:
    """Build a game by name. ``options`` go to the game's constructor (e.g. ``size=3``)."""
    if name == "tic_tac_toe":
        from games.tic_tac_toe import TicTacToe

        return TicTacToe(**options)  # type: ignore[arg-type]
    if name == "connect_four":
        from games.connect_four import ConnectFour

        return ConnectFour(**options)  # type: ignore[arg-type]
    if name == "gridiron":
        from games.gridiron import Gridiron

        return Gridiron(**options)  # type: ignore[arg-type]
    raise ValueError(f"unknown game {name!r}; choose one of {', '.join(GAME_NAMES)}")
