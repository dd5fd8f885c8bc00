"""Measure the classroom screen's speed: Step click-to-idle in headless Chromium and the server
time of each Step rerun, on a fresh Connect Four tree and on a big one.

    python scripts/measure_app_speed.py [--nodes 100000] [--clicks 15] [--json]

The app runs as a real Streamlit server (scripts/app_server.py) with ``MCTS_LAB_TIMINGS`` set,
so the screen fragment appends each rerun's server time (ms) to a file; the page is 1280x720.
"Fresh": a new tree, then ``--clicks`` Step clicks. "Big": one Step N click of ``--nodes``
iterations (one node each: no chance layer in Connect Four), then ``--clicks`` Step clicks.
Prints medians and p90s against the issue's targets; asserts nothing (machines are noisy:
compare runs side by side).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from app_server import CHROMIUM, CHROMIUM_ARGS, IDLE, running_app

#: The targets: Step click to idle page (s) on a fresh and a 100,000-node tree, server ms.
TARGETS = {"fresh_click_s": 0.30, "big_click_s": 0.35, "server_ms": 30.0}


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def _idle(page: Any, timeout: float = 60_000) -> None:
    page.wait_for_timeout(50)  # let the click reach the server before waiting for idle
    page.wait_for_selector(IDLE, timeout=timeout)


def _clicks(page: Any, timings: Path, clicks: int) -> dict[str, Any]:
    """Click Step ``clicks`` times after one warm-up click; the browser and server times."""
    page.locator(".st-key-step button").first.click()
    _idle(page)
    page.wait_for_timeout(300)
    before = len(timings.read_text().split())
    browser = []
    for _ in range(clicks):
        start = time.perf_counter()
        page.locator(".st-key-step button").first.click()
        _idle(page)
        browser.append(time.perf_counter() - start)
        page.wait_for_timeout(100)  # a teacher's pace: the component finishes drawing
    server = [float(x) for x in timings.read_text().split()[before:]]
    # each figure of the statistics row is its own element: join them with a separator
    nodes = page.locator(".lab-stats").first.evaluate(
        "row => Array.from(row.children).map(c => c.innerText).join(' · ')"
    )
    return {
        "click_median_s": round(statistics.median(browser), 3),
        "click_p90_s": round(_p90(browser), 3),
        "server_median_ms": round(statistics.median(server), 1),
        "server_p90_ms": round(_p90(server), 1),
        "clicks": clicks,
        "stats_line": " ".join(nodes.split()),
    }


def measure(nodes: int, clicks: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        timings = Path(tmp) / "timings.txt"
        timings.write_text("")
        os.environ["MCTS_LAB_TIMINGS"] = str(timings)  # the server inherits it
        with running_app() as url, sync_playwright() as p:
            chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = chromium.new_page(viewport={"width": 1280, "height": 720})
            page.goto(f"{url}/?game=connect_four&seed=1")
            page.wait_for_selector("g.tv-node", timeout=60_000)
            _idle(page)
            fresh = _clicks(page, timings, clicks)
            page.goto(f"{url}/?game=connect_four&seed=1&iterations={nodes}")
            page.wait_for_selector("g.tv-node", timeout=60_000)
            _idle(page)
            start = time.perf_counter()
            page.locator(".st-key-step_n button").first.click()
            _idle(page, timeout=1_800_000)
            build = time.perf_counter() - start
            big = _clicks(page, timings, clicks)
            big["build_s"] = round(build, 1)
            chromium.close()
    return {
        "machine": f"{platform.node()} ({os.cpu_count()} cores), Python "
        f"{platform.python_version()}",
        "fresh": fresh,
        "big": big,
        "targets": TARGETS,
    }


def report(result: dict[str, Any]) -> None:
    print(f"machine: {result['machine']}; page 1280x720, headless Chromium")
    for name, target in (("fresh", "fresh_click_s"), ("big", "big_click_s")):
        r = result[name]
        print(
            f"{name:5}: Step click to idle median {r['click_median_s']:.3f} s "
            f"(p90 {r['click_p90_s']:.3f}; target <= {TARGETS[target]:.2f}); server rerun "
            f"median {r['server_median_ms']:.1f} ms (p90 {r['server_p90_ms']:.1f}; target <= "
            f"{TARGETS['server_ms']:.0f}) over {r['clicks']} clicks; {r['stats_line']}"
        )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=100_000, help="the big tree's iterations")
    parser.add_argument("--clicks", type=int, default=15)
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    args = parser.parse_args()
    outcome = measure(args.nodes, args.clicks)
    if args.json:
        print(json.dumps(outcome, indent=2))
    else:
        report(outcome)
