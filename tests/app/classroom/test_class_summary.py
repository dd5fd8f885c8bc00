"""The end-of-class summary (app/classroom/core/summary.py) through AppTest over a real SQLite class
store: the poll keeps each wrong choice's misconception at the reveal, the teacher's summary
(container ``class_summary``, then under Past classes) counts students per misconception as
the wrong answers given, and each student's phone lists their own answers, score and
misconceptions with a link to the lesson page. What crosses pages in time is tested in Chromium
(tests/browser/test_class_summary_browser.py)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

import app.classroom.shared as class_view
from app.classroom.core.records import Poll
from app.classroom.core.room import Room
from app.classroom.core.store import SQLiteStore
from app.classroom.core.summary import summarise
from app.quiz.misconceptions import MISCONCEPTIONS
from tests.app_helpers import blocks, fresh, joined_student
from tests.class_fixtures import own_class_store


@pytest.fixture(autouse=True)
def class_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from own_class_store(tmp_path, monkeypatch)


def _text(at: AppTest) -> str:
    return "\n".join(blocks(at))


_student = joined_student


def _answer(at: AppTest, choice: str) -> None:
    at.radio(key="class_answer").set_value(choice).run()
    assert not at.exception


def test_the_summary_counts_the_wrong_answers_given_per_misconception() -> None:
    """Tic-tac-toe seed 0 after 23 iterations: the class's first question is which move
    selection takes at the root; selection takes c3 by Q + bonus while c2 has the highest Q
    (the bonus ignored) and a1 the most visits. Four phones: two say c2, one a1, one c3."""
    teacher = fresh(game="tic_tac_toe", seed="0", steps="23")
    teacher.button(key="class_start").click().run()
    assert not teacher.exception
    code = teacher.session_state["class_teacher"].code
    room = class_view.room()
    poll = room.store.current_poll(code)
    assert poll is not None and poll.choices[0] == "a1" and "c2" in poll.choices
    phones = {name: _student(code, name) for name in ("Ada", "Bo", "Cy", "Di")}
    said = {"Ada": "c2", "Bo": "c2", "Cy": "a1", "Di": "c3"}
    for name, choice in said.items():
        _answer(phones[name], choice)
    teacher.run()
    teacher.button(key="class_reveal").click().run()  # the click: revealed
    assert not teacher.exception
    [revealed] = room.rounds(code, poll.id)
    assert revealed.revealed and revealed.right == ("c3",)
    mistakes = dict(revealed.misconceptions)
    assert mistakes["c2"] == "bonus_ignored" and mistakes["a1"] == "most_visited_highest_q"
    assert "c3" not in mistakes  # the right answer names none

    teacher.button(key="class_end").click().run()
    teacher.button(key="class_end_confirm").click().run()
    assert not teacher.exception
    text = _text(teacher)
    rows = dict(
        re.findall(r'<tr data-misconception="([a-z_]+)"><td>.*?</td><td class="lab-num">(\d+)',
                   text)
    )  # fmt: skip
    assert rows == {"bonus_ignored": "2", "most_visited_highest_q": "1"}, text[-2000:]
    assert "1 question revealed, 4 students answered; 1 of 4 answers right (25%)" in text
    assert '<a class="lab-lesson-link" href="?lesson=phases&amp;page=2">' in text
    summary = summarise(room.store, code)
    wrong = [c for c in said.values() if c != "c3"]
    assert sum(c.times for c in summary.misconceptions) == len(wrong)  # every wrong answer
    assert {c.id: c.students for c in summary.misconceptions} == {
        "bonus_ignored": 2,
        "most_visited_highest_q": 1,
    }
    teacher.button(key="class_summary_close").click().run()
    assert 'data-misconception="bonus_ignored"' in _text(teacher)  # still under Past classes

    # a phone at the end: the class ended, its own answers, score and misconceptions
    ada = phones["Ada"]
    ada.run()
    assert not ada.exception
    mine = _text(ada)
    assert "The class has ended" in mine
    assert "Your answers</b> · Score 0 of 1" in mine and "<b>c2</b> ✗" in mine
    assert 'data-misconception="bonus_ignored"' in mine and "(1 time)" in mine
    assert MISCONCEPTIONS["bonus_ignored"].name in mine
    di = phones["Di"]
    di.run()
    assert "Score 1 of 1" in _text(di) and "None of your answers showed" in _text(di)


def test_a_store_from_before_reads_no_misconceptions(tmp_path: Path) -> None:
    """A poll kept before misconceptions were (its JSON without the key) reads as none, and
    its wrong answers count in the score but name no misconception."""
    store = SQLiteStore(str(tmp_path / "old.db"))
    room = Room(store, clock=lambda: 1000.0)
    teacher = room.start()
    poll = room.open_question(teacher.code, teacher.secret, "q1", "Which?", ("a1", "b1"))
    _, student = room.join(teacher.code, "10.0.0.1", name="Ada")
    room.answer(teacher.code, student.id, poll.id, poll.round, "b1")
    old = json.loads(Poll("q1", 1, "Which?", ("a1", "b1"), 1000.0, True, ("a1",)).to_json())
    del old["misconceptions"]
    assert Poll.from_json(json.dumps(old)).misconceptions == ()
    room.reveal(teacher.code, teacher.secret, ("a1",))  # no misconceptions given
    summary = summarise(store, teacher.code)
    mine = summary.of(student.id)
    assert mine is not None and (mine.right, mine.graded) == (0, 1)
    assert summary.misconceptions == () and mine.misconceptions == ()
    store.close()
