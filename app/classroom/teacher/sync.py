"""The teacher's screen published to the class: the quiz's open question opened to the class
as a poll and its reveal sent (:func:`sync_poll`, every run), the class's counts for the quiz
(:func:`class_counts`), and every screen the teacher draws as a *frame* (:func:`frame_of`,
:func:`publish`: plain data with the facts each phone renders in its own language).

The quiz's questions are the class's questions: the teacher's click that settles one (Step, or
**Reveal**, which makes that click) reveals the class's answers with the numbers that decided
it; **Vote again** before that opens a second round after discussion."""

from __future__ import annotations

import logging
import secrets
import time
from typing import Any

import streamlit as st

from app.classroom import ClassError, Room, Teacher
from app.classroom.core import said
from app.classroom.core.frame import Frame, LessonPage, LessonRef
from app.classroom.shared import (
    NOT_GRADED,
    room,
    teacher,
)
from app.classroom.teacher import heat as class_heat
from app.classroom.teacher import vote
from app.live.session import notify, safe, session
from app.quiz import ClassCounts, QuizState, Reveal
from app.words import i18n
from app.words.c_sensitivity import flip_c
from app.words.i18n import _
from games.registry import game_spec

_LOG = logging.getLogger(__name__)


#: Session key: something did not reach the class (the store was away): a reveal, a new
#: question, a screen (:data:`UNSENT`) or the room box itself. The count line, which runs every
#: second, sends it again as soon as the store answers (:func:`resync`).
PENDING = "class_pending"

#: Session key: the last screen that did not reach the class (a :class:`Frame`).
UNSENT = "class_unsent"


def sync_poll(quiz: QuizState | None) -> None:
    """Keep the class's poll in step with the teacher's quiz: a question the quiz settled is
    revealed to the class (its latest round), a new question opens round 1. With the store
    away nothing is marked done: the count line says so in its one line and does it again as
    soon as the store answers (:func:`resync`), or the next click."""
    try:
        _sync_poll(quiz)
    except OSError:
        st.session_state[PENDING] = True  # (the count line says so, in its one line)


#: Session key: (the id of the quiz question, the class's poll id) of the last reveal the quiz
#: graded for the class: its counts go in the quiz's table (:func:`class_counts`).
REVEALED_FOR = "class_revealed_for"

#: Session key: the poll whose counts this run's quiz table showed (the room box then leaves
#: out its own bars: one list of the answers on screen, not two).
COUNTS_IN_QUIZ = "class_counts_in_quiz"


def class_counts(quiz: QuizState | None) -> ClassCounts | None:
    """The class's answers (every round) to the question the quiz revealed now, for the
    quiz's table (the room box then leaves out its bars); ``None`` without a class, without a
    reveal, for another question, or when the answers are not the table's rows."""
    st.session_state[COUNTS_IN_QUIZ] = None
    found = teacher()
    revealed = st.session_state.get(REVEALED_FOR)
    if found is None or quiz is None or quiz.reveal is None or not revealed:
        return None
    if revealed[0] != id(quiz.reveal.question):
        return None
    try:
        r = room()
        rounds = [p for p in r.rounds(found.code, revealed[1]) if p.revealed]
        tallies = [r.tally(found.code, p, found.secret) for p in rounds]
    except (ClassError, OSError):
        return None  # the room box says the store is away; the quiz draws without counts
    if not rounds:
        return None
    counts = {c: tuple(t.get(c, 0) for t in tallies) for c in rounds[-1].choices}
    found_counts = ClassCounts(tuple(p.round for p in rounds), counts)
    if not found_counts.fit(quiz.reveal):
        return None  # not the table's rows: the room box draws its bars
    st.session_state[COUNTS_IN_QUIZ] = revealed[1]
    return found_counts


def resync() -> None:
    """After an outage (the count line got an answer from the store): the reveal or question
    and the screen that did not reach the class are sent now, and the whole page is drawn
    again (its room box came back). Still failing: one line says so, and the next second
    tries again."""
    try:
        _sync_poll(session().quiz)
        unsent = st.session_state.get(UNSENT)
        if isinstance(unsent, Frame):
            _publish(unsent)
    except (ClassError, OSError) as error:
        st.caption(_("Not sent to the class: {error}. It is sent again when the store answers.",
                     error=said.refusal(error)))  # fmt: skip
        return
    st.session_state[PENDING] = False
    st.session_state.pop(UNSENT, None)
    st.rerun(scope="app")  # (the room box and the screen, drawn with the store back)


def _sync_poll(quiz: QuizState | None) -> None:
    found = teacher()
    if found is None or quiz is None:
        return
    r = room()
    current: tuple[int, str] | None = st.session_state.get("class_poll")
    if current is not None and current[0] == 0:  # taken back mid-question: not matched yet
        current = _match_open_poll(r, found, current[1], quiz)
        if current is not None and current[0] == 0:
            return  # the class keeps its question until the teacher reveals it
    reveal: Reveal | None = quiz.reveal
    if current is not None and reveal is not None and _asked(current, reveal):
        poll = r.store.current_poll(found.code)
        if poll is not None and poll.id == current[1] and not poll.revealed:
            rows = reveal.rows if reveal.verdict != "dropped" else ()
            right = reveal.correct if reveal.verdict != "dropped" else ()
            mistakes = dict(reveal.misconceptions) if reveal.verdict != "dropped" else None
            r.reveal(found.code, found.secret, right, reveal.summary, rows, mistakes)
            st.session_state["class_last_reveal"] = poll.id
            st.session_state[REVEALED_FOR] = (id(reveal.question), poll.id)
            st.session_state["class_published"] = ""
    question = quiz.pending
    if question is not None and (current is None or current[0] != id(question)):
        # unique in the class (a page taken back asks with the same counter in the same second)
        poll_id = f"q{quiz.counter}-{int(time.time())}-{secrets.token_hex(3)}"
        r.open_question(found.code, found.secret, poll_id, question.text, question.options,
                        getattr(question, "facts", None))  # fmt: skip
        class_heat.remember(poll_id, question)  # a question about a move: tapped, shaded
        st.session_state["class_poll"] = (id(question), poll_id)
        st.session_state["class_published"] = ""


def _match_open_poll(
    r: Room, found: Teacher, poll_id: str, quiz: QuizState
) -> tuple[int, str] | None:
    """The class's open question after the teacher's page came back, matched with the quiz's
    own: the quiz's question when the rebuilt screen asked the same one (it is graded as
    before, and it is about the same moves: :func:`class_heat.remember`), ``(0, poll_id)``
    while it did not (Reveal then shows the answers ungraded: :func:`on_reveal_unmatched`),
    ``None`` when the question is no longer open."""
    poll = r.store.current_poll(found.code)
    matched: tuple[int, str] | None = None
    if poll is not None and poll.id == poll_id and not poll.revealed:
        question = quiz.pending
        same = question is not None and r.same_question(poll, question.text, question.options)
        matched = (id(question), poll_id) if same else (0, poll_id)
        if same:  # its moves come back with it: the phones' taps, the heat, the reveal's ✓
            class_heat.remember(poll_id, question)
    st.session_state["class_poll"] = matched
    return matched


def unmatched_poll() -> bool:
    """Whether the class's open question is one the teacher's quiz no longer knows (the page
    came back with another question): Reveal then reveals it ungraded."""
    current = st.session_state.get("class_poll")
    return current is not None and current[0] == 0


@safe
def on_reveal_unmatched() -> None:
    found = teacher()
    current = st.session_state.get("class_poll")
    if found is None or current is None:
        return
    try:
        # (the store keeps the English text: every phone shows it in its language)
        room().reveal(found.code, found.secret, (), NOT_GRADED)
    except (ClassError, OSError) as error:
        notify("warning", _("Not revealed: {error}", error=said.refusal(error)))
        return
    st.session_state["class_poll"] = None
    st.session_state["class_last_reveal"] = current[1]
    st.session_state["class_published"] = ""


def _asked(current: tuple[int, str], reveal: Reveal) -> bool:
    """Whether ``reveal`` grades the question the class's current poll was opened for."""
    return id(reveal.question) == current[0]


def frame_of(
    stats: str,
    tree: dict[str, Any],
    narration: list[str],
    lesson: dict[str, str] | None,
    link: dict[str, str],
) -> Frame:
    """What the class is shown: plain data, no HTML (the student's page escapes it). ``link``
    is the shared link's parameters that rebuild the tree (a student's "Explore on my own");
    the open question and the last one revealed come from this session's class. Beside the
    teacher's words, their facts (issue 34): a phone renders them in its own language."""
    poll = st.session_state.get("class_poll")
    said, numbers = _facts(narration)
    return Frame(
        stats=stats,
        tree=tree,
        narration=tuple(narration),
        lesson=None if lesson is None else LessonPage(lesson["title"], lesson["text"]),
        link=dict(link),
        poll=poll[1] if poll else None,
        last_reveal=st.session_state.get("class_last_reveal"),
        at=round(time.time(), 3),
        moves=class_heat.open_moves(session().search, poll[1]) if poll else None,
        said=said,
        numbers=numbers,
        lesson_ref=_lesson_ref() if lesson is not None else None,
        question=question_facts(poll[1] if poll else None),
        reveal=reveal_facts(st.session_state.get("class_last_reveal")),
        tree_words=_tree_words(tree),
    )


def _facts(narration: list[str]) -> tuple[tuple[dict[str, Any] | None, ...], dict[str, Any]]:
    """The facts of the narration's lines the teacher's screen shows (the first: the history
    entry's, the second the sentence on C when the screen has it; the others: ``None``, the
    teacher's text stands) and the statistics' numbers."""
    from app.live.history import current_entry

    lab = session()
    search = lab.search
    entry = current_entry()
    c, policy = float(st.session_state["c"]), str(st.session_state["policy"])
    # the game's own names ("Home", "First"): each phone translates them (said._names)
    names = game_spec(str(st.session_state["game"])).player_names
    first: dict[str, Any] | None = None
    if entry is None:
        first = {"kind": "start"}
    elif entry.phase is not None:
        context: Any = entry.trace
        if context is None:  # (the selection's context: known for the newest entry only)
            context = lab.phase_context if entry is lab.history[-1] else None
        if context is not None or entry.phase.value == "select":
            first = said.narration_facts(entry.trace, entry.phase.value, entry.phase_result,
                                         context, names, c, policy)  # fmt: skip
    elif entry.trace is not None:
        first = said.narration_facts(entry.trace, None, None, None, names, c, policy)
    lines: list[dict[str, Any] | None] = [first] + [None] * (len(narration) - 1)
    decision = said.root_decision(first) if first is not None else None
    if len(lines) > 1 and decision is not None and flip_c(decision, policy, c) is not None:
        lines[1] = said.flip_facts(c, policy, 0)
    if entry is None:
        numbers = said.stats_facts(search.iterations, search.node_count, search.max_depth, 0.0,
                                   None, None, "")  # fmt: skip
    else:
        what = entry.what() if callable(entry.what) else str(entry.what)
        numbers = said.stats_facts(entry.iteration, entry.nodes, entry.depth, entry.rate,
                                   entry.number, lab.history[-1].number, what)  # fmt: skip
        # (a label made in the language shown, HistoryEntry.say_what: one per language)
        say_what = getattr(entry, "say_what", None)
        if callable(say_what):
            numbers["what_in"] = _in_each_language(say_what)
    return tuple(lines[: len(narration)]), numbers


def _in_each_language(words: Any) -> dict[str, str]:
    """``words()`` in every language a page may choose (a history entry's label: a few words
    the entry keeps as a function, not as facts)."""
    found = {}
    for tag in i18n.offered():
        with i18n.language(tag):
            found[tag] = str(words())
    return found


#: Session key: the drawn trees' words per language made so far (:func:`_tree_words`), by
#: the tree's own data: an entry of the history shown again finds the words of its time.
TREE_WORDS = "class_tree_words"

#: Trees whose words are kept (the newest).
TREE_WORDS_KEPT = 64


def _tree_words(tree: dict[str, Any] | None) -> dict[str, Any] | None:
    """The published tree's words in every language a phone may choose (``Frame.tree_words``):
    each made by drawing the same tree again in that language (``history.tree_view_now`` with
    the entry's marks, the class's heat put back), its geometry left to the teacher's. Made
    only when the drawing of this screen is the search as it is now (the newest entry: it is
    drawn again in the teacher's language and compared); an entry of the history shown again
    finds the words made when it was the newest. ``None``: none known (each phone shows the
    teacher's words)."""
    if not tree:
        return None
    key = _tree_key(tree)
    kept: dict[str, dict[str, Any]] = st.session_state.setdefault(TREE_WORDS, {})
    found = kept.get(key)
    if found is None:
        found = _tree_words_now(tree, key)
        if found is None:
            return None
        kept[key] = found
        for old in list(kept)[: max(0, len(kept) - TREE_WORDS_KEPT)]:
            del kept[old]
    return {"lang": i18n.current_tag(), "in": found}


def _tree_key(tree: dict[str, Any]) -> str:
    """What a drawn tree is, without its words' language: its boxes' keys, places, numbers
    and marks, and the class's heat (the summary names the class's choices)."""
    nodes = [
        (n.get("key"), n.get("x"), n.get("y"), n.get("w"), n.get("id"), n.get("lines"),
         n.get("marks"), n.get("proven"), n.get("heat"))
        for n in tree.get("nodes") or ()
        if isinstance(n, dict)
    ]  # fmt: skip
    edges = tree.get("edges")
    return repr((i18n.current_tag(), tree.get("top"), tree.get("total"), nodes, edges))


def _tree_words_now(tree: dict[str, Any], key: str) -> dict[str, Any] | None:
    """:func:`_tree_words`'s words drawn now, when ``tree`` is the search's tree now."""
    from app.drawing.tree_heat import with_heat
    from app.drawing.tree_model import Heat
    from app.live import history

    lab = session()
    entry = history.current_entry()
    if entry is not None and (not lab.history or entry is not lab.history[-1]):
        return None  # (an older entry: the search has moved on since it was drawn)
    marks = entry.marks if entry is not None else (None, None, None)
    heat = {}
    for node in tree.get("nodes") or ():
        found = node.get("heat") if isinstance(node, dict) else None
        if isinstance(found, dict) and isinstance(node.get("id"), int):
            right = found.get("right")
            heat[node["id"]] = Heat(int(found.get("count", 0)), float(found.get("share", 0.0)),
                                    None if right is None else bool(right))  # fmt: skip

    def drawn() -> dict[str, Any]:
        return with_heat(history.tree_view_now(*marks), heat).to_dict()

    try:
        if _tree_key(drawn()) != key:
            return None  # not the search as it is now (a file's tree, an arena's run since)
        words = {}
        for tag in i18n.offered():
            if tag != i18n.current_tag():
                with i18n.language(tag):
                    words[tag] = said.tree_words_of(drawn())
    except Exception:  # (the words are a courtesy: the phones keep the teacher's)
        _LOG.exception("the tree's words in the phones' languages")
        return None
    return words


def _lesson_ref() -> LessonRef | None:
    """The open lesson page as (name, page number)."""
    name = st.session_state.get("lesson")
    if not name:
        return None
    try:
        number = max(1, int(st.session_state.get("lesson_page", 1)))
    except (TypeError, ValueError):
        number = 1
    return LessonRef(str(name), number)


def question_facts(poll_id: str | None) -> dict[str, Any] | None:
    """The open question's facts for the phones (``app.quiz.records.Question.facts``: the
    text's and each choice's spec) with its poll id and options (the stable values the class
    answers with), or ``None``."""
    quiz = session().quiz
    current = st.session_state.get("class_poll")
    if poll_id is None or quiz is None or quiz.pending is None or current is None:
        return None
    question = quiz.pending
    facts = getattr(question, "facts", None)
    if current != (id(question), poll_id) or not facts:
        return None
    return {"poll": poll_id, "options": list(question.options), **facts}


def reveal_facts(poll_id: str | None) -> dict[str, Any] | None:
    """The last revealed question's facts for the phones: its question's (as
    :func:`question_facts`) and the reveal's summary spec, or ``None``."""
    quiz = session().quiz
    revealed = st.session_state.get(REVEALED_FOR)
    if poll_id is None or quiz is None or quiz.reveal is None or not revealed:
        return None
    reveal = quiz.reveal
    if revealed != (id(reveal.question), poll_id):
        return None
    facts = dict(getattr(reveal.question, "facts", None) or {})
    found = getattr(reveal, "facts", None) or {}
    if found.get("summary") is not None:
        facts["summary"] = found["summary"]
    if found.get("rows") and reveal.verdict != "dropped":  # the table of deciding numbers
        facts["rows"] = found["rows"]
        facts["marked"] = reveal.marked
    if reveal.why:
        facts["why"] = reveal.why  # (the quiz kind's English message: each phone's _())
    if not facts:
        return None
    return {"poll": poll_id, "options": list(reveal.question.options), **facts}


def publish(frame: Frame) -> None:
    """Publish the teacher's screen when it changed (one store write per change)."""
    found = teacher()
    if found is None:
        return
    if st.session_state.get("class_published") == frame.changed_key():
        return
    try:
        _publish(frame)
    except OSError:
        st.session_state[UNSENT] = frame
        st.session_state[PENDING] = True  # (the count line says so, in its one line)
    except ClassError as error:
        st.caption(_("Not sent to the class: {error}", error=said.refusal(error)))


def _publish(frame: Frame) -> None:
    found = teacher()
    if found is None:
        return

    data = frame.to_dict()
    room().publish(found.code, found.secret, data)
    vote.remember_screen(data)  # "I'm lost" counts on this screen
    st.session_state["class_published"] = frame.changed_key()
