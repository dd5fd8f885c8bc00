"""Class on tree (``class_heat``) through AppTest, over a real SQLite class store: off by default
(nothing drawn, nothing published), on it draws the counts the class gave on the teacher's tree,
the frame the phones get has none of it before the reveal, and after the reveal the move
selection took is marked right on the teacher's tree (the phones' start the next question clean).
Answers are given through the room (what a phone's tap
sends); the taps themselves are tested in Chromium (tests/browser/test_class_tap_browser.py)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

import app.classroom.shared as class_view
from tests.app_helpers import fresh
from tests.class_fixtures import own_class_store


@pytest.fixture(autouse=True)
def class_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from own_class_store(tmp_path, monkeypatch)


def _tree(at: AppTest) -> dict[str, Any]:
    """The teacher's tree component's data (its ``view``)."""
    found: list[dict[str, Any]] = []

    def walk(node: object) -> None:
        proto = getattr(node, "proto", None)
        if (
            getattr(node, "type", None) == "bidi_component"
            and proto is not None
            and proto.component_name == "mcts_lab_tree_view"
            and proto.id.endswith("tree_view")
        ):
            found.append(json.loads(json.loads(proto.json)))  # (one JSON text: as_json)
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    assert len(found) == 1, len(found)
    return dict(found[0]["view"])


def _heat(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n["label"]: n["heat"] for n in view["nodes"] if n.get("heat") is not None}


def test_class_on_tree_draws_the_class_s_counts_and_the_reveal_marks_the_right_move() -> None:
    teacher = fresh(game="tic_tac_toe", seed="1", steps="30")
    teacher.button(key="class_start").click().run()
    code = teacher.session_state["class_teacher"].code
    room = class_view.room()
    poll = room.store.current_poll(code)
    assert poll is not None and len(poll.choices) == 9  # which move will selection take?
    picked = [poll.choices[4], poll.choices[4], poll.choices[0]]
    for n, label in enumerate(picked):
        _, student = room.join(code, f"10.0.0.{n}", name=f"S{n}", browser=f"b{n}")
        assert room.answer(code, student.id, poll.id, poll.round, label)
    frame = room.follow(code, -1)[1]
    assert frame is not None and frame["moves"]["poll"] == poll.id  # what a phone taps

    teacher.run()
    assert not teacher.exception
    assert teacher.toggle(key="class_heat").value is False
    assert _heat(_tree(teacher)) == {}  # off by default: nothing drawn

    teacher.toggle(key="class_heat").set_value(True).run()
    assert not teacher.exception
    heat = _heat(_tree(teacher))
    assert set(heat) == set(poll.choices)  # every root move, and only them
    assert heat[picked[0]] == {"count": 2, "share": round(2 / 3, 4), "right": None}
    assert heat[picked[2]] == {"count": 1, "share": round(1 / 3, 4), "right": None}
    assert sum(h["count"] for h in heat.values()) == 3
    published = room.follow(code, -1)[1]
    assert published is not None
    assert all(n.get("heat") is None for n in published["tree"]["nodes"])  # not before the reveal

    teacher.button(key="class_reveal").click().run()
    assert not teacher.exception
    [revealed] = [p for p in room.rounds(code, poll.id) if p.revealed]
    right = revealed.right[0]
    heat = _heat(_tree(teacher))
    assert [label for label, h in heat.items() if h["right"]] == [right]
    assert heat[picked[0]]["count"] == 2  # the revealed round, until the next one is answered
    published = room.follow(code, -1)[1]
    assert published is not None
    following = room.store.current_poll(code)  # (the Reveal's Step asked the next question)
    assert following is not None and following.id != poll.id and not following.revealed
    # the phones' tree starts the next question clean: the ✓ is in their last reveal's box
    assert published["poll"] == following.id
    assert all(n.get("heat") is None for n in published["tree"]["nodes"])

    teacher.toggle(key="class_heat").set_value(False).run()
    assert _heat(_tree(teacher)) == {}


def test_a_question_taken_back_mid_round_keeps_its_moves_heat_and_reveal_mark() -> None:
    """The teacher's page comes back mid-question (here another browser by the PIN; a reload
    by the cookie takes the same path): the frame the phones get still carries the question's
    moves (nine tap targets), Class on tree draws the answers given before, and the reveal
    marks the right move on the teacher's tree and the phones' (issue 42: 9 -> 0 before)."""
    teacher = fresh(game="tic_tac_toe", seed="1", steps="30")
    teacher.button(key="class_start").click().run()
    found = teacher.session_state["class_teacher"]
    room = class_view.room()
    poll = room.store.current_poll(found.code)
    assert poll is not None and len(poll.choices) == 9
    for n, label in enumerate([poll.choices[4], poll.choices[0]]):
        _, student = room.join(found.code, f"10.0.0.{n}", name=f"S{n}", browser=f"b{n}")
        assert room.answer(found.code, student.id, poll.id, poll.round, label)

    other = fresh(game="tic_tac_toe", seed="1", steps="30")  # the same screen, a new session
    other.text_input(key="class_resume_code").input(found.code)
    other.text_input(key="class_resume_pin").input(found.pin)
    other.button(key="class_resume").click().run()
    assert not other.exception and other.session_state["class_poll"][0] != 0
    other.toggle(key="class_heat").set_value(True).run()
    assert not other.exception
    frame = room.follow(found.code, -1)[1]
    assert frame is not None and frame["moves"]["poll"] == poll.id
    assert len(frame["moves"]["nodes"]) == 9 and len(frame["moves"]["board"]["taps"]) == 9
    heat = _heat(_tree(other))
    assert {label: h["count"] for label, h in heat.items() if h["count"]} == {
        poll.choices[4]: 1,
        poll.choices[0]: 1,
    }

    other.button(key="class_reveal").click().run()
    assert not other.exception
    [revealed] = [p for p in room.rounds(found.code, poll.id) if p.revealed]
    assert [label for label, h in _heat(_tree(other)).items() if h["right"]] == [revealed.right[0]]
