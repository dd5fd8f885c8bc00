"""The classroom screen on a phone (390x844) in headless Chromium: one column that scrolls as
one page. No sideways scroll; the step controls in two rows even with their longest labels;
the controls, the tree and the narration in that order; the open tab's panels are no scroll box
inside the scrolling page, so the Board tab's board shows whole and inside the width.

The phone rules are ``app.screen.sidebar.PHONE_CSS`` (Streamlit stacks the columns at 640 px and
less).
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from tests.browser_helpers import BROWSER_TEST, click, open_page, wait_idle

pytestmark = BROWSER_TEST

WIDTH, HEIGHT = 390, 844

#: The scroll boxes of the open tab's panels: the panel box or anything inside it that scrolls
#: up and down on its own (overflow auto or scroll, its content taller than its box).
SCROLL_BOXES = """panel => [panel, ...panel.querySelectorAll('*')]
    .filter(e => /(auto|scroll)/.test(getComputedStyle(e).overflowY))
    .filter(e => e.scrollHeight > e.clientHeight + 1)
    .map(e => (e.className || e.tagName).toString().slice(0, 60))"""


def _box(page: Any, selector: str) -> dict[str, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, f"{selector} not drawn"
    return dict(box)


def _longest_speed_label(page: Any) -> None:
    """Autoplay at its slowest, 0.5/s: the speed popover's longest label."""
    page.locator(".st-key-controls [data-testid='stPopoverButton']:visible").first.click()
    page.locator(".st-key-autoplay_speed input[type='range']").first.focus()
    page.keyboard.press("Home")
    wait_idle(page)
    page.keyboard.press("Escape")
    wait_idle(page)


def test_phone_screen_is_one_column_in_order_without_nested_scrolling(
    app_url: str, browser: Any
) -> None:
    page = open_page(
        browser, f"{app_url}/?game=tic_tac_toe&seed=1&steps=20&iterations=100000", WIDTH, HEIGHT
    )
    for _ in range(3):
        click(page, "phase_step")  # to the longest label: "Phase: backpropagate"
    _longest_speed_label(page)
    labels = page.locator(".st-key-controls button p").all_inner_texts()
    for longest in ("Step 100,000", "Phase: backpropagate", "0.5/s"):
        assert longest in labels, labels

    # no sideways scroll: neither the document nor the app's scrolling main area
    assert page.evaluate("document.documentElement.scrollWidth") <= WIDTH
    main = page.locator(".stMain").first.evaluate("m => [m.scrollWidth, m.clientWidth]")
    assert main[0] <= main[1], f"the page scrolls sideways: {main}"

    # the controls in at most two rows
    controls = _box(page, ".st-key-controls")
    button = _box(page, ".st-key-step button:visible")
    middles = sorted(  # the middle of each control: a row's controls are centred on one line
        page.locator(".st-key-controls > *").evaluate_all(
            "els => els.map(e => e.getBoundingClientRect()).filter(r => r.width > 0)"
            ".map(r => r.top + r.height / 2)"
        )
    )
    rows = 1 + sum(1 for above, below in pairwise(middles) if below - above > 8)
    assert rows <= 2, f"the controls take {rows} rows (their middles at {middles})"
    assert controls["height"] <= 2 * button["height"] + 12, controls

    # controls, then the tree, then the narration, one under the other
    tree = _box(page, ".st-key-tree")
    narration = _box(page, ".st-key-narration")
    assert tree["y"] >= controls["y"] + controls["height"], (controls, tree)
    assert narration["y"] >= tree["y"] + tree["height"], (tree, narration)
    for box in (controls, tree, narration):
        assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, box
    # the tree at most half the window: the narration starts on the first screen
    scrolled = page.locator(".stMain").first.evaluate("e => e.scrollTop")
    assert narration["y"] + scrolled < 844, (narration, scrolled)

    # the Board tab: no scroll box inside the page, the board whole and inside the width
    page.get_by_role("tab", name="Board", exact=True).click()
    wait_idle(page)
    panel = page.locator(".st-key-detail_panels").first
    assert panel.evaluate(SCROLL_BOXES) == []
    assert panel.evaluate("p => getComputedStyle(p).overflowY") == "visible"  # it cuts nothing
    assert panel.evaluate("p => p.scrollHeight <= p.clientHeight + 1")
    board = _box(page, ".st-key-detail_panels [data-testid='stImage'] img")
    shown = _box(page, ".st-key-detail_panels")
    assert board["x"] >= 0 and board["x"] + board["width"] <= WIDTH, board
    bottom = board["y"] + board["height"]
    assert shown["y"] <= board["y"] and bottom <= shown["y"] + shown["height"], (board, shown)
    assert board["width"] >= 200, f"the board is shrunk to {board['width']:.0f} px"
    page.close()
