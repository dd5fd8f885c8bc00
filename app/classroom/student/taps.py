"""A phone answers a question about a move by tapping it: on the teacher's tree (the boxes of
the question's moves) or on the board of the position asked about (tic-tac-toe, Connect Four).

The frame the teacher published names, for the open question, each answer's tree node and
board cell (``Frame.moves``, :class:`app.classroom.core.moves.MoveMap`); this module turns it into
what the tree and board components draw (every answer by its index in the round's choices,
with the round's poll id and number) and makes the callback of a tap: the tap's poll and round
must be the ones the page was drawn for (a tap on an old question is refused as closed, as
the radio's round tag does), then the answer goes through the radio's own path (the student
page's ``_on_answer``: the room's checks and rate limit), as if the radio had been picked. The
radio stays, for screen readers and for questions that are not about a move.

A tap is a state the browser keeps (not a one-off trigger), and so is the radio's pick: a page
whose server died as the student answered (a replica killed, the tap sent into a closing
connection or made while the page reconnected) sends it again with the first run of its new
session, on the replica that took over. :func:`held` reads it there, before the widgets are
drawn, and the answer page sends it (``app.classroom.student.answer``).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from app.classroom import Poll
from app.classroom.core.moves import BoardTaps, MoveMap
from app.components.tree_view import answer_in, tapped_answer
from app.live.clicks import widget_key
from app.words.i18n import N_, _

__all__ = [
    "ANSWER_KEY",
    "BOARD_KEY",
    "CONFIDENCE_KEY",
    "DRAWN_FOR",
    "SEEN",
    "TREE_KEY",
    "Held",
    "board_data",
    "held",
    "held_confidence",
    "on_tap",
    "subject",
    "tree_answer",
]

_LOG = logging.getLogger(__name__)

#: The answer radio.
ANSWER_KEY = "class_answer"
#: The confidence radio under it (sure, fairly sure, guessing).
CONFIDENCE_KEY = "class_confidence"
#: The phone's tree component (the teacher's tree as published).
TREE_KEY = "class_tree"
#: The phone's board component under a question about a move.
BOARD_KEY = "class_board"
#: What a tap on a question the page no longer shows says (the radio's words).
CLOSED = N_("That question has closed; the open one is below.")
#: Session key: the round ``(poll id, round)`` this session last drew the question for. A run
#: that draws another round first asks what the browser holds (:func:`held`).
DRAWN_FOR = "class_answer_drawn_for"
#: Session key: the time (the browser's, ms) of the held tap this session took up; drawn with
#: the tree and the board, so a tap the store did not take loses its ring (a component is
#: drawn again only when its data changes).
SEEN = "class_tap_seen"


@dataclass(frozen=True)
class Held:
    """An answer the browser holds for the open round.

    Attributes:
        choice: one of the round's choices.
        at: when it was tapped, in the browser's clock (ms); ``None``: picked on the radio.
    """

    choice: str
    at: float | None = None


def held(poll: Poll, label: Callable[[str], str]) -> list[Held]:
    """The answers to ``poll`` the browser sent with this run, read before the widgets are
    drawn: the last tap on the tree, on the board, then the radio's pick (``label``: a choice
    as the radio draws it, with the round's tag, :func:`app.classroom.student.answer.round_tag`:
    another round's pick matches none). Streamlit gives a widget the browser's value only once
    the widget is drawn; on a session's first run, before then, the values the browser sent
    are in the run's widget states, which this reads (``[]`` where Streamlit has none)."""
    sent = _sent_values((TREE_KEY, BOARD_KEY, ANSWER_KEY))
    found: list[Held] = []
    for key in (TREE_KEY, BOARD_KEY):
        try:
            value = json.loads(sent.get(key) or "null")
        except ValueError:
            continue
        tap = answer_in(value)
        if tap is None or tap[:2] != (poll.id, poll.round) or tap[2] >= len(poll.choices):
            continue
        at = value["answer"].get("at")
        number = isinstance(at, int | float) and not isinstance(at, bool)
        found.append(Held(poll.choices[tap[2]], float(at) if number else None))
    found.sort(key=lambda h: -(h.at or 0.0))  # the newest tap first
    picked = sent.get(ANSWER_KEY)
    found += [Held(c) for c in poll.choices if picked is not None and label(c) == picked]
    return found


def held_confidence(levels: tuple[str, ...], label: Callable[[str], str]) -> str | None:
    """The confidence the browser sent with this run, read as :func:`held` reads an answer:
    one of ``levels`` whose ``label`` (with the round's tag) is the radio's pick, or ``None``
    (no pick, or another round's)."""
    picked = _sent_values((CONFIDENCE_KEY,)).get(CONFIDENCE_KEY)
    return next((level for level in levels if picked is not None and label(level) == picked), None)


def _sent_values(keys: tuple[str, ...]) -> dict[str, str]:
    """The values the browser sent with this run for the widgets keyed ``keys``, as sent: a
    radio's label, a component's JSON (its id ends with ``-KEY``)."""
    ctx = get_script_run_ctx()
    states = getattr(getattr(ctx, "session_state", None), "get_widget_states", None)
    found: dict[str, str] = {}
    if not callable(states):
        return found
    try:
        for state in states():
            key = widget_key(str(state.id))
            kind = state.WhichOneof("value")
            if key in keys and kind in ("string_value", "json_value"):
                found[key] = str(getattr(state, kind))
    except Exception:  # (another Streamlit's insides: nothing held, as before)
        _LOG.exception("the browser's widget states did not read")
    return found


def subject(moves: dict[str, Any] | None, poll: Poll | None) -> MoveMap | None:
    """The open ``poll``'s moves from a frame's ``moves`` (``None``: no poll open, not a
    question about a move, or the frame is another question's)."""
    found = MoveMap.from_dict(moves)
    if found is None or poll is None or poll.revealed or found.poll != poll.id:
        return None
    return found


def tree_answer(
    found: MoveMap | None, poll: Poll, chosen: str | None, seen: float | None = None
) -> dict[str, Any] | None:
    """What the tree component needs to answer by a tap (``render_tree_data``'s ``answer``):
    tree node id -> answer index, or ``None`` when no answer has a box. ``seen``: the held
    tap this session took up (:data:`SEEN`)."""
    if found is None:
        return None
    nodes = {str(node): poll.choices.index(label) for label, node in found.nodes.items()
             if label in poll.choices}  # fmt: skip
    if not nodes:
        return None
    return {
        "poll": poll.id,
        "round": poll.round,
        "nodes": nodes,
        "chosen": poll.choices.index(chosen) if chosen in poll.choices else None,
        **({} if seen is None else {"seen": seen}),
    }


def board_data(
    found: MoveMap | None, poll: Poll, chosen: str | None, seen: float | None = None
) -> dict[str, Any] | None:
    """What the board component draws (``app.components.board_tap``), or ``None`` (no board,
    or no answer on it); ``seen`` as :func:`tree_answer`'s."""
    board: BoardTaps | None = found.board if found is not None else None
    if board is None:
        return None
    taps = [
        {"at": at, "choice": poll.choices.index(label), "label": label}
        for label, at in board.taps.items()
        if label in poll.choices
    ]
    if not taps:
        return None
    return {
        "view": board.view,
        "rows": list(board.rows),
        "taps": taps,
        "poll": poll.id,
        "round": poll.round,
        "chosen": poll.choices.index(chosen) if chosen in poll.choices else None,
        "caption": _("Tap a move on the board or in the tree to answer."),
        **({} if seen is None else {"seen": seen}),
    }


def on_tap(
    key: str, poll: Poll, answer: Callable[[str, int, tuple[str, ...]], None]
) -> Callable[[], None]:
    """The callback of a tap on the component ``key`` drawn for ``poll``: the tapped answer
    becomes ``class_answer`` and goes through ``answer`` (the radio's callback, called with
    the poll's id, round and choices) when the tap is for this round; otherwise the page
    says the question closed."""

    def tapped() -> None:
        tap = tapped_answer(key)
        if tap is None:
            return
        poll_id, round_, index = tap
        if poll_id != poll.id or round_ != poll.round or index >= len(poll.choices):
            st.session_state["class_notice"] = _(CLOSED)
            return
        st.session_state["class_answer"] = poll.choices[index]
        answer(poll.id, poll.round, poll.choices)

    return tapped
