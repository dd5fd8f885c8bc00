"""Peer Instruction on the class's pages through AppTest (issue 33): confidence on the phone,
Close the vote (the share right before the click, equal to the reveal's), the round-2 banner,
the switch table, "I'm lost" counted and reset by a Step. A real SQLite store; what crosses
pages in time (the watcher) is tested in Chromium (tests/browser/test_class_pi_browser.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

import app.classroom.shared as class_view
from app.classroom.core import peer
from tests.app_helpers import blocks, fresh, joined_student
from tests.class_fixtures import own_class_store


@pytest.fixture(autouse=True)
def class_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from own_class_store(tmp_path, monkeypatch)


def _text(at: AppTest) -> str:
    return " ".join(" ".join(blocks(at)).split())


def _teacher() -> tuple[AppTest, str]:
    at = fresh(game="tic_tac_toe", seed="3", steps="8")
    at.button(key="class_start").click().run()
    found = re.search(r'class="lab-class-code"[^>]*>([A-Z2-9]{6})<', " ".join(blocks(at)))
    assert found is not None and not at.exception
    return at, found.group(1)


_student = joined_student


def test_close_the_vote_shows_the_share_the_reveal_then_grades() -> None:
    teacher, code = _teacher()
    teacher.button(key="step").click().run()  # the quiz asks: the class's question
    room = class_view.room()
    poll = room.store.current_poll(code)
    assert poll is not None and not poll.closed
    phones = [_student(code, f"P{n}") for n in range(4)]
    picks = [0, 0, 1, len(poll.choices) - 1]
    levels = ["sure", "guessing", "sure", None]
    for phone, pick, level in zip(phones, picks, levels, strict=True):
        phone.radio(key="class_answer").set_value(poll.choices[pick]).run()
        if level is not None:
            phone.radio(key="class_confidence").set_value(level).run()
        assert not phone.exception
    ids = [p.session_state["class_me"].id for p in phones]
    assert room.my_confidence(code, ids[0], poll) == "sure"
    assert room.my_confidence(code, ids[3], poll) is None
    teacher.button(key="class_close").click().run()
    assert not teacher.exception
    closed = room.store.current_poll(code)
    assert closed is not None and closed.closed and not closed.revealed
    said = _text(teacher)
    shown_share = r"Vote closed · Round 1: (\d) of 4 right \((\d+)%\) → ([a-z ]+?)(?: ·|<|$)"
    found = re.search(shown_share, said)
    assert found is not None, said[:2000]
    assert "class_switch" not in said
    phones[0].run()
    assert "The vote is closed." in _text(phones[0])
    assert phones[0].radio(key="class_answer").disabled
    phones[1].radio(key="class_answer").set_value(poll.choices[1]).run()  # refused: closed
    assert room.my_answer(code, ids[1], poll) == poll.choices[0]
    teacher.button(key="class_reveal").click().run()
    shown = room.rounds(code, poll.id)[-1]
    assert shown.revealed and shown.right
    right = sum(1 for pick in picks if poll.choices[pick] in shown.right)
    # the share Close the vote showed is the reveal's: the copy ran the iteration the Step ran
    assert int(found.group(1)) == right
    assert found.group(3) == peer.suggest(right, 4)
    after = _text(teacher)
    assert f"Round 1: {right} of 4 right" in after and peer.suggest(right, 4) in after
    wrong_sure = sum(
        1 for pick, level in zip(picks, levels, strict=True)
        if level == "sure" and poll.choices[pick] not in shown.right
    )  # fmt: skip
    assert f"confidently wrong: {wrong_sure}" in after


def test_vote_again_tells_the_phone_and_the_switch_counts_it() -> None:
    teacher, code = _teacher()
    teacher.button(key="step").click().run()
    room = class_view.room()
    poll = room.store.current_poll(code)
    assert poll is not None
    phones = [_student(code, f"P{n}") for n in range(4)]
    for phone, pick in zip(phones, [0, 1, 0, 1], strict=True):
        phone.radio(key="class_answer").set_value(poll.choices[pick]).run()
    teacher.button(key="class_close").click().run()
    teacher.button(key="class_again").click().run()
    assert not teacher.exception
    phones[0].run()
    banner = _text(phones[0])
    assert "Round 2: vote again." in banner
    assert f"You said {poll.choices[0]} in round 1." in banner
    assert "starts empty: choose again" in banner
    assert phones[0].radio(key="class_answer").value is None
    assert not phones[0].radio(key="class_answer").disabled
    second = [1, 1, 0, 0]  # P0 0->1, P1 1->1, P2 0->0, P3 1->0
    for phone, pick in zip(phones, second, strict=True):
        phone.run()  # (the watcher's push, in Chromium)
        phone.radio(key="class_answer").set_value(poll.choices[pick]).run()
        phone.radio(key="class_confidence").set_value("sure").run()
    phones[0].run()
    assert "starts empty" not in _text(phones[0])  # answered: nothing more to say
    teacher.button(key="class_reveal").click().run()
    right = set(room.rounds(code, poll.id)[-1].right)
    ok1 = [poll.choices[p] in right for p in [0, 1, 0, 1]]
    ok2 = [poll.choices[p] in right for p in second]
    want = {
        "right→right": sum(a and b for a, b in zip(ok1, ok2, strict=True)),
        "wrong→right": sum(not a and b for a, b in zip(ok1, ok2, strict=True)),
        "right→wrong": sum(a and not b for a, b in zip(ok1, ok2, strict=True)),
        "wrong→wrong": sum(not a and not b for a, b in zip(ok1, ok2, strict=True)),
    }
    html_text = " ".join(blocks(teacher))
    for head, n in want.items():
        assert f'data-switch="{head}">{n}<' in html_text, (head, n)
    assert "Confidence before: 4 none · after: 4 sure" in _text(teacher)


def test_lost_is_counted_and_a_step_resets_it() -> None:
    teacher, code = _teacher()
    teacher.button(key="step").click().run()
    phones = [_student(code, f"P{n}") for n in range(3)]
    for phone in phones[:2]:
        phone.button(key="class_lost").click().run()
        assert not phone.exception
        said = " ".join(c.value for c in phone.caption)
        assert "the teacher sees how many are lost (not who)" in said
    teacher.run()
    assert "· 2 lost" in _text(teacher)
    assert "P0" not in re.sub(r"Names \(3\).*", "", _text(teacher).split("lost")[0])
    phones[0].run()  # the same screen: the phone still says it was sent
    assert "how many are lost" in " ".join(c.value for c in phones[0].caption)
    teacher.button(key="step").click().run()  # a new screen: nobody lost on it yet
    teacher.run()  # (the count line, every second: it counts on the screen published last)
    assert " lost" not in _text(teacher).split("Class ")[1][:120]
    phones[0].run()  # (the watcher's push): the phone's "Sent" went with the teacher's count
    assert "how many are lost" not in " ".join(c.value for c in phones[0].caption)
    phones[2].button(key="class_lost").click().run()
    teacher.run()
    assert "· 1 lost" in _text(teacher)


def test_the_results_csv_without_names() -> None:
    teacher, code = _teacher()
    teacher.button(key="step").click().run()
    phone = _student(code, "Ada Lovelace")
    poll = class_view.room().store.current_poll(code)
    assert poll is not None
    phone.radio(key="class_answer").set_value(poll.choices[0]).run()
    found = teacher.session_state["class_teacher"]
    room = class_view.room()
    assert teacher.session_state["class_anonymous"] is False  # names by default
    assert ",student,Ada Lovelace," in room.results_csv(code, found.secret, False)
    teacher.toggle(key="class_anonymous").set_value(True).run()
    assert not teacher.exception
    anonymous = teacher.session_state["class_anonymous"]
    text = room.results_csv(code, found.secret, anonymous)
    assert "Ada Lovelace" not in text and ",student,Student 1," in text
