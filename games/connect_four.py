"""Connect Four, 7 columns x 6 rows, on bitboards.

An action is a 0-based column (0..6); the legal actions are the columns that are not full, left
to right. Player 0 (X) moves first. Position strings list the columns played, 1-based, in order
(Pascal Pons' convention): ``""`` is the empty board, ``"4453"`` means X in column 4, O in column
4, X in 5, O in 3. Labels read ``col 4`` (1-based, as people count).

The board is two Python ints in Pons' layout: bit ``7*c + r`` is column ``c``, row ``r`` from
the bottom; row 6 of each column is an always-empty sentinel so shifts never wrap between
columns. ``me`` holds the stones of the player to move, ``mask`` all stones. Four in a row is
four shifts and ands; a random playout runs on local ints (:meth:`ConnectFour.random_playout`).

``parse_state`` accepts a string that ends with a win or a full board (a terminal root), and
rejects columns out of range, full columns and moves after the game was won.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, NamedTuple

from games.base import NO_CHANCE, Game, PositionError
from games.spec import Buttons, GameSpec

__all__ = ["SPEC", "ConnectFour", "ConnectFourState", "WIDTH", "HEIGHT"]

WIDTH = 7
HEIGHT = 6
_H1 = HEIGHT + 1
_BOTTOM = tuple(1 << (c * _H1) for c in range(WIDTH))
_TOP = tuple(1 << (c * _H1 + HEIGHT - 1) for c in range(WIDTH))
_COLUMN = tuple(((1 << HEIGHT) - 1) << (c * _H1) for c in range(WIDTH))
_DIGITS = "1234567"
_DETERMINISTIC = ((NO_CHANCE, 1.0),)
_WIN_FOR = ((1.0, -1.0), (-1.0, 1.0))
_DRAW = (0.0, 0.0)


def _cell(col: int, row: int) -> int:
    return 1 << (col * _H1 + row)


def _windows() -> tuple[int, ...]:
    """Bit masks of the 69 windows of four cells (every possible line of four)."""
    masks = []
    for col in range(WIDTH):
        for row in range(HEIGHT):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(col + k * dc, row + k * dr) for k in range(4)]
                if all(0 <= c < WIDTH and 0 <= r < HEIGHT for c, r in cells):
                    masks.append(sum(_cell(c, r) for c, r in cells))
    return tuple(masks)


_WINDOWS = _windows()
_CENTRE = _COLUMN[3]
_ALL_BOTTOM = sum(_BOTTOM)
_BOARD = _ALL_BOTTOM * ((1 << HEIGHT) - 1)  # every playable cell (no sentinel row)
_SEARCH_ORDER = tuple(_COLUMN[c] for c in (3, 2, 4, 1, 5, 0, 6))  # centre first
_SOLVER_TABLE_LIMIT = 2_000_000  # entries kept in the exact solver's table before a reset
_SOLVER_CHECK_EVERY = 512  # solver nodes between two looks at the clock


def _four(b: int) -> bool:
    """True if the stones ``b`` contain four in a row."""
    m = b & (b >> _H1)  # horizontal
    if m & (m >> 2 * _H1):
        return True
    m = b & (b >> HEIGHT)  # diagonal \
    if m & (m >> 2 * HEIGHT):
        return True
    m = b & (b >> (_H1 + 1))  # diagonal /
    if m & (m >> 2 * (_H1 + 1)):
        return True
    m = b & (b >> 1)  # vertical
    return bool(m & (m >> 2))


#: ``tuple.__new__(State, fields)`` builds a state without the named tuple's Python-level
#: ``__new__`` (one frame less per move in the search's hot loop; the same state).
_new_tuple = tuple.__new__


class ConnectFourState(NamedTuple):
    """A position.

    Attributes:
        me: bitboard of the stones of the player to move.
        mask: bitboard of all stones.
        moves: the position string (1-based columns played); its length is the move count and
            its parity says who is to move. Two move orders reaching the same stones are
            different states (the history is part of the position string).
        result: 0 game on, 1 the player who moved last has won, 2 draw (board full).
    """

    me: int
    mask: int
    moves: str
    result: int


class ConnectFour:
    """The rules, implementing :class:`games.base.Game` (plus the fast random playout).

    Actions are 0-based columns 0..6; ``action_label`` names them 1-based, ``"col 4"`` for action
    3, as people count. Player 0 is X (moves first), player 1 is O. ``returns`` and
    ``heuristic`` are ``(X's value, O's value)``.
    """

    name = "connect_four"
    num_players = 2
    #: Every move adds a stone, so no position repeats within a game (the search skips its guard).
    states_never_repeat = True
    #: Every action has the one outcome ``NO_CHANCE`` (the search's plain loop relies on it).
    deterministic = True
    #: The exact solver's transposition table (:meth:`exact_value`), kept between its calls.
    _exact_table: dict[int, int] | None = None

    def initial_state(self) -> ConnectFourState:
        return ConnectFourState(0, 0, "", 0)

    def current_player(self, state: ConnectFourState) -> int:
        return len(state.moves) & 1

    def legal_actions(self, state: ConnectFourState) -> list[int]:
        """Columns that are not full, left to right (none once the game is over)."""
        if state.result:
            return []
        mask = state.mask
        return [c for c in range(WIDTH) if not mask & _TOP[c]]

    def chance_outcomes(self, state: ConnectFourState, action: int) -> tuple[tuple[None, float]]:
        return _DETERMINISTIC

    def next_state(
        self, state: ConnectFourState, action: int, outcome: object = NO_CHANCE
    ) -> ConnectFourState:
        me, mask, moves, _ = state
        new_mask = mask | (mask + _BOTTOM[action])
        mover = me | (new_mask ^ mask)
        moves += _DIGITS[action]
        result = 1 if _four(mover) else 2 if len(moves) == WIDTH * HEIGHT else 0
        return _new_tuple(ConnectFourState, (mover ^ new_mask, new_mask, moves, result))

    def is_terminal(self, state: ConnectFourState) -> bool:
        return state.result != 0

    def returns(self, state: ConnectFourState) -> tuple[float, float]:
        """(X, O): win 1, loss -1, draw 0; (0, 0) while the game is on."""
        if state.result == 1:
            return _WIN_FOR[(len(state.moves) - 1) & 1]
        return _DRAW

    def heuristic(self, state: ConnectFourState) -> tuple[float, float]:
        """Threats and centre control, per player, in [-1, 1] (terminal states: the returns).

        Over the 69 windows of four cells: a window holding only one player's stones scores for
        that player 1 (one stone), 4 (two) or 16 (three, a threat); each stone in the centre
        column adds 2. ``h = 0.9 * tanh((own - opponent) / 40)`` for the player to move, the
        negation for the other, so a heuristic is never as sure as a finished game.
        """
        if state.result:
            return self.returns(state)
        me, mask = state.me, state.mask
        them = me ^ mask
        score = 2 * ((me & _CENTRE).bit_count() - (them & _CENTRE).bit_count())
        for window in _WINDOWS:
            mine = (me & window).bit_count()
            theirs = (them & window).bit_count()
            if mine and not theirs:
                score += 4 ** (mine - 1)
            elif theirs and not mine:
                score -= 4 ** (theirs - 1)
        h = 0.9 * math.tanh(score / 40)
        return (h, -h) if self.current_player(state) == 0 else (-h, h)

    def action_label(self, state: ConnectFourState, action: int) -> str:
        return f"col {action + 1}"

    def outcome_label(self, state: ConnectFourState, action: int, outcome: object) -> str:
        return ""

    def parse_state(self, text: str) -> ConnectFourState:
        """A position string (1-based columns played) -> state.

        Accepts a string ending in a win or a full board (a terminal root). Raises
        ``PositionError`` naming the problem: a bad character, a column out of range, a full
        column, or a move after the game was already won. Surrounding whitespace is ignored.
        """
        if not isinstance(text, str):
            raise PositionError(f"position must be a string, got {type(text).__name__}")
        state = self.initial_state()
        for i, ch in enumerate(text.strip()):
            if ch not in "0123456789":  # str.isdigit() would let "²" or "٤" through
                raise PositionError(f"bad character {ch!r} at index {i}: use column digits 1-7")
            column = int(ch)
            if not 1 <= column <= WIDTH:
                raise PositionError(f"column {column} out of range (1-{WIDTH}) at index {i}")
            if state.result:
                raise PositionError(f"game already over after move {i}")
            if state.mask & _TOP[column - 1]:
                raise PositionError(f"column {column} is full (move {i + 1})")
            state = self.next_state(state, column - 1)
        return state

    def format_state(self, state: ConnectFourState) -> str:
        return state.moves

    def render(self, state: ConnectFourState) -> str:
        """The board as text, top row first: X, O and '.'."""
        x_stones = state.me if self.current_player(state) == 0 else state.me ^ state.mask
        rows = []
        for row in reversed(range(HEIGHT)):
            line = ""
            for col in range(WIDTH):
                bit = _cell(col, row)
                line += ("X" if x_stones & bit else "O") if state.mask & bit else "."
            rows.append(" ".join(line))
        return "\n".join(rows)

    def exact_value(self, state: ConnectFourState, deadline: float) -> float | None:
        """The game-theoretic value of ``state`` for the player to move: 1 win, 0 draw, -1 loss
        (optional :class:`mcts_core.game.ExactSolver` fast path).

        A weak solver (win, draw or loss, not how soon) in pure Python on the bitboards: negamax
        with alpha-beta over the three values, after Pascal Pons' Connect Four solver: a node
        first looks for the opponent's immediate wins (two playable ones lose, one must be
        blocked, and no move may go under one), then tries the remaining moves that create
        the most winning cells first (centre first on ties), with a transposition table of
        lower and upper bounds keyed on ``me + mask``, kept on the instance between calls (and
        cleared beyond 2,000,000 entries). About 40,000-60,000 nodes a second; positions with
        20 or more stones usually take well under a second. Returns ``None`` once
        ``time.monotonic()`` passes ``deadline`` (checked every 512 nodes); the terminal
        state's value is its return for the player who would move.
        """
        me, mask, moves, result = state
        n = len(moves)
        if result:
            return -1.0 if result == 1 else 0.0  # the player who moved last won, or a draw
        if _winning_cells(me, mask) & (mask + _ALL_BOTTOM) & _BOARD:
            return 1.0  # a win at once
        if n >= WIDTH * HEIGHT - 1:
            return 0.0  # one cell left and it does not win: a draw
        table = self._exact_table
        if table is None or len(table) > _SOLVER_TABLE_LIMIT:
            table = {}
            self._exact_table = table
        try:
            return float(_negamax(me, mask, n, table, deadline))
        except _SolverTimeout:
            return None

    def random_playout(
        self,
        state: ConnectFourState,
        rng: random.Random,
        max_steps: int | None,
        stop_on_turn_change: bool,
    ) -> tuple[ConnectFourState, list[tuple[int, None]]]:
        """:func:`mcts_core.rollout.generic_random_playout` on local ints: the same draws
        (one ``rng.random()`` per move, an index into the open columns left to right), the same
        result, about three times faster. Connect Four turns are single moves, so a
        turn-limited playout plays one move."""
        me, mask, moves, result = state
        played: list[tuple[int, None]] = []
        if result:
            return state, played
        # every move hands the turn over, so a turn-limited playout is one move; no game is
        # longer than the empty cells left, so that bounds an unlimited one
        steps = WIDTH * HEIGHT - len(moves)
        if stop_on_turn_change:
            steps = min(steps, 1)
        if max_steps is not None:
            steps = min(steps, max_steps)
        draw = rng.random
        add = played.append
        bottom = _BOTTOM
        top = _TOP
        legal = [c for c in range(WIDTH) if not mask & top[c]]
        n = len(legal)
        for _ in range(steps):
            col = legal[int(draw() * n)]
            new_mask = mask | (mask + bottom[col])
            mover = me | (new_mask ^ mask)
            add((col, None))  # None is NO_CHANCE, as a constant
            me = mover ^ new_mask
            mask = new_mask
            # four in a row for the mover: horizontal, both diagonals, vertical (see _four)
            if (
                (m := mover & (mover >> 7)) & (m >> 14)
                or (m := mover & (mover >> 6)) & (m >> 12)
                or (m := mover & (mover >> 8)) & (m >> 16)
                or (m := mover & (mover >> 1)) & (m >> 2)
            ):
                result = 1
                break
            if new_mask & top[col]:
                legal.remove(col)
                n -= 1
        moves += "".join(_DIGITS[col] for col, _ in played)
        if not result and len(moves) == WIDTH * HEIGHT:
            result = 2
        return ConnectFourState(me, mask, moves, result), played

    def random_returns(self, state: ConnectFourState, rng: random.Random) -> tuple[float, float]:
        """The returns at the end of ``random_playout(state, rng, None, False)``: the same
        draws, without recording the moves or building the final state."""
        me, mask, moves, result = state
        if result:
            return self.returns(state)
        player = len(moves) & 1  # who moves next: 0 X, 1 O
        draw = rng.random
        bottom = _BOTTOM
        top = _TOP
        legal = [c for c in range(WIDTH) if not mask & top[c]]
        n = len(legal)
        for _ in range(WIDTH * HEIGHT - len(moves)):
            col = legal[int(draw() * n)]
            new_mask = mask | (mask + bottom[col])
            mover = me | (new_mask ^ mask)
            me = mover ^ new_mask
            mask = new_mask
            if (
                (m := mover & (mover >> 7)) & (m >> 14)
                or (m := mover & (mover >> 6)) & (m >> 12)
                or (m := mover & (mover >> 8)) & (m >> 16)
                or (m := mover & (mover >> 1)) & (m >> 2)
            ):
                return _WIN_FOR[player]
            player ^= 1
            if new_mask & top[col]:
                legal.remove(col)
                n -= 1
        return _DRAW


# ---------------------------------------------------------------- exact solver


class _SolverTimeout(Exception):
    """The exact solver's deadline passed."""


def _winning_cells(stones: int, mask: int) -> int:
    """Empty cells (playable now or not) where one more stone makes four for ``stones``."""
    r = (stones << 1) & (stones << 2) & (stones << 3)  # vertical: three below
    for s in (_H1, HEIGHT, _H1 + 1):  # horizontal, then the two diagonals
        p = (stones << s) & (stones << 2 * s)
        r |= p & (stones << 3 * s)
        r |= p & (stones >> s)
        p = (stones >> s) & (stones >> 2 * s)
        r |= p & (stones << s)
        r |= p & (stones >> 3 * s)
    return r & (_BOARD ^ mask)


def _negamax(me: int, mask: int, moves: int, table: dict[int, int], deadline: float) -> int:
    """The value (1, 0, -1) of the position for the player to move, who cannot win at once.

    The recursion below keeps that invariant: it only plays moves after which the opponent
    has no immediate win. ``table`` maps ``me + mask`` (unique per position) to
    ``(lower + 1) << 2 | (upper + 1)``. Raises :class:`_SolverTimeout` past ``deadline``.
    """
    nodes = 0
    check_at = _SOLVER_CHECK_EVERY
    board = _BOARD
    bottom = _ALL_BOTTOM
    order = _SEARCH_ORDER
    last_but_two = WIDTH * HEIGHT - 2
    monotonic = time.monotonic

    def search(me: int, mask: int, moves: int, alpha: int, beta: int) -> int:
        nonlocal nodes, check_at
        nodes += 1
        if nodes >= check_at:
            check_at += _SOLVER_CHECK_EVERY
            if len(table) > _SOLVER_TABLE_LIMIT:
                table.clear()
            if monotonic() > deadline:
                raise _SolverTimeout
        opp = me ^ mask
        possible = (mask + bottom) & board
        # the opponent's winning cells (_winning_cells, unrolled: this is the hot loop)
        r = (opp << 1) & (opp << 2) & (opp << 3)
        p = (opp << 7) & (opp << 14)
        r |= p & (opp << 21) | p & (opp >> 7)
        p = (opp >> 7) & (opp >> 14)
        r |= p & (opp << 7) | p & (opp >> 21)
        p = (opp << 6) & (opp << 12)
        r |= p & (opp << 18) | p & (opp >> 6)
        p = (opp >> 6) & (opp >> 12)
        r |= p & (opp << 6) | p & (opp >> 18)
        p = (opp << 8) & (opp << 16)
        r |= p & (opp << 24) | p & (opp >> 8)
        p = (opp >> 8) & (opp >> 16)
        r |= p & (opp << 8) | p & (opp >> 24)
        threats = r & (board ^ mask)
        forced = possible & threats
        if forced:
            if forced & (forced - 1):
                return -1  # two immediate wins for the opponent: one cannot block both
            possible = forced
        playable = possible & ~(threats >> 1)  # never play just under an opponent's win
        if not playable:
            return -1
        if moves >= last_but_two:
            return 0  # two cells left, no win for either side in them
        key = me + mask
        entry = table.get(key)
        if entry is None:
            low, high, hint = -1, 1, -1
        else:
            low, high, hint = ((entry >> 2) & 3) - 1, (entry & 3) - 1, (entry >> 4) - 1
            if low >= beta:
                return low
            if high <= alpha:
                return high
            if low > alpha:
                alpha = low
            if high < beta:
                beta = high
            if alpha >= beta:
                return alpha
        # order: moves that make the most winning cells for the mover first, centre first
        candidates = []
        for index in range(WIDTH):
            move = playable & order[index]
            if move:
                if index == hint:
                    candidates.append((-99, index, move))
                    continue
                s = me | move
                r = (s << 1) & (s << 2) & (s << 3)
                p = (s << 7) & (s << 14)
                r |= p & (s << 21) | p & (s >> 7)
                p = (s >> 7) & (s >> 14)
                r |= p & (s << 7) | p & (s >> 21)
                p = (s << 6) & (s << 12)
                r |= p & (s << 18) | p & (s >> 6)
                p = (s >> 6) & (s >> 12)
                r |= p & (s << 6) | p & (s >> 18)
                p = (s << 8) & (s << 16)
                r |= p & (s << 24) | p & (s >> 8)
                p = (s >> 8) & (s >> 16)
                r |= p & (s << 8) | p & (s >> 24)
                made = (r & (board ^ (mask | move))).bit_count()
                candidates.append((-made, index, move))
        if len(candidates) > 1:
            candidates.sort()
        start_alpha = alpha
        best = -2
        best_index = 0
        child_moves = moves + 1
        for _, index, move in candidates:
            v = -search(opp, mask | move, child_moves, -beta, -alpha)
            if v > best:
                best = v
                best_index = index
                if v > alpha:
                    alpha = v
                    if alpha >= beta:
                        break
        if best <= start_alpha:
            high = min(high, best)
        elif best >= beta:
            low = max(low, best)
        else:
            low = high = best
        table[key] = ((best_index + 1) << 4) | ((low + 1) << 2) | (high + 1)
        return best

    if monotonic() > deadline:
        raise _SolverTimeout
    return search(me, mask, moves, -1, 1)


#: The registration the CLI and the app read (:mod:`games.registry`).
SPEC = GameSpec(
    name="connect_four",
    label="Connect Four",
    make=ConnectFour,
    player_names=("X", "O"),
    position_help="the columns played, 1-7, in order, e.g. 4453 (empty: start)",
    board_view="connect_four",
    buttons=Buttons(columns=WIDTH, actions=tuple(range(WIDTH)), labels=tuple(_DIGITS[:WIDTH])),
    indexed_by_action=True,
    # measured (docs/search.md), 100 positions of 15-37 stones x seeds 0-9 at 200 iterations:
    # 98.1% value-preserving (solver and c = 1.0 alone: 94.8%; + heuristic-first expansion:
    # 95.9%). Heuristic-first expansion tries threats and blocks first; epsilon-greedy
    # rollouts (10% random) make the rollouts' values mean something in tactical positions.
    presets={
        "strong": {
            "solver": True,
            "c": 1.0,
            "expansion_order": "heuristic",
            "rollout": "epsilon",
        }
    },
)


if TYPE_CHECKING:  # the rules meet the Game protocol, typed on this game's state (mypy checks)
    _RULES: Game[ConnectFourState] = ConnectFour()
