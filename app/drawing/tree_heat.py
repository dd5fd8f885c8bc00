"""The class's answers drawn on the thing they predict (``class_heat``): each move's share of the
class and its count, as data on the tree's boxes and the board's moves.

Pure Python, no Streamlit. :func:`heat_of` turns one round's tally (answer -> how many chose
it) and where each answer is drawn (answer -> a tree node id, or a board action) into one
:class:`~app.drawing.tree_model.Heat` per drawn answer; :func:`with_heat` puts them on a
:class:`~app.drawing.tree_model.TreeView`'s boxes, so the browser's SVG, the screen reader's
words (``TreeView.describe``) and the board read the same numbers.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from typing import TypeVar

from app.drawing.tree_model import Heat, TreeView

__all__ = ["heat_of", "with_heat"]

K = TypeVar("K", bound=Hashable)


def heat_of(
    tally: Mapping[str, int], where: Mapping[str, K], right: Sequence[str] | None = None
) -> dict[K, Heat]:
    """One :class:`Heat` per answer in ``where`` (answer -> its place: a node id, an action).

    ``tally`` is one round's answer -> how many chose it; a share is that count over every
    answer of the round (answers drawn nowhere, "Yes, another move", count in the whole), 0
    when nobody answered. ``right`` is the revealed right answers (``None``: not revealed,
    nothing is marked right or wrong). Counts below 0 read as 0."""
    counts = {str(answer): max(0, int(n)) for answer, n in tally.items()}
    total = sum(counts.values())
    revealed = None if right is None else {str(r) for r in right}
    found: dict[K, Heat] = {}
    for answer, place in where.items():
        count = counts.get(str(answer), 0)
        found[place] = Heat(
            count=count,
            share=count / total if total else 0.0,
            right=None if revealed is None else str(answer) in revealed,
        )
    return found


def with_heat(view: TreeView, heat: Mapping[int, Heat]) -> TreeView:
    """``view`` with each box whose tree node id is in ``heat`` carrying it (the others, and
    every box when ``heat`` is empty, as they were)."""
    if not heat:
        return view
    nodes = tuple(
        replace(n, heat=heat[n.id]) if n.id is not None and n.id in heat else n for n in view.nodes
    )
    return replace(view, nodes=nodes, _by_id={})
