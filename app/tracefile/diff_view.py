"""Compare the open file with another run: ``mcts-lab inspect A --diff B`` in the file view
(docs/app.md).

:func:`diff_panel` draws, below the open file (A), an expander with an uploader for a second
trace file B (key ``trace_diff_file``) and a tolerance (``trace_diff_tolerance``), and shows
:func:`mcts_lab.compare.trace_diff.diff_traces`'s verdict: the first difference with its numbers
(and the first path difference when statistics parted earlier) and the final trees' node
differences as a table. A file that cannot be read, or a run of another game or position, is
one sentence on the page. The result is kept in ``trace_diff_result`` for the same A, B and
tolerance, so a rerun does not compare again. Nothing from a file is rendered as Markdown or
HTML: sentences are escaped, the table is data.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping

import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

from app.components import ui
from app.words.i18n import N_, _, decimal, n_, number_text
from app.words.phrases import comma_list
from mcts_lab import traces
from mcts_lab.compare.trace_diff import DEFAULT_TOLERANCE, TraceDiff, diff_traces, node_text

__all__ = ["diff_panel", "listed", "node_rows", "shown_rows"]

#: The tolerances offered (``--tolerance``'s default first).
TOLERANCES = (DEFAULT_TOLERANCE, 1e-6, 1e-3, 1e-2)
_LOG = logging.getLogger(__name__)

#: The column headers of the file view's tables (the rows' keys stay English: data, and what
#: ``mcts-lab inspect`` writes), shown translated by :func:`shown_rows`.
COLUMNS = {
    # the node differences (:func:`node_rows`)
    "node": N_("node"),
    "differs": N_("differs"),
    "visits A": N_("visits A"),
    "mean A": N_("mean A"),
    "proven A": N_("proven A"),
    "visits B": N_("visits B"),
    "mean B": N_("mean B"),
    "proven B": N_("proven B"),
    # Why this path (``FileReplay.decision_rows``)
    "at node": N_("at node"),
    "move": N_("move"),
    "visits": N_("visits"),
    # TRANSLATORS: a table's column: the mean value Q (the letter may stay)
    "q": N_("q"),
    # TRANSLATORS: a table's column: the exploration bonus of the tree policy
    "bonus": N_("bonus"),
    "prior": N_("prior"),
    "score": N_("score"),
    # TRANSLATORS: a table's column: whether the selection chose this child ("yes" or empty)
    "chosen": N_("chosen"),
    # TRANSLATORS: a table's column: the rule that chose (a tree policy's name, kept as is)
    "rule": N_("rule"),
}
#: Cell values of those tables that are words (others are numbers, labels and codes).
CELLS = {
    "yes": N_("yes"),
    "not in this file": N_("not in this file"),
    "not proven": N_("not proven"),
}
#: The node differences' fields, as the "differs" column names them.
FIELDS = {"visits": N_("visits"), "mean": N_("mean"), "proven": N_("proven")}


def shown_rows(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    """Table rows as shown: the known column headers and word cells in the current language
    (English: the rows unchanged)."""
    return [
        {
            _(COLUMNS[key]) if key in COLUMNS else key: _(CELLS[value])
            if isinstance(value, str) and value in CELLS
            else value
            for key, value in row.items()
        }
        for row in rows
    ]


def listed(items: list[str]) -> str:
    """Items one after the other, the language's separator between them (", " in English)."""
    return comma_list(items)


def diff_panel(trace: traces.Trace, name: str) -> None:
    """The expander comparing ``trace`` (the open file, called ``name``) with an uploaded B."""
    with st.expander(_("Compare with another run (diff)"), expanded=False):
        st.file_uploader(
            _("Another trace file (B) of the same game and position"),
            type=["json", "jsonl"],
            key="trace_diff_file",
            help=_(
                "Where do the two runs first part, and how do their final trees differ? "
                "The same as mcts-lab inspect A --diff B (docs/cli.md)."
            ),
        )
        st.selectbox(
            _("Tolerance on values"),
            TOLERANCES,
            key="trace_diff_tolerance",
            format_func=lambda value: number_text(f"{value:g}"),
            help=_("Values closer than this are the same; visits are compared exactly."),
        )
        upload = st.session_state.get("trace_diff_file")
        if upload is None:
            st.caption(_("Open a second file to compare it with {name}.", name=name))
            return
        result = _result(trace, name, upload, float(st.session_state["trace_diff_tolerance"]))
        if not isinstance(result, TraceDiff):
            ui.notice_line("warning", result())
            return
        _show(result)


def _result(
    trace: traces.Trace, name: str, upload: UploadedFile, tolerance: float
) -> TraceDiff | Callable[[], str]:
    """The diff of ``trace`` and the upload (kept for the same three), or a sentence saying
    why there is none (a function that makes it in the language current when shown)."""
    key = (trace, getattr(upload, "file_id", None), tolerance)
    kept = st.session_state.get("trace_diff_result")
    if kept is not None and kept[0][0] is trace and kept[0][1:] == key[1:]:
        return kept[1]  # type: ignore[no-any-return]
    other = str(getattr(upload, "name", "file"))
    short = _short(other)
    result: TraceDiff | Callable[[], str]
    size = int(getattr(upload, "size", 0))
    try:
        if size > traces.MAX_FILE_BYTES:
            result = lambda: n_(  # noqa: E731
                "{file} was not compared: the file has {n} byte; at most {limit} are read",
                "{file} was not compared: the file has {n} bytes; at most {limit} are read",
                size,
                file=short,
                n=decimal(size),
                limit=decimal(traces.MAX_FILE_BYTES),
            )
        else:
            data = upload.getvalue()
            b = traces.loads(data, json_lines=True if other.endswith(".jsonl") else None)
            result = diff_traces(trace, b, tolerance=tolerance, names=(name, other))
    except ValueError as error:  # TraceError, DiffInputError: mcts_lab's words (English)
        why = " ".join(str(error).split())
        result = lambda: _("{file} was not compared: {error}", file=short, error=why)  # noqa: E731
    except Exception:  # a bug of ours: one line here, the traceback in the log
        _LOG.exception("comparing two trace files failed")
        result = lambda: _("{file} could not be compared (see the log).", file=short)  # noqa: E731
    st.session_state["trace_diff_result"] = (key, result)
    return result


def _short(text: str, chars: int = 60) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _show(diff: TraceDiff) -> None:
    tolerance = number_text(f"{diff.tolerance:g}")
    verdict = (
        _("Identical within {tolerance}.", tolerance=tolerance)
        if diff.identical
        else _("The runs differ beyond {tolerance}.", tolerance=tolerance)
    )
    ui.notice_line("info" if diff.identical else "warning", verdict)
    # the notes and explanations are mcts_lab's (trace_diff's English prose)
    if diff.records_note:
        ui.notice_line("info", _("{note}.", note=diff.records_note))
    elif diff.first_difference is None:
        ui.notice_line(
            "info",
            n_(
                "No difference in the {n} iteration record.",
                "No difference in the {n} iteration records.",
                diff.records_compared,
                n=decimal(diff.records_compared),
            ),
        )
    else:
        ui.notice_line(
            "warning",
            _("First difference: {explanation}.", explanation=diff.first_difference.explanation),
        )
        paths = diff.first_path_difference
        if paths is not None and paths is not diff.first_difference:
            ui.notice_line(
                "warning",
                _("First path difference: {explanation}.", explanation=paths.explanation),
            )
    counts = diff.node_counts
    total = sum(counts.values())
    if not total:
        nodes = int(diff.a["nodes"])
        st.caption(
            n_(
                "The final trees are the same ({n} node).",
                "The final trees are the same ({n} nodes).",
                nodes,
                n=decimal(nodes),
            )
        )
        return
    numbers = {
        "n": decimal(total),
        "changed": decimal(counts["changed"]),
        "only_a": decimal(counts["only_a"]),
        "only_b": decimal(counts["only_b"]),
    }
    if diff.truncated:
        caption = n_(
            "The final trees: {n} node differs ({changed} changed, {only_a} only in A, "
            "{only_b} only in B); mean and proven from the view of the player who moved into "
            "the node, in [-1, 1]; the first {listed} listed.",
            "The final trees: {n} nodes differ ({changed} changed, {only_a} only in A, "
            "{only_b} only in B); mean and proven from the view of the player who moved into "
            "the node, in [-1, 1]; the first {listed} listed.",
            total,
            listed=decimal(len(diff.node_differences)),
            **numbers,
        )
    else:
        caption = n_(
            "The final trees: {n} node differs ({changed} changed, {only_a} only in A, "
            "{only_b} only in B); mean and proven from the view of the player who moved into "
            "the node, in [-1, 1].",
            "The final trees: {n} nodes differ ({changed} changed, {only_a} only in A, "
            "{only_b} only in B); mean and proven from the view of the player who moved into "
            "the node, in [-1, 1].",
            total,
            **numbers,
        )
    st.caption(caption)
    st.dataframe(shown_rows(node_rows(diff)), hide_index=True)


def node_rows(diff: TraceDiff) -> list[dict[str, object]]:
    """The node differences as table rows (the node's action path, what differs, A's and B's
    visits, mean and proven as text: "not in this file" where a file has no such node, "not
    proven" for a node without a proof; never an empty cell the table would show as None)."""
    rows = []
    for item in diff.node_differences:
        if item.kind in ("only_a", "only_b"):
            what = _("only in A") if item.kind == "only_a" else _("only in B")
        else:
            what = listed([_(FIELDS[f]) if f in FIELDS else f for f in item.fields])
        row: dict[str, object] = {
            # TRANSLATORS: the root node in the node-differences table
            "node": node_text(item.path, _("(root)")),
            "differs": what,
        }
        for side, stats in (("A", item.a), ("B", item.b)):
            for field in ("visits", "mean", "proven"):
                row[f"{field} {side}"] = _cell(field, None if stats is None else stats)
        rows.append(row)
    return rows


def _cell(field: str, stats: Mapping[str, float | int | None] | None) -> str:
    """One side's visits, mean or proven value as the table shows it."""
    if stats is None:
        return _("not in this file")
    value = stats[field]
    if value is None:
        return _("not proven") if field == "proven" else "-"
    if field == "visits":
        return decimal(int(value))
    return number_text(f"{float(value):+.4f}")
