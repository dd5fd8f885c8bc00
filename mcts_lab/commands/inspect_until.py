"""``mcts-lab inspect FILE --until CONDITION``: where a breakpoint condition first holds over
a file's recorded iterations (:func:`mcts_lab.breakpoints.on_files.run_until`, the app's Run
until on a file), instead of the report; the option and the run, kept apart from ``inspect``'s
own."""

from __future__ import annotations

import argparse
import json
from typing import Any

from mcts_lab.breakpoints.conditions import BreakpointError
from mcts_lab.breakpoints.on_files import run_until
from mcts_lab.commands.options import UsageError, emit, quote
from mcts_lab.inspect import inspection
from mcts_lab.traces.format import Trace
from mcts_lab.traces.replay import FileReplay


def add_options(p: Any) -> None:
    """``--until`` on ``inspect``."""
    p.add_argument(
        "--until",
        metavar="CONDITION",
        help="the first iteration record after which CONDITION (a breakpoint: search "
        "--until's registry, e.g. 'visits:b2>=50', anomaly) holds, with the condition's "
        "words, instead of the report; exit 0 it held, 1 it never held (docs/cli.md)",
    )


def run(args: argparse.Namespace, trace: Trace, limit: int) -> int:
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
    data: dict[str, Any] = {"until": text, "stopped_at": None}
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
