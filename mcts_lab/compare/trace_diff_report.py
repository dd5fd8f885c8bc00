"""A :class:`~mcts_lab.compare.trace_diff.TraceDiff` for people and for CI: the short text report of
``mcts-lab inspect A --diff B`` (:func:`format_diff`, first difference first) and its JUnit XML
(:func:`junit_xml`: one testsuite, one testcase per compared aspect, :data:`ASPECTS`).

Labels come from the files: in text they are printed plainly (a control character quoted, see
:func:`~mcts_lab.compare.trace_diff.node_text`); in XML they are escaped by ``xml.etree`` and any
character XML 1.0 cannot hold is replaced by ``?``.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

from mcts_lab.compare.records import show_value
from mcts_lab.compare.trace_diff import NodeDifference, TraceDiff, node_text

__all__ = ["ASPECTS", "Aspect", "aspects", "format_diff", "junit_xml"]

#: The compared aspects, one JUnit testcase each: the records' paths (with their iteration
#: numbers and counts), the records' statistics while the paths are the same, the final trees.
ASPECTS = ("paths", "statistics", "final tree")


@dataclass(frozen=True)
class Aspect:
    """One compared aspect's verdict.

    Attributes:
        name: one of :data:`ASPECTS`.
        failure: ``None`` when the two files agree on it, else the first difference in a line.
        skipped: ``None``, or why it was not compared (a file without iteration records).
        detail: more lines for a person (the listed node differences), possibly empty.
    """

    name: str
    failure: str | None
    skipped: str | None
    detail: str


def aspects(diff: TraceDiff, max_rows: int = 50) -> list[Aspect]:
    """The verdict per :data:`ASPECTS`, in that order."""
    skipped = diff.records_note or None
    paths = diff.first_path_difference
    stats = diff.statistics_difference
    compared = (
        f"{diff.records_compared:,} record pairs compared"
        + (" (up to where the paths parted)" if paths is not None else "")
        if not skipped
        else ""
    )
    total = sum(diff.node_counts.values())
    return [
        Aspect("paths", None if paths is None else paths.explanation, skipped, compared),
        Aspect("statistics", None if stats is None else stats.explanation, skipped, compared),
        Aspect(
            "final tree",
            _tree_line(diff) if total else None,
            None,
            "\n".join(_node_rows(diff, max_rows)),
        ),
    ]


def _tree_line(diff: TraceDiff) -> str:
    counts = diff.node_counts
    total = sum(counts.values())
    return (
        f"{total:,} node{'s' * (total != 1)} differ beyond {diff.tolerance:g} "
        f"({counts['changed']:,} changed, {counts['only_a']:,} only in A, "
        f"{counts['only_b']:,} only in B)"
    )


def format_diff(diff: TraceDiff, max_rows: int = 12) -> str:
    """The readable report: both files, the first difference (and the first path difference
    when statistics parted earlier), the final trees' differences (at most ``max_rows``) and
    the verdict."""
    lines = [_file_line("A", diff.a), _file_line("B", diff.b)]
    lines.extend(settings_lines(diff.settings_differences))
    if diff.records_note:
        lines.append(diff.records_note)
    else:
        first, paths = diff.first_difference, diff.first_path_difference
        lines.append(
            f"first difference: none in the {diff.records_compared:,} iteration records"
            if first is None
            else f"first difference: {first.explanation}"
        )
        if paths is not None and paths is not first:
            lines.append(f"first path difference: {paths.explanation}")
        elif first is not None and paths is None:
            lines.append(f"the paths are the same in all {diff.records_compared:,} records")
    if any(diff.node_counts.values()):
        lines.append(
            f"final trees: {_tree_line(diff)}; mean and proven from the view of the player who "
            "moved into the node, in [-1, 1]:"
        )
        lines.extend(_node_rows(diff, max_rows))
    else:
        lines.append(f"final trees: the same, {diff.a['nodes']:,} nodes")
    lines.append(
        f"identical within {diff.tolerance:g}"
        if diff.identical
        else f"the runs differ beyond {diff.tolerance:g}"
    )
    return "\n".join(lines)


def settings_lines(differences: dict[str, tuple[Any, Any]]) -> list[str]:
    """The settings both files record with different values (``name A / B``), then in one line
    those only one file records (a missing setting is not recorded, not different)."""
    both = {k: v for k, v in differences.items() if None not in v}
    lines = []
    if both:
        lines.append(
            "settings that differ: "
            + ", ".join(f"{k} {show_value(a)} / {show_value(b)}" for k, (a, b) in both.items())
        )
    for side, other, at in (("A", "B", 0), ("B", "A", 1)):
        only = [k for k, v in differences.items() if v[at] is not None and v[1 - at] is None]
        if only:
            lines.append(
                f"recorded by {side} only (not recorded in {other}): "
                + ", ".join(only[:8])
                + (f" and {len(only) - 8} more" if len(only) > 8 else "")
            )
    return lines


def _file_line(name: str, summary: dict[str, Any]) -> str:
    writer = summary.get("writer") or {}
    by = writer.get("name") or "an unnamed writer"
    if writer.get("version"):
        by += f" {writer['version']}"
    position = summary.get("position")
    seed = "seed not recorded" if summary.get("seed") is None else f"seed {summary['seed']}"
    return (
        f"{name}: {summary['file']}: {summary.get('game') or '(game not named)'} at "
        f"{'the start' if position is None else repr(position)}, {seed}, "
        f"{summary['records']:,} iteration records, "
        f"{summary['nodes']:,} nodes (by {by})"
    )


def _node_rows(diff: TraceDiff, max_rows: int) -> list[str]:
    rows = [f"  {node_text(d.path, '(root)')}: {_node_words(d)}" for d in diff.node_differences]
    total = sum(diff.node_counts.values())
    if len(rows) > max_rows or total > len(rows):
        rows = rows[:max_rows]
        rows.append(f"  ... {total - len(rows):,} more (see --json)")
    return rows


def _node_words(d: NodeDifference) -> str:
    if d.a is None or d.b is None:
        side, stats = ("B", d.b) if d.a is None else ("A", d.a)
        assert stats is not None
        n = stats["visits"]
        return f"only in {side} ({n:,} visit{'s' * (n != 1)}, mean {_value(stats['mean'])})"
    parts = []
    for name in d.fields:
        x, y = d.a[name], d.b[name]
        parts.append(
            f"visits {x:,} / {y:,}" if name == "visits" else f"{name} {_value(x)} / {_value(y)}"
        )
    return ", ".join(parts)


def _value(value: float | None) -> str:
    if value is None:
        return "-"
    if value != 0 and not 1e-4 <= abs(value) < 1e6:
        return f"{value:+.3e}"
    return f"{value:+.4f}"


# ------------------------------------------------------------------ JUnit XML

# characters XML 1.0 cannot hold, even escaped
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml(text: str) -> str:
    return _NOT_XML.sub("?", text)


def junit_xml(diff: TraceDiff) -> str:
    """The JUnit XML document: ``<testsuites>`` holding one ``<testsuite name="mcts-lab
    inspect --diff">`` with one ``<testcase>`` per :data:`ASPECTS`; a differing aspect has a
    ``<failure message="...">`` (its first difference; the listed node differences as the
    text), one not compared a ``<skipped message="...">``."""
    verdicts = aspects(diff)
    failures = sum(a.failure is not None for a in verdicts)
    skipped = sum(a.skipped is not None for a in verdicts)
    root = ET.Element("testsuites")
    suite = ET.SubElement(
        root,
        "testsuite",
        {
            "name": "mcts-lab inspect --diff",
            "tests": str(len(verdicts)),
            "failures": str(failures),
            "errors": "0",
            "skipped": str(skipped),
        },
    )
    properties = ET.SubElement(suite, "properties")
    for name, value in (
        ("a", diff.a["file"]),
        ("b", diff.b["file"]),
        ("tolerance", f"{diff.tolerance:g}"),
        ("records_compared", str(diff.records_compared)),
    ):
        ET.SubElement(properties, "property", {"name": name, "value": _xml(str(value))})
    for verdict in verdicts:
        case = ET.SubElement(
            suite, "testcase", {"classname": "mcts-lab.diff", "name": verdict.name}
        )
        if verdict.skipped is not None:
            ET.SubElement(case, "skipped", {"message": _xml(verdict.skipped)})
        elif verdict.failure is not None:
            failure = ET.SubElement(
                case, "failure", {"message": _xml(verdict.failure), "type": "difference"}
            )
            failure.text = _xml(verdict.detail or verdict.failure)
        elif verdict.detail:
            ET.SubElement(case, "system-out").text = _xml(verdict.detail)
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"
