"""A phone's board to answer a question about a move on: an ``st.components.v2`` component
(``static/board_tap.js`` and ``board_tap.css``, registered once at import) that draws the
position the question asks about (tic-tac-toe's 3x3, Connect Four's 7x6, compact) with each
answer's cell or column a button. A tap sends the answer's index back with the question's poll
id and round (the state ``answer``, read by :func:`tapped_board`, which the browser keeps and
sends again with a reconnected page's first run); labels are drawn with
``textContent`` only. Its own words (the aria labels) are made here with ``_()`` in the page's
language and sent with the data (:func:`board_words`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import streamlit.components.v2 as components
from streamlit.components.v2.types import ComponentRenderer

from app.words.i18n import _

__all__ = ["board_words", "render_board_tap", "tapped_board"]

STATIC = Path(__file__).resolve().parent / "static"
_COMPONENT: ComponentRenderer = components.component(
    "mcts_lab_board_tap",
    css=(STATIC / "board_tap.css").read_text(encoding="utf-8"),
    js=(STATIC / "board_tap.js").read_text(encoding="utf-8"),
)


def render_board_tap(data: dict[str, object], *, key: str, on_answer: Callable[[], None]) -> None:
    """Draw the board ``data`` (``app.classroom.student.taps.board_data``: ``view``, ``rows``,
    ``taps`` as ``[{"at", "choice", "label"}]``, ``poll``, ``round``, ``chosen``, ``caption``);
    a tap calls ``on_answer``."""
    from app.components.tree_view import as_json

    _COMPONENT(key=key, data=as_json(data | {"words": board_words()}), on_answer_change=on_answer)


def board_words() -> dict[str, str]:
    """The board's own words in the current language: the board's accessible name and a move's
    (``{label}``, the move's label, filled by the script)."""
    return {
        # TRANSLATORS: the accessible name of a phone's board whose cells answer a question
        "board": _("board: tap a move to answer"),
        # TRANSLATORS: a move's box or board cell a student taps to answer with that move
        "answer": _("answer {label}", label="{label}"),
    }


def tapped_board(key: str) -> tuple[str, int, int] | None:
    """The answer the last tap on the board ``key`` sent: (poll id, round, answer index), or
    ``None``."""
    from app.components.tree_view import tapped_answer

    return tapped_answer(key)
