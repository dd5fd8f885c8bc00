"""Every game passes the shared battery (``tests/battery.py``), plus the toy games' own rules."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from typing import Any

import pytest

from games import make_game
from tests.battery import CHECKS, check_state, random_game
from tests.dice_game import MAX_TURNS, LoopGame, LoopState, Pig, PigState

_NO_GRIDIRON = pytest.mark.skipif(
    importlib.util.find_spec("games.gridiron") is None, reason="games/gridiron.py not written yet"
)

#: id -> a function building the game (built inside the test, so a missing game only skips).
GAMES: list[Any] = [
    pytest.param(lambda: make_game("tic_tac_toe"), id="tic_tac_toe"),
    pytest.param(lambda: make_game("connect_four"), id="connect_four"),
    pytest.param(Pig, id="pig"),
    pytest.param(LoopGame, id="loop"),
    pytest.param(lambda: make_game("gridiron"), id="gridiron", marks=_NO_GRIDIRON),
    pytest.param(lambda: make_game("gridiron", size=3), id="gridiron-3", marks=_NO_GRIDIRON),
    pytest.param(lambda: make_game("gridiron", size=5), id="gridiron-5", marks=_NO_GRIDIRON),
]


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
@pytest.mark.parametrize("build", GAMES)
def test_battery(build: Callable[[], Any], check: Callable[[Any, range], None]) -> None:
    check(build(), range(20))


def test_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        make_game("chess")


# ------------------------------------------------------------------ the toy games themselves


def test_pig_rolls_with_exact_odds() -> None:
    game = Pig()
    state = game.parse_state("3-7-4-1-5")
    assert game.legal_actions(state) == ["roll", "hold"]
    assert game.chance_outcomes(state, "roll") == tuple((face, 1 / 6) for face in range(1, 7))
    assert game.next_state(state, "roll", 5) == PigState((3, 7), 9, 1, 5)
    assert game.next_state(state, "roll", 1) == PigState((3, 7), 0, 0, 6)  # turn total lost
    assert game.next_state(state, "hold") == PigState((3, 11), 0, 0, 6)
    assert game.returns(game.next_state(state, "hold")) == (-1.0, 1.0)
    assert game.legal_actions(game.initial_state()) == ["roll"]  # nothing to hold yet


def test_pig_draws_after_max_turns() -> None:
    game = Pig()
    state = game.parse_state(f"4-5-0-0-{MAX_TURNS}")
    assert game.is_terminal(state) and game.returns(state) == (0.0, 0.0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1-2-3", "five numbers joined by '-'"),
        ("1-2-x-0-0", "five numbers"),
        ("1-2-3-2-0", "player to move must be 0 or 1"),
        ("1-2-3-0-1", "after 1 turns player 1 moves, not player 0"),
        ("1-2-1-0-2", "turn total of 1 is impossible"),
        ("1-2-0-0-21", "21 turns played"),
        ("10-2-0-0-4", "player 0 has 10 banked but is still to move"),
        ("11-2-4-1-5", "game is over but a turn total of 4"),
        ("01-2-0-0-0", "leading zeros"),
    ],
)
def test_pig_bad_positions(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Pig().parse_state(text)


def test_loop_game_wait_is_a_true_no_op() -> None:
    game = LoopGame()
    state = game.parse_state("1-1-0")
    assert game.legal_actions(state) == ["advance", "wait"]
    waited = game.next_state(state, "wait")
    assert waited == state and hash(waited) == hash(state)
    assert game.current_player(waited) == game.current_player(state)
    assert game.next_state(state, "advance") == LoopState((2, 1), 1)


def test_loop_game_ends_and_random_games_use_wait() -> None:
    game = LoopGame(target=2)
    assert game.returns(game.parse_state("2-1-1")) == (1.0, -1.0)
    check_state(game, game.parse_state("2-1-1"))
    waits = [
        len(states) > len({game.format_state(s) for s in states})
        for states in (random_game(game, seed) for seed in range(10))
    ]
    assert any(waits)  # some random game repeated a state, so the battery covered the cycle


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1-1", "three numbers"),
        ("1-1-2", "player to move must be 0 or 1"),
        ("2-0-0", "impossible with player 0 to move"),
        ("3-3-0", "player 1 cannot reach the target 3"),
        ("4-3-1", "player 1 cannot reach"),
    ],
)
def test_loop_game_bad_positions(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LoopGame().parse_state(text)


def test_loop_game_rejects_a_bad_target() -> None:
    with pytest.raises(ValueError, match="target must be at least 1"):
        LoopGame(target=0)
