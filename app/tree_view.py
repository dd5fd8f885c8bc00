"""The search tree drawn in the browser, readable on a projector.

Two parts:

1. A model and its layout, pure Python (no Streamlit): :func:`build_view` walks only the part of
   the tree it draws and returns a frozen :class:`TreeView` of boxes with positions in pixels at
   1:1 scale (``to_dict()`` is JSON-ready). What is drawn is bounded, text never shrinks:

   - the top: the root, or the focused node (with a "▲ up" box leading to its parent);
   - every child of the top while it has at most ``root_children`` (tic-tac-toe's 9);
   - below that, only the nodes on the last selection path and on the principal variation
     (the most visited line from the top) are expanded, each showing its ``max_children``
     most visited children plus any path or PV child; the rest are folded into one "+n" box;
   - at most ``max_levels`` rows (a chance node takes a row of its own).

   Each row's boxes are centred under their parents; overlaps within a row are resolved by the
   least-squares placement that keeps every pair apart (pool-adjacent-violators on
   ``x_i - c_i``, with ``c_i`` the cumulative minimum spacing), then the drawing is shifted so
   its leftmost box touches the margin.

   Q on a box is from the view of the player who chose the move into it (the root: the player
   to move there), as in :func:`app.figures.tree_dot`; the tooltip names that player.

2. :func:`render_tree` mounts an ``st.components.v2`` component (registered once, at import;
   inline HTML/CSS/JS, no build step) that draws the view as SVG with ``createElementNS`` and
   ``textContent`` only: game labels are data, never HTML. Hover shows a tooltip, a click on a
   box sends its focus id back (returned by :func:`render_tree`), drag pans, the buttons zoom
   (Ctrl + wheel too). The first view is at 1:1 with the top box centred.
"""

from __future__ import annotations

import heapq
import math
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import streamlit as st
import streamlit.components.v2 as components

from app.figures import EXPANDED_COLOUR, PATH_COLOUR, PLAYER_COLOURS, TERMINAL_COLOUR
from mcts_core import Search
from mcts_core.game import ShortLabels
from mcts_core.nodes import ActionNode, ChanceNode, Move
from mcts_core.queries import find_node

__all__ = [
    "Marks",
    "ViewNode",
    "ViewEdge",
    "TreeView",
    "build_view",
    "render_tree",
    "clicked_focus",
    "PALETTE",
    "short_label",
    "sibling_labels",
]

# ------------------------------------------------------------------ sizes (px at 1:1)

LABEL_FONT = 13  # bold: the move into the box
LINE_FONT = 12  # N and Q
LINE_HEIGHT = 15
PAD_X = 4
PAD_Y = 4
ACTION_H = PAD_Y * 2 + (LABEL_FONT + 3) + 2 * LINE_HEIGHT  # label + "N 12" + "+0.33"
MIN_W, MAX_W = 40, 76  # an action box's width: the widest text of the view, within these
CHANCE_DIAMOND = 18
CHANCE_H = CHANCE_DIAMOND + 2 + LABEL_FONT + 3  # a diamond with the action's label under it
MORE_W, MORE_H = 40, 24
UP_W, UP_H = 56, 24
GAP_X = 5  # between siblings
GROUP_GAP = 10  # between the children of different parents
ROW_GAP = 28  # room for an edge label (a chance outcome's probability)
UP_GAP = 16
MARGIN = 8
SHORT_CHARS = 8  # a label longer than SHORT_CHARS + 1 characters is cut to SHORT_CHARS + "…"
FAINT_VISITS = 3  # KaTrain-style: N below this ...
FAINT_SHARE = 0.02  # ... or under this share of the parent's N is drawn faintly

#: Colours sent to the browser: the app's palette (:mod:`app.figures`) plus outlines.
PALETTE: dict[str, str] = {
    "p0": PLAYER_COLOURS[0],
    "p1": PLAYER_COLOURS[1],
    "end": TERMINAL_COLOUR,
    "chance": "#fef3c7",
    "more": "#ffffff",
    "up": "#f3f4f6",
    "p0_stroke": "#2563eb",
    "p1_stroke": "#dc2626",
    "end_stroke": "#6b7280",
    "chance_stroke": "#b45309",
    "more_stroke": "#9ca3af",
    "up_stroke": "#6b7280",
    "path": PATH_COLOUR,
    "new": EXPANDED_COLOUR,
    "edge": "#9ca3af",
    "pv": "#7c3aed",
    "win": "#16a34a",
    "draw": "#6b7280",
    "loss": "#dc2626",
    "text": "#111827",
}


# ------------------------------------------------------------------ the model


@dataclass(frozen=True, slots=True)
class Marks:
    """What the last iteration did to a box.

    Attributes:
        path: on the last selection path (drawn orange).
        new: the node the last iteration added (green outline).
        changed: its N and Q moved in the last backup (thick outline).
        pv: its move number on the principal variation from the top (1 = the top's most visited
            move; an outcome shares its chance node's number), ``None`` when off it.
        focus: the focused node (the top when the focus was found).
    """

    path: bool = False
    new: bool = False
    changed: bool = False
    pv: int | None = None
    focus: bool = False


@dataclass(frozen=True, slots=True)
class ViewNode:
    """One box of the drawing.

    Attributes:
        key: unique within the view: ``"n12"`` for tree node 12, ``"more12"`` for the children
            of node 12 folded into one box, ``"up"`` for the way back above the top.
        id: the tree node's id (``None`` for "+n" and "▲ up" boxes).
        parent: key of the box above (``None`` for the top and for "▲ up").
        level: the row: 0 for the top, 1 below it, ...; -1 for "▲ up".
        x, y, w, h: the box's top-left corner and size in px at 1:1.
        kind: "action" (a position), "chance" (a move with 2+ outcomes), "more" (folded
            children) or "up".
        role: "p0" / "p1" (who moves at this position), "end" (the game is over), "chance",
            "more" or "up".
        label: the move (or outcome) into the box, cut to about 7 characters ("root" at the
            root).
        lines: the numbers on the box, e.g. ``("N 12", "+0.33")``.
        tooltip: the hover text, one entry per line (full labels, id, N, Q and whose view).
        faint: few visits (N < 3, or under 2% of the parent's N): numbers drawn faintly.
        marks: path / new / changed / pv / focus.
        click: the node id a click focuses (``None``: not clickable).
        proven: with the solver, "win" / "draw" / "loss" for the player whose view Q is in.
    """

    key: str
    id: int | None
    parent: str | None
    level: int
    x: float
    y: float
    w: float
    h: float
    kind: str
    role: str
    label: str
    lines: tuple[str, ...]
    tooltip: tuple[str, ...]
    faint: bool
    marks: Marks
    click: int | None
    proven: str | None = None

    def to_dict(self) -> dict[str, Any]:
        m = self.marks
        return {
            "key": self.key,
            "id": self.id,
            "parent": self.parent,
            "level": self.level,
            "x": round(self.x, 2),
            "y": round(self.y, 2),
            "w": self.w,
            "h": self.h,
            "kind": self.kind,
            "role": self.role,
            "label": self.label,
            "lines": list(self.lines),
            "tooltip": list(self.tooltip),
            "faint": self.faint,
            "marks": {
                "path": m.path,
                "new": m.new,
                "changed": m.changed,
                "pv": m.pv,
                "focus": m.focus,
            },
            "click": self.click,
            "proven": self.proven,
        }


@dataclass(frozen=True, slots=True)
class ViewEdge:
    """A line between two boxes: ``source`` above, ``target`` below (keys), an optional label
    (a chance outcome's probability) and a style: "path" (the last selection path), "normal",
    or "fold" (to a "+n" box or from "▲ up", dashed)."""

    source: str
    target: str
    label: str = ""
    style: str = "normal"

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.source, "to": self.target, "label": self.label, "style": self.style}


@dataclass(frozen=True)
class TreeView:
    """A laid-out, bounded drawing of the tree.

    Attributes:
        nodes: the boxes, row by row, left to right (the top first, then "▲ up" if any).
        edges: parent -> child lines.
        width, height: the drawing's size in px at 1:1 (margins included).
        top_id: the tree node drawn at the top.
        focus_found: False when a focus id was asked for but is not in the tree (the root is
            drawn instead).
        drawn: tree nodes drawn (action and chance; "+n" and "▲ up" boxes excluded).
        total: nodes in the tree.
        player_names: the two players' names.
    """

    nodes: tuple[ViewNode, ...]
    edges: tuple[ViewEdge, ...]
    width: float
    height: float
    top_id: int
    focus_found: bool = True
    drawn: int = 0
    total: int = 0
    player_names: tuple[str, str] = ("X", "O")
    _by_id: dict[int, ViewNode] = field(default_factory=dict, repr=False, compare=False)

    def node(self, node_id: int) -> ViewNode | None:
        """The box of tree node ``node_id``, or ``None`` when it is not drawn."""
        if not self._by_id:
            self._by_id.update({n.id: n for n in self.nodes if n.id is not None})
        return self._by_id.get(node_id)

    def describe(self) -> str:
        """The drawing in words, for a screen reader: the top box, its most visited moves
        with their numbers, and the last selection path."""
        top = self.node(self.top_id)
        if top is None:
            return "Search tree: empty."
        moves = [n for n in self.nodes if n.parent == top.key and n.id is not None]
        moves.sort(key=lambda n: -_visits_of(n))
        said = [f"Search tree, {self.total:,} nodes. Top: {top.label}, {' '.join(top.lines)}."]
        if moves:
            said.append(
                "Most visited moves: "
                + "; ".join(f"{n.label} {' '.join(n.lines)}" for n in moves[:5])
                + "."
            )
        path = sorted((n for n in self.nodes if n.marks.path and n.key != top.key),
                      key=lambda n: n.level)  # fmt: skip
        if path:
            new = [n.label for n in self.nodes if n.marks.new]
            said.append(
                "Last path: " + ", ".join(n.label for n in path)
                + (f"; new node {new[0]}." if new else ".")
            )  # fmt: skip
        return " ".join(said)

    @property
    def drawn_ids(self) -> frozenset[int]:
        """Ids of the tree nodes drawn."""
        return frozenset(n.id for n in self.nodes if n.id is not None)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready data: what the browser component draws."""
        return {
            "width": round(self.width, 2),
            "height": round(self.height, 2),
            "top": f"n{self.top_id}",
            "top_id": self.top_id,
            "focus_found": self.focus_found,
            "drawn": self.drawn,
            "total": self.total,
            "player_names": list(self.player_names),
            "summary": self.describe(),
            "palette": dict(PALETTE),
            "nodes": [n.to_dict() for n in self.nodes],
            "edges": [e.to_dict() for e in self.edges],
        }


def _visits_of(node: ViewNode) -> float:
    """A box's N, read from its first line ("N 12", "N 1.2k"); 0 when it has none."""
    text = node.lines[0] if node.lines else ""
    if not text.startswith("N "):
        return 0.0
    number = text[2:].strip().replace(",", "")
    scale = {"k": 1e3, "M": 1e6}.get(number[-1:], 1.0)
    try:
        return float(number.rstrip("kM")) * scale
    except ValueError:
        return 0.0


def short_label(label: str, chars: int = SHORT_CHARS) -> str:
    """``label`` on one line, cut to ``chars`` characters and an ellipsis when longer than
    ``chars + 1`` (the full label goes in the tooltip)."""
    text = " ".join(str(label).split())
    if len(text) <= chars + 1:
        return text
    return text[:chars].rstrip() + "…"


def sibling_labels(labels: Sequence[str], chars: int = SHORT_CHARS) -> list[str]:
    """Short labels for the boxes of one parent, told apart where plain cutting would not:

    - each label cut by :func:`short_label`;
    - if that makes two of them equal, and dropping the words they all start with makes every
      label fit, "…" and the rest ("ball lands on (1,1)" -> "…(1,1)");
    - else each label that still collides keeps its head and its distinguishing tail
      ("H1 move to (1,0)" -> "H1…(1,0)").
    """
    short = [short_label(text, chars) for text in labels]
    if len(set(short)) == len(short):
        return short
    words = [" ".join(str(t).split()).split(" ") for t in labels]
    common = 0
    while all(len(w) > common + 1 for w in words) and len({w[common] for w in words}) == 1:
        common += 1
    if common:
        rests = ["…" + " ".join(w[common:]) for w in words]
        if all(len(r) <= chars + 1 for r in rests) and len(set(rests)) == len(rests):
            return rests
    out = list(short)
    for value in set(short):
        clash = [i for i, s in enumerate(short) if s == value]
        if len(clash) < 2:
            continue
        full = [" ".join(str(labels[i]).split()) for i in clash]
        tail = 1
        while tail < chars and len({f[-tail:] for f in full}) < len(full):
            tail += 1
        for i, f in zip(clash, full, strict=True):
            if len(f) <= chars + 1:
                continue
            token = len(f) - (f.rfind(" ", 0, len(f) - tail) + 1)  # whole last word(s)
            end = token if token <= chars - 2 else tail
            room = max(1, chars - end)
            out[i] = f.split(" ")[0][:room].rstrip() + "…" + f[-end:].lstrip()
    return out


def format_visits(visits: int) -> str:
    """N on a box: exact below 10,000, then 12.3k, 123k, 1.2M."""
    if visits < 10_000:
        return str(visits)
    if visits < 100_000:
        return f"{visits / 1000:.1f}k"
    if visits < 1_000_000:
        return f"{visits // 1000}k"
    return f"{visits / 1_000_000:.1f}M"


# Advance widths in em of DejaVu Sans, the widest font the browser may fall back to (the page
# uses Streamlit's narrower Source Sans): the boxes of a view are sized from these, so the text
# fits whatever the font; the browser still cuts a label that does not.
_EM: dict[str, float] = {
    **dict.fromkeys("0123456789", 0.636),
    **dict.fromkeys(" .,", 0.318),
    **dict.fromkeys(":;", 0.337),
    **dict.fromkeys("()[]{}", 0.39),
    **dict.fromkeys("iljI|'`!", 0.3),
    **dict.fromkeys("tfr", 0.4),
    **dict.fromkeys("mwMW%…", 0.98),
    **dict.fromkeys("+=<>#~▲", 0.838),
    "-": 0.361,
    "*": 0.5,
    "/": 0.337,
    "–": 0.5,
}


def text_width(text: str, size: float, bold: bool = False) -> float:
    """An upper estimate of ``text``'s width in px at font size ``size``."""
    em = 0.0
    for ch in text:
        if ch in _EM:
            em += _EM[ch]
        elif ch.isupper():
            em += 0.75
        elif ch.isascii():
            em += 0.62
        else:
            em += 1.0
    return em * size * (1.1 if bold else 1.0)


@dataclass(eq=False)
class _Box:
    """A box while the view is built (mutable; frozen into a ViewNode at the end)."""

    key: str
    node: Move | None
    parent: _Box | None
    level: int
    kind: str
    label: str = ""
    full_label: str = ""
    state: Any = None  # action: the state here; chance: the state where its action is chosen
    probability: float | None = None  # an outcome's probability (under a chance node)
    via: str = ""  # an outcome's chance action (its full label)
    folded: tuple[Move, ...] = ()  # "+n": the children it stands for
    w: float = 0.0
    h: float = 0.0
    x: float = 0.0  # centre while laying out
    y: float = 0.0


def build_view(
    search: Search,
    *,
    path_ids: set[int],
    new_id: int | None,
    changed_ids: set[int],
    focus_id: int | None,
    player_names: tuple[str, str],
    max_levels: int = 6,
    max_children: int = 3,
    root_children: int = 12,
) -> TreeView:
    """The bounded, laid-out drawing of ``search``'s tree (see the module docstring).

    Args:
        search: the search (read only).
        path_ids: ids on the last selection path (:func:`app.figures.path_ids`).
        new_id: the node the last iteration added, if any.
        changed_ids: the nodes whose N and Q moved in the last backup (the trace's updates).
        focus_id: draw from this node (an action or a chance node); ``None``: the root.
        player_names: the players' names, for the tooltips.
        max_levels: rows drawn, the top's row included (at least 1).
        max_children: children shown per expanded node below the top (at least 1).
        root_children: the top shows all its children while it has at most this many; above,
            its ``root_children`` most visited (plus any path or PV child).
    """
    names = (str(player_names[0]), str(player_names[1]))
    max_levels = max(1, int(max_levels))
    max_children = max(1, int(max_children))
    root_children = max(1, int(root_children))
    path = set(path_ids)
    changed = set(changed_ids)
    root_player = max(search.root.player, 0)

    top: Move = search.root
    focus_found = True
    if focus_id is not None and focus_id != search.root.id:
        found = _find(search, focus_id)
        if found is None:
            focus_found = False
        else:
            top = found
    pv = _pv_ranks(top, max_levels)
    expand = path | set(pv)

    # --- what is drawn: row by row from the top
    top_box = _Box(f"n{top.id}", top, None, 0, _kind(top))
    top_box.state = search.state_of(top)
    top_box.full_label, top_box.probability, top_box.via = _own_label(search, top)
    top_box.label = "root" if top is search.root else short_label(top_box.full_label)
    rows: list[list[_Box]] = [[top_box]]
    for level in range(1, max_levels):
        row: list[_Box] = []
        for box in rows[-1]:
            node = box.node
            if node is None or not node.children:
                continue
            if box is not top_box and node.id not in expand:
                continue
            children: Sequence[Move] = node.children
            if box is top_box and len(children) <= root_children:
                shown = list(children)
            else:
                limit = root_children if box is top_box else max_children
                ranked = sorted(children, key=lambda c: (-c.visits, c.id))
                keep = {c.id for c in ranked[:limit]} | {c.id for c in children if c.id in expand}
                shown = [c for c in children if c.id in keep]  # expansion order: stable boxes
            state = _state_of_box(search, box)
            group = [_child_box(search, box, child, state, level) for child in shown]
            for child_box, text in zip(
                group, sibling_labels([b.label for b in group]), strict=True
            ):
                child_box.label = text
            row.extend(group)
            folded = tuple(c for c in children if c not in shown)
            if folded:
                more = _Box(f"more{node.id}", None, box, level, "more", folded=folded)
                more.label = f"+{len(folded)}"
                row.append(more)
        if not row:
            break
        rows.append(row)

    up: _Box | None = None
    if top is not search.root and top.parent is not None:
        up = _Box("up", top.parent, None, -1, "up", label="▲ up")

    # --- sizes, then positions
    action_w = _action_width(search, rows, names)
    for row in rows:
        for box in row:
            if box.kind == "action":
                box.w, box.h = action_w, ACTION_H
            elif box.kind == "chance":
                box.w, box.h = action_w, CHANCE_H
            else:
                box.w, box.h = MORE_W, MORE_H
    y = float(MARGIN)
    if up is not None:
        up.w, up.h, up.y = UP_W, UP_H, y
        y += UP_H + UP_GAP
    for level, row in enumerate(rows):
        if level:
            _place_row(row)
        row_h = max(box.h for box in row)
        for box in row:
            box.y = y + (row_h - box.h) / 2  # small boxes ("+n", chance) centred in the row
        y += row_h + ROW_GAP
    height = y - ROW_GAP + MARGIN
    everything = [box for row in rows for box in row] + ([up] if up is not None else [])
    if up is not None:
        up.x = top_box.x
    left = min(box.x - box.w / 2 for box in everything)
    shift = MARGIN - left
    for box in everything:
        box.x += shift
    width = max(box.x + box.w / 2 for box in everything) + MARGIN

    # --- freeze
    context = _Context(names, root_player, path, new_id, changed, focus_id, pv, top_box)
    nodes: list[ViewNode] = []
    edges: list[ViewEdge] = []
    ordered = [top_box] + ([up] if up is not None else []) + [b for row in rows[1:] for b in row]
    for box in ordered:
        nodes.append(_freeze(context, box))
        if box.parent is not None:
            edges.append(_edge(box, path))
    if up is not None:
        edges.append(ViewEdge("up", top_box.key, "", "fold"))
    drawn = sum(1 for box in ordered if box.kind in ("action", "chance"))
    remembered = {box.node.id: box.node for box in ordered if box.node is not None}
    if top.parent is not None:
        remembered[top.parent.id] = top.parent
    _LAST_DRAWN[search] = remembered
    return TreeView(
        nodes=tuple(nodes),
        edges=tuple(edges),
        width=width,
        height=height,
        top_id=top.id,
        focus_found=focus_found,
        drawn=drawn,
        total=search.node_count,
        player_names=names,
    )


def _kind(node: Move) -> str:
    return "chance" if isinstance(node, ChanceNode) else "action"


#: The boxes of each search's last drawing (and the node above its top), by id: a click names
#: one of them, found here without a walk through a big tree. Checked before use: the node must
#: still hang from the search's root (a reset or a played move replaces the tree).
_LAST_DRAWN: weakref.WeakKeyDictionary[Search, dict[int, Move]] = weakref.WeakKeyDictionary()


def _in_tree(search: Search, node: Move) -> bool:
    above: Move = node
    while above.parent is not None:
        above = above.parent
    return above is search.root


def _find(search: Search, node_id: int, budget: int = 5000) -> Move | None:
    """The node ``node_id`` (action or chance): among the last drawing's boxes, else
    best-first by visits among ``budget`` nodes, else the id-pruned walk of
    :func:`mcts_core.queries.find_node`."""
    cached = _LAST_DRAWN.get(search, {}).get(node_id)
    if cached is not None and _in_tree(search, cached):
        return cached
    heap: list[tuple[int, int, Move]] = [(0, search.root.id, search.root)]
    looked = 0
    while heap and looked < budget:
        _, _, node = heapq.heappop(heap)
        looked += 1
        for child in node.children:
            if child.id == node_id:
                return child
            if child.id < node_id:  # ids grow downwards: younger nodes cannot be above
                heapq.heappush(heap, (-child.visits, child.id, child))
    return find_node(search.root, node_id)


def _pv_ranks(top: Move, limit: int) -> dict[int, int]:
    """The most visited line below ``top``: node id -> move number (1 = the first move below
    the top; a chance node and its most visited outcome share a number), ``limit`` moves."""
    ranks: dict[int, int] = {}
    rank = 0
    node: Move = top
    if isinstance(node, ChanceNode):
        if not node.children:
            return ranks
        rank = 1
        node = max(node.children, key=lambda n: n.visits)
        ranks[node.id] = rank
    while node.children and rank < limit:
        move = max(node.children, key=lambda m: m.visits)
        if not move.visits:
            break
        rank += 1
        ranks[move.id] = rank
        if isinstance(move, ChanceNode):
            if not move.children:
                break
            outcome = max(move.children, key=lambda n: n.visits)
            ranks[outcome.id] = rank
            node = outcome
        else:
            node = move
    return ranks


def _own_label(search: Search, node: Move) -> tuple[str, float | None, str]:
    """The full label of the move into ``node``; for an outcome, also its probability and its
    chance node's action label."""
    game = search.game
    parent = node.parent
    if parent is None:
        return "root", None, ""
    if isinstance(node, ChanceNode) or isinstance(parent, ActionNode):
        return str(game.action_label(search.state_of(parent), node.action)), None, ""
    state = search.state_of(parent)  # the state where the chance node's action is chosen
    text, probability = _outcome_text(search, state, parent, node)
    return text, probability, str(game.action_label(state, parent.action))


def _outcome_text(
    search: Search, state: Any, chance: ChanceNode, node: ActionNode
) -> tuple[str, float | None]:
    game = search.game
    text = game.outcome_label(state, chance.action, node.outcome)
    probability = dict(game.chance_outcomes(state, chance.action)).get(node.outcome)
    return (str(text) if text else str(node.outcome)), probability


def _state_of_box(search: Search, box: _Box) -> Any:
    """The state at a box that is about to be expanded (computed from its parent's)."""
    if box.state is None:
        parent = box.parent
        node = box.node
        assert parent is not None and node is not None
        parent_state = _state_of_box(search, parent)
        if isinstance(node, ChanceNode):
            box.state = parent_state
        else:
            box.state = search.game.next_state(parent_state, node.action, node.outcome)
    return box.state


def _child_box(search: Search, parent: _Box, child: Move, state: Any, level: int) -> _Box:
    box = _Box(f"n{child.id}", child, parent, level, _kind(child))
    node = parent.node
    if isinstance(node, ChanceNode):
        assert isinstance(child, ActionNode)
        box.full_label, box.probability = _outcome_text(search, state, node, child)
        box.via = parent.full_label
    else:
        box.full_label = str(search.game.action_label(state, child.action))
        if isinstance(search.game, ShortLabels):  # the game's own few-character label
            box.label = str(search.game.short_action_label(state, child.action))
            return box
    box.label = box.full_label  # shortened with its siblings (sibling_labels)
    return box


def _action_width(search: Search, rows: list[list[_Box]], names: tuple[str, str]) -> float:
    """One width for every action and chance box of the view: its widest text, bounded."""
    widest = 0.0
    for row in rows:
        for box in row:
            if box.kind not in ("action", "chance"):
                continue
            widest = max(widest, text_width(box.label, LABEL_FONT, bold=True))
            node = box.node
            if box.kind == "action" and node is not None:
                for line in _lines(node, 0):
                    widest = max(widest, text_width(line, LINE_FONT))
    return float(min(MAX_W, max(MIN_W, math.ceil(widest + 2 * PAD_X))))


def _lines(node: Move, view: int) -> tuple[str, str]:
    if not node.visits:
        return ("N 0", "–")
    return (f"N {format_visits(node.visits)}", f"{node.mean(view):+.2f}")


def _place_row(row: list[_Box]) -> None:
    """Centre each parent's children under it, then the least-squares positions that keep
    neighbours apart: minimise sum (x_i - d_i)^2 subject to x_{i+1} - x_i >= s_i."""
    desired: list[float] = []
    i = 0
    while i < len(row):
        j = i
        while j < len(row) and row[j].parent is row[i].parent:
            j += 1
        group = row[i:j]
        parent = group[0].parent
        centre = parent.x if parent is not None else 0.0
        total = sum(b.w for b in group) + GAP_X * (len(group) - 1)
        left = centre - total / 2
        for box in group:
            desired.append(left + box.w / 2)
            left += box.w + GAP_X
        i = j
    offsets = [0.0]
    for a, b in zip(row, row[1:], strict=False):
        gap = GAP_X if a.parent is b.parent else GROUP_GAP
        offsets.append(offsets[-1] + (a.w + b.w) / 2 + gap)
    fitted = isotonic([d - c for d, c in zip(desired, offsets, strict=True)])
    for box, z, c in zip(row, fitted, offsets, strict=True):
        box.x = z + c


def isotonic(values: Sequence[float]) -> list[float]:
    """The non-decreasing sequence closest to ``values`` in least squares (pool adjacent
    violators)."""
    blocks: list[list[float]] = []  # [sum, count]
    for v in values:
        blocks.append([float(v), 1.0])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            s, n = blocks.pop()
            blocks[-1][0] += s
            blocks[-1][1] += n
    out: list[float] = []
    for s, n in blocks:
        out.extend([s / n] * int(n))
    return out


@dataclass
class _Context:
    names: tuple[str, str]
    root_player: int
    path: set[int]
    new_id: int | None
    changed: set[int]
    focus_id: int | None
    pv: dict[int, int]
    top: _Box


def _view_player(node: Move, root_player: int) -> int:
    """Whose view a node's Q is shown from: the player who chose the move into it (a chance
    node: the player who chose its action; the root: the player to move there)."""
    if isinstance(node, ChanceNode):
        return node.player
    decider = node.decider
    return root_player if decider is None else decider.player


def _parent_visits(node: Move) -> int | None:
    parent = node.parent
    return None if parent is None else parent.visits


def _is_faint(node: Move) -> bool:
    visits = node.visits
    if visits < FAINT_VISITS:
        return True
    parent_visits = _parent_visits(node)
    return bool(parent_visits) and visits < FAINT_SHARE * (parent_visits or 0)


def _freeze(ctx: _Context, box: _Box) -> ViewNode:
    parent_key = box.parent.key if box.parent is not None else None
    x, y = box.x - box.w / 2, box.y
    if box.kind == "more":
        visits = sum(c.visits for c in box.folded)
        parent = box.parent
        assert parent is not None and parent.node is not None
        what = "outcomes" if isinstance(parent.node, ChanceNode) else "moves"
        at_top = parent is ctx.top  # the top already shows its most visited moves
        more_tip = (
            f"{len(box.folded)} more {what} folded here",
            f"N = {visits:,} in all",
            "the least visited ones"
            if at_top
            else f"click to focus on node #{parent.node.id} and show them all",
        )
        return ViewNode(
            box.key, None, parent_key, box.level, x, y, box.w, box.h, "more", "more", box.label,
            (), more_tip, False, Marks(), None if at_top else parent.node.id,
        )  # fmt: skip
    if box.kind == "up":
        node = box.node
        assert node is not None
        up_tip = (f"up to node #{node.id}", "click to draw the tree from there")
        return ViewNode(
            box.key, None, None, -1, x, y, box.w, box.h, "up", "up", box.label, (), up_tip, False,
            Marks(), node.id,
        )  # fmt: skip
    node = box.node
    assert node is not None
    names = ctx.names
    view = _view_player(node, ctx.root_player)
    marks = Marks(
        path=node.id in ctx.path,
        new=node.id == ctx.new_id,
        changed=node.id in ctx.changed,
        pv=ctx.pv.get(node.id),
        focus=ctx.focus_id is not None and node.id == ctx.focus_id,
    )
    proof = node.proven
    proven = None
    if proof is not None:
        value = proof[view]
        proven = "win" if value > 0 else "loss" if value < 0 else "draw"
    is_top = box is ctx.top
    tip: list[str] = []
    if isinstance(node, ChanceNode):
        role = "chance"
        lines: tuple[str, ...] = ()
        tip.append(f"{names[view]} tries {box.full_label}")
        seen = len(node.children)
        tip.append(f"chance node #{node.id}: {node.num_outcomes} outcomes, {seen} drawn so far")
    else:
        role = "end" if node.player < 0 else f"p{node.player}"
        lines = _lines(node, view)
        if node.parent is None:
            tip.append("root: the position searched")
        elif isinstance(node.parent, ChanceNode):
            tip.append(f"{box.via} → {box.full_label}")
        else:
            tip.append(f"{names[view]} plays {box.full_label}")
        who = "game over" if node.player < 0 else f"{names[node.player]} to move"
        tip.append(f"node #{node.id} · {who}")
    if box.probability is not None:
        tip.append(f"probability {box.probability:.1%}")
    parent_visits = _parent_visits(node)
    share = ""
    if parent_visits:
        share = f" ({node.visits / parent_visits:.0%} of the parent's {parent_visits:,})"
    tip.append(f"N = {node.visits:,}{share}")
    if node.visits:
        if node.parent is not None:
            why = f" ({names[view]} chose this move)"
        else:
            why = f" ({names[view]} moves here)" if node.player >= 0 else ""
        tip.append(f"Q = {node.mean(view):+.3f} from {names[view]}'s view{why}")
    if proven is not None:
        tip.append(f"proven: {proven} for {names[view]}")
    if marks.path:
        tip.append("on the last selection path")
    if marks.new:
        tip.append("added by the last iteration")
    if marks.changed:
        tip.append("N and Q changed in the last backup")
    if marks.pv is not None:
        tip.append(f"principal variation, move {marks.pv}")
    if is_top:
        tip.append("the top of the drawing" + ("" if node.parent is None else ": ▲ up goes back"))
    else:
        tip.append("click to focus")
    faint = _is_faint(node) and not marks.new  # the node just added is never faint
    return ViewNode(
        box.key, node.id, parent_key, box.level, x, y, box.w, box.h, box.kind, role, box.label,
        lines, tuple(tip), faint, marks, node.id, proven,
    )  # fmt: skip


def _edge(box: _Box, path: set[int]) -> ViewEdge:
    parent = box.parent
    assert parent is not None
    if box.kind == "more":
        return ViewEdge(parent.key, box.key, "", "fold")
    label = ""
    if box.probability is not None:
        label = _percent(box.probability)
    on_path = (
        box.node is not None
        and parent.node is not None
        and box.node.id in path
        and parent.node.id in path
    )
    return ViewEdge(parent.key, box.key, label, "path" if on_path else "normal")


def _percent(p: float) -> str:
    """An outcome's probability on its edge: 67%, 9.1%, 0.4%."""
    return f"{p:.0%}" if p >= 0.095 or p == 0 else f"{p:.1%}"


# ------------------------------------------------------------------ the browser part

# Inline, no build step. The script builds every element with createElement(NS) and sets text
# with textContent only: game labels can contain anything and stay data, never HTML.
_CSS = r"""
.tv-root {
  position: relative; width: 100%; height: 400px; box-sizing: border-box; overflow: hidden;
  border: 1px solid #e5e7eb; border-radius: 8px; background: #ffffff; color: #111827;
  font-family: var(--st-font, "Source Sans Pro", "Source Sans 3", sans-serif);
}
.tv-scroll {
  position: absolute; inset: 0; overflow: auto; cursor: grab; touch-action: none;
  user-select: none; -webkit-user-select: none;
}
.tv-scroll.dragging { cursor: grabbing; }
.tv-scroll svg { display: block; overflow: visible; font-family: inherit; }
.tv-node.tv-click { cursor: pointer; }
.tv-node:focus { outline: none; }
.tv-node:focus-visible .tv-box { stroke: #111827; stroke-dasharray: 3 2; }
.tv-label { font-size: 13px; font-weight: 700; text-anchor: middle; fill: #111827; }
.tv-line {
  font-size: 12px; text-anchor: middle; fill: #111827; font-variant-numeric: tabular-nums;
}
.tv-bold { font-weight: 700; }
/* few visits: grey numbers that still read (WCAG AA, 6:1 on the box fills) in a paler box */
.tv-faint { fill: #4b5563; }
.tv-is-faint .tv-box { stroke-opacity: 0.45; }
.tv-small { font-size: 13px; font-weight: 600; text-anchor: middle; fill: #374151; }
.tv-badge { font-size: 12px; font-weight: 700; text-anchor: middle; fill: #ffffff; }
.tv-edge-label {
  font-size: 12px; font-weight: 600; text-anchor: middle; fill: #92400e;
  paint-order: stroke; stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round;
}
.tv-bar { position: absolute; top: 6px; right: 8px; z-index: 2; display: flex; gap: 4px; }
.tv-button {
  font-family: inherit; font-size: 13px; font-weight: 600; min-width: 30px; height: 26px;
  padding: 0 6px; border: 1px solid #d1d5db; border-radius: 6px; color: #111827;
  background: rgba(255, 255, 255, 0.92); cursor: pointer;
}
.tv-button:hover { background: #f3f4f6; }
.tv-tip {
  position: absolute; display: none; z-index: 3; pointer-events: none; max-width: 360px;
  padding: 6px 9px; border-radius: 6px; background: #111827; color: #f9fafb; font-size: 13px;
  line-height: 1.35; white-space: pre-wrap; overflow-wrap: anywhere;
  box-shadow: 0 4px 12px rgba(0, 0, 0, 0.25);
}
.tv-tip > div:first-child { font-weight: 700; }
.tv-legend {
  position: absolute; display: none; top: 38px; right: 8px; z-index: 2; max-width: 340px;
  padding: 8px 10px; border: 1px solid #e5e7eb; border-radius: 6px; background: #ffffff;
  font-size: 13px; line-height: 1.45; box-shadow: 0 4px 12px rgba(0, 0, 0, 0.15);
}
.tv-legend.open { display: block; }
.tv-legend-text { margin-top: 4px; color: #374151; }
.tv-swatch {
  display: inline-block; width: 12px; height: 12px; margin-right: 6px; vertical-align: -1px;
  border: 2px solid #6b7280; border-radius: 3px; box-sizing: border-box;
}
"""

_JS = r"""
const NS = "http://www.w3.org/2000/svg";
const ROLES = new Set(["p0", "p1", "end", "chance", "more", "up"]);
const PAD_X = 4;
const PAD_Y = 4;

// Everything below builds DOM with createElement(NS) + textContent: labels are data, never HTML.
function svgEl(tag, attrs, parent) {
  const e = document.createElementNS(NS, tag);
  if (attrs) for (const k of Object.keys(attrs)) e.setAttribute(k, String(attrs[k]));
  if (parent) parent.appendChild(e);
  return e;
}

function htmlEl(tag, cls, parent, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = String(text);
  if (parent) parent.appendChild(e);
  return e;
}

function svgText(parent, x, y, str, cls) {
  const t = svgEl("text", { x: x, y: y, class: cls }, parent);
  t.textContent = String(str);
  return t;
}

function clear(e) {
  while (e.firstChild) e.removeChild(e.firstChild);
}

// Cut a text the font draws wider than its box (the server's width estimate is rough).
function fitText(t, maxWidth) {
  let s = t.textContent;
  try {
    let guard = 40;
    while (s.length > 1 && guard-- > 0 && t.getComputedTextLength() > maxWidth) {
      s = (s.endsWith("…") ? s.slice(0, -2) : s.slice(0, -1)).trimEnd() + "…";
      t.textContent = s;
    }
  } catch (err) {
    // not laid out yet: keep the text
  }
}

function setup(host) {
  const root = htmlEl("div", "tv-root", host);
  const scroll = htmlEl("div", "tv-scroll", root);
  // a group, not an image: its boxes are buttons (focus on click); its name says the tree
  const svg = svgEl("svg", { role: "group", "aria-label": "search tree" }, scroll);
  const edgesG = svgEl("g", { class: "tv-edges" }, svg);
  const labelsG = svgEl("g", { class: "tv-edge-labels" }, svg);
  const nodesG = svgEl("g", { class: "tv-nodes" }, svg);
  const bar = htmlEl("div", "tv-bar", root);
  const tip = htmlEl("div", "tv-tip", root);
  const legend = htmlEl("div", "tv-legend", root);
  const st = {
    host, root, scroll, svg, edgesG, labelsG, nodesG, tip, legend,
    data: null, view: null, byKey: new Map(), scale: 1, offsetX: 0, moved: false,
    drag: null, tipKey: null, setTrigger: null, lastWidth: -1, ro: null,
  };
  const buttons = [
    ["−", "zoom out", () => zoomAtCentre(st, 1 / 1.25)],
    ["+", "zoom in", () => zoomAtCentre(st, 1.25)],
    ["1:1", "actual size, the top box centred", () => actualSize(st)],
    ["fit", "fit the whole drawing", () => fit(st)],
    ["?", "what the colours and marks mean", () => legend.classList.toggle("open")],
  ];
  for (const [text, title, action] of buttons) {
    const b = htmlEl("button", "tv-button", bar, text);
    b.type = "button";
    b.title = title;
    b.setAttribute("aria-label", text + ": " + title); // the visible text first (WCAG 2.5.3)
    b.addEventListener("click", (e) => { e.preventDefault(); action(); });
  }

  scroll.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    const g = nodeGroup(e.target);
    st.drag = {
      id: e.pointerId, x: e.clientX, y: e.clientY, left: scroll.scrollLeft, top: scroll.scrollTop,
      key: g ? g.getAttribute("data-key") : null, moved: false,
    };
  });
  scroll.addEventListener("pointermove", (e) => {
    const d = st.drag;
    if (d && d.id === e.pointerId) {
      const dx = e.clientX - d.x;
      const dy = e.clientY - d.y;
      if (!d.moved && Math.abs(dx) + Math.abs(dy) > 4) {
        d.moved = true;
        try { scroll.setPointerCapture(e.pointerId); } catch (err) { /* ignore */ }
        scroll.classList.add("dragging");
        hideTip(st);
      }
      if (d.moved) {
        scroll.scrollLeft = d.left - dx;
        scroll.scrollTop = d.top - dy;
        st.moved = true;
        return;
      }
    }
    showTip(st, e);
  });
  const end = (e) => {
    const d = st.drag;
    if (!d || d.id !== e.pointerId) return;
    st.drag = null;
    scroll.classList.remove("dragging");
    if (!d.moved && d.key && e.type === "pointerup") click(st, d.key);
  };
  scroll.addEventListener("pointerup", end);
  scroll.addEventListener("pointercancel", end);
  scroll.addEventListener("pointerleave", () => { if (!st.drag) hideTip(st); });
  scroll.addEventListener("wheel", (e) => {
    if (!e.ctrlKey) return; // a plain wheel scrolls as usual
    e.preventDefault();
    const r = scroll.getBoundingClientRect();
    zoomTo(st, st.scale * Math.exp(-e.deltaY * 0.002), e.clientX - r.left, e.clientY - r.top);
    st.moved = true;
  }, { passive: false });
  svg.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return;
    const g = nodeGroup(e.target);
    if (g) { e.preventDefault(); click(st, g.getAttribute("data-key")); }
  });
  if (typeof ResizeObserver !== "undefined") {
    st.ro = new ResizeObserver(() => {
      if (!st.view) return;
      const w = scroll.clientWidth;
      if (w === st.lastWidth) return;
      st.lastWidth = w;
      layout(st);
      if (!st.moved) centre(st);
    });
    st.ro.observe(scroll);
  }
  return st;
}

function nodeGroup(target) {
  return target && target.closest ? target.closest("g.tv-node") : null;
}

function click(st, key) {
  const n = st.byKey.get(key);
  if (!n || n.click === null || n.click === undefined) return;
  if (key === st.view.top) return; // already the top
  if (st.setTrigger) st.setTrigger("focus", n.click);
}

function showTip(st, e) {
  const g = nodeGroup(e.target);
  const n = g ? st.byKey.get(g.getAttribute("data-key")) : null;
  if (!n) { hideTip(st); return; }
  const tip = st.tip;
  if (st.tipKey !== n.key) {
    clear(tip);
    for (const line of n.tooltip || []) htmlEl("div", "", tip, line);
    st.tipKey = n.key;
  }
  tip.style.display = "block";
  const r = st.root.getBoundingClientRect();
  let x = e.clientX - r.left + 14;
  let y = e.clientY - r.top + 16;
  const tw = tip.offsetWidth;
  const th = tip.offsetHeight;
  if (x + tw > r.width - 4) x = Math.max(4, e.clientX - r.left - tw - 10);
  if (y + th > r.height - 4) y = Math.max(4, e.clientY - r.top - th - 10);
  tip.style.left = x + "px";
  tip.style.top = y + "px";
}

function hideTip(st) {
  st.tip.style.display = "none";
  st.tipKey = null;
}

function topCentre(st) {
  const v = st.view;
  const t = st.byKey.get(v.top);
  return t ? t.x + t.w / 2 : v.width / 2;
}

function layout(st) {
  const v = st.view;
  const s = st.scale;
  const w = v.width * s;
  const h = v.height * s;
  st.svg.setAttribute("width", String(w));
  st.svg.setAttribute("height", String(h));
  st.svg.setAttribute("viewBox", "0 0 " + v.width + " " + v.height);
  const cw = st.scroll.clientWidth;
  // narrower than the container: put the top box in the middle while everything stays in view
  st.offsetX = w < cw ? Math.max(0, Math.min(cw - w, cw / 2 - topCentre(st) * s)) : 0;
  st.svg.style.marginLeft = st.offsetX + "px";
}

function centre(st) {
  const sc = st.scroll;
  sc.scrollLeft = Math.max(0, topCentre(st) * st.scale + st.offsetX - sc.clientWidth / 2);
  sc.scrollTop = 0;
}

function zoomTo(st, scale, ax, ay) {
  const sc = st.scroll;
  const old = st.scale;
  const px = (sc.scrollLeft + ax - st.offsetX) / old;
  const py = (sc.scrollTop + ay) / old;
  st.scale = Math.min(4, Math.max(0.15, scale));
  layout(st);
  sc.scrollLeft = px * st.scale + st.offsetX - ax;
  sc.scrollTop = py * st.scale - ay;
}

function actualSize(st) {
  st.scale = st.baseScale || 1;
  st.moved = false;
  layout(st);
  centre(st);
}

function zoomAtCentre(st, factor) {
  zoomTo(st, st.scale * factor, st.scroll.clientWidth / 2, st.scroll.clientHeight / 2);
  st.moved = true;
}

function fitWidth(st) { // a narrow screen: the whole width in view, top first (not "moved")
  const cw = st.scroll.clientWidth;
  if (!cw) return;
  st.scale = Math.min(st.baseScale || 1, Math.max(0.15, cw / st.view.width));
  layout(st);
  st.scroll.scrollLeft = 0;
  st.scroll.scrollTop = 0;
}

function fit(st) {
  const v = st.view;
  const cw = st.scroll.clientWidth;
  const ch = st.scroll.clientHeight;
  st.scale = Math.min(2, Math.max(0.15, Math.min(cw / v.width, ch / v.height)));
  layout(st);
  st.scroll.scrollLeft = 0;
  st.scroll.scrollTop = 0;
  st.moved = true;
}

function bezierPoint(x1, y1, x2, y2, t) {
  const ym = (y1 + y2) / 2;
  const u = 1 - t;
  const a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t;
  return [a * x1 + b * x1 + c * x2 + d * x2, a * y1 + b * ym + c * ym + d * y2];
}

function drawEdges(st, pal) {
  for (const e of st.view.edges) {
    const a = st.byKey.get(String(e.from));
    const b = st.byKey.get(String(e.to));
    if (!a || !b) continue;
    const x1 = a.x + a.w / 2, y1 = a.y + a.h, x2 = b.x + b.w / 2, y2 = b.y;
    const ym = (y1 + y2) / 2;
    const style = e.style === "path" ? "path" : e.style === "fold" ? "fold" : "normal";
    const attrs = {
      d: "M" + x1 + "," + y1 + " C" + x1 + "," + ym + " " + x2 + "," + ym + " " + x2 + "," + y2,
      fill: "none",
      stroke: style === "path" ? pal.path : pal.edge,
      "stroke-width": style === "path" ? 3 : 1.5,
      class: "tv-edge tv-edge-" + style,
    };
    if (style === "fold") attrs["stroke-dasharray"] = "4 3";
    svgEl("path", attrs, st.edgesG);
    if (e.label) {
      const p = bezierPoint(x1, y1, x2, y2, 0.7);
      svgText(st.labelsG, p[0], p[1] + 4, e.label, "tv-edge-label");
    }
  }
}

function badge(g, cx, cy, text, fill, cls) {
  svgEl("circle", { cx: cx, cy: cy, r: 9, fill: fill, stroke: "#ffffff", "stroke-width": 1.5 }, g);
  svgText(g, cx, cy + 4, text, "tv-badge " + cls);
}

function drawNode(st, n, pal) {
  const v = st.view;
  const g = svgEl("g", {
    class: "tv-node tv-" + (ROLES.has(n.role) ? n.role : "more"),
    transform: "translate(" + n.x + "," + n.y + ")",
    "data-key": n.key,
  }, st.nodesG);
  if (n.id !== null && n.id !== undefined) g.setAttribute("data-id", String(n.id));
  const clickable = n.click !== null && n.click !== undefined && n.key !== v.top;
  if (clickable) {
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
    g.classList.add("tv-click");
  }
  const role = ROLES.has(n.role) ? n.role : "more";
  const m = n.marks || {};
  let stroke = pal[role + "_stroke"];
  let width = 1.2;
  if (m.path) { stroke = pal.path; width = 2.5; }
  if (m.new) { stroke = pal.new; width = 3; }
  if (m.changed) width += 1.5;
  if (m.path) g.classList.add("tv-on-path");
  if (m.new) g.classList.add("tv-new");
  if (m.changed) g.classList.add("tv-changed");
  if (n.faint) g.classList.add("tv-is-faint");
  if (n.kind === "chance") {
    const cx = n.w / 2, r = 9;
    svgEl("rect", { x: 0, y: 0, width: n.w, height: n.h, fill: "transparent" }, g);
    svgEl("polygon", {
      points: cx + ",0 " + (cx + r) + "," + r + " " + cx + "," + 2 * r + " " + (cx - r) + "," + r,
      fill: pal.chance, stroke: stroke, "stroke-width": width,
    }, g);
    const t = svgText(g, cx, 2 * r + 15, n.label, "tv-label tv-chance-label");
    fitText(t, n.w - 4);
    if (m.pv) badge(g, cx + 20, 8, m.pv, pal.pv, "tv-pv");
    return;
  }
  if (m.focus) {
    svgEl("rect", {
      x: -4, y: -4, width: n.w + 8, height: n.h + 8, rx: 8, fill: "none",
      stroke: pal.text, "stroke-width": 1.2, "stroke-dasharray": "4 3",
    }, g);
  }
  const box = {
    x: 0, y: 0, width: n.w, height: n.h, rx: n.kind === "action" ? 6 : 11,
    fill: pal[role], stroke: stroke, "stroke-width": width, class: "tv-box",
  };
  if (n.kind === "more") box["stroke-dasharray"] = "4 3";
  svgEl("rect", box, g);
  if (n.kind === "action") {
    const t = svgText(g, n.w / 2, PAD_Y + 13, n.label, "tv-label");
    fitText(t, n.w - 2 * PAD_X);
    (n.lines || []).forEach((line, i) => {
      const cls = "tv-line" + (n.faint ? " tv-faint" : "") + (m.changed ? " tv-bold" : "");
      const lt = svgText(g, n.w / 2, PAD_Y + 16 + 15 * (i + 1) - 1, line, cls);
      fitText(lt, n.w - 4);
    });
  } else {
    svgText(g, n.w / 2, n.h / 2 + 4.5, n.label, "tv-small");
  }
  if (m.pv) badge(g, n.w - 2, 1, m.pv, pal.pv, "tv-pv");
  if (n.proven) {
    const letter = n.proven === "win" ? "W" : n.proven === "loss" ? "L" : "D";
    badge(g, 2, 1, letter, pal[n.proven] || pal.draw, "tv-proven");
  }
}

function drawLegend(st, pal) {
  const names = st.view.player_names || ["X", "O"];
  const lg = st.legend;
  clear(lg);
  const row = (swatch, text, dashed) => {
    const r = htmlEl("div", "tv-legend-row", lg);
    const s = htmlEl("span", "tv-swatch", r);
    if (swatch) s.style.background = swatch[0];
    if (swatch) s.style.borderColor = swatch[1];
    if (dashed) s.style.borderStyle = "dashed";
    htmlEl("span", "", r, text);
  };
  row([pal.p0, pal.p0_stroke], names[0] + " to move");
  row([pal.p1, pal.p1_stroke], names[1] + " to move");
  row([pal.end, pal.end_stroke], "game over");
  row([pal.chance, pal.chance_stroke], "◆ chance: each outcome's probability on its edge");
  row(["#ffffff", pal.path], "orange: the last selection path");
  row(["#ffffff", pal.new], "green outline: the node just added");
  row(["#ffffff", "#111827"], "thick outline, bold numbers: N and Q changed in the last backup");
  row([pal.pv, pal.pv], "numbered badge: the principal variation (most visited line)");
  row(["#ffffff", pal.more_stroke], "+n: moves folded away (click to show them)", true);
  htmlEl("div", "tv-legend-text", lg,
    "N: visits. Q: the mean value for the player who chose the move into the box. "
    + "Faint numbers: few visits. Hover a box for details, click to focus on it. "
    + "Drag to pan; +, −, Ctrl + wheel zoom.");
  const v = st.view;
  let info = v.drawn + " of " + v.total + " nodes drawn";
  if (!v.focus_found) info += " · the focused node is not in the tree: drawing from the root";
  htmlEl("div", "tv-legend-text", lg, info);
}

function render(st, data) {
  const v = data.view;
  const topChanged = !st.view || st.view.top !== v.top;
  if (v.summary) st.svg.setAttribute("aria-label", String(v.summary));
  st.view = v;
  const px = Math.max(80, Number(data.height) || 400) + "px";
  // grow with a taller window (a 1080-high projector) when asked: "calc(100vh - Npx)"
  st.root.style.height = data.fill ? "max(" + px + ", " + String(data.fill) + ")" : px;
  const base = Math.min(4, Math.max(0.15, Number(data.scale) || 1));
  if (st.baseScale !== base) { // a new first-view zoom (presentation mode): start from it
    st.baseScale = base;
    st.scale = base;
    st.moved = false;
  }
  st.byKey = new Map();
  for (const n of v.nodes) st.byKey.set(String(n.key), n);
  const pal = v.palette || {};
  clear(st.edgesG);
  clear(st.labelsG);
  clear(st.nodesG);
  layout(st); // size the svg first: text widths are measured while laid out
  drawEdges(st, pal);
  for (const n of v.nodes) drawNode(st, n, pal);
  drawLegend(st, pal);
  if (topChanged) st.moved = false;
  if (!st.moved && data.fit) fitWidth(st);
  else if (!st.moved) centre(st);
  st.lastWidth = st.scroll.clientWidth;
  if (st.tipKey !== null) {
    const n = st.byKey.get(st.tipKey);
    if (!n) {
      hideTip(st);
    } else { // the same box is still under the pointer: its new numbers
      clear(st.tip);
      for (const line of n.tooltip || []) htmlEl("div", "", st.tip, line);
    }
  }
}

export default function (component) {
  const { data, parentElement, setTriggerValue } = component;
  let st = parentElement.__mctsTreeView;
  if (!st || !st.root.isConnected) {
    st = setup(parentElement);
    parentElement.__mctsTreeView = st;
  }
  st.setTrigger = setTriggerValue;
  if (data && data.view) render(st, data);
  return () => {
    // Streamlit calls this when the component goes away for good (also, rarely, for a stale
    // render): only tear down once the drawing has left the page.
    if (st.root.isConnected) return;
    if (st.ro) st.ro.disconnect();
    if (parentElement.__mctsTreeView === st) delete parentElement.__mctsTreeView;
  };
}
"""

#: The component, registered once when the module is imported.
_COMPONENT: Callable[..., Any] = components.component("mcts_lab_tree_view", css=_CSS, js=_JS)


def render_tree(
    view: TreeView,
    *,
    key: str,
    height: int,
    scale: float = 1.0,
    below: int | None = None,
) -> int | None:
    """Draw ``view`` in the page; returns the node id the user just clicked (to focus on), or
    ``None``. The component is ``height`` px high and as wide as its container, or, with
    ``below``, as high as the window less ``below`` px when that is more (a taller screen gets
    a taller tree); ``scale`` is the first view's zoom (and what the 1:1 button returns to):
    above 1 for a projector."""
    data: dict[str, Any] = {"view": view.to_dict(), "height": int(height), "scale": float(scale)}
    if below is not None:
        data["fill"] = f"calc(100vh - {int(below)}px)"
    result = _COMPONENT(key=key, data=data, on_focus_change=_no_op)
    return _as_id(result.get("focus") if hasattr(result, "get") else None)


def render_tree_data(data: dict[str, Any], *, key: str, height: int, fit: bool = False) -> None:
    """Draw a tree view published as plain data (:meth:`TreeView.to_dict`, a class's frame);
    ``fit``: the first view fits the drawing to the component's width (a phone)."""
    _COMPONENT(key=key, data={"view": data, "height": int(height), "scale": 1.0, "fit": fit},
               on_focus_change=_no_op)  # fmt: skip


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
