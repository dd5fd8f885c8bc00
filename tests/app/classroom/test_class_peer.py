"""Peer Instruction in a class's store and rules (issue 33): confidence kept with the answer,
Close the vote, the suggestion by the share right, the switch between rounds, "I'm lost" per
screen, the results CSV per student. On SQLite and a real redis-server (the store suite's
fixtures), no mock."""

from __future__ import annotations

import csv
import io
import sqlite3
from pathlib import Path

import pytest

from app.classroom.core import peer, results
from app.classroom.core.records import ClassError, Poll
from app.classroom.core.room import ANSWER_LIMIT, Room, screen_key
from app.classroom.core.store import open_store
from tests.app.classroom import test_class_store as _suite
from tests.app.classroom.test_class_store import Clock

# the store suite's fixtures: SQLite and a real redis-server, the clock the test moves
redis_url, store_url, store = _suite.redis_url, _suite.store_url, _suite.store
clock, room = _suite.clock, _suite.room


@pytest.mark.parametrize(
    ("right", "answered", "expected"),
    [
        (34, 100, "explain"),
        (35, 100, "discuss and vote again"),
        (7, 20, "discuss and vote again"),  # 35% exactly, whatever the float says
        (70, 100, "discuss and vote again"),
        (71, 100, "move on"),
        (0, 0, "explain"),
        (3, 3, "move on"),
    ],
)
def test_the_suggestion_follows_the_share_right(right: int, answered: int, expected: str) -> None:
    assert peer.suggest(right, answered, (0.35, 0.70)) == expected


def test_the_thresholds_are_one_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(peer.THRESHOLDS_ENV, raising=False)
    assert peer.thresholds() == (0.35, 0.70)
    assert peer.suggest(36, 100) == "discuss and vote again"
    monkeypatch.setenv(peer.THRESHOLDS_ENV, "40,80")
    assert peer.thresholds() == (0.40, 0.80)
    assert peer.suggest(36, 100) == "explain" and peer.suggest(75, 100) != "move on"
    for bad in ("80,40", "x,y", "35", "-5,70", "35,170"):
        monkeypatch.setenv(peer.THRESHOLDS_ENV, bad)
        assert peer.thresholds() == (0.35, 0.70), bad


def _revealed(right: str, round_: int = 1) -> Poll:
    """A round of a question with choices x, y, z, revealed with ``right``."""
    return Poll(id="q", round=round_, text="Which?", choices=("x", "y", "z"), opened=0.0,
                revealed=True, right=(right,))  # fmt: skip


def test_the_switch_counts_from_known_answers() -> None:
    first = {"a": "x", "b": "x", "c": "y", "d": "y", "e": "z", "f": "x"}
    last = {"a": "y", "b": "x", "c": "y", "d": "z", "e": "y", "g": "y"}  # f and g: one round
    conf1 = {"a": "sure", "b": "guessing", "c": "sure", "d": "fairly sure"}
    conf2 = {"a": "sure", "b": "sure", "c": "sure", "d": "sure", "e": "guessing"}
    moved = peer.switch(
        results.grade(_revealed("y"), first, conf1), results.grade(_revealed("y", 2), last, conf2)
    )
    # a x->y wrong->right, b x->x wrong->wrong, c y->y right->right, d y->z right->wrong,
    # e z->y wrong->right
    assert (moved.right_right, moved.wrong_right, moved.right_wrong, moved.wrong_wrong) == (
        1,
        2,
        1,
        1,
    )
    assert moved.students == 5
    assert moved.confidence_before == (2, 1, 1, 1)  # sure a c, fairly d, guessing b, none e
    assert moved.confidence_after == (4, 0, 1, 0)


def test_correctness_by_confidence() -> None:
    answers = {"a": "x", "b": "y", "c": "x", "d": "x", "e": "y"}
    levels = {"a": "sure", "b": "sure", "c": "sure", "d": "guessing", "e": "bogus"}
    table = peer.by_confidence(results.grade(_revealed("y"), answers, levels))
    assert table.right == (1, 0, 0, 1) and table.wrong == (2, 0, 1, 0)
    assert table.confidently_wrong == 2
    assert table.line() == (
        "confidently wrong: 2 · sure and right: 1 · guessing: 0 right, 1 wrong"
        " · no confidence given: 1 right, 0 wrong"
    )


def _class(room: Room, n: int) -> tuple[str, str, list[str], Poll]:
    teacher = room.start()
    ids = [room.join(teacher.code, f"10.1.0.{i}")[1].id for i in range(n)]
    poll = room.open_question(teacher.code, teacher.secret, "q1", "Which?", ["a1", "b2", "c3"])
    return teacher.code, teacher.secret, ids, poll


def test_confidence_is_kept_with_the_answer_until_the_vote_closes(room: Room) -> None:
    code, secret, ids, poll = _class(room, 3)
    assert room.answer(code, ids[0], "q1", 1, "a1")
    assert room.confidence(code, ids[0], "q1", 1, "sure")
    assert room.confidence(code, ids[1], "q1", 1, "guessing")  # before an answer: kept too
    assert room.confidence(code, ids[1], "q1", 1, "fairly sure")  # changed
    assert room.confidence(code, ids[2], "q1", 1, "guessing")
    assert room.confidence(code, ids[2], "q1", 1, None)  # taken back
    with pytest.raises(ClassError, match="confidence levels"):
        room.confidence(code, ids[0], "q1", 1, "<b>very</b>")
    with pytest.raises(ClassError):  # only the teacher reads them before the reveal
        room.confidences(code, poll)
    assert room.confidences(code, poll, secret) == {ids[0]: "sure", ids[1]: "fairly sure"}
    assert room.my_confidence(code, ids[0], poll) == "sure"
    closed = room.close_vote(code, secret)
    assert closed.closed and not closed.revealed
    assert not room.answer(code, ids[1], "q1", 1, "b2")  # closed: quietly refused
    assert not room.confidence(code, ids[0], "q1", 1, "guessing")
    assert room.my_confidence(code, ids[0], closed) == "sure"
    assert room.count(code).answered == 1
    with pytest.raises(ClassError):
        room.close_vote(code, "not the secret")
    again = room.vote_again(code, secret)  # after a close: round 2 takes answers
    assert (again.round, again.closed) == (2, False)
    assert room.answer(code, ids[1], "q1", 2, "b2")
    shown = room.reveal(code, secret, ["b2"])
    assert room.confidences(code, shown) == {}  # round 2's own (none given)
    with pytest.raises(ClassError):
        room.close_vote(code, secret)  # revealed: nothing to close


def test_confidence_counts_against_the_answer_limit(room: Room) -> None:
    code, _, ids, _ = _class(room, 1)
    limit, _ = ANSWER_LIMIT
    for n in range(limit):
        room.confidence(code, ids[0], "q1", 1, peer.CONFIDENCE[n % 3])
    with pytest.raises(ClassError, match="Too many"):
        room.answer(code, ids[0], "q1", 1, "a1")


def test_lost_is_counted_per_screen_and_reset_by_the_next(room: Room, clock: Clock) -> None:
    code, secret, ids, _ = _class(room, 4)
    screen = {"stats": "Iteration 12", "narration": ["x"], "lesson": None, "tree": None}
    room.publish(code, secret, {**screen, "poll": "q1"})
    key = screen_key(screen)
    assert room.lost(code, ids[0]) == key
    room.lost(code, ids[1])
    room.lost(code, ids[1])  # twice is once
    assert room.count(code, key).lost == 2
    assert room.is_lost(code, ids[1], key) and not room.is_lost(code, ids[2], key)
    room.lost(code, ids[0], lost=False)
    assert room.count(code, key).lost == 1
    room.remove_student(code, secret, ids[1])  # a removed name is not counted
    assert room.count(code, key).lost == 0
    room.lost(code, ids[2])
    # the same screen with the question revealed: the same key, the count stays
    room.publish(code, secret, {**screen, "poll": None, "last_reveal": "q1", "at": 5.0})
    assert room.count(code, key).lost == 1
    # a Step: a new screen, nobody lost on it
    step = {**screen, "stats": "Iteration 13"}
    room.publish(code, secret, step)
    assert screen_key(step) != key and room.count(code, screen_key(step)).lost == 0
    assert room.count(code).lost == 0  # (no screen asked: not counted)
    limit, _ = ANSWER_LIMIT
    with pytest.raises(ClassError, match="Too many"):
        for _ in range(limit + 1):
            room.lost(code, ids[3])


def test_results_csv_per_student_named_or_anonymous(room: Room) -> None:
    code, secret, ids, poll = _class(room, 4)
    for sid, choice, level in zip(
        ids, ["a1", "b2", "c3", "b2"], ["sure", "guessing", "sure", ""], strict=True
    ):
        room.answer(code, sid, "q1", 1, choice)
        if level:
            room.confidence(code, sid, "q1", 1, level)
    room.close_vote(code, secret)
    room.vote_again(code, secret)
    second = (["b2", "b2", "a1"], ["sure", "sure", "fairly sure"])
    for sid, choice, level in zip(ids[:3], *second, strict=True):
        room.answer(code, sid, "q1", 2, choice)
        room.confidence(code, sid, "q1", 2, level)
    room.reveal(code, secret, ["b2"])
    order = [s.id for s in room.store.students(code)]  # joining order (Redis: same-second ties
    names = {s.id: s.name for s in room.store.students(code)}  # by id)
    expected = {
        ids[0]: ["a1", "sure", "no", "b2", "sure", "yes", "wrong->right"],
        ids[1]: ["b2", "guessing", "yes", "b2", "sure", "yes", "right->right"],
        ids[2]: ["c3", "sure", "no", "a1", "fairly sure", "no", "wrong->wrong"],
        ids[3]: ["b2", "", "yes", "", "", "", ""],
    }
    for anonymous in (False, True):
        rows = list(csv.reader(io.StringIO(room.results_csv(code, secret, anonymous))))
        header = rows[0]
        assert header[:5] == ["opened_utc", "question", "round", "right", "answered"]
        at = header.index("from_removed")
        assert header[at + 1 :] == [
            "record", "student", "round_1_answer", "round_1_confidence", "round_1_right",
            "round_2_answer", "round_2_confidence", "round_2_right", "switch",
        ]  # fmt: skip
        per_round = [r for r in rows[1:] if r[at + 1] == "round"]
        assert [(r[2], r[4]) for r in per_round] == [("1", "4"), ("2", "3")]
        per_student = [r[at + 2 :] for r in rows[1:] if r[at + 1] == "student"]
        assert per_student == [
            [f"Student {n + 1}" if anonymous else names[sid], *expected[sid]]
            for n, sid in enumerate(order)
        ]
        assert all(r[1] == poll.text and r[3] == "b2" for r in rows[1:])
        assert all(len(r) == len(header) for r in rows)


def test_a_store_from_before_confidence_still_reads(tmp_path: Path) -> None:
    """A SQLite file made before the confidences and lost tables, with a poll record without
    ``closed``: opened by this version, everything reads and the new tables appear."""
    path = tmp_path / "old.db"
    db = sqlite3.connect(path)
    db.executescript(
        """CREATE TABLE classes (code TEXT PRIMARY KEY, secret_hash TEXT NOT NULL,
        created REAL NOT NULL, active REAL NOT NULL, ended INTEGER NOT NULL DEFAULT 0,
        version INTEGER NOT NULL DEFAULT 0, frame TEXT NOT NULL DEFAULT '',
        poll_id TEXT NOT NULL DEFAULT '', poll_round INTEGER NOT NULL DEFAULT 0);
        CREATE TABLE polls (code TEXT NOT NULL, id TEXT NOT NULL, round INTEGER NOT NULL,
        opened REAL NOT NULL, record TEXT NOT NULL, PRIMARY KEY (code, id, round));
        CREATE TABLE answers (code TEXT NOT NULL, poll TEXT NOT NULL, round INTEGER NOT NULL,
        student TEXT NOT NULL, choice TEXT NOT NULL, at REAL NOT NULL,
        PRIMARY KEY (code, poll, round, student));"""
    )
    old = (
        '{"id": "q1", "round": 1, "text": "Which?", "choices": ["a", "b"], "opened": 1.0,'
        ' "revealed": false, "right": [], "summary": "", "rows": []}'
    )
    db.execute("INSERT INTO classes (code, secret_hash, created, active, poll_id, poll_round) "
               "VALUES ('ABCDEF', 'x', 1, 1, 'q1', 1)")  # fmt: skip
    db.execute("INSERT INTO polls VALUES ('ABCDEF', 'q1', 1, 1.0, ?)", (old,))
    db.execute("INSERT INTO answers VALUES ('ABCDEF', 'q1', 1, 's1', 'a', 1.0)")
    db.commit()
    db.close()
    opened = open_store(f"sqlite:///{path}")
    try:
        poll = opened.current_poll("ABCDEF")
        assert poll is not None and poll.closed is False
        assert opened.answers("ABCDEF", "q1", 1) == {"s1": "a"}
        assert opened.confidences("ABCDEF", "q1", 1) == {}
        assert opened.lost("ABCDEF", "k") == set()
        opened.put_confidence("ABCDEF", "q1", 1, "s1", "sure")
        assert opened.confidences("ABCDEF", "q1", 1) == {"s1": "sure"}
    finally:
        opened.close()
