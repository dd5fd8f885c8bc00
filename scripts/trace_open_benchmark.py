"""Time and peak memory of opening a big trace file in the app (issue 32: files up to 100 MB).

    python scripts/trace_open_benchmark.py [--game connect_four] [--iterations 5400 18000]
        [--seed 1] [--app]

For each iteration count: ``mcts-lab search --game G --iterations N --seed S --trace F.jsonl``
writes the trace (every iteration recorded, the lab's full records), then a fresh Python
process opens it exactly as the app's upload does (``app.tracefile.trace_view.read_file`` on
the file's bytes in memory, as Streamlit holds an upload: read as parsed with the progress
callback, ``inspect``, the replay) and prints the seconds of each stage and the process's peak
resident memory (``ru_maxrss``), with the resident memory before the file was read (Python,
the imports and the upload's bytes). ``--app`` also opens it in the whole app (Streamlit's
AppTest: the upload and its script run) and times that.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def measure(path: str, app: bool) -> dict[str, float]:
    """Open ``path`` as the app does, in this process; the numbers as a dict."""
    from app.tracefile.trace_view import read_file

    with open(path, "rb") as handle:
        upload = io.BytesIO(handle.read())  # an upload is held in memory (UploadedFile)
    before = _rss_mb()
    stages: dict[str, float] = {}
    marks: list[tuple[float, str]] = []

    def progress(fraction: float, words: str) -> None:
        marks.append((time.perf_counter(), words.split(":")[0].split(" ")[0]))

    start = time.perf_counter()
    replay, report = read_file(upload, os.path.basename(path), progress)
    total = time.perf_counter() - start
    for (at, stage), (until, _) in zip(marks, [*marks[1:], (start + total, "")], strict=True):
        stages[stage] = stages.get(stage, 0.0) + until - at
    result = {
        "bytes": os.path.getsize(path),
        "nodes": len(replay.trace.nodes),
        "records": len(replay.trace.records),
        "anomalies": sum(report["anomaly_counts"].values()),
        "seconds": total,
        "read_s": stages.get("Reading", 0.0),
        "inspect_s": stages.get("Checking", 0.0),
        "replay_s": stages.get("Building", 0.0),
        "rss_before_mb": before,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    if app:
        del replay, report
        result["app_open_s"] = _in_the_app(path)
    return result


def _in_the_app(path: str) -> float:
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from trace_timing import open_in_app

    at, seconds = open_in_app(path, timeout=900)
    assert at.session_state["trace_replay"] is not None, at.session_state["trace_error"]
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="connect_four")
    parser.add_argument("--iterations", type=int, nargs="+", default=[5400, 18000])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--app", action="store_true", help="also open it in the whole app")
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # (the fresh process's part)
    args = parser.parse_args()
    if args.measure:
        print(json.dumps(measure(args.measure, args.app)))
        return
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    print("| file | nodes | records | open (read + inspect + replay) | peak RSS (before) |"
          + (" whole app (AppTest) |" if args.app else ""))  # fmt: skip
    print("|---|---|---|---|---|" + ("---|" if args.app else ""))
    with tempfile.TemporaryDirectory() as folder:
        for n in args.iterations:
            path = os.path.join(folder, f"{args.game}-{n}.jsonl")
            subprocess.run(
                [sys.executable, "-m", "mcts_lab.cli", "search", "--game", args.game,
                 "--iterations", str(n), "--seed", str(args.seed), "--trace", path],
                check=True, env=env, stdout=subprocess.DEVNULL,
            )  # fmt: skip
            command = [sys.executable, os.path.abspath(__file__), "--measure", path]
            out = subprocess.run(command + (["--app"] if args.app else []), check=True, env=env,
                                 capture_output=True, text=True).stdout  # fmt: skip
            r = json.loads(out.strip().splitlines()[-1])
            row = (
                f"| {r['bytes'] / 1e6:.1f} MB ({args.game}, {n:,} iterations) | "
                f"{r['nodes']:,} | {r['records']:,} | {r['seconds']:.1f} s ({r['read_s']:.1f} + "
                f"{r['inspect_s']:.1f} + {r['replay_s']:.1f}) | {r['peak_rss_mb']:,.0f} MB "
                f"({r['rss_before_mb']:,.0f} MB) |"
            )
            if args.app:
                row += f" {r['app_open_s']:.1f} s |"
            print(row, flush=True)


if __name__ == "__main__":
    main()
