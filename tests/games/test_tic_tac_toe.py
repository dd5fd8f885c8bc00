"""Tic-tac-toe rules against known answers."""

from __future__ import annotations

import pytest

from games.tic_tac_toe import TicTacToe, cell_from_label, label

GAME = TicTacToe()


def test_exactly_5478_reachable_positions() -> None:
    seen = set()
    stack = [GAME.initial_state()]
    while stack:
        state = stack.pop()
        if state.board in seen:
            continue
        seen.add(state.board)
        for action in GAME.legal_actions(state):
            stack.append(GAME.next_state(state, action))
    assert len(seen) == 5478


@pytest.mark.parametrize(
    ("moves", "winner"),
    [
        ([0, 3, 1, 4, 2], 0),  # top row
        ([0, 1, 3, 2, 6], 0),  # left column
        ([0, 1, 4, 2, 8], 0),  # main diagonal
        ([2, 0, 4, 1, 6], 0),  # anti-diagonal
        ([0, 3, 1, 4, 8, 5], 1),  # O's middle row
    ],
)
def test_wins(moves: list[int], winner: int) -> None:
    state = GAME.initial_state()
    for move in moves:
        assert not GAME.is_terminal(state)
        state = GAME.next_state(state, move)
    assert GAME.is_terminal(state)
    assert GAME.returns(state) == ((1.0, -1.0) if winner == 0 else (-1.0, 1.0))
    assert GAME.legal_actions(state) == []


def test_draw() -> None:
    state = GAME.parse_state("XOXXOOOXX")
    assert GAME.is_terminal(state) and GAME.returns(state) == (0.0, 0.0)


def test_positions_and_player_to_move() -> None:
    state = GAME.parse_state("X.O.X....")
    assert GAME.current_player(state) == 1
    assert GAME.format_state(state) == "X.O.X...."
    assert GAME.legal_actions(state) == [1, 3, 5, 6, 7, 8]
    assert GAME.current_player(GAME.parse_state("X........")) == 1
    assert GAME.current_player(GAME.parse_state(".........")) == 0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X.O", "must have 9 cells, got 3"),
        ("X.O.Z....", "bad character 'Z' at index 4"),
        ("OO.......", "O has more stones than X"),
        ("XXX......", "X has 3 more stones than O"),
        ("XXXOOO...", "both X and O have three in a row"),
        ("XXXOO.O..", "X has three in a row but O moved afterwards"),
        ("OOOXX.XX.", "O has three in a row but X moved afterwards"),
    ],
)
def test_bad_positions(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GAME.parse_state(text)


def test_labels() -> None:
    assert [label(c) for c in (0, 4, 8, 2, 6)] == ["a1", "b2", "c3", "c1", "a3"]
    assert all(cell_from_label(label(c)) == c for c in range(9))
    with pytest.raises(ValueError):
        cell_from_label("d4")


def test_heuristic_prefers_more_open_lines() -> None:
    centre = GAME.heuristic(GAME.parse_state("....X...."))
    corner = GAME.heuristic(GAME.parse_state("X........"))
    edge = GAME.heuristic(GAME.parse_state(".X......."))
    assert centre[0] > corner[0] > edge[0] > 0
    assert centre[1] == -centre[0]


def test_finished_positions_are_accepted_as_terminal_roots() -> None:
    won = GAME.parse_state("XXXOO....")
    assert GAME.is_terminal(won) and GAME.returns(won) == (1.0, -1.0)
    assert GAME.heuristic(won) == (1.0, -1.0)
    assert GAME.parse_state(" XXXOO.... ") == won  # surrounding whitespace is ignored
    double = GAME.parse_state("XXXXOOXOO")  # X's last move made two lines at once
    assert GAME.returns(double) == (1.0, -1.0)


def test_render_and_label_of_the_middle_right_cell() -> None:
    state = GAME.parse_state("X.O.X....")
    assert GAME.render(state) == "X . O\n. X .\n. . ."
    assert GAME.action_label(state, 5) == "c2"
    assert GAME.outcome_label(state, 5, None) == ""
    assert GAME.chance_outcomes(state, 5) == ((None, 1.0),)
