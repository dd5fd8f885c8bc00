"""One grading (app/classroom/core/results.py): on a class recorded through the real room and
store (three questions: one voted twice with confidences, one with a misconception, one revealed
ungraded; a student removed, one answering only round 2), the reveal's counts, Peer
Instruction's share right and switch table, the end-of-class summary and the results CSV say the
same numbers, and those are the answers the class gave. On SQLite and a real redis-server (the
store suite's fixtures), no mock."""

from __future__ import annotations

import csv
import io
from collections import Counter

from app.classroom.core import peer, results
from app.classroom.core.room import Room
from app.classroom.core.summary import summarise
from tests.app.classroom import test_class_store as _suite
from tests.app.classroom.test_class_store import Clock

# the store suite's fixtures: SQLite and a real redis-server, the clock the test moves
redis_url, store_url, store = _suite.redis_url, _suite.store_url, _suite.store
clock, room = _suite.clock, _suite.room

#: What the class answers: question -> rounds -> student number -> (choice, confidence).
ROUNDS = {
    "q1": [
        {0: ("a", "sure"), 1: ("b", "guessing"), 2: ("c", "sure"), 3: ("b", ""), 4: ("a", "")},
        {
            0: ("b", "sure"),
            1: ("b", "sure"),
            2: ("a", "fairly sure"),
            4: ("a", "guessing"),
            5: ("b", ""),
        },
    ],  # fmt: skip
    "q2": [{0: ("x", ""), 1: ("y", "sure"), 2: ("y", "sure"), 5: ("x", "fairly sure")}],
    "q3": [{0: ("m", ""), 3: ("n", "")}],
}
RIGHT = {"q1": ["b"], "q2": ["x"], "q3": []}  # q3: revealed ungraded
CHOICES = {"q1": ["a", "b", "c"], "q2": ["x", "y"], "q3": ["m", "n"]}


def _recorded_class(room: Room, clock: Clock) -> tuple[str, str, list[str]]:
    """The class of :data:`ROUNDS`, recorded through the room's own calls (a minute between
    rounds: they open in order)."""
    teacher = room.start()
    code, secret = teacher.code, teacher.secret
    ids = [room.join(code, f"10.2.0.{n}")[1].id for n in range(6)]
    for question, rounds in ROUNDS.items():
        clock.now += 60
        room.open_question(code, secret, question, f"Which {question}?", CHOICES[question])
        for number, given in enumerate(rounds, start=1):
            clock.now += 60
            if number > 1:
                room.vote_again(code, secret)
            for student, (choice, level) in given.items():
                assert room.answer(code, ids[student], question, number, choice)
                if level:
                    assert room.confidence(code, ids[student], question, number, level)
        room.reveal(code, secret, RIGHT[question], misconceptions={"y": "more-visits"})
        if question == "q1":
            room.remove_student(code, secret, ids[4])  # answers given stay counted
    return code, secret, ids


def _csv(room: Room, code: str, secret: str) -> tuple[list[str], list[list[str]]]:
    rows = list(csv.reader(io.StringIO(room.results_csv(code, secret))))
    return rows[0], rows[1:]


def test_the_reveal_the_switch_the_summary_and_the_csv_read_one_grading(
    room: Room, clock: Clock
) -> None:
    code, secret, ids = _recorded_class(room, clock)
    header, rows = _csv(room, code, secret)
    at = header.index("from_removed")
    graded = results.read_class(room.store, code)
    assert [(r.poll.id, r.poll.round) for r in graded] == [
        ("q1", 1), ("q1", 2), ("q2", 1), ("q3", 1)
    ]  # fmt: skip

    # the reveal's bars and the CSV's round rows: the counts of the answers given
    round_rows = [row for row in rows if row[at + 1] == "round"]
    for found, row in zip(graded, round_rows, strict=True):
        given = ROUNDS[found.poll.id][found.poll.round - 1]
        expected = Counter(choice for choice, _ in given.values())
        tally = room.tally(code, found.poll)
        assert tally == {c: expected[c] for c in CHOICES[found.poll.id]}
        assert found.counts() == tally
        cells = row[5:at]
        pairs = zip(cells[0::2], cells[1::2], strict=True)
        assert {choice: int(n) for choice, n in pairs if choice} == tally
        assert int(row[4]) == sum(tally.values())

    # every answer's grade: the rounds' records, the CSV's student rows, the summary
    names = {s.id: s.name for s in room.store.students(code)}
    by_name = {
        (row[1], row[at + 2]): row[at + 3 :] for row in rows if row[at + 1] == "student"
    }  # (question text, student) -> the student cells
    summary = summarise(room.store, code)
    mark = {True: "yes", False: "no", None: ""}
    for first, last in results.questions(graded):
        question = first.poll.id
        for n, sid in enumerate(ids):
            rounds_given = [r.of(sid) for r in (first, last) if r is not None]
            if not any(rounds_given):
                assert (first.poll.text, names[sid]) not in by_name
                continue
            cells = by_name[(first.poll.text, names[sid])]
            for k, answer in enumerate(rounds_given):
                planted = ROUNDS[question][k].get(n)
                assert (answer.choice if answer else None) == (planted[0] if planted else None)
                right = None if answer is None else answer.right
                if answer is not None and RIGHT[question]:
                    assert right is (answer.choice in RIGHT[question])
                assert cells[3 * k + 2] == mark[right]
                if answer is not None:
                    summary_of = summary.of(sid)
                    assert summary_of is not None
                    (said,) = [
                        g
                        for g in summary_of.answers
                        if g.poll == question and g.round == answer_round(first, last, k)
                    ]
                    assert said.right is right

    # Peer Instruction's share right and switch: the CSV's marks counted
    q1_first, q1_last = results.questions(graded)[0]
    assert q1_last is not None
    for k, found in enumerate((q1_first, q1_last)):
        marks = [cells[3 * k + 2] for (text, _), cells in by_name.items() if text == "Which q1?"]
        assert peer.share_right(found) == (
            marks.count("yes"),
            marks.count("yes") + marks.count("no"),
        )
    moved = peer.switch(q1_first, q1_last)
    switches = Counter(
        cells[-1] for (text, _), cells in by_name.items() if text == "Which q1?" and cells[-1]
    )
    assert (moved.right_right, moved.wrong_right, moved.right_wrong, moved.wrong_wrong) == (
        switches["right->right"],
        switches["wrong->right"],
        switches["right->wrong"],
        switches["wrong->wrong"],
    )
    # and the answers planted: 0 a->b, 1 b->b, 2 c->a, 4 a->a (removed after, still counted)
    assert (moved.right_right, moved.wrong_right, moved.right_wrong, moved.wrong_wrong) == (
        1, 1, 0, 2
    )  # fmt: skip
    assert moved.confidence_before == (2, 0, 1, 1)  # sure 0 2, guessing 1, none 4
    table = peer.by_confidence(q1_last)
    assert sum(table.right) == q1_last.right == 3 and sum(table.wrong) == 2
    assert summary.right == sum(s.right for s in summary.students)
    assert summary.questions == 3


def answer_round(first: results.RoundResults, last: results.RoundResults | None, k: int) -> int:
    """The round number of the k-th round the CSV shows (0: round 1, 1: the last round)."""
    return first.poll.round if k == 0 or last is None else last.poll.round
