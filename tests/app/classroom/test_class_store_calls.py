"""The class store's calls counted (issue 42, scale): a counting proxy around the store of a
real class (SQLite, AppTest pages) counts what a student's answer and a teacher's Step cost.
A Step's calls must not grow with the class (no read per student), and each has a budget."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("streamlit")

import app.classroom.shared as class_view
from tests.app_helpers import blocks, fresh, joined_student
from tests.class_fixtures import own_class_store


@pytest.fixture(autouse=True)
def class_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from own_class_store(tmp_path, monkeypatch)


class Counting:
    """The store, with every public call counted by method name."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.calls: Counter[str] = Counter()

    def __getattr__(self, name: str) -> Any:
        found = getattr(self._store, name)
        if name.startswith("_") or not callable(found):
            return found

        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls[name] += 1
            return found(*args, **kwargs)

        return call


def _class(students: int) -> tuple[Any, str, list[Any], Counting]:
    teacher = fresh(game="tic_tac_toe", seed="3", steps="8")
    teacher.button(key="class_start").click().run()
    found = re.search(r'class="lab-class-code"[^>]*>([A-Z2-9]{6})<', " ".join(blocks(teacher)))
    assert found is not None and not teacher.exception
    code = found.group(1)
    phones = [joined_student(code, f"P{n}") for n in range(students)]
    room = class_view.room()
    counting = Counting(room.store)
    room.store = counting  # type: ignore[assignment]
    return teacher, code, phones, counting


def _step_calls(students: int) -> Counter[str]:
    teacher, _code, _phones, counting = _class(students)
    teacher.button(key="step").click().run()  # a Step that asks the class a question
    counting.calls.clear()
    teacher.button(key="step").click().run()
    assert not teacher.exception
    class_view.room().store = counting._store  # (the room is the process's: unwrapped)
    return Counter(counting.calls)


def test_a_steps_store_calls_do_not_grow_with_the_class() -> None:
    """The teacher's Step reads the room with a few calls, none per student (a class of 200
    would otherwise make 200 reads a Step)."""
    small, large = _step_calls(1), _step_calls(6)
    assert small == large  # no read per student
    assert sum(small.values()) <= STEP_BUDGET, dict(small)


def test_an_answer_costs_a_few_store_calls() -> None:
    """A student's answer: a handful of calls, one of them a write of its own."""
    teacher, code, phones, counting = _class(2)
    teacher.button(key="step").click().run()
    poll = class_view.room().store.current_poll(code)
    assert poll is not None
    counting.calls.clear()
    class_view.room().answer(code, phones[0].session_state["class_me"].id, poll.id, poll.round,
                             poll.choices[0])  # fmt: skip
    class_view.room().store = counting._store
    assert sum(counting.calls.values()) <= ANSWER_BUDGET, dict(counting.calls)
    assert counting.calls["put_answer"] == 1


def test_a_phones_redraw_for_a_step_costs_a_few_store_calls() -> None:
    """What every student's page costs the store at each Step: its run once the watcher told
    it of the new frame (here the whole page: AppTest runs no fragment alone, so this bounds
    the browser's redraw of the live part from above). The first page of the process to draw
    the new frame reads and decodes it; every other page reads the class's record alone
    (app/classroom/student/shown.py)."""
    teacher, _code, phones, counting = _class(2)
    teacher.button(key="step").click().run()
    for phone in phones:
        phone.run()
    counting.calls.clear()
    teacher.button(key="step").click().run()
    teacher_calls = sum(counting.calls.values())
    runs = []
    for phone in phones:
        counting.calls.clear()
        phone.run()
        runs.append(Counter(counting.calls))
    class_view.room().store = counting._store
    assert not any(phone.exception for phone in phones)
    assert teacher_calls <= STEP_BUDGET
    first, other = runs
    assert (first["frame"], other["frame"]) == (1, 0)  # the frame read once a process
    assert sum(first.values()) <= PHONE_BUDGET + 4, dict(first)
    assert sum(other.values()) <= PHONE_BUDGET, dict(other)
    assert not {"answers", "confidences"} & set(other), dict(other)  # (its own, by key)


#: The budgets, as measured (tic-tac-toe, a question about a move open, SQLite): a teacher's
#: Step 25 calls whatever the class's size (the same with 1 and 6 students), an answer 5 (the
#: class, the student, the open round, the rate limit, the write), a phone's whole-page run
#: after a Step 10 (the first page of a process to draw the new frame 4 more: the class's record
#: again, the frame, its version, the last reveal's rounds); 14 before a page read the frame once
#: a process and its class's record once a run. A change that adds a call fails here: raise
#: the budget with the reason.
STEP_BUDGET = 25
ANSWER_BUDGET = 5
PHONE_BUDGET = 10
