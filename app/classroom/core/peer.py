"""Peer Instruction's numbers: the share right and what to do with it, confidence, the switch.

Pure Python (no Streamlit, no store): these functions read the rounds :mod:`.results` graded
(each answer graded once) and the teacher's page draws what they return. After a vote (Mazur's
Peer Instruction) the share of the class that answered right says what comes next: under
:data:`EXPLAIN_BELOW` the teacher explains, from it up to :data:`MOVE_ON_ABOVE` the class
discusses in pairs and votes again, over it the class moves on. Both thresholds are one setting:
these defaults, or the environment variable ``MCTS_LAB_PEER_THRESHOLDS`` ("35,70": two
percentages, the first below the second), read by :func:`thresholds`.

Every answer may carry a confidence (:data:`CONFIDENCE`: "sure", "fairly sure", "guessing");
:func:`by_confidence` counts right and wrong answers per level (a student "sure" and wrong is
the signal a teacher wants). After a second round :func:`switch` counts who went from right or
wrong in round 1 to right or wrong in the last round.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from app.classroom.core.results import RoundResults


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


def share_right(round_: RoundResults) -> tuple[int, int]:
    """(answers that are right, answers) of one graded round (:mod:`.results`)."""
    return round_.right, round_.answered


def _level_at(level: str) -> int:
    """The index of ``level`` in :data:`CONFIDENCE` then "" (another level counts as none)."""
    return CONFIDENCE.index(level) if level in CONFIDENCE else len(CONFIDENCE)


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


def by_confidence(round_: RoundResults) -> ConfidenceTable:
    """Count one graded round's answers by their confidence (a level that is not one of
    :data:`CONFIDENCE` counts as none given) and correctness (an ungraded answer counts as
    wrong: the teacher's lines show this table only for a graded round)."""
    right_n = [0] * (len(CONFIDENCE) + 1)
    wrong_n = [0] * (len(CONFIDENCE) + 1)
    for answer in round_.answers:
        (right_n if answer.right else wrong_n)[_level_at(answer.confidence)] += 1
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


def switch(first: RoundResults, last: RoundResults) -> Switch:
    """The switch between a question's round 1 and its last round, each graded by its own
    reveal (:mod:`.results`); students who answered only one of the two rounds, or a round
    still ungraded, are not counted."""
    counts = {(True, True): 0, (False, True): 0, (True, False): 0, (False, False): 0}
    before = [0] * (len(CONFIDENCE) + 1)
    after = [0] * (len(CONFIDENCE) + 1)
    for answer in first.answers:
        later = last.of(answer.student)
        if later is None or answer.right is None or later.right is None:
            continue
        counts[(answer.right, later.right)] += 1
        before[_level_at(answer.confidence)] += 1
        after[_level_at(later.confidence)] += 1
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
