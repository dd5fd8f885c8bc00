"""Plain-function policies: tree policies, final-move policies and value shaping.

Tree policies compute the exploration bonus of every child of one decision node; the selection
adds it to each child's Q and takes the first maximum. They return every child's bonus, not just
the winner, so the trace can show all the terms (mctx keeps scoring apart from the argmax).

Each tree policy has the signature ``policy(parent_visits, visits, priors, *, c) -> list[float]``:
``parent_visits`` is N (visits of the deciding node), ``visits`` the n of each child (all >= 1),
``priors`` the PUCT prior of each child (ignored by UCT and UCB1).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = [
    "uct",
    "ucb1",
    "puct",
    "TreePolicy",
    "TREE_POLICY_REGISTRY",
    "TREE_POLICY_FUNCTIONS",
    "FORMULAS",
    "most_visited",
    "highest_value",
    "robust",
    "FINAL_POLICY_FUNCTIONS",
    "make_value_mapping",
    "softmax",
    "visit_entropy",
    "INVERSE_SQRT",
]

BonusFunction = Callable[..., list[float]]


def uct(
    parent_visits: int, visits: Sequence[int], priors: Sequence[float], *, c: float
) -> list[float]:
    """UCT bonus ``c * sqrt(ln N / n)`` (Kocsis & Szepesvari), computed as
    ``(c * sqrt(ln N)) * (1 / sqrt(n))`` with :data:`INVERSE_SQRT`: the search's fused loop does
    the same arithmetic, so both give the same floats and the same choices."""
    scale = c * math.sqrt(math.log(parent_visits))
    table = INVERSE_SQRT
    size = len(table)
    return [scale * (table[n] if n < size else 1.0 / math.sqrt(n)) for n in visits]


#: ``INVERSE_SQRT[k] = 1 / sqrt(k)`` for ``k < 16384`` (``[0]`` is inf), built once at import.
#: UCT's exploration term divides by ``sqrt(n)`` for every child of every node on every path; a
#: tuple lookup is cheaper than the call (6% fewer instructions per tic-tac-toe iteration,
#: counted with callgrind). A child visited 16,384 times or more (a few near the root) gets
#: ``1.0 / math.sqrt(n)``, the same float. The table is fixed: a table growing with the root's
#: visits cost 32 bytes per simulation in the 50,000-simulation memory benchmark.
INVERSE_SQRT: tuple[float, ...] = (math.inf,) + tuple(1.0 / math.sqrt(k) for k in range(1, 16384))


def ucb1(
    parent_visits: int, visits: Sequence[int], priors: Sequence[float], *, c: float
) -> list[float]:
    """The botbowl tutorial's UCB1 bonus ``2 * Cp * sqrt(2 ln N / n)`` with ``Cp = c``."""
    two_log_n = 2.0 * math.log(parent_visits)
    return [2.0 * c * math.sqrt(two_log_n / n) for n in visits]


def puct(
    parent_visits: int, visits: Sequence[int], priors: Sequence[float], *, c: float
) -> list[float]:
    """PUCT bonus ``c * P * sqrt(N) / (1 + n)`` (AlphaZero's form)."""
    root_n = math.sqrt(parent_visits)
    return [c * p * root_n / (1 + n) for n, p in zip(visits, priors, strict=True)]


@dataclass(frozen=True, slots=True)
class TreePolicy:
    """A tree policy, registered once in :data:`TREE_POLICY_REGISTRY`.

    Attributes:
        name: the key used by the config, the CLI (``--policy``) and the app ("uct").
        label: what a person reads ("UCB1 (botbowl tutorial)").
        bonus: the exploration bonus of every child: ``bonus(N, visits, priors, c=c)``.
        formula: the score as LaTeX, for the views.
        needs_priors: True when ``bonus`` reads the children's priors (PUCT).
    """

    name: str
    label: str
    bonus: BonusFunction
    formula: str
    needs_priors: bool = False


#: Every tree policy by name; adding one is one entry here (config, search, CLI and app read it).
TREE_POLICY_REGISTRY: dict[str, TreePolicy] = {
    policy.name: policy
    for policy in (
        TreePolicy("uct", "UCT", uct, r"Q + c\sqrt{\frac{\ln N}{n}}"),
        TreePolicy("ucb1", "UCB1 (botbowl tutorial)", ucb1, r"Q + 2C_p\sqrt{\frac{2\ln N}{n}}"),
        TreePolicy("puct", "PUCT", puct, r"Q + c\,P\,\frac{\sqrt{N}}{1+n}", needs_priors=True),
    )
}

#: Name -> bonus function and name -> LaTeX, derived from the registry (older spellings).
TREE_POLICY_FUNCTIONS: dict[str, BonusFunction] = {
    name: policy.bonus for name, policy in TREE_POLICY_REGISTRY.items()
}
FORMULAS: dict[str, str] = {name: policy.formula for name, policy in TREE_POLICY_REGISTRY.items()}


# Final-move policies: given each root child's visits and mean value (from the root mover's
# view), return the index of the move to play. Ties go to the earliest child.


def most_visited(visits: Sequence[int], values: Sequence[float]) -> int:
    """The most visited child; ties broken by the higher value (the tutorial's choice)."""
    return max(range(len(visits)), key=lambda i: (visits[i], values[i], -i))


def highest_value(visits: Sequence[int], values: Sequence[float]) -> int:
    """The child with the highest mean value; ties broken by more visits."""
    return max(range(len(visits)), key=lambda i: (values[i], visits[i], -i))


def robust(visits: Sequence[int], values: Sequence[float]) -> int:
    """The child best on both counts: the lowest sum of its visit rank and its value rank.

    When one child is first on both, it is that child (the "max-robust child"); otherwise it is
    the best compromise, ties going to more visits.
    """
    order = range(len(visits))
    by_visits = sorted(order, key=lambda i: (-visits[i], i))
    by_value = sorted(order, key=lambda i: (-values[i], i))
    rank = {i: r for r, i in enumerate(by_visits)}
    for r, i in enumerate(by_value):
        rank[i] += r
    return min(order, key=lambda i: (rank[i], -visits[i], i))


FINAL_POLICY_FUNCTIONS: dict[str, Callable[[Sequence[int], Sequence[float]], int]] = {
    "most_visited": most_visited,
    "highest_value": highest_value,
    "robust": robust,
}


def make_value_mapping(
    *,
    win_value: float,
    draw_value: float,
    loss_value: float,
    value_range: str,
) -> Callable[[float], float]:
    """The map from a raw value in [-1, 1] (win 1, draw 0, loss -1) to a backed-up value.

    Shaping sends 1 -> ``win_value``, 0 -> ``draw_value``, -1 -> ``loss_value`` (piecewise
    linear); normalisation then maps [loss_value, win_value] onto [-1, 1] ("symmetric") or
    [0, 1] ("unit"). Raw values outside [-1, 1] are clipped first.
    """
    low, high = (-1.0, 1.0) if value_range == "symmetric" else (0.0, 1.0)
    scale = (high - low) / (win_value - loss_value)

    def value(raw: float) -> float:
        raw = -1.0 if raw < -1.0 else 1.0 if raw > 1.0 else raw
        if raw >= 0.0:
            shaped = draw_value + raw * (win_value - draw_value)
        else:
            shaped = draw_value - raw * (loss_value - draw_value)
        return low + (shaped - loss_value) * scale

    return value


def softmax(scores: Sequence[float], temperature: float = 0.5) -> list[float]:
    """Softmax of ``scores / temperature`` (stable); used for PUCT heuristic priors."""
    if not scores:
        return []
    top = max(scores)
    weights = [math.exp((s - top) / temperature) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def visit_entropy(visits: Sequence[int]) -> float:
    """Shannon entropy (nats) of a visit distribution: how undecided a node is.

    0 when all visits went to one child; ``ln k`` when spread evenly over k children (Game AI
    Pro 3, ch. 28: a measure of how easily MCTS decides between the actions).
    """
    total = sum(visits)
    if total <= 0:
        return 0.0
    return -sum((n / total) * math.log(n / total) for n in visits if n > 0)
