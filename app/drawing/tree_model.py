"""The browser tree's model: the frozen records :func:`app.drawing.tree_layout.build_view` returns
and
the browser component (:mod:`app.components.tree_view`, ``static/tree_view.js``) draws: boxes
(:class:`ViewNode`, with the :class:`Marks` of the last iteration), lines (:class:`ViewEdge`),
the whole drawing (:class:`TreeView`, ``to_dict()`` JSON-ready, ``describe()`` in words for a
screen reader) and the colours sent with it (:data:`PALETTE`, :func:`palette_for` a game).
Pure Python, no Streamlit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.drawing import palette
from app.words.i18n import _, decimal, n_
from app.words.phrases import clauses_text, comma_list
from games.base import AnyGame

__all__ = ["Heat", "Marks", "ViewNode", "ViewEdge", "TreeView", "PALETTE", "palette_for"]


#: Colours sent to the browser (:mod:`app.drawing.palette`: one meaning each); a game's players'
#: colours replace ``p0`` / ``p1`` (:func:`palette_for`).
PALETTE: dict[str, str] = {
    "p0": palette.BLUE.fill,
    "p1": palette.RED.fill,
    "end": palette.TERMINAL_FILL,
    "chance": palette.CHANCE_FILL,
    "more": "#ffffff",
    "up": "#f3f4f6",
    "p0_stroke": palette.BLUE.strong,
    "p1_stroke": palette.RED.strong,
    "end_stroke": palette.TERMINAL_STROKE,
    "chance_stroke": palette.CHANCE_STROKE,
    "more_stroke": "#9ca3af",
    "up_stroke": "#6b7280",
    "path": palette.PATH,
    "new": palette.NEW,
    "edge": "#9ca3af",
    "pv": palette.PV,
    "proven": palette.PROVEN,
    "text": palette.TEXT,
    "heat": palette.CLASS,
    "right": palette.RIGHT,
}


def palette_for(game: AnyGame) -> dict[str, str]:
    """:data:`PALETTE` with ``game``'s players' colours (Connect Four: yellow and red)."""
    first, second = palette.player_colours(game)
    return PALETTE | {
        "p0": first.fill,
        "p1": second.fill,
        "p0_stroke": first.strong,
        "p1_stroke": second.strong,
        "p0_name": first.name,
        "p1_name": second.name,
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
            move; a move with dice: on its chance node, not on the outcome), ``None`` when off
            it.
        focus: the focused node (the top when the focus was found).
    """

    path: bool = False
    new: bool = False
    changed: bool = False
    pv: int | None = None
    focus: bool = False


@dataclass(frozen=True, slots=True)
class Heat:
    """The class's answers on one move's box (``class_heat``: app/drawing/tree_heat.py).

    Attributes:
        count: students whose answer in the round is this move (0 or more).
        share: ``count`` over the round's answers, in [0, 1] (0 when nobody answered): the
            box's shade.
        right: after the reveal, whether this move is a right answer (drawn ✓); ``None``
            before it (nothing marked).
    """

    count: int
    share: float
    right: bool | None = None

    def to_dict(self) -> dict[str, object]:
        return {"count": self.count, "share": round(self.share, 4), "right": self.right}


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
        role: the box's colour: "p0" / "p1" (the player whose move led here, whose view Q is
            from; the root: the player to move), "end" (the game is over), "chance", "more"
            or "up".
        label: the move (or outcome) into the box, cut to about 7 characters ("root" at the
            root).
        lines: the numbers on the box, e.g. ``("N 12", "+0.33")``.
        tooltip: the hover text, one entry per line (full labels, id, N, Q and whose view).
        faint: few visits (N < 3, or under 2% of the parent's N): numbers drawn faintly.
        marks: path / new / changed / pv / focus.
        click: the node id a click focuses (``None``: not clickable).
        proven: with the solver, "win" / "draw" / "loss" for the player whose view Q is in.
        mover: the player whose view Q is from (0 / 1; drawn as the box's shape: square
            corners for player 0, round for player 1), ``None`` for "+n" and "▲ up".
        heat: the class's answers on this move (``class_heat`` on), ``None`` otherwise.
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
    mover: int | None = None
    heat: Heat | None = None

    def to_dict(self) -> dict[str, object]:
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
            "mover": self.mover,
            "heat": None if self.heat is None else self.heat.to_dict(),
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

    def to_dict(self) -> dict[str, object]:
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
        palette: the colours the browser draws with (:func:`palette_for` the game).
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
    palette: dict[str, str] = field(default_factory=lambda: dict(PALETTE))
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
            return _("Search tree: empty.")
        moves = [n for n in self.nodes if n.parent == top.key and n.id is not None]
        moves.sort(key=lambda n: -_visits_of(n))
        said = [
            n_(
                "Search tree, {count} node. Top: {top}, {numbers}.",
                "Search tree, {count} nodes. Top: {top}, {numbers}.",
                self.total,
                count=decimal(self.total),
                top=top.label,
                numbers=" ".join(top.lines),
            )  # fmt: skip
        ]
        if moves:
            said.append(
                _(
                    "Most visited moves: {moves}.",
                    moves=clauses_text([f"{n.label} {' '.join(n.lines)}" for n in moves[:5]]),
                )
            )
        path = sorted((n for n in self.nodes if n.marks.path and n.key != top.key),
                      key=lambda n: n.level)  # fmt: skip
        heated = [n for n in self.nodes if n.heat is not None]
        if heated:
            chose = [
                _("{move} {count} (right)", move=n.label, count=n.heat.count)
                if n.heat.right
                else f"{n.label} {n.heat.count}"
                for n in heated
                if n.heat is not None
            ]
            said.append(_("The class chose: {answers}.", answers=clauses_text(chose)))
        if path:
            new = [n.label for n in self.nodes if n.marks.new]
            moves_text = comma_list([n.label for n in path])
            if new:
                said.append(_("Last path: {moves}; new node {new}.", moves=moves_text, new=new[0]))
            else:
                said.append(_("Last path: {moves}.", moves=moves_text))
        # TRANSLATORS: sentences of the tree's description, one after the other
        text = said[0]
        for sentence in said[1:]:
            text = _("{first} {second}", first=text, second=sentence)
        return text

    @property
    def drawn_ids(self) -> frozenset[int]:
        """Ids of the tree nodes drawn."""
        return frozenset(n.id for n in self.nodes if n.id is not None)

    def to_dict(self) -> dict[str, object]:
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
            "palette": dict(self.palette),
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
