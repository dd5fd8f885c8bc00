"""``mcts-lab inspect``: summarise an mcts-trace file and list its anomalies
(``mcts_lab.inspect.inspection`` reads it)."""

from __future__ import annotations

import argparse
import json

from mcts_lab import traces
from mcts_lab.breakpoints import watch
from mcts_lab.breakpoints.conditions import BreakpointError
from mcts_lab.breakpoints.on_files import run_until
from mcts_lab.commands import inspect_diff
from mcts_lab.commands.options import UsageError, emit, quote, seconds_budget, whole_number
from mcts_lab.inspect import inspection
from mcts_lab.inspect.anomalies import MAX_LISTED
from mcts_lab.traces.format import Trace
from mcts_lab.traces.replay import FileReplay

#: ``--max-anomalies`` at most (a list longer than this is no longer read by anyone).
MAX_LISTED_LIMIT = 1_000_000

#: The largest trace file ``inspect`` reads (bytes); the app's uploads stop at 20 MB.
INSPECT_MAX_BYTES = 100 * 1024 * 1024


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "inspect",
        help="summarise an mcts-trace file (any MCTS's tree or trace) and list its anomalies",
        allow_abbrev=False,
    )
    p.add_argument("file", metavar="FILE", help="an mcts-trace file (.json or .jsonl)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--exact",
        action="store_true",
        help="with a registered game named in the file: the root moves' exact values beside "
        "the file's",
    )
    p.add_argument("--exact-seconds", type=seconds_budget, default=2.0, help="(default 2)")
    p.add_argument(
        "--max-anomalies",
        type=whole_number(0, MAX_LISTED_LIMIT),
        default=MAX_LISTED,
        metavar="N",
        help=f'list at most N anomalies (all are counted; "truncated" says some were left '
        f"out; default {MAX_LISTED:,})",
    )
    p.add_argument(
        "--watch",
        action="append",
        metavar="EXPR",
        help="an expression over the root's statistics (N(a1), Q(b2), U(c3), N(a1)/N(root)), "
        "evaluated after every iteration record: CSV instead of the report (with --json: the "
        f'field "watch"); repeatable, at most {watch.MAX_WATCHES} (docs/cli.md)',
    )
    inspect_diff.add_options(p)  # --diff B, --tolerance, --junit (a diff of two files)
    _add_until(p)  # --until CONDITION (where a breakpoint holds in the file)


def run(args: argparse.Namespace) -> int:
    """Exit 0: no anomalies; 1: anomalies found; 2: unreadable or not of the format (with
    ``--until``: 0 the condition held, 1 it did not; with ``--diff``: 0 identical). The
    status does not depend on who reads the output: a reader that leaves early (``| head``)
    changes nothing."""
    if inspect_diff.wanted(args):
        return inspect_diff.run(args, INSPECT_MAX_BYTES)
    trace = traces.load(args.file, max_bytes=INSPECT_MAX_BYTES)
    if args.until is not None:
        return _run_until(args, trace, MAX_LISTED_LIMIT)
    # the watches first: a bad expression is exit 2 before any check runs
    watched = watch.watch_table(trace, args.watch) if args.watch else None
    data = inspection.inspect_trace(
        trace,
        exact=args.exact,
        exact_seconds=args.exact_seconds,
        max_anomalies=args.max_anomalies,
    )
    status = 1 if data["anomaly_counts"] else 0
    if watched is not None:
        if not args.json:
            emit(watched.csv())  # the exit status stays the checks' own
            return status
        data["watch"] = watched.json()
    # allow_nan=False: valid JSON always (the reader refuses non-finite numbers on the way in)
    emit(json.dumps(data, allow_nan=False) if args.json else inspection.format_report(data))
    return status


def _add_until(p: argparse.ArgumentParser) -> None:
    """``--until CONDITION`` on ``inspect``: where a breakpoint condition first holds over a
    file's recorded iterations (:func:`mcts_lab.breakpoints.on_files.run_until`, the app's Run
    until on a file), instead of the report."""
    p.add_argument(
        "--until",
        metavar="CONDITION",
        help="the first iteration record after which CONDITION (a breakpoint: search "
        "--until's registry, e.g. 'visits:b2>=50', anomaly) holds, with the condition's "
        "words, instead of the report; exit 0 it held, 1 it never held (docs/cli.md)",
    )


def _run_until(args: argparse.Namespace, trace: Trace, limit: int) -> int:
    """Exit 0: the condition held (``stopped_at`` its iteration); 1: it held nowhere in the
    file; 2 (``UsageError``): a condition this file cannot answer, or records that cannot be
    stepped. ``limit``: the most anomalies read for the ``anomaly`` condition."""
    text = str(args.until)
    replay = FileReplay(trace)
    # the whole list: the anomaly condition takes the earliest iteration any finding names
    report = inspection.inspect_trace(trace, max_anomalies=limit)
    try:
        stop = run_until(replay, text, replay.end, report["anomalies"])
    except BreakpointError as error:
        raise UsageError(f"--until {quote(text)}: {error}") from None
    data: dict[str, object] = {"until": text, "stopped_at": None}
    if stop.reason is None:
        data["stop_reason"] = (
            f"{text} held after none of the file's {replay.end:,} iteration records"
        )
    else:
        record = replay.record()
        data["stopped_at"] = 0 if record is None else int(record["iteration"])
        data["stop_reason"] = f"{text}: {stop.reason}"
    if args.json:
        emit(json.dumps(data, allow_nan=False))
    elif data["stopped_at"] is None:
        emit(f"not held: {data['stop_reason']}")
    elif stop.already:
        emit(f"holds before the first iteration: {data['stop_reason']}")
    else:
        emit(f"iteration {data['stopped_at']:,}: {data['stop_reason']}")
    return 1 if data["stopped_at"] is None else 0
