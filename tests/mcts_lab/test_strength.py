"""Playing strength with 1,000 iterations and fixed seeds, on positions with known answers."""

from __future__ import annotations

from functools import cache

import pytest

from games import make_game
from mcts_core import Search, SearchConfig

ITERATIONS = 1000


def best_move(game_name: str, position: str, seed: int = 0, **config: object) -> int:
    game = make_game(game_name)
    search = Search(game, game.parse_state(position), SearchConfig(**config), seed=seed)
    search.run(iterations=ITERATIONS)
    return search.best_action()


# Tic-tac-toe cells are numbered 0..8 row-major from the top left.
@pytest.mark.parametrize(
    ("position", "wins"),
    [
        ("XX.OO....", {2}),  # X completes the top row
        ("O.XO.X...", {8}),  # X completes the right column before O completes the left
        ("XO.OX....", {8}),  # X completes the main diagonal
    ],
)
def test_tic_tac_toe_win_in_one(position: str, wins: set[int]) -> None:
    for seed in range(3):
        assert best_move("tic_tac_toe", position, seed) in wins


@pytest.mark.parametrize(
    ("position", "block"),
    [
        ("X...X..O.", 8),  # O must stop the diagonal 0-4-8
        ("XX..O....", 2),  # O must stop the top row
        ("X..X.O...", 6),  # O must stop the left column
    ],
)
def test_tic_tac_toe_forced_block(position: str, block: int) -> None:
    for seed in range(3):
        assert best_move("tic_tac_toe", position, seed) == block


# Connect Four positions list the 1-based columns played; actions are 0-based columns.
@pytest.mark.parametrize(
    ("position", "wins"),
    [
        ("445566", {2, 6}),  # X has 4-5-6 on the bottom row, both ends open
        ("717273", {6}),  # X has three stacked in column 7 (O's 1-2-3 threat comes too late)
    ],
)
def test_connect_four_win_in_one(position: str, wins: set[int]) -> None:
    for seed in range(3):
        assert best_move("connect_four", position, seed) in wins


@pytest.mark.parametrize(
    ("position", "block"),
    [
        ("41414", 3),  # X has three stacked in column 4: O must cap it
        ("21374", 4),  # X has 2-3-4 on the bottom row, column 1 is O's: O must take column 5
    ],
)
def test_connect_four_forced_block(position: str, block: int) -> None:
    for seed in range(3):
        assert best_move("connect_four", position, seed) == block


# --------------------------------------------------- against a perfect player

TTT = make_game("tic_tac_toe")


@cache
def value_for_x(state: object) -> float:
    """Minimax value of a tic-tac-toe state for X (1 win, 0 draw, -1 loss)."""
    if TTT.is_terminal(state):
        return TTT.returns(state)[0]
    values = [value_for_x(TTT.next_state(state, a)) for a in TTT.legal_actions(state)]
    return max(values) if TTT.current_player(state) == 0 else min(values)


def perfect_moves(state: object) -> list[int]:
    """Every optimal move for the player to move."""
    sign = 1 if TTT.current_player(state) == 0 else -1
    scored = {a: sign * value_for_x(TTT.next_state(state, a)) for a in TTT.legal_actions(state)}
    best = max(scored.values())
    return [a for a, v in scored.items() if v == best]


@pytest.mark.parametrize("mcts_player", [0, 1])
@pytest.mark.slow
def test_tic_tac_toe_never_loses_to_a_perfect_player(mcts_player: int) -> None:
    """MCTS plays one side from the empty board; the perfect player tries EVERY optimal reply,
    so each branch of its choices is a separate game. MCTS must draw them all."""
    games = 0
    stack = [TTT.initial_state()]
    while stack:
        state = stack.pop()
        if TTT.is_terminal(state):
            games += 1
            assert TTT.returns(state)[mcts_player] >= 0, TTT.format_state(state)
            continue
        if TTT.current_player(state) == mcts_player:
            search = Search(TTT, state, SearchConfig(), seed=0)
            search.run(iterations=ITERATIONS)
            stack.append(TTT.next_state(state, search.best_action()))
        else:
            stack.extend(TTT.next_state(state, a) for a in perfect_moves(state))
    assert games >= 2


def _strong_rate(seeds: range) -> tuple[int, list]:
    from mcts_lab.presets import preset_overrides
    from mcts_lab.strength import load_positions, value_preserving_rate

    positions = load_positions("tic_tac_toe")
    assert len(positions) == 3191  # every position where a move loses value, every mirror image
    result = value_preserving_rate(
        "tic_tac_toe", positions, preset_overrides("strong", "tic_tac_toe"), 200, seeds, workers=2
    )
    return result.searches, result.misses


@pytest.mark.slow
def test_the_strong_preset_keeps_the_value_with_seeds_0_to_9() -> None:
    """The issue's known answer: all 3,191 positions x seeds 0-9 at 200 iterations (about
    70 s on two workers on a quiet machine, 200 s under a load of 7; ``pytest -m "not slow"``
    skips it)."""
    searches, misses = _strong_rate(range(10))
    assert searches == 31910 and misses == []
