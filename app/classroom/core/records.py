"""The class's records: what the store keeps and the room hands out. Plain frozen data.

Times are seconds since the epoch (``time.time()``), as the store's clock gives them.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from typing import Any

__all__ = ["ClassError", "ClassInfo", "Poll", "Student"]


class ClassError(Exception):
    """A refusal a person reads: a wrong or expired code, a full class, a stale answer.

    ``message`` is one short plain sentence in English with named placeholders (an
    ``N_``-marked message of the catalogue) and ``values`` fill them: ``str(error)`` is the
    English sentence (logs, tests), a page shows it in its reader's language
    (``app.classroom.core.said.refusal``: ``_(message, **values)``, numbers the language's way) and
    escaped. A sentence that counts something (characters, students) is a plural message: the
    pair ``(singular, plural)`` (marked ``Nn_``) as ``message``, its count the value ``n``; the
    page shows ``n_(singular, plural, n, **values)`` (Arabic has six forms) and ``plural`` keeps
    the second form (``None`` for a sentence without a count). Plain data: this pure core
    imports nothing of the app.
    """

    def __init__(self, message: str | tuple[str, str], /, **values: object) -> None:
        self.plural: str | None = None
        if isinstance(message, str):
            self.message = message
        else:
            self.message, self.plural = message
        self.values = values
        english = self.message
        if self.plural is not None and values.get("n") != 1:
            english = self.plural
        super().__init__(english.format_map(values) if values else english)


@dataclass(frozen=True)
class ClassInfo:
    """One class.

    Attributes:
        code: the join code students type (see :mod:`app.classroom.core.codes`).
        created: when the teacher started it.
        active: the teacher's last action (a publish, a question, a reveal): a class idle for
            :data:`app.classroom.core.room.IDLE_SECONDS` takes no new students.
        ended: the teacher pressed End (no more joins or answers; results stay readable).
        version: the published frame's version, 0 before the first; a student's page polls
            it and fetches the frame only when it grew.
    """

    code: str
    created: float
    active: float
    ended: bool
    version: int


@dataclass(frozen=True)
class Student:
    """One student in a class.

    Attributes:
        id: a random token kept in the student's browser session (never shown).
        name: the nickname shown to the class (generated, or typed: plain text, at most 24
            characters).
        joined: when they joined.
        seen: when their page last said it is open (every few seconds while it is).
        removed: the teacher removed the name: the student's page goes back to the join page.
        key: the hash of the browser key the student's browser joined with (its cookie: the
            id alone, in an address, is no one's identity); ``""`` in a record written before
            browser keys (issue 42), whose id alone still finds it.
    """

    id: str
    name: str
    joined: float
    seen: float = 0.0
    removed: bool = False
    key: str = ""

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @staticmethod
    def from_json(text: str) -> Student:
        data = json.loads(text)
        # (a field a newer version added is left out: a replica reads a newer one's records)
        return Student(**{k: v for k, v in data.items() if k in _STUDENT_FIELDS})


_STUDENT_FIELDS = frozenset(f.name for f in fields(Student))


@dataclass(frozen=True)
class Poll:
    """A question as the class answers it: one round of one question.

    Attributes:
        id: the question's id, unique in the class; every round of it shares the id.
        round: 1 for the first vote, 2 after "Vote again", ...
        text: the question, plain text.
        choices: the answers to pick from (labels, unique).
        opened: when this round opened.
        revealed: the teacher revealed it: no more answers; ``right`` and ``summary`` are set.
        right: the right choice(s), known at the reveal.
        summary: what decided it, with the numbers (plain text), known at the reveal.
        rows: a small table of the deciding numbers (a header row, then one row per item).
        misconceptions: (choice, misconception id) for each wrong choice that shows a known
            mistake (``app.quiz.misconceptions``), known at the reveal. A record from before
            reads ``()``.
        closed: the teacher closed the vote (**Close the vote**) before the reveal: no more
            answers or confidences; the phones say so. A record from before reads ``False``.
        facts: the question's words as facts (``app.quiz.records.Question.facts``: the text's
            spec and one spec per choice, JSON data), so that what is shown later (the
            end-of-class summary) reads in each reader's language; ``{}`` when the question
            has none, and for a record from before (its ``text`` is shown then).
    """

    id: str
    round: int
    text: str
    choices: tuple[str, ...]
    opened: float
    revealed: bool = False
    right: tuple[str, ...] = ()
    summary: str = ""
    rows: tuple[tuple[str, ...], ...] = field(default=())
    misconceptions: tuple[tuple[str, str], ...] = ()
    closed: bool = False
    facts: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @staticmethod
    def from_json(text: str) -> Poll:
        data: dict[str, Any] = json.loads(text)
        data["choices"] = tuple(data["choices"])
        data["right"] = tuple(data["right"])
        data["rows"] = tuple(tuple(row) for row in data["rows"])
        data["misconceptions"] = tuple(
            (str(choice), str(mistake)) for choice, mistake in data.get("misconceptions", ())
        )
        facts = data.get("facts")
        data["facts"] = facts if isinstance(facts, dict) else {}
        return Poll(**data)
