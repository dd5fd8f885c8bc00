"""No critical or serious accessibility violation, checked by axe-core (the npm package) injected
into the running app in headless Chromium: on the fresh screen, after Steps, on every detail
tab, in Present mode, on a lesson page, on a phone (390x844) and on a class's pages.

``.ci/run`` installs axe-core into ``out/axe`` (``MCTS_LAB_AXE`` names another copy of
``axe.min.js``); without it the check is skipped with a reason, except under CI, where it fails.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import BROWSER_TEST, click, open_page, wait_idle

pytestmark = BROWSER_TEST


ROOT = Path(__file__).resolve().parents[2]
AXE = Path(os.environ.get("MCTS_LAB_AXE", ROOT / "out/axe/node_modules/axe-core/axe.min.js"))
TABS = ("Board", "Why this path", "Backup", "Dice", "Charts", "Play", "Arena", "A/B", "Text")


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        if os.environ.get("CI"):
            pytest.fail(f"axe-core is missing at {AXE}: .ci/run installs it with npm")
        pytest.skip(f"no axe-core at {AXE} (npm install --prefix out/axe axe-core)")
    return AXE.read_text(encoding="utf-8")


def _violations(page: Any, axe: str) -> list[str]:
    """The critical and serious violations on the page, one line each."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe)
    found = page.evaluate(
        """async () => {
          const r = await axe.run(document, {resultTypes: ['violations']});
          return r.violations
            .filter(v => v.impact === 'critical' || v.impact === 'serious')
            .map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 3)
              .map(n => n.target.join(' ') + ' ' + (n.failureSummary || '').split('\\n')[1])
              .join(' | '));
        }"""
    )
    return [str(line) for line in found]


def _check(page: Any, axe: str, where: str) -> None:
    page.mouse.move(5, 715)  # off every control: a hover tooltip fading in is not the page
    page.wait_for_timeout(400)
    found = _violations(page, axe)
    assert not found, f"{where}:\n" + "\n".join(found)


def test_the_screen_steps_and_every_tab(app_url: str, browser: Any, axe_source: str) -> None:
    page = open_page(browser, f"{app_url}/?game=gridiron&seed=1")
    _check(page, axe_source, "fresh screen")
    for _ in range(3):
        click(page, "step")
    _check(page, axe_source, "after Steps")
    for tab in TABS:
        page.get_by_role("tab", name=tab, exact=True).click()
        wait_idle(page)
        _check(page, axe_source, f"the {tab} tab")
    page.close()


def test_present_mode_and_a_lesson_page(app_url: str, browser: Any, axe_source: str) -> None:
    page = open_page(browser, f"{app_url}/?lesson=traps&page=2")
    _check(page, axe_source, "a lesson page")
    page.locator(".st-key-presentation label").first.click()
    wait_idle(page)
    page.wait_for_selector(".st-key-lesson_text_slide .lab-slide", timeout=30_000)
    _check(page, axe_source, "Present mode: the page's text slide")
    page.keyboard.press("PageDown")  # clicker mode: the screen
    page.wait_for_selector(".st-key-step button", timeout=30_000)
    wait_idle(page)
    click(page, "step")
    _check(page, axe_source, "Present mode: the page's screen")
    page.keyboard.press("PageDown")  # the page's press, then its tab alone
    wait_idle(page)
    page.keyboard.press("PageDown")
    page.wait_for_selector(".st-key-lesson_tab_slide", timeout=30_000)
    wait_idle(page)
    _check(page, axe_source, "Present mode: the page's tab")
    page.close()


def test_the_phone_layout(app_url: str, browser: Any, axe_source: str) -> None:
    page = open_page(browser, f"{app_url}/?game=tic_tac_toe&seed=1&steps=20", 390, 844)
    _check(page, axe_source, "a phone")
    page.close()
