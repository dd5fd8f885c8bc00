"""Time the trace tools on a 100,000-node tree: loading, ``inspect``, and the app's Step.

    python scripts/trace_timing.py [--nodes 100000] [--game connect_four] [--repeat 3]

1. A tree alone: the lab's search grows ``--nodes`` nodes, the tree is written in the
   mcts-trace format, then loaded and inspected ``--repeat`` times (medians printed).
2. A trace: the same search with every iteration recorded (``search --trace``'s writer),
   reduced to what a terse foreign writer gives (records: the path and the leaf's value, no
   formula terms or per-node backups; nodes without the redundant mean) so that the file fits
   the app's 20 MB upload limit; then what one
   Step click in the app costs in Python: :meth:`FileReplay.goto` one iteration on and the tree
   view built (``build_view``), timed at 200 clicks from the start, the middle and the end.
3. The same file uploaded into the app (Streamlit's AppTest, the whole script rerun of each
   click): the time to open it and the median of 20 Step clicks.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from app.drawing.tree_layout import build_view
from mcts_core import Search
from mcts_lab import traces
from mcts_lab.common import build_config, build_game
from mcts_lab.inspect.inspection import inspect_trace
from mcts_lab.traces.lab import write_run
from mcts_lab.traces.replay import FileReplay


def _search(args: argparse.Namespace) -> Search:
    game = build_game(args.game)
    return Search(game, game.initial_state(), build_config({}), seed=0)


def tree_alone(args: argparse.Namespace, folder: str) -> None:
    search = _search(args)
    search.run(iterations=args.nodes - 1)
    path = os.path.join(folder, "tree.json")
    traces.write(traces.from_search(search), path)
    load, check = [], []
    for _ in range(args.repeat):
        start = time.perf_counter()
        trace = traces.load(path, max_bytes=1 << 30)
        load.append(time.perf_counter() - start)
        start = time.perf_counter()
        report = inspect_trace(trace)
        check.append(time.perf_counter() - start)
    print(
        f"tree alone, {args.game}: {len(trace.nodes):,} nodes, "
        f"{os.path.getsize(path) / 1e6:.1f} MB; load {statistics.median(load):.2f} s, "
        f"inspect {statistics.median(check):.2f} s (medians of {args.repeat}); anomalies: "
        f"{report['anomaly_counts'] or 'none'}"
    )


def app_steps(args: argparse.Namespace, folder: str) -> None:
    search = _search(args)
    full = os.path.join(folder, "trace.jsonl")
    write_run(search, full, iterations=args.nodes - 1)
    slim = os.path.join(folder, "slim.jsonl")
    keep = ("iteration", "path", "leaf_value")
    with open(full, encoding="utf-8") as source, open(slim, "w", encoding="utf-8") as out:
        for line in source:
            item = json.loads(line)
            if "iteration" in item:
                item = {k: v for k, v in item.items() if k in keep}
            elif "id" in item:
                item = {k: v for k, v in item.items() if k not in ("mean", "num_actions")}
            out.write(json.dumps(item, separators=(",", ":")) + "\n")
    size = os.path.getsize(slim)
    start = time.perf_counter()
    trace = traces.load(slim, max_bytes=1 << 30)
    loaded = time.perf_counter() - start
    start = time.perf_counter()
    report = inspect_trace(trace)
    checked = time.perf_counter() - start
    start = time.perf_counter()
    replay = FileReplay(trace)
    built = time.perf_counter() - start
    kw = {"new_id": None, "focus_id": None, "player_names": ("A", "B")}
    results = []
    for at in (0, replay.end // 2, replay.end - 201):
        replay.goto(at)
        times = []
        for _ in range(200):
            start = time.perf_counter()
            replay.goto(replay.position_index + 1)
            path, _, changed = replay.marks()
            build_view(replay.search(), path_ids=path, changed_ids=changed, **kw)  # type: ignore[arg-type]
            times.append(time.perf_counter() - start)
        results.append(f"from iteration {at:,}: {statistics.median(times) * 1000:.1f} ms")
    start = time.perf_counter()
    replay.goto(0)
    replay.goto(replay.end)
    scrub = time.perf_counter() - start
    print(
        f"trace, {args.game}: {len(trace.nodes):,} nodes, {len(trace.records):,} records, "
        f"{size / 1e6:.1f} MB (app limit {traces.MAX_FILE_BYTES / 1e6:.1f} MB); load "
        f"{loaded:.2f} s, inspect {checked:.2f} s, replay set-up {built:.2f} s; one Step "
        f"(median of 200) {'; '.join(results)}; slider end -> 0 -> end {scrub:.2f} s; "
        f"anomalies: {report['anomaly_counts'] or 'none'}"
    )
    if size <= traces.MAX_FILE_BYTES:
        in_the_app(slim)


def open_in_app(path: str, timeout: int = 600) -> tuple[Any, float]:
    """The app (AppTest) with the trace file ``path`` uploaded in its file view, and the
    seconds the upload's run took (read, inspect, replay set-up)."""
    from streamlit.testing.v1 import AppTest

    main_py = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "app",
                           "main.py")  # fmt: skip
    at = AppTest.from_file(main_py, default_timeout=timeout)
    at.run()
    with open(path, "rb") as handle:
        data = handle.read()
    start = time.perf_counter()
    at.file_uploader(key="trace_file").upload(os.path.basename(path), data, "application/json")
    at.run()
    opened = time.perf_counter() - start
    assert not at.exception, at.exception
    return at, opened


def in_the_app(path: str) -> None:
    at, opened = open_in_app(path)
    clicks = []
    for _ in range(20):
        start = time.perf_counter()
        at.button(key="trace_step").click().run()
        clicks.append(time.perf_counter() - start)
    assert at.session_state["trace_iteration"] == 20
    print(
        f"in the app (AppTest): opening the file {opened:.1f} s; one Step click, the whole "
        f"rerun, median of 20: {statistics.median(clicks) * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--game", default="connect_four")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        tree_alone(args, folder)
        app_steps(args, folder)


if __name__ == "__main__":
    main()
