"""Answer on the thing itself, and the class on the projected tree (issue 33), in headless
Chromium: a teacher's page in Present mode and four phones (390x844), each its own page and
session, through one app server and its SQLite class store.

The phones answer "which move will selection take?" by tapping a move's box in the teacher's
tree (two phones) and its cell on the board under the question (two phones); each phone's kept
answer (the store's, and the radio's) is the move it tapped; the question, the board and the
tree's root row are on the phone's first screen. On the teacher's page **Class on tree**
(``class_heat``) shades the root's moves with the counts the phones gave (the SVG's badges);
the phones' trees have no shading before the reveal; after the Reveal the move selection took
has the ✓, on the teacher's tree and board; the phones' trees start the next question clean.
Screenshots of each step go to ``MCTS_LAB_SHOTS`` (default /work/tmp/tap_shots/) when that
folder exists.
"""

from __future__ import annotations

import base64
import os
import re
from pathlib import Path
from typing import Any

import pytest

from app.classroom import Room, open_store
from tests.browser_helpers import BROWSER_TEST, open_page, wait_idle
from tests.class_pages import join as _join
from tests.class_pages import student_page as _student
from tests.class_pages import wait_text as _wait_text

pytestmark = BROWSER_TEST

SHOTS = Path(os.environ.get("MCTS_LAB_SHOTS", "/work/tmp/tap_shots"))


@pytest.fixture(scope="module")
def store_url(class_server: tuple[str, str]) -> str:
    return class_server[1]  # (the class modules' server and store: tests/conftest.py)


@pytest.fixture(scope="module")
def class_url(class_server: tuple[str, str]) -> str:
    return class_server[0]


def _shot(page: Any, name: str) -> None:
    if SHOTS.is_dir():
        page.screenshot(path=str(SHOTS / f"{name}.png"))


def _heat(page: Any) -> dict[str, tuple[str, bool]]:
    """The teacher's (or a phone's) tree: move label -> (its count badge, its ✓)."""
    found = page.locator("g.tv-node").evaluate_all(
        """els => els.filter(g => g.querySelector('.tv-heat-count')).map(g => [
             g.querySelector('.tv-label').textContent,
             g.querySelector('.tv-heat-count').textContent,
             g.querySelector('.tv-heat-right') !== null])"""
    )
    return {label: (count, right) for label, count, right in found}


def _board_svg(page: Any) -> str:
    """The board tab's picture (an <img> of an SVG data URL) as SVG text."""
    src = page.locator(".st-key-detail_panels img").first.get_attribute("src") or ""
    if src.startswith("data:image/svg+xml;base64,"):
        return base64.b64decode(src.partition("base64,")[2]).decode()
    return src


def _tap_tree(phone: Any, label: str) -> None:
    box = phone.locator(f".st-key-class_tree g.tv-answer[aria-label='answer {label}']").first
    box.click()
    wait_idle(phone)


def _tap_board(phone: Any, label: str) -> None:
    phone.locator(f".st-key-class_board_box [aria-label='answer {label}']").first.click()
    wait_idle(phone)


def _checked(phone: Any) -> str:
    """The phone's radio: the answer it shows as picked (round tag removed)."""
    label = phone.locator(".st-key-class_answer label:has(input:checked)")
    label.first.wait_for(timeout=15_000)
    return str(label.first.inner_text()).strip().rstrip("\u200b\u200c")


def test_phones_answer_by_tapping_and_the_class_is_drawn_on_the_tree(
    class_url: str, store_url: str, browser: Any
) -> None:
    teacher = open_page(browser, f"{class_url}/?game=tic_tac_toe&seed=1&steps=30&presentation=1")
    teacher.locator(".st-key-class_start button").first.click()
    wait_idle(teacher)
    code = teacher.locator(".lab-class-code").first.inner_text().strip()
    teacher.locator(".st-key-class_join_toggle button:visible").first.click()  # the tree back
    wait_idle(teacher)
    phones = []
    for n in range(4):
        phone = _student(browser, f"{class_url}/?class={code}", 390, 844)
        _join(phone, code, f"Tap{n + 1}")
        phones.append(phone)
    _wait_text(teacher, ".lab-class-count", r"4 connected")
    for phone in phones:
        _wait_text(phone, ".st-key-class_question", "Which move will it take next")
        phone.wait_for_selector(".st-key-class_tree g.tv-answer", timeout=15_000)
        phone.wait_for_selector(".st-key-class_board_box [role='button']", timeout=15_000)
        wait_idle(phone)
    room = Room(open_store(store_url))
    poll = room.store.current_poll(code)
    assert poll is not None and len(poll.choices) == 9, poll
    _shot(phones[0], "phone_question_390x844")

    # the question, the board and the tree's root row on the phone's first screen
    phone = phones[0]
    card = phone.locator(".st-key-class_question").first.bounding_box()
    board = phone.locator(".st-key-class_board_box").first.bounding_box()
    tree = phone.locator(".st-key-class_tree").first.bounding_box()
    assert card is not None and board is not None and tree is not None
    assert card["y"] < board["y"] < tree["y"]  # the question, its board, then the tree
    assert board["y"] + board["height"] <= 844, board
    moves_row = phone.locator(".st-key-class_tree g.tv-answer").first.bounding_box()
    assert moves_row is not None and moves_row["y"] + moves_row["height"] <= 844, moves_row
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390

    tapped = {  # two phones on one move in the tree, one on another; one on the board
        "Tap1": ("tree", poll.choices[4]),
        "Tap2": ("tree", poll.choices[4]),
        "Tap3": ("tree", poll.choices[0]),
        "Tap4": ("board", poll.choices[8]),
    }
    for phone, (where, label) in zip(phones, tapped.values(), strict=True):
        (_tap_tree if where == "tree" else _tap_board)(phone, label)
    _wait_text(teacher, ".lab-class-count", r"4 of 4 answered")
    names = {s.id: s.name for s in room.store.students(code)}
    kept = {names[sid]: choice for sid, choice in room.store.answers(code, poll.id, 1).items()}
    assert kept == {name: label for name, (_, label) in tapped.items()}
    for phone, (_, label) in zip(phones, tapped.values(), strict=True):
        assert _checked(phone) == label  # the radio shows the tapped move
    _shot(phones[0], "phone_tapped_tree_390x844")
    _shot(phones[3], "phone_tapped_board_390x844")
    assert phones[0].locator(".st-key-class_tree .tv-my-answer").count() == 1
    assert phones[3].locator(".st-key-class_board_box .bt-chosen").count() == 1

    # off by default: nothing drawn; on: the counts the phones gave, on the right boxes
    assert _heat(teacher) == {}
    teacher.locator(".st-key-class_heat label").first.click()
    wait_idle(teacher)
    teacher.wait_for_selector(".st-key-tree_view .tv-heat-count", timeout=15_000)
    heat = _heat(teacher)
    expected = {label: 0 for label in poll.choices}
    for _, label in tapped.values():
        expected[label] += 1
    chosen = {label: n for label, n in expected.items() if n}  # (no badge where nobody chose)
    assert {label: int(count) for label, (count, _) in heat.items()} == chosen
    assert not any(right for _, right in heat.values())  # nothing marked before the reveal
    for phone in phones:  # the phones never see it before the reveal
        assert phone.locator(".tv-heat").count() == 0
    _shot(teacher, "teacher_heat_1280x720")
    labels = teacher.locator(".st-key-tree_view .tv-label").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().height)"
    )
    assert labels and min(labels) >= 14 * 0.9, labels  # Present mode: labels read at 14 px

    # the Reveal marks the move selection took, on the teacher's tree and on the phones'
    teacher.locator(".st-key-class_reveal button:visible").first.click()
    wait_idle(teacher)
    revealed = next(p for p in room.rounds(code, poll.id) if p.round == 1)
    assert revealed.revealed and len(revealed.right) == 1
    right = revealed.right[0]
    teacher.wait_for_selector(".st-key-tree_view .tv-heat-right", timeout=15_000)
    heat = _heat(teacher)
    assert [label for label, (_, mark) in heat.items() if mark] == [right]
    assert int(heat[right][0]) == expected[right]
    _shot(teacher, "teacher_reveal_1280x720")
    _wait_text(phones[0], ".st-key-class_follow", "Last question")
    # the Reveal's Step asked the next question (about the new node: no move boxes to tap):
    # the phones' trees start it clean, no ✓ nor counts of the last one (issue 42)
    following = room.store.current_poll(code)
    assert following is not None and following.id != poll.id and not following.revealed
    _wait_text(phones[0], ".st-key-class_question", re.escape(following.text[:40]))
    phones[0].wait_for_selector(".st-key-class_follow g.tv-node", timeout=15_000)
    wait_idle(phones[0])
    assert phones[0].locator(".tv-heat-right, .tv-heat-count").count() == 0
    _shot(phones[0], "phone_reveal_390x844")

    # the board tab: the same counts and the ✓ on the board
    teacher.get_by_role("tab", name="Board").click()
    wait_idle(teacher)
    svg = _board_svg(teacher)
    counts = re.findall(r'class="class-heat-count">(\d+)<', svg)
    shown = [n for label, n in expected.items() if n or label == right]
    assert sorted(map(int, counts)) == sorted(shown), counts
    assert svg.count('class="class-heat-right"') == 1
    teacher.locator(".st-key-detail_panels img").first.scroll_into_view_if_needed()
    _shot(teacher, "teacher_board_1280x720")
    for page in (teacher, *phones):
        page.close()
