"""MCTS-Solver: proven results propagate up the tree, and a proven move is worth its proof.

A terminal node is proven by its returns. A decision node is proven when one of its moves is a
proven win for the player deciding there (they will take it), or when every action has been
tried and every move is proven (the node is worth the best of them). A chance node is proven
when every outcome has been seen and all are proven equal (:attr:`ChanceNode.proven`).

Once proven, a move is valued at its proof everywhere: in selection, in every final-move policy,
and in every Q the app and CLI show. The final move follows :func:`final_move_index`: take a
proven win, avoid proven losses, and prefer the best proven result (a proven draw) unless an
unproven move is better *with confidence*: its lower confidence bound beats the proven value.
docs/search.md says why.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from mcts_core.nodes import ActionNode

__all__ = [
    "CONFIDENCE_DELTA",
    "final_move_index",
    "lower_bound",
    "proof_label",
    "propagate_proofs",
    "prove",
]

#: Chance that an unproven move's true value lies below its lower bound (Hoeffding): 5%.
CONFIDENCE_DELTA = 0.05
_HOEFFDING = math.sqrt(math.log(1.0 / CONFIDENCE_DELTA) / 2.0)


def proof_label(proven: tuple[float, ...] | None, player: int) -> str | None:
    """ "win", "draw" or "loss" for ``player`` of a proven result (``None`` if unproven)."""
    if proven is None or player < 0:
        return None
    value = proven[player]
    return "win" if value > 0 else "loss" if value < 0 else "draw"


def prove(node: ActionNode) -> tuple[float, ...] | None:
    """The proven returns of a decision node from its moves' proofs, or ``None``."""
    player = node.player
    if player < 0 or node.actions is None or not node.children:
        return None
    complete = len(node.children) == len(node.actions)
    best: tuple[float, ...] | None = None
    for move in node.children:
        proof = move.proven
        if proof is None:
            complete = False
            continue
        if proof[player] >= 1.0:
            return proof
        if best is None or proof[player] > best[player]:
            best = proof
    return best if complete else None


def propagate_proofs(path: Sequence[ActionNode]) -> None:
    """Prove the nodes of a selection path from the leaf up; stop at the first unproven one."""
    for node in reversed(path):
        if node.proven is not None:
            continue
        proof = prove(node)
        if proof is None:
            return
        node.proven = proof  # type: ignore[misc]  # a solver search's nodes are SolverNodes


def lower_bound(mean: float, visits: int, width: float) -> float:
    """A lower confidence bound on a move's value: ``mean - width * sqrt(ln(1/δ) / (2n))``.

    Hoeffding's bound for values in a range ``width`` wide, with δ = :data:`CONFIDENCE_DELTA`;
    minus infinity for an unvisited move.
    """
    if visits <= 0:
        return -math.inf
    return mean - width * _HOEFFDING / math.sqrt(visits)


def final_move_index(
    visits: Sequence[int],
    values: Sequence[float],
    proofs: Sequence[str | None],
    exact_values: Sequence[float | None],
    policy: Callable[[Sequence[int], Sequence[float]], int],
    width: float,
) -> int:
    """The move to play when some moves are proven.

    Args:
        visits: each move's visits.
        values: each move's Q from the deciding player's view (the proof's value if proven).
        proofs: "win", "draw", "loss" or ``None`` per move, for the deciding player.
        exact_values: the proven value per move in the search's range (``None`` if unproven).
        policy: the final-move policy to apply among the moves still in the running.
        width: the width of the value range (2 for [-1, 1], 1 for [0, 1]).

    Rules, in order: a proven win (the most visited one); proven losses are out while another
    move exists; if a non-losing move is proven, the best proven one is played unless an
    unproven move's lower confidence bound beats its value, in which case the policy picks among
    those confident moves; with no proof in play the policy picks among the rest.
    """
    indices = range(len(visits))
    wins = [i for i in indices if proofs[i] == "win"]
    if wins:
        return max(wins, key=lambda i: (visits[i], -i))
    alive = [i for i in indices if proofs[i] != "loss"] or list(indices)
    proven = [i for i in alive if exact_values[i] is not None]
    if proven:
        best_proven = max(proven, key=lambda i: (exact_values[i], visits[i], -i))
        floor = exact_values[best_proven]
        assert floor is not None
        alive = [
            i
            for i in alive
            if exact_values[i] is None and lower_bound(values[i], visits[i], width) > floor
        ]
        if not alive:
            return best_proven
    chosen = policy([visits[i] for i in alive], [values[i] for i in alive])
    return alive[chosen]
