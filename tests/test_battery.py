"""Every game passes the shared battery."""

from __future__ import annotations

import importlib.util

import pytest

from games import make_game
from tests.battery import check_game
from tests.dice_game import Pig

GAMES = [("tic_tac_toe", {}), ("connect_four", {})]
if importlib.util.find_spec("games.gridiron") is not None:
    GAMES += [("gridiron", {"size": 1}), ("gridiron", {"size": 3}), ("gridiron", {"size": 5})]


@pytest.mark.parametrize(("name", "options"), GAMES, ids=lambda v: str(v))
def test_battery(name: str, options: dict) -> None:
    check_game(make_game(name, **options))


def test_battery_on_the_dice_game() -> None:
    check_game(Pig())


def test_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        make_game("chess")
