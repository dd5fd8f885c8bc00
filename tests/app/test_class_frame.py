"""The frame a teacher publishes (app/classroom/frame.py): written in one place, read in one
place, the wire format every replica shares, and read without failing whatever it holds."""

from __future__ import annotations

import json

from app.classroom.frame import Frame, LessonPage

#: The wire format's keys: a replica of another version reads exactly these.
KEYS = {"stats", "tree", "narration", "lesson", "link", "poll", "last_reveal", "at"}


def _frame() -> Frame:
    return Frame(
        stats="Iteration 3 · 7 nodes",
        tree={"nodes": [{"key": "0", "label": "root"}], "edges": []},
        narration=("Select: X took a1.", "Simulate: a draw."),
        lesson=LessonPage("Exploration · page 1: UCT", "Watch the bonus.\n\nPress Step."),
        link={"game": "tic_tac_toe", "steps": "3"},
        poll="p1",
        last_reveal="p0",
        at=1700000000.25,
    )


def test_a_frame_goes_through_json_and_back_unchanged() -> None:
    frame = _frame()
    data = json.loads(json.dumps(frame.to_dict()))
    assert set(data) == KEYS
    assert Frame.from_dict(data) == frame


def test_the_wire_format_is_plain_json_as_before() -> None:
    data = _frame().to_dict()
    assert data["narration"] == ["Select: X took a1.", "Simulate: a draw."]
    lesson = {"title": "Exploration · page 1: UCT", "text": "Watch the bonus.\n\nPress Step."}
    assert data["lesson"] == lesson
    assert data["link"] == {"game": "tic_tac_toe", "steps": "3"} and data["poll"] == "p1"
    assert Frame().to_dict() == {
        "stats": "", "tree": None, "narration": [], "lesson": None, "link": {},
        "poll": None, "last_reveal": None, "at": 0.0,
    }  # fmt: skip


def test_what_changed_leaves_out_the_time() -> None:
    a, b = _frame(), Frame(**{**_frame().__dict__, "at": 1.0})
    assert a.changed_key() == b.changed_key()
    assert a.changed_key() != Frame(**{**_frame().__dict__, "stats": "Iteration 4"}).changed_key()


def test_a_missing_or_garbled_frame_reads_as_defaults() -> None:
    assert Frame.from_dict(None) == Frame() == Frame.from_dict({}) == Frame.from_dict([1, 2])
    garbled = {
        "stats": None, "tree": "nodes", "narration": "not a list", "lesson": {"text": "no title"},
        "link": {"game": ["x"], "steps": 5, "c": 1.5, "solver": True}, "poll": True,
        "last_reveal": "", "at": "soon", "extra": {"a replica": "of a later version"},
    }  # fmt: skip
    frame = Frame.from_dict(garbled)
    assert frame.stats == "" and frame.tree is None and frame.narration == ()
    assert frame.lesson is None and frame.poll is None and frame.last_reveal is None
    assert frame.link == {"steps": "5", "c": "1.5", "solver": "True"} and frame.at == 0.0


def test_hostile_text_stays_plain_data() -> None:
    hostile = "<img src=x onerror=alert(1)> **bold** [link](javascript:alert(1))"
    frame = Frame.from_dict({"stats": hostile, "narration": [hostile], "link": {"game": hostile}})
    assert frame.stats == hostile and frame.narration == (hostile,)
    assert frame.link == {"game": hostile}  # the page escapes it; links are checked again
