"""Connect Four rules against known answers."""

from __future__ import annotations

import pytest

from games.connect_four import ConnectFour

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
    assert x_threat[0] == -x_threat[1]
