"""A class's rules: who may do what, the limits, and what is counted.

Pure Python over a :class:`~app.classroom.core.store.ClassStore` (no Streamlit): the teacher's page
and the students' pages call a :class:`Room`, and every process sharing the store sees the same
class. Only the holder of the teacher's secret drives a class (publish, questions, reveal,
remove, end, results); a student can join, rename themselves, answer the open round and read
what the class is shown. A refusal a person should read raises :class:`ClassError`; a stale
answer (to a round that closed) is dropped quietly, as a clicker would.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from app.classroom.core import codes, peer, results
from app.classroom.core.records import ClassError, ClassInfo, Poll, Student
from app.classroom.core.store import RETENTION_SECONDS, ClassStore


def N_(message: str) -> str:
    """``message`` unchanged, marked for the catalogue (this pure core imports nothing of the
    app's words: a :class:`ClassError` carries the message and its values, the page shows
    ``_(message, **values)``)."""
    return message


def Nn_(singular: str, plural: str) -> tuple[str, str]:
    """A plural message's two English forms unchanged, marked for the catalogue as one plural
    entry (``scripts/catalogues.py``'s keyword ``Nn_:1,2``): a :class:`ClassError` that
    counts, its count the value ``n`` (the page shows ``n_(singular, plural, n)``)."""
    return singular, plural


__all__ = [
    "ANSWER_LIMIT",
    "CONNECTED_SECONDS",
    "HERE_SECONDS",
    "IDLE_SECONDS",
    "JOIN_LIMIT",
    "WRONG_CODE_LIMIT",
    "MAX_CHOICES",
    "MAX_FRAME_BYTES",
    "MAX_STUDENTS",
    "PIN_LIMIT",
    "ClassError",
    "Room",
    "RoomCount",
    "Teacher",
    "screen_key",
]

#: A class whose teacher did nothing for this long takes no new students or answers.
IDLE_SECONDS = 12 * 3600
#: Students in one class at most.
MAX_STUDENTS = 200
#: Join attempts per browser per window: (attempts, seconds). A student mistyping the code
#: blocks their own browser only.
JOIN_LIMIT = (20, 60.0)
#: Wrong codes per address per window: (codes, seconds). A school's one address holds a whole
#: class (60 students mistyping twice each fit); right codes never count. Past it the address
#: is refused for the window, right codes too (else guessing would go on): one address tries at
#: most 120 of the 31**6 codes (29.7 bits) a minute, ~3.7 million minutes (7 years) on average
#: to find one open class.
WRONG_CODE_LIMIT = (120, 60.0)
#: Wrong teacher PINs typed per address per window: (tries, seconds). Past it the address's
#: typed PINs are refused for the window (a teacher's reload still comes back: it uses the
#: browser's teacher cookie, not a typed PIN). Ten tries in ten minutes against 31**10 PINs
#: (49.5 bits): about 2.7e13 years on average to hit one class's.
PIN_LIMIT = (10, 600.0)
#: Answers per student per window: (answers, seconds). A change of mind is an answer too.
ANSWER_LIMIT = (12, 10.0)
#: How often a student's open page tells the room it is there (seconds): the watcher for the
#: pages it holds (app/classroom/push.py), the page itself where no watcher runs.
HERE_SECONDS = 10.0
#: A student counts as connected while their page said so this recently: three of its
#: :data:`HERE_SECONDS` (one missed, late under load, does not drop them).
CONNECTED_SECONDS = 3 * HERE_SECONDS
#: Choices of one question at most, and one choice's length.
MAX_CHOICES = 12
MAX_CHOICE_CHARS = 80
MAX_QUESTION_CHARS = 600
#: "I'm lost" taps per student per window: (taps, seconds), as answers.
LOST_LIMIT = ANSWER_LIMIT
#: The largest frame the teacher's page publishes (its JSON text, bytes).
MAX_FRAME_BYTES = 2_000_000
#: The largest facts of a question's words a poll keeps (their JSON text, bytes).
MAX_FACTS_BYTES = 20_000
#: What a student's page hears once the teacher removed the name (or never knew it).
NOT_IN_CLASS = N_("You are not in this class (the teacher may have removed the name).")
#: Codes tried before giving up on finding a free one (31**6 codes: never needed in practice).
_CODE_TRIES = 20

_WRONG_CODE = N_("No class with that code is open. Check the code on the projector.")
_NOT_TEACHER = N_("Only the teacher of this class can do that.")
_NOT_TEACHER_KEY = N_("That is not the PIN of a class this store keeps.")
_TOO_MANY_ANSWERS = N_("Too many answers at once. Wait a few seconds.")
#: A typed name refused (``app.classroom.core.codes.NameRefused``'s reason -> the sentence).
_NAME_REFUSED: dict[str, str | tuple[str, str]] = {
    "empty": N_("Name not used: a name needs at least one letter."),
    # TRANSLATORS: {n} is the most characters a name may have (24), {length} this one's
    "long": Nn_(
        "Name not used: a name has at most {n} character; this one has {length}.",
        "Name not used: a name has at most {n} characters; this one has {length}.",
    ),
    "control": N_("Name not used: a name cannot hold control characters."),
}


@dataclass(frozen=True)
class Teacher:
    """A class this browser teaches: its code (public), the teacher's secret (kept in the
    teacher's browser session and teacher cookie only) and the teacher PIN (shown in the
    teacher's sidebar only; ``""`` when this key does not know it: a class started before
    PINs. A class taken back by PIN has the PIN as its secret, and the page keeps it as its
    PIN too)."""

    code: str
    secret: str
    pin: str = ""


@dataclass(frozen=True)
class RoomCount:
    """What the room box shows: students connected now and, for the open round, how many
    answered (never which answers before the reveal).

    Attributes:
        connected: students (not removed) whose page said it is open within
            :data:`CONNECTED_SECONDS`.
        joined: students (not removed) who ever joined.
        answered: answers to the current round by students not removed (0 without a round).
        poll: the current round, or ``None``.
        lost: students (not removed) who said "I'm lost" on the teacher's screen now (0 when
            the count was not asked for a screen).
    """

    connected: int
    joined: int
    answered: int
    poll: Poll | None
    lost: int = 0


def screen_key(frame: dict[str, Any]) -> str:
    """What tells one teacher's screen from the next for "I'm lost": the statistics, the
    narration and the lesson page of a published frame (a Step, a Phase, a new page make a new
    key; a question opened, closed or revealed, or a new round, keep it)."""
    shown = {k: frame.get(k) for k in ("stats", "narration", "lesson")}
    text = json.dumps(shown, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class Room:
    """The rules of every class in ``store``; ``clock`` gives epoch seconds (tests pass their
    own)."""

    def __init__(self, store: ClassStore, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock

    # ------------------------------------------------------------------ anyone

    def info(self, code: str) -> ClassInfo:
        """The class, if it takes part now; :class:`ClassError` for a wrong, ended or idle
        code (one message for all three: a guesser learns nothing)."""
        info = self.store.class_info(code)
        if info is None or info.ended or self.clock() - info.active > IDLE_SECONDS:
            raise ClassError(_WRONG_CODE)
        return info

    def ended_for(self, code: str, student_id: str) -> bool:
        """Whether ``code`` is a class that ended with this student in it. Only a member is
        told that a class ended; a typed code gets :meth:`info`'s one message."""
        info = self.store.class_info(code)
        return info is not None and info.ended and self.store.student(code, student_id) is not None

    def find(self, typed: str) -> str:
        """The open class a typed code names (spaces, dashes and case ignored)."""
        code = codes.normalise_code(typed)
        if code is None:
            raise ClassError(_WRONG_CODE)
        self.info(code)
        return code

    def version(self, code: str) -> int | None:
        """The published frame's version (``None``: no such class): a student's page asks this
        every second, one indexed read."""
        return self.store.version(code)

    def follow(self, code: str, known: int) -> tuple[int, dict[str, Any] | None]:
        """The frame the class is shown when it is newer than version ``known``: ``(version,
        data)``, the published JSON object as :meth:`publish` stored it (a student's page reads
        it with ``app.classroom.core.frame.Frame.from_dict``), or ``(version, None)`` when nothing
        changed or what is stored is no JSON object (a damaged record shows nothing until the
        teacher's next screen, it never fails a page)."""
        version = self.store.version(code)
        if version is None:
            raise ClassError(_WRONG_CODE)
        if version == known:
            return version, None
        found = self.store.frame(code)
        if found is None or not found[1]:
            return (found[0] if found else version), None
        try:
            data = json.loads(found[1])
        except ValueError:
            return found[0], None
        return found[0], (data if isinstance(data, dict) else None)

    def count(self, code: str, screen: str | None = None) -> RoomCount:
        """The room box's numbers; ``screen`` (:func:`screen_key` of the teacher's screen now):
        also how many are lost on it."""
        now = self.clock()
        present = [s for s in self.store.students(code) if not s.removed]
        connected = sum(1 for s in present if now - s.seen <= CONNECTED_SECONDS)
        poll = self.store.current_poll(code)
        ids = {s.id for s in present}
        answered = 0
        if poll is not None:
            answered = sum(1 for sid in self.store.answers(code, poll.id, poll.round) if sid in ids)
        lost = len(self.store.lost(code, screen) & ids) if screen else 0
        return RoomCount(connected, len(present), answered, poll, lost)

    def tally(self, code: str, poll: Poll, secret: str | None = None) -> dict[str, int]:
        """How many chose each choice of ``poll`` (every choice listed, in order). Before the
        reveal only the teacher may read it (seeing the first vote biases the discussion).

        A student the teacher removed keeps the answers given before: removal stops their
        future answers (:meth:`answer` refuses them), it does not rewrite a round's count."""
        if not poll.revealed:
            self._teacher(code, secret)
        return results.read_round(self.store, code, poll, confidence=False).counts()

    def rounds(self, code: str, poll_id: str) -> list[Poll]:
        """Every round of one question, first first."""
        return [p for p in self.store.polls(code) if p.id == poll_id]

    # ----------------------------------------------------------------- teacher

    def start(self) -> Teacher:
        """A new class with a fresh code, secret and PIN; old classes are deleted on the way."""
        now = self.clock()
        self.store.purge(now - RETENTION_SECONDS)
        secret, pin = codes.new_secret(), codes.new_pin()
        for _ in range(_CODE_TRIES):
            code = codes.new_code()
            if self.store.create_class(code, codes.credentials_hash(secret, pin), now):
                return Teacher(code, secret, pin)
        raise ClassError(N_("No free class code was found. Try again."))

    def claim(self, code: str, secret: str) -> ClassInfo:
        """The class ``code`` (open or ended, while the store keeps it) for the holder of its
        secret or PIN: a reload's teacher cookie. :class:`ClassError` otherwise, one message
        for a wrong code and a wrong secret."""
        info = self.store.class_info(code)
        if info is None or not self.is_teacher(code, secret):
            raise ClassError(_NOT_TEACHER_KEY)
        return info

    def claim_by_pin(
        self, typed_code: str, typed_pin: str, client: str
    ) -> tuple[Teacher, ClassInfo]:
        """The teacher of ``typed_code`` again, in another browser, by the PIN their sidebar
        showed: ``(teacher, class)`` with the PIN as the secret. Wrong PINs count against the
        ``client`` address (:data:`PIN_LIMIT`); past it every typed PIN is refused for the
        window."""
        now = self.clock()
        limit, window = PIN_LIMIT
        key = f"pin-wrong:{client}"
        if not self.store.hit(key, limit - 1, window, now, add=0):
            raise ClassError(N_("Too many wrong PINs from this network. Wait ten minutes."))
        code = codes.normalise_code(typed_code)
        pin = codes.normalise_pin(typed_pin)
        if code is None or pin is None:
            raise ClassError(
                # TRANSLATORS: {n}: the class code's length (6); {pin}: the PIN's length (10)
                Nn_(
                    "Type the class code ({n} character) and the teacher PIN ({pin}).",
                    "Type the class code ({n} characters) and the teacher PIN ({pin}).",
                ),
                n=codes.CODE_LENGTH,
                pin=codes.PIN_LENGTH,
            )
        try:
            info = self.claim(code, pin)
        except ClassError:
            self.store.hit(key, limit, window, now)
            raise
        return Teacher(code, pin), info

    def _teacher(self, code: str, secret: str | None) -> None:
        stored = self.store.secret_hash(code)
        if stored is None or not secret or not codes.matches(secret, stored):
            raise ClassError(_NOT_TEACHER)

    def is_teacher(self, code: str, secret: str | None) -> bool:
        try:
            self._teacher(code, secret)
        except ClassError:
            return False
        return True

    def publish(self, code: str, secret: str, frame: dict[str, Any]) -> int:
        """Show ``frame`` (plain JSON data: what the projector shows, as
        ``app.classroom.core.frame.Frame.to_dict`` gives it) to the class; returns its version. The
        one place a frame becomes the stored text (compact JSON)."""
        self._teacher(code, secret)
        text = json.dumps(frame, separators=(",", ":"))
        if len(text.encode("utf-8")) > MAX_FRAME_BYTES:
            raise ClassError(N_("This screen is too large to send to the class."))
        return self.store.publish(code, text, self.clock())

    def open_question(
        self,
        code: str,
        secret: str,
        question_id: str,
        text: str,
        choices: Sequence[str],
        facts: Mapping[str, Any] | None = None,
    ) -> Poll:
        """Open round 1 of a question (closing any open round without a reveal). ``facts``:
        its words as facts (``app.quiz.records.Question.facts``), kept with every round so
        that the class's summary shows it in each reader's language; left out when they are
        not JSON data or longer than :data:`MAX_FACTS_BYTES`."""
        self._teacher(code, secret)
        clean = _choices(choices)
        if not 2 <= len(clean) <= MAX_CHOICES:
            raise ClassError(
                Nn_(
                    "A class question needs {least} to {n} different answer.",
                    "A class question needs {least} to {n} different answers.",
                ),
                least=2,
                n=MAX_CHOICES,
            )
        poll = Poll(id=str(question_id)[:80], round=1, text=_question_text(text),
                    choices=clean, opened=self.clock(), facts=_facts(facts))  # fmt: skip
        self.store.put_poll(code, poll)
        self.store.touch(code, poll.opened)
        return poll

    @staticmethod
    def same_question(poll: Poll, text: str, choices: Sequence[str]) -> bool:
        """Whether ``poll`` is the question ``text`` with ``choices`` as :meth:`open_question`
        keeps it (the teacher's page, reloaded, asks its open question again)."""
        return poll.text == _question_text(text) and poll.choices == _choices(choices)

    def vote_again(self, code: str, secret: str) -> Poll:
        """A new round of the current question, after discussion: everyone answers again."""
        self._teacher(code, secret)
        poll = self.store.current_poll(code)
        if poll is None:
            raise ClassError(N_("There is no question to vote on again."))
        again = Poll(id=poll.id, round=poll.round + 1, text=poll.text, choices=poll.choices,
                     opened=self.clock(), facts=poll.facts)  # fmt: skip
        self.store.put_poll(code, again)
        self.store.touch(code, again.opened)
        return again

    def close_vote(self, code: str, secret: str) -> Poll:
        """Close the open round without revealing it (Peer Instruction's "pencils down"): no
        more answers or confidences; the phones say the vote is closed. The teacher may then
        reveal it or open another round (:meth:`vote_again`)."""
        self._teacher(code, secret)
        poll = self.store.current_poll(code)
        if poll is None or poll.revealed:
            raise ClassError(N_("There is no open vote to close."))
        closed = replace(poll, closed=True)
        self.store.put_poll(code, closed)
        self.store.touch(code, self.clock())
        return closed

    def confidences(self, code: str, poll: Poll, secret: str | None = None) -> dict[str, str]:
        """Student id -> confidence of one round; before the reveal only the teacher may read
        them (as :meth:`tally`)."""
        if not poll.revealed:
            self._teacher(code, secret)
        return self.store.confidences(code, poll.id, poll.round)

    def reveal(
        self,
        code: str,
        secret: str,
        right: Sequence[str],
        summary: str = "",
        rows: Sequence[Sequence[str]] = (),
        misconceptions: Mapping[str, str] | None = None,
    ) -> Poll:
        """Close the current round and show the answer with the numbers that decided it;
        ``misconceptions``: choice -> the id of the mistake choosing it shows (kept with every
        round for the class's summary: wrong choices of the question only)."""
        self._teacher(code, secret)
        poll = self.store.current_poll(code)
        if poll is None:
            raise ClassError(N_("There is no open question to reveal."))

        def shown(round_: Poll) -> Poll:
            return replace(
                round_,
                revealed=True,
                right=tuple(r for r in right if r in round_.choices),
                summary=str(summary)[:2000],
                rows=tuple(tuple(str(cell) for cell in row) for row in rows),
                misconceptions=tuple(
                    (choice, str(mistake)[:40])
                    for choice, mistake in (misconceptions or {}).items()
                    if choice in round_.choices and choice not in right
                ),
            )

        # the earlier rounds of the question too (a vote again before the reveal): the reveal
        # shows every round side by side
        for earlier in self.rounds(code, poll.id):
            if earlier.round < poll.round and not earlier.revealed:
                self.store.put_poll(code, shown(earlier))
        last = shown(poll)
        self.store.put_poll(code, last)  # last: it stays the class's current poll
        self.store.touch(code, self.clock())
        return last

    def remove_student(self, code: str, secret: str, student_id: str) -> None:
        """Take a name off the class: their page is told, their answer to the open round is
        taken back and no later answer is taken; their answers to rounds already revealed stay
        counted (the projected bars and the results do not change)."""
        self._teacher(code, secret)
        self.store.update_student(code, student_id, lambda s: replace(s, removed=True))
        poll = self.store.current_poll(code)
        if poll is not None and not poll.revealed:
            self.store.drop_answer(code, poll.id, poll.round, student_id)

    def end(self, code: str, secret: str) -> None:
        """End the class: no more joins or answers. Results stay readable until it expires."""
        self._teacher(code, secret)
        self.store.end_class(code, self.clock())

    def results_csv(self, code: str, secret: str, anonymous: bool = False) -> str:
        """One row per question and round: when it opened (UTC), the question, the round, the
        right answer(s), how many answered, each choice and its count, how many of the answers
        came from names the teacher removed since (they stay counted) and ``record`` "round".

        Then one row per student and question (``record`` "student"; ``round`` and the counts
        empty): the student (their name, or with ``anonymous`` a stable "Student N" by joining
        order), their round-1 answer, confidence and whether it was right, the same for the
        question's last round after round 1 (``round_2_*``: a question voted three times gives
        its third), and the switch ("wrong->right", ...; empty without both rounds or before
        the reveal). Right is "yes"/"no" once revealed and graded, else empty."""
        self._teacher(code, secret)
        out = io.StringIO()
        writer = csv.writer(out)
        header = ["opened_utc", "question", "round", "right", "answered"]
        for n in range(1, MAX_CHOICES + 1):
            header += [f"choice_{n}", f"count_{n}"]
        writer.writerow([*header, "from_removed", *_STUDENT_COLUMNS])
        students = self.store.students(code)
        removed = {s.id for s in students if s.removed}
        rounds = results.read_class(self.store, code)  # each round's answers read once
        for found in rounds:
            poll, counts = found.poll, found.counts()
            opened = datetime.fromtimestamp(poll.opened, UTC).strftime("%Y-%m-%d %H:%M:%S")
            row: list[str | int] = [opened, poll.text, poll.round, " | ".join(poll.right),
                                    sum(counts.values())]  # fmt: skip
            for choice, n in counts.items():
                row += [choice, n]
            row += [""] * (len(header) - len(row))  # the unused choices' columns, empty
            row.append(sum(1 for a in found.answers if a.student in removed))
            writer.writerow([*row, "round"] + [""] * (len(_STUDENT_COLUMNS) - 1))
        for first, last in results.questions(rounds):
            opened = datetime.fromtimestamp(first.poll.opened, UTC).strftime("%Y-%m-%d %H:%M:%S")
            right = " | ".join((last or first).poll.right)
            # the round's columns empty (and from_removed): this row is a student's
            lead = [opened, first.poll.text, "", right, *[""] * (len(header) - 4), ""]
            for student, cells in _student_rows(students, first, last, anonymous):
                writer.writerow([*lead, "student", student, *cells])
        return out.getvalue()

    # ----------------------------------------------------------------- student

    def join(
        self,
        typed_code: str,
        client: str,
        name: str | None = None,
        browser: str | None = None,
        key: str | None = None,
    ) -> tuple[str, Student]:
        """A student joins by code: ``(code, student)`` with a generated nickname unless a
        valid ``name`` is given; ``key``: the joining browser's secret (its cookie), of which
        the store keeps the hash: only that browser finds the student again
        (:meth:`returning`). Rate limits: every attempt of one ``browser`` (a browser
        session's id; without one, the address stands for it), :data:`JOIN_LIMIT`; the wrong
        codes of one ``client`` address, :data:`WRONG_CODE_LIMIT`."""
        now = self.clock()
        limit, window = JOIN_LIMIT
        if not self.store.hit(f"join:{browser or client}", limit, window, now):
            raise ClassError(N_("Too many tries. Wait a minute, then type the code again."))
        wrong_limit, wrong_window = WRONG_CODE_LIMIT
        wrong_key = f"join-wrong:{client}"
        # a look, not a count: refused once ``wrong_limit`` wrong codes were answered
        if not self.store.hit(wrong_key, wrong_limit - 1, wrong_window, now, add=0):
            raise ClassError(N_("Too many wrong codes from this network. Wait a minute."))
        try:
            code = self.find(typed_code)
        except ClassError:
            self.store.hit(wrong_key, wrong_limit, wrong_window, now)  # a wrong code counts
            raise
        present = [s for s in self.store.students(code) if not s.removed]
        if len(present) >= MAX_STUDENTS:
            raise ClassError(
                Nn_("This class is full ({n} student).", "This class is full ({n} students)."),
                n=MAX_STUDENTS,
            )
        if name is not None and name.strip():
            try:
                chosen = codes.unique_name(codes.check_name(name), {s.name for s in present})
            except ValueError as error:
                raise _name_refused(error) from None
            removed = {s.name.casefold() for s in self.store.students(code) if s.removed}
            if codes.check_name(name).casefold() in removed:  # not back at once, renamed "2"
                raise ClassError(N_("The teacher removed that name from this class."))
        else:
            chosen = codes.new_name({s.name for s in present})
        now = self.clock()
        student = Student(id=codes.new_student_id(), name=chosen, joined=now, seen=now,
                          key=codes.hash_secret(key) if key else "")  # fmt: skip
        self.store.put_student(code, student)
        return code, student

    def student(self, code: str, student_id: str) -> Student | None:
        """The student with this id, if still in the class (``None``: unknown or removed)."""
        student = self.store.student(code, student_id)
        return None if student is None or student.removed else student

    def returning(self, code: str, student_id: str, key: str) -> Student | None:
        """The student with this id found again by the browser that joined (a reload, a
        phone that slept, another replica): ``key`` must be the browser key they joined with.
        ``None``: unknown, removed, or another browser's (an address copied to another device
        is no one's identity). A record written before browser keys has none: its id alone
        finds it, as it did then (those students keep their place through the upgrade; a
        new join binds the next one)."""
        student = self.student(code, student_id)
        if student is None or (student.key and not codes.matches(key, student.key)):
            return None
        return student

    def rename(self, code: str, student_id: str, name: str) -> Student:
        """A student types their own nickname (plain text, at most 24 characters); another
        student's name gets a number ("Ada 2")."""
        others = {s.name for s in self.store.students(code) if not s.removed and s.id != student_id}
        try:
            chosen = codes.unique_name(codes.check_name(name), others)
        except ValueError as error:
            raise _name_refused(error) from None
        renamed = self.store.update_student(
            code, student_id, lambda s: None if s.removed else replace(s, name=chosen)
        )
        if renamed is None:
            raise ClassError(NOT_IN_CLASS)
        return renamed

    def here(self, code: str, student_id: str) -> bool:
        """A student's page says it is open (the room counts it as connected); False when the
        student is no longer in the class (the teacher removed the name): the page says so."""
        now = self.clock()
        seen = self.store.update_student(
            code, student_id, lambda s: None if s.removed else replace(s, seen=now)
        )
        return seen is not None

    def answer(self, code: str, student_id: str, poll_id: str, round_: int, choice: str) -> bool:
        """A student's answer to the open round; a later answer replaces it. False, quietly,
        for a stale answer (a round that closed or was replaced); :class:`ClassError` for a
        choice the question does not offer, an unknown student, or too many answers."""
        self.info(code)
        student = self._student(code, student_id)
        poll = self.store.current_poll(code)
        if not _open(poll, poll_id, round_):
            return False
        assert poll is not None
        if choice not in poll.choices:
            raise ClassError(N_("That answer is not one of this question's choices."))
        limit, window = ANSWER_LIMIT
        if not self.store.hit(f"answer:{code}:{student.id}", limit, window, self.clock()):
            raise ClassError(_TOO_MANY_ANSWERS)
        self.store.put_answer(code, poll.id, poll.round, student.id, choice, self.clock())
        return True

    def my_answer(self, code: str, student_id: str, poll: Poll) -> str | None:
        """The student's answer to ``poll`` (``None``: not answered)."""
        return self.store.answer_of(code, poll.id, poll.round, student_id)

    def confidence(
        self, code: str, student_id: str, poll_id: str, round_: int, level: str | None
    ) -> bool:
        """A student's confidence in their answer to the open round (one of
        ``peer.CONFIDENCE``; ``None`` or "" takes it back); changeable until the round closes.
        False, quietly, for a round that closed; :class:`ClassError` for another level, an
        unknown student, or too many changes (counted with the answers: :data:`ANSWER_LIMIT`)."""
        self.info(code)
        student = self._student(code, student_id)
        level = level or ""
        if level and level not in peer.CONFIDENCE:
            raise ClassError(N_("That is not one of the confidence levels."))
        poll = self.store.current_poll(code)
        if not _open(poll, poll_id, round_):
            return False
        limit, window = ANSWER_LIMIT
        if not self.store.hit(f"answer:{code}:{student.id}", limit, window, self.clock()):
            raise ClassError(_TOO_MANY_ANSWERS)
        self.store.put_confidence(code, poll_id, round_, student.id, level)
        return True

    def my_confidence(self, code: str, student_id: str, poll: Poll) -> str | None:
        """The student's confidence in their answer to ``poll`` (``None``: none given)."""
        return self.store.confidence_of(code, poll.id, poll.round, student_id)

    def lost(self, code: str, student_id: str, lost: bool = True) -> str:
        """A student says they are lost on the teacher's screen now (``lost`` False: not any
        more); the teacher sees how many, never who. Returns the screen's key (the page shows
        the button pressed while the screen stays). Rate-limited as answers
        (:data:`LOST_LIMIT`)."""
        self.info(code)
        student = self._student(code, student_id)
        limit, window = LOST_LIMIT
        if not self.store.hit(f"lost:{code}:{student.id}", limit, window, self.clock()):
            raise ClassError(N_("Too many taps at once. Wait a few seconds."))
        found = self.store.frame(code)
        try:
            data = json.loads(found[1]) if found and found[1] else {}
        except ValueError:
            data = {}
        key = screen_key(data if isinstance(data, dict) else {})
        self.store.put_lost(code, key, student.id, lost)
        return key

    def is_lost(self, code: str, student_id: str, screen: str) -> bool:
        """Whether this student said they are lost on ``screen``."""
        return student_id in self.store.lost(code, screen)

    def _student(self, code: str, student_id: str) -> Student:
        student = self.student(code, student_id)
        if student is None:
            raise ClassError(NOT_IN_CLASS)
        return student


#: The results CSV's columns after ``from_removed`` (:meth:`Room.results_csv`).
_STUDENT_COLUMNS = (
    "record",
    "student",
    "round_1_answer",
    "round_1_confidence",
    "round_1_right",
    "round_2_answer",
    "round_2_confidence",
    "round_2_right",
    "switch",
)


def _student_rows(
    students: list[Student],
    first: results.RoundResults,
    last: results.RoundResults | None,
    anonymous: bool,
) -> list[tuple[str, list[str]]]:
    """(student, the CSV's student cells) for each student who answered ``first`` or ``last``,
    in joining order. A round's right/wrong is its grading (:mod:`.results`), written once the
    question's last round is graded (before that the cells stay empty)."""
    order = [s.id for s in students]
    names = {s.id: s.name for s in students}
    rounds = [first] if last is None else [first, last]
    shown = rounds[-1].graded
    rows = []
    for sid in order:
        given = [r.of(sid) for r in rounds]
        if not any(given):
            continue
        cells: list[str] = []
        marks = []
        for answer in given:
            mark = ""
            if shown and answer is not None and answer.right is not None:
                mark = "yes" if answer.right else "no"
            cells += [answer.choice, answer.confidence] if answer else ["", ""]
            cells.append(mark)
            marks.append(mark)
        if last is None:
            cells += ["", "", ""]
        moved = ""
        if len(marks) == 2 and all(marks):
            moved = "->".join("right" if m == "yes" else "wrong" for m in marks)
        who = peer.pseudonym(order, sid) if anonymous else names[sid]
        rows.append((who, [*cells, moved]))
    return rows


def _choices(choices: Sequence[str]) -> tuple[str, ...]:
    """A question's choices as the room keeps them: each cut to its length, duplicates out."""
    return tuple(dict.fromkeys(str(c)[:MAX_CHOICE_CHARS] for c in choices))


def _open(poll: Poll | None, poll_id: str, round_: int) -> bool:
    """Whether ``poll`` (the class's current round) is round ``round_`` of ``poll_id`` and
    still takes answers (not closed, not revealed)."""
    return (
        poll is not None
        and not poll.revealed
        and not poll.closed
        and poll.id == poll_id
        and poll.round == round_
    )


def _name_refused(error: ValueError) -> ClassError:
    """The refusal of a typed name, one sentence per reason ``codes.check_name`` gives."""
    reason = getattr(error, "reason", None)
    message = _NAME_REFUSED.get(reason) if isinstance(reason, str) else None
    if message is None:
        return ClassError(N_("Name not used: {reason}."), reason=str(error))
    return ClassError(message, **getattr(error, "values", {}))


def _facts(facts: Mapping[str, Any] | None) -> dict[str, Any]:
    """A question's facts as a poll keeps them: a JSON object (a copy), or ``{}``."""
    if not facts:
        return {}
    try:
        text = json.dumps(dict(facts), separators=(",", ":"))
    except (TypeError, ValueError):
        return {}
    if len(text.encode("utf-8")) > MAX_FACTS_BYTES:
        return {}
    kept: dict[str, Any] = json.loads(text)
    return kept


def _question_text(text: str) -> str:
    return str(text)[:MAX_QUESTION_CHARS]
