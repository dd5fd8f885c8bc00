"""The browser tree (app/components/tree_view.py) in headless Chromium, on its demo page
(scripts/tree_view_demo.py): label sizes at 1280x720, the hover tooltip, a click sending the focus
back, Step redrawing, and hostile labels staying text.

Skipped when Debian's chromium is missing. Saves screenshots in out/ (git-ignored).
"""

from __future__ import annotations

import statistics
from collections.abc import Iterator

import pytest

from tests.browser_helpers import BROWSER_TEST, OUT, wait_idle
from tests.conftest import ROOT, running_app

DEMO = ROOT / "scripts" / "tree_view_demo.py"

pytestmark = BROWSER_TEST


@pytest.fixture(scope="module")
def demo_url() -> Iterator[str]:
    """The demo page on a free loopback port."""
    with running_app(DEMO) as url:
        yield url


def _wait_idle(page) -> None:
    wait_idle(page, settle_ms=200)  # the component draws after the script run ends


def _open(browser, url: str):
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    dialogs: list[str] = []

    def on_dialog(dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    page.dialogs = dialogs
    page.goto(url)
    page.wait_for_selector("g.tv-node", timeout=60_000)
    _wait_idle(page)
    return page


def _label_heights(page) -> list[float]:
    return page.locator(".tv-label, .tv-line").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().height)"
    )


def _status(page) -> str:
    return page.locator("p", has_text="Iterations:").first.text_content() or ""


def test_tic_tac_toe_labels_hover_and_click(demo_url: str, browser) -> None:
    page = _open(browser, demo_url + "/?steps=10")
    nodes = page.locator("g.tv-node")
    assert nodes.count() == 11  # the root, all 9 of its moves, the node the 10th step added
    heights = _label_heights(page)
    median = statistics.median(heights)
    print(f"\ntic-tac-toe after 10 steps: median label height {median:.1f} px")
    assert median >= 12
    svg_width = float(page.locator(".tv-scroll svg").get_attribute("width") or 0)
    assert svg_width <= 560  # drawn at 1:1: the model's width
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "tree-view-tic-tac-toe.png"))

    child = page.locator("g.tv-node[data-id]").nth(3)  # a move of the root
    node_id = child.get_attribute("data-id")
    child.hover()
    tip = page.locator(".tv-tip")
    tip.wait_for(state="visible", timeout=5_000)
    text = tip.text_content() or ""
    assert f"node #{node_id}" in text and "view" in text and "click to focus" in text
    page.screenshot(path=str(OUT / "tree-view-hover.png"))

    child.click()
    _wait_idle(page)
    status = _status(page)
    assert f"focus: {node_id}" in status and f"last click returned: {node_id}" in status
    top = page.locator("g.tv-node").first
    assert top.get_attribute("data-id") == node_id  # drawn from the clicked node
    assert page.locator("g.tv-up").count() == 1
    page.locator("g.tv-up").click()
    _wait_idle(page)
    assert "focus: root" in _status(page) and page.locator("g.tv-node").count() == 11
    # a click is reported once: the next rerun does not bring the focus back
    page.locator(f"g.tv-node[data-id='{node_id}']").click()
    _wait_idle(page)
    assert f"focus: {node_id}" in _status(page)
    page.get_by_role("button", name="Root").click()
    _wait_idle(page)
    assert "focus: root" in _status(page)
    page.get_by_role("button", name="Step", exact=True).click()
    _wait_idle(page)
    assert "focus: root" in _status(page) and "Iterations: 11" in _status(page)
    page.close()


def test_step_redraws_the_tree(demo_url: str, browser) -> None:
    page = _open(browser, demo_url + "/?steps=10")
    page.get_by_role("button", name="Step", exact=True).click()
    _wait_idle(page)
    assert "Iterations: 11" in _status(page)
    assert page.locator("g.tv-node").count() >= 12
    assert page.locator("g.tv-new").count() == 1
    page.close()


@pytest.mark.parametrize("query", ["game=connect_four&steps=30", "game=gridiron&steps=200"])
def test_labels_are_readable_on_other_games(demo_url: str, browser, query: str) -> None:
    page = _open(browser, f"{demo_url}/?{query}")
    median = statistics.median(_label_heights(page))
    print(f"\n{query}: median label height {median:.1f} px")
    assert median >= 12
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / f"tree-view-{query.split('&')[0][5:]}.png"))
    page.close()


def test_hostile_labels_stay_text(demo_url: str, browser) -> None:
    page = _open(browser, demo_url + "/?game=hostile&steps=40")
    labels = page.locator(".tv-label").all_text_contents()
    assert "<img src…" in labels and "**bold**" in labels
    assert page.locator(".tv-root img, .tv-root script, .tv-root b").count() == 0
    page.locator("g.tv-node[data-id='1']").hover()
    tip = page.locator(".tv-tip")
    tip.wait_for(state="visible", timeout=5_000)
    assert "X plays <img src=x onerror=alert(1)>" in (tip.text_content() or "")
    page.wait_for_timeout(300)
    assert page.dialogs == []  # no alert ran
    page.close()
