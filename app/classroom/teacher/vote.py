"""Peer Instruction on the teacher's screen: **Close the vote**, the share right with the next
step, correctness by confidence, the switch after a second round, and the class's "I'm lost"
count.

**Close the vote** (``class_close``, the room box) closes the open round: the phones say the
vote is closed and take no more answers, and the room box shows the share right of the round
(never the distribution) with Peer Instruction's suggestion (``app.classroom.core.peer``). The
answer is known before the click that reveals it by making that click on a copy of the search
(:func:`predicted_right`: the seeded search copied, one iteration run and graded by the quiz
itself, the same iteration the Reveal's Step will run); a question answered only by the arena,
or a tree over :data:`PREDICT_MAX_NODES`, says the share comes with the reveal. After the reveal
the room box says the share, the suggestion and the answers by confidence; after a second round,
the switch (container ``class_switch``).

The Streamlit side of :mod:`app.classroom.core.peer`; imports the teacher's module, the session and
the quiz's core.
"""

from __future__ import annotations

import copy
import html
from types import ModuleType
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from app.classroom import ClassError, Poll, Room, Teacher
from app.classroom.core import peer, results, said
from app.classroom.core.room import screen_key
from app.classroom.shared import room, teacher
from app.live import clicks
from app.live.session import notify, safe, session
from app.quiz import settle
from app.words.i18n import N_, _, decimal, is_rtl, n_
from app.words.phrases import comma_list

__all__ = [
    "ANONYMOUS",
    "PREDICT_MAX_NODES",
    "after_vote",
    "anonymous",
    "anonymous_toggle",
    "close_button",
    "count_words",
    "predicted_right",
    "remember_screen",
    "screen",
]

#: Session key: what Close the vote found (:class:`_Closed` as a tuple: poll id, round, the
#: right answers or ``None`` when not known before the reveal).
CLOSED = "class_closed"
#: Session key: the screen key of the teacher's screen last published (``room.screen_key``).
SCREEN = "class_screen"
#: Session key (a toggle in the sidebar): the results CSV names students "Student N".
ANONYMOUS = "class_anonymous"
#: The largest tree Close the vote copies to learn the answer (a copy of 20,000 nodes took
#: about 0.3 s on the 2-core test machine); over it the share comes with the reveal.
PREDICT_MAX_NODES = 20_000

_PI_CSS = """
<style>
.lab-pi {font-size: 0.95rem; margin: 0.1rem 0;}
.lab-switch {border-collapse: collapse; font-size: 0.9rem; margin: 0.1rem 0;}
.lab-switch td, .lab-switch th {border: 1px solid #cbd5e1; padding: 0 0.4rem; text-align: right;}
.lab-switch th {font-weight: 600;}
.lab-sr {position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);}
</style>
"""


def screen() -> str | None:
    """The key of the teacher's screen last published (``None`` before the first)."""
    found = st.session_state.get(SCREEN)
    return found if isinstance(found, str) else None


def remember_screen(frame: dict[str, Any]) -> None:
    """The teacher published ``frame``: "I'm lost" now counts on its screen."""
    st.session_state[SCREEN] = screen_key(frame)


def anonymous() -> bool:
    """Whether the results CSV names each student "Student N" (the class setting)."""
    return bool(st.session_state.get(ANONYMOUS, False))


def anonymous_toggle(where: DeltaGenerator | ModuleType = st) -> None:
    """**Results without names** (key ``class_anonymous``): the results CSV gives each student
    a stable "Student N" (by joining order) instead of their name. Shown before a class starts
    and while it runs (the sidebar)."""
    where.toggle(
        _("Results without names"),
        key=ANONYMOUS,
        help=_(
            "The class's results CSV names each student 'Student 1', 'Student 2', ... "
            "(by joining order) instead of their nickname."
        ),
    )


def predicted_right(poll: Poll) -> tuple[str, ...] | None:
    """The right answer(s) of ``poll`` before its reveal: the quiz's open question graded on a
    copy of the live search after one iteration (the seeded copy runs the iteration the Reveal
    will run). ``None`` when not known before the reveal: the open question is not this poll's,
    it waits for the arena, the tree is over :data:`PREDICT_MAX_NODES`, or the copy failed."""
    lab = session()
    quiz = lab.quiz
    current = st.session_state.get("class_poll")
    if quiz is None or quiz.pending is None or current is None:
        return None
    question = quiz.pending
    if current != (id(question), poll.id) or question.trigger == "arena":
        return None
    search = lab.search
    if search.node_count > PREDICT_MAX_NODES:
        return None
    try:
        # the game is shared (rules, no state of a search's); the tree and the seeded random
        # generator are copied, so the live search is untouched
        twin = copy.deepcopy(search, memo={id(search.game): search.game})
        trace = twin.step()
        from app.live.session import player_names

        reveal = settle(question, twin, player_names(), answer=None, trace=trace,
                        arena_result=lab.arena)  # fmt: skip
    except Exception:  # (a game whose states cannot be copied: the reveal will say)
        return None
    if reveal is None or reveal.verdict == "dropped":
        return None
    return tuple(reveal.correct)


#: A student who gave no confidence, in the switch's confidence counts.
NO_CONFIDENCE = N_("none")

#: The keys of the vote on the teacher's page (beside the clicker's Page Down, Page Up and B).
CLOSE_KEY = "x"  # (Streamlit keeps C and R for itself)
AGAIN_KEY = "v"
#: The widget keys of Close the vote and Vote again (their callbacks take their clicks).
CLOSE_BUTTON = "class_close"
AGAIN_BUTTON = "class_again"


def close_button(open_round: bool, presenting: bool) -> None:
    """**Close the vote** (``class_close``): enabled while the round takes answers."""
    poll_closed = _closed_here() is not None
    st.button(
        _("Close") if presenting else _("Close the vote"),
        key=CLOSE_BUTTON,
        on_click=_on_close,
        disabled=not open_round or poll_closed,
        shortcut=CLOSE_KEY,
        help=_(
            "No more answers: the phones say the vote is closed, and this box shows the "
            "share right (not the answers) with Peer Instruction's next step (key: X)."
        ),
    )


def _closed_here() -> tuple[str, int, tuple[str, ...] | None] | None:
    """What Close the vote found for the class's current round, if it was closed."""
    found = teacher()
    closed = st.session_state.get(CLOSED)
    if found is None or not closed:
        return None
    try:
        poll = room().store.current_poll(found.code)
    except OSError:
        return None
    if poll is None or not poll.closed or (poll.id, poll.round) != closed[:2]:
        return None
    return closed  # type: ignore[no-any-return]


@safe
def _on_close() -> None:
    found = teacher()
    if found is None or not clicks.take(CLOSE_BUTTON):
        return  # (the same click again: Streamlit replays a cut-short run's callbacks)
    try:
        poll = room().close_vote(found.code, found.secret)
    except (ClassError, OSError) as error:
        notify("warning", _("The vote was not closed: {error}", error=said.refusal(error)))
        return
    st.session_state[CLOSED] = (poll.id, poll.round, predicted_right(poll))
    st.session_state["class_published"] = ""  # the phones are told (a new version)


def count_words(poll: Poll | None, answered: int, joined: int, lost: int, line: str = "") -> str:
    """The count line ``line`` with the words about the round and the pace: "… · round 1: 3 of
    5 answered" (or "round 1 closed: ..."), then "… · 2 lost"."""
    words = line
    if poll is not None and not poll.revealed:
        if poll.closed:
            words = _("{line} · round {round} closed: {answered} of {joined} answered",
                      line=words, round=poll.round, answered=decimal(answered),
                      joined=decimal(joined))  # fmt: skip
        else:
            words = _("{line} · round {round}: {answered} of {joined} answered",
                      line=words, round=poll.round, answered=decimal(answered),
                      joined=decimal(joined))  # fmt: skip
    if lost:
        # TRANSLATORS: students who pressed "I'm lost" on this screen
        words = n_("{line} · {n} lost", "{line} · {n} lost", lost, line=words, n=decimal(lost))
    return words


def _share_words(right: int, answered: int, round_: int) -> str:
    percent = round(100 * right / answered) if answered else 0
    step = peer.suggest(right, answered)
    return _("Round {round}: {right} of {answered} right ({percent}%) → {step}", round=round_,
             right=decimal(right), answered=decimal(answered), percent=decimal(percent),
             step=_(step))  # fmt: skip


def after_vote(r: Room, found: Teacher) -> None:
    """The room box's Peer Instruction lines: after Close the vote, the share right and the
    suggestion (no distribution); after a reveal, the same with the answers by confidence, and
    after a second round the switch (container ``class_switch``)."""
    poll = r.store.current_poll(found.code)
    closed = _closed_here()
    if poll is not None and not poll.revealed and closed is not None:
        if closed[2] is None:
            answered = len(r.store.answers(found.code, poll.id, poll.round))
            words = n_("Vote closed · {n} answered; the share right comes with the reveal (this "
                       "question's answer is known only after the click).",
                       "Vote closed · {n} answered; the share right comes with the reveal (this "
                       "question's answer is known only after the click).",
                       answered, n=decimal(answered))  # fmt: skip
        else:
            graded = results.read_round(r.store, found.code, poll, right=closed[2])
            right, answered = peer.share_right(graded)
            words = _("Vote closed · {share}", share=_share_words(right, answered, poll.round))
        st.html(f'{_PI_CSS}<p class="lab-pi"><b>{html.escape(words)}</b></p>')
        return
    # the last question revealed (its Step opened the next question at once)
    last = st.session_state.get("class_last_reveal")
    rounds = [p for p in r.rounds(found.code, last) if p.revealed] if last else []
    if not rounds:
        return
    poll = rounds[-1]
    if not poll.right:
        return  # (revealed ungraded)
    graded = results.read_round(r.store, found.code, poll)  # read once, graded once
    right, answered = peer.share_right(graded)
    table = peer.by_confidence(graded)
    if st.session_state.get("presentation", False):
        # the projector: the quiz's verdict gives the share already; one line, the signal first
        step = peer.suggest(right, answered)
        text = _("Next: {step} · sure and wrong: {wrong} · sure and right: {right}",
                 step=_(step), wrong=decimal(table.wrong[0]),
                 right=decimal(table.right[0]))  # fmt: skip
        st.html(f'{_PI_CSS}<p class="lab-pi"><b>{html.escape(text)}</b></p>')
    else:
        line = _share_words(right, answered, poll.round)
        st.html(
            f'{_PI_CSS}<p class="lab-pi"><b>{html.escape(line)}</b> · '
            f"{html.escape(confidence_line(table))}</p>"
        )
    if len(rounds) > 1:
        _switch_table(results.read_round(r.store, found.code, rounds[0]), graded)


def confidence_line(table: peer.ConfidenceTable) -> str:
    """One line for the teacher: "confidently wrong: 3 · sure and right: 5 · fairly sure:
    2 right, 1 wrong · guessing: 0 right, 2 wrong" (a level nobody gave is left out; the
    answers without a confidence last)."""
    line = _("confidently wrong: {wrong} · sure and right: {right}",
             wrong=decimal(table.wrong[0]), right=decimal(table.right[0]))  # fmt: skip
    for n, level in enumerate(peer.CONFIDENCE[1:], start=1):
        if table.right[n] or table.wrong[n]:
            line = _("{line} · {level}: {right} right, {wrong} wrong", line=line,
                     level=_(level), right=decimal(table.right[n]),
                     wrong=decimal(table.wrong[n]))  # fmt: skip
    if table.right[-1] or table.wrong[-1]:
        line = _("{line} · no confidence given: {right} right, {wrong} wrong", line=line,
                 right=decimal(table.right[-1]), wrong=decimal(table.wrong[-1]))  # fmt: skip
    return line


def _switch_table(first: results.RoundResults, last_round: results.RoundResults) -> None:
    """How many went right->right, wrong->right, right->wrong, wrong->wrong between round 1
    and the last round, and their confidence before and after (container ``class_switch``)."""
    moved = peer.switch(first, last_round)
    last = last_round.poll
    heads = ["right→right", "wrong→right", "right→wrong", "wrong→wrong"]  # (data-switch values)
    # short heads on the projector (✓ right, ✗ wrong), the words for a screen reader
    # (in Arabic "✓←✗": the cells read right to left, as the header's "1 ← 2" does)
    arrow = "←" if is_rtl() else "→"
    marks = [h.replace("right", "✓").replace("wrong", "✗").replace("→", arrow) for h in heads]
    spoken = [_("right→right"), _("wrong→right"), _("right→wrong"), _("wrong→wrong")]
    counts = [moved.right_right, moved.wrong_right, moved.right_wrong, moved.wrong_wrong]
    levels = [*peer.CONFIDENCE, NO_CONFIDENCE]

    def confidence(counts_: tuple[int, ...]) -> str:
        parts = [_("{n} {level}", n=decimal(n), level=_(lv))
                 for lv, n in zip(levels, counts_, strict=True) if n]  # fmt: skip
        return comma_list(parts) if parts else "-"

    before, after = confidence(moved.confidence_before), confidence(moved.confidence_after)
    cells = "".join(
        f'<th title="{html.escape(w)}"><span aria-hidden="true">{m}</span>'
        f'<span class="lab-sr">{html.escape(w)}</span></th>'
        for w, m in zip(spoken, marks, strict=True)
    )
    values = "".join(f'<td data-switch="{h}">{n}</td>' for h, n in zip(heads, counts, strict=True))
    rounds = html.escape(_("round 1 → {round}", round=last.round))
    students = html.escape(_("students"))
    said = html.escape(_("Confidence before: {before} · after: {after} (✓ right, ✗ wrong)",
                         before=before, after=after))  # fmt: skip
    with st.container(key="class_switch"):
        st.html(
            f'{_PI_CSS}<table class="lab-switch"><tr><th>{rounds}</th>{cells}'
            f"</tr><tr><th>{students}</th>{values}</tr></table>"
            f'<p class="lab-pi">{said}</p>'
        )
