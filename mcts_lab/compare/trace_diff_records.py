"""The records of a trace diff (frozen; ``to_dict()`` is JSON-ready): the first difference in
two files' iteration records, one node of the final trees that differs, and the whole
comparison. :mod:`mcts_lab.compare.trace_diff` explains the method and builds them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from mcts_lab.compare.records import DivergenceKind

__all__ = [
    "DifferenceKind",
    "FirstDifference",
    "NodeDifference",
    "NodeDifferenceKind",
    "TraceDiff",
]

#: What a first difference is about: the records' paths ("path"; its ``divergence`` says how
#: they part), their iteration numbers ("iteration") or counts ("records"), a recorded decision's
#: terms ("decision"), the leaf ("leaf") or a backup add ("backup").
DifferenceKind = Literal["path", "iteration", "records", "decision", "leaf", "backup"]
#: A node of both trees whose statistics differ ("changed"), or a node of one tree only.
NodeDifferenceKind = Literal["changed", "only_a", "only_b"]


@dataclass(frozen=True)
class FirstDifference:
    """The first iteration record where the two files part.

    Attributes:
        record: the records' place in both files (1 = the first record).
        iteration: A's record's ``iteration`` (B's is in ``b`` when it differs).
        kind: :data:`DifferenceKind`.
        divergence: for a "path" difference, how the paths part (:data:`DivergenceKind`), else
            ``None``.
        depth: the level of the node where they part (0 = the root), or ``None``.
        node: the action path of that node (a "decision" or "backup": the node whose numbers
            differ; a "path": the node whose choice differs), or ``None``.
        a, b: each file's side, JSON-ready: ``path`` (the record's action path), and by kind
            ``choice`` and ``rule`` and ``terms`` (the children's recorded terms at the
            parting node: ``action``, ``visits``, ``q``, ``bonus``, ``prior``, ``score``),
            ``field`` / ``child`` / ``value``, ``leaf`` / ``leaf_value`` / ``evaluation``,
            ``iteration``, ``records``.
        explanation: the same in a sentence or two, with the deciding numbers.
    """

    record: int
    iteration: int | None
    kind: DifferenceKind
    divergence: DivergenceKind | None
    depth: int | None
    node: tuple[str, ...] | None
    a: dict[str, Any]
    b: dict[str, Any]
    explanation: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "record": self.record,
            "iteration": self.iteration,
            "kind": self.kind,
            "divergence": self.divergence,
            "depth": self.depth,
            "node": None if self.node is None else list(self.node),
            "a": self.a,
            "b": self.b,
            "explanation": self.explanation,
        }


@dataclass(frozen=True)
class NodeDifference:
    """One node of the final trees that differs.

    Attributes:
        path: its action path from the root (``()``: the root).
        kind: :data:`NodeDifferenceKind`.
        fields: the statistics that differ ("visits", "mean", "proven"); empty for a node of
            one tree only.
        a, b: that node's ``visits``, ``mean`` and ``proven`` (edge view, [-1, 1]; ``None``
            where the file does not say) in each file; ``None`` where the file has no such node.
    """

    path: tuple[str, ...]
    kind: NodeDifferenceKind
    fields: tuple[str, ...]
    a: dict[str, Any] | None
    b: dict[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": list(self.path),
            "kind": self.kind,
            "fields": list(self.fields),
            "a": self.a,
            "b": self.b,
        }


@dataclass(frozen=True)
class TraceDiff:
    """The comparison of two trace files (:func:`diff_traces`); ``to_dict()`` is the
    ``inspect --diff --json`` object (docs/cli.md).

    Attributes:
        a, b: each file's summary (``file``, ``game``, ``position``, ``writer``, ``seed``,
            ``records``, ``nodes``).
        tolerance: the largest value difference that counts as the same.
        records_compared: record pairs walked (0 when either file has none).
        records_note: ``""``, or why the records were not compared (a tree-only document).
        first_difference: the earliest difference in the records, or ``None``.
        first_path_difference: the first record whose path (or iteration number, or the record
            count) differs, or ``None``; the same as ``first_difference`` unless statistics
            parted earlier.
        node_differences: the listed :class:`NodeDifference` (at most ``max_listed``).
        node_counts: how many nodes differ, by kind (all of them, listed or not).
        settings_differences: the headers' ``seed`` and ``settings`` entries that differ,
            ``{name: (a's, b's)}`` (context for a person; not a difference by itself).
    """

    a: dict[str, Any]
    b: dict[str, Any]
    tolerance: float
    records_compared: int
    records_note: str
    first_difference: FirstDifference | None
    first_path_difference: FirstDifference | None
    node_differences: tuple[NodeDifference, ...]
    node_counts: dict[str, int]
    settings_differences: dict[str, tuple[Any, Any]]

    @property
    def truncated(self) -> bool:
        """Some node differences were counted but not listed."""
        return sum(self.node_counts.values()) > len(self.node_differences)

    @property
    def identical(self) -> bool:
        """No difference beyond the tolerance in the records or the final trees."""
        return self.first_difference is None and not any(self.node_counts.values())

    @property
    def statistics_difference(self) -> FirstDifference | None:
        """The first statistics difference, found before any path difference, or ``None``."""
        first = self.first_difference
        return first if first is not None and first is not self.first_path_difference else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "a": self.a,
            "b": self.b,
            "identical": self.identical,
            "tolerance": self.tolerance,
            "records_compared": self.records_compared,
            "records_note": self.records_note,
            "first_difference": _dict(self.first_difference),
            "first_path_difference": _dict(self.first_path_difference),
            "node_differences": [d.to_dict() for d in self.node_differences],
            "node_difference_counts": dict(self.node_counts),
            "truncated": self.truncated,
            "settings_differences": {k: list(v) for k, v in self.settings_differences.items()},
        }


def _dict(item: FirstDifference | None) -> dict[str, Any] | None:
    return None if item is None else item.to_dict()
