"""Peer Instruction's numbers: the share right and what to do with it, confidence, the switch.

Pure Python (no Streamlit, no store): the room hands these functions the answers it keeps and
the teacher's page draws what they return. After a vote (Mazur's Peer Instruction) the share of
the class that answered right says what comes next: under :data:`EXPLAIN_BELOW` the teacher
explains, from it up to :data:`MOVE_ON_ABOVE` the class discusses in pairs and votes again, over
it the class moves on. Both thresholds are one setting: these defaults, or the environment
variable ``MCTS_LAB_PEER_THRESHOLDS`` ("35,70": two percentages, the first below the second),
read by :func:`thresholds`.

Every answer may carry a confidence (:data:`CONFIDENCE`: "sure", "fairly sure", "guessing");
:func:`by_confidence` counts right and wrong answers per level (a student "sure" and wrong is
the signal a teacher wants). After a second round :func:`switch` counts who went from right or
wrong in round 1 to right or wrong in the last round.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal


def N_(message: str) -> str:
    """``message`` unchanged, marked for the catalogue (this pure core imports nothing of the
    app: the screen translates it, ``_(level)``)."""
    return message


__all__ = [
    "CONFIDENCE",
    "EXPLAIN_BELOW",
    "MOVE_ON_ABOVE",
    "THRESHOLDS_ENV",
    "ConfidenceTable",
    "Suggestion",
    "Switch",
    "by_confidence",
    "pseudonym",
    "share_right",
    "suggest",
    "switch",
    "thresholds",
]

#: The levels of confidence a student may give with an answer, surest first.
#: (Stored values, in English; a screen shows ``_(level)``.)
CONFIDENCE: tuple[str, ...] = (N_("sure"), N_("fairly sure"), N_("guessing"))
#: Peer Instruction's suggestions (the values :func:`suggest` returns; a screen shows
#: ``_(suggestion)``).
SUGGESTIONS: tuple[str, ...] = (N_("explain"), N_("discuss and vote again"), N_("move on"))
#: Under this share right (a fraction of those who answered): "explain".
EXPLAIN_BELOW = 0.35
#: Over this share right: "move on"; from :data:`EXPLAIN_BELOW` up to it (both included):
#: "discuss and vote again".
MOVE_ON_ABOVE = 0.70
#: The environment variable that sets both thresholds, in percent: ``"35,70"``.
THRESHOLDS_ENV = "MCTS_LAB_PEER_THRESHOLDS"

Suggestion = Literal["explain", "discuss and vote again", "move on"]


def thresholds() -> tuple[float, float]:
    """``(explain below, move on above)`` as fractions: ``MCTS_LAB_PEER_THRESHOLDS`` when it
    holds two percentages ``0 <= a < b <= 100`` ("35,70"), else the defaults (a malformed value
    is ignored: the class goes on with the defaults)."""
    text = os.environ.get(THRESHOLDS_ENV, "").strip()
    if text:
        parts = text.replace(";", ",").split(",")
        try:
            low, high = (float(p) for p in parts)
        except ValueError:
            return EXPLAIN_BELOW, MOVE_ON_ABOVE
        if 0 <= low < high <= 100:
            return low / 100, high / 100
    return EXPLAIN_BELOW, MOVE_ON_ABOVE


def suggest(right: int, answered: int, limits: tuple[float, float] | None = None) -> Suggestion:
    """Peer Instruction's next step for ``right`` right answers of ``answered``: "explain"
    under the first threshold, "move on" over the second, else "discuss and vote again"
    (``limits``: the thresholds, default :func:`thresholds`). No answers count as 0% right."""
    low, high = limits if limits is not None else thresholds()
    share = right / answered if answered > 0 else 0.0
    # compared in whole hundredths: 7 of 20 is 35% exactly, not 0.35000000000000003
    percent = round(share * 100, 6)
    if percent < round(low * 100, 6):
        return "explain"
    if percent > round(high * 100, 6):
        return "move on"
    return "discuss and vote again"


def share_right(answers: Mapping[str, str], right: Iterable[str]) -> tuple[int, int]:
    """(answers that are right, answers) of one round: ``answers`` is student id -> choice."""
    correct = set(right)
    return sum(1 for choice in answers.values() if choice in correct), len(answers)


@dataclass(frozen=True)
class ConfidenceTable:
    """Right and wrong answers of one round per confidence level.

    Attributes:
        right: per level of :data:`CONFIDENCE` (in its order), then "" (no confidence given),
            how many answered right.
        wrong: the same for wrong answers.
    """

    right: tuple[int, ...]
    wrong: tuple[int, ...]

    @property
    def confidently_wrong(self) -> int:
        """Answers "sure" and wrong: the misconceptions a class holds firmly."""
        return self.wrong[0]

    def line(self) -> str:
        """The teacher's line in English ("confidently wrong: 3 · sure and right: 5 · ...");
        the screen shows it in its language (``app.classroom.teacher.vote.confidence_line``)."""
        parts = [f"confidently wrong: {self.wrong[0]}", f"sure and right: {self.right[0]}"]
        for n, level in enumerate(CONFIDENCE[1:], start=1):
            if self.right[n] or self.wrong[n]:
                parts.append(f"{level}: {self.right[n]} right, {self.wrong[n]} wrong")
        if self.right[-1] or self.wrong[-1]:
            parts.append(f"no confidence given: {self.right[-1]} right, {self.wrong[-1]} wrong")
        return " · ".join(parts)


def by_confidence(
    answers: Mapping[str, str], confidences: Mapping[str, str], right: Iterable[str]
) -> ConfidenceTable:
    """Count one round's answers (student id -> choice) by their confidence (student id ->
    level; a level that is not one of :data:`CONFIDENCE` counts as none given) and
    correctness."""
    correct = set(right)
    levels = (*CONFIDENCE, "")
    right_n = [0] * len(levels)
    wrong_n = [0] * len(levels)
    for student, choice in answers.items():
        level = confidences.get(student, "")
        at = levels.index(level) if level in CONFIDENCE else len(levels) - 1
        if choice in correct:
            right_n[at] += 1
        else:
            wrong_n[at] += 1
    return ConfidenceTable(tuple(right_n), tuple(wrong_n))


@dataclass(frozen=True)
class Switch:
    """Who changed their mind between round 1 and the last round of one question, counting the
    students who answered both.

    Attributes:
        right_right, wrong_right, right_wrong, wrong_wrong: how many went from right (or wrong)
            in round 1 to right (or wrong) in the last round.
        confidence_before, confidence_after: per level of :data:`CONFIDENCE` then "" (none
            given), how many of those students gave it in round 1 and in the last round.
    """

    right_right: int
    wrong_right: int
    right_wrong: int
    wrong_wrong: int
    confidence_before: tuple[int, ...]
    confidence_after: tuple[int, ...]

    @property
    def students(self) -> int:
        return self.right_right + self.wrong_right + self.right_wrong + self.wrong_wrong


def switch(
    first: Mapping[str, str],
    last: Mapping[str, str],
    right: Iterable[str],
    confidence_first: Mapping[str, str] | None = None,
    confidence_last: Mapping[str, str] | None = None,
) -> Switch:
    """The switch between two rounds' answers (student id -> choice) graded by ``right``;
    students who answered only one of the two rounds are not counted."""
    correct = set(right)
    counts = {(True, True): 0, (False, True): 0, (True, False): 0, (False, False): 0}
    levels = (*CONFIDENCE, "")
    before = [0] * len(levels)
    after = [0] * len(levels)
    for student, choice in first.items():
        if student not in last:
            continue
        counts[(choice in correct, last[student] in correct)] += 1
        for table, given in ((before, confidence_first), (after, confidence_last)):
            level = (given or {}).get(student, "")
            table[levels.index(level) if level in CONFIDENCE else len(levels) - 1] += 1
    return Switch(
        right_right=counts[(True, True)],
        wrong_right=counts[(False, True)],
        right_wrong=counts[(True, False)],
        wrong_wrong=counts[(False, False)],
        confidence_before=tuple(before),
        confidence_after=tuple(after),
    )


def pseudonym(order: Sequence[str], student_id: str) -> str:
    """A stable name that says nothing of the student: "Student 7" for the seventh to join
    (``order``: the class's student ids in joining order, removed students too, so a number
    never moves)."""
    try:
        return f"Student {order.index(student_id) + 1}"
    except ValueError:
        return "Student ?"
