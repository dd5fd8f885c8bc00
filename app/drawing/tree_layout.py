"""The browser tree's layout, pure Python (no Streamlit), readable on a projector.

The component that draws it is :mod:`app.components.tree_view`; what it draws, the frozen records,
is :mod:`app.drawing.tree_model`. :func:`build_view` walks only the part of the tree it draws and
returns
   a frozen :class:`~app.drawing.tree_model.TreeView` of boxes with positions in pixels at
   1:1 scale (``to_dict()`` is JSON-ready). What is drawn is bounded (the browser zooms out
   only as far as the last path needs to stay in view, static/tree_view.js ``frame``):

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
   to move there), as in :func:`app.drawing.tree_dot.tree_dot`; the tooltip names that player.

"""

from __future__ import annotations

import math
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from app.drawing.tree_model import Marks, TreeView, ViewEdge, ViewNode, palette_for
from app.drawing.tree_text import format_visits, short_label, sibling_labels, text_width
from app.words.game_words import shown
from app.words.i18n import _, decimal, fixed, n_, number_text
from app.words.phrases import result_word
from mcts_core import Search
from mcts_core.game import ShortLabels, ShortOutcomeLabels
from mcts_core.nodes import ActionNode, ChanceNode, Move
from mcts_core.queries import find_node, find_node_by_visits

__all__ = ["LINE_FONT", "PROJECTOR_ROW", "build_view"]

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
#: Present mode's widest row of the top's moves (px at 1:1, ``build_view(row_width=)``): at the
#: projector's least zoom (14 px type) it fits the tree's column at 1024x768; tic-tac-toe's
#: nine moves (445 px) fit, Nim's twelve fold into its most visited and "+n".
PROJECTOR_ROW = 450
FAINT_VISITS = 3  # KaTrain-style: N below this ...
FAINT_SHARE = 0.02  # ... or under this share of the parent's N is drawn faintly


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
    row_width: float | None = None,
) -> TreeView:
    """The bounded, laid-out drawing of ``search``'s tree (see the module docstring).

    Args:
        search: the search (read only).
        path_ids: ids on the last selection path (:func:`app.drawing.tree_dot.path_ids`).
        new_id: the node the last iteration added, if any.
        changed_ids: the nodes whose N and Q moved in the last backup (the trace's updates).
        focus_id: draw from this node (an action or a chance node); ``None``: the root.
        player_names: the players' names, for the tooltips.
        max_levels: rows drawn, the top's row included (at least 1).
        max_children: children shown per expanded node below the top (at least 1).
        root_children: the top shows all its children while it has at most this many; above,
            its ``root_children`` most visited (plus any path or PV child).
        row_width: when set, the top's row of moves at most this wide (px at 1:1): fewer of
            them drawn, the most visited, the rest folded into "+n" (Present mode: the row
            fits the tree's column at the projector's least zoom).
    """
    view = _build_view(search, path_ids, new_id, changed_ids, focus_id, player_names,
                       max_levels, max_children, root_children)  # fmt: skip
    while row_width is not None and root_children > 1 and _row_width(view) > row_width:
        drawn = sum(1 for n in view.nodes if n.parent == view.nodes[0].key and n.id is not None)
        root_children = min(root_children, drawn) - 1
        view = _build_view(search, path_ids, new_id, changed_ids, focus_id, player_names,
                           max_levels, max_children, root_children)  # fmt: skip
    return view


def _row_width(view: TreeView) -> float:
    """The width of the top's row of moves (px at 1:1): its first box's left to its last's right."""
    top = view.nodes[0].key
    row = [n for n in view.nodes if n.parent == top]
    if not row:
        return 0.0
    return max(n.x + n.w for n in row) - min(n.x for n in row)


def _build_view(
    search: Search,
    path_ids: set[int],
    new_id: int | None,
    changed_ids: set[int],
    focus_id: int | None,
    player_names: tuple[str, str],
    max_levels: int,
    max_children: int,
    root_children: int,
) -> TreeView:
    """:func:`build_view` with the top's moves bounded by count alone."""
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
    # TRANSLATORS: the label on the tree's top box when it is the root (a short word)
    top_box.label = _("root") if top is search.root else short_label(top_box.full_label)
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
        # TRANSLATORS: the tree's box that leads back to the parent node (short)
        up = _Box("up", top.parent, None, -1, "up", label=_("▲ up"))

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
    context = _Context(search, names, root_player, path, new_id, changed, focus_id, pv, top_box)
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
        palette=palette_for(search.game),
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
    found = find_node_by_visits(search.root, node_id, budget)
    return found if found is not None else find_node(search.root, node_id)


def _pv_ranks(top: Move, limit: int) -> dict[int, int]:
    """The most visited line below ``top``: node id -> move number (1 = the first move below
    the top; a chance node and its most visited outcome share a number: both are expanded,
    the badge goes on the chance node alone, :func:`_pv_badge`), ``limit`` moves."""
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
        return _("root"), None, ""
    if isinstance(node, ChanceNode) or isinstance(parent, ActionNode):
        return shown(str(game.action_label(search.state_of(parent), node.action))), None, ""
    state = search.state_of(parent)  # the state where the chance node's action is chosen
    text, probability = _outcome_text(search, state, parent, node)
    return text, probability, shown(str(game.action_label(state, parent.action)))


def _outcome_text(
    search: Search, state: object, chance: ChanceNode, node: ActionNode
) -> tuple[str, float | None]:
    game = search.game
    text = game.outcome_label(state, chance.action, node.outcome)
    probability = dict(game.chance_outcomes(state, chance.action)).get(node.outcome)
    return (shown(str(text)) if text else str(node.outcome)), probability


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


def _child_box(search: Search, parent: _Box, child: Move, state: object, level: int) -> _Box:
    box = _Box(f"n{child.id}", child, parent, level, _kind(child))
    node = parent.node
    if isinstance(node, ChanceNode):
        assert isinstance(child, ActionNode)
        box.full_label, box.probability = _outcome_text(search, state, node, child)
        box.via = parent.full_label
        if isinstance(search.game, ShortOutcomeLabels):  # the game's own few characters
            box.label = shown(
                str(search.game.short_outcome_label(state, node.action, child.outcome))
            )
            return box
    else:
        box.full_label = shown(str(search.game.action_label(state, child.action)))
        if isinstance(search.game, ShortLabels):  # the game's own few-character label
            box.label = shown(str(search.game.short_action_label(state, child.action)))
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
                for line in _lines(search, node, 0):
                    widest = max(widest, text_width(line, LINE_FONT))
    return float(min(MAX_W, max(MIN_W, math.ceil(widest + 2 * PAD_X))))


def _lines(search: Search, node: Move, view: int) -> tuple[str, str]:
    """A box's numbers: its N and its Q from ``view``: a proven node's proven value (as the
    board, the tables and the quiz give it), else the mean of its visits. A proven node whose
    mean (at the box's two decimals) is not its proven value shows its mean, labelled, beside
    the proof's W / L / D badge: ``mean -1.00`` on a proven win is the value the search's
    visits gave it (a finished game scored two ways, a solver's late proof), which the proven
    value alone would hide. The tooltip gives both in words."""
    if not node.visits:
        return ("N 0", "–")
    q = _q(search, node, view)
    mean = node.mean(view)
    if node.proven is not None and f"{mean:+.2f}" != f"{q:+.2f}":
        # TRANSLATORS: a box's line: the mean of a proven node's visits ("mean -1.00")
        return (f"N {format_visits(node.visits)}", _("mean {value}", value=_signed(mean, 2)))
    return (f"N {format_visits(node.visits)}", _signed(q, 2))


def _signed(x: float, digits: int) -> str:
    """``x`` signed with ``digits`` decimals, the language's symbols."""
    return fixed(x, digits, signed=True)


def _q(search: Search, node: Move, view: int) -> float:
    """A box's Q from ``view``: a proven node's proven value (on the search's value range, as
    :func:`mcts_core.queries.move_value` gives it to the board and the tables), else the mean
    of its visits. A file's tree (``app.tracefile.trace_view``) has no value range: its proofs as
    written."""
    proof = node.proven
    if proof is None:
        return node.mean(view)
    value_of_raw = getattr(search, "value_of_raw", None)
    return float(value_of_raw(proof[view])) if value_of_raw is not None else float(proof[view])


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
    search: Search
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


def _pv_badge(ctx: _Context, node: Move) -> int | None:
    """The PV number drawn on ``node``: one badge per move, so an outcome whose chance node
    carries the number (drawn just above it) carries none."""
    parent = node.parent
    if isinstance(parent, ChanceNode) and parent.id in ctx.pv and parent is not ctx.top.node:
        return None
    return ctx.pv.get(node.id)


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
        folded = len(box.folded)
        if isinstance(parent.node, ChanceNode):
            folded_text = n_(
                "{n} more outcome folded here", "{n} more outcomes folded here", folded
            )
        else:
            folded_text = n_("{n} more move folded here", "{n} more moves folded here", folded)
        at_top = parent is ctx.top  # the top already shows its most visited moves
        more_tip = (
            folded_text,
            _("N = {n} in all", n=decimal(visits)),
            _("the least visited ones")
            if at_top
            else _("click to focus on node #{node} and show them all", node=parent.node.id),
        )
        return ViewNode(
            box.key, None, parent_key, box.level, x, y, box.w, box.h, "more", "more", box.label,
            (), more_tip, False, Marks(), None if at_top else parent.node.id,
        )  # fmt: skip
    if box.kind == "up":
        node = box.node
        assert node is not None
        up_tip = (_("up to node #{node}", node=node.id), _("click to draw the tree from there"))
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
        pv=_pv_badge(ctx, node),
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
        tip.append(_("{player} tries {move}", player=names[view], move=box.full_label))
        seen = len(node.children)
        tip.append(
            n_(
                "chance node #{node}: {n} outcome, {seen} drawn so far",
                "chance node #{node}: {n} outcomes, {seen} drawn so far",
                node.num_outcomes,
                node=node.id,
                seen=seen,
            )
        )
    else:
        role = "end" if node.player < 0 else f"p{view}"  # the colour of whose move it was
        lines = _lines(ctx.search, node, view)
        if node.parent is None:
            tip.append(_("root: the position searched"))
        elif isinstance(node.parent, ChanceNode):
            tip.append(f"{box.via} → {box.full_label}")
        else:
            tip.append(_("{player} plays {move}", player=names[view], move=box.full_label))
        if node.player < 0:
            tip.append(_("node #{node} · game over", node=node.id))
        else:
            tip.append(
                _("node #{node} · {player} to move", node=node.id, player=names[node.player])
            )
    if box.probability is not None:
        tip.append(_("probability {p}", p=_percent_tip(box.probability)))
    parent_visits = _parent_visits(node)
    visits_text = decimal(node.visits)
    if parent_visits:
        tip.append(
            _(
                "N = {n} ({share} of the parent's {parent})",
                n=visits_text,
                share=_whole_percent(node.visits / parent_visits),
                parent=decimal(parent_visits),
            )  # fmt: skip
        )
    else:
        tip.append(_("N = {n}", n=visits_text))
    if node.visits:
        q = _signed(_q(ctx.search, node, view), 3)
        player = names[view]
        if node.parent is not None:
            tip.append(
                _("Q = {q} from {player}'s view ({player} chose this move)", q=q, player=player)
            )
        elif node.player >= 0:
            tip.append(_("Q = {q} from {player}'s view ({player} moves here)", q=q, player=player))
        else:
            tip.append(_("Q = {q} from {player}'s view", q=q, player=player))
    if proven is not None:
        mean = _signed(node.mean(view), 3) if node.visits else "–"
        tip.append(
            _(
                "proven: {result} for {player} (the mean of its visits: {mean})",
                result=result_word(proven),
                player=names[view],
                mean=mean,
            )  # fmt: skip
        )
    if marks.path:
        tip.append(_("on the last selection path"))
    if marks.new:
        tip.append(_("added by the last iteration"))
    if marks.changed:
        tip.append(_("N and Q changed in the last backup"))
    if marks.pv is not None:
        tip.append(_("principal variation, move {n}", n=marks.pv))
    if is_top:
        if node.parent is None:
            tip.append(_("the top of the drawing"))
        else:
            tip.append(_("the top of the drawing: ▲ up goes back"))
    else:
        tip.append(_("click to focus"))
    faint = _is_faint(node) and not marks.new  # the node just added is never faint
    return ViewNode(
        box.key, node.id, parent_key, box.level, x, y, box.w, box.h, box.kind, role, box.label,
        lines, tuple(tip), faint, marks, node.id, proven, view,
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


def _whole_percent(p: float) -> str:
    """A share as a whole percentage ("67%"), the language's symbols and sign."""
    return _("{n}%", n=number_text(f"{p * 100:.0f}")) if p == p else f"{p:.0%}"


def _percent_tip(p: float) -> str:
    """A probability with one decimal ("66.7%"), the language's symbols and sign."""
    # TRANSLATORS: a percentage: the number and the language's percent sign ("66.7%")
    return _("{n}%", n=number_text(f"{p * 100:.1f}"))


def _percent(p: float) -> str:
    """An outcome's probability on its edge: 67%, 9.1%, 0.4%."""
    return f"{p:.0%}" if p >= 0.095 or p == 0 else f"{p:.1%}"
