"""The real page in headless Chromium: start the app, click Step, check the drawn tree.

Skipped when Debian's chromium is missing. Saves screenshots in out/ (git-ignored) for a person
to look at.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from app_server import CHROMIUM, CHROMIUM_ARGS, IDLE, running_app  # noqa: E402

OUT = ROOT / "out"

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(
        not (os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK)),
        reason=f"no Chromium at {CHROMIUM} (apt-get install chromium) - real-browser test skipped",
    ),
]


@pytest.fixture(scope="module")
def app_url() -> Iterator[str]:
    with running_app() as url:
        yield url


@pytest.fixture(scope="module")
def browser():  # noqa: ANN201 - a Playwright browser
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def _wait_idle(page) -> None:  # noqa: ANN001
    page.wait_for_timeout(150)  # let the click reach the server before waiting for idle
    page.wait_for_selector(IDLE, timeout=60_000)


def test_step_draws_the_tree(app_url: str, browser) -> None:  # noqa: ANN001
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(app_url + "/?game=tic_tac_toe&seed=3")
    page.wait_for_selector("text=MCTS Lab", timeout=60_000)
    _wait_idle(page)
    page.get_by_role("button", name="Step", exact=True).click()
    _wait_idle(page)
    nodes = page.locator(".mcts-tree svg g.node")
    # after one iteration: the root and the node it added
    assert nodes.count() == 2
    assert page.locator(".mcts-tree svg").text_content().count("#") >= 2
    for _ in range(4):
        page.get_by_role("button", name="Step", exact=True).click()
        _wait_idle(page)
    assert page.locator(".mcts-tree svg g.node").count() == 6
    page.get_by_role("button", name="Step 100").click()
    _wait_idle(page)
    assert page.locator(".mcts-tree svg g.node").count() > 20
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "browser-tic-tac-toe.png"), full_page=False)
    page.close()


def test_step_click_to_update_time(app_url: str, browser) -> None:  # noqa: ANN001
    """Prints the median Step click-to-idle time (a measurement, not an assertion)."""
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(app_url + "/?game=connect_four&seed=1&iterations=2000")
    _wait_idle(page)
    page.get_by_role("button", name="Step 2,000").click()
    _wait_idle(page)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        page.get_by_role("button", name="Step", exact=True).click()
        _wait_idle(page)
        times.append(time.perf_counter() - start)
    times.sort()
    print(f"\nStep click to idle page: median {times[2]:.3f} s over 5 clicks")
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "browser-connect-four.png"), full_page=True)
    if shutil.which("dot") is not None:
        assert page.locator(".mcts-tree svg g.node").count() > 20
    page.close()
