"""Two searches stepped in lockstep, one iteration each per step, checked for sync and for the
first divergence of their paths (the method is in :mod:`mcts_lab.compare.searches`'s docstring)."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, fields

from mcts_core import (
    ChanceStep,
    ChildTerms,
    Decision,
    IterationTrace,
    Search,
    SearchConfig,
)
from mcts_core.game import State
from mcts_lab.common import AnyGame, signed_value
from mcts_lab.compare.records import (
    SYNC_TEXT,
    Divergence,
    DivergenceKind,
    LockstepStep,
    StepComparison,
    SyncLoss,
    show_value,
)

_SAME = 1e-9  # two floats closer than this are "the same" (only rounding separates them)


def config_differences(a: SearchConfig, b: SearchConfig) -> dict[str, tuple[object, object]]:
    """The config fields whose values differ, in field order: ``{name: (a's, b's)}``."""
    return {
        f.name: (getattr(a, f.name), getattr(b, f.name))
        for f in fields(SearchConfig)
        if getattr(a, f.name) != getattr(b, f.name)
    }


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


class Lockstep:
    """Two searches on one position and seed, stepped together one iteration at a time.

    Args:
        game: the rules.
        state: the position both search (not a finished one).
        config_a, config_b: the two settings.
        seed: the seed of both searches' random generators.
    """

    def __init__(
        self,
        game: AnyGame,
        state: State,
        config_a: SearchConfig,
        config_b: SearchConfig,
        seed: int = 0,
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
        text = ", ".join(
            f"{name} {show_value(pair[index])}" for name, pair in self.differences.items()
        )
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
                f"({SYNC_TEXT[self.out_of_sync_reason or 'path']}), so their trees already "
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
