"""The exact answer: every legal move's game-theoretic value, within a time budget.

:func:`exact_values` gives, for each legal action at a state, the value a perfect player gets
after playing it, from the view of the player to move at that state (the *root mover*): win 1,
draw 0, loss -1, and the expected value where dice decide (gridiron). A value that cannot be
computed within the budget is ``None``. :func:`regret` turns those values into what a chosen
move gives away.

How
---
The search works on any :class:`mcts_core.game.Game`: minimax with alpha-beta pruning and a
transposition table keyed on the state itself (states are hashable), from player 0's view
(player 0 maximises, player 1 minimises, so a multi-action turn needs no sign juggling), and
expectimax at chance nodes with Ballard's Star1 pruning (values are bounded by [-1, 1], so an
outcome's window follows from the outcomes already seen). A game may provide a faster,
game-specific solver (:class:`mcts_core.game.ExactSolver`, e.g. Connect Four's bitboard
alpha-beta); it is then used below every root move.

The deadline is checked inside the search every few hundred nodes, so a call overshoots its
budget by milliseconds, not seconds. Moves are solved one after the other with a shared table;
the moves not finished by the deadline are ``None`` (a move that ends the game at once is
always valued). States repeated on the current line (a cyclic game) make that move ``None``
unless the game declares ``states_never_repeat``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, TypeVar

from mcts_core.game import Action, State

if TYPE_CHECKING:
    from mcts_lab.common import AnyGame, SearchSummary

__all__ = ["ExactTimeout", "exact_values", "regret", "best_value", "VALUE_TOLERANCE"]

#: Values closer than this are treated as equal (expected values are sums of float products).
VALUE_TOLERANCE = 1e-9

_CHECK_EVERY = 256  # nodes between two looks at the clock
_MAX_TABLE = 2_000_000  # transposition entries kept before the table is cleared


class ExactTimeout(Exception):
    """The deadline passed before the value was known."""


class _Unsolvable(Exception):
    """The generic search met a state already on its current line (a cycle)."""


def exact_values(game: AnyGame, state: State, seconds: float = 2.0) -> dict[Action, float | None]:
    """Each legal action's exact value from the ROOT MOVER's view, in [-1, 1].

    Args:
        game: any :class:`mcts_core.game.Game`; its optional ``exact_value`` fast path
            (:class:`mcts_core.game.ExactSolver`) is used when present.
        state: the position; a finished one has no actions and gives ``{}``.
        seconds: wall-clock budget for all the actions together.

    Returns:
        ``{action: value}`` in ``legal_actions`` order: 1 a win, 0 a draw, -1 a loss for the
        player to move at ``state`` (expected values in between where dice decide), ``None``
        where the search did not finish within ``seconds``.
    """
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds >= 0:
        raise ValueError(f"seconds must be a number >= 0, got {seconds!r}")
    if game.is_terminal(state):
        return {}
    deadline = time.monotonic() + seconds
    solver = _Solver(game, deadline)
    sign = 1.0 if game.current_player(state) == 0 else -1.0
    values: dict[Action, float | None] = {}
    for action in game.legal_actions(state):
        try:
            value = solver.action_value(state, action, -1.0, 1.0)
        except (ExactTimeout, _Unsolvable, RecursionError):
            values[action] = None
            continue
        values[action] = _clean(sign * value)
    return values


#: a move as the caller names it: the game's action, or its documented index
_Move = TypeVar("_Move", bound=Hashable)


def best_value(values: Mapping[_Move, float | None]) -> float | None:
    """The best exact value among ``values``, or ``None`` when it is not known (a value is
    missing and none of the known ones is a win, the most there is)."""
    known = [v for v in values.values() if v is not None]
    if not known:
        return None
    best = max(known)
    if len(known) < len(values) and best < 1.0 - VALUE_TOLERANCE:
        return None
    return best


def regret(values: Mapping[_Move, float | None], chosen: _Move) -> float | None:
    """What playing ``chosen`` gives away: the best exact value minus ``chosen``'s, >= 0.

    ``None`` when either is unknown: ``chosen`` is not in ``values`` or has no value, or the
    best value is not known (see :func:`best_value`). 0 means ``chosen`` keeps the
    position's value.
    """
    value = values.get(chosen)
    if value is None:
        return None
    best = best_value(values)
    if best is None:
        return None
    difference = best - value
    return 0.0 if difference < VALUE_TOLERANCE else _clean(difference)


def _clean(value: float) -> float:
    """Round away float noise (1e-12 off a draw), so equal values compare equal."""
    rounded = round(value, 12)
    return 0.0 if rounded == 0 else rounded


class _Solver:
    """Alpha-beta minimax (player 0 maximises) with expectimax at chance nodes, over any game.

    Values are from player 0's view. ``value(state, alpha, beta)`` is fail-soft: a result at or
    below ``alpha`` is an upper bound of the true value, at or above ``beta`` a lower bound,
    anything in between exact.
    """

    def __init__(self, game: AnyGame, deadline: float) -> None:
        self.game = game
        self.deadline = deadline
        self.table: dict[Hashable, tuple[float, float]] = {}
        self.nodes = 0
        self.fast = getattr(game, "exact_value", None)
        self.guard: set[Hashable] | None = (
            None if getattr(game, "states_never_repeat", False) else set()
        )

    def action_value(self, state: State, action: Action, alpha: float, beta: float) -> float:
        """The value of playing ``action`` in ``state``: a decision, or the expectation over
        its chance outcomes with Star1 windows."""
        game = self.game
        outcomes = game.chance_outcomes(state, action)
        if len(outcomes) == 1:
            return self.value(game.next_state(state, action, outcomes[0][0]), alpha, beta)
        total = 0.0
        rest = 1.0  # probability not seen yet
        for outcome, p in outcomes:
            rest -= p
            if rest < 1e-12:
                rest = 0.0
            # the window this outcome must fall in for the expectation to land in (alpha, beta)
            low = (alpha - total - rest) / p
            high = (beta - total + rest) / p
            if low >= 1.0:  # even a win here cannot lift the expectation above alpha
                return float(total + p + rest)
            if high <= -1.0:  # even a loss here cannot push it below beta
                return float(total - p - rest)
            v = self.value(game.next_state(state, action, outcome), max(low, -1.0), min(high, 1.0))
            total += p * v
            if v <= low:
                return float(total + rest)  # an upper bound, <= alpha
            if v >= high:
                return float(total - rest)  # a lower bound, >= beta
        return total

    def value(self, state: State, alpha: float, beta: float) -> float:
        game = self.game
        if game.is_terminal(state):
            return float(game.returns(state)[0])
        self.nodes += 1
        if self.nodes % _CHECK_EVERY == 0 and time.monotonic() > self.deadline:
            raise ExactTimeout
        player = game.current_player(state)
        if self.fast is not None:
            if time.monotonic() > self.deadline:
                raise ExactTimeout
            fast = self.fast(state, self.deadline)
            if fast is None:
                raise ExactTimeout
            return float(fast) if player == 0 else -float(fast)
        table = self.table
        entry = table.get(state)
        low, high = entry if entry is not None else (-1.0, 1.0)
        if low >= beta:
            return low
        if high <= alpha:
            return high
        if low == high:
            return low
        alpha, beta = max(alpha, low), min(beta, high)
        guard = self.guard
        if guard is not None:
            if state in guard:
                raise _Unsolvable
            guard.add(state)
        start_alpha, start_beta = alpha, beta
        try:
            if player == 0:
                best = -math.inf
                for action in game.legal_actions(state):
                    v = self.action_value(state, action, alpha, beta)
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                            if alpha >= beta:
                                break
            else:
                best = math.inf
                for action in game.legal_actions(state):
                    v = self.action_value(state, action, alpha, beta)
                    if v < best:
                        best = v
                        if v < beta:
                            beta = v
                            if alpha >= beta:
                                break
        finally:
            if guard is not None:
                guard.discard(state)
        if best <= start_alpha:
            high = min(high, best)
        elif best >= start_beta:
            low = max(low, best)
        else:
            low = high = best
        if len(table) >= _MAX_TABLE:
            table.clear()
        table[state] = (low, high)
        return best


def add_exact(summary: SearchSummary, game: AnyGame, state: State, seconds: float) -> SearchSummary:
    """Add the exact answer to a search summary (``mcts-lab search --json --exact``).

    Every ``children[]`` entry gets ``exact`` (its exact value from the root mover's view, or
    ``None``), and the summary gets ``regret``: the best exact value over ALL legal moves
    (tried by the search or not) minus the exact value of ``best_action``, ``None`` when
    either is unknown or the position is over. Changes ``summary`` in place and returns it.
    """
    from mcts_lab.common import action_index

    values = exact_values(game, state, seconds)
    by_index = {action_index(game, state, action): value for action, value in values.items()}
    for child in summary["children"]:
        child["exact"] = _rounded(by_index.get(child["action_index"]))
    chosen = summary.get("best_action_index")
    summary["regret"] = None if chosen is None else _rounded(regret(by_index, chosen))
    return summary


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 6)
