"""The Charts tab's watch box in headless Chromium: after a few Steps, an expression typed into
``watch`` is drawn as its own line (``chart_watch``) with the values of every Step; a bad one
is a sentence on the page. Skipped like tests/browser/test_browser.py without Chromium."""

from __future__ import annotations

from typing import Any

from tests.browser_helpers import BROWSER_TEST, click, open_page, stat, wait_idle

pytestmark = BROWSER_TEST


def _type_watch(page: Any, text: str) -> None:
    box = page.locator(".st-key-watch input").first
    box.fill(text)
    box.press("Enter")
    wait_idle(page)


def test_a_typed_expression_is_drawn_as_a_line(app_url: str, browser: Any) -> None:
    page = open_page(browser, f"{app_url}/?game=tic_tac_toe&seed=1")
    page.get_by_role("tab", name="Charts", exact=True).click()
    wait_idle(page)
    for _ in range(4):
        click(page, "step")
    assert stat(page, "Iteration") == 4
    _type_watch(page, "N(root); N(root) * 2")
    chart = page.locator(".st-key-chart_watch .js-plotly-plot").first
    chart.wait_for(timeout=15_000)
    lines = chart.evaluate("e => e.data.map(t => [t.name, Array.from(t.x), Array.from(t.y)])")
    assert lines == [
        ["N(root)", [1, 2, 3, 4], [1, 2, 3, 4]],
        ["N(root) * 2", [1, 2, 3, 4], [2, 4, 6, 8]],
    ]
    # both drawn in the plot area (the legend draws a sample of each too)
    assert chart.locator(".scatterlayer path.js-line").count() == 2
    assert chart.bounding_box()["height"] > 100
    _type_watch(page, "N(z9)")
    said = page.locator(".lab-note.lab-error").first
    said.wait_for(timeout=15_000)
    assert "unknown move 'z9' at column 3" in said.inner_text()
    assert page.locator(".st-key-chart_watch .js-plotly-plot").count() == 0
    page.close()
