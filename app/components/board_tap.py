"""A phone's board to answer a question about a move on: an ``st.components.v2`` component
(``static/board_tap.js`` and ``board_tap.css``, registered once at import) that draws the
position the question asks about (tic-tac-toe's 3x3, Connect Four's 7x6, compact) with each
answer's cell or column a button. A tap sends the answer's index back with the question's poll
id and round (the trigger ``answer``, read by :func:`tapped_board`); labels are drawn with
``textContent`` only.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit.components.v2 as components

__all__ = ["render_board_tap", "tapped_board"]

STATIC = Path(__file__).resolve().parent / "static"
_COMPONENT: Callable[..., Any] = components.component(
    "mcts_lab_board_tap",
    css=(STATIC / "board_tap.css").read_text(encoding="utf-8"),
    js=(STATIC / "board_tap.js").read_text(encoding="utf-8"),
)


def render_board_tap(data: dict[str, Any], *, key: str, on_answer: Callable[[], None]) -> None:
    """Draw the board ``data`` (``app.classroom.tap.board_data``: ``view``, ``rows``, ``taps``
    as ``[{"at", "choice", "label"}]``, ``poll``, ``round``, ``chosen``, ``caption``); a tap
    calls ``on_answer``."""
    _COMPONENT(key=key, data=data, on_answer_change=on_answer)


def tapped_board(key: str) -> tuple[str, int, int] | None:
    """The answer a tap on the board ``key`` just sent: (poll id, round, answer index), or
    ``None``."""
    from app.components.tree_view import tapped_answer

    return tapped_answer(key)
