"""A student's page in a class: join by code, follow the teacher's screen, answer, and explore
on one's own.

``/?class=CODE`` (the QR code on the projector) opens the join form; a student joins with a
generated nickname or their own and then sees the teacher's screen as the class sees it (the
published *frame*: statistics, the tree view's data, narration, lesson page) and the open
question (:func:`student_page`): a student never waits for a search. The question and the frame
are one fragment that the process's watcher (app/classroom/push.py) reruns when the teacher
publishes; the page itself has no timer. **Explore on my own** turns the page into the
single-user app opened from the teacher's shared link (:func:`explore_bar` atop it), **Back to
the class** returns. Every string from a student is shown as escaped text only.
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from app.classroom import ClassError, Poll, Room, Student, codes, peer, tap
from app.classroom import said as class_words
from app.classroom.codes import NAME_MAX
from app.classroom.frame import Frame, LessonPage
from app.classroom.push import current_fragment
from app.classroom.room import HERE_SECONDS
from app.classroom.summary import student_view
from app.classroom.teacher import (
    CLASS_CSS,
    EXPLORING,
    POLL_SECONDS,
    bars_html,
    client_address,
    room,
    session_id,
    watcher,
)
from app.words import i18n
from app.words.i18n import N_, _, n_

__all__ = ["explore_bar", "explore_link", "exploring", "student_page"]

#: Session key: the class this page's student was removed from (no way back in from here).
REMOVED_FROM = "class_removed_from"
#: Session key: the class this page was in when it ended (its last reveal stays shown).
ENDED = "class_ended_in"
#: What a student's page says once their class ended.
CLASS_ENDED = N_("The class has ended. Thank you!")

#: The name boxes take this many characters: more than a name may have (``NAME_MAX``), so a
#: longer name pasted in reaches the room, which says how long it is, instead of the box
#: dropping the paste and the student silently getting a generated name.
NAME_INPUT_MAX = 4 * NAME_MAX

_LOG = logging.getLogger(__name__)


@dataclass
class _Me:
    """A student's place in a class (kept in their browser session and in the address)."""

    code: str
    id: str


def _guarded(callback: Callable[..., None]) -> Callable[..., None]:
    """A student's callback: an unexpected error becomes one line on the page (the question's,
    or the join form's before joining), never a traceback; the class and the page go on. The
    teacher's callbacks have ``app.live.session.safe`` (a student's page has no session of its
    own to keep notices in)."""

    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            callback(*args, **kwargs)
        except Exception as error:
            _LOG.exception("%s failed", callback.__name__)
            joined = isinstance(st.session_state.get("class_me"), _Me)
            where = "class_notice" if joined else "class_join_notice"
            st.session_state[where] = _(
                "That did not work ({error}). Try again.", error=type(error).__name__
            )

    return run


def student_page() -> None:
    """The whole page of a student: the join form until they join, then the teacher's screen
    as the class sees it and the open question."""
    title = html.escape(_("MCTS Lab · class"))
    st.html(CLASS_CSS + f'<h3 class="lab-class-title">{title}</h3>')
    try:
        r = room()
        me = _me()
        if me is None:
            _join_form(r)
            return
        _follow(r, me)
    except OSError as error:  # the store is away: say so; the page comes back with it
        _store_away(error)


def _store_away(error: OSError) -> None:
    st.warning(
        _(
            "Not now: {error}. The page tries again when the teacher's screen changes.",
            error=class_words.refusal(error),
        )
    )


def _me() -> _Me | None:
    me = st.session_state.get("class_me")
    if isinstance(me, _Me):
        return me
    # a reconnecting page (a phone that slept, another replica) finds its place from the URL
    code, token = st.query_params.get("class", ""), st.query_params.get("me", "")
    if code and token:
        try:
            found = room().student(str(code)[:12].upper(), str(token)[:64])
        except OSError:
            found = None
        if found is not None:
            me = _Me(str(code).upper(), found.id)
            st.session_state["class_me"] = me
            return me
    return None


def _join_form(r: Room) -> None:
    _ended(r)
    notice = st.session_state.pop("class_join_notice", "")
    if notice:
        st.error(notice)
    typed = str(st.query_params.get("class", ""))[:40]
    with st.form("class_join_form", border=True):
        st.text_input(_("Class code"), value=typed, key="class_code", max_chars=12,
                      help=_("The code on the projector (letters and digits)."))  # fmt: skip
        st.text_input(_("Your name (optional)"), key="class_name", max_chars=NAME_INPUT_MAX,
                      help=n_("At most {n} character; leave empty for a friendly generated "
                              "name.", "At most {n} characters; leave empty for a friendly "
                              "generated name.", NAME_MAX))  # fmt: skip
        # TRANSLATORS: the button that joins a class
        st.form_submit_button(_("Join"), type="primary", on_click=_on_join)


@_guarded
def _on_join() -> None:
    typed = str(st.session_state.get("class_code", ""))
    if codes.normalise_code(typed) == st.session_state.get(REMOVED_FROM):
        st.session_state["class_join_notice"] = _(
            "The teacher removed your name from this class: ask the teacher to join again."
        )
        return
    try:
        code, student = room().join(
            typed,
            client_address(),
            name=str(st.session_state.get("class_name", "")) or None,
            browser=session_id(),
        )
    except (ClassError, OSError) as error:
        st.session_state["class_join_notice"] = class_words.refusal(error)
        return
    st.session_state["class_me"] = _Me(code, student.id)
    st.session_state.pop(ENDED, None)  # a new class: the last one's end is no news
    st.session_state["class_seen"] = -1
    st.query_params["class"] = code
    st.query_params["me"] = student.id


def _follow(r: Room, me: _Me) -> None:
    student = _still_in(r, me)
    if student is None:
        st.rerun()
    name = student.name
    with st.container(key="class_follow"):
        # one row that wraps on a phone: who you are, your name, your own copy of the tree
        top = st.container(horizontal=True, vertical_alignment="center", gap="small")
        bold_name = f"<b><bdi>{html.escape(name)}</bdi></b>"
        you = _("You are {name} in class {code}", name=bold_name, code=html.escape(me.code))
        top.html(f'<p class="lab-class-line">{you}</p>', width="content")
        # TRANSLATORS: a button that opens the box to change one's nickname
        with top.popover(_("Name")):
            st.text_input(
                _("Your name"),
                key="class_rename",
                max_chars=NAME_INPUT_MAX,
                help=n_("At most {n} character.", "At most {n} characters.", NAME_MAX),
            )
            st.button(_("Use this name"), key="class_rename_go", on_click=_on_rename)
        top.button(
            _("Explore on my own"),
            key="class_explore",
            on_click=_on_explore,
            args=(me,),
            help=_(
                "A copy of this tree on your own device, to step yourself. The class goes on; "
                "Back to the class returns."
            ),
        )
        top.button(
            _("I'm lost"),
            key="class_lost",
            on_click=_on_lost,
            args=(me,),
            help=_(
                "Tell the teacher you are lost on this screen: the teacher sees how many, "
                "never who. It counts until the teacher's next step."
            ),
        )
        said = st.session_state.pop("class_lost_said", "")
        if said:
            st.caption(said)
        _live(me)
    if watcher() is None:  # no watcher to push the teacher's changes: the page asks itself
        _poll_fragment()


def _still_in(r: Room, me: _Me) -> Student | None:
    """This student's record while the class goes on and they are in it; ``None`` otherwise,
    and the page leaves the class (the join form says why)."""
    try:
        r.info(me.code)
        student = r.student(me.code, me.id)
    except ClassError as error:
        if r.ended_for(me.code, me.id):  # a member is told the class ended (a guesser is not)
            st.session_state[ENDED] = me
            _leave("")
        else:
            _leave(class_words.refusal(error))
        return None
    if student is None:
        st.session_state[REMOVED_FROM] = me.code  # not back into this class from this page
        _leave(_("The teacher removed your name from this class."))
    return student


@st.fragment
def _live(me: _Me) -> None:
    """What changes with the teacher's screen: the question and the frame. The watcher reruns
    only this part when the teacher publishes (the name bar and the page's style stay), a
    tenth of the page's elements; a class that ended or a removed name reruns the page."""
    r = room()
    try:
        if _still_in(r, me) is None:
            st.rerun(scope="app")
        version, frame = _shown(r, me.code)
        st.session_state["class_seen"] = version
        asking = _question(r, me, frame, version)
        if asking and frame is not None:  # the tree the question is about, under its answers
            _frame_tree(frame, asking)
        _last_reveal(r, me, frame, version)
    except OSError as error:  # (the watcher pushes again when the store answers)
        _store_away(error)
        return
    if frame is None:
        st.info(_("Waiting for the teacher's screen…"))
    else:
        _frame(frame, tree=not asking)
    push, sid = watcher(), session_id()
    if push is not None and sid is not None:
        push.drawn(sid, me.code, me.id, version, current_fragment())


def _shown(r: Room, code: str) -> tuple[int, Frame | None]:
    """The class's frame now and its version (``None``: nothing published yet): the one place
    this page reads a frame. :meth:`Frame.from_dict` reads any key missing or of the wrong kind
    (a replica of another version) as its default, so the page never checks a key itself."""
    version, data = r.follow(code, -1)
    return version, None if data is None else Frame.from_dict(data)


def explore_link(frame: Frame | None) -> dict[str, str] | None:
    """The published link parameters that rebuild the teacher's tree, kept to the names a link
    may carry and their length (``state.init`` then checks every value as any link's);
    ``None`` when the frame has none."""
    from app.inputs.links import LINK_PARAMS, MAX_VALUE_CHARS

    names = {*LINK_PARAMS, "steps", "phase", "lesson", "page"} - {"presentation"}
    link = {k: v[:MAX_VALUE_CHARS] for k, v in (frame.link if frame else {}).items() if k in names}
    return link or None


def exploring() -> _Me | None:
    """The class this student left to explore on their own (``None``: not exploring)."""
    me = st.session_state.get(EXPLORING)
    return me if isinstance(me, _Me) else None


@_guarded
def _on_explore(me: _Me) -> None:
    from app.live import state

    try:
        _version, frame = _shown(room(), me.code)  # the tree on the projector now
    except (ClassError, OSError) as error:
        st.session_state["class_notice"] = _("Not now: {error}", error=class_words.refusal(error))
        return
    link = explore_link(frame)
    if link is None:
        st.session_state["class_notice"] = _("The teacher's screen has no tree yet.")
        return
    push, sid = watcher(), session_id()
    if push is not None and sid is not None:
        push.forget(sid)  # the teacher's Steps no longer rerun this page
    state.start_over()  # a fresh copy from the link, not a previous exploration's
    keep = {"class": me.code, "me": me.id}
    state.keep_in_url(keep)  # a reload finds the class again
    st.session_state[EXPLORING] = me
    st.session_state.pop("class_me", None)
    st.query_params.from_dict({**link, **keep})


@_guarded
def _on_back() -> None:
    from app.live import state

    me = exploring()
    st.session_state.pop(EXPLORING, None)
    state.keep_in_url(None)
    state.start_over()  # the private tree goes with the exploration
    if me is not None:
        st.session_state["class_me"] = me
        st.session_state["class_seen"] = -1
        st.query_params.from_dict({"class": me.code, "me": me.id})


def explore_bar() -> None:
    """Atop a student's own exploration: that the class goes on, whether it asks a question,
    and **Back to the class** (key ``class_back``)."""
    me = exploring()
    if me is None:
        return
    with st.container(key="class_explore_bar", border=True):
        left, right = st.columns([3, 1], vertical_alignment="center")
        with left:
            _class_news(me)
        right.button(_("Back to the class"), key="class_back", type="primary", on_click=_on_back)


@st.fragment(run_every=HERE_SECONDS)
def _class_news(me: _Me) -> None:
    """The class while a student explores: still counted as connected, and told of an open
    question they have not answered or of the class's end."""
    r = room()
    words = _("You are exploring on your own; class {code} goes on.", code=me.code)
    try:
        r.info(me.code)
        if r.here(me.code, me.id):
            poll = r.store.current_poll(me.code)
            if poll is not None and not poll.revealed and r.my_answer(me.code, me.id, poll) is None:
                words = _(
                    "You are exploring on your own; class {code} goes on. The teacher asked a "
                    "question: go back to answer it.",
                    code=me.code,
                )
        else:
            words = _("The teacher removed your name from the class.")
    except ClassError as error:
        words = class_words.refusal(error)
    except OSError:
        pass  # the store is away for a moment: the next look says more
    st.html(f'<p class="lab-class-line"><b>{html.escape(words)}</b></p>')


def _leave(message: str) -> None:
    push, sid = watcher(), session_id()
    if push is not None and sid is not None:
        push.forget(sid)
    st.session_state.pop("class_me", None)
    st.session_state["class_join_notice"] = message
    if "me" in st.query_params:
        del st.query_params["me"]


@_guarded
def _on_rename() -> None:
    me = _me()
    if me is None:
        return
    try:
        room().rename(me.code, me.id, str(st.session_state.get("class_rename", "")))
    except (ClassError, OSError) as error:
        st.session_state["class_notice"] = class_words.refusal(error)


def _question(r: Room, me: _Me, frame: Frame | None, version: int) -> Poll | None:
    """The open question with its answers (key ``class_answer``) and, for a question about a
    move, the board to tap it on (:mod:`app.classroom.tap`); the open round, or ``None``."""
    notice = st.session_state.pop("class_notice", "")
    if notice:
        st.warning(notice)
    poll = r.store.current_poll(me.code)
    if poll is not None and not poll.revealed:  # the open question first: what to do now
        # the radio shows what the store holds, at every run: after a refusal, a reconnect,
        # or an answer given in another tab of this student
        st.session_state["class_answer"] = r.my_answer(me.code, me.id, poll)
        with st.container(key="class_question", border=True):
            facts = frame.question if frame is not None else None
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
                on_change=_on_answer,
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


def _tap_board(frame: Frame | None, poll: Poll) -> None:
    """Under a question about a move: the position asked about, a tap on a move answers."""
    from app.components.board_tap import render_board_tap

    data = tap.board_data(tap.subject(frame.moves if frame else None, poll), poll,
                          st.session_state.get("class_answer"))  # fmt: skip
    if data is not None:
        tapped = _guarded(tap.on_tap(tap.BOARD_KEY, poll, _on_answer))
        with st.container(key="class_board_box"):
            render_board_tap(data, key=tap.BOARD_KEY, on_answer=tapped)


_PI_CSS = """<style>
.lab-round-banner {background: #ede9fe; border-left: 0.35rem solid #7c3aed; padding: 0.3rem 0.5rem;
  margin: 0 0 0.3rem 0; font-size: 1rem; line-height: 1.3;}
.lab-vote-closed {background: #fef3c7; border-left: 0.35rem solid #b45309; padding: 0.3rem 0.5rem;}
.st-key-class_confidence label {min-height: 2.4rem; align-items: center;}
</style>"""


def _round_banner(r: Room, me: _Me, poll: Poll, facts: dict[str, Any] | None) -> None:
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


def _confidence(r: Room, me: _Me, poll: Poll, facts: dict[str, Any] | None = None) -> None:
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


@_guarded
def _on_confidence(poll_id: str, round_: int) -> None:
    """Send the picked confidence to the round it was drawn for (as :func:`_on_answer`)."""
    me = _me()
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


@_guarded
def _on_lost(me: _Me) -> None:
    """I'm lost: counted on the teacher's screen now (how many, never who)."""
    try:
        room().lost(me.code, me.id)
    except (ClassError, OSError) as error:
        st.session_state["class_lost_said"] = _(
            "Not sent: {error}", error=class_words.refusal(error)
        )
        return
    st.session_state["class_lost_said"] = _(
        "Sent: the teacher sees how many are lost (not who) until the next step."
    )


def _last_reveal(r: Room, me: _Me, frame: Frame | None, version: int) -> None:
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
.lab-reveal-rows tr.lab-mark td {font-weight: 700; background: #fef9c3;}
</style>"""


def _verdict(
    r: Room, me: _Me, rounds: tuple[Poll, ...], facts: dict[str, Any] | None = None
) -> str:
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


def _ended(r: Room) -> None:
    """Atop the join form after the class this page was in ended: it says so and keeps the
    last reveal, then the student's own answers, score and misconceptions with the lesson
    page about each (container ``class_my_summary``; the store keeps an ended class until it
    expires)."""
    me = st.session_state.get(ENDED)
    if not isinstance(me, _Me):
        return
    with st.container(key="class_ended", border=True):
        st.html(f'<p class="lab-class-line"><b>{html.escape(_(CLASS_ENDED))}</b></p>')
        try:
            version, frame = _shown(r, me.code)
            _last_reveal(r, me, frame, version)
            mine = student_view(r, me.code, me.id)
            if mine:
                with st.container(key="class_my_summary"):
                    st.html(CLASS_CSS + mine)
        except (ClassError, OSError):
            pass  # expired, or the store away: the sentence alone


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
    as closed (:func:`_on_answer`); two rounds share a tag 1 time in 65,536."""
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


@_guarded
def _on_answer(poll_id: str, round_: int, choices: tuple[str, ...] = ()) -> None:
    """Send the picked answer to the round the radio was drawn for. A tap on a question the
    page no longer shows (its label is another round's: :func:`round_tag`), or a refusal (a
    round that closed while the page was away, too many answers, the store away) is said, and
    the radio goes back to what the store holds: it never shows a choice that was not kept."""
    me = _me()
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


def _frame_tree(frame: Frame, poll: Poll | None = None) -> None:
    """The teacher's tree as published (nothing when it has no nodes to draw); with the open
    ``poll`` about a move, a tap on a move's box answers it (:mod:`app.classroom.tap`)."""
    from app.components.tree_view import render_tree_data

    if frame.tree is None:  # (a tree with nodes to draw: Frame.from_dict)
        return
    answer = None
    if poll is not None:
        found = tap.subject(frame.moves, poll)
        answer = tap.tree_answer(found, poll, st.session_state.get("class_answer"))
    on_answer = _guarded(tap.on_tap(tap.TREE_KEY, poll, _on_answer)) if answer and poll else None
    # the teacher's geometry with its words in this page's language (Frame.tree_words)
    tree = class_words.tree_in_language(frame.tree, frame.tree_words)
    render_tree_data(tree, key=tap.TREE_KEY, height=360, fit=True, answer=answer,
                     on_answer=on_answer)  # fmt: skip


def _frame(frame: Frame, tree: bool = True) -> None:
    """The teacher's screen as published: statistics, lesson page, tree (``tree``: not drawn
    already under an open question), narration; each made from the frame's facts in this
    page's language where the frame has them (the teacher's words otherwise)."""

    # one element for the statistics and the lesson page, one for the narration: each element
    # is work for the server on every student's page at every Step
    stats = class_words.render_numbers(frame.numbers) or frame.stats
    top = f'<div class="lab-stats">{html.escape(stats)}</div>'
    lesson = _lesson_page(frame)
    if lesson is not None:
        text = "".join(f"<p>{html.escape(p)}</p>" for p in lesson.text.split("\n\n") if p)
        top += (
            f'<div class="lab-lesson"><p class="lab-lesson-head">'
            f"{html.escape(lesson.title)}</p>{text}</div>"
        )
    st.html(top)
    if tree:
        _frame_tree(frame)
    lines = narration_lines(frame)
    if lines:
        st.html("".join(f'<p class="lab-narration">{html.escape(line)}</p>' for line in lines))


def narration_lines(frame: Frame) -> list[str]:
    """The narration's lines in this page's language: each made from its facts
    (``Frame.said``), the teacher's line where it has none or they do not read."""
    lines = []
    for n, line in enumerate(frame.narration):
        facts = frame.said[n] if n < len(frame.said) else None
        shown = class_words.render_line(facts, frame.said) if facts is not None else None
        lines.append(line if shown is None else shown)
    return lines


def _lesson_page(frame: Frame) -> LessonPage | None:
    """The teacher's lesson page in this page's language (the lesson's translation, English
    where it has none: ``app.lessons.lesson_view.page_words``); the teacher's words when the
    frame names no page or this server does not know the lesson."""
    ref = frame.lesson_ref
    if ref is None:
        return frame.lesson
    from app.lessons import lesson_view

    page_words = getattr(lesson_view, "page_words", None)
    try:
        found, _errors = lesson_view.lessons()
        lesson = found.get(ref.name)
        if lesson is None or page_words is None or not lesson.pages:
            return frame.lesson
        words = page_words(lesson, min(ref.page, len(lesson.pages)))
    except Exception:  # (a lesson file this replica reads otherwise: the teacher's words)
        _LOG.exception("the lesson page %s/%s did not read", ref.name, ref.page)
        return frame.lesson
    return LessonPage(str(words["title"]), str(words["text"]))


def _poll_fragment() -> None:
    """Where no watcher runs: every POLL_SECONDS, has the teacher's screen changed? Nothing is
    drawn and one indexed read is made when it has not; a change reruns the page. Every
    HERE_SECONDS it also says the page is open, and a student the teacher removed gets the
    page that says so."""

    @st.fragment(run_every=POLL_SECONDS)
    def poll() -> None:
        me = st.session_state.get("class_me")
        if not isinstance(me, _Me):
            return
        r = room()
        now = time.time()
        if now - float(st.session_state.get("class_here_at", 0.0)) >= HERE_SECONDS:
            st.session_state["class_here_at"] = now
            if not r.here(me.code, me.id):  # removed: the whole page says so (_follow)
                st.rerun(scope="app")
        version = r.version(me.code)
        if version != st.session_state.get("class_seen"):
            st.rerun(scope="app")

    poll()
