"""A class in the app: the teacher's join box, room box and buttons, and what both sides share
(the room over the class store, the process's watcher, the bars of a revealed question).

The teacher presses **Start a class** (``class_start``): the room (:mod:`app.classroom`) makes
a class with a join code, and the teacher's browser session keeps the class's secret (session
key ``class_teacher``, never in a URL). From then on every screen the teacher draws is
published as a *frame* (plain JSON: the statistics, the tree view's data, the narration, the
lesson page) and every quiz question is opened to the class as a poll. A student opens
``/?class=CODE`` (the QR code), joins with a generated nickname, and their page draws the
frames the watcher pushes to it (app/classroom/student.py): a student never waits for a search.

The quiz's questions are the class's questions: the teacher's click that settles one (Step,
or **Reveal**, which makes that click) reveals the class's answers with the numbers that
decided it; **Vote again** before that opens a second round after discussion, and the reveal
shows the rounds side by side. Every string from a student is shown as escaped text only.
"""

from __future__ import annotations

import functools
import html
import logging
import secrets
import time
from typing import Any

import segno
import streamlit as st

from app.classroom import ClassError, Poll, Room, Teacher, class_heat, codes, said, vote
from app.classroom.frame import Frame, LessonPage, LessonRef
from app.classroom.here import room, session_id, teacher, watcher
from app.classroom.store import RETENTION_SECONDS
from app.classroom.summary import teacher_view
from app.components.cookie import read_cookie, write_cookie
from app.inputs.public_url import public_base
from app.live.session import notify, redraw_sidebar, safe, session
from app.quiz import ClassCounts, QuizState, Reveal
from app.words import i18n
from app.words.c_sensitivity import flip_c
from app.words.i18n import N_, _, decimal
from app.words.phrases import comma_list
from games.registry import game_spec

__all__ = [
    "CLASS_CSS",
    "EXPLORING",
    "bars_html",
    "class_counts",
    "client_address",
    "frame_of",
    "is_student_page",
    "join_url",
    "keep_teacher_keys",
    "pin_box",
    "publish",
    "resume_once",
    "room",
    "room_box",
    "session_id",
    "unmatched_poll",
    "start_button",
    "sync_poll",
    "teacher",
    "watcher",
]

_LOG = logging.getLogger(__name__)

#: How often a student's page asks whether the teacher's screen changed (seconds) when no
#: watcher pushes the change to it (app/classroom/push.py: AppTest, a Streamlit without the runtime
#: names it uses). With a watcher a page has no timer.
POLL_SECONDS = 1.0
#: Session key: the class a student left to explore on their own (app/classroom/student.py).
EXPLORING = "class_exploring"
#: A question with more answers than this shows, after its reveal, the answers nobody chose in
#: one line instead of a bar each (the class's answers and the right one stay whole).
FOLD_CHOICES = 5
#: The key that shows and hides the join box (a clicker has none: Page Down hides it).
JOIN_KEY = "j"
#: How often the teacher's room box counts again (seconds).
COUNT_SECONDS = 1.0

CLASS_CSS = """
<style>
.lab-class-code {font-size: 3.2rem; font-weight: 800; letter-spacing: 0.3rem; line-height: 1.1;
  font-family: "DejaVu Sans Mono", monospace; margin: 0;}
.lab-class-url {font-size: 1.1rem; word-break: break-all; margin: 0.2rem 0;}
.lab-class-line {font-size: 1rem; margin: 0;}
.lab-class-title {font-size: 1.5rem; font-weight: 700; margin: 0 0 0.2rem 0;}
.lab-bars-box {max-height: 14rem; overflow-y: auto;}
.lab-bars {width: 100%; border-collapse: collapse; font-size: 0.9rem; line-height: 1.1rem;}
.lab-bars td {padding: 0 0.3rem; vertical-align: middle;}
.lab-bars td.lab-bar-label {white-space: nowrap; max-width: 9rem; overflow: hidden;
  text-overflow: ellipsis;}
.lab-bar {height: 0.9rem; background: #1d4ed8; display: inline-block; vertical-align: middle;
  max-width: calc(100% - 2.2rem);}
.lab-bars td {white-space: nowrap;}
.st-key-class_room button {padding: 0.15rem 0.4rem; min-height: 2rem;}
.st-key-class_room_buttons {column-gap: 0.3rem !important;}
.lab-bar.lab-round-2 {background: #7c3aed; background-image: repeating-linear-gradient(45deg,
  transparent 0 4px, rgba(255,255,255,0.45) 4px 7px);}
.lab-bars tr.lab-right td.lab-bar-label {font-weight: 700; color: #166534;}
.lab-student-q {font-size: 1.15rem; font-weight: 600;}
.st-key-class_answer label {min-height: 2.75rem; align-items: center; font-size: 1.1rem;}
.st-key-class_follow ~ * .block-container, .block-container:has(.st-key-class_follow),
.block-container:has(.st-key-class_code) {padding-top: 1rem !important;}
.st-key-class_answer [role="radiogroup"] {gap: 0.4rem;}
</style>
"""


def join_url(code: str) -> str:
    """The address a student opens to join: the public base (never loopback when the machine
    has a LAN address) with ``?class=CODE``."""
    return f"{public_base(st.context.url)}?class={code}"


def is_student_page() -> bool:
    """Whether this page was opened as a student's (``?class=...`` in the address)."""
    return "class" in st.query_params


# ------------------------------------------------------------------------ the teacher


def start_button(where: Any = st, *, sidebar: bool = True) -> None:
    """**Start a class** (key ``class_start``) while this session teaches no class (and is no
    student exploring on their own: app/classroom/student.py); in the sidebar (``sidebar``) also
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


def _past_classes(where: Any) -> None:
    """**Past classes**: each class this session ended, with its Results (CSV) (keys
    ``class_past_<code>``) for as long as the store keeps it
    (``app.classroom.store.RETENTION_SECONDS``: 7 days)."""
    past = [t for t in st.session_state.get(PAST, []) if isinstance(t, Teacher)]
    if not past:
        return
    with where.expander(_("Past classes ({n})", n=decimal(len(past)))):
        for found in past:
            st.download_button(
                _("Results of class {code} (CSV)", code=found.code),
                data=functools.partial(_results, found),
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
def _on_end_ask() -> None:
    st.session_state["class_end_ask"] = True


@safe
def _on_end_cancel() -> None:
    st.session_state["class_end_ask"] = False


@safe
def _on_end() -> None:
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
    """The class's summary (``app.classroom.summary``) as HTML; ``None`` when the store no
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
        except OSError as error:
            shown = None
            st.caption(_("The class store did not answer: {error}", error=said.refusal(error)))
        if shown is not None:
            st.html(CLASS_CSS + shown)
        st.button(_("Close summary"), key="class_summary_close", on_click=_on_summary_close,
                  help=_("The summary stays under Past classes in the sidebar."))  # fmt: skip


@safe
def _on_summary_close() -> None:
    st.session_state.pop(ENDED_SUMMARY, None)


# ----------------------------------------------------- the teacher's keys: a reload comes back

#: The cookie that keeps this browser's teacher keys (Path=/, SameSite=Strict): entries
#: ``CODE:SECRET:PIN``, newest first, ``|`` between; the class this session teaches first, then
#: Past classes. Kept as long as the store keeps a class (``RETENTION_SECONDS``).
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


def keep_teacher_keys(where: Any = st) -> None:
    """Write this session's teacher keys into the browser's teacher cookie (the class it
    teaches, then Past classes), so a reload gets them back; draws nothing."""
    if not st.session_state.get(RESUMED):
        return  # (the cookie was not read yet: writing now would forget its keys)
    found = teacher()
    keys = ([found] if found else []) + [t for t in st.session_state.get(PAST, [])
                                         if isinstance(t, Teacher)]  # fmt: skip
    if not keys:
        return
    value = "|".join(f"{t.code}:{t.secret}:{t.pin}" for t in keys[: PAST_MAX + 1])
    with where:
        write_cookie(TEACHER_COOKIE, value, RETENTION_SECONDS, key="class_keys")


def client_address() -> str:
    """Who is asking, for the rate limits: the connection's address, or, when that is this
    machine's own proxy (deploy/: nginx on loopback), the address nginx saw (X-Real-IP, which
    it sets itself). A header from anyone else is ignored: a client could forge it to escape
    the limit."""
    peer = str(st.context.ip_address or "unknown")
    if peer.startswith("127.") or peer in ("::1", "localhost"):
        real = str(st.context.headers.get("X-Real-Ip", "") or "").strip()[:64]
        return real or peer
    return peer


def _resume_form(where: Any) -> None:
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
                         code=found.code))  # fmt: skip
        return
    try:
        _take_back(r, found)
    except OSError as error:
        st.session_state["class_teacher"] = None
        notify("warning", _("Not taken back: {error}", error=said.refusal(error)))
        return
    st.session_state[RESUMED] = True


def pin_box(where: Any = st) -> None:
    """**Teacher PIN** (closed: keep it off the projector): the PIN that takes this class back
    in another browser."""
    found = teacher()
    if found is None or not found.pin:
        return
    with where.expander(_("Teacher PIN (not for the projector)")):
        button = "<b>" + html.escape(_("Take back a class")) + "</b>"
        bold_code = "<b>" + html.escape(found.code) + "</b>"
        told = _(
            "Another browser takes this class back with {button}: class {code}, PIN",
            button=button,
            code=bold_code,
        )
        st.html(
            f'<p class="lab-class-line">{told}</p>'
            f'<p class="lab-class-url"><code>{html.escape(codes.format_pin(found.pin))}</code></p>'
        )


#: Session key: the round (poll id, round) whose Reveal made its click and the search's
#: iterations before it: a Reveal is one click.
REVEAL_MADE = "class_reveal_made"


def _on_reveal(click: Any, asked: tuple[str, int] | None) -> None:
    """Reveal: make the click the open round's question is about (``click``), once per round.
    The callback of a Reveal that comes again for a round whose click was made (a second
    press before the page showed the reveal, the same press delivered twice) does nothing: a
    second iteration would void the question it reveals ("2 iterations ran at once")."""
    iterations = session().search.iterations
    made = st.session_state.get(REVEAL_MADE)
    if asked is not None and made is not None and made[0] == asked and made[1] != iterations:
        _LOG.warning("Reveal of %s round %s again: its click was made", *asked)
        return
    st.session_state[REVEAL_MADE] = (asked, iterations)  # (the search before its click)
    click()


@safe
def _on_toggle_join() -> None:
    st.session_state["class_join_shown"] = not st.session_state.get("class_join_shown", False)


def join_box(found: Teacher) -> None:
    """The code in large type, the QR code of the join address and the address (container
    ``class_join``)."""
    url = join_url(found.code)
    qr = segno.make(url, error="m").svg_inline(scale=4, dark="#111111", light="#ffffff")
    join_words = _("Join on your phone: scan the code, or open")
    with st.container(key="class_join", border=True):
        left, right = st.columns([3, 1], vertical_alignment="center")
        left.html(
            CLASS_CSS
            # TRANSLATORS: the join box on the projector reads: "Join on your phone: scan the
            # code, or open" / the address / "and type" / the class code
            + f'<p class="lab-class-line">{html.escape(join_words)}</p>'
            + f'<p class="lab-class-url">{html.escape(url)}</p>'
            + f'<p class="lab-class-line">{html.escape(_("and type"))}</p>'
            + f'<p class="lab-class-code" aria-label="{html.escape(_("class code"))}">'
            + f"{html.escape(found.code)}</p>"
        )
        # an <img> of the SVG (st.html's sanitiser drops SVG), with the address as its text
        right.image(qr, caption=_("Scan to join"), width=150,
                    alt=_("QR code of {url}", url=url))  # fmt: skip


def room_box(click: Any) -> None:
    """The room (container ``class_room``): students connected, answers to the open round
    (never the distribution before the reveal), the teacher's buttons, and the last reveal's
    chart. ``click`` is the callback that makes the click a question waits for (Step)."""

    found = teacher()
    if found is None:
        return
    try:
        r = room()
        poll = r.store.current_poll(found.code)
    except OSError as error:
        st.caption(_("The class store did not answer: {error}", error=said.refusal(error)))
        st.session_state[PENDING] = True  # the count line brings the box back (_resync)
        _live_count()
        return
    with st.container(key="class_room", border=True):
        _live_count()  # its own fragment: the count follows the students every second
        with st.container(horizontal=True, gap="small", key="class_room_buttons"):
            open_round = poll is not None and not poll.revealed
            click = _on_reveal_unmatched if unmatched_poll() else click
            asked = (poll.id, poll.round) if open_round and poll is not None else None
            st.button(_("Reveal"), key="class_reveal", on_click=_on_reveal,
                      args=(click, asked), disabled=not open_round,
                      help=_("Make the click the question is about and show the class's "
                             "answers with the numbers that decided it."))  # fmt: skip
            vote.close_button(open_round, st.session_state.get("presentation", False))
            st.button(_("Vote again"), key="class_again", on_click=_on_again,
                      disabled=not open_round, shortcut=vote.AGAIN_KEY,
                      help=_("After discussion: a second round of the same question; the "
                             "reveal shows both rounds side by side (key: V)."))  # fmt: skip
            shown = st.session_state.get("class_join_shown", False)
            st.button(_("Hide join box") if shown else _("Join box"), key="class_join_toggle",
                      on_click=_on_toggle_join, shortcut=JOIN_KEY,
                      help=_("The join box (code, address and QR code) in the tree's place, "
                             "and back (key: J). A clicker's Page Down hides it."))  # fmt: skip
            presenting = st.session_state.get("presentation", False)
            st.download_button(_("CSV") if presenting else _("Results (CSV)"),
                               data=lambda: _results(found),
                               help=_("The class's results as CSV"),
                               file_name=f"class-{found.code}.csv", mime="text/csv",
                               key="class_results", on_click="ignore")  # fmt: skip
            # TRANSLATORS: the button that ends the class (it asks first)
            st.button(_("End"), key="class_end", on_click=_on_end_ask,
                      help=_("End the class: no more joins or answers."))  # fmt: skip
        if st.session_state.get("class_end_ask"):
            with st.container(key="class_end_box", horizontal=True, gap="small"):
                ask = html.escape(_("End the class for everyone?"))
                stay = html.escape(_("The results stay under Past classes."))
                st.html(f'<p class="lab-class-line"><b>{ask}</b> {stay}</p>')
                st.button(_("End now"), key="class_end_confirm", type="primary", on_click=_on_end)
                st.button(_("Keep going"), key="class_end_cancel", on_click=_on_end_cancel)
        # The parts that come and go in a box of their own, not beside the count line: the
        # browser would keep a part this run left out (the names box after the last name
        # went) when the count's timed run comes between this run and its clean-up, as it
        # does for every box around the count line (app/screen/page.py says the same of the column)
        with st.container():
            try:
                vote.after_vote(r, found)  # the share right, the next step, the switch
                last = st.session_state.get("class_last_reveal")
                if last and last != st.session_state.get(COUNTS_IN_QUIZ):
                    rounds = [p for p in r.rounds(found.code, last) if p.revealed]
                    if rounds:
                        st.html(CLASS_CSS + bars_html(r, found.code, rounds, found.secret,
                                                      summary=False))  # fmt: skip
            except OSError as error:  # the store went away mid-box: one line, no traceback
                st.caption(_("The class store did not answer: {error}", error=said.refusal(error)))
            if not st.session_state.get("presentation", False):  # names are not projected
                _live_names()  # its own fragment too: a late join shows without a click


def _count_line() -> None:
    """Students connected and, for the open round, how many answered (the counts only)."""

    found = teacher()
    if found is None:
        return
    try:
        count = room().count(found.code, vote.screen())
    except (ClassError, OSError) as error:
        st.caption(_("The class store did not answer: {error}", error=said.refusal(error)))
        return
    if st.session_state.get(PENDING):
        _resync()
    words = _("Class {code} · {n} connected", code=found.code, n=decimal(count.connected))
    poll = count.poll
    if poll is not None and not poll.revealed:
        words = vote.count_words(poll, count.answered, count.joined, 0, words)
        class_heat.follow_answers(poll, count.answered)  # the tree's counts follow the class
    elif count.joined != count.connected:
        words = _("{line} ({n} joined)", line=words, n=decimal(count.joined))
    words = vote.count_words(None, 0, 0, count.lost, words)  # "2 lost" (never who)
    st.html(
        CLASS_CSS + f'<p class="lab-class-line lab-class-count"><b>{html.escape(words)}</b></p>'
    )


#: The count line as a fragment of its own, rerun every COUNT_SECONDS (in the screen's fragment).
_live_count = st.fragment(run_every=COUNT_SECONDS)(_count_line)


def _names_part() -> None:
    """The names box of this session's class (:func:`_names`), or one line with the store
    away."""
    found = teacher()
    if found is None:
        return
    try:
        _names(room(), found)
    except OSError as error:
        st.caption(_("The class store did not answer: {error}", error=said.refusal(error)))


#: The names box as a fragment of its own, rerun every COUNT_SECONDS like the count line: a
#: student who joins is listed within a second, not at the teacher's next click; Remove reruns
#: it alone.
_live_names = st.fragment(run_every=COUNT_SECONDS)(_names_part)


def _names(r: Room, found: Teacher) -> None:
    """The names, and removing one (a name a class should not see).

    Drawn in the same places with no names (the list says so, two empty places stand for the
    controls): each part is then replaced where it stands at every run, never left out. A part
    a run leaves out is removed by the browser's clean-up after the run, which skips boxes the
    count line's timed run touched in between (docs/architecture.md): with both cores busy the
    last removed name stayed listed in 2 of 4 runs of the Chromium test when the names box went
    with it; 0 of 6 since."""
    students = [s for s in r.store.students(found.code) if not s.removed]
    ids = [s.id for s in students]
    names = {s.id: s.name for s in students}
    # each name isolated for the bidi algorithm: right-to-left names keep the list's order
    listed = ", ".join(f"<bdi>{html.escape(s.name)}</bdi>" for s in students)
    with st.expander(_("Names ({n})", n=decimal(len(students)))):
        nobody = html.escape(_("No one has joined yet."))
        st.html(f'<p class="lab-class-line">{listed or nobody}</p>')
        if not ids:  # the controls' places, empty (a widget kept with no choices would keep
            st.empty()  # its empty value when the next name joins)
            st.empty()
            return
        pick = st.selectbox(_("Name to remove"), ids, key="class_remove_name",
                            format_func=lambda sid: names.get(sid, "?"))  # fmt: skip
        st.button(_("Remove this name"), key="class_remove", on_click=_on_remove, args=(pick,))


@safe
def _on_remove(student_id: str) -> None:
    found = teacher()
    if found is not None and student_id:
        try:
            room().remove_student(found.code, found.secret, student_id)
        except (ClassError, OSError) as error:
            notify("warning", _("The name was not removed: {error}", error=said.refusal(error)))


@safe
def _on_again() -> None:
    found = teacher()
    if found is None:
        return
    try:
        room().vote_again(found.code, found.secret)
    except (ClassError, OSError) as error:
        notify("warning", said.refusal(error))
    st.session_state["class_published"] = ""  # students must see the new round


def _results(found: Teacher) -> str:

    return room().results_csv(found.code, found.secret, vote.anonymous())


#: Session key: something did not reach the class (the store was away): a reveal, a new
#: question, a screen (:data:`UNSENT`) or the room box itself. The count line, which runs every
#: second, sends it again as soon as the store answers (:func:`_resync`).
PENDING = "class_pending"
#: Session key: the last screen that did not reach the class (a :class:`Frame`).
UNSENT = "class_unsent"


def sync_poll(quiz: QuizState | None) -> None:
    """Keep the class's poll in step with the teacher's quiz: a question the quiz settled is
    revealed to the class (its latest round), a new question opens round 1. With the store
    away, one line says so and nothing is marked done: the count line does it again as soon as
    the store answers (:func:`_resync`), or the next click."""
    try:
        _sync_poll(quiz)
    except OSError as error:
        st.session_state[PENDING] = True
        st.caption(_("Not sent to the class: {error}. It is sent again when the store answers.",
                     error=said.refusal(error)))  # fmt: skip


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


def _resync() -> None:
    """After an outage (the count line got an answer from the store): the reveal or question
    and the screen that did not reach the class are sent now, and the whole page is drawn
    again (its room box came back). Still failing: the next second tries again."""
    try:
        _sync_poll(session().quiz)
        unsent = st.session_state.get(UNSENT)
        if isinstance(unsent, Frame):
            _publish(unsent)
    except (ClassError, OSError):
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
    before), ``(0, poll_id)`` while it did not (Reveal then shows the answers ungraded:
    :func:`_on_reveal_unmatched`), ``None`` when the question is no longer open."""
    poll = r.store.current_poll(found.code)
    matched: tuple[int, str] | None = None
    if poll is not None and poll.id == poll_id and not poll.revealed:
        question = quiz.pending
        same = question is not None and r.same_question(poll, question.text, question.options)
        matched = (id(question), poll_id) if same else (0, poll_id)
    st.session_state["class_poll"] = matched
    return matched


def unmatched_poll() -> bool:
    """Whether the class's open question is one the teacher's quiz no longer knows (the page
    came back with another question): Reveal then reveals it ungraded."""
    current = st.session_state.get("class_poll")
    return current is not None and current[0] == 0


@safe
def _on_reveal_unmatched() -> None:
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


#: What a question revealed ungraded says (kept in the store in English, shown translated).
NOT_GRADED = N_("Not graded: the teacher's page was reloaded while the question was open.")


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
    except OSError as error:
        st.session_state[UNSENT] = frame
        st.session_state[PENDING] = True
        st.caption(_("Not sent to the class: {error}. It is sent when the store answers.",
                     error=said.refusal(error)))  # fmt: skip
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


def bars_html(
    r: Room,
    code: str,
    rounds: list[Poll],
    secret: str | None = None,
    summary: bool = True,
    facts: dict[str, Any] | None = None,
) -> str:
    """The class's answers as bars, one bar per round side by side, the right answer marked
    with ✓ and bold (never colour alone); plain text escaped. ``summary``: the numbers that
    decided the answer below the bars (the teacher's screen has them in the quiz already).
    ``facts``: the question's facts (``Frame.reveal``): its words in the current language."""
    tallies = [r.tally(code, p, secret) for p in rounds]
    last = rounds[-1]
    choices = last.choices
    right = set(last.right)
    most = max([1, *(n for t in tallies for n in t.values())])
    rows = []
    nobody = []
    for choice in choices:
        chosen = any(t.get(choice, 0) for t in tallies)
        shown = said.choice_text(facts, last, choice)
        if len(choices) > FOLD_CHOICES and choice not in right and not chosen:
            nobody.append(shown)  # one line names them: the class's own answers whole
            continue
        mark = "✓ " if choice in right else ""
        cells = []
        for n, (poll, tally) in enumerate(zip(rounds, tallies, strict=True)):
            count = tally.get(choice, 0)
            width = 100 * count / most
            said_count = decimal(count)  # (the language's digits)
            title = html.escape(
                _("round {round}: {n}", round=decimal(poll.round), n=said_count), quote=True
            )
            cells.append(
                f'<span class="lab-bar lab-round-{min(n + 1, 2)}" style="width:{width:.0f}%"'
                f' title="{title}"></span> {said_count}'
            )
        rows.append(
            f'<tr class="{"lab-right" if choice in right else ""}">'
            f'<td class="lab-bar-label">{html.escape(mark + shown)}</td>'
            f'<td style="width:70%">{"<br>".join(cells)}</td></tr>'
        )
    if nobody:
        nobody_chose = html.escape(_("Nobody chose {choices}", choices=comma_list(nobody)))
        rows.append(f'<tr><td colspan="2">{nobody_chose}</td></tr>')
    legend = ""
    if len(rounds) > 1:
        rounds_said = _("Top bar: round 1")
        for p in rounds[1:]:
            rounds_said = _("{rounds}, then round {round}", rounds=rounds_said, round=p.round)
        striped = html.escape(_("{rounds} (striped).", rounds=rounds_said))
        legend = f'<p class="lab-class-line">{striped}</p>'
    told = ""
    if summary:
        told = _(NOT_GRADED) if last.summary == NOT_GRADED else said.summary_text(facts, last)
    asked = html.escape(said.question_text(facts, last))
    head = html.escape(_("Class answers:"))
    return (
        f'<p class="lab-class-line"><b>{head}</b> {asked}</p>'
        f'<div class="lab-bars-box"><table class="lab-bars">{"".join(rows)}</table></div>{legend}'
        + (f'<p class="lab-class-line">{html.escape(told)}</p>' if told else "")
    )
