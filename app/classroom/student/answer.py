"""A student answers: the open question (radio buttons, or taps on the tree or the board),
the round's banner and the confidence after an answer, "I'm lost", and the last question
revealed with the class's bars, the student's verdict and the numbers that decided it.

Every string from a student or the teacher is shown as escaped text only."""

from __future__ import annotations

import functools
import hashlib
import html
import json
from collections.abc import Callable
from typing import Any

import streamlit as st

from app.classroom import ClassError, Poll, Room
from app.classroom.core import peer
from app.classroom.core import said as class_words
from app.classroom.core.frame import Frame
from app.classroom.shared import (
    bars_html,
    room,
)
from app.classroom.student import taps as tap
from app.classroom.student.me import Me, find_me, guarded
from app.words import i18n
from app.words.i18n import _


def open_question(r: Room, me: Me, frame: Frame | None, version: int) -> Poll | None:
    """The open question with its answers (key ``class_answer``) and, for a question about a
    move, the board to tap it on (:mod:`app.classroom.student.taps`); the open round, or
    ``None``."""
    poll = r.store.current_poll(me.code)
    facts = frame.question if frame is not None else None
    mine = None
    if poll is not None and not poll.revealed:
        mine = r.my_answer(me.code, me.id, poll)
        if st.session_state.get(tap.DRAWN_FOR) != (poll.id, poll.round):
            mine = _send_held(r, me, poll, mine, facts)  # a reconnect's first run, say
            _send_held_confidence(r, me, poll)  # (the radio under it, likewise)
            st.session_state[tap.DRAWN_FOR] = (poll.id, poll.round)
    notice = st.session_state.pop("class_notice", "")
    if notice:
        st.warning(notice)
    if poll is not None and not poll.revealed:  # the open question first: what to do now
        # the radio shows what the store holds, at every run: after a refusal, a reconnect,
        # or an answer given in another tab of this student
        st.session_state[tap.ANSWER_KEY] = mine
        with st.container(key="class_question", border=True):
            _round_banner(r, me, poll, facts)  # round 2: talk to a neighbour, your round-1 answer
            text = html.escape(class_words.question_text(facts, poll))
            asked = (
                _("Question (round {round}): {question}", round=poll.round, question=text)
                if poll.round > 1
                else _("Question: {question}", question=text)
            )
            st.html(f'<p class="lab-student-q">{asked}</p>')
            st.radio(
                _("Your answer"),
                poll.choices,
                key="class_answer",
                index=None,
                on_change=send_answer,
                args=(poll.id, poll.round, poll.choices),
                format_func=functools.partial(
                    _choice_label, tag=round_tag(poll), words=_words_of(facts, poll)
                ),
                help=_("You can change your answer until the teacher reveals it."),
                # side by side, wrapping: nine moves take three rows, not nine, so the tree
                # the question asks about starts on the same phone screen as the answers
                horizontal=True,
                disabled=poll.closed,
            )
            _confidence(r, me, poll, facts)  # how sure; or that the vote is closed
        _tap_board(frame, poll)
        return poll
    return None


def _send_held(
    r: Room, me: Me, poll: Poll, mine: str | None, facts: dict[str, Any] | None
) -> str | None:
    """This session's first draw of ``poll`` (a reload, a phone that slept, a page moved to
    another replica after its own died): an answer the browser holds that the store does not
    (:func:`app.classroom.student.taps.held`: a tap or a pick sent as the page's server died,
    which no server got) is sent now; returns the student's answer as the store holds it
    after. One the room does not take is said, with the way to send it again."""
    label = functools.partial(_choice_label, tag=round_tag(poll), words=_words_of(facts, poll))
    newest = next((h for h in tap.held(poll, label) if h.choice != mine), None)
    if newest is None:
        return mine
    if newest.at is not None:
        st.session_state[tap.SEEN] = newest.at  # (its ring goes if it is not kept)
    said = class_words.choice_text(facts, poll, newest.choice)
    try:
        if r.answer(me.code, me.id, poll.id, poll.round, newest.choice):
            return newest.choice
        st.session_state["class_notice"] = _(
            "Your answer {answer} did not reach the class before the vote closed.", answer=said
        )
    except (ClassError, OSError) as error:
        st.session_state["class_notice"] = _(
            "Your answer {answer} was not sent: {error}. Choose it again.",
            answer=said,
            error=class_words.refusal(error),
        )
    return mine


def _tap_board(frame: Frame | None, poll: Poll) -> None:
    """Under a question about a move: the position asked about, a tap on a move answers."""
    from app.components.board_tap import render_board_tap

    data = tap.board_data(tap.subject(frame.moves if frame else None, poll), poll,
                          st.session_state.get(tap.ANSWER_KEY),
                          st.session_state.get(tap.SEEN))  # fmt: skip
    if data is not None:
        tapped = guarded(tap.on_tap(tap.BOARD_KEY, poll, send_answer))
        with st.container(key="class_board_box"):
            render_board_tap(data, key=tap.BOARD_KEY, on_answer=tapped)


_PI_CSS = """<style>
.lab-round-banner {background: #ede9fe; border-left: 0.35rem solid #7c3aed; padding: 0.3rem 0.5rem;
  margin: 0 0 0.3rem 0; font-size: 1rem; line-height: 1.3;}
.lab-vote-closed {background: #fef3c7; border-left: 0.35rem solid #b45309; padding: 0.3rem 0.5rem;}
.st-key-class_confidence label {min-height: 2.4rem; align-items: center;}
</style>"""


def _round_banner(r: Room, me: Me, poll: Poll, facts: dict[str, Any] | None) -> None:
    """Round 2 (or later) of a question, said plainly (container ``class_round_banner``): talk
    to a neighbour who answered differently, what this student said in the round before, and
    that the answer below starts empty (nothing is cleared without a word)."""
    if poll.round < 2:
        return
    before = next((p for p in r.rounds(me.code, poll.id) if p.round == poll.round - 1), None)
    mine = None if before is None else r.my_answer(me.code, me.id, before)
    before_round = poll.round - 1
    told = (_("You said {answer} in round {round}.", round=before_round,
              answer=class_words.choice_text(facts, poll, mine)) if mine is not None
            else _("You did not answer in round {round}.", round=before_round))  # fmt: skip
    if r.my_answer(me.code, me.id, poll) is None:
        told = _("{said} Your answer below starts empty: choose again.", said=told)
    head = html.escape(_("Round {round}: vote again.", round=poll.round))
    talk = html.escape(_("Talk to a neighbour who answered differently, then answer."))
    with st.container(key="class_round_banner"):
        st.html(
            f'{_PI_CSS}<div class="lab-round-banner" role="status"><b>{head}</b> {talk} '
            f"{html.escape(told)}</div>"
        )


def _send_held_confidence(r: Room, me: Me, poll: Poll) -> None:
    """As :func:`_send_held`, for the confidence: one the browser holds for ``poll``'s round
    that the store does not (picked as the page's server died) is sent now; one the store
    refuses is said, with the way to send it again (a round closed meanwhile: the radio shows
    the store's, quietly, as a pick on a closed round)."""
    label = functools.partial(_choice_label, tag=round_tag(poll), words=_level_words)
    level = tap.held_confidence(peer.CONFIDENCE, label)
    if level is None:
        return
    try:
        if level != r.my_confidence(me.code, me.id, poll):
            r.confidence(me.code, me.id, poll.id, poll.round, level)
    except (ClassError, OSError) as error:
        st.session_state["class_notice"] = _(
            "How sure you are was not sent: {error}. Choose it again.",
            error=class_words.refusal(error),
        )


def _confidence(r: Room, me: Me, poll: Poll, facts: dict[str, Any] | None = None) -> None:
    """Under the answers: how sure the student is (key ``class_confidence``: sure, fairly
    sure, guessing; optional, changeable until the vote closes), or, once the teacher closed
    the vote, that it is closed and what they answered."""
    mine = st.session_state.get("class_answer")
    if poll.closed:
        told = (
            _("You answered {answer}. Wait for the teacher.",
              answer=class_words.choice_text(facts, poll, mine))
            if mine is not None
            else _("You did not answer. Wait for the teacher.")
        )  # fmt: skip
        closed = html.escape(_("The vote is closed."))
        st.html(f'{_PI_CSS}<p class="lab-class-line lab-vote-closed"><b>{closed}'
                f"</b> {html.escape(told)}</p>")  # fmt: skip
        return
    st.session_state["class_confidence"] = r.my_confidence(me.code, me.id, poll)
    st.html(_PI_CSS)
    st.radio(
        _("How sure are you?"),
        peer.CONFIDENCE,
        key="class_confidence",
        index=None,
        horizontal=True,
        on_change=_on_confidence,
        args=(poll.id, poll.round),
        format_func=functools.partial(_choice_label, tag=round_tag(poll), words=_level_words),
        help=_("Optional. The teacher sees how many were sure and right or wrong, never who."),
    )
    if mine is not None:
        st.caption(_("Answer sent. You can change it until the vote closes."))


@guarded
def _on_confidence(poll_id: str, round_: int) -> None:
    """Send the picked confidence to the round it was drawn for (as :func:`send_answer`)."""
    me = find_me()
    level = st.session_state.get("class_confidence")
    if me is None:
        return
    r = room()
    try:
        if (level is None or level in peer.CONFIDENCE) and r.confidence(
            me.code, me.id, poll_id, round_, level
        ):
            return
        st.session_state["class_notice"] = _("That vote has closed; the open one is below.")
    except (ClassError, OSError) as error:
        st.session_state["class_notice"] = _("Not sent: {error}", error=class_words.refusal(error))
    st.session_state["class_confidence"] = None


def last_reveal_box(r: Room, me: Me, frame: Frame | None, version: int) -> None:
    """The last revealed question: whether this student was right, and how the class
    answered (nothing before the first reveal)."""
    last = frame.last_reveal if frame else None
    if not last:
        return
    facts = frame.reveal if frame else None
    known = json.dumps(facts, sort_keys=True) if facts else ""
    rounds, bars = _class_bars(r, me.code, last, version, i18n.current_tag(), known)
    if rounds:
        verdict = _verdict(r, me, rounds, facts)
        more = _reveal_more(facts, rounds[-1])
        st.html(f'<p class="lab-class-line"><b>{html.escape(verdict)}</b></p>' + bars + more)


def _reveal_more(facts: dict[str, Any] | None, poll: Poll) -> str:
    """Under the class's bars, folded (one line on a phone): the table of numbers that
    decided the revealed question and why MCTS does so, in this page's language, from the
    reveal's facts in the frame (``""``: the frame has none for this question)."""
    rows = class_words.reveal_rows(facts, poll)
    why = class_words.why_text(facts, poll)
    if not rows and not why:
        return ""
    body = ""
    if rows:
        marked = (facts or {}).get("marked")  # (an index among the rows under the header)
        header, *cells = rows
        heads = "".join(f"<th>{html.escape(h)}</th>" for h in header)
        lines = "".join(
            ('<tr class="lab-mark">' if n == marked and marked is not True else "<tr>")
            + "".join(f"<td>{html.escape(c)}</td>" for c in row)
            + "</tr>"
            for n, row in enumerate(cells)
        )
        named = html.escape(_("the deciding numbers"), quote=True)
        body += (
            f'<div class="lab-reveal-rows" tabindex="0" role="region" aria-label="{named}">'
            f"<table><tr>{heads}</tr>{lines}</table></div>"
        )
    if why:
        body += f'<p class="lab-class-line">{html.escape(why)}</p>'
    title = html.escape(_("Why?"))
    return (
        f'{_REVEAL_CSS}<details class="lab-reveal-more"><summary>{title}</summary>{body}</details>'
    )


_REVEAL_CSS = """<style>
.lab-reveal-more summary {min-height: 2.75rem; display: list-item; line-height: 2.75rem;
  font-weight: 600; cursor: pointer;}
.lab-reveal-rows {overflow-x: auto; max-width: 100%;}
.lab-reveal-rows table {border-collapse: collapse; font-size: 0.9rem;}
.lab-reveal-rows th, .lab-reveal-rows td {padding: 0.1rem 0.4rem; text-align: start;
  white-space: nowrap; border-bottom: 1px solid #e5e7eb;}
.lab-reveal-rows th {white-space: normal; vertical-align: bottom;}
.lab-reveal-rows tr.lab-mark td {font-weight: 700; background: #fef9c3;}
</style>"""


def _verdict(r: Room, me: Me, rounds: tuple[Poll, ...], facts: dict[str, Any] | None = None) -> str:
    """This student's answer to a revealed question: their last answered round's (one who
    answered round 1 and not round 2 did answer), or that it was asked before they joined."""
    answered = [(p, a) for p in rounds if (a := r.my_answer(me.code, me.id, p)) is not None]
    if not answered:
        student = r.student(me.code, me.id)
        if student is not None and student.joined > rounds[0].opened:
            return _("Last question: asked before you joined.")
        return _("Last question: you did not answer.")
    poll, given = answered[-1]
    mine = class_words.choice_text(facts, rounds[-1], given)
    right = poll.right or rounds[-1].right
    n = poll.round
    if not right:  # (revealed ungraded: the teacher's page came back with another question)
        if len(rounds) > 1:
            return _("Last question: you said {answer} in round {round} (not graded).",
                     answer=mine, round=n)  # fmt: skip
        return _("Last question: you said {answer} (not graded).", answer=mine)
    if given in right:
        if len(rounds) > 1:
            return _("Last question: ✓ right in round {round}, {answer}.", answer=mine, round=n)
        return _("Last question: ✓ right, {answer}.", answer=mine)
    answers = class_words.choice_text(facts, rounds[-1], right[0])
    for other in right[1:]:
        # TRANSLATORS: the right answers of a question, when there are several ("a1 or b2")
        answers = _("{answers} or {answer}", answers=answers,
                    answer=class_words.choice_text(facts, rounds[-1], other))  # fmt: skip
    if len(rounds) > 1:
        return _("Last question: ✗ you said {answer} in round {round}; the answer was {right}.",
                 answer=mine, round=n, right=answers)  # fmt: skip
    return _("Last question: ✗ you said {answer}; the answer was {right}.", answer=mine,
             right=answers)  # fmt: skip


@functools.lru_cache(maxsize=64)
def _class_bars(
    r: Room, code: str, poll_id: str, version: int, tag: str, facts: str = ""
) -> tuple[tuple[Poll, ...], str]:
    """The revealed rounds of one question and the class's bars, made once per frame version
    and language in this process: every student's page on it in that language shows the same,
    and a Step's new version makes them anew (each page reading every poll, student and answer
    was work that grew with the class and the lesson). ``facts``: the reveal's facts as JSON
    (``Frame.reveal``: the words in the page's language)."""
    rounds = tuple(p for p in r.rounds(code, poll_id) if p.revealed)
    found = json.loads(facts) if facts else None
    return rounds, (bars_html(r, code, list(rounds), facts=found) if rounds else "")


def _plain(text: str) -> str:
    from app.quiz.quiz_view import plain_label  # one escaping of game labels for Markdown widgets

    return plain_label(text)


#: The two invisible characters a round's tag is written with (zero-width space and non-joiner:
#: nothing drawn, nothing read aloud).
_TAG_BITS = ("\u200c", "\u200b")


def round_tag(poll: Poll) -> str:
    """Sixteen invisible characters that tell one round's answer labels from another's.

    The answer radio keeps one key for every question (``class_answer``), and a browser sends a
    tap as the label it showed; Streamlit reads it against the labels of the page's newest run
    and calls back with that run's arguments. A tap made on an old question (a phone away
    across a reveal) would so become an answer to the new one when the choices read the same.
    With each round's labels tagged, an old tap matches none of the new labels and is refused
    as closed (:func:`send_answer`); two rounds share a tag 1 time in 65,536."""
    digest = hashlib.sha256(f"{poll.id}|{poll.round}".encode()).digest()
    bits = int.from_bytes(digest[:2], "big")
    return "".join(_TAG_BITS[(bits >> n) & 1] for n in range(16))


def _choice_label(choice: str, tag: str, words: Callable[[str], str] | None = None) -> str:
    return _plain(words(choice) if words is not None else choice) + tag


def _words_of(facts: dict[str, Any] | None, poll: Poll) -> Callable[[str], str]:
    """How each answer of ``poll`` reads in this page's language (its facts in the frame)."""
    return functools.partial(class_words.choice_text, facts, poll)


def _level_words(level: str) -> str:
    """A confidence level (``peer.CONFIDENCE``: the stored value) in this page's language."""
    return _(level)


@guarded
def send_answer(poll_id: str, round_: int, choices: tuple[str, ...] = ()) -> None:
    """Send the picked answer to the round the radio was drawn for. A tap on a question the
    page no longer shows (its label is another round's: :func:`round_tag`), or a refusal (a
    round that closed while the page was away, too many answers, the store away) is said, and
    the radio goes back to what the store holds: it never shows a choice that was not kept."""
    me = find_me()
    choice = st.session_state.get("class_answer")
    if me is None or choice is None:
        return
    r = room()
    try:
        if str(choice) in choices and r.answer(me.code, me.id, poll_id, round_, str(choice)):
            return
        st.session_state["class_notice"] = _("That question has closed; the open one is below.")
    except (ClassError, OSError) as error:
        st.session_state["class_notice"] = _("Not sent: {error}", error=class_words.refusal(error))
    try:
        kept = next((p for p in r.rounds(me.code, poll_id) if p.round == round_), None)
        st.session_state["class_answer"] = (
            None if kept is None else r.my_answer(me.code, me.id, kept)
        )
    except OSError:
        st.session_state["class_answer"] = None
