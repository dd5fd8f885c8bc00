"""What the teacher's page and the student's page share, below both: this process's room over
the class store and its watcher, this browser session's class and id (:func:`room`,
:func:`watcher`, :func:`teacher`, :func:`session_id`), who is asking (:func:`client_address`,
for the rate limits), the class's CSS and its bars of a revealed question (:func:`bars_html`).

A module of its own so that neither page imports the other (the student's page reads none of
the teacher's)."""

from __future__ import annotations

import html
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from app.classroom import Poll, Room, Teacher, open_store
from app.classroom.core import said
from app.classroom.push import Watcher, runtime_sessions
from app.words.i18n import N_, _, decimal
from app.words.phrases import comma_list

__all__ = [
    "CLASS_CSS",
    "EXPLORING",
    "NOT_GRADED",
    "POLL_SECONDS",
    "bars_html",
    "client_address",
    "is_student_page",
    "room",
    "session_id",
    "teacher",
    "watcher",
]

#: How often a student's page asks whether the teacher's screen changed (seconds) when no
#: watcher pushes the change to it (app/classroom/push.py: AppTest, a Streamlit without the runtime
#: names it uses). With a watcher a page has no timer that fires in a lesson.
POLL_SECONDS = 1.0

#: Session key: the class a student left to explore on their own (app/classroom/student/).
EXPLORING = "class_exploring"

#: A question with more answers than this shows, after its reveal, the answers nobody chose in
#: one line instead of a bar each (the class's answers and the right one stay whole).
FOLD_CHOICES = 5

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


@st.cache_resource
def room() -> Room:
    """The process's room over the shared store (``MCTS_LAB_STORE``): every session and every
    replica sees the same classes. A resource, not the search: it holds only a connection."""
    return Room(open_store())


@st.cache_resource
def watcher() -> Watcher | None:
    """The process's watcher that pushes the teacher's changes to the students' pages it holds
    (``None`` without a Streamlit runtime: the pages poll every :data:`POLL_SECONDS`)."""
    session_of = runtime_sessions()
    return None if session_of is None else Watcher(room().version, room().here, session_of)


def session_id() -> str | None:
    """This browser session's id (``None`` outside a script run)."""
    ctx = get_script_run_ctx()
    return None if ctx is None else str(ctx.session_id)


def teacher() -> Teacher | None:
    """The class this browser session teaches, if any (its secret never leaves the session)."""
    found = st.session_state.get("class_teacher")
    return found if isinstance(found, Teacher) else None


def is_student_page() -> bool:
    """Whether this page was opened as a student's (``?class=...`` in the address)."""
    return "class" in st.query_params


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


#: What a question revealed ungraded says (kept in the store in English, shown translated).
NOT_GRADED = N_("Not graded: the teacher's page was reloaded while the question was open.")


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
