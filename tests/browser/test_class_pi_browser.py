"""Peer Instruction in headless Chromium (issue 33): a teacher in Present mode and four phones,
each its own page and session, through one app server and its SQLite store.

The phones answer with a confidence; **Close the vote** shows the share right and the
suggestion that matches it (the phones say the vote is closed); **Vote again** tells each phone
to talk to a neighbour and shows its round-1 answer; the phones answer again; the reveal's
switch table counts what the phones did; "I'm lost" is counted; the results CSV has a row per
student. Screenshots of each step at 1280x720 (teacher) and 390x844 (a phone) go to the folder
``MCTS_LAB_SHOTS`` names, when it is set (none by default: each costs Chromium's CPU).
"""

from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path
from typing import Any

import pytest

from app.classroom.core import peer
from app.classroom.core.store import open_store
from tests.browser_helpers import BROWSER_TEST, click, open_page, wait_idle
from tests.class_pages import join, student_page, wait_text

pytestmark = BROWSER_TEST

SHOTS = os.environ.get("MCTS_LAB_SHOTS", "")  # a folder for screenshots, when asked


@pytest.fixture(scope="module")
def served(class_server: tuple[str, str]) -> tuple[str, str]:
    return class_server  # (the class modules' server and store: tests/conftest.py)


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        Path(SHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


def _pick(page: Any, key: str, index: int) -> str:
    """Tap option ``index`` of the radio ``key``; its label."""
    option = page.locator(f".st-key-{key} [role='radiogroup'] label").nth(index)
    label = str(option.inner_text()).strip().rstrip("\u200b\u200c")
    option.click()
    wait_idle(page)
    return label


def _room(teacher: Any) -> str:
    return " ".join(teacher.locator(".st-key-class_room").inner_text().split())


def test_close_vote_again_and_the_switch(served: tuple[str, str], browser: Any) -> None:
    app_url, store_url = served
    teacher = open_page(browser, f"{app_url}/?game=tic_tac_toe&seed=3&steps=8&presentation=1")
    teacher.locator(".st-key-class_start button").first.click()
    wait_idle(teacher)
    code = teacher.locator(".lab-class-code").first.inner_text().strip()
    phones = []
    for n in range(4):
        phone = student_page(browser, f"{app_url}/?class={code}", 390, 844)
        join(phone, code, f"Phone {n}")
        phone.locator(".st-key-class_follow").first.wait_for(timeout=15_000)
        phones.append(phone)
    wait_text(teacher, ".lab-class-count", r"4 connected")
    click(teacher, "class_join_toggle")  # the join box gives the tree its place back
    click(teacher, "step")  # the quiz asks: the class's question
    for phone in phones:
        wait_text(phone, ".st-key-class_question", "Question")

    store = open_store(store_url)
    poll = store.current_poll(code)
    assert poll is not None
    first = [0, 0, 1, len(poll.choices) - 1]
    sure = [0, 2, 0, 1]  # sure, guessing, sure, fairly sure
    said = []
    for phone, pick, level in zip(phones, first, sure, strict=True):
        said.append(_pick(phone, "class_answer", pick))
        _pick(phone, "class_confidence", level)
    assert said == [poll.choices[p] for p in first]
    wait_text(teacher, ".lab-class-count", r"round 1: 4 of 4 answered")
    _shot(teacher, "1-teacher-round1-answered-1280x720")
    _shot(phones[0], "1-phone-round1-answered-390x844")
    ids = [s.id for s in store.students(code)]
    assert sorted(store.confidences(code, poll.id, 1).values()) == sorted(
        peer.CONFIDENCE[level] for level in sure
    )

    phones[3].get_by_role("button", name="I'm lost").click()  # one phone is lost
    wait_idle(phones[3])
    wait_text(teacher, ".lab-class-count", r"· 1 lost")

    click(teacher, "class_close")
    wait_text(teacher, ".st-key-class_room", r"Vote closed · Round 1")
    shown = re.search(r"Round 1: (\d) of 4 right \((\d+)%\) → ([a-z ]+)", _room(teacher))
    assert shown is not None
    right_now, percent, step = int(shown.group(1)), int(shown.group(2)), shown.group(3).strip()
    assert step.startswith(peer.suggest(right_now, 4)) and percent == round(100 * right_now / 4)
    asked = " ".join(poll.text.split())
    assert f"Class answers: {asked}" not in _room(teacher)  # the share, not the distribution
    for phone in phones:
        wait_text(phone, ".st-key-class_question", "The vote is closed")
    assert "right" not in phones[0].locator(".st-key-class_question").inner_text().lower()
    _shot(teacher, "2-teacher-closed-1280x720")
    _shot(phones[0], "2-phone-closed-390x844")

    click(teacher, "class_again")
    for phone, mine in zip(phones, said, strict=True):
        wait_text(phone, ".st-key-class_round_banner", rf"You said {re.escape(mine)} in round 1")
        banner = phone.locator(".st-key-class_round_banner").inner_text()
        assert "Round 2: vote again" in banner and "neighbour who answered differently" in banner
        assert "starts empty" in banner
    _shot(teacher, "3-teacher-round2-1280x720")
    _shot(phones[0], "3-phone-round2-banner-390x844")
    second = [1, 1, 0, 1]
    for phone, pick in zip(phones, second, strict=True):
        _pick(phone, "class_answer", pick)
        _pick(phone, "class_confidence", 0)
    wait_text(teacher, ".lab-class-count", r"round 2: 4 of 4 answered")
    _shot(phones[0], "4-phone-round2-answered-390x844")

    click(teacher, "class_reveal")
    teacher.locator(".st-key-class_switch").first.wait_for(timeout=15_000)
    rounds = [p for p in store.polls(code) if p.id == poll.id]
    right = set(rounds[-1].right)
    assert rounds[-1].revealed and right
    # the share Close the vote showed is the reveal's (round 1, graded the same)
    assert right_now == sum(1 for p in first if poll.choices[p] in right)
    ok1 = [poll.choices[p] in right for p in first]
    ok2 = [poll.choices[p] in right for p in second]
    pairs = list(zip(ok1, ok2, strict=True))
    want = {
        "right→right": pairs.count((True, True)),
        "wrong→right": pairs.count((False, True)),
        "right→wrong": pairs.count((True, False)),
        "wrong→wrong": pairs.count((False, False)),
    }
    table = teacher.locator(".st-key-class_switch").first
    for head, n in want.items():
        assert table.locator(f"td[data-switch='{head}']").inner_text().strip() == str(n), head
    assert "after: 4 sure" in " ".join(table.inner_text().split())
    assert peer.suggest(sum(ok2), 4) in _room(teacher)
    _shot(teacher, "5-teacher-switch-1280x720")
    for phone in phones:
        wait_text(phone, ".st-key-class_follow", "Last question:")
    _shot(phones[0], "5-phone-revealed-390x844")
    # the lost count was the screen before the Step's: the Reveal's Step starts afresh
    wait_text(teacher, ".lab-class-count", r"^(?!.*lost).*$")

    with teacher.expect_download() as download:
        teacher.locator(".st-key-class_results button").first.click()
    rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text())))
    per_student = {r["student"]: r for r in rows if r["record"] == "student"}
    names = {s.id: s.name for s in store.students(code)}
    for n, sid in enumerate(ids):
        row = per_student[names[sid]]
        phone_n = int(names[sid].split()[-1])
        assert row["round_1_answer"] == poll.choices[first[phone_n]]
        assert row["round_2_answer"] == poll.choices[second[phone_n]]
        assert row["round_1_confidence"] == peer.CONFIDENCE[sure[phone_n]]
        assert row["round_2_confidence"] == "sure"
        assert row["round_1_right"] == ("yes" if ok1[phone_n] else "no"), n
        assert row["switch"] == "->".join(
            "right" if ok else "wrong" for ok in (ok1[phone_n], ok2[phone_n])
        )
    store.close()
    for page in (teacher, *phones):
        page.close()
