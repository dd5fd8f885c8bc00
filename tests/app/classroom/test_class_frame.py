"""The frame a teacher publishes (app/classroom/core/frame.py): written in one place, read in one
place, the wire format every replica shares, and read without failing whatever it holds."""

from __future__ import annotations

import json
from pathlib import Path

from app.classroom import Room, open_store
from app.classroom.core.frame import Frame, LessonPage

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


def _old_frame_of() -> dict[str, object]:
    """The frame as ``teacher.frame_of`` built it before :class:`Frame` (a dict, keys in this
    order): what a replica of that version still publishes and reads."""
    return {
        "stats": "Iteration 3 · 7 nodes",
        "tree": {"nodes": [{"key": "0", "label": "root"}], "edges": []},
        "narration": ["Select: X took a1.", "Simulate: a draw."],
        "lesson": {"title": "Exploration · page 1: UCT", "text": "Watch the bonus.\n\nPress Step."},
        "link": {"game": "tic_tac_toe", "steps": "3"},
        "poll": "p1",
        "last_reveal": "p0",
        "at": 1700000000.25,
    }


def test_the_stored_text_is_the_old_versions_byte_for_byte(tmp_path: Path) -> None:
    """A mixed set of replicas shares one store: the text a new teacher's page stores is the
    text an old one stored for the same screen, and each version reads the other's."""
    room = Room(open_store(f"sqlite:///{tmp_path / 'classes.db'}"))
    teacher = room.start()
    room.publish(teacher.code, teacher.secret, _frame().to_dict())
    new_text = room.store.frame(teacher.code)
    room.publish(teacher.code, teacher.secret, _old_frame_of())
    old_text = room.store.frame(teacher.code)
    assert new_text is not None and old_text is not None
    assert new_text[1] == old_text[1] == json.dumps(_old_frame_of(), separators=(",", ":"))
    _, data = room.follow(teacher.code, -1)
    assert Frame.from_dict(data) == _frame()  # an old replica's frame, read by this version
    assert list(_frame().to_dict()) == list(_old_frame_of())  # the keys, in the same order


def test_a_frame_from_an_older_or_newer_replica_reads() -> None:
    older = {"stats": "Iteration 2", "tree": _old_frame_of()["tree"], "narration": ["a"]}
    frame = Frame.from_dict(older)  # no lesson, link, poll, last_reveal nor at
    assert frame.stats == "Iteration 2" and frame.narration == ("a",) and frame.tree is not None
    assert frame.lesson is None and frame.link == {} and frame.poll is None
    assert frame.last_reveal is None and frame.at == 0.0
    newer = {**_old_frame_of(), "cursor": {"x": 1}, "stats": {"lines": ["Iteration 3"]}}
    frame = Frame.from_dict(newer)  # a key it does not know is ignored; a changed kind is text
    assert frame.stats == "{'lines': ['Iteration 3']}" and frame.poll == "p1"


def test_a_tree_with_nothing_to_draw_reads_as_none() -> None:
    for tree in ({}, {"nodes": []}, {"nodes": "x"}, {"nodes": {"0": {}}}, ["nodes"], 5):
        assert Frame.from_dict({"tree": tree}).tree is None, tree
    assert Frame.from_dict({"at": 10**400}).at == 0.0  # (no float holds it)
    assert Frame.from_dict({"at": 7}).at == 7.0 and Frame.from_dict({"poll": 3}).poll == "3"


def test_a_damaged_stored_frame_reads_as_nothing_shown(tmp_path: Path) -> None:
    """What the store holds is not a JSON object (a damaged record): the room gives no frame,
    so a phone shows "waiting" until the teacher's next screen, and never fails."""
    room = Room(open_store(f"sqlite:///{tmp_path / 'classes.db'}"))
    teacher = room.start()
    for text in ('{"stats": "Iter', "[1, 2]", '"stats"', "null"):
        version = room.store.publish(teacher.code, text, 0.0)
        assert room.follow(teacher.code, -1) == (version, None), text
