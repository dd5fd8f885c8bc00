"""The Link, in headless Chromium: it matches the tree on screen (its steps are the iterations
shown, also after clicks in the screen's fragment), it is an address students can open (not
loopback, no Present mode), and opening it shows the last iteration's path and narration.
A lesson link rebuilds the sender's tree, not the page's starting tree."""

from __future__ import annotations

import urllib.parse
from typing import Any

from tests.test_browser import _click, _narration, _open, _stat, _wait_idle, pytestmark  # noqa: F401


def _link(page: Any) -> str:
    page.locator(".st-key-link button").first.click()
    code = page.locator("[data-testid='stPopoverBody'] code, [data-testid='stCode'] code")
    code.first.wait_for(timeout=15_000)
    _wait_idle(page)
    text = " ".join(code.first.inner_text().split())
    page.keyboard.press("Escape")
    return text.replace(" ", "")


def _params(link: str) -> dict[str, str]:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(link).query))


def test_the_link_matches_the_tree_and_replays_its_last_step(app_url: str, browser: Any) -> None:
    page = _open(browser, f"{app_url}/?game=connect_four&seed=2&steps=10&presentation=1")
    for _ in range(3):
        _click(page, "step")
    link = _link(page)
    params = _params(link)
    assert params["steps"] == str(_stat(page, "Iteration")) == "13"
    assert "presentation" not in params
    host = urllib.parse.urlsplit(link).hostname
    assert host not in ("localhost", "127.0.0.1", None), link
    said = _narration(page)
    other = _open(browser, app_url + "/?" + urllib.parse.urlsplit(link).query)
    assert _stat(other, "Iteration") == 13
    assert _narration(other) == said  # the last iteration's narration, as the sender saw it
    assert other.locator(".st-key-tree .tv-edge-path").count() > 0  # the last path, drawn
    page.close()
    other.close()


def test_a_lesson_link_rebuilds_the_senders_tree(app_url: str, browser: Any) -> None:
    page = _open(browser, f"{app_url}/?lesson=phases&page=1")
    start = _stat(page, "Iteration")
    _click(page, "step")
    _click(page, "step")
    params = _params(_link(page))
    assert params["lesson"] == "phases" and params["steps"] == str(start + 2)
    other = _open(browser, f"{app_url}/?" + urllib.parse.urlencode(params))
    assert _stat(other, "Iteration") == start + 2
    assert _narration(other) == _narration(page)
    page.close()
    other.close()
