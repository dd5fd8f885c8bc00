"""tests/browser_pool.py: a context used again is as good as new for the app. A teacher's
context (the class's cookie set) comes back with no cookie and no page, the next page in it
opens at the size asked for, a start there is a new visitor's (no class resumed), and the app
keeps nothing in local or session storage (the pool clears cookies only)."""

from __future__ import annotations

from typing import Any

from tests.browser_helpers import BROWSER_TEST, open_page, wait_idle
from tests.browser_pool import ContextPool

pytestmark = BROWSER_TEST

STORAGE = "() => [localStorage.length, sessionStorage.length]"


def test_a_context_used_again_is_as_good_as_new(
    class_server: tuple[str, str], browser: ContextPool
) -> None:
    url = class_server[0]
    teacher = open_page(browser, f"{url}/?game=nim&seed=1&steps=3")
    teacher.locator(".st-key-class_start button").first.click()
    wait_idle(teacher)
    assert teacher.locator(".lab-class-code").count() == 1
    assert any(c["name"] == "mcts_lab_teacher" for c in teacher.context.cookies())
    assert teacher.evaluate(STORAGE) == [0, 0]  # all the app keeps is in its cookies
    used = teacher.context
    browser.give_back(next(c for c in browser._out if c._real is used))  # as at a test's end
    assert used.pages == [teacher] and teacher.url == "about:blank" and used.cookies() == []

    made, reused = browser.made, browser.pages_reused
    again = open_page(browser, f"{url}/?game=nim&seed=1&steps=3", 390, 844)
    assert again.context is used and browser.made == made  # the same context, not a new one
    assert again is teacher and browser.pages_reused == reused + 1  # and its page
    assert again.evaluate("[innerWidth, innerHeight]") == [390, 844]
    assert again.locator(".lab-class-code").count() == 0  # a new visitor: no class of its own
    assert again.evaluate(STORAGE) == [0, 0]


def test_a_page_a_test_listened_to_is_not_used_again(app_url: str, browser: ContextPool) -> None:
    """A page with a test's listener on it (or a route) is closed when its context comes back:
    the next test's page is a new one, hearing nothing of the last test's handlers."""
    heard: list[str] = []
    french = {"viewport": {"width": 1280, "height": 720}, "locale": "fr-FR"}  # (its own context)
    page = browser.new_page(**french)
    page.on("console", lambda message: heard.append(message.text))
    page.goto("about:blank")
    context = next(c for c in browser._out if c._real is page.context)
    browser.give_back(context)
    assert page.is_closed() and context.spare is None  # (closed for real)
    quiet = browser.new_context(**french)
    assert quiet is context
    fresh = quiet.new_page()
    fresh.evaluate("console.log('after')")
    assert fresh is not page and heard == []


def test_a_context_with_other_options_is_kept_apart(app_url: str, browser: ContextPool) -> None:
    spanish: Any = browser.new_context(viewport={"width": 390, "height": 844}, locale="es-ES")
    plain = browser.new_context(viewport={"width": 390, "height": 844})
    assert spanish._real is not plain._real
    page = spanish.new_page()
    assert page.evaluate("navigator.language") == "es-ES"
    spanish.close()  # back in the pool: the next Spanish phone gets it, a plain one never
    assert browser.new_context(viewport={"width": 1280, "height": 720})._real is not spanish._real
    assert browser.new_context(viewport={"width": 1280, "height": 720}, locale="es-ES") is spanish
