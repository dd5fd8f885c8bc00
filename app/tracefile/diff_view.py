"""Compare the open file with another run: ``mcts-lab inspect A --diff B`` in the file view
(docs/app.md).

:func:`diff_panel` draws, below the open file (A), an expander with an uploader for a second
trace file B (key ``trace_diff_file``) and a tolerance (``trace_diff_tolerance``), and shows
:func:`mcts_lab.trace_diff.diff_traces`'s verdict: the first difference with its numbers (and
the first path difference when statistics parted earlier) and the final trees' node
differences as a table. A file that cannot be read, or a run of another game or position, is
one sentence on the page. The result is kept in ``trace_diff_result`` for the same A, B and
tolerance, so a rerun does not compare again. Nothing from a file is rendered as Markdown or
HTML: sentences are escaped, the table is data.
"""

from __future__ import annotations

import logging
from typing import Any

import streamlit as st

from app.components import ui
from mcts_lab import traces
from mcts_lab.trace_diff import DEFAULT_TOLERANCE, TraceDiff, diff_traces, node_text

__all__ = ["diff_panel", "node_rows"]

#: The tolerances offered (``--tolerance``'s default first).
TOLERANCES = (DEFAULT_TOLERANCE, 1e-6, 1e-3, 1e-2)
_LOG = logging.getLogger(__name__)


def diff_panel(trace: traces.Trace, name: str) -> None:
    """The expander comparing ``trace`` (the open file, called ``name``) with an uploaded B."""
    with st.expander("Compare with another run (diff)", expanded=False):
        st.file_uploader(
            "Another trace file (B) of the same game and position",
            type=["json", "jsonl"],
            key="trace_diff_file",
            help="Where do the two runs first part, and how do their final trees differ? "
            "The same as mcts-lab inspect A --diff B (docs/cli.md).",
        )
        st.selectbox(
            "Tolerance on values",
            TOLERANCES,
            key="trace_diff_tolerance",
            format_func=lambda value: f"{value:g}",
            help="Values closer than this are the same; visits are compared exactly.",
        )
        upload = st.session_state.get("trace_diff_file")
        if upload is None:
            st.caption(f"Open a second file to compare it with {name}.")
            return
        result = _result(trace, name, upload, float(st.session_state["trace_diff_tolerance"]))
        if isinstance(result, str):
            ui.notice_line("warning", result)
            return
        _show(result)


def _result(trace: traces.Trace, name: str, upload: Any, tolerance: float) -> TraceDiff | str:
    """The diff of ``trace`` and the upload (kept for the same three), or a sentence saying
    why there is none."""
    key = (trace, getattr(upload, "file_id", None), tolerance)
    kept = st.session_state.get("trace_diff_result")
    if kept is not None and kept[0][0] is trace and kept[0][1:] == key[1:]:
        return kept[1]  # type: ignore[no-any-return]
    other = str(getattr(upload, "name", "file"))
    try:
        if int(getattr(upload, "size", 0)) > traces.MAX_FILE_BYTES:
            raise traces.TraceError(
                f"the file has {upload.size:,} bytes; at most {traces.MAX_FILE_BYTES:,} are read"
            )
        data = upload.getvalue()
        b = traces.loads(data, json_lines=True if other.endswith(".jsonl") else None)
        result: TraceDiff | str = diff_traces(trace, b, tolerance=tolerance, names=(name, other))
    except ValueError as error:  # TraceError, DiffInputError: the file's, said in one line
        result = f"{_short(other)} was not compared: {' '.join(str(error).split())}"
    except Exception:  # a bug of ours: one line here, the traceback in the log
        _LOG.exception("comparing two trace files failed")
        result = f"{_short(other)} could not be compared (see the log)."
    st.session_state["trace_diff_result"] = (key, result)
    return result


def _short(text: str, chars: int = 60) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


def _show(diff: TraceDiff) -> None:
    verdict = (
        f"Identical within {diff.tolerance:g}."
        if diff.identical
        else f"The runs differ beyond {diff.tolerance:g}."
    )
    ui.notice_line("info" if diff.identical else "warning", verdict)
    if diff.records_note:
        ui.notice_line("info", diff.records_note + ".")
    elif diff.first_difference is None:
        ui.notice_line("info", f"No difference in the {diff.records_compared:,} iteration records.")
    else:
        ui.notice_line("warning", f"First difference: {diff.first_difference.explanation}.")
        paths = diff.first_path_difference
        if paths is not None and paths is not diff.first_difference:
            ui.notice_line("warning", f"First path difference: {paths.explanation}.")
    counts = diff.node_counts
    total = sum(counts.values())
    if not total:
        st.caption(f"The final trees are the same ({diff.a['nodes']:,} nodes).")
        return
    st.caption(
        f"The final trees: {total:,} nodes differ ({counts['changed']:,} changed, "
        f"{counts['only_a']:,} only in A, {counts['only_b']:,} only in B); mean and proven from "
        "the view of the player who moved into the node, in [-1, 1]"
        + (f"; the first {len(diff.node_differences):,} listed." if diff.truncated else ".")
    )
    st.dataframe(node_rows(diff), hide_index=True)


def node_rows(diff: TraceDiff) -> list[dict[str, Any]]:
    """The node differences as table rows (the node's action path, what differs, A's and B's
    visits, mean and proven; ``None`` where a file has no such node)."""
    rows = []
    for item in diff.node_differences:
        what = {"only_a": "only in A", "only_b": "only in B"}.get(item.kind)
        row: dict[str, Any] = {
            "node": node_text(item.path, "(root)"),
            "differs": what or ", ".join(item.fields),
        }
        for side, stats in (("A", item.a), ("B", item.b)):
            for field in ("visits", "mean", "proven"):
                row[f"{field} {side}"] = None if stats is None else stats[field]
        rows.append(row)
    return rows
