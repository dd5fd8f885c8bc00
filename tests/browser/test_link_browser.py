"""The Link, in headless Chromium: it matches the tree on screen (its steps are the iterations
shown, also after clicks in the screen's fragment), it is an address students can open (not
loopback, no Present mode), and opening it shows the last iteration's path and narration.
A lesson link rebuilds the sender's tree, not the page's starting tree."""

from __future__ import annotations

import urllib.parse
from typing import Any

from tests.browser_helpers import BROWSER_TEST, click, open_page, stat, wait_idle

pytestmark = BROWSER_TEST


def narration(page: Any) -> str:
    return str(page.locator(".lab-narration").first.inner_text())


def _link(page: Any) -> str:
    page.locator(".st-key-link button").first.click()
    code = page.locator("[data-testid='stPopoverBody'] code, [data-testid='stCode'] code")
    code.first.wait_for(timeout=15_000)
    wait_idle(page)
    text = " ".join(code.first.inner_text().split())
    page.keyboard.press("Escape")
    return text.replace(" ", "")


def _params(link: str) -> dict[str, str]:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link).query))


def test_the_link_matches_the_tree_and_replays_its_last_step(app_url: str, browser: Any) -> None:
    page = open_page(browser, f"{app_url}/?game=connect_four&seed=2&steps=10&presentation=1")
    for _ in range(3):
        click(page, "step")
    link = _link(page)
    params = _params(link)
    assert params["steps"] == str(stat(page, "Iteration")) == "13"
    assert "presentation" not in params
    host = urllib.parse.urlsplit(link).hostname
    assert host not in ("localhost", "127.0.0.1", None), link
    said = narration(page)
    other = open_page(browser, app_url + "/?" + urllib.parse.urlsplit(link).query)
    assert stat(other, "Iteration") == 13
    assert narration(other) == said  # the last iteration's narration, as the sender saw it
    assert other.locator(".st-key-tree .tv-edge-path").count() > 0  # the last path, drawn
    page.close()
    other.close()


def test_a_lesson_link_rebuilds_the_senders_tree(app_url: str, browser: Any) -> None:
    page = open_page(browser, f"{app_url}/?lesson=phases&page=1")
    start = stat(page, "Iteration")
    click(page, "step")
    click(page, "step")
    params = _params(_link(page))
    assert params["lesson"] == "phases" and params["steps"] == str(start + 2)
    other = open_page(browser, f"{app_url}/?" + urllib.parse.urlencode(params))
    assert stat(other, "Iteration") == start + 2
    assert narration(other) == narration(page)
    page.close()
    other.close()


def test_the_link_carries_the_senders_language_only_when_asked(app_url: str, browser: Any) -> None:
    page = open_page(browser, f"{app_url}/?lang=de&game=nim&seed=1")
    click(page, "step")
    assert "lang" not in _params(_link(page))  # each student's own browser's language
    page.locator(".st-key-link button").first.click()
    box = page.locator(".st-key-link_lang label").first  # "Open it in Deutsch"
    box.wait_for(timeout=15_000)
    box.click()
    code = page.locator("[data-testid='stPopoverBody'] code").first
    page.wait_for_function(
        "() => (document.querySelector(\"[data-testid='stPopoverBody'] code\") || {})"
        ".innerText?.includes('lang=de')",
        timeout=15_000,
    )
    assert _params(" ".join(code.inner_text().split()).replace(" ", ""))["lang"] == "de"
    page.close()
