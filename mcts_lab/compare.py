"""Two searches in lockstep: where do two settings first choose differently, and why?

Two :class:`~mcts_core.Search` objects start from the same position with the **same seed** and
different settings, and run one iteration each per step (``Search.step()``). While their
selection paths agree, they make the same random draws (expansion order, chance outcomes,
rollouts all come from the search's own ``random.Random``), so after every step this module
checks that the two searches are still *in sync*: the same path, the same random generator
state, the same leaf values (compared in [-1, 1], so a [0, 1] search can be in sync with a
[-1, 1] one) and the same proofs. Two searches in sync hold the same tree statistics, so the
first iteration where their paths part is explained by the terms of one decision alone: which
term (Q, the exploration bonus, a rule, a proof) made the two settings choose differently.

Settings that change the random draws without changing the path (a rollout policy, a rollout
depth) put the searches out of sync before any path differs; the comparison says so
(``first_out_of_sync`` and its reason) and does not blame a single term for a later divergence.

``Lockstep`` steps the pair one iteration at a time (for a view that steps on clicks);
``compare_searches`` runs a number of iterations and returns a frozen :class:`Comparison`, whose
``to_dict()`` is the ``mcts-lab compare --json`` object (docs/cli.md).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from mcts_core import (
    ChanceStep,
    ChildTerms,
    Decision,
    IterationTrace,
    NodeCapReached,
    RunResult,
    RunStop,
    Search,
    SearchConfig,
)
from mcts_core.config import check_count
from mcts_lab.common import search_summary, signed_value

__all__ = [
    "Comparison",
    "DivergenceKind",
    "Divergence",
    "Lockstep",
    "LockstepStep",
    "MAX_COMPARE_ITERATIONS",
    "StepComparison",
    "compare_searches",
    "config_differences",
    "format_comparison",
    "path_labels",
]

#: Every step records two traces; this keeps a comparison's JSON and time bounded.
MAX_COMPARE_ITERATIONS = 100_000

#: Where two paths part: a decision chose differently ("selection"), a chance node drew another
#: outcome ("chance"), the same node was expanded with another move ("expansion"), or one search
#: stopped descending (to expand, at a terminal, proven or repeated node) where the other went on
#: ("stop").
DivergenceKind = Literal["selection", "chance", "expansion", "stop"]

#: Why the searches stopped being in sync: their paths differed, their random streams did
#: (e.g. different rollouts), the leaf values did (e.g. shaping), or the solver proved a node in
#: one search only.
SyncLoss = Literal["path", "random_stream", "leaf_values", "proofs"]

_SAME = 1e-9  # two floats closer than this are "the same" (only rounding separates them)


# ------------------------------------------------------------------ records


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

    def to_dict(self) -> dict[str, Any]:
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

    def to_dict(self) -> dict[str, Any]:
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


def _terms(terms: tuple[ChildTerms, ...]) -> list[dict[str, Any]]:
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
    differences: dict[str, tuple[Any, Any]]
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


def _summary(search: Search, iterations: int, seconds: float) -> dict[str, Any]:
    """``search_summary`` of one side: the ``search --json`` object of its tree."""
    capped = search.node_cap_reached
    stopped = RunStop.NODE_CAP if capped else RunStop.ITERATIONS
    result = RunResult(iterations, seconds, stopped, search.node_cap_message if capped else "")
    return search_summary(search, result)


def config_differences(a: SearchConfig, b: SearchConfig) -> dict[str, tuple[Any, Any]]:
    """The config fields whose values differ, in field order: ``{name: (a's, b's)}``."""
    return {
        f.name: (getattr(a, f.name), getattr(b, f.name))
        for f in fields(SearchConfig)
        if getattr(a, f.name) != getattr(b, f.name)
    }


# ------------------------------------------------------------------ paths


def path_labels(trace: IterationTrace) -> tuple[str, ...]:
    """An iteration's path as labels: each decision's chosen move, each chance outcome drawn
    on the way as ``"[outcome]"``, and the expanded move as ``"+move"`` (``"+move [outcome]"``
    when it has several outcomes; ``"+[outcome]"`` for a new outcome of a known move)."""
    labels: list[str] = []
    for step in trace.path:
        if isinstance(step, Decision):
            labels.append(step.chosen_terms.label)
        else:
            labels.append(f"[{step.outcome_label}]")
    expansion = trace.expansion
    if expansion is not None:
        if not expansion.new_action:
            labels.append(f"+[{expansion.outcome_label}]")
        elif expansion.chance_id is not None:
            labels.append(f"+{expansion.action_label} [{expansion.outcome_label}]")
        else:
            labels.append(f"+{expansion.action_label}")
    return tuple(labels)


def _tokens(trace: IterationTrace) -> list[tuple[str, str]]:
    """The path as (kind, label) pairs: kind "select", "chance" or "expand"."""
    tokens: list[tuple[str, str]] = []
    for step in trace.path:
        if isinstance(step, Decision):
            tokens.append(("select", step.chosen_terms.label))
        else:
            tokens.append(("chance", step.outcome_label))
    expansion = trace.expansion
    if expansion is not None:
        action = expansion.action_label if expansion.new_action else ""
        tokens.append(("expand", f"{action}|{expansion.outcome_label}"))
    return tokens


@dataclass(frozen=True)
class _Split:
    index: int  # first differing token
    depth: int
    kind: DivergenceKind


def _split(trace_a: IterationTrace, trace_b: IterationTrace) -> _Split | None:
    """Where two paths first differ, or ``None`` when they are the same."""
    tokens_a, tokens_b = _tokens(trace_a), _tokens(trace_b)
    decisions = 0
    for index in range(max(len(tokens_a), len(tokens_b))):
        ta = tokens_a[index] if index < len(tokens_a) else None
        tb = tokens_b[index] if index < len(tokens_b) else None
        if ta == tb:
            if ta is not None and ta[0] == "select":
                decisions += 1
            continue
        if ta is not None and tb is not None and ta[0] == tb[0]:
            if ta[0] == "select":
                return _Split(index, decisions, "selection")
            if ta[0] == "chance":  # the outcome of the last decision's move
                return _Split(index, max(decisions - 1, 0), "chance")
            return _Split(index, decisions, "expansion")
        return _Split(index, decisions, "stop")
    return None


def _step_at(trace: IterationTrace, index: int) -> Decision | ChanceStep | None:
    return trace.path[index] if index < len(trace.path) else None


# ------------------------------------------------------------------ lockstep


class Lockstep:
    """Two searches on one position and seed, stepped together one iteration at a time.

    Args:
        game: the rules.
        state: the position both search (not a finished one).
        config_a, config_b: the two settings.
        seed: the seed of both searches' random generators.
    """

    def __init__(
        self, game: Any, state: Any, config_a: SearchConfig, config_b: SearchConfig, seed: int = 0
    ) -> None:
        if game.is_terminal(state):
            raise ValueError("the position is already over: there is no move to compare")
        self.a = Search(game, state, config_a, seed=seed)
        self.b = Search(game, state, config_b, seed=seed)
        self.seed = seed
        self.differences = config_differences(config_a, config_b)
        self.in_sync = True
        self.first_divergence: Divergence | None = None
        self.first_out_of_sync: int | None = None
        self.out_of_sync_reason: SyncLoss | None = None
        self.seconds_a = 0.0
        self.seconds_b = 0.0

    def step(self) -> LockstepStep:
        """One iteration of each search (A first), compared.

        Raises :class:`~mcts_core.NodeCapReached` when either tree is full and its iteration
        needed a node (if B's was refused, A has run one iteration more than B).
        """
        start = time.perf_counter()
        trace_a = self.a.step()
        middle = time.perf_counter()
        trace_b = self.b.step()
        self.seconds_a += middle - start
        self.seconds_b += time.perf_counter() - middle
        split = _split(trace_a, trace_b)
        was_in_sync = self.in_sync
        loss = "path" if split is not None else self._sync_loss(trace_a, trace_b)
        if was_in_sync and loss is not None:
            self.in_sync = False
            self.first_out_of_sync = trace_a.iteration
            self.out_of_sync_reason = loss
        if split is not None and self.first_divergence is None:
            self.first_divergence = self._divergence(trace_a, trace_b, split, was_in_sync)
        comparison = StepComparison(
            iteration=trace_a.iteration,
            same_path=split is None,
            in_sync=self.in_sync,
            depth=None if split is None else split.depth,
            kind=None if split is None else split.kind,
            path_a=path_labels(trace_a),
            path_b=path_labels(trace_b),
        )
        return LockstepStep(comparison, trace_a, trace_b)

    def _sync_loss(self, trace_a: IterationTrace, trace_b: IterationTrace) -> SyncLoss | None:
        """Why two iterations with the same path left the searches out of sync, or ``None``."""
        if self.a.rng.getstate() != self.b.rng.getstate():
            return "random_stream"
        ea, eb = trace_a.evaluation, trace_b.evaluation
        range_a, range_b = self.a.config.value_range, self.b.config.value_range
        if ea.kind != eb.kind or ea.raw != eb.raw:
            return "leaf_values"
        for va, vb in zip(ea.value, eb.value, strict=True):
            if not math.isclose(
                signed_value(va, range_a), signed_value(vb, range_b), abs_tol=_SAME
            ):
                return "leaf_values"
        proofs_a = [(u.node_id, u.proven) for u in trace_a.updates]
        proofs_b = [(u.node_id, u.proven) for u in trace_b.updates]
        if proofs_a != proofs_b:
            return "proofs"
        return None

    # -------------------------------------------------------- explaining

    def _who(self, side: str) -> str:
        """``"A (c 0.5)"``: the side and its differing settings."""
        index = 0 if side == "A" else 1
        if not self.differences:
            return side
        text = ", ".join(f"{name} {_show(pair[index])}" for name, pair in self.differences.items())
        return f"{side} ({text})"

    def _divergence(
        self, trace_a: IterationTrace, trace_b: IterationTrace, split: _Split, in_sync: bool
    ) -> Divergence:
        step_a = _step_at(trace_a, split.index)
        step_b = _step_at(trace_b, split.index)
        dec_a = step_a if isinstance(step_a, Decision) else None
        dec_b = step_b if isinstance(step_b, Decision) else None
        # the node where they part: a decision of either, else the decision above a chance step
        node = dec_a or dec_b or _decision_above(trace_a, split.index)
        choice_a = _choice_text(trace_a, split.index)
        choice_b = _choice_text(trace_b, split.index)
        head = f"Iteration {trace_a.iteration}, depth {split.depth}"
        if node is not None:
            where = (
                "the root"
                if split.depth == 0
                else f"{split.depth} move{'s' * (split.depth > 1)} down"
            )
            head += f" ({where}; player {node.player} to move, N = {node.parent_visits})"
        if in_sync:
            preface = ""
        else:
            preface = (
                f" The searches had been out of sync since iteration {self.first_out_of_sync} "
                f"({_SYNC_TEXT[self.out_of_sync_reason or 'path']}), so their trees already "
                "differed and no single term is to blame."
            )
        if split.kind == "selection":
            assert dec_a is not None and dec_b is not None
            term, text = self._explain_selection(dec_a, dec_b, in_sync)
        elif split.kind == "expansion":
            orders = self.differences.get("expansion_order")
            term = "expansion_order" if in_sync and orders else "statistics"
            text = f"{self._who('A')} expanded {choice_a[1:]}, {self._who('B')} {choice_b[1:]}"
            if orders:
                text += f": their expansion orders differ ({orders[0]} / {orders[1]})"
            text += "."
        elif split.kind == "chance":
            term = "chance"
            text = (
                f"The dice differ: A drew {choice_a}, B drew {choice_b} (their random streams "
                "had parted)."
            )
        else:
            kinds = {trace_a.evaluation.kind, trace_b.evaluation.kind}
            term = (
                "solver"
                if "proven" in kinds and in_sync
                else "statistics"
                if not in_sync
                else "stop"
            )
            text = f"{self._who('A')}: {_stop_sentence(choice_a)}; {self._who('B')}: " + (
                _stop_sentence(choice_b) + "."
            )
        if not in_sync:
            term = "statistics" if term != "chance" else term
        return Divergence(
            iteration=trace_a.iteration,
            depth=split.depth,
            kind=split.kind,
            player=None if node is None else node.player,
            parent_visits=None if node is None else node.parent_visits,
            choice_a=choice_a,
            choice_b=choice_b,
            rule_a=None if dec_a is None else dec_a.rule,
            rule_b=None if dec_b is None else dec_b.rule,
            terms_a=() if dec_a is None else dec_a.children,
            terms_b=() if dec_b is None else dec_b.children,
            deciding_term=term,
            in_sync_before=in_sync,
            explanation=f"{head}: {text}{preface}",
        )

    def _explain_selection(
        self, dec_a: Decision, dec_b: Decision, in_sync: bool
    ) -> tuple[str, str]:
        """The deciding term and the sentences of a decision the two searches took apart."""
        x, y = dec_a.chosen_terms.label, dec_b.chosen_terms.label
        ax, ay = _find(dec_a, x), _find(dec_a, y)
        bx, by = _find(dec_b, x), _find(dec_b, y)
        said_a = f"{self._who('A')} chose {x} ({_score(ax)})" + (
            f" over {y} ({_score(ay)})" if ay else f"; it had not tried {y}"
        )
        said_b = f"{self._who('B')} chose {y} ({_score(by)})" + (
            f" over {x} ({_score(bx)})" if bx else f"; it had not tried {x}"
        )
        text = f"{said_a}; {said_b}."
        if ax is None or ay is None or bx is None or by is None or not in_sync:
            return "statistics", text
        if "min_visits" in (dec_a.rule, dec_b.rule):
            parts = ", ".join(
                f"{side} by {rule}" for side, rule in (("A", dec_a.rule), ("B", dec_b.rule))
            )
            return "rule", (
                f"{text} A rule decided, not the formula: {parts} (min_visits: every move first "
                "gets T visits, the least visited first)."
            )
        if (ax.proven, ay.proven) != (bx.proven, by.proven):
            return "solver", (
                f"{text} Their proofs differ: under A {x} is {ax.proven or 'unproven'} and {y} "
                f"{ay.proven or 'unproven'}, under B {x} is {bx.proven or 'unproven'} and {y} "
                f"{by.proven or 'unproven'}; a proven move's Q is its exact value."
            )
        q_a, q_b = ax.q - ay.q, bx.q - by.q
        bonus_a, bonus_b = ax.bonus - ay.bonus, bx.bonus - by.bonus
        gaps = (
            f"{x} minus {y}: Q {q_a:+.3f} + bonus {bonus_a:+.3f} = {q_a + bonus_a:+.3f} under A "
            f"(so A takes {x}), Q {q_b:+.3f} + bonus {bonus_b:+.3f} = {q_b + bonus_b:+.3f} under "
            f"B (so B takes {y})"
        )
        priors = ""
        if (
            ax.prior is not None
            and bx.prior is not None
            and ay.prior is not None
            and by.prior is not None
            and not (_close(ax.prior, bx.prior) and _close(ay.prior, by.prior))
        ):
            priors = (
                f"; the priors P differ ({x} {ax.prior:.3f} / {bx.prior:.3f}, {y} "
                f"{ay.prior:.3f} / {by.prior:.3f})"
            )
        shift_q, shift_bonus = q_b - q_a, bonus_b - bonus_a
        if _close(shift_q, 0.0):
            term, lead = "bonus", f"Q is the same in both; the exploration bonus decided{priors}"
        elif _close(shift_bonus, 0.0):
            term, lead = "q", "the bonus is the same in both; Q decided"
            if "value_range" in self.differences:
                lead += " (the searches value in different ranges)"
        else:
            # both moved: the one that moved further towards B's choice decided
            term = "q" if shift_q < shift_bonus else "bonus"
            lead = (
                f"both terms differ (the gap moved by {shift_q:+.3f} in Q and "
                f"{shift_bonus:+.3f} in bonus); the {'Q' if term == 'q' else 'bonus'} moved "
                f"more{priors}"
            )
        if dec_a.rule != dec_b.rule:
            lead += f" (the bonus formulas differ: {dec_a.rule} / {dec_b.rule})"
        tie = " (a tie, broken by expansion order)" if _close(q_a + bonus_a, 0.0) else ""
        return term, f"{text} {lead[0].upper()}{lead[1:]}: {gaps}{tie}."


_SYNC_TEXT: dict[str, str] = {
    "path": "their paths differed",
    "random_stream": "they drew different random numbers, e.g. different rollouts",
    "leaf_values": "the same leaf was valued differently, e.g. by shaping",
    "proofs": "the solver proved a node in one search only",
}


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=_SAME)


def _find(decision: Decision, label: str) -> ChildTerms | None:
    return next((t for t in decision.children if t.label == label), None)


def _score(terms: ChildTerms | None) -> str:
    if terms is None:
        return "not tried"
    return f"Q {terms.q:+.3f} + bonus {terms.bonus:.3f} = {terms.score:+.3f}, n = {terms.visits}"


def _decision_above(trace: IterationTrace, index: int) -> Decision | None:
    for step in reversed(trace.path[:index]):
        if isinstance(step, Decision):
            return step
    return None


_STOPS = {
    "terminal": "the game is over there",
    "proven": "the node is proven (solver)",
    "repeat": "the position repeats on the path",
}


def _choice_text(trace: IterationTrace, index: int) -> str:
    """What a search did at the parting token: "b2", "[outcome]", "+b2" or "stop: <why>"."""
    labels = path_labels(trace)
    if index < len(labels):
        return labels[index]
    return f"stop: {_STOPS.get(trace.evaluation.kind, 'the leaf')}"


def _stop_sentence(choice: str) -> str:
    if choice.startswith("stop: "):
        return f"stopped ({choice[6:]})"
    if choice.startswith("+"):
        return f"stopped to expand {choice[1:]} (the node still had untried moves)"
    return f"went on with {choice}"


# ------------------------------------------------------------------ the whole run


def compare_searches(
    game: Any,
    state: Any,
    config_a: SearchConfig,
    config_b: SearchConfig,
    *,
    iterations: int,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Comparison:
    """Run two searches in lockstep for ``iterations`` iterations and compare every one.

    Args:
        game, state: the rules and the position (not finished).
        config_a, config_b: the two settings.
        iterations: 1 .. :data:`MAX_COMPARE_ITERATIONS`.
        seed: both searches' seed.
        progress: called as ``progress(done, total)`` every 100 iterations and at the end.

    A node cap that refuses either search's iteration ends the comparison there (``note``).
    """
    check_count("iterations", iterations, 1, MAX_COMPARE_ITERATIONS)
    lockstep = Lockstep(game, state, config_a, config_b, seed=seed)
    steps: list[StepComparison] = []
    note = ""
    for done in range(1, iterations + 1):
        try:
            steps.append(lockstep.step().comparison)
        except NodeCapReached:
            full = lockstep.a if lockstep.a.node_cap_reached else lockstep.b
            side = "A" if full is lockstep.a else "B"
            note = (
                f"{side}'s tree is full (max_nodes {full.config.max_nodes:,}) at iteration "
                f"{done}: the comparison stops after {done - 1} iterations"
                + (" (A ran one more)" if side == "B" else "")
            )
            break
        if progress is not None and (done % 100 == 0 or done == iterations):
            progress(done, iterations)
    return Comparison(
        iterations=iterations,
        iterations_run=len(steps),
        seed=seed,
        steps=tuple(steps),
        first_divergence=lockstep.first_divergence,
        first_out_of_sync=lockstep.first_out_of_sync,
        out_of_sync_reason=lockstep.out_of_sync_reason,
        differences=lockstep.differences,
        note=note,
        seconds_a=lockstep.seconds_a,
        seconds_b=lockstep.seconds_b,
        search_a=lockstep.a,
        search_b=lockstep.b,
    )


# ------------------------------------------------------------------ text report


def format_comparison(
    comparison: Comparison, flags_a: str = "", flags_b: str = "", max_rows: int = 12
) -> str:
    """The readable report of ``mcts-lab compare``: settings, the first divergence explained,
    the iterations in runs of same / different paths (at most ``max_rows`` rows) and each
    search's final choice."""
    data = comparison.to_dict()
    position = data["position"] or "(start)"
    lines = [
        f"{data['game']} at {position!r}, seed {data['seed']}: {data['iterations_run']:,} "
        f"iterations of two searches in lockstep",
        f"A: {flags_a or '(default settings)'}",
        f"B: {flags_b or '(default settings)'}",
    ]
    if comparison.differences:
        lines.append(
            "settings that differ: "
            + ", ".join(
                f"{name} {_show(a)} / {_show(b)}" for name, (a, b) in comparison.differences.items()
            )
        )
    else:
        lines.append("the settings are the same: the two searches must never part")
    if comparison.note:
        lines.append(comparison.note)
    lines.append(
        f"same path on {comparison.same_path_iterations:,} of {comparison.iterations_run:,} "
        "iterations"
    )
    if comparison.first_out_of_sync is not None:
        reason = _SYNC_TEXT[comparison.out_of_sync_reason or "path"]
        before = comparison.first_out_of_sync - 1
        lines.append(
            (f"in sync (same tree, same random stream) for {before} iterations; " if before else "")
            + f"out of sync from iteration {comparison.first_out_of_sync}: {reason}"
        )
    else:
        lines.append("in sync (same tree, same random stream) on every iteration")
    divergence = comparison.first_divergence
    if divergence is None:
        lines.append("first divergence: none")
    else:
        lines.append(
            f"first divergence: iteration {divergence.iteration}, depth {divergence.depth} "
            f"({divergence.kind}; deciding term: {divergence.deciding_term})"
        )
        lines.append(divergence.explanation)
    lines.append("iterations:")
    lines.extend(_runs(comparison.steps, max_rows))
    for side in ("a", "b"):
        summary = data[side]
        choices = ", ".join(f"{k} {v}" for k, v in summary["final_choices"].items())
        value = summary["root_value"]
        lines.append(
            f"{side.upper()} plays {summary['best_action']} (root value "
            f"{'?' if value is None else f'{value:+.3f}'}, root mover's view; {choices})"
        )
    lines.append("same final choice" if data["same_choice"] else "different final choices")
    return "\n".join(lines)


def _runs(steps: tuple[StepComparison, ...], max_rows: int) -> list[str]:
    """Runs of same-path iterations as one row, each differing iteration as its own row."""
    rows: list[str] = []
    index = 0
    while index < len(steps):
        if len(rows) >= max_rows:
            rows.append(f"  ... {len(steps) - index:,} more iterations (see --json)")
            break
        step = steps[index]
        if step.same_path:
            end = index
            while end + 1 < len(steps) and steps[end + 1].same_path:
                end += 1
            first, last = step.iteration, steps[end].iteration
            span = f"{first}" if first == last else f"{first}-{last}"
            rows.append(f"  {span:>11}  same path")
            index = end + 1
        else:
            rows.append(
                f"  {step.iteration:>11}  differ at depth {step.depth} ({step.kind}): "
                f"A {' '.join(step.path_a)} | B {' '.join(step.path_b)}"
            )
            index += 1
    return rows
