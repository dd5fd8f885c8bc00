"""The end-of-class summary: every student's answers and score, and the misconceptions the
class's wrong answers showed, each with the lesson page about it.

Pure Python (no Streamlit) over the class store: :func:`summarise` reads every revealed round
and its answers once, graded by :mod:`.results` (:func:`cached_summary` keeps it per frame
version: an ended class's version no longer changes, so its students' phones and the teacher's
page share one reading). A wrong answer counts for the misconception its poll names for that choice
(``Poll.misconceptions``, from ``app.quiz.misconceptions`` at the reveal); every round counts (a
student wrong the same way in round 1 and round 2 shows it twice). :func:`class_html` is the
teacher's table (counts only: no names, it may be projected); :func:`student_html` a student's
own answers, score and misconceptions. Every string in them is escaped. Their words are in the
current language, made when they are shown (the reading is shared by every language): a
question from the facts its poll keeps (``Poll.facts``), the text the store keeps otherwise.
"""

from __future__ import annotations

import functools
import html
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from app.classroom.core import results
from app.classroom.core.room import Room
from app.classroom.core.store import ClassStore
from app.quiz import records
from app.quiz.misconceptions import MISCONCEPTIONS, Misconception
from app.words.i18n import _, decimal, n_, percent

__all__ = [
    "ClassSummary",
    "Given",
    "MisconceptionCount",
    "StudentSummary",
    "cached_summary",
    "choice_words",
    "class_html",
    "student_html",
    "student_view",
    "question_words",
    "summarise",
    "teacher_view",
]

#: A question's text is cut to this many characters in a student's list of answers.
QUESTION_CHARS = 90


@dataclass(frozen=True)
class Given:
    """One answer a student gave to one revealed round.

    Attributes:
        poll: the question's id; ``question`` its text (the teacher's English); ``round`` the
            round.
        choice: the answer given.
        right: whether it was right; ``None`` for a round revealed ungraded.
        misconception: the id of the misconception a wrong answer showed, or ``None``.
        choices: the question's choices; ``facts``: its words' facts as the poll keeps them
            (``{}``: none), so that :func:`question_words` shows it in the reader's language.
    """

    poll: str
    question: str
    round: int
    choice: str
    right: bool | None
    misconception: str | None
    choices: tuple[str, ...] = ()
    facts: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class StudentSummary:
    """One student's class.

    Attributes:
        id: the student's id; ``name`` their nickname (plain text, escape it).
        answers: every answer to a revealed round, in the order the rounds opened.
        right: questions whose last answered round was right; ``graded``: questions answered
            and graded (the score is ``right`` of ``graded``).
        misconceptions: (misconception id, times shown), most shown first.
    """

    id: str
    name: str
    answers: tuple[Given, ...]
    right: int
    graded: int
    misconceptions: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class MisconceptionCount:
    """One misconception in a class: how many ``students`` showed it (each once) and how many
    ``times`` (answers) in all."""

    id: str
    students: int
    times: int


@dataclass(frozen=True)
class ClassSummary:
    """A class's summary.

    Attributes:
        code: the class.
        questions: questions revealed.
        students: every student who answered a revealed round (removed ones too: their
            answers stay counted, as in the results), in joining order.
        misconceptions: per misconception shown, most students first (then most times, then
            the order of ``app.quiz.misconceptions.MISCONCEPTIONS``).
    """

    code: str
    questions: int
    students: tuple[StudentSummary, ...]
    misconceptions: tuple[MisconceptionCount, ...]

    def of(self, student_id: str) -> StudentSummary | None:
        """That student's summary (``None``: they answered no revealed round)."""
        return next((s for s in self.students if s.id == student_id), None)

    @property
    def right(self) -> int:
        """Questions answered right (each student's last answered round), over the class."""
        return sum(s.right for s in self.students)

    @property
    def graded(self) -> int:
        """Questions answered and graded, over the class."""
        return sum(s.graded for s in self.students)


def summarise(store: ClassStore, code: str) -> ClassSummary:
    """The summary of class ``code`` as the store holds it now."""
    rounds = [found for found in results.read_class(store, code) if found.poll.revealed]
    students = store.students(code)
    given: dict[str, list[Given]] = {s.id: [] for s in students}
    for found in rounds:
        poll = found.poll
        mistakes = dict(poll.misconceptions)
        for answer in found.answers:  # graded once, by :mod:`.results`
            mistake = mistakes.get(answer.choice) if answer.right is False else None
            given.setdefault(answer.student, []).append(
                Given(
                    poll.id,
                    poll.text,
                    poll.round,
                    answer.choice,
                    answer.right,
                    mistake,
                    poll.choices,
                    poll.facts,
                )  # fmt: skip
            )
    names = {s.id: s.name for s in students}
    order = list(names) + [sid for sid in given if sid not in names]
    summaries = [_student(sid, names.get(sid, "?"), given[sid]) for sid in order if given[sid]]
    order_of = {mid: n for n, mid in enumerate(MISCONCEPTIONS)}
    shown: Counter[str] = Counter()
    times: Counter[str] = Counter()
    for student in summaries:
        for mid, n in student.misconceptions:
            shown[mid] += 1
            times[mid] += n
    counts = sorted(
        (MisconceptionCount(mid, shown[mid], times[mid]) for mid in shown),
        key=lambda c: (-c.students, -c.times, order_of.get(c.id, len(order_of)), c.id),
    )
    return ClassSummary(code, len({r.poll.id for r in rounds}), tuple(summaries), tuple(counts))


def _student(sid: str, name: str, answers: list[Given]) -> StudentSummary:
    last: dict[str, Given] = {}
    for answer in answers:
        last[answer.poll] = answer  # (rounds in the order they opened: the last one stays)
    graded = [a for a in last.values() if a.right is not None]
    mistakes = Counter(a.misconception for a in answers if a.misconception)
    return StudentSummary(
        sid,
        name,
        tuple(answers),
        sum(1 for a in graded if a.right),
        len(graded),
        tuple(mistakes.most_common()),
    )


@functools.lru_cache(maxsize=32)
def cached_summary(room: Room, code: str, version: int) -> ClassSummary:
    """:func:`summarise`, once per class and frame version in this process (an ended class's
    version stays: every phone of it reads the store once between them)."""
    return summarise(room.store, code)


def teacher_view(room: Room, code: str, secret: str) -> str | None:
    """The teacher's summary of class ``code`` (:func:`class_html`), or ``None`` when
    ``secret`` is not its teacher's or the store no longer keeps it."""
    if not room.is_teacher(code, secret):
        return None
    info = room.store.class_info(code)
    return None if info is None else class_html(cached_summary(room, code, info.version))


def student_view(room: Room, code: str, student_id: str) -> str:
    """A student's own summary of class ``code`` (:func:`student_html`; ``""`` when the store
    no longer keeps the class)."""
    info = room.store.class_info(code)
    if info is None:
        return ""
    return student_html(cached_summary(room, code, info.version), student_id)


# ----------------------------------------------------------------------------- words


def _known(mid: str) -> Misconception | None:
    return MISCONCEPTIONS.get(mid)


def _link(mistake: Misconception) -> str:
    """A link that opens the lesson page (same tab: the class is over)."""
    pointer = mistake.pointer
    return (
        f'<a class="lab-lesson-link" href="{html.escape(pointer.query)}">'
        f"{html.escape(pointer.words)}</a>"
    )


def question_words(answer: Given) -> str:
    """The question of ``answer`` in the current language: made from the facts its poll keeps
    (``Poll.facts``), or the text the store keeps (the teacher's English: a question asked
    without facts, or a poll kept before they were)."""
    try:
        return str(records.question_words(answer.facts, answer.question))
    except Exception:  # (facts that do not read: the stored text stands)
        return answer.question


def choice_words(answer: Given) -> str:
    """The answer given, as the question's choice reads in the current language (a move's
    label stays itself)."""
    try:
        return str(records.choice_words(answer.facts, answer.choices, answer.choice))
    except Exception:
        return answer.choice


def _head(summary: ClassSummary) -> str:
    questions = n_("{n} question revealed", "{n} questions revealed", summary.questions,
                   n=decimal(summary.questions))  # fmt: skip
    students = n_("{n} student answered", "{n} students answered", len(summary.students),
                  n=decimal(len(summary.students)))  # fmt: skip
    if summary.graded:
        # TRANSLATORS: the class's score: "1 of 4 answers right (25%)"; {n} is the answers
        right = n_(
            "{right} of {n} answer right ({share})",
            "{right} of {n} answers right ({share})",
            summary.graded,
            right=decimal(summary.right),
            n=decimal(summary.graded),
            share=percent(summary.right / summary.graded),
        )
    else:
        # TRANSLATORS: the class's score when no answer was graded: "0 of 0 answers right"
        right = n_("{right} of {n} answer right", "{right} of {n} answers right",
                   summary.graded, right=decimal(summary.right),
                   n=decimal(summary.graded))  # fmt: skip
    # TRANSLATORS: the class's summary's title (bold), a class code: "Class ABC123: summary."
    title = html.escape(_("Class {code}: summary.", code=summary.code))
    # TRANSLATORS: the summary's first line after its title: "1 question revealed, 4 students
    # answered; 1 of 4 answers right (25%)."
    said = _("{questions}, {students}; {right}.", questions=questions, students=students,
             right=right)  # fmt: skip
    return f"<b>{title}</b> {html.escape(said)}"


def class_html(summary: ClassSummary) -> str:
    """The teacher's summary: questions, students, the class's score, and per misconception
    the students who showed it, how many times, and the lesson page about it. No names."""
    rows = []
    for count in summary.misconceptions:
        mistake = _known(count.id)
        name = html.escape(mistake.name if mistake else count.id)
        page = _link(mistake) if mistake else ""
        rows.append(
            f'<tr data-misconception="{html.escape(count.id)}"><td>{name}'
            f"{'<br>' + page if page else ''}</td>"
            f'<td class="lab-num">{decimal(count.students)}</td>'
            f'<td class="lab-num">{decimal(count.times)}</td></tr>'
        )
    if rows:
        heads = (
            # TRANSLATORS: a column of the class's summary: each misconception and its lesson page
            html.escape(_("misconception · lesson page")),
            # TRANSLATORS: a column of the class's summary: how many students showed it
            html.escape(_("students")),
            # TRANSLATORS: a column of the class's summary: how many answers showed it
            html.escape(_("times")),
        )
        table = (
            '<table class="lab-summary-table">'
            + "".join(f"<th>{h}</th>" for h in heads).join(("<tr>", "</tr>"))
            + "".join(rows)
            + "</table>"
        )
    else:
        none = html.escape(_("No wrong answer showed a known misconception."))
        table = f'<p class="lab-class-line">{none}</p>'
    return (
        SUMMARY_CSS
        + f'<div class="lab-summary"><p class="lab-class-line">{_head(summary)}</p>{table}</div>'
    )


def _answer_item(answer: Given) -> str:
    text = question_words(answer)
    if len(text) > QUESTION_CHARS:
        text = text[: QUESTION_CHARS - 1] + "…"
    choice = f"<b>{html.escape(choice_words(answer))}</b>"
    mark = "" if answer.right is None else " ✓" if answer.right else " ✗"
    if answer.round > 1:
        # TRANSLATORS: one answer in a student's summary: the question, the answer given (bold
        # HTML) and the round it was given in; a mark ✓ or ✗ may follow
        return _("{question} {choice} (round {round})", question=html.escape(text),
                 choice=choice, round=decimal(answer.round)) + mark  # fmt: skip
    # TRANSLATORS: one answer in a student's summary: the question, then the answer (bold HTML)
    return _("{question} {choice}", question=html.escape(text), choice=choice) + mark


def student_html(summary: ClassSummary, student_id: str) -> str:
    """A student's own summary: their answers (each round's, right or wrong), their score,
    and their misconceptions with what is true instead and the lesson page."""
    mine = summary.of(student_id)
    if mine is None:
        none = html.escape(_("You answered no question that was revealed."))
        return (
            SUMMARY_CSS + f'<div class="lab-my-summary"><p class="lab-class-line">{none}</p></div>'
        )
    items = [f"<li>{_answer_item(answer)}</li>" for answer in mine.answers]
    # TRANSLATORS: a student's summary's heading (bold), before "· Score 1 of 2"
    heading = html.escape(_("Your answers"))
    # TRANSLATORS: a student's score at the end of a class: "Score 1 of 2" (right of graded)
    score = html.escape(_("Score {right} of {graded}", right=decimal(mine.right),
                          graded=decimal(mine.graded)))  # fmt: skip
    parts = [
        f'<p class="lab-class-line"><b>{heading}</b> · {score}</p>',
        f'<ol class="lab-my-answers">{"".join(items)}</ol>',
    ]
    if mine.misconceptions:
        found = []
        for mid, times in mine.misconceptions:
            mistake = _known(mid)
            if mistake is None:
                continue
            bold = "<b>" + html.escape(mistake.name) + "</b>"
            # TRANSLATORS: one misconception in a student's summary: "the exploration bonus
            # ignored (1 time): what is true instead. Read: 3. Whose view?, page 1" ({name} is
            # bold, {link} a link to the lesson page)
            said = n_("{name} ({n} time): {explanation} Read: {link}",
                      "{name} ({n} times): {explanation} Read: {link}", times,
                      n=decimal(times), name=bold,
                      explanation=html.escape(mistake.explanation),
                      link=_link(mistake))  # fmt: skip
            found.append(f'<li data-misconception="{html.escape(mid)}">{said}</li>')
        mistakes_head = html.escape(_("Your misconceptions"))
        parts.append(f'<p class="lab-class-line"><b>{mistakes_head}</b></p>')
        parts.append(f'<ul class="lab-my-mistakes">{"".join(found)}</ul>')
    else:
        none = html.escape(_("None of your answers showed a known misconception."))
        parts.append(f'<p class="lab-class-line">{none}</p>')
    return SUMMARY_CSS + '<div class="lab-my-summary">' + "".join(parts) + "</div>"


#: The summaries' styles (one block, scoped by their classes).
SUMMARY_CSS = """
<style>
.lab-summary-table {border-collapse: collapse; font-size: 0.95rem; margin: 0.2rem 0;}
.lab-summary-table td, .lab-summary-table th {padding: 0.1rem 0.5rem; text-align: left;
  border-bottom: 1px solid #e5e7eb;}
.lab-summary-table td.lab-num {text-align: right;}
.lab-my-answers, .lab-my-mistakes {margin: 0.1rem 0 0.3rem 1.1rem; padding: 0;
  font-size: 0.95rem;}
.lab-lesson-link {color: #1d4ed8; text-decoration: underline;}
</style>
"""
