"""The end-of-class summary in headless Chromium: a teacher and four phones (each its own page
and session) through one app server and its SQLite class store. The phones answer the class's
first question (tic-tac-toe seed 0 after 23 iterations: which move selection takes at the root;
c3 by Q + bonus, c2 has the highest Q, a1 the most visits), some wrong; the teacher reveals and
ends the class; the summary (container ``class_summary``) counts each misconception as the
phones answered, and a phone's end view lists its own answer, score and misconception with the
lesson page's link. Screenshots at 1280x720 and 390x844 go to ``$MIS_SHOTS`` when it is set.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.browser_helpers import BROWSER_TEST, click, open_page, wait_idle
from tests.class_pages import join, student_page, wait_text

pytestmark = BROWSER_TEST

SAID = {"Ada": "c2", "Bo": "c2", "Cy": "a1", "Di": "c3"}


@pytest.fixture(scope="module")
def class_url(class_server: tuple[str, str]) -> str:
    return class_server[0]  # (the class modules' server: tests/conftest.py)


def _pick(page: Any, choice: str) -> None:
    """Tap the answer labelled ``choice`` (each round's labels end in an invisible tag)."""
    wait_text(page, ".st-key-class_question", "Question")
    labels = page.locator(".st-key-class_answer [role='radiogroup'] label")
    for n in range(labels.count()):
        if labels.nth(n).inner_text().strip().rstrip("\u200b\u200c") == choice:
            labels.nth(n).click()
            wait_idle(page)
            return
    raise AssertionError(f"no answer {choice!r}")


def _shot(page: Any, name: str) -> None:
    where = os.environ.get("MIS_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / name))


def test_the_summary_counts_what_the_phones_answered(class_url: str, browser: Any) -> None:
    teacher = open_page(browser, f"{class_url}/?game=tic_tac_toe&seed=0&steps=23")
    teacher.locator(".st-key-class_start button").first.click()
    wait_idle(teacher)
    code = teacher.locator(".lab-class-code").first.inner_text().strip()
    phones = {}
    for name in SAID:
        phone = student_page(browser, f"{class_url}/?class={code}", 390, 844)
        join(phone, code, name)
        phone.locator(".st-key-class_follow").first.wait_for(timeout=15_000)
        phones[name] = phone
    for name, choice in SAID.items():
        _pick(phones[name], choice)
    wait_text(teacher, ".lab-class-count", r"round 1: 4 of 4 answered")

    click(teacher, "class_reveal")
    wait_text(teacher, ".lab-quiz", r"Class: 1 of 4 right")
    _shot(teacher, "teacher_reveal_1280x720.png")
    teacher.locator(".st-key-class_end button:visible").first.click()
    wait_idle(teacher)
    teacher.locator(".st-key-class_end_confirm button:visible").first.click()
    wait_idle(teacher)
    box = teacher.locator(".st-key-class_summary").first
    box.wait_for(timeout=15_000)
    counts = {
        row.get_attribute("data-misconception"): [
            int(cell.inner_text()) for cell in row.locator("td.lab-num").all()
        ]
        for row in box.locator("tr[data-misconception]").all()
    }
    wrong = [c for c in SAID.values() if c != "c3"]
    assert counts == {"bonus_ignored": [2, 2], "most_visited_highest_q": [1, 1]}, counts
    assert sum(times for _, times in counts.values()) == len(wrong)  # every wrong answer once
    assert "1 of 4 answers right (25%)" in box.inner_text()
    link = box.locator("tr[data-misconception='bonus_ignored'] a").first
    assert link.get_attribute("href") == "?lesson=phases&page=2"
    assert box.bounding_box()["y"] + 40 < 720  # the summary starts inside the projector's view
    _shot(teacher, "teacher_summary_1280x720.png")
    for name in ("Bo", "Cy"):  # (done: each open page costs Chromium's CPU while it waits)
        phones.pop(name).close()

    ada = phones["Ada"]
    mine = ada.locator(".st-key-class_my_summary").first
    mine.wait_for(timeout=20_000)  # the watcher tells the phone the class ended
    text = " ".join(mine.inner_text().split())
    assert "Score 0 of 1" in text and "c2 ✗" in text
    assert "the exploration bonus ignored (1 time)" in text
    assert mine.locator("a").first.get_attribute("href") == "?lesson=phases&page=2"
    assert ada.evaluate("document.documentElement.scrollWidth") <= 390  # no sideways scroll
    mine.scroll_into_view_if_needed()
    _shot(ada, "phone_end_390x844.png")
    di = phones["Di"].locator(".st-key-class_my_summary").first
    di.wait_for(timeout=20_000)
    assert re.search(r"Score 1 of 1", di.inner_text())
    for page in (teacher, phones.pop("Di")):
        page.close()

    mine.locator("a").first.click()  # the pointer opens the lesson page
    ada.wait_for_selector("g.tv-node", timeout=60_000)
    wait_idle(ada)
    assert "Selection: Q plus a bonus" in ada.locator("body").inner_text()
    _shot(ada, "phone_lesson_page_390x844.png")
    ada.close()
