"""Tic-tac-toe.

Cells are numbered 0..8 row-major from the top left; an action is the cell to mark. X (player 0)
moves first. Position strings are the 9 cells in that order, ``X``, ``O`` or ``.``:
``"X.O.X...."``. Labels name a cell by column letter (a, b, c from the left) and row number (1,
2, 3 from the TOP), so cell 0 is ``a1``, cell 4 ``b2`` and cell 8 ``c3``.

``parse_state`` accepts finished positions (a search may start at a terminal root and the views
must show it) but rejects impossible ones: wrong stone counts, two winners, or a move made after
the game was already won.
"""

from __future__ import annotations

import functools
import math
import random
from typing import TYPE_CHECKING, NamedTuple

from games.base import NO_CHANCE, Game, PositionError
from games.spec import Buttons, GameSpec

__all__ = ["SPEC", "TicTacToe", "TicTacToeState", "LINES"]

#: The eight lines of three cells.
LINES = (
    (0, 1, 2), (3, 4, 5), (6, 7, 8),  # rows
    (0, 3, 6), (1, 4, 7), (2, 5, 8),  # columns
    (0, 4, 8), (2, 4, 6),  # diagonals
)  # fmt: skip
_LINES_THROUGH = tuple(tuple(line for line in LINES if cell in line) for cell in range(9))
_DETERMINISTIC = ((NO_CHANCE, 1.0),)
_RETURNS = {1: (1.0, -1.0), 2: (-1.0, 1.0), 3: (0.0, 0.0)}
_WIN_FOR = (_RETURNS[1], _RETURNS[2])  # by the winner: X (0) or O (1)
_DRAW = _RETURNS[3]
_MARKS = "XO"

#: ``tuple.__new__(State, fields)`` builds a state without the named tuple's Python-level
#: ``__new__`` (one frame less per move in the search's hot loop; the same state).
_new_tuple = tuple.__new__


@functools.cache
def _open_lines_value(board: str) -> float:
    """X's heuristic value of an unfinished ``board`` (``TicTacToe.heuristic`` says how), kept
    per board: a search with heuristic rollouts or expansion order asks it for the same few
    thousand boards tens of thousands of times (a fifth of the strong preset's time)."""
    score = 0
    for a, b, c in LINES:
        line = board[a] + board[b] + board[c]
        x, o = line.count("X"), line.count("O")
        if o == 0 and x:
            score += 1 if x == 1 else 3
        elif x == 0 and o:
            score -= 1 if o == 1 else 3
    return 0.9 * math.tanh(score / 6)


class TicTacToeState(NamedTuple):
    """A position.

    Attributes:
        board: 9 characters, ``X``/``O``/``.``, row-major from the top left.
        to_move: 0 (X) or 1 (O); at a terminal state, the player who would have moved next.
        result: 0 game on, 1 X has won, 2 O has won, 3 draw (board full, no line).
    """

    board: str
    to_move: int
    result: int


class TicTacToe:
    """The rules, implementing :class:`games.base.Game`.

    Actions are cells 0..8, row-major from the top left, legal ones in increasing order. Player 0
    is X and moves first, player 1 is O; ``returns`` and ``heuristic`` are ``(X's value, O's
    value)``. ``action_label`` names a cell by column letter (a, b, c from the left) and row
    number (1, 2, 3 from the TOP): cell 0 is ``a1``, cell 5 ``c2``, cell 8 ``c3``.
    """

    name = "tic_tac_toe"
    num_players = 2
    #: Every move adds a mark, so no position repeats within a game (the search skips its guard).
    states_never_repeat = True
    #: Every action has the one outcome ``NO_CHANCE`` (the search's plain loop relies on it).
    deterministic = True

    def initial_state(self) -> TicTacToeState:
        return TicTacToeState("." * 9, 0, 0)

    def current_player(self, state: TicTacToeState) -> int:
        return state.to_move

    def legal_actions(self, state: TicTacToeState) -> list[int]:
        """Empty cells in increasing order (none once the game is over)."""
        if state.result:
            return []
        board = state.board
        return [i for i in range(9) if board[i] == "."]

    def chance_outcomes(self, state: TicTacToeState, action: int) -> tuple[tuple[None, float]]:
        return _DETERMINISTIC

    def next_state(
        self, state: TicTacToeState, action: int, outcome: object = NO_CHANCE
    ) -> TicTacToeState:
        board, player, _ = state
        mark = _MARKS[player]
        board = board[:action] + mark + board[action + 1 :]
        result = 0
        for a, b, c in _LINES_THROUGH[action]:
            if board[a] == board[b] == board[c]:
                result = 1 + player
                break
        else:
            if "." not in board:
                result = 3
        return _new_tuple(TicTacToeState, (board, 1 - player, result))

    def random_playout(
        self,
        state: TicTacToeState,
        rng: random.Random,
        max_steps: int | None,
        stop_on_turn_change: bool,
    ) -> tuple[TicTacToeState, list[tuple[int, None]]]:
        """:func:`mcts_core.rollout.generic_random_playout` on a list of cells: the same draws
        (one ``rng.random()`` per move, an index into the empty cells in increasing order), the
        same result, without building a state per move. Every move hands the turn over, so a
        turn-limited playout plays one move."""
        board, player, result = state
        played: list[tuple[int, None]] = []
        if result:
            return state, played
        cells = list(board)
        empty = [i for i in range(9) if cells[i] == "."]
        steps = len(empty)
        if stop_on_turn_change:
            steps = 1
        if max_steps is not None:
            steps = min(steps, max_steps)
        draw = rng.random
        add = played.append
        lines_through = _LINES_THROUGH
        for _ in range(steps):
            cell = empty.pop(int(draw() * len(empty)))
            mark = _MARKS[player]
            cells[cell] = mark
            add((cell, None))  # None is NO_CHANCE, as a constant
            player = 1 - player
            for a, b, c in lines_through[cell]:
                if cells[a] == cells[b] == cells[c]:
                    result = 2 - player  # the mover, who is now 1 - player: 1 for X, 2 for O
                    break
            else:
                if not empty:
                    result = 3
            if result:
                break
        return TicTacToeState("".join(cells), player, result), played

    def random_returns(self, state: TicTacToeState, rng: random.Random) -> tuple[float, float]:
        """The returns at the end of ``random_playout(state, rng, None, False)``: the same
        draws, without recording the moves or building the final state."""
        board, player, result = state
        if result:
            return _RETURNS[result]
        cells = list(board)
        empty = [i for i in range(9) if cells[i] == "."]
        draw = rng.random
        lines_through = _LINES_THROUGH
        while True:
            cell = empty.pop(int(draw() * len(empty)))
            cells[cell] = _MARKS[player]
            for a, b, c in lines_through[cell]:
                if cells[a] == cells[b] == cells[c]:
                    return _WIN_FOR[player]
            if not empty:
                return _DRAW
            player = 1 - player

    def is_terminal(self, state: TicTacToeState) -> bool:
        return state.result != 0

    def returns(self, state: TicTacToeState) -> tuple[float, float]:
        """(X, O): win 1, loss -1, draw 0; (0, 0) while the game is on."""
        return _RETURNS.get(state.result, (0.0, 0.0))

    def heuristic(self, state: TicTacToeState) -> tuple[float, float]:
        """Open lines, per player, in [-1, 1] (terminal states: the returns).

        A line still open for X (no O in it) counts 1 with one X and 3 with two X's; likewise
        for O. ``h_X = 0.9 * tanh((X's count - O's count) / 6)``, ``h_O = -h_X``: a sign of who
        has more ways left to make three, never as certain as a finished game.
        """
        if state.result:
            return self.returns(state)
        h = _open_lines_value(state.board)
        return (h, -h)

    def action_label(self, state: TicTacToeState, action: int) -> str:
        return label(action)

    def outcome_label(self, state: TicTacToeState, action: int, outcome: object) -> str:
        return ""

    def parse_state(self, text: str) -> TicTacToeState:
        """A position string (9 cells, ``X``/``O``/``.``) -> state.

        Accepts finished positions that could have been played (three in a row, or a full
        board), so a search can start at a terminal root. Raises ``PositionError`` naming the
        problem for anything else: wrong length, a bad character, stone counts that are not X's
        turn or O's turn, two winners, or a move made after the game was won. Surrounding
        whitespace is ignored.
        """
        if not isinstance(text, str):
            raise PositionError(f"position must be a string, got {type(text).__name__}")
        text = text.strip()
        if len(text) != 9:
            raise PositionError(f"position must have 9 cells, got {len(text)}")
        for i, ch in enumerate(text):
            if ch not in "XO.":
                raise PositionError(f"bad character {ch!r} at index {i}: use X, O or .")
        xs, os_ = text.count("X"), text.count("O")
        if os_ > xs:
            raise PositionError(f"O has more stones than X ({os_} > {xs}); X moves first")
        if xs > os_ + 1:
            raise PositionError(f"X has {xs - os_} more stones than O; players alternate")
        x_won = _has_line(text, "X")
        o_won = _has_line(text, "O")
        if x_won and o_won:
            raise PositionError("both X and O have three in a row")
        if x_won and xs == os_:
            raise PositionError("X has three in a row but O moved afterwards")
        if o_won and xs > os_:
            raise PositionError("O has three in a row but X moved afterwards")
        result = 1 if x_won else 2 if o_won else 3 if "." not in text else 0
        return TicTacToeState(text, 0 if xs == os_ else 1, result)

    def format_state(self, state: TicTacToeState) -> str:
        return state.board

    def render(self, state: TicTacToeState) -> str:
        """The board as three text lines."""
        b = state.board
        return "\n".join(" ".join(b[r * 3 : r * 3 + 3]) for r in range(3))


def label(cell: int) -> str:
    """``a1`` .. ``c3``: column letter from the left, row number from the top."""
    return f"{'abc'[cell % 3]}{cell // 3 + 1}"


def cell_from_label(text: str) -> int:
    """Inverse of :func:`label`; ``ValueError`` for anything else."""
    text = text.strip().lower()
    if len(text) != 2 or text[0] not in "abc" or text[1] not in "123":
        raise ValueError(f"{text!r} is not a cell: use a1 .. c3 (column a-c, row 1-3 from top)")
    return "abc".index(text[0]) + 3 * (int(text[1]) - 1)


def _has_line(board: str, mark: str) -> bool:
    return any(board[a] == board[b] == board[c] == mark for a, b, c in LINES)


#: The registration the CLI and the app read (:mod:`games.registry`).
SPEC = GameSpec(
    name="tic_tac_toe",
    label="Tic-tac-toe",
    make=TicTacToe,
    player_names=("X", "O"),
    position_help="9 cells row by row from the top left: X, O or '.', e.g. X.O.X....",
    board_view="tic_tac_toe",
    buttons=Buttons(columns=3, actions=tuple(range(9))),
    indexed_by_action=True,
    # measured (docs/search.md): every value-preserving move at 200 iterations on all 3,191
    # positions with a losing move (every symmetric version) x seeds 0-9. Expanding the
    # mover's best-looking moves first (heuristic order) fixes the edge-opening replies that
    # the listed order missed in some of their mirror images (.X....... seed 2, ...X.....).
    presets={
        "strong": {
            "solver": True,
            "c": 0.5,
            "rollout": "heuristic",
            "expansion_order": "heuristic",
        }
    },
)


if TYPE_CHECKING:  # the rules meet the Game protocol, typed on this game's state (mypy checks)
    _RULES: Game[TicTacToeState] = TicTacToe()
