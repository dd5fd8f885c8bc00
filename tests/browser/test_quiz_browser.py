"""The quiz and a lesson page in headless Chromium at 1280x720: the question, its answers and
the last reveal fit beside the tree, with the step controls and the narration still on screen
(no scrolling), after real clicks. Skipped without Debian's chromium. Screenshots in out/."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser_helpers import BROWSER_TEST, HEIGHT, OUT, WIDTH, wait_idle

ON_SCREEN = ("controls", "stats", "tree", "narration", "quiz_answer")

pytestmark = BROWSER_TEST


@pytest.fixture(scope="module")
def page(app_url: str, browser: Any) -> Iterator[Any]:
    """One Playwright page for the module's tests, knowing the app's address."""
    tab = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
    tab.app_url = app_url
    yield tab
    tab.close()


def _idle(page) -> None:
    wait_idle(page, settle_ms=300)


def _go(page, query: str) -> None:
    page.goto(f"{page.app_url}/?{query}")
    page.wait_for_selector("g.tv-node", timeout=60_000)
    _idle(page)


def _inside(page, when: str) -> None:
    assert page.evaluate("window.scrollY") == 0, when
    for key in ON_SCREEN:
        box = page.locator(f".st-key-{key}").first.bounding_box()
        assert box is not None, f"{key} not drawn ({when})"
        right, bottom = box["x"] + box["width"], box["y"] + box["height"]
        assert box["x"] >= 0 and box["y"] >= 0 and right <= WIDTH and bottom <= HEIGHT, (
            f"{key} at {box} is not inside {WIDTH}x{HEIGHT} ({when})"
        )
    question = page.locator(".lab-ask").first.bounding_box()
    assert question is not None and question["y"] + question["height"] <= HEIGHT, when


def test_a_quiz_round_fits_the_screen(page) -> None:
    _go(page, "game=tic_tac_toe&seed=3&steps=30")
    page.locator(".st-key-quiz label").first.click()
    _idle(page)
    _inside(page, "question asked")
    page.locator(".st-key-quiz_answer button", has_text="b2").first.click()
    _idle(page)
    page.locator(".st-key-step button").first.click()
    _idle(page)
    _inside(page, "answer revealed, next question asked")
    text = "\n".join(page.locator(".lab-quiz").all_inner_texts())
    assert "Score 0 of 1" in text and "you said b2, the answer was c1" in text
    assert "Q + bonus" in text  # the deciding numbers, per child
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "quiz-question.png"))


def test_a_lesson_page_fits_the_screen(page) -> None:
    _go(page, "lesson=traps&page=1")
    _inside(page, "lesson page opened")
    sidebar = page.locator(".lab-lesson").first.inner_text()
    assert "A trap for O" in sidebar and "page 1 of 3" in sidebar
    page.locator(".st-key-quiz_answer button", has_text="No, a worse move").first.click()
    _idle(page)
    page.locator(".st-key-step button").first.click()
    _idle(page)
    _inside(page, "lesson question revealed")
    assert "✓ Right: No, a worse move." in page.locator(".lab-quiz").first.inner_text()
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "lesson-page.png"))
