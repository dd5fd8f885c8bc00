"""Where a decision's choice would change with C, pure arithmetic: each child's score is a line
in C (``q_i + C * b_i``, the tree policy's bonus per unit of C), the chosen child is the argmax
on an interval of C, and the interval's ends are the flips. The narration words them
(:func:`app.words.c_sentence.flip_sentence`); the screen and an opened trace file ask for the
nearest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from mcts_core.policies import TREE_POLICY_REGISTRY
from mcts_core.trace import Decision

__all__ = ["CFlip", "exploration_coefficients", "flip_points", "flip_c", "same_c"]

_NEAR = 1e-9  # relative tolerance for "the same crossing point" and "the current C"


@dataclass(frozen=True, slots=True)
class CFlip:
    """A value of C at which a decision's choice changes.

    Attributes:
        c_flip: the value of C where another child's score reaches the chosen one's.
        runner_up_label: the child that would be chosen past that value.
        direction: "raise" (the other child wins for every C a little above ``c_flip``) or
            "lower" (for every C a little below it; at ``c_flip`` = 0, at C = 0 itself).
        runner_up_index: that child's index in ``decision.children``.
        current_c: the C the decision was made with (for :func:`flip_sentence`'s wording).
    """

    c_flip: float
    runner_up_label: str
    direction: Literal["raise", "lower"]
    runner_up_index: int
    current_c: float


def exploration_coefficients(decision: Decision, policy: str) -> list[float] | None:
    """Each child's bonus per unit of C (``bonus_i = C * b_i``), from the policy's formula with
    the decision's N, visits and priors (so it works at C = 0). ``None`` when the choice was not
    made by a formula (minimum visits, solver) or the numbers are missing.

    The decision's own rule names the formula the search used; ``policy`` is the fallback when
    the rule is not a formula's name."""
    if decision.rule in ("min_visits", "solver"):
        return None
    name = decision.rule if decision.rule in TREE_POLICY_REGISTRY else policy
    tree_policy = TREE_POLICY_REGISTRY.get(name)
    if tree_policy is None:
        return None
    visits = [t.visits for t in decision.children]
    if not visits or min(visits) < 1 or decision.parent_visits < 1:
        return None
    priors: list[float] | None = None
    if tree_policy.needs_priors:
        if any(t.prior is None for t in decision.children):
            return None
        priors = [t.prior for t in decision.children]  # type: ignore[misc]
    return [float(b) for b in tree_policy.bonus(decision.parent_visits, visits, priors, c=1.0)]


def same_c(a: float, b: float) -> bool:
    """Two values of C (or of slopes) equal up to rounding."""
    return abs(a - b) <= _NEAR * max(1.0, abs(a), abs(b))


def flip_points(decision: Decision, policy: str, c: float) -> tuple[CFlip, ...]:
    """Every value of C (at most two: one below, one above) where the decision's choice changes.

    The score of child i is ``q_i + C * b_i`` (:func:`exploration_coefficients`): a line in C.
    The chosen child k stays the argmax on an interval of C; its ends are the flips. Raising C
    past the upper end, the child with a bigger ``b`` crossing k there takes over (if several
    cross at the same point, the biggest ``b``, then the first in order); lowering C below the
    lower end, the child with a smaller ``b`` crossing there (the smallest ``b``). The lower end
    counts only above 0, or at 0 when C = 0 itself already gives another child (a tie at 0 goes
    to the first in order). Lower flip first.
    """
    b = exploration_coefficients(decision, policy)
    if b is None or len(decision.children) < 2:
        return ()
    q = [t.q for t in decision.children]
    k = decision.chosen
    flips: list[CFlip] = []

    # Lines whose slopes differ only by rounding (equal in exact arithmetic, e.g. PUCT's
    # 3/22 / 12 and 9/22 / 36) are parallel: they never cross, whatever the last bit says.
    steeper = [j for j in range(len(q)) if b[j] > b[k] and not same_c(b[j], b[k])]
    flatter = [j for j in range(len(q)) if b[j] < b[k] and not same_c(b[j], b[k])]

    lower = [((q[j] - q[k]) / (b[k] - b[j]), j) for j in flatter]
    if lower:
        lo = max(x for x, _ in lower)
        at = [j for x, j in lower if same_c(x, lo)]
        j = min(at, key=lambda i: (b[i], i))
        first_at_zero = max(range(len(q)), key=lambda i: (q[i], -i))  # at C = 0: Q alone
        if lo > _NEAR or (lo > -_NEAR and first_at_zero != k):
            lo = max(lo, 0.0)
            if lo == 0.0:
                j = first_at_zero
            flips.append(CFlip(lo, decision.children[j].label, "lower", j, c))

    upper = [((q[k] - q[j]) / (b[j] - b[k]), j) for j in steeper]
    if upper:
        hi = min(x for x, _ in upper)
        at = [j for x, j in upper if same_c(x, hi)]
        j = max(at, key=lambda i: (b[i], -i))
        flips.append(CFlip(max(hi, 0.0), decision.children[j].label, "raise", j, c))
    return tuple(flips)


def flip_c(decision: Decision, policy: str, c: float) -> CFlip | None:
    """The nearest value of C (up or down from ``c``) at which the decision would choose
    another child, and which; ``None`` when no C flips it (the chosen child has the best Q and
    no other child a bigger bonus per unit of C, or it is the only child) or when the choice
    was not made by the formula (minimum visits, solver). Both flips: :func:`flip_points`."""
    flips = flip_points(decision, policy, c)
    if not flips:
        return None
    return min(flips, key=lambda f: (abs(f.c_flip - c), f.direction != "raise"))
