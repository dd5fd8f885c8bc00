"""The anomaly checks of ``mcts-lab inspect`` in one registry, in the order they run.

One record a check (:class:`AnomalyCheck`): its name, the anomaly kinds it reports, the function
(each takes a file's :class:`~mcts_lab.inspect.anomalies.FileFacts` and an
:class:`~mcts_lab.inspect.anomalies.AnomalyLog`), what the file must hold for it to run
(:class:`Need`), its one-line doc, and whether it is ``local`` (what the live ``anomaly``
breakpoint, :mod:`mcts_lab.inspect.incremental`, relies on). :func:`run_checks` runs
:data:`ANOMALY_CHECKS` in order.

A new check is a function (in ``mcts_lab/inspect/anomalies.py``; a statistical test in
``mcts_lab/inspect/statistics_checks.py``), one record here, and its kinds' rows in
docs/trace_format.md's table "What inspect checks" (a test holds the table to this list).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from mcts_lab.inspect.anomalies import (
    MAX_LISTED,
    AnomalyLog,
    FileFacts,
    check_nodes,
    check_proofs,
    check_records,
    check_rules,
    check_terminals,
)
from mcts_lab.inspect.exact_check import check_exact
from mcts_lab.inspect.invariant_checks import (
    check_finished_values,
    check_running_means,
    check_structure,
    check_terms,
    check_unvisited,
)
from mcts_lab.inspect.selection_checks import (
    check_decision_rules,
    check_proven_starved,
    check_sign,
    check_uct_bound,
    states_uct,
)
from mcts_lab.inspect.statistics_checks import check_chance, check_starved
from mcts_lab.traces.format import Trace

__all__ = ["ANOMALY_CHECKS", "AnomalyCheck", "Need", "run_checks"]


class Need(StrEnum):
    """What a file must hold for a check to run (a check without needs runs on every file)."""

    MEAN_BACKUP = "mean_backup"  # values.backup is "mean": a node's value is a mean of leaves
    RECORDS = "records"  # the file has iteration records
    GAME = "game"  # the file names a game, whose rules then judge its moves
    UCT = "uct"  # the file states UCT selection (anomaly_selection.states_uct)

    def met(self, trace: Trace) -> bool:
        """Whether ``trace`` holds what this need asks for."""
        if self is Need.MEAN_BACKUP:
            return bool(trace.header.get("values", {}).get("backup", "mean") == "mean")
        if self is Need.RECORDS:
            return bool(trace.records)
        if self is Need.UCT:
            return states_uct(trace)
        return isinstance(trace.header.get("game"), str)


@dataclass(frozen=True)
class AnomalyCheck:
    """One anomaly check: ``name``; the anomaly ``kinds`` it reports (as in ``inspect``'s
    output); ``run``, the function; ``needs``, what the file must hold for it to run; ``doc``,
    one line on what it finds; ``local``, whether it judges each node by that node and its
    children only (``sign`` and ``uct_bound`` too: a player's broken nodes are each judged so,
    and a clean tree had none), so that re-checking only the nodes an iteration changed, with
    their children, finds every anomaly new since the tree was clean. A check that is not
    local (the iteration records against the tree) is never run on a part of a tree."""

    name: str
    kinds: tuple[str, ...]
    run: Callable[[FileFacts, AnomalyLog], None]
    needs: frozenset[Need]
    doc: str
    local: bool = True

    def applies_to(self, trace: Trace) -> bool:
        """Whether the check runs on ``trace`` (every need met)."""
        return all(need.met(trace) for need in self.needs)


#: Every check, in the order ``inspect`` runs them (and so lists their anomalies).
ANOMALY_CHECKS: tuple[AnomalyCheck, ...] = (
    AnomalyCheck(
        "structure",
        ("backup", "duplicate_move", "illegal_move", "stall"),
        check_structure,
        frozenset(),
        "partial backups, moves expanded twice, moves below a finished game, a stalled root",
    ),
    AnomalyCheck(
        "rules",
        ("illegal_move",),
        check_rules,
        frozenset({Need.GAME}),
        "every move and outcome legal and every player right, by the named game's rules",
    ),
    AnomalyCheck(
        "unvisited",
        ("unvisited",),
        check_unvisited,
        frozenset({Need.UCT}),
        "a visited move chosen beside an unvisited one (UCT's bonus is infinite at 0 visits)",
    ),
    AnomalyCheck(
        "running_means",
        ("running_mean",),
        check_running_means,
        frozenset({Need.RECORDS, Need.MEAN_BACKUP}),
        "each node's mean against the mean of the leaf values its records backed up",
        local=False,
    ),
    AnomalyCheck(
        "terms",
        ("term",),
        check_terms,
        frozenset({Need.RECORDS}),
        "recorded Q and bonus against the running statistics and the UCT or PUCT formula",
        local=False,
    ),
    AnomalyCheck(
        "finished_values",
        ("terminal",),
        check_finished_values,
        frozenset({Need.MEAN_BACKUP}),
        "finished games valued by a rollout or against the named game's result",
    ),
    AnomalyCheck(
        "nodes",
        ("visit_count", "value_range", "prior", "mean", "wrong_view", "value_sum"),
        check_nodes,
        frozenset(),
        "each node's visits, means, priors and value sums against its children's",
    ),
    AnomalyCheck(
        "proofs",
        ("proven",),
        check_proofs,
        frozenset(),
        "proven values their children contradict",
    ),
    AnomalyCheck(
        "starved",
        ("starved",),
        check_starved,
        frozenset({Need.MEAN_BACKUP}),
        "a move left short of visits though its mean is surely better (Hoeffding)",
    ),
    AnomalyCheck(
        "uct_bound",
        ("uct_starved",),
        check_uct_bound,
        frozenset({Need.MEAN_BACKUP, Need.UCT}),
        "a move left behind a sibling by more than UCT with the file's C allows (exact bound)",
    ),
    AnomalyCheck(
        "sign",
        ("sign",),
        check_sign,
        frozenset({Need.MEAN_BACKUP, Need.UCT}),
        "a player's moves chosen by the other player's values (no sign flip between players)",
    ),
    AnomalyCheck(
        "proven_starved",
        ("proven_starved",),
        check_proven_starved,
        frozenset({Need.MEAN_BACKUP, Need.UCT}),
        "a winning finished game left with fewer visits than a sibling (UCT, any C)",
    ),
    AnomalyCheck(
        "chance",
        ("chance_counts",),
        check_chance,
        frozenset(),
        "chance outcomes drawn against their probabilities (chi-square)",
    ),
    AnomalyCheck(
        "terminals",
        ("terminal",),
        check_terminals,
        frozenset({Need.MEAN_BACKUP}),
        "finished games whose visits did not all give the same value",
    ),
    AnomalyCheck(
        "records",
        ("iteration", "wrong_view"),
        check_records,
        frozenset({Need.RECORDS}),
        "the iteration records against the tree they built",
        local=False,
    ),
    AnomalyCheck(
        "decisions",
        ("decision",),
        check_decision_rules,
        frozenset({Need.RECORDS}),
        "recorded decisions that did not choose the highest score, recorded or recomputed",
        local=False,
    ),
    AnomalyCheck(
        "exact",
        ("exact_value",),
        check_exact,
        frozenset({Need.MEAN_BACKUP, Need.GAME}),
        "(--exact) a root value far from the game's exact value: a likely sign or view bug",
    ),
)


def run_checks(facts: FileFacts, limit: int = MAX_LISTED, *, local: bool = False) -> AnomalyLog:
    """Every check that applies to the file, in order (``local``: only the local ones, for a
    part of a tree); the anomalies they found (the first ``limit`` listed, all counted)."""
    log = AnomalyLog(limit)
    for check in ANOMALY_CHECKS:
        if check.applies_to(facts.trace) and (check.local or not local):
            check.run(facts, log)
    return log
