"""A textbook UCT in plain Python: the speed baseline of ``mcts-lab bench --compare textbook``.

What a competent person writes from the textbook pseudocode (Browne et al. 2012, "A Survey of
Monte Carlo Tree Search Methods", Algorithm 2), without knowing MCTS Lab: ``__slots__`` nodes,
the board as a list copied for each new node and for each rollout, ``random.choice`` for the
untried move to expand and for every rollout move, UCB ``Q + c*sqrt(ln N / n)`` with the value
of a win 1, a draw 0 and a loss -1 for the player who made the move into the node, no traces,
no solver, no state caches. The games are the same as MCTS Lab's (tic-tac-toe; Connect Four,
7 x 6), written the plain way: a win is checked by walking the lines through the last move.

It is a benchmark baseline, not part of the product: nothing else imports it.
"""

from __future__ import annotations

import math
import random

__all__ = ["TextbookTicTacToe", "TextbookConnectFour", "TEXTBOOK_GAMES", "uct_search"]


LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
LINES_THROUGH = [[line for line in LINES if cell in line] for cell in range(9)]


class TextbookTicTacToe:
    """Cells 0..8 row-major; ``board`` holds 0 (empty), 1 (X) or 2 (O); X moves first."""

    def __init__(self) -> None:
        self.board = [0] * 9
        self.to_move = 1
        self.winner = 0  # 0 game on, 1 or 2 the winner, 3 a draw

    def copy(self) -> TextbookTicTacToe:
        other = TextbookTicTacToe.__new__(TextbookTicTacToe)
        other.board = self.board[:]
        other.to_move, other.winner = self.to_move, self.winner
        return other

    def moves(self) -> list[int]:
        return [] if self.winner else [i for i in range(9) if self.board[i] == 0]

    def play(self, cell: int) -> None:
        board, player = self.board, self.to_move
        board[cell] = player
        for a, b, c in LINES_THROUGH[cell]:
            if board[a] == board[b] == board[c]:
                self.winner = player
                break
        else:
            if 0 not in board:
                self.winner = 3
        self.to_move = 3 - player


class TextbookConnectFour:
    """``board[col]`` is the list of the column's stones from the bottom (1 X, 2 O)."""

    def __init__(self) -> None:
        self.board: list[list[int]] = [[] for _ in range(7)]
        self.to_move = 1
        self.winner = 0
        self.stones = 0

    def copy(self) -> TextbookConnectFour:
        other = TextbookConnectFour.__new__(TextbookConnectFour)
        other.board = [column[:] for column in self.board]
        other.to_move, other.winner, other.stones = self.to_move, self.winner, self.stones
        return other

    def moves(self) -> list[int]:
        return [] if self.winner else [c for c in range(7) if len(self.board[c]) < 6]

    def _stone(self, col: int, row: int) -> int:
        if 0 <= col < 7 and 0 <= row < len(self.board[col]):
            return self.board[col][row]
        return 0

    def play(self, col: int) -> None:
        player = self.to_move
        self.board[col].append(player)
        row = len(self.board[col]) - 1
        self.stones += 1
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            count = 1
            for sign in (1, -1):
                c, r = col + sign * dc, row + sign * dr
                while self._stone(c, r) == player:
                    count += 1
                    c, r = c + sign * dc, r + sign * dr
            if count >= 4:
                self.winner = player
                break
        else:
            if self.stones == 42:
                self.winner = 3
        self.to_move = 3 - player


class Node:
    __slots__ = ("move", "parent", "children", "untried", "visits", "value", "just_moved")

    def __init__(self, move: int | None, parent: Node | None, state: object) -> None:
        self.move = move
        self.parent = parent
        self.children: list[Node] = []
        self.untried: list[int] = state.moves()  # type: ignore[attr-defined]
        self.visits = 0
        self.value = 0.0  # sum of results for the player who moved into this node
        self.just_moved = 3 - state.to_move  # type: ignore[attr-defined]


def uct_search(root_state: object, iterations: int, c: float, rng: random.Random) -> Node:
    """Run ``iterations`` UCT simulations from ``root_state``; returns the root node."""
    root = Node(None, None, root_state)
    for _ in range(iterations):
        node = root
        state = root_state.copy()  # type: ignore[attr-defined]
        # selection: descend through fully expanded nodes by UCB
        while not node.untried and node.children:
            log_n = math.log(node.visits)
            node = max(
                node.children,
                key=lambda ch: ch.value / ch.visits + c * math.sqrt(log_n / ch.visits),
            )
            state.play(node.move)
        # expansion: one random untried move
        if node.untried:
            move = rng.choice(node.untried)
            node.untried.remove(move)
            state.play(move)
            child = Node(move, node, state)
            node.children.append(child)
            node = child
        # simulation: random moves to the end of the game
        moves = state.moves()
        while moves:
            state.play(rng.choice(moves))
            moves = state.moves()
        # backpropagation: +1 a win, 0 a draw, -1 a loss for the player who moved into the node
        up: Node | None = node
        while up is not None:
            up.visits += 1
            if state.winner == up.just_moved:
                up.value += 1.0
            elif state.winner != 3:
                up.value -= 1.0
            up = up.parent
    return root


#: Our game name -> the textbook game's class.
TEXTBOOK_GAMES = {"tic_tac_toe": TextbookTicTacToe, "connect_four": TextbookConnectFour}
