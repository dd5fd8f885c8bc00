"""The class's predictions on the projected tree and board (``class_heat``), and the moves a phone
taps to answer a question about a move.

The teacher's tree has, beside its Drawing controls, a toggle **Class on tree** (key
``class_heat``, off by default). On, each move of the question's node (the root's moves for
"which move will selection take") is drawn on the teacher's tree with its share of the class's
answers in the open round (or, after a reveal and until the next question's first answer, the
round revealed) as a shade and its count in a badge (none for a move nobody chose); after the
reveal the right move gets a ✓ and a ring (:mod:`app.drawing.tree_heat`, drawn by the tree
component). The board tab does the same on the root's moves (``heat_by_action``). Off, nothing
is drawn and nothing is read. The phones never get the shading before the reveal, nor the last
reveal's once the next question is open: the frame carries the tree without it
(:func:`published`).

A question is about a move when :func:`app.classroom.core.moves.move_map` finds its answers
among its node's moves; the teacher's page keeps each question the class was asked by its poll id
(:data:`MOVE_QUESTIONS`), so the map is made again against the tree drawn now (a node the
reveal's Step added gets its box's ✓).

Streamlit side of the teacher; it imports the class's core and the pure drawing, never the
teacher's page module (``app.classroom.teacher`` imports this one).
"""

from __future__ import annotations

import time
from typing import Any

import streamlit as st

from app.classroom import ClassError, Poll, Room, Teacher
from app.classroom.core.moves import MoveMap, move_map
from app.drawing.tree_heat import heat_of, with_heat
from app.drawing.tree_model import Heat, TreeView
from app.words.i18n import _
from mcts_core.game import Action
from mcts_core.search import Search

__all__ = [
    "HEAT_KEY",
    "MOVE_QUESTIONS",
    "follow_answers",
    "heat_by_action",
    "heat_toggle",
    "open_moves",
    "published",
    "remember",
    "tree_heat",
]

#: The toggle's key (off by default).
HEAT_KEY = "class_heat"
#: Session key: poll id -> the quiz question it was opened for (the newest :data:`KEEP`).
MOVE_QUESTIONS = "class_move_questions"
#: Session key: (poll id, round, answers drawn, draws) of the open round whose heat the tree
#: drew last; ``draws`` counts the trees drawn with heat in this session.
DRAWN = "class_heat_drawn"
#: Session key: (poll id, round, answers counted, draws, when) when the count line last asked
#: for a redraw: the count it followed, the ``draws`` of :data:`DRAWN` then, and the time
#: (``time.monotonic()``).
FOLLOWED = "class_heat_followed"
#: Seconds before a redraw asked for that has not drawn the tree is asked for again (the count
#: line also runs inside the redraw it asked for, before the tree: not at once).
FOLLOW_AGAIN_SECONDS = 2.5
#: Session key: whether the class had a question open when the tree's heat was read last.
OPEN = "class_heat_open"
#: Questions kept by poll id (the open one and the last revealed one are what is read).
KEEP = 8


def heat_toggle() -> None:
    """**Class on tree** (key ``class_heat``): shade the question's moves by the class's
    answers, with counts, on the teacher's tree and board."""
    st.toggle(
        # TRANSLATORS: a toggle beside the tree's drawing controls: the class's answers on the tree
        _("Class on tree"),
        key=HEAT_KEY,
        help=_(
            "Draw on the tree and the board how many students chose each move (the share as "
            "a shade, the count in a badge; the right move gets ✓ after Reveal). Off: nothing "
            "is drawn. Phones never see it before the reveal."
        ),
    )


def remember(poll_id: str, question: Any) -> None:
    """Keep the quiz ``question`` the class's poll ``poll_id`` was opened for."""
    kept = dict(st.session_state.get(MOVE_QUESTIONS) or {})
    kept[poll_id] = question
    st.session_state[MOVE_QUESTIONS] = dict(list(kept.items())[-KEEP:])


def _map(search: Search, poll_id: str | None) -> MoveMap | None:
    question = (st.session_state.get(MOVE_QUESTIONS) or {}).get(poll_id) if poll_id else None
    if question is None or search is None:
        return None
    try:
        return move_map(search, question, poll_id or "")
    except (KeyError, ValueError, IndexError):  # (a tree that changed under the question)
        return None


def open_moves(search: Search, poll_id: str | None) -> dict[str, Any] | None:
    """What the frame carries for the phones while ``poll_id`` is open (``Frame.moves``):
    its answers' tree nodes and board cells, or ``None`` (not a question about a move)."""
    found = _map(search, poll_id)
    return None if found is None else found.to_dict()


def _revealed(found: Teacher, r: Room) -> tuple[Poll, tuple[str, ...] | None] | None:
    """The last revealed round of the last question revealed and its right answers (``None``
    for an ungraded reveal), or ``None`` before the first reveal."""
    last = st.session_state.get("class_last_reveal")
    rounds = [p for p in r.rounds(found.code, last) if p.revealed] if last else []
    if not rounds:
        return None
    shown = rounds[-1]
    return shown, (tuple(shown.right) if shown.right else None)


_Shown = tuple[MoveMap, dict[str, int], tuple[str, ...] | None]


def _heat(found: Teacher | None, r: Room, search: Search) -> _Shown | None:
    """The shown round's map, tally and right answers (``None``: nothing to draw); notes
    which round the tree drew (:func:`follow_answers`).

    The round shown is the open one once it has an answer; until then the last revealed one
    (a Reveal's Step opens the next question at once: its ✓ stays on the tree until the class
    answers anew), else the open one with its zeros."""
    if found is None or not st.session_state.get(HEAT_KEY):
        return None
    try:
        poll = r.store.current_poll(found.code)
        shown: tuple[Poll, tuple[str, ...] | None, dict[str, int]] | None = None
        if poll is not None and not poll.revealed:
            tally = r.tally(found.code, poll, found.secret)
            shown = (poll, None, tally)
            if not any(tally.values()):
                last = _revealed(found, r)
                if last is not None and _map(search, last[0].id) is not None:
                    shown = (*last, r.tally(found.code, last[0], found.secret))
        else:
            last = _revealed(found, r)
            if last is not None:
                shown = (*last, r.tally(found.code, last[0], found.secret))
        if shown is None:
            return None
        round_, right, tally = shown
        where = _map(search, round_.id)
    except (ClassError, OSError):
        return None  # (the room box says the store is away)
    # a question open: the phones' trees start it clean (the ✓ held over is the teacher's)
    st.session_state[OPEN] = poll is not None and not poll.revealed
    if poll is not None and not poll.revealed:  # the count line follows the open round
        drawn = sum(tally.values()) if round_.id == poll.id and round_.round == poll.round else 0
        draws = (st.session_state.get(DRAWN) or (None, 0, 0, 0))[3] + 1
        st.session_state[DRAWN] = (poll.id, poll.round, drawn, draws)
    return None if where is None else (where, tally, right)


def tree_heat(found: Teacher | None, r: Room, search: Search) -> dict[int, Heat]:
    """Per tree node id, the class's answers on that move (empty: the toggle off, no class,
    no question about a move, or the store away)."""
    got = _heat(found, r, search)
    if got is None:
        return {}
    where, tally, right = got
    return heat_of(tally, where.nodes, right)


def heat_by_action(found: Teacher | None, r: Room, search: Search) -> dict[Action, Heat]:
    """Per root move (the game's action), the class's answers, for the board tab: empty
    unless :func:`tree_heat` would draw and the question asks about the root."""
    got = _heat(found, r, search)
    if got is None or not got[0].at_root:
        return {}
    where, tally, right = got
    return heat_of(tally, where.actions, right)


def published(view: TreeView, heat: dict[int, Heat]) -> TreeView:
    """The tree the class's phones get: with the heat only once its round is revealed and
    until the next question opens (the teacher's tree keeps the last reveal's ✓ until the
    class answers anew; a phone's starts the new question clean)."""
    if st.session_state.get(OPEN):
        return view
    if heat and all(h.right is not None for h in heat.values()):
        return with_heat(view, heat)
    return view


def follow_answers(poll: Poll | None, answered: int) -> None:
    """From the room box's count line (every second): with the heat on and an open round
    whose count of answers is not the one the tree drew, draw the page again (the counts on
    the tree follow the class without a click). Compared with the count the tree drew, kept
    with it: an answer arriving between a redraw and the next look is not missed. A redraw
    asked for that has not drawn the tree after :data:`FOLLOW_AGAIN_SECONDS` (a run cut short
    by the next) is asked for again; once the tree was drawn after it, the same count asks no
    more (a removed student's answer stays in the tree's tally, not in ``answered``: without
    this the page would be redrawn every second)."""
    if not st.session_state.get(HEAT_KEY) or poll is None or poll.revealed:
        return
    drawn = st.session_state.get(DRAWN)
    if not drawn or drawn[:2] != (poll.id, poll.round) or drawn[2] == answered:
        return
    followed = st.session_state.get(FOLLOWED)
    now = time.monotonic()
    if (
        followed is not None
        and followed[:3] == (poll.id, poll.round, answered)
        and (
            followed[3] != drawn[3]  # (drawn since, with this count: the tally's own)
            or now - followed[4] < FOLLOW_AGAIN_SECONDS  # (the redraw asked for may be this run)
        )
    ):
        return
    st.session_state[FOLLOWED] = (poll.id, poll.round, answered, drawn[3], now)
    st.rerun(scope="app")
