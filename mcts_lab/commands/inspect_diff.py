"""``mcts-lab inspect A --diff B``: compare two trace files (:mod:`mcts_lab.compare.trace_diff`)
instead of checking one; the options and the run, kept apart from ``inspect``'s own."""

from __future__ import annotations

import argparse
import json
import math

from mcts_lab import traces
from mcts_lab.commands.options import UsageError, emit, finite_number, quote, whole_number
from mcts_lab.compare.trace_diff import DEFAULT_TOLERANCE, MAX_LISTED, diff_traces
from mcts_lab.compare.trace_diff_report import format_diff, junit_xml

#: ``--max-differences`` at most.
MAX_LISTED_LIMIT = 1_000_000


def tolerance(text: str) -> float:
    """An argparse type: ``--tolerance``, a finite number >= 0."""
    value = finite_number(text)
    if value < 0 or not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{quote(text)} is not a number >= 0")
    return value


def add_options(p: argparse.ArgumentParser) -> None:
    """``--diff``, ``--tolerance``, ``--junit``, ``--max-differences`` on ``inspect``."""
    p.add_argument(
        "--diff",
        metavar="B",
        help="compare FILE (A) with another trace file B: the first iteration where their "
        "paths or statistics part, then the final trees node by node; exit 0 identical, 1 "
        "different (docs/cli.md)",
    )
    p.add_argument(
        "--tolerance",
        type=tolerance,
        default=None,
        metavar="X",
        help=f"with --diff: values closer than X are the same (default {DEFAULT_TOLERANCE:g}; "
        "visits are compared exactly)",
    )
    p.add_argument(
        "--junit",
        metavar="OUT",
        help="with --diff: also write the verdict as JUnit XML to OUT (one testcase per "
        "aspect: paths, statistics, final tree)",
    )
    p.add_argument(
        "--max-differences",
        type=whole_number(0, MAX_LISTED_LIMIT),
        default=None,
        metavar="N",
        help=f"with --diff: list at most N node differences (all are counted; default "
        f"{MAX_LISTED:,})",
    )


def wanted(args: argparse.Namespace) -> bool:
    """True when the command is a diff; refuses the diff's options without ``--diff``."""
    if args.diff is None:
        for flag in ("tolerance", "junit", "max_differences"):
            if getattr(args, flag) is not None:
                raise UsageError(f"--{flag.replace('_', '-')} needs --diff B")
        return False
    if args.exact:
        raise UsageError("--exact does not apply with --diff")
    if getattr(args, "watch", None):
        raise UsageError("--watch does not apply with --diff")
    return True


def run(args: argparse.Namespace, max_bytes: int) -> int:
    """Exit 0: the runs are identical within the tolerance; 1: they differ; 2: a file is
    unreadable, not of the format, or not a run of the same game and position (one line)."""
    a = traces.load(args.file, max_bytes=max_bytes)
    b = traces.load(args.diff, max_bytes=max_bytes)
    diff = diff_traces(
        a,
        b,
        tolerance=DEFAULT_TOLERANCE if args.tolerance is None else args.tolerance,
        names=(args.file, args.diff),
        max_listed=MAX_LISTED if args.max_differences is None else args.max_differences,
    )
    if args.junit:
        try:
            with open(args.junit, "w", encoding="utf-8") as out:
                out.write(junit_xml(diff))
        except OSError as error:
            raise UsageError(f"cannot write {quote(args.junit)}: {error.strerror}") from None
    emit(json.dumps(diff.to_dict(), allow_nan=False) if args.json else format_diff(diff))
    return 0 if diff.identical else 1
