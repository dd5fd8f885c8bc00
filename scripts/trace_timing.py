"""Time ``mcts-lab inspect`` on a 100,000-node tree, and the loader on the same file.

    python scripts/trace_timing.py [--nodes 100000] [--game connect_four] [--records]

Builds the tree with the lab's own search (``--records``: every iteration recorded too, the
trace the app steps through), writes it to a temporary file and prints the file's size and the
median seconds of loading it and of inspecting it (3 runs each).
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from mcts_core import Search
from mcts_lab import traces
from mcts_lab.common import build_config, build_game
from mcts_lab.inspection import inspect_trace
from mcts_lab.traces.lab import run_recorded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--game", default="connect_four")
    parser.add_argument("--records", action="store_true")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    game = build_game(args.game)
    search = Search(game, game.initial_state(), build_config({}), seed=0)
    steps = []
    if args.records:
        _, steps = run_recorded(search, args.nodes - 1)
    else:
        search.run(iterations=args.nodes - 1)
    doc = traces.from_search(search, steps)
    path = os.path.join(tempfile.mkdtemp(), "tree.jsonl" if args.records else "tree.json")
    traces.write(doc, path)
    size = os.path.getsize(path)
    load_times, inspect_times = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        trace = traces.load(path, max_bytes=1 << 30)
        load_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        report = inspect_trace(trace)
        inspect_times.append(time.perf_counter() - start)
    print(
        f"{args.game}: {len(trace.nodes):,} nodes, {len(trace.records):,} records, "
        f"{size / 1e6:.1f} MB; load {statistics.median(load_times):.2f} s, inspect "
        f"{statistics.median(inspect_times):.2f} s (median of {args.repeat}); anomalies: "
        f"{report['anomaly_counts'] or 'none'}"
    )


if __name__ == "__main__":
    main()
