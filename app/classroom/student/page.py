"""A student's page in a class: join by code, follow the teacher's screen, answer, and explore
on one's own.

``/?class=CODE`` (the QR code on the projector) opens the join form; a student joins with a
generated nickname or their own and then sees the teacher's screen as the class sees it (the
published *frame*: statistics, the tree view's data, narration, lesson page) and the open
question (:func:`student_page`): a student never waits for a search. The question and the frame
are one fragment that the process's watcher (app/classroom/push.py) reruns when the teacher
publishes; the page itself has no timer that fires in a lesson (a quarter-hour one makes a
page whose connection came back ask for a run: :func:`_timer_for_reconnects`). **Explore on
my own** turns the page into the single-user app opened from the teacher's shared link
(:func:`explore_bar` atop it), **Back to the class** returns. Every string from a student is
shown as escaped text only.
"""

from __future__ import annotations

import html
import logging
import time

import streamlit as st

from app.classroom import ClassError, ClassInfo, Poll, Room, Student
from app.classroom.core import codes
from app.classroom.core import said as class_words
from app.classroom.core.codes import NAME_MAX
from app.classroom.core.frame import Frame, LessonPage
from app.classroom.core.room import HERE_SECONDS
from app.classroom.core.summary import student_view
from app.classroom.push import current_fragment
from app.classroom.shared import (
    CLASS_CSS,
    EXPLORING,
    POLL_SECONDS,
    client_address,
    room,
    session_id,
    watcher,
)
from app.classroom.student import shown, turns
from app.classroom.student import taps as tap
from app.classroom.student.answer import last_reveal_box, open_question, send_answer
from app.classroom.student.me import Me, find_me, guarded, keep_me
from app.words.i18n import N_, _, isolate, n_

_LOG = logging.getLogger(__name__)

__all__ = ["explore_bar", "explore_link", "exploring", "student_page"]


#: Session key: the class this page's student was removed from (no way back in from here).
REMOVED_FROM = "class_removed_from"

#: Session key: the class this page was in when it ended (its last reveal stays shown).
ENDED = "class_ended_in"

#: What a student's page says once their class ended.
#: Session key: (the screen key "I'm lost" was counted on, or ``None`` for a refusal; the
#: line the page says about it).
LOST_SAID = "class_lost_said"
CLASS_ENDED = N_("The class has ended. Thank you!")

#: The name boxes take this many characters: more than a name may have (``NAME_MAX``), so a
#: longer name pasted in reaches the room, which says how long it is, instead of the box
#: dropping the paste and the student silently getting a generated name.
NAME_INPUT_MAX = 4 * NAME_MAX


def student_page() -> None:
    """The whole page of a student: the join form until they join, then the teacher's screen
    as the class sees it and the open question."""
    title = html.escape(_("MCTS Lab · class"))
    st.html(CLASS_CSS + f'<h3 class="lab-class-title">{title}</h3>')
    with turns.turn():  # (the class's students draw in turns: turns.py)
        try:
            r = room()
            me = find_me()
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


@guarded
def _on_join() -> None:
    typed = str(st.session_state.get("class_code", ""))
    if codes.normalise_code(typed) == st.session_state.get(REMOVED_FROM):
        st.session_state["class_join_notice"] = _(
            "The teacher removed your name from this class: ask the teacher to join again."
        )
        return
    key = codes.new_student_id()  # this browser's secret: its cookie (me.keep_me)
    try:
        code, student = room().join(
            typed,
            client_address(),
            name=str(st.session_state.get("class_name", "")) or None,
            browser=session_id(),
            key=key,
        )
    except ClassError as error:
        st.session_state["class_join_notice"] = class_words.refusal(error)
        return
    except OSError as error:  # (the store away: a line the page says, as its other ones)
        st.session_state["class_join_notice"] = _("Not now: {error}",
                                                  error=class_words.refusal(error))  # fmt: skip
        return
    st.session_state["class_me"] = Me(code, student.id, key)
    st.session_state.pop(ENDED, None)  # a new class: the last one's end is no news
    st.session_state["class_seen"] = -1
    st.query_params["class"] = code
    st.query_params["me"] = student.id


def _follow(r: Room, me: Me) -> None:
    found = _still_in(r, me)
    if found is None:
        st.rerun()
    _info, student = found
    keep_me(me)  # a reload of this browser finds its place again; another browser does not
    name = student.name
    with st.container(key="class_follow"):
        # one row that wraps on a phone: who you are, your name, your own copy of the tree
        top = st.container(horizontal=True, vertical_alignment="center", gap="small")
        bold_name = f"<b><bdi>{html.escape(name)}</bdi></b>"
        code = f"<bdi>{html.escape(me.code)}</bdi>"  # (a code may start with a digit)
        you = _("You are {name} in class {code}", name=bold_name, code=code)
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
        _live(me)
    if watcher() is None:  # no watcher to push the teacher's changes: the page asks itself
        _poll_fragment()
    else:
        _timer_for_reconnects()


#: The student's page's one timer (seconds): long, it is there to be had, not to fire.
RECONNECT_TIMER_SECONDS = 900.0


@st.fragment(run_every=RECONNECT_TIMER_SECONDS)
def _timer_for_reconnects() -> None:
    """Draws nothing. Streamlit's page, when its connection comes back (its replica died and
    nginx sent it to another), asks for a run only if it has a fragment timer or its last run
    was a fragment's; without one, a page whose last run was whole (a join, a reload) would sit
    on a new session that never ran: unknown to that replica's watcher, so frozen on the
    teacher's old screen, and a tap made while it was away never sent. With this timer it
    asks, with the widget values it holds (a held tap: app/classroom/student/taps.py). It
    fires every quarter of an hour, a fragment that draws nothing: the watcher still does the
    pushing (app/classroom/push.py)."""


def _still_in(r: Room, me: Me) -> tuple[ClassInfo, Student] | None:
    """The class's record and this student's while the class goes on and they are in it
    (the class's is the one its frame is read by: ``shown.frame_now``); ``None`` otherwise, and the
    page leaves the class (the join form says why)."""
    try:
        info = r.info(me.code)
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
        return None
    return info, student


@st.fragment
def _live(me: Me) -> None:
    """What changes with the teacher's screen: the question and the frame. The watcher reruns
    only this part when the teacher publishes (the name bar and the page's style stay), a
    tenth of the page's elements; a class that ended or a removed name reruns the page."""
    with turns.turn():  # (one of the turns the class's pages take: turns.py)
        r = room()
        try:
            found = _still_in(r, me)
            if found is None:
                st.rerun(scope="app")
            version, frame, screen = shown.frame_now(r, me.code, found[0])
            st.session_state["class_seen"] = version
            _lost_said(screen)
            asking = open_question(r, me, frame, version)
            if asking and frame is not None:  # the tree the question is about, under its answers
                _frame_tree(frame, (me.code, version), asking)
            last_reveal_box(r, me, frame, version)
        except OSError as error:  # (the watcher pushes again when the store answers)
            _store_away(error)
            return
        if frame is None:
            st.info(_("Waiting for the teacher's screen…"))
        else:
            _frame(frame, (me.code, version), tree=not asking)
        push, sid = watcher(), session_id()
        if push is not None and sid is not None:
            push.drawn(sid, me.code, me.id, version, current_fragment())


def _lost_said(screen: str) -> None:
    """What "I'm lost" got (:data:`LOST_SAID`): "Sent" while the teacher's screen is the one
    it was counted on (the teacher's count starts again at the next Step, and the line goes
    with it), a refusal once."""
    said = st.session_state.get(LOST_SAID)
    if not said:
        return
    counted_on, text = said
    if counted_on is None or counted_on != screen:
        st.session_state.pop(LOST_SAID, None)
    if counted_on is None or counted_on == screen:
        st.caption(text)


def explore_link(frame: Frame | None) -> dict[str, str] | None:
    """The published link parameters that rebuild the teacher's tree, kept to the names a link
    may carry and their length (``state.init`` then checks every value as any link's);
    ``None`` when the frame has none."""
    from app.inputs.links import LINK_PARAMS, MAX_VALUE_CHARS

    names = {*LINK_PARAMS, "steps", "phase", "lesson", "page"} - {"presentation"}
    link = {k: v[:MAX_VALUE_CHARS] for k, v in (frame.link if frame else {}).items() if k in names}
    return link or None


def exploring() -> Me | None:
    """The class this student left to explore on their own (``None``: not exploring)."""
    me = st.session_state.get(EXPLORING)
    return me if isinstance(me, Me) else None


@guarded
def _on_explore(me: Me) -> None:
    from app.live import state

    try:
        _version, frame, _screen = shown.frame_now(room(), me.code)  # the tree on the projector now
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


@guarded
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
def _class_news(me: Me) -> None:
    """The class while a student explores: still counted as connected, and told of an open
    question they have not answered or of the class's end."""
    r = room()
    words = _("You are exploring on your own; class {code} goes on.", code=isolate(me.code))
    try:
        r.info(me.code)
        if r.here(me.code, me.id):
            poll = r.store.current_poll(me.code)
            if poll is not None and not poll.revealed and r.my_answer(me.code, me.id, poll) is None:
                words = _(
                    "You are exploring on your own; class {code} goes on. The teacher asked a "
                    "question: go back to answer it.",
                    code=isolate(me.code),
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


@guarded
def _on_rename() -> None:
    me = find_me()
    if me is None:
        return
    try:
        room().rename(me.code, me.id, str(st.session_state.get("class_rename", "")))
    except (ClassError, OSError) as error:
        st.session_state["class_notice"] = class_words.refusal(error)


@guarded
def _on_lost(me: Me) -> None:
    """I'm lost: counted on the teacher's screen now (how many, never who)."""
    try:
        screen = room().lost(me.code, me.id)
    except (ClassError, OSError) as error:
        st.session_state[LOST_SAID] = (None, _("Not sent: {error}",
                                               error=class_words.refusal(error)))  # fmt: skip
        return
    st.session_state[LOST_SAID] = (
        screen,
        _("Sent: the teacher sees how many are lost (not who) until the next step."),
    )


def _ended(r: Room) -> None:
    """Atop the join form after the class this page was in ended: it says so and keeps the
    last reveal, then the student's own answers, score and misconceptions with the lesson
    page about each (container ``class_my_summary``; the store keeps an ended class until it
    expires)."""
    me = st.session_state.get(ENDED)
    if not isinstance(me, Me):
        return
    with st.container(key="class_ended", border=True):
        st.html(f'<p class="lab-class-line"><b>{html.escape(_(CLASS_ENDED))}</b></p>')
        try:
            version, frame, _screen = shown.frame_now(r, me.code)
            last_reveal_box(r, me, frame, version)
            mine = student_view(r, me.code, me.id)
            if mine:
                with st.container(key="class_my_summary"):
                    st.html(CLASS_CSS + mine)
        except (ClassError, OSError):
            pass  # expired, or the store away: the sentence alone


def _frame_tree(frame: Frame, at: tuple[str, int], poll: Poll | None = None) -> None:
    """The teacher's tree as published (nothing when it has no nodes to draw); with the open
    ``poll`` about a move, a tap on a move's box answers it (:mod:`app.classroom.student.taps`).
    ``at``: the frame's class and version (its words are made once a language: :mod:`.shown`)."""
    from app.components.tree_view import render_tree_data

    if frame.tree is None:  # (a tree with nodes to draw: Frame.from_dict)
        return
    answer = None
    if poll is not None:
        found = tap.subject(frame.moves, poll)
        answer = tap.tree_answer(found, poll, st.session_state.get(tap.ANSWER_KEY),
                                 st.session_state.get(tap.SEEN))  # fmt: skip
    on_answer = guarded(tap.on_tap(tap.TREE_KEY, poll, send_answer)) if answer and poll else None
    # the teacher's geometry with its words in this page's language (Frame.tree_words)
    drawn, words = frame.tree, frame.tree_words
    tree = shown.in_language(*at, "tree", lambda: class_words.tree_in_language(drawn, words))
    render_tree_data(tree, key=tap.TREE_KEY, height=360, fit=True, answer=answer,
                     on_answer=on_answer)  # fmt: skip


def _frame(frame: Frame, at: tuple[str, int], tree: bool = True) -> None:
    """The teacher's screen as published: statistics, lesson page, tree (``tree``: not drawn
    already under an open question), narration; each made from the frame's facts in this
    page's language where the frame has them (the teacher's words otherwise), once a
    language on this process (``at``: the frame's class and version, :mod:`.shown`)."""

    # one element for the statistics and the lesson page, one for the narration: each element
    # is work for the server on every student's page at every Step
    st.html(shown.in_language(*at, "top", lambda: _top_html(frame)))
    if tree:
        _frame_tree(frame, at)
    narration = shown.in_language(*at, "narration", lambda: _narration_html(frame))
    if narration:
        st.html(narration)


def _top_html(frame: Frame) -> str:
    """The statistics line and the lesson page, in this page's language."""
    stats = class_words.render_numbers(frame.numbers) or frame.stats
    top = f'<div class="lab-stats">{html.escape(stats)}</div>'
    lesson = _lesson_page(frame)
    if lesson is not None:
        text = "".join(f"<p>{html.escape(p)}</p>" for p in lesson.text.split("\n\n") if p)
        top += (
            f'<div class="lab-lesson"><p class="lab-lesson-head">'
            f"{html.escape(lesson.title)}</p>{text}</div>"
        )
    return top


def _narration_html(frame: Frame) -> str:
    """The narration's lines in this page's language ("": none)."""
    lines = narration_lines(frame)
    return "".join(f'<p class="lab-narration">{html.escape(line)}</p>' for line in lines)


def narration_lines(frame: Frame) -> list[str]:
    """The narration's lines in this page's language: each made from its facts
    (``Frame.said``), the teacher's line where it has none or they do not read."""
    lines = []
    for n, line in enumerate(frame.narration):
        facts = frame.said[n] if n < len(frame.said) else None
        made = class_words.render_line(facts, frame.said) if facts is not None else None
        lines.append(line if made is None else made)
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
        if not isinstance(me, Me):
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
