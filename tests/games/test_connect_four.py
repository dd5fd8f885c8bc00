"""Connect Four rules against known answers."""

from __future__ import annotations

import random

import pytest

from games.connect_four import ConnectFour
from mcts_core.rollout import generic_random_playout

GAME = ConnectFour()

# A 42-move game that fills the board without four in a row (checked move by move below).
FULL_BOARD_DRAW = "141724165222235463442535747667315163571637"


@pytest.mark.parametrize(
    ("moves", "direction"),
    [
        ("1213141", "vertical X in column 1"),
        ("1122334", "horizontal X on the bottom row"),
        ("12234334464", "diagonal / X from column 1 to 4"),
        ("76654554424", "diagonal \\ X from column 7 to 4"),
    ],
)
def test_wins_in_every_direction(moves: str, direction: str) -> None:
    state = GAME.parse_state(moves[:-1])
    assert not GAME.is_terminal(state), direction
    state = GAME.next_state(state, int(moves[-1]) - 1)
    assert GAME.is_terminal(state), direction
    assert GAME.returns(state) == (1.0, -1.0), direction


def test_o_can_win_too() -> None:
    state = GAME.parse_state("17271727")  # O stacks four in column 7
    assert GAME.is_terminal(state)
    assert GAME.returns(state) == (-1.0, 1.0)


def test_full_board_draw() -> None:
    state = GAME.initial_state()
    for i, ch in enumerate(FULL_BOARD_DRAW):
        assert not GAME.is_terminal(state), f"ended early at move {i}"
        state = GAME.next_state(state, int(ch) - 1)
    assert GAME.is_terminal(state)
    assert GAME.returns(state) == (0.0, 0.0)
    assert GAME.parse_state(FULL_BOARD_DRAW) == state


def test_legal_actions_skip_full_columns() -> None:
    state = GAME.parse_state("444444")
    assert GAME.legal_actions(state) == [0, 1, 2, 4, 5, 6]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("448", "column 8 out of range"),
        ("40", "column 0 out of range"),
        ("44x", "bad character 'x' at index 2"),
        ("4\u00b2", "bad character '\u00b2' at index 1"),  # a digit to str.isdigit(), not a column
        ("4444444", "column 4 is full"),
        ("12121212", "game already over after move 7"),
    ],
)
def test_bad_positions(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GAME.parse_state(text)


def test_render_and_players() -> None:
    state = GAME.parse_state("4453")
    assert GAME.current_player(state) == 0
    assert GAME.render(state).splitlines()[-2:] == [
        ". . . O . . .",
        ". . O X X . .",
    ]
    assert GAME.action_label(state, 0) == "col 1"


def test_heuristic_sees_threats() -> None:
    """X's open three on the bottom row scores better for X than the mirror for O."""
    x_threat = GAME.heuristic(GAME.parse_state("21314"))  # X: 2,3,4 bottom; O: stacked on 1
    o_threat = GAME.heuristic(GAME.parse_state("127314"))  # O: 2,3,4 bottom; X: 1,1,7
    assert x_threat[0] > 0.3
    assert o_threat[0] < -0.3
    assert x_threat[0] > o_threat[1]  # X's threat counts for more than O's mirror (X's tempo)
    assert x_threat[0] == -x_threat[1]
    blocked = GAME.heuristic(GAME.parse_state("21354"))  # the same X three, O on 1 and 5
    assert x_threat[0] > blocked[0]


def test_terminal_heuristic_is_the_returns() -> None:
    state = GAME.parse_state("1213141")
    assert GAME.heuristic(state) == GAME.returns(state) == (1.0, -1.0)


def _positions() -> list[str]:
    """Start positions for the fast path: random games cut at every length, plus near-full
    boards (columns fill up, the board can end in a draw) and finished games."""
    texts = [FULL_BOARD_DRAW[:n] for n in (30, 36, 39, 40, 41, 42)] + ["1213141"]
    for seed in range(12):
        final, played = generic_random_playout(
            GAME, GAME.initial_state(), random.Random(seed), None, False
        )
        moves = GAME.format_state(final)
        assert len(moves) == len(played)
        texts += [moves[:n] for n in range(0, len(moves) + 1, 3)]
    return texts


@pytest.mark.parametrize(
    ("max_steps", "stop_on_turn_change"),
    [(None, False), (0, False), (1, False), (2, False), (7, False), (None, True), (3, True)],
)
def test_fast_playout_equals_the_generic_playout(
    max_steps: int | None, stop_on_turn_change: bool
) -> None:
    for text in _positions():
        state = GAME.parse_state(text)
        for seed in range(25):
            generic_rng, fast_rng = random.Random(seed), random.Random(seed)
            expected = generic_random_playout(
                GAME, state, generic_rng, max_steps, stop_on_turn_change
            )
            got = GAME.random_playout(state, fast_rng, max_steps, stop_on_turn_change)
            assert got == expected, (text, seed)
            assert fast_rng.getstate() == generic_rng.getstate(), (text, seed)
            assert GAME.format_state(got[0]) == text + "".join(str(a + 1) for a, _ in got[1])


def test_fast_playout_reaches_the_drawn_full_board() -> None:
    state = GAME.parse_state(FULL_BOARD_DRAW[:41])
    final, played = GAME.random_playout(state, random.Random(0), None, False)
    assert played == [(int(FULL_BOARD_DRAW[41]) - 1, None)]  # one column left: no choice
    assert GAME.is_terminal(final) and GAME.returns(final) == (0.0, 0.0)
    assert final == GAME.parse_state(FULL_BOARD_DRAW)
