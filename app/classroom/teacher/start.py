"""The teacher's class from start to end: **Start a class** (``class_start``), the classes this
browser ended (Past classes), **End class** and the end-of-class summary (container
``class_summary``), and taking a class back: after a reload by the teacher cookie
(:func:`resume_once`), in another browser by the class code and its PIN (**Take back a class**,
:func:`pin_box`). The teacher's browser session keeps the class's secret (session key
``class_teacher``, never in a URL)."""

from __future__ import annotations

import functools
import html
import logging
from types import ModuleType

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from app.classroom import ClassError, Room, Teacher
from app.classroom.core import codes, said
from app.classroom.core.store import RETENTION_SECONDS
from app.classroom.core.summary import teacher_view
from app.classroom.shared import (
    CLASS_CSS,
    EXPLORING,
    client_address,
    room,
    teacher,
)
from app.classroom.teacher import vote
from app.components.cookie import read_cookie, write_cookie
from app.live.session import notify, redraw_sidebar, safe, session
from app.quiz import QuizState
from app.words.i18n import _, decimal, isolate

_LOG = logging.getLogger(__name__)


def start_button(where: DeltaGenerator | ModuleType = st, *, sidebar: bool = True) -> None:
    """**Start a class** (key ``class_start``) while this session teaches no class (and is no
    student exploring on their own: app/classroom/student/); in the sidebar (``sidebar``) also
    **Take back a class** and the classes it ended (the header of Present mode has room for the
    button alone: the screen below it is measured to fit 720 px)."""
    if teacher() is None and st.session_state.get(EXPLORING) is None:
        where.button(
            _("Start a class"),
            key="class_start",
            on_click=_on_start,
            help=_("Students join on their phones with a code and answer the quiz together."),
        )
        if sidebar:
            _resume_form(where)
            _past_classes(where)


#: Session key: the classes this session ended, newest first (their results stay readable).
PAST = "class_past"

#: Past classes kept in a session's list at most.
PAST_MAX = 10


def _past_classes(where: DeltaGenerator | ModuleType) -> None:
    """**Past classes**: each class this session ended, with its Results (CSV) (keys
    ``class_past_<code>``) for as long as the store keeps it
    (``app.classroom.core.store.RETENTION_SECONDS``: 7 days)."""
    past = [t for t in st.session_state.get(PAST, []) if isinstance(t, Teacher)]
    if not past:
        return
    with where.expander(_("Past classes ({n})", n=decimal(len(past)))):
        for found in past:
            st.download_button(
                _("Results of class {code} (CSV)", code=isolate(found.code)),
                data=functools.partial(results_csv, found),
                file_name=f"class-{found.code}.csv",
                mime="text/csv",
                key=f"class_past_{found.code}",
                on_click="ignore",
            )
            try:  # the end-of-class summary, as the screen showed it at the end
                shown = _summary_of(found, ended=True)
            except OSError:
                shown = None  # (the store away: the CSV's button says so when pressed)
            if shown:
                st.html(shown)


@safe
def _on_start() -> None:
    try:
        found = room().start()
    except (ClassError, OSError) as error:
        notify("error", _("No class started: {error}", error=said.refusal(error)))
        return
    _teach(found, poll=None, last_reveal=None, quiz=True)
    st.session_state["class_join_shown"] = True


def _teach(found: Teacher, poll: str | None, last_reveal: str | None, quiz: bool) -> None:
    """This session teaches ``found`` from now on: its class's open question ``poll`` (waiting
    to be matched with the quiz's own question: :func:`_sync_poll`) and ``last_reveal``;
    ``quiz``: the quiz is turned on (a new class; a class taken back with a question open; a
    class taken back between questions keeps the page's quiz setting)."""
    st.session_state["class_teacher"] = found
    st.session_state["class_join_shown"] = False
    # (id of the quiz's question, poll id) the class answers now; 0: not matched yet
    st.session_state["class_poll"] = None if poll is None else (0, poll)
    st.session_state["class_last_reveal"] = last_reveal
    st.session_state["class_published"] = ""
    st.session_state["class_end_ask"] = False
    st.session_state.pop(ENDED_SUMMARY, None)  # (the last class's summary goes)
    if quiz:
        st.session_state["quiz"] = True  # the class answers the quiz's questions
    _add_past(found, drop=True)


def _add_past(found: Teacher, drop: bool = False) -> None:
    """Put ``found`` first in Past classes (``drop``: take it out of the list instead)."""
    past = [t for t in st.session_state.get(PAST, []) if t.code != found.code]
    st.session_state[PAST] = (past if drop else [found, *past])[:PAST_MAX]


@safe
def on_end_ask() -> None:
    st.session_state["class_end_ask"] = True


@safe
def on_end_cancel() -> None:
    st.session_state["class_end_ask"] = False


@safe
def on_end() -> None:
    st.session_state["class_end_ask"] = False
    found = teacher()
    if found is not None:
        try:
            room().end(found.code, found.secret)
        except ClassError:  # (a class that already ended: nothing to do)
            pass
        except OSError as error:
            notify(
                "warning",
                _("The class did not end: {error}. Try End again.", error=said.refusal(error)),
            )
            return
        _add_past(found)  # its results stay downloadable
        st.session_state[ENDED_SUMMARY] = found  # the screen shows the class's summary
    st.session_state["class_teacher"] = None
    redraw_sidebar()  # (End is a click in the screen's fragment; Past classes are the sidebar's)


#: Session key: the class this session ended last; the screen shows its summary (container
#: ``class_summary``, in the room box's place) until **Close summary** or a new class.
ENDED_SUMMARY = "class_summary_of"


def ended_summary() -> Teacher | None:
    """The class whose end-of-class summary the screen shows (``None``: none, or a class
    is taught now)."""
    found = st.session_state.get(ENDED_SUMMARY)
    return found if isinstance(found, Teacher) and teacher() is None else None


def _summary_of(found: Teacher, ended: bool = False) -> str | None:
    """The class's summary (``app.classroom.core.summary``) as HTML; ``None`` when the store no
    longer keeps it, it is not this key's (or, with ``ended``, it has not ended)."""
    r = room()
    if ended:
        info = r.store.class_info(found.code)
        if info is None or not info.ended:
            return None
    return teacher_view(r, found.code, found.secret)


def summary_box(found: Teacher) -> None:
    """The end-of-class summary (container ``class_summary``): the class's score and, per
    misconception its wrong answers showed, how many students and times, with the lesson page
    about it (no names: it may be projected); **Close summary** (``class_summary_close``)."""
    with st.container(key="class_summary", border=True):
        try:
            shown = _summary_of(found)
        except OSError:
            shown = None
            st.caption(_("The class store did not answer. This page tries again every second."))
        if shown is not None:
            st.html(CLASS_CSS + shown)
        st.button(_("Close summary"), key="class_summary_close", on_click=_on_summary_close,
                  help=_("The summary stays under Past classes in the sidebar."))  # fmt: skip


@safe
def _on_summary_close() -> None:
    st.session_state.pop(ENDED_SUMMARY, None)


#: The cookie that keeps this browser's teacher key (Path=/, SameSite=Strict; a script's, so
#: not HttpOnly): one class, ``CODE:SECRET:PIN`` of the class this session teaches (the PIN
#: comes back in the sidebar after a reload; it gives no more than the secret beside it), else
#: ``CODE:SECRET:`` of the newest in Past classes (its results after End and a reload). Older
#: classes are not kept: take one back by its code and PIN. Kept as long as the store keeps a
#: class (``RETENTION_SECONDS``). A cookie of several entries (``|`` between, newest first:
#: written before issue 42) is still read.
TEACHER_COOKIE = "mcts_lab_teacher"

#: Session key: the teacher cookie was read (once per browser session: a reload is a new one).
RESUMED = "class_resumed"


def _keys_of(text: str | None) -> list[Teacher]:
    """The teacher keys a cookie's value holds (malformed entries skipped), newest first."""
    found: list[Teacher] = []
    for entry in (text or "").split("|")[: PAST_MAX + 1]:
        code, _sep, rest = entry.partition(":")
        secret, _sep2, pin = rest.partition(":")
        code = codes.normalise_code(code) or ""
        if code and secret and len(secret) <= 64 and code not in {t.code for t in found}:
            found.append(Teacher(code, secret, codes.normalise_pin(pin) or ""))
    return found


def resume_once() -> None:
    """At a teacher page's first run (a reload, a new tab, a restarted replica): the classes
    this browser's teacher cookie names come back. The newest open one is taught again (its
    room box, its open question, Reveal, Results, End), the others join Past classes; keys the
    store no longer accepts are dropped. With the store away it tries again at the next run."""
    if st.session_state.get(RESUMED) or teacher() is not None:
        return
    keys = _keys_of(read_cookie(TEACHER_COOKIE))
    if not keys:
        st.session_state[RESUMED] = True
        return
    try:
        r = room()
        claimed = []
        for key in keys:
            try:
                claimed.append((key, r.claim(key.code, key.secret)))
            except ClassError:
                continue  # (expired, or not this store's: forgotten)
    except OSError as error:
        st.sidebar.caption(
            _(
                "Your class could not be found now: {error}. Reload to try again.",
                error=said.refusal(error),
            )
        )
        return
    st.session_state[RESUMED] = True
    taught = next((key for key, info in claimed if not info.ended), None)
    for key, _info in reversed(claimed):
        if key is not taught:
            _add_past(key)
    if taught is not None:
        _take_back(r, taught)


def _take_back(r: Room, found: Teacher) -> None:
    """Teach ``found`` again: the store's open question stays open (matched with the quiz's
    question when the rebuilt screen asks the same one), the last reveal is shown again."""
    polls = r.store.polls(found.code)
    current = r.store.current_poll(found.code)
    revealed = [p.id for p in polls if p.revealed]
    open_poll = current.id if current is not None and not current.revealed else None
    _teach(found, poll=open_poll, last_reveal=revealed[-1] if revealed else None,
           quiz=open_poll is not None)  # fmt: skip
    if open_poll is not None:
        # the quiz asks again the question it asked then: the poll's id holds its counter
        lab = session()
        if lab.quiz is None:
            lab.quiz = QuizState()
        asked = open_poll[1:].partition("-")[0]
        lab.quiz.counter = max(0, int(asked) - 1) if asked.isdigit() else lab.quiz.counter


def teacher_cookie(taught: Teacher | None, past: list[Teacher]) -> str | None:
    """The teacher cookie's value (:data:`TEACHER_COOKIE`) for the class ``taught`` and Past
    classes ``past`` (newest first); ``None``: nothing to keep."""
    if taught is not None:
        return f"{taught.code}:{taught.secret}:{taught.pin}"
    if past:
        return f"{past[0].code}:{past[0].secret}:"  # (no PIN: the class is not taught)
    return None


def keep_teacher_keys(where: DeltaGenerator) -> None:
    """Write this session's teacher key into the browser's teacher cookie
    (:data:`TEACHER_COOKIE`: the class it teaches, else the newest past one, so a reload gets
    it back); draws nothing."""
    if not st.session_state.get(RESUMED):
        return  # (the cookie was not read yet: writing now would forget its keys)
    past = [t for t in st.session_state.get(PAST, []) if isinstance(t, Teacher)]
    value = teacher_cookie(teacher(), past)
    if value is None:
        return
    with where:
        write_cookie(TEACHER_COOKIE, value, RETENTION_SECONDS, key="class_keys")


def _resume_form(where: DeltaGenerator | ModuleType) -> None:
    """**Take back a class**: the class code and the teacher PIN its sidebar showed, for
    another browser (a reload in the same browser needs nothing: the teacher cookie)."""
    with where.expander(_("Take back a class")), st.form("class_resume_form", border=False):
        st.text_input(_("Class code"), key="class_resume_code", max_chars=12)
        st.text_input(_("Teacher PIN"), key="class_resume_pin", max_chars=16, type="password",
                      help=_("Shown under Teacher PIN in the sidebar of the page that "
                             "started the class."))  # fmt: skip
        st.form_submit_button(_("Take back"), key="class_resume", on_click=_on_resume)


@safe
def _on_resume() -> None:
    typed_code = str(st.session_state.get("class_resume_code", ""))
    typed_pin = str(st.session_state.get("class_resume_pin", ""))
    st.session_state["class_resume_pin"] = ""  # (never kept on screen)
    r = room()
    try:
        found, info = r.claim_by_pin(typed_code, typed_pin, client_address())
    except (ClassError, OSError) as error:
        notify("warning", _("Not taken back: {error}", error=said.refusal(error)))
        return
    found = Teacher(found.code, found.secret, found.secret)  # (the PIN is this key's secret)
    if info.ended:
        _add_past(found)
        notify("info", _("Class {code} has ended: its results are under Past classes.",
                         code=isolate(found.code)))  # fmt: skip
        return
    try:
        _take_back(r, found)
    except OSError as error:
        st.session_state["class_teacher"] = None
        notify("warning", _("Not taken back: {error}", error=said.refusal(error)))
        return
    st.session_state[RESUMED] = True


def pin_box(where: DeltaGenerator | ModuleType = st) -> None:
    """**Teacher PIN** (closed: keep it off the projector): the PIN that takes this class back
    in another browser."""
    found = teacher()
    if found is None or not found.pin:
        return
    with where.expander(_("Teacher PIN (not for the projector)")):
        button = "<b>" + html.escape(_("Take back a class")) + "</b>"
        bold_code = "<b><bdi>" + html.escape(found.code) + "</bdi></b>"
        told = _(
            "Another browser takes this class back with {button}: class {code}, PIN",
            button=button,
            code=bold_code,
        )
        st.html(
            f'<p class="lab-class-line">{told}</p>'
            f'<p class="lab-class-url"><code>{html.escape(codes.format_pin(found.pin))}</code></p>'
        )


def results_csv(found: Teacher) -> str:

    return room().results_csv(found.code, found.secret, vote.anonymous())
