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
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import streamlit as st

from app.classroom import Poll
from app.classroom.core.moves import BoardTaps, MoveMap
from app.components.tree_view import tapped_answer
from app.words.i18n import N_, _

__all__ = ["BOARD_KEY", "TREE_KEY", "board_data", "on_tap", "subject", "tree_answer"]

#: The phone's tree component (the teacher's tree as published).
TREE_KEY = "class_tree"
#: The phone's board component under a question about a move.
BOARD_KEY = "class_board"
#: What a tap on a question the page no longer shows says (the radio's words).
CLOSED = N_("That question has closed; the open one is below.")


def subject(moves: dict[str, Any] | None, poll: Poll | None) -> MoveMap | None:
    """The open ``poll``'s moves from a frame's ``moves`` (``None``: no poll open, not a
    question about a move, or the frame is another question's)."""
    found = MoveMap.from_dict(moves)
    if found is None or poll is None or poll.revealed or found.poll != poll.id:
        return None
    return found


def tree_answer(found: MoveMap | None, poll: Poll, chosen: str | None) -> dict[str, Any] | None:
    """What the tree component needs to answer by a tap (``render_tree_data``'s ``answer``):
    tree node id -> answer index, or ``None`` when no answer has a box."""
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
    }


def board_data(found: MoveMap | None, poll: Poll, chosen: str | None) -> dict[str, Any] | None:
    """What the board component draws (``app.components.board_tap``), or ``None`` (no board,
    or no answer on it)."""
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
