"""The class's one grading: each round's answers read once from the store and each answer graded
once; the reveal's bars (``Room.tally``), Peer Instruction's share right, confidence table and
switch (:mod:`.peer`), the end-of-class summary (:mod:`.summary`) and the results CSV
(``Room.results_csv``) all read these records, so they cannot disagree on who was right.

An answer is graded by its round's right answer(s) once the round is revealed with one
(``Poll.revealed`` and ``Poll.right``); else it is ungraded (``right`` is ``None``): a round
still open, or revealed ungraded (the teacher's page reloaded while it was open). The teacher's
**Close the vote** knows the answer before the reveal: :func:`read_round` takes it as ``right``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from app.classroom.core.records import Poll
from app.classroom.core.store.base import ClassStore

__all__ = ["Graded", "RoundResults", "grade", "questions", "read_class", "read_round"]


@dataclass(frozen=True)
class Graded:
    """One student's answer to one round.

    Attributes:
        student: the student's id.
        choice: the answer given (one of the round's choices, as the store keeps it).
        confidence: the confidence given with it ("" none; a level the room no longer offers is
            kept as given: :mod:`.peer` counts it as none).
        right: whether the answer was right; ``None`` while the round is ungraded.
    """

    student: str
    choice: str
    confidence: str
    right: bool | None


@dataclass(frozen=True)
class RoundResults:
    """One round's answers, graded.

    Attributes:
        poll: the round (the question's id, round, choices, right answers...).
        answers: every answer to it, in the store's order (each student once).
        graded: whether its answers are graded (then every ``Graded.right`` is a bool).
    """

    poll: Poll
    answers: tuple[Graded, ...]
    graded: bool

    def counts(self) -> dict[str, int]:
        """How many chose each choice (every choice of the round listed, in order; an answer
        to a choice the round no longer offers is not counted)."""
        counts = dict.fromkeys(self.poll.choices, 0)
        for answer in self.answers:
            if answer.choice in counts:
                counts[answer.choice] += 1
        return counts

    @property
    def answered(self) -> int:
        """How many answered the round."""
        return len(self.answers)

    @property
    def right(self) -> int:
        """How many answered right (0 while ungraded)."""
        return sum(1 for a in self.answers if a.right)

    def of(self, student: str) -> Graded | None:
        """That student's answer (``None``: they did not answer this round)."""
        return next((a for a in self.answers if a.student == student), None)


def grade(
    poll: Poll,
    answers: dict[str, str],
    confidences: dict[str, str] | None = None,
    right: Iterable[str] | None = None,
) -> RoundResults:
    """``answers`` (student id -> choice) and ``confidences`` (student id -> level) of round
    ``poll`` graded by ``right`` (default: the round's own right answers once revealed)."""
    key = set(poll.right if right is None else right)
    graded = bool(key) and (poll.revealed or right is not None)
    levels = confidences or {}
    return RoundResults(
        poll,
        tuple(
            Graded(sid, choice, levels.get(sid, ""), (choice in key) if graded else None)
            for sid, choice in answers.items()
        ),
        graded,
    )


def read_round(
    store: ClassStore,
    code: str,
    poll: Poll,
    right: Iterable[str] | None = None,
    confidence: bool = True,
) -> RoundResults:
    """Round ``poll`` of class ``code`` read from ``store`` once and graded (:func:`grade`);
    ``confidence`` False leaves the confidences unread (the bars need only the choices)."""
    answers = store.answers(code, poll.id, poll.round)
    levels = store.confidences(code, poll.id, poll.round) if confidence else {}
    return grade(poll, answers, levels, right)


def read_class(store: ClassStore, code: str) -> list[RoundResults]:
    """Every round of class ``code``, in the order they opened, each read once and graded."""
    return [read_round(store, code, poll) for poll in store.polls(code)]


def questions(rounds: Iterable[RoundResults]) -> list[tuple[RoundResults, RoundResults | None]]:
    """Each question's round 1 and its last round after it (``None``: one round only), in the
    order the questions opened."""
    by_question: dict[str, list[RoundResults]] = {}
    for found in rounds:
        by_question.setdefault(found.poll.id, []).append(found)
    pairs: list[tuple[RoundResults, RoundResults | None]] = []
    for found_rounds in by_question.values():
        found_rounds.sort(key=lambda r: r.poll.round)
        pairs.append((found_rounds[0], found_rounds[-1] if len(found_rounds) > 1 else None))
    return pairs
