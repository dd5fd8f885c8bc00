"""The records of a lockstep comparison (frozen; ``to_dict()`` is JSON-ready): one step's
comparison, the first divergence and the terms that decided it, the whole comparison, and the
sentences that say why two searches left sync. :mod:`mcts_lab.compare.searches` explains the
method."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from mcts_core import (
    ChildTerms,
    IterationTrace,
    RunResult,
    RunStop,
    Search,
)
from mcts_lab.common import SearchSummary, search_summary

#: Where two paths part: a decision chose differently ("selection"), a chance node drew another
#: outcome ("chance"), the same node was expanded with another move ("expansion"), or one search
#: stopped descending (to expand, at a terminal, proven or repeated node) where the other went on
#: ("stop").
DivergenceKind = Literal["selection", "chance", "expansion", "stop"]


#: Why the searches stopped being in sync: their paths differed, their random streams did
#: (e.g. different rollouts), the leaf values did (e.g. shaping), or the solver proved a node in
#: one search only.
SyncLoss = Literal["path", "random_stream", "leaf_values", "proofs"]


@dataclass(frozen=True)
class StepComparison:
    """One iteration of both searches, compared.

    Attributes:
        iteration: the iteration (1 = the first).
        same_path: both selected the same moves, drew the same outcomes and expanded the same
            move.
        in_sync: after this iteration both searches still hold the same statistics and random
            stream (and were in sync before it).
        depth: with different paths, the level of the decision node where they part (0 = the
            root), else ``None``.
        kind: with different paths, how they part (:data:`DivergenceKind`), else ``None``.
        path_a, path_b: each search's path as labels (see :func:`path_labels`).
    """

    iteration: int
    same_path: bool
    in_sync: bool
    depth: int | None
    kind: DivergenceKind | None
    path_a: tuple[str, ...]
    path_b: tuple[str, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "iteration": self.iteration,
            "same_path": self.same_path,
            "in_sync": self.in_sync,
            "depth": self.depth,
            "kind": self.kind,
            "a": list(self.path_a),
            "b": list(self.path_b),
        }


@dataclass(frozen=True)
class Divergence:
    """The first iteration whose selection paths differ, and why.

    Attributes:
        iteration: the iteration.
        depth: the level of the decision node where the paths part (0 = the root).
        kind: how they part (:data:`DivergenceKind`).
        player: the player deciding at that node (every ``q`` below is from this view), or
            ``None`` when unknown (a stop at a terminal node).
        parent_visits: N, that node's visits before the iteration (``None`` when unknown).
        choice_a, choice_b: what each search did there: the move chosen, ``"+move"`` for an
            expansion, ``"[outcome]"`` for a chance draw, or ``"stop: <why>"``.
        rule_a, rule_b: each decision's rule ("uct", "ucb1", "puct", "min_visits"), or ``None``
            when that search made no decision there.
        terms_a, terms_b: every child's terms at that decision under A and under B (empty when
            that search made no decision there).
        deciding_term: "q", "bonus", "rule", "solver", "expansion_order", "chance",
            "statistics" (the searches were already out of sync, so their trees differed) or
            "stop".
        in_sync_before: both searches held the same statistics and random stream up to this
            iteration (then ``deciding_term`` names one term; otherwise it is "statistics").
        explanation: the same in a sentence or three, with the numbers.
    """

    iteration: int
    depth: int
    kind: DivergenceKind
    player: int | None
    parent_visits: int | None
    choice_a: str
    choice_b: str
    rule_a: str | None
    rule_b: str | None
    terms_a: tuple[ChildTerms, ...]
    terms_b: tuple[ChildTerms, ...]
    deciding_term: str
    in_sync_before: bool
    explanation: str

    def to_dict(self) -> dict[str, object]:
        return {
            "iteration": self.iteration,
            "depth": self.depth,
            "kind": self.kind,
            "player": self.player,
            "parent_visits": self.parent_visits,
            "a": {"choice": self.choice_a, "rule": self.rule_a, "terms": _terms(self.terms_a)},
            "b": {"choice": self.choice_b, "rule": self.rule_b, "terms": _terms(self.terms_b)},
            "deciding_term": self.deciding_term,
            "in_sync_before": self.in_sync_before,
            "explanation": self.explanation,
        }


def _terms(terms: tuple[ChildTerms, ...]) -> list[dict[str, object]]:
    return [
        {
            "action": t.label,
            "visits": t.visits,
            "q": round(t.q, 6),
            "bonus": round(t.bonus, 6),
            "prior": None if t.prior is None else round(t.prior, 6),
            "score": round(t.score, 6),
            "proven": t.proven,
        }
        for t in terms
    ]


@dataclass(frozen=True)
class LockstepStep:
    """What :meth:`Lockstep.step` returns: the comparison and both traces (for a view)."""

    comparison: StepComparison
    trace_a: IterationTrace
    trace_b: IterationTrace


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare_searches`.

    Attributes:
        iterations: iterations asked for.
        iterations_run: iterations both searches ran (fewer when a node cap stopped one).
        steps: one :class:`StepComparison` per iteration run.
        first_divergence: the first iteration whose paths differ, or ``None``.
        first_out_of_sync: the first iteration after which the two searches no longer hold the
            same statistics and random stream, or ``None``; ``out_of_sync_reason`` says why.
        differences: the :class:`SearchConfig` fields that differ, as ``{field: (a, b)}``.
        note: ``""`` or why the comparison stopped early.
        search_a, search_b: the two searches, as they ended (for a view).
        seconds_a, seconds_b: wall-clock seconds of each search's steps.
    """

    iterations: int
    iterations_run: int
    seed: int
    steps: tuple[StepComparison, ...]
    first_divergence: Divergence | None
    first_out_of_sync: int | None
    out_of_sync_reason: SyncLoss | None
    differences: dict[str, tuple[object, object]]
    note: str
    seconds_a: float
    seconds_b: float
    search_a: Search = field(repr=False, compare=False)
    search_b: Search = field(repr=False, compare=False)

    @property
    def same_path_iterations(self) -> int:
        """Iterations whose paths were the same in both searches."""
        return sum(step.same_path for step in self.steps)

    def to_dict(self) -> dict[str, Any]:
        """The ``mcts-lab compare --json`` object (docs/cli.md), without the CLI's flags."""
        a = _summary(self.search_a, self.iterations_run, self.seconds_a)
        b = _summary(self.search_b, self.iterations_run, self.seconds_b)
        game = self.search_a.game
        return {
            "game": game.name,
            "position": game.format_state(self.search_a.root_state),
            "seed": self.seed,
            "iterations": self.iterations,
            "iterations_run": self.iterations_run,
            "differences": {name: list(pair) for name, pair in self.differences.items()},
            "same_path_iterations": self.same_path_iterations,
            "first_divergence": None
            if self.first_divergence is None
            else self.first_divergence.to_dict(),
            "first_out_of_sync": self.first_out_of_sync,
            "out_of_sync_reason": self.out_of_sync_reason,
            "same_choice": a["best_action"] == b["best_action"],
            "a": a,
            "b": b,
            "note": self.note,
            "steps": [step.to_dict() for step in self.steps],
        }


def _summary(search: Search, iterations: int, seconds: float) -> SearchSummary:
    """``search_summary`` of one side: the ``search --json`` object of its tree."""
    capped = search.node_cap_reached
    stopped = RunStop.NODE_CAP if capped else RunStop.ITERATIONS
    result = RunResult(iterations, seconds, stopped, search.node_cap_message if capped else "")
    return search_summary(search, result)


SYNC_TEXT: dict[str, str] = {
    "path": "their paths differed",
    "random_stream": "they drew different random numbers, e.g. different rollouts",
    "leaf_values": "the same leaf was valued differently, e.g. by shaping",
    "proofs": "the solver proved a node in one search only",
}


def show_value(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return f"{value:g}" if isinstance(value, float) else str(value)
