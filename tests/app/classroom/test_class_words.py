"""The class's refusals and its end-of-class summary in the reader's language (issue 34).

A :class:`~app.classroom.core.records.ClassError` carries its English message and values (its
text is the English sentence as before) and a page shows ``said.refusal(error)``: the message
through ``_()``. A poll keeps its question's facts (``Poll.facts``), so the summary shows each
question in the reader's language; a poll without them (asked without facts, or kept before)
shows the stored text. Pure: a Room over a SQLite store of the test's own, the words rendered in the
pseudo-language (``en-XA``) where every translated message is inside ``⟦ ⟧``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.classroom.core import said
from app.classroom.core.records import ClassError, Poll
from app.classroom.core.room import MAX_CHOICES, Nn_, Room, Teacher
from app.classroom.core.store import SQLiteStore
from app.classroom.core.summary import class_html, student_html, summarise
from app.quiz.words import M
from app.words import i18n
from app.words.i18n import N_
from tests.app_helpers import outside_pseudo

#: What may stand outside ⟦ ⟧: digits, punctuation, the marks, move labels, the class code.
_NOT_WORDS = re.compile(r"[\s\d.,:;()%·✓✗…'\"?!-]+|\b[a-c][1-3]\b")

QUESTION = N_("Which move does selection take at the root?")


@pytest.fixture
def room(tmp_path: Path) -> Iterator[Room]:
    store = SQLiteStore(str(tmp_path / "classes.db"))
    yield Room(store, clock=lambda: 1000.0)
    store.close()


def _words_left(html_text: str, code: str = "") -> str:
    """The text outside ⟦ ⟧ of some HTML, its tags, styles, the class code and the allowed
    marks removed: what skipped ``_()``."""
    text = re.sub(r"<style>.*?</style>", " ", html_text, flags=re.S)
    text = re.sub(r"<[^>]+>", " ", text)
    text = outside_pseudo(text)
    if code:
        text = text.replace(code, " ")
    return _NOT_WORDS.sub(" ", text).strip()


def _refused(call: Callable[[], object]) -> ClassError:
    with pytest.raises(ClassError) as caught:
        call()
    return caught.value


def _refusals(room: Room) -> list[ClassError]:
    teacher = room.start()
    code, secret = teacher.code, teacher.secret
    poll = room.open_question(code, secret, "q1", "Which?", ("a1", "b1"))
    _unused, student = room.join(code, "10.0.0.1", name="Ada")
    return [
        _refused(lambda: room.find("ZZZZZZ")),
        _refused(lambda: room.join(code, "10.0.0.2", name="x" * 28)),
        _refused(lambda: room.rename(code, student.id, "   ")),
        _refused(lambda: room.rename(code, student.id, "a\u202eb")),
        _refused(lambda: room.open_question(code, secret, "q2", "Which?", ("a1",))),
        _refused(lambda: room.answer(code, student.id, poll.id, 1, "c3")),
        _refused(lambda: room.confidence(code, student.id, poll.id, 1, "certain")),
        _refused(lambda: room.claim_by_pin("??", "1", "10.0.0.3")),
        _refused(lambda: room.publish(code, "wrong secret", {})),
        _refused(lambda: room.answer(code, "nobody", poll.id, 1, "a1")),
    ]


def test_a_refusal_keeps_its_english_text_and_carries_message_and_values(room: Room) -> None:
    errors = _refusals(room)
    texts = [str(e) for e in errors]
    assert texts[0] == "No class with that code is open. Check the code on the projector."
    assert texts[1] == "Name not used: a name has at most 24 characters; this one has 28."
    assert texts[2] == "Name not used: a name needs at least one letter."
    assert texts[3] == "Name not used: a name cannot hold control characters."
    assert texts[4] == f"A class question needs 2 to {MAX_CHOICES} different answers."
    assert texts[7] == "Type the class code (6 characters) and the teacher PIN (10)."
    assert errors[1].values == {"n": 24, "length": 28}
    assert (errors[4].message, errors[4].plural) == (
        "A class question needs {least} to {n} different answer.",
        "A class question needs {least} to {n} different answers.",
    )
    for error in errors:  # English: the page says what str() says
        assert said.refusal(error) == str(error)


def test_every_refusal_is_translated_on_the_page(room: Room) -> None:
    errors = _refusals(room)
    with i18n.language(i18n.PSEUDO):
        for error in errors:
            shown = said.refusal(error)
            assert shown.startswith(i18n.PSEUDO_OPEN), shown
            assert _words_left(shown) == "", shown
        # the test finds English that skipped _(): the error's own text
        assert _words_left(str(errors[0])) != ""
        # another error (the store away): the reader's words, never the error's own text
        away = said.refusal(OSError("disk I/O error"))
        assert away.startswith(i18n.PSEUDO_OPEN) and "disk" not in away, away


def test_every_refusal_message_is_in_the_catalogue_template(room: Room) -> None:
    template = (i18n.LOCALE_DIR / "mcts_lab.pot").read_text(encoding="utf-8")
    for error in _refusals(room):
        assert f"msgid {json.dumps(error.message, ensure_ascii=False)}" in template, error.message


def test_a_refusal_in_spanish_fills_its_numbers_the_language_s_way(room: Room) -> None:
    error = ClassError(Nn_("A class question needs {least} to {n} different answer.",
                           "A class question needs {least} to {n} different answers."),
                       least=2, n=12000)  # fmt: skip
    with i18n.language("es"):
        shown = said.refusal(error)
    # Spanish groups from five digits (CLDR's minimum grouping digits: "1200", "12.000")
    assert "12000" not in shown and "12.000" in shown


#: A count -> the Arabic plural form it takes (CLDR: zero, one, two, few 3-10, many 11-99,
#: other 100-102 ...): a refusal that counts shows the form of its count.
ARABIC_FORMS = {0: 0, 1: 1, 2: 2, 6: 3, 24: 4, 200: 5}


def test_a_refusal_that_counts_is_a_plural_in_every_language(room: Room) -> None:
    """Issue 43's "(6 حرف)" and "24 حرف": the name's and the code's lengths and the class's size
    are plural messages: English "1 character" / "6 characters", each of Arabic's six forms."""
    errors = _refusals(room)
    name, code = errors[1], errors[7]
    assert name.plural is not None and code.plural is not None
    one = Nn_("This class is full ({n} student).", "This class is full ({n} students).")
    full = ClassError(one, n=1)
    assert str(full) == "This class is full (1 student)."
    with i18n.language("ar"):
        forms = {
            n: said.refusal(ClassError((name.message, name.plural or ""), n=n, length=30))
            for n in ARABIC_FORMS
        }
        assert "(6 أحرف)" in said.refusal(code), said.refusal(code)
    assert len(set(forms.values())) == len(ARABIC_FORMS), forms  # six different sentences
    assert "24 حرفًا" in forms[24] and "حرفان" in forms[2], forms
    with i18n.language("es"):
        one = said.refusal(ClassError((name.message, name.plural or ""), n=1, length=30))
        assert "1 carácter;" in one and "24 caracteres;" in said.refusal(name), one


def _class_with_facts(room: Room, facts: bool = True) -> tuple[Teacher, dict[str, str]]:
    """A class of two: a question with its facts (a message and one spec per choice), Ada
    wrong with c2 in round 1 and round 2 (a misconception), Bo right with c3."""
    teacher = room.start()
    code, secret = teacher.code, teacher.secret
    spec = {"text": M(QUESTION), "choices": ["a1", "c2", "c3"]} if facts else None
    poll = room.open_question(code, secret, "q1", QUESTION, ("a1", "c2", "c3"), spec)
    ids = {}
    for name, choice in (("Ada", "c2"), ("Bo", "c3")):
        _unused, student = room.join(code, "10.0.0.1", name=name)
        ids[name] = student.id
        room.answer(code, student.id, poll.id, 1, choice)
    again = room.vote_again(code, secret)
    assert again.facts == poll.facts  # every round keeps the question's facts
    room.answer(code, ids["Ada"], poll.id, 2, "c2")
    room.answer(code, ids["Bo"], poll.id, 2, "c3")
    room.reveal(code, secret, ("c3",), "c3 by Q + bonus", (), {"c2": "bonus_ignored"})
    return teacher, ids


def test_the_summary_is_in_the_reader_s_language(room: Room) -> None:
    teacher, ids = _class_with_facts(room)
    [first, _second] = room.rounds(teacher.code, "q1")
    assert first.facts == {"text": M(QUESTION), "choices": ["a1", "c2", "c3"]}
    summary = summarise(room.store, teacher.code)
    english_class, english_ada = class_html(summary), student_html(summary, ids["Ada"])
    assert "1 question revealed, 2 students answered; 1 of 2 answers right (50%)." in english_class
    assert f"{QUESTION} <b>c2</b> (round 2) ✗" in english_ada
    assert "Score 0 of 1" in english_ada and "(2 times)" in english_ada
    with i18n.language(i18n.PSEUDO):
        pages = {
            "class": class_html(summary),
            "Ada": student_html(summary, ids["Ada"]),
            "Bo": student_html(summary, ids["Bo"]),
            "nobody": student_html(summary, "nobody"),
        }
        question = i18n.pseudo(QUESTION)
    for who, page in pages.items():
        assert _words_left(page, teacher.code) == "", (who, _words_left(page, teacher.code))
    assert question in pages["Ada"] and QUESTION not in pages["Ada"]
    assert 'data-misconception="bonus_ignored"' in pages["class"]
    assert 'href="?lesson=phases&amp;page=2"' in pages["Ada"]


def test_a_question_without_facts_shows_the_stored_text(room: Room) -> None:
    """Asked without facts (or kept before polls kept them): the stored English text stands
    (the summary cannot translate it)."""
    teacher, ids = _class_with_facts(room, facts=False)
    summary = summarise(room.store, teacher.code)
    with i18n.language(i18n.PSEUDO):
        page = student_html(summary, ids["Ada"])
    assert QUESTION in page and i18n.pseudo(QUESTION) not in page
    # (the item's own message wraps it: the check finds it bare inside, not outside ⟦ ⟧)
    assert f"{i18n.PSEUDO_OPEN}{QUESTION} <b>c2</b>" in page


def test_a_poll_from_before_reads_no_facts() -> None:
    old = json.loads(Poll("q1", 1, "Which?", ("a1", "b1"), 1000.0).to_json())
    del old["facts"]
    assert Poll.from_json(json.dumps(old)).facts == {}
    old["facts"] = "garbled"
    assert Poll.from_json(json.dumps(old)).facts == {}
    kept = Poll("q1", 1, "Which?", ("a1", "b1"), 1000.0, facts={"text": M(QUESTION)})
    assert Poll.from_json(kept.to_json()) == kept and hash(kept)  # (facts out of eq and hash)


def test_facts_that_are_not_json_or_too_long_are_left_out(room: Room) -> None:
    teacher = room.start()
    odd = room.open_question(
        teacher.code, teacher.secret, "q1", "Which?", ("a", "b"), {"x": {1, 2}}
    )
    big = room.open_question(
        teacher.code, teacher.secret, "q2", "Which?", ("a", "b"), {"text": "x" * 30_000}
    )
    assert odd.facts == {} and big.facts == {}
