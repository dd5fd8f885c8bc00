"""Measure the app's speed: server time per Step rerun and Step click-to-update in Chromium.

    python scripts/measure_app_speed.py [--iterations 50000] [--clicks 15] [--no-browser]

Builds a Connect Four tree of about 2 x iterations nodes with one Step N click, then times single
Step clicks. Prints medians; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import time

from app_server import CHROMIUM, CHROMIUM_ARGS, IDLE, ROOT, running_app


def server_side(iterations: int, clicks: int) -> None:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app" / "main.py"), default_timeout=600)
    at.query_params["game"] = "connect_four"
    at.query_params["iterations"] = str(iterations)
    at.run()
    at.button(key="step_n").click().run()
    nodes = at.metric[1].value
    times = []
    for _ in range(clicks):
        start = time.perf_counter()
        at.button(key="step").click().run()
        times.append(time.perf_counter() - start)
    print(
        f"server: Step rerun with a {nodes}-node tree: "
        f"median {statistics.median(times) * 1000:.0f} ms "
        f"(min {min(times) * 1000:.0f}, max {max(times) * 1000:.0f}) over {clicks} clicks "
        "(AppTest, includes its own overhead)"
    )


def browser(iterations: int, clicks: int) -> None:
    from playwright.sync_api import sync_playwright

    with running_app() as url, sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = chromium.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(f"{url}/?game=connect_four&iterations={iterations}")
        page.wait_for_selector(IDLE, timeout=60_000)
        page.get_by_role("button", name=f"Step {iterations:,}").click()
        page.wait_for_timeout(200)
        page.wait_for_selector(IDLE, timeout=600_000)
        times = []
        for _ in range(clicks):
            start = time.perf_counter()
            page.get_by_role("button", name="Step", exact=True).click()
            page.wait_for_timeout(50)
            page.wait_for_selector(IDLE, timeout=60_000)
            times.append(time.perf_counter() - start)
        chromium.close()
    print(
        f"browser: Step click to idle page: median {statistics.median(times):.3f} s "
        f"(min {min(times):.3f}, max {max(times):.3f}) over {clicks} clicks"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=50_000)
    parser.add_argument("--clicks", type=int, default=15)
    parser.add_argument("--no-browser", action="store_true")
    args = parser.parse_args()
    server_side(args.iterations, args.clicks)
    if not args.no_browser:
        browser(args.iterations, args.clicks)
