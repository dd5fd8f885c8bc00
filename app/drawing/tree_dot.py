"""The tree as Graphviz DOT (the Text tab's drawing, and the file a user downloads), pure, and
the ids an iteration's path touched.

The builder only visits the nodes it draws (best-first by visits, bounded), so its cost does not
grow with the tree.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.drawing.palette import NEW, PATH, TERMINAL_FILL, PlayerColour, player_colours
from app.words import game_words
from app.words.i18n import _, fixed, n_
from app.words.phrases import result_word
from mcts_core import Decision, IterationTrace, Search
from mcts_core.game import Action, State
from mcts_core.nodes import ActionNode
from mcts_core.printing import dot_escape
from mcts_core.queries import find_node_by_visits

__all__ = ["TreeBounds", "TreeDrawing", "find_action_node", "path_ids", "tree_dot"]


@dataclass(frozen=True)
class TreeBounds:
    """How much of the tree to draw.

    Attributes:
        max_nodes: the most nodes drawn (action and chance nodes, "+n more" boxes excluded).
        top_k: at most this many children per node (most visited first).
        min_visits: children with fewer visits are hidden (unless on the highlighted path).
        focus: id of the action node to draw from (``None``: the root).
    """

    max_nodes: int = 150
    top_k: int = 5
    min_visits: int = 1
    focus: int | None = None


@dataclass(frozen=True)
class TreeDrawing:
    """A bounded drawing: DOT source, nodes drawn, nodes of the tree not drawn, and notes."""

    dot: str
    drawn: int
    hidden: int
    focus_found: bool = True
    drawn_ids: frozenset[int] = field(default_factory=frozenset)


def phase_path(steps: Iterable[Any]) -> set[int]:
    """The nodes a selection phase marks: the root, the path's nodes and the children it chose
    (the screen's history and the export's slides mark the same)."""
    ids = {0}
    for step in steps:
        ids.add(step.node_id)
        chosen = getattr(step, "chosen_terms", None)
        if chosen is not None:
            ids.add(chosen.node_id)
        child = getattr(step, "child_id", None)
        if child is not None:
            ids.add(child)
    return ids


def path_ids(trace: IterationTrace | None) -> set[int]:
    """Ids of every node on an iteration's path (decisions, chance nodes, the new leaf)."""
    if trace is None:
        return set()
    ids = {0} if not trace.path else set()
    for step in trace.path:
        ids.add(step.node_id)
        if isinstance(step, Decision):
            ids.add(step.chosen_terms.node_id)
        elif step.child_id is not None:
            ids.add(step.child_id)
    ids.add(trace.leaf_id)
    for update in trace.updates:
        ids.add(update.node_id)
    if trace.expansion is not None:
        ids.add(trace.expansion.node_id)
        if trace.expansion.chance_id is not None:
            ids.add(trace.expansion.chance_id)
    return ids


def find_action_node(search: Search, node_id: int) -> ActionNode | None:
    """The action node ``node_id``, searched best-first from the root among at most 5,000
    nodes (never the whole tree)."""
    found = find_node_by_visits(search.root, node_id, 5000)
    return found if isinstance(found, ActionNode) else None


def _q_view(node: ActionNode, root_player: int) -> int:
    """Whose view a node's Q is shown from: the player who chose the move into it."""
    decider = node.decider
    return root_player if decider is None else decider.player


def tree_dot(
    search: Search,
    bounds: TreeBounds = TreeBounds(),
    highlight: set[int] | None = None,
    expanded: int | None = None,
    player_names: Sequence[str] = ("X", "O"),
    mark_turn_ends: bool = False,
) -> TreeDrawing:
    """Graphviz DOT of the most visited part of the tree.

    Decision nodes are rounded boxes in the colour of the player whose move led there (whose
    view their Q is from; :mod:`app.drawing.palette`), terminal nodes grey. A
    deterministic action is an edge labelled with the action; an action with several outcomes
    gets a diamond chance node whose edges carry each outcome and its probability. The selection
    path of the last iteration (``highlight``) is drawn thick and orange, the node it added
    (``expanded``) green. Each action node shows ``N`` and ``Q`` from the view of the player who
    chose the move into it. Hidden children are summarised in "+n more" boxes.
    """
    game = search.game
    highlight = highlight or set()
    root_player = max(search.root.player, 0)
    colours = player_colours(game)
    top = search.root
    focus_found = True
    if bounds.focus is not None and bounds.focus != search.root.id:
        found = find_action_node(search, bounds.focus)
        if found is None:
            focus_found = False
        else:
            top = found
    top_state = search.state_of(top)
    lines = [
        "digraph mcts {",
        '  graph [rankdir=TB, nodesep=0.08, ranksep=0.3, fontname="Helvetica", '
        'bgcolor="transparent"];',
        '  node [fontname="Helvetica", fontsize=10, margin="0.05,0.02"];',
        '  edge [fontname="Helvetica", fontsize=9, color="#6b7280", arrowsize=0.5];',
    ]
    drawn_ids: set[int] = set()
    # Best-first by visits; nodes on the highlighted path come first whatever their visits.
    counter = 0
    heap: list[tuple[float, int, ActionNode, State]] = [(-math.inf, counter, top, top_state)]

    def push(counter: int, child: ActionNode, state: object, action: Action) -> int:
        priority = -math.inf if child.id in highlight else -child.visits
        child_state = game.next_state(state, action, child.outcome)
        heapq.heappush(heap, (priority, counter + 1, child, child_state))
        return counter + 1

    # The budget stops the walk, except for the highlighted path: it is always drawn whole.
    while heap and (len(drawn_ids) < bounds.max_nodes or heap[0][0] == -math.inf):
        __, ___, node, state = heapq.heappop(heap)
        drawn_ids.add(node.id)
        _action_node_line(lines, node, root_player, player_names, highlight, expanded, colours)
        if not node.children:
            continue
        ranked = sorted(node.children, key=lambda c: -c.visits)
        shown = [
            c
            for i, c in enumerate(ranked)
            if c.id in highlight or (i < bounds.top_k and c.visits >= bounds.min_visits)
        ]
        room = max(bounds.max_nodes - len(drawn_ids), 0)
        shown = [c for c in shown if c.id in highlight] + [
            c for c in shown if c.id not in highlight
        ][:room]
        for chance in shown:
            on_path = chance.id in highlight
            action = game_words.shown(game.action_label(state, chance.action))
            style = f', color="{PATH}", penwidth=3' if on_path else ""
            if isinstance(chance, ActionNode):  # a deterministic move: one edge
                child = chance
                text = dot_escape(action)
                if mark_turn_ends and child.player != node.player:
                    # multi-action turns: where the team turn ends
                    text += "\\n" + dot_escape(_("(turn ends)"))
                    style += ", style=bold"
                lines.append(f'  a{node.id} -> a{child.id} [label="{text}"{style}];')
                counter = push(counter, child, state, chance.action)
                continue
            drawn_ids.add(chance.id)
            fill = "#fde68a" if on_path else "#fef3c7"
            lines.append(
                f'  c{chance.id} [shape=diamond, style=filled, fillcolor="{fill}", '
                f'label="N={chance.visits}", fontsize=8, width=0.3, height=0.3];'
            )
            lines.append(f'  a{node.id} -> c{chance.id} [label="{dot_escape(action)}"{style}];')
            probabilities = dict(game.chance_outcomes(state, chance.action))
            for child in chance.children:
                outcome = dot_escape(
                    game_words.shown(game.outcome_label(state, chance.action, child.outcome))
                )
                p = probabilities.get(child.outcome, 0.0)
                edge_style = f', color="{PATH}", penwidth=3' if child.id in highlight else ""
                turn = ""
                if mark_turn_ends and child.player != node.player:
                    turn = "\\n" + dot_escape(_("(turn ends)"))
                lines.append(
                    f'  c{chance.id} -> a{child.id} [label="{outcome}\\np={fixed(p, 3)}{turn}", '
                    f"style=dashed{edge_style}];"
                )
                counter = push(counter, child, state, chance.action)
            missing = chance.num_outcomes - len(chance.children)
            if missing:
                not_drawn = n_("{n} outcome not drawn yet", "{n} outcomes not drawn yet", missing)
                label = dot_escape(not_drawn)
                lines.append(f'  u{chance.id} [shape=plaintext, fontsize=8, label="{label}"];')
                lines.append(f"  c{chance.id} -> u{chance.id} [style=dotted];")
        hidden = [c for c in node.children if c not in shown]
        if hidden:
            visits = sum(c.visits for c in hidden)
            lines.append(
                f'  m{node.id} [shape=box, style="dashed", fontsize=8, color="#9ca3af", '
                # TRANSLATORS: a dashed box for the children not drawn: "+6 more" (N below it)
                f'label="{dot_escape(_("+{n} more", n=len(hidden)))}\\nN={visits}"];'
            )
            lines.append(f'  a{node.id} -> m{node.id} [style=dashed, color="#9ca3af"];')
    # Children that were queued but not drawn because the budget ran out: drop their edges.
    queued_ids = {entry[2].id for entry in heap}
    if queued_ids:
        lines = [line for line in lines if not _points_to(line, queued_ids)]
    lines.append("}")
    drawn = len(drawn_ids)
    return TreeDrawing(
        dot="\n".join(lines),
        drawn=drawn,
        hidden=max(search.node_count - drawn, 0),
        focus_found=focus_found,
        drawn_ids=frozenset(drawn_ids),
    )


def _points_to(line: str, ids: set[int]) -> bool:
    if "->" not in line:
        return False
    target = line.split("->", 1)[1].strip().split(" ", 1)[0].rstrip(";")
    return target.startswith("a") and target[1:].isdigit() and int(target[1:]) in ids


def _action_node_line(
    lines: list[str],
    node: ActionNode,
    root_player: int,
    names: Sequence[str],
    highlight: set[int],
    expanded: int | None,
    colours: tuple[PlayerColour, PlayerColour],
) -> None:
    view = _q_view(node, root_player)
    if node.player < 0:
        # TRANSLATORS: a tree box: the game is over at this node ("#12 end")
        fill, who = TERMINAL_FILL, _("#{node} end", node=node.id)
    else:  # the colour of the player whose move it was: the one Q is for
        fill = colours[view].fill
        who = _("#{node} {player} to move", node=node.id, player=names[node.player])
    q = fixed(node.mean(view), 2, signed=True)
    label = f"{dot_escape(who)}\\nN={node.visits} Q={q} ({dot_escape(names[view])})"
    proof = node.proven
    if proof is not None:
        value = proof[view]
        result = result_word("win" if value > 0 else "loss" if value < 0 else "draw")
        # TRANSLATORS: a tree box's line: "proven win"
        label += "\\n" + dot_escape(_("proven {result}", result=result))
    border = ""
    if node.id == expanded:
        border = f', color="{NEW}", penwidth=3'
    elif node.id in highlight:
        border = f', color="{PATH}", penwidth=3'
    lines.append(
        f'  a{node.id} [shape=box, style="rounded,filled", fillcolor="{fill}", '
        f'label="{label}"{border}];'
    )


# ------------------------------------------------------------- trace tables
