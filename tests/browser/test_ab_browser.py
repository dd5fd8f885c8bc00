"""The A/B tab in headless Chromium at 1280x720: with B's C changed and a Step N, the classroom
screen still fits, the tab's scroll box stays inside the window with no sideways overflow (its
column is about 330 px wide), and the root table and the first divergence are shown. Skipped
like tests/browser/test_browser.py when Debian's chromium is missing."""

from __future__ import annotations

from tests.browser_helpers import (
    BROWSER_TEST,
    HEIGHT,
    OUT,
    WIDTH,
    assert_on_screen,
    click,
    open_page,
    stat,
    wait_idle,
)

pytestmark = BROWSER_TEST


def test_the_ab_tab_fits_the_classroom_screen(app_url: str, browser) -> None:
    page = open_page(browser, f"{app_url}/?game=tic_tac_toe&seed=1&c=2&iterations=200")
    page.get_by_role("tab", name="A/B", exact=True).click()
    wait_idle(page)
    page.locator(".st-key-ab label").first.click()  # the toggle
    wait_idle(page)
    page.locator(".st-key-ab_b button").first.click()  # B's settings popover
    page.locator(".st-key-ab_c input").fill("0.5")
    page.locator(".st-key-ab_c input").press("Enter")
    wait_idle(page)
    page.keyboard.press("Escape")
    click(page, "step_n")
    assert stat(page, "Iteration") == 200
    assert_on_screen(page, "after Step N with A/B on")
    panel = page.locator(".st-key-detail_panels").first
    box = panel.bounding_box()
    assert (
        box is not None and box["y"] + box["height"] <= HEIGHT and box["x"] + box["width"] <= WIDTH
    )
    assert panel.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), "the tab scrolls sideways"
    text = panel.inner_text()
    assert "A / B differ in: c 2 / 0.5" in text
    assert "First divergence: iteration 14, depth 0" in text and "200 iterations each" in text
    table = panel.locator("table").first
    table.evaluate("e => e.scrollIntoView({block: 'end'})")
    page.wait_for_timeout(200)
    cells = table.bounding_box()
    assert cells is not None and cells["x"] + cells["width"] <= box["x"] + box["width"]
    # B's tree is drawn in the tab, beside the main drawing (A's): both have their boxes
    b_tree = page.locator(".st-key-detail_panels g.tv-node")
    b_tree.first.scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    assert b_tree.count() >= 5, "B's tree is not drawn"
    assert page.locator(".st-key-tree g.tv-node").count() >= 5
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "ab-tab.png"))
    page.close()
