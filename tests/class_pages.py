"""A class's pages in Chromium, shared by the class tests (tests/browser/): a student's page,
joining, answering, waiting for a text, a teacher with a class and a student in it."""

from __future__ import annotations

from typing import Any

from tests.browser_helpers import open_page, wait_idle

__all__ = ["answer", "class_with", "count_text", "join", "student_page", "wait_text"]


def student_page(browser: Any, url: str, width: int, height: int) -> Any:
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url)
    page.wait_for_selector(".st-key-class_code input, .st-key-class_follow", timeout=60_000)
    wait_idle(page)
    return page


def join(page: Any, code: str, name: str = "") -> None:
    page.locator(".st-key-class_code input").fill(code)
    if name:
        page.locator(".st-key-class_name input").fill(name)
    page.get_by_role("button", name="Join").click()
    wait_idle(page)


def count_text(page: Any) -> str:
    return str(page.locator(".lab-class-count").first.inner_text())


def wait_text(page: Any, selector: str, pattern: str, timeout: int = 30_000) -> None:
    """Until ``selector``'s text matches ``pattern`` (a ceiling of 30 s: a phone follows the
    teacher at its next poll, about a second, but 15 s was passed once with both cores loaded to
    19); on a timeout, an AssertionError with what the page showed."""
    try:
        page.wait_for_function(
            "([sel, pat]) => { const e = document.querySelector(sel);"
            " return e !== null && new RegExp(pat).test(e.innerText); }",
            arg=[selector, pattern],
            polling=100,
            timeout=timeout,
        )
    except Exception as error:  # Playwright's TimeoutError: say what the page showed
        shown = page.locator(selector).first.inner_text() if page.locator(selector).count() else ""
        raise AssertionError(f"{pattern!r} not in {selector}: {shown[:600]!r}") from error


def answer(page: Any, index: int) -> str:
    """Pick the student's answer ``index``; returns its label."""
    wait_text(page, ".st-key-class_question", "Question")
    option = page.locator(".st-key-class_answer [role='radiogroup'] label").nth(index)
    label = str(option.inner_text()).strip().rstrip("\u200b\u200c")  # (the round's tag)
    option.click()
    wait_idle(page)
    return label


def class_with(browser: Any, url: str, query: str, name: str) -> tuple[Any, str, Any]:
    """A teacher's page at ``query`` that started a class, and a phone that joined it as
    ``name``: (teacher, code, student)."""
    teacher = open_page(browser, f"{url}/?{query}")
    teacher.locator(".st-key-class_start button").first.click()
    wait_idle(teacher)
    code = teacher.locator(".lab-class-code").first.inner_text().strip()
    student = student_page(browser, f"{url}/?class={code}", 390, 844)
    join(student, code, name)
    return teacher, code, student


def remove_name(teacher: Any, name: str) -> None:
    """The teacher takes ``name`` off the class: the names box opened, the name chosen in its
    select (none is chosen at first), and Remove this name."""
    picker = teacher.locator(".st-key-class_remove_name").first
    picker.scroll_into_view_if_needed()
    box = picker.get_by_role("combobox").first
    for _ in range(5):  # (a rerun of the names box can take the list away as it opens)
        box.click()
        box.fill(name)  # the list opens as one types
        try:
            teacher.get_by_role("option", name=name).first.click(timeout=2_000)
            break
        except Exception:  # Playwright's TimeoutError: the list closed again
            continue
    wait_idle(teacher)
    assert box.input_value() == name
    # The keyboard, not the pointer: the expander's opening animation can still be moving the
    # button when the pointer comes down on a loaded machine, and the click then lands on the
    # box around it (seen in CI: nothing reached the server). Enter on the focused button is
    # the same click without the geometry.
    teacher.locator(".st-key-class_remove button").first.press("Enter")
    wait_idle(teacher)
