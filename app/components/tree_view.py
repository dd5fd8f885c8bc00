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
past the first view's zoom, and pans to them; a narrow container (a phone) also fits the
drawing's whole width.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import streamlit as st
import streamlit.components.v2 as components

from app.drawing.tree_model import TreeView

__all__ = ["clicked_focus", "render_tree", "render_tree_data", "tapped_answer"]

STATIC = Path(__file__).resolve().parent / "static"
_CSS = (STATIC / "tree_view.css").read_text(encoding="utf-8")
_JS = (STATIC / "tree_view.js").read_text(encoding="utf-8")

#: The component, registered once when the module is imported.
_COMPONENT: Callable[..., Any] = components.component("mcts_lab_tree_view", css=_CSS, js=_JS)


def render_tree(
    view: TreeView,
    *,
    key: str,
    height: int,
    scale: float = 1.0,
    below: int | None = None,
    min_scale: float = 0.0,
) -> int | None:
    """Draw ``view`` in the page; returns the node id the user just clicked (to focus on), or
    ``None``. The component is ``height`` px high and as wide as its container, or, with
    ``below``, as high as the window less ``below`` px when that is more (a taller screen gets
    a taller tree); ``scale`` is the first view's zoom (and what the 1:1 button returns to):
    above 1 for a projector; ``min_scale``, when set, the least zoom the view frames a Step
    at (a projector's readable labels): what does not fit at it gives way to the node just
    added, the rest a pan away."""
    data: dict[str, Any] = {"view": view.to_dict(), "height": int(height), "scale": float(scale)}
    if min_scale:
        data["minScale"] = float(min_scale)
    if below is not None:
        data["fill"] = f"calc(100vh - {int(below)}px)"
    result = _COMPONENT(key=key, data=data, on_focus_change=_no_op)
    return _as_id(result.get("focus") if hasattr(result, "get") else None)


def render_tree_data(
    data: dict[str, Any],
    *,
    key: str,
    height: int,
    fit: bool = False,
    answer: dict[str, Any] | None = None,
    on_answer: Callable[[], None] | None = None,
) -> None:
    """Draw a tree view published as plain data (:meth:`TreeView.to_dict`, a class's frame);
    ``fit``: the first view fits the drawing to the component's width (a phone).

    ``answer`` makes the boxes of a question's moves answer it when tapped (a phone):
    ``{"poll": id, "round": n, "nodes": {node id: answer index}, "chosen": index or None}``;
    a tap sends ``{"poll", "round", "choice"}`` back as the trigger ``answer`` (read it with
    :func:`tapped_answer`) and calls ``on_answer``."""
    payload: dict[str, Any] = {"view": data, "height": int(height), "scale": 1.0, "fit": fit}
    if answer is not None:
        payload["answer"] = answer
    _COMPONENT(key=key, data=payload, on_focus_change=_no_op,
               on_answer_change=on_answer or _no_op)  # fmt: skip


def tapped_answer(key: str) -> tuple[str, int, int] | None:
    """The answer a tap on the tree component ``key`` just sent, as (poll id, round, answer
    index), or ``None`` (no tap, or a value that is not one: it came from a browser)."""
    value = st.session_state.get(key)
    tap = value.get("answer") if value is not None and hasattr(value, "get") else None
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


def _as_id(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    if isinstance(value, float) and not value.is_integer():
        return None
    return int(value)


def _no_op() -> None:
    return None
