"""The frame: what the teacher's screen publishes to the class and a student's page draws.

Pure (no Streamlit). The teacher's side builds a :class:`Frame` from the screen it drew
(``app.classroom.teacher.frame_of``); :meth:`Frame.to_dict` is the one place it becomes the
plain JSON data the room stores as text (``Room.publish``), and :meth:`Frame.from_dict` the one
place a student's page reads it back (``app.classroom.student``, over ``Room.follow``). The
data's keys and values are the wire format every replica shares: a replica of another version
must still read it, so reading never fails: a key missing or of the wrong kind reads as its
default (each field's below), and a key this version does not know is ignored.

Nothing in a frame is HTML or Markdown: the student's page escapes every string it shows.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Frame", "LessonPage", "LessonRef"]


@dataclass(frozen=True)
class LessonPage:
    """The open lesson page as the projector shows it: ``title`` ("Lesson · page 2: ...") and
    ``text`` (paragraphs separated by blank lines, ending with what to press)."""

    title: str
    text: str


@dataclass(frozen=True)
class LessonRef:
    """The open lesson page as facts: the lesson's name (its file's) and the page's number
    (from 1); a phone reads that page in its own language."""

    name: str
    page: int


@dataclass(frozen=True)
class Frame:
    """One published screen of the teacher's.

    Attributes:
        stats: the teacher's statistics line (iteration, nodes, depth, ...), plain text; read
            as ``""`` when missing, other values as their text.
        tree: the teacher's drawn tree as ``TreeView.to_dict()`` gives it
            (``app.drawing.tree_model``), ready for the tree component; read as ``None``
            (nothing to draw) unless it is an object with a non-empty ``nodes`` list.
        narration: the narration's lines of the entry the teacher shows, plain text; read as
            ``()`` unless it is a list (each line as its text).
        lesson: the lesson page open on the teacher's screen, or ``None`` (also when it has
            no title).
        link: the teacher's shared link's parameters that rebuild the tree (a student's
            "Explore on my own"), names and values as text; read as ``{}`` unless it is an
            object, values that are no text or number dropped; checked again as any link's
            when used.
        poll: the id of the question the class answers now, or ``None`` (also for an empty
            or non-text id). The student's page asks the room for the open question itself.
        last_reveal: the id of the last question the teacher revealed, or ``None`` as for
            ``poll``: the student's page shows whether they were right and the class's bars.
        at: when the teacher's page published it (seconds since the epoch; ``0.0`` when
            missing); not part of what changed (:meth:`changed_key`).
        moves: the open question's answers as moves (``app.classroom.core.moves.MoveMap.to_dict``:
            the tree's boxes and the board's cells a phone taps to answer), or ``None`` (not a
            question about a move); read as ``None`` unless it is an object, and checked again
            by ``MoveMap.from_dict`` when used.

    The facts behind the words (issue 34: a phone renders them in its own language, the
    fields above keep the teacher's text for a replica of an older version and as the
    fallback; each key is written only when set, so a frame without them is stored as an
    older version's):

        said: per line of ``narration``, the facts it was made from
            (``app.classroom.core.said``: an iteration's trace, a phase's result and context, the
            player names and settings; a flip of C) or ``None`` (the teacher's line stands);
            read as ``()`` unless it is a list, each item an object or ``None``.
        numbers: the statistics as numbers (iteration, nodes, depth, rate, the entry shown),
            or ``None``; read as ``None`` unless it is an object.
        lesson_ref: the lesson page as (lesson name, page number), or ``None``; read as
            ``None`` unless a non-empty name and a whole page number from 1.
        question: the open question's facts (its poll id, kind and what renders its words,
            ``app.classroom.teacher.question_facts``), or ``None``; read as ``None`` unless
            it is an object.
        reveal: the last revealed question's facts (as ``question``, with the reveal's
            ``summary`` spec, its table's ``rows`` (a spec per cell), the row ``marked`` and
            ``why``, the quiz kind's English message), or ``None``; read as ``None`` unless it
            is an object.
        tree_words: the drawn tree's words in each language a phone may choose:
            ``{"lang": the teacher's tag, "in": {tag: words}}`` (``app.classroom.core.said``:
            :func:`~app.classroom.core.said.tree_words_of` gives a view's words, each box's label,
            numbers and tooltip by its key; ``tree`` keeps the teacher's geometry and words),
            or ``None``; read as ``None`` unless it is an object, each language checked
            again when shown (:func:`~app.classroom.core.said.tree_in_language`).
    """

    stats: str = ""
    tree: dict[str, Any] | None = None
    narration: tuple[str, ...] = ()
    lesson: LessonPage | None = None
    link: dict[str, str] = field(default_factory=dict)
    poll: str | None = None
    last_reveal: str | None = None
    at: float = 0.0
    moves: dict[str, Any] | None = None
    said: tuple[dict[str, Any] | None, ...] = ()
    numbers: dict[str, Any] | None = None
    lesson_ref: LessonRef | None = None
    question: dict[str, Any] | None = None
    reveal: dict[str, Any] | None = None
    tree_words: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """The wire format: plain JSON data, the keys as every replica reads them (``moves``
        only when there are some: a frame without them is stored as an older version's)."""
        data: dict[str, Any] = {
            "stats": self.stats,
            "tree": self.tree,
            "narration": list(self.narration),
            "lesson": None
            if self.lesson is None
            else {"title": self.lesson.title, "text": self.lesson.text},
            "link": dict(self.link),
            "poll": self.poll,
            "last_reveal": self.last_reveal,
            "at": self.at,
        }
        if self.moves is not None:
            data["moves"] = self.moves
        if any(item is not None for item in self.said):
            data["said"] = list(self.said)
        if self.numbers is not None:
            data["numbers"] = self.numbers
        if self.lesson_ref is not None:
            data["lesson_ref"] = {"name": self.lesson_ref.name, "page": self.lesson_ref.page}
        if self.question is not None:
            data["question"] = self.question
        if self.reveal is not None:
            data["reveal"] = self.reveal
        if self.tree_words is not None:
            data["tree_words"] = self.tree_words
        return data

    def changed_key(self) -> str:
        """What tells one screen from another: everything but the time it was published."""
        return repr({k: v for k, v in self.to_dict().items() if k != "at"})

    @classmethod
    def from_dict(cls, data: object) -> Frame:
        """A frame read back from the wire. Never fails: a key missing or of the wrong kind
        (another replica's version, a damaged record) reads as the field's default."""
        if not isinstance(data, dict):
            return cls()
        tree = data.get("tree")
        narration = data.get("narration")
        lesson = data.get("lesson")
        link = data.get("link")
        return cls(
            stats=_text(data.get("stats")),
            tree=tree if isinstance(tree, dict) and _has_nodes(tree) else None,
            narration=tuple(str(line) for line in narration) if isinstance(narration, list) else (),
            lesson=LessonPage(_text(lesson.get("title")), _text(lesson.get("text")))
            if isinstance(lesson, dict) and lesson.get("title")
            else None,
            link={str(k): str(v) for k, v in link.items() if isinstance(v, str | int | float)}
            if isinstance(link, dict)
            else {},
            poll=_id(data.get("poll")),
            last_reveal=_id(data.get("last_reveal")),
            at=_time(data.get("at")),
            moves=data.get("moves") if isinstance(data.get("moves"), dict) else None,
            said=_said(data.get("said")),
            numbers=_object(data.get("numbers")),
            lesson_ref=_lesson_ref(data.get("lesson_ref")),
            question=_object(data.get("question")),
            reveal=_object(data.get("reveal")),
            tree_words=_object(data.get("tree_words")),
        )


def _object(value: object) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


def _said(value: object) -> tuple[dict[str, Any] | None, ...]:
    if not isinstance(value, list):
        return ()
    return tuple(item if isinstance(item, dict) else None for item in value)


def _lesson_ref(value: object) -> LessonRef | None:
    if not isinstance(value, dict):
        return None
    name, page = value.get("name"), value.get("page")
    if not isinstance(name, str) or not name or isinstance(page, bool):
        return None
    if not isinstance(page, int) or page < 1:
        return None
    return LessonRef(name, page)


def _has_nodes(tree: Mapping[str, object]) -> bool:
    nodes = tree.get("nodes")
    return isinstance(nodes, list) and bool(nodes)


def _text(value: object) -> str:
    return "" if value is None else str(value)


def _time(value: object) -> float:
    """Seconds since the epoch: a number that fits a float; anything else is ``0.0``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return 0.0
    try:
        return float(value)
    except OverflowError:  # (an integer of hundreds of digits)
        return 0.0


def _id(value: object) -> str | None:
    """A poll's id: text (or a number) that is not empty; anything else is none."""
    if isinstance(value, bool) or not isinstance(value, str | int) or value == "":
        return None
    return str(value)
