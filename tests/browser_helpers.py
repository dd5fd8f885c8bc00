"""What the browser tests share: the skip when Chromium is missing, the window, and the steps
of driving the app's page (open it, wait until it is idle, click a control, read a statistic).

The fixtures (``app_url``, ``browser``) are in tests/conftest.py.
"""

from __future__ import annotations

import contextlib
import os
import re
from typing import Any

import pytest

from tests.conftest import CHROMIUM, IDLE, ROOT

OUT = ROOT / "out"
WIDTH, HEIGHT = 1280, 720  # the classroom screen
ON_SCREEN = ("controls", "stats", "tree", "narration")  # the containers that must fit

#: The marks of every real-browser test module: ``pytestmark = BROWSER_TEST``.
BROWSER_TEST = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not (os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK)),
        reason=f"no Chromium at {CHROMIUM} (apt-get install chromium) - real-browser test skipped",
    ),
]


def wait_idle(page: Any, settle_ms: int = 250) -> None:
    """Wait until the app's script run has ended, then ``settle_ms`` for the tree component,
    which draws after the run ends."""
    page.wait_for_timeout(150)  # let the click reach the server before waiting for idle
    page.wait_for_selector(IDLE, timeout=60_000)
    page.wait_for_timeout(settle_ms)


def open_page(browser: Any, url: str, width: int = WIDTH, height: int = HEIGHT) -> Any:
    """A new page at ``url``, once its tree is drawn and the app is idle."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url)
    page.wait_for_selector("g.tv-node", timeout=60_000)
    wait_idle(page)
    return page


def click(page: Any, key: str) -> None:
    """Click the button with widget key ``key`` and wait for the click's rerun."""
    stats = page.locator(".lab-stats").first
    before = stats.inner_text() if stats.count() else ""
    # :visible: a button with help text is drawn twice, with its tooltip for a mouse and
    # without for a touch screen, and a media query hides one (on a phone, the first)
    page.locator(f".st-key-{key} button:visible").first.click()
    # On a busy machine the page can look idle before the click's rerun starts; every click
    # that does something writes a new history entry into the statistics row, so wait for it
    # (a click that changes nothing, e.g. forward at the newest entry, just waits it out).
    with contextlib.suppress(Exception):  # Playwright's TimeoutError: the click changed nothing
        page.wait_for_function(
            "([before]) => { const s = document.querySelector('.lab-stats');"
            " return s !== null && s.innerText !== before; }",
            arg=[before],
            timeout=5_000,
        )
    wait_idle(page)


def stat(page: Any, name: str) -> int:
    """A number of the statistics row (``Iteration``, ``Nodes``, ...)."""
    text = page.locator(".lab-stats").first.inner_text()
    found = re.search(rf"{re.escape(name)}\s+([\d,]+)", text)
    assert found is not None, text
    return int(found.group(1).replace(",", ""))


def assert_on_screen(page: Any, when: str) -> None:
    """The classroom screen's containers and buttons fit the window, without scrolling."""
    assert page.evaluate("window.scrollY") == 0, when
    for key in ON_SCREEN:
        box = page.locator(f".st-key-{key}").first.bounding_box()
        assert box is not None, f"{key} not drawn ({when})"
        right, bottom = box["x"] + box["width"], box["y"] + box["height"]
        inside = box["x"] >= 0 and box["y"] >= 0 and right <= WIDTH and bottom <= HEIGHT
        assert inside, f"{key} at {box} is not inside {WIDTH}x{HEIGHT} ({when})"
    for key in ("step", "step_n", "phase_step", "back", "forward", "reset", "play_best"):
        assert page.locator(f".st-key-{key} button").first.is_visible(), key
