"""The search tree drawn in the browser: an ``st.components.v2`` component (registered once, at
import; no build step) that draws a :class:`app.drawing.tree_model.TreeView` as SVG.

The script and styles are real files, ``app/components/static/tree_view.js`` and ``tree_view.css``
(read
by a linter and the browser's devtools). The script draws with ``createElementNS`` and
``textContent`` only: game labels are data, never HTML. Hover shows a tooltip, a click on a box
sends its focus id back (returned by :func:`render_tree`), drag pans, the buttons (in a strip of
their own above the drawing: they never cover a box) zoom (Ctrl + wheel too). After every change
of what the last iteration marked (a Step, back, a focus) the view frames the top box, the last
path, the new node and the favourite (PV badge 1): it zooms out only as far as they need, never
past the first view's zoom nor below the least zoom asked (readable type), and pans to them;
what does not fit at that zoom gives way deepest first (the top and its moves stay); a narrow
container (a phone) fits the drawing's whole width.

The component's own words (the buttons' names and tooltips, the legend, the aria labels) are
made here with ``_()`` at draw time, in the page's language, and sent with the data
(:func:`tree_words`, ``data["words"]``): the script has no English of its own.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import streamlit as st
import streamlit.components.v2 as components
from streamlit.components.v2.types import ComponentRenderer

from app.drawing.tree_model import TreeView
from app.words.i18n import N_, _, decimal, is_rtl, n_

__all__ = ["clicked_focus", "render_tree", "render_tree_data", "tapped_answer", "tree_words"]

STATIC = Path(__file__).resolve().parent / "static"
_CSS = (STATIC / "tree_view.css").read_text(encoding="utf-8")
_JS = (STATIC / "tree_view.js").read_text(encoding="utf-8")

#: The component, registered once when the module is imported.
_COMPONENT: ComponentRenderer = components.component("mcts_lab_tree_view", css=_CSS, js=_JS)


def as_json(data: Mapping[str, object]) -> str:
    """A component's data as one JSON text (the script parses it: ``readData``). Streamlit
    checks each key of a dict it is given for a dataframe and serialises it twice (the element
    and its identity): on a class's phones that was a tenth of each page's run at a Step."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def render_tree(
    view: TreeView,
    *,
    key: str,
    height: int,
    scale: float = 1.0,
    below: int | None = None,
    min_scale: float = 0.0,
    bottom: int | None = None,
    moves_first: bool = False,
) -> int | None:
    """Draw ``view`` in the page; returns the node id the user just clicked (to focus on), or
    ``None``. The component is ``height`` px high and as wide as its container, or, with
    ``below``, as high as the window less ``below`` px when that is more (a taller screen gets
    a taller tree); ``scale`` is the first view's zoom (and what the 1:1 button returns to):
    above 1 for a projector; ``min_scale``, when set, the least zoom the view frames a Step
    at (readable type): what does not fit at it gives way, last wanted first (the top, the last
    path from the top down and the new node, the top's moves, the favourite; ``moves_first``,
    a projector's: the top's moves before the path, what a class is asked about); ``bottom``,
    when set,
    the drawing reaches down to ``bottom`` px above the window's bottom (Present mode: the
    height the window has, measured in the browser)."""
    shown = view.to_dict()
    data: dict[str, object] = {
        "view": shown,
        "height": int(height),
        "scale": float(scale),
        "words": tree_words(shown),
    }
    if min_scale:
        data["minScale"] = float(min_scale)
    if below is not None:
        data["fill"] = f"calc(100vh - {int(below)}px)"
    if bottom is not None:
        data["bottom"] = int(bottom)
    if moves_first:
        data["movesFirst"] = True
    result = _COMPONENT(key=key, data=as_json(data), on_focus_change=_no_op)
    return _as_id(result.get("focus") if hasattr(result, "get") else None)


def render_tree_data(
    data: dict[str, object],
    *,
    key: str,
    height: int,
    fit: bool = False,
    answer: dict[str, object] | None = None,
    on_answer: Callable[[], None] | None = None,
) -> None:
    """Draw a tree view published as plain data (:meth:`TreeView.to_dict`, a class's frame);
    ``fit``: the first view fits the drawing to the component's width (a phone).

    ``answer`` makes the boxes of a question's moves answer it when tapped (a phone):
    ``{"poll": id, "round": n, "nodes": {node id: answer index}, "chosen": index or None}``;
    a tap sends ``{"poll", "round", "choice", "at"}`` back as the state ``answer`` (read it with
    :func:`tapped_answer`; the browser keeps it and sends it again with a reconnected page's
    first run) and calls ``on_answer``."""
    payload: dict[str, object] = {
        "view": data,
        "height": int(height),
        "scale": 1.0,
        "fit": fit,
        "words": tree_words(data),
    }
    if answer is not None:
        payload["answer"] = answer
    _COMPONENT(key=key, data=as_json(payload), on_focus_change=_no_op,
               on_answer_change=on_answer or _no_op)  # fmt: skip


#: A player's colour as the palette names it (:mod:`app.drawing.palette`) -> its message.
COLOUR_NAMES: dict[str, str] = {
    # TRANSLATORS: a player's colour, starting a line of the tree's legend ("blue, square
    # corners: X's move"); lower case in English
    "blue": N_("blue"),
    # TRANSLATORS: a player's colour in the tree's legend (see "blue")
    "red": N_("red"),
    # TRANSLATORS: a player's colour in the tree's legend (see "blue"); Connect Four's first
    "yellow": N_("yellow"),
}


def _colour(name: object, fallback: str) -> str:
    """A palette's colour name in words: its message translated (``fallback``'s when none)."""
    if not name:
        return _(fallback)
    message = COLOUR_NAMES.get(str(name))
    return _(message) if message else str(name)


def tree_words(view: Mapping[str, Any]) -> dict[str, object]:
    """The tree component's own words in the current language, for the view ``view`` (the
    :meth:`TreeView.to_dict` data: its players, colours and counts fill the sentences): the
    zoom buttons' visible text and tooltips, the legend's lines, the aria labels. The script
    sets them with ``textContent`` and attributes only; ``{label}`` in ``answer`` is a move's
    label, filled by the script. ``dir`` is the direction of the words' boxes (the legend and
    the tooltip: ``"rtl"`` in Arabic); the drawing keeps its geometry, left to right."""
    names = list(view.get("player_names") or ["X", "O"])[:2] + ["X", "O"]
    first, second = str(names[0]), str(names[1])
    palette = view.get("palette") or {}
    drawn, total = int(view.get("drawn") or 0), int(view.get("total") or 0)
    info = n_(
        "{drawn} of {count} node drawn",
        "{drawn} of {count} nodes drawn",
        total,
        drawn=decimal(drawn),
        count=decimal(total),
    )
    if view.get("focus_found") is False:
        info = _("{info} · the focused node is not in the tree: drawing from the root", info=info)
    return {
        "dir": "rtl" if is_rtl() else "ltr",
        "tree": _("search tree"),
        # the buttons in their order: visible text, then the tooltip (the aria label is both)
        "buttons": [
            ["−", _("zoom out")],
            ["+", _("zoom in")],
            ["1:1", _("actual size, the top box centred")],
            # TRANSLATORS: the tree's button that zooms to show the whole drawing (short: a
            # button of its own, about 3-6 letters)
            [_("fit"), _("fit the whole drawing")],
            ["?", _("what the colours and marks mean")],
        ],
        # TRANSLATORS: a button's accessible name: its visible text, then what it does
        "button": _("{text}: {title}", text="{text}", title="{title}"),
        # TRANSLATORS: a move's box or board cell a student taps to answer with that move
        "answer": _("answer {label}", label="{label}"),
        # the letters on a proven node's badge (bottom left of its box)
        "proven": {
            # TRANSLATORS: one letter on a badge: a proven win (the legend's "W / D / L")
            "win": _("W"),
            # TRANSLATORS: one letter on a badge: a proven draw (the legend's "W / D / L")
            "draw": _("D"),
            # TRANSLATORS: one letter on a badge: a proven loss (the legend's "W / D / L")
            "loss": _("L"),
        },
        "legend": {
            "p0": _(
                "{colour}, square corners: {player}'s move, Q for {player} (as on the board; "
                "the root: the player to move)",
                colour=_colour(palette.get("p0_name"), N_("blue")),
                player=first,
            ),
            "p1": _(
                "{colour}, round corners: {player}'s move, Q for {player}",
                colour=_colour(palette.get("p1_name"), N_("red")),
                player=second,
            ),
            "end": _("grey: the game is over"),
            "chance": _(
                "amber diamond ◆: a move with dice; each outcome's probability on its edge"
            ),
            "path": _("orange, thick line: the last selection path"),
            "new": _("green double outline: the node just added"),
            "changed": _("thick outline, bold numbers: N and Q changed in the last backup"),
            "pv": _(
                "purple numbered badge: the principal variation (most visited line), one "
                "number per move"
            ),
            "proven": _(
                "W / D / L badge: proven win, draw or loss (solver) for the player whose move "
                "it was; its Q is the proven value (as on the board and in the tables), and "
                "where the mean of its visits differs, that mean is on a line below: mean -0.24"
            ),
            "more": _("+n, dashed: moves folded away (click to show them)"),
            "heat": _(
                "teal shade and number: how many of the class chose that move (the darker, "
                "the larger their share)"
            ),
            "right": _("✓ and a dark green ring: the right answer, after the reveal"),
            "answer": _("tap a move's box to answer with it; a thick dark ring: your answer"),
            "how": _(
                "N: visits. Q: the mean value for the player who chose the move into the box. "
                "Grey numbers in a pale box: few visits. Hover a box for details, click to "
                "focus on it. Drag to pan; +, −, Ctrl + wheel zoom; fit shows it all."
            ),
            "info": info,
        },
    }


def tapped_answer(key: str) -> tuple[str, int, int] | None:
    """The answer the last tap on the tree component ``key`` sent, as (poll id, round, answer
    index), or ``None`` (no tap, or a value that is not one: it came from a browser)."""
    return answer_in(st.session_state.get(key))


def answer_in(value: object) -> tuple[str, int, int] | None:
    """The tap in a tree or board component's value (its ``answer``: ``{"poll", "round",
    "choice", "at"}``) as (poll id, round, answer index); ``None`` for none or a malformed one
    (the value came from a browser)."""
    get = getattr(value, "get", None)  # (a dict, or the component's value mapping)
    tap = get("answer") if callable(get) else None
    if not isinstance(tap, dict):
        return None
    poll, round_, choice = tap.get("poll"), _as_id(tap.get("round")), _as_id(tap.get("choice"))
    if not isinstance(poll, str) or round_ is None or choice is None or choice < 0:
        return None
    return poll[:80], round_, choice


def clicked_focus(key: str) -> int | None:
    """The node id clicked in the tree component ``key`` during this rerun, read from the
    session state *before* the component is drawn (so the caller can build the view with the
    new focus in the same run); ``None`` when there was no click."""
    value = st.session_state.get(key)
    if value is None or not hasattr(value, "get"):
        return None
    return _as_id(value.get("focus"))


def _as_id(value: object) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value)


def _no_op() -> None:
    return None
