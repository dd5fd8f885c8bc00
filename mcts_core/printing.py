"""Text exports of a search tree: the tutorial's printed tree (XML), JSON and Graphviz DOT.

All three walk the tree from the root with a depth limit (moves below the root) and a children
limit per node (the most visited children are kept, shown in expansion order, and the rest
counted). Values are from the view of the ROOT's deciding player, as in the botbowl tutorial,
where ``p='max'`` marks that player's decisions and ``p='min'`` the opponent's: the mean of the
backed-up values, or the proven value once the solver proved a node. A deterministic move is an
``ActionNode`` nested in its parent (with the ``action`` that leads to it); an action with dice
is a ``ChanceNode`` whose children are the outcomes, as in the tutorial.
They return strings; only the edges (CLI, app) print or draw.
"""

from __future__ import annotations

import json
from typing import Any

from mcts_core.nodes import ActionNode, ChanceNode
from mcts_core.queries import move_value
from mcts_core.search import Search
from mcts_core.solver import proof_label

__all__ = ["dot_escape", "format_tree", "tree_to_dict", "tree_to_json", "tree_to_dot"]


def _attr(value: object) -> str:
    """An XML attribute value in single quotes with &, <, >, ' and " escaped."""
    text = str(value)
    for raw, escaped in (
        ("&", "&amp;"),
        ("<", "&lt;"),
        (">", "&gt;"),
        ("'", "&apos;"),
        ('"', "&quot;"),
    ):
        text = text.replace(raw, escaped)
    return f"'{text}'"


def _shown(children: list[Any], max_children: int) -> tuple[list[Any], int]:
    """The ``max_children`` most visited children in their original order, and how many hid."""
    if len(children) <= max_children:
        return children, 0
    keep = sorted(range(len(children)), key=lambda i: -children[i].visits)[:max_children]
    return [children[i] for i in sorted(keep)], len(children) - max_children


def _check_limits(max_depth: int, max_children: int) -> None:
    if isinstance(max_depth, bool) or not isinstance(max_depth, int) or max_depth < 0:
        raise ValueError(f"max_depth must be a whole number >= 0, got {max_depth!r}")
    if isinstance(max_children, bool) or not isinstance(max_children, int) or max_children < 1:
        raise ValueError(f"max_children must be a whole number >= 1, got {max_children!r}")


def _role(player: int, root_player: int) -> str:
    if player < 0:
        return "end"
    return "max" if player == root_player else "min"


def format_tree(search: Search, *, max_depth: int = 3, max_children: int = 10) -> str:
    """The printed tree in the botbowl tutorial's XML-like format, as valid XML.

    ``<ActionNode id='0' p='max' visits='483' score='0.4984' actions='7'>`` nests one child per
    move: ``<ActionNode ... action='col 4'>`` for a deterministic move, ``<ChanceNode ...
    action='dodge'>`` for a move with dice, which nests its outcome ``ActionNode``s (with
    ``outcome`` and ``probability``). ``score`` is the value from the root player's view; ``p``
    is "max" where the root player decides, "min" where the opponent does, "end" at a terminal
    state.
    """
    _check_limits(max_depth, max_children)
    game = search.game
    root_player = max(search.root.player, 0)
    lines: list[str] = []

    def score(node: ActionNode | ChanceNode) -> str:
        return _attr(f"{move_value(search, node, root_player):.4f}")

    def children(node: ActionNode, state: Any, depth: int, indent: int) -> None:
        shown, hidden_count = _shown(list(node.children), max_children)
        for move in shown:
            action = game.action_label(state, move.action)
            if isinstance(move, ChanceNode):
                chance_node(move, state, depth, indent + 1)
            else:
                child_state = game.next_state(state, move.action, move.outcome)
                action_node(move, child_state, depth + 1, indent + 1, f" action={_attr(action)}")
        if hidden_count:
            lines.append("\t" * (indent + 1) + f"<!-- {hidden_count} more actions not shown -->")

    def action_node(node: ActionNode, state: Any, depth: int, indent: int, extra: str) -> None:
        tabs = "\t" * indent
        attrs = (
            f"id={_attr(node.id)} p={_attr(_role(node.player, root_player))} "
            f"visits={_attr(node.visits)} score={score(node)} "
            f"actions={_attr(len(node.actions) if node.actions is not None else '?')}{extra}"
        )
        proof = proof_label(node.proven, root_player)
        if proof:
            attrs += f" proven={_attr(proof)}"
        if not node.children or depth >= max_depth:
            hidden = f" hidden_children={_attr(len(node.children))}" if node.children else ""
            lines.append(f"{tabs}<ActionNode {attrs}{hidden}/>")
            return
        lines.append(f"{tabs}<ActionNode {attrs}>")
        children(node, state, depth, indent)
        lines.append(f"{tabs}</ActionNode>")

    def chance_node(chance: ChanceNode, state: Any, depth: int, indent: int) -> None:
        tabs = "\t" * indent
        attrs = (
            f"id={_attr(chance.id)} p={_attr(_role(chance.player, root_player))} "
            f"visits={_attr(chance.visits)} score={score(chance)} "
            f"action={_attr(game.action_label(state, chance.action))}"
        )
        proof = proof_label(chance.proven, root_player)
        if proof:
            attrs += f" proven={_attr(proof)}"
        lines.append(f"{tabs}<ChanceNode {attrs}>")
        probabilities = dict(game.chance_outcomes(state, chance.action))
        for child in chance.children:
            child_state = game.next_state(state, chance.action, child.outcome)
            label = game.outcome_label(state, chance.action, child.outcome)
            extra = (
                f" outcome={_attr(label)} "
                f"probability={_attr(f'{probabilities[child.outcome]:.4f}')}"
            )
            action_node(child, child_state, depth + 1, indent + 1, extra)
        lines.append(f"{tabs}</ChanceNode>")

    action_node(search.root, search.root_state, 0, 0, "")
    return "\n".join(lines)


def tree_to_dict(search: Search, *, max_depth: int = 3, max_children: int = 10) -> dict[str, Any]:
    """The tree as nested JSON-ready dicts.

    Action nodes: ``id``, ``kind`` ("action"), ``player`` (-1 terminal), ``visits``, ``mean``
    (per player), ``score`` (root player's view; the proven value once proven), ``proven``
    (root player's view), ``position`` (position string), ``children``, ``hidden_children``; a
    node reached by a deterministic move also has ``action``, an outcome node ``outcome`` and
    ``probability``. Chance nodes: ``id``, ``kind`` ("chance"), ``player`` (who chose),
    ``action``, ``visits``, ``mean``, ``score``, ``proven``, ``num_outcomes``, ``children``.
    """
    _check_limits(max_depth, max_children)
    game = search.game
    root_player = max(search.root.player, 0)

    def action_node(node: ActionNode, state: Any, depth: int) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": node.id,
            "kind": "action",
            "player": node.player,
            "visits": node.visits,
            "mean": [node.mean(0), node.mean(1)],
            "score": move_value(search, node, root_player),
            "proven": proof_label(node.proven, root_player),
            "position": game.format_state(state),
            "children": [],
            "hidden_children": 0,
        }
        if depth >= max_depth:
            data["hidden_children"] = len(node.children)
            return data
        shown, data["hidden_children"] = _shown(list(node.children), max_children)
        for move in shown:
            if isinstance(move, ChanceNode):
                data["children"].append(chance_node(move, state, depth))
            else:
                kid = action_node(
                    move, game.next_state(state, move.action, move.outcome), depth + 1
                )
                kid["action"] = game.action_label(state, move.action)
                data["children"].append(kid)
        return data

    def chance_node(chance: ChanceNode, state: Any, depth: int) -> dict[str, Any]:
        probabilities = dict(game.chance_outcomes(state, chance.action))
        kids = []
        for child in chance.children:
            child_state = game.next_state(state, chance.action, child.outcome)
            kid = action_node(child, child_state, depth + 1)
            kid["outcome"] = game.outcome_label(state, chance.action, child.outcome)
            kid["probability"] = probabilities[child.outcome]
            kids.append(kid)
        return {
            "id": chance.id,
            "kind": "chance",
            "player": chance.player,
            "action": game.action_label(state, chance.action),
            "visits": chance.visits,
            "mean": [chance.mean(0), chance.mean(1)],
            "score": move_value(search, chance, root_player),
            "proven": proof_label(chance.proven, root_player),
            "num_outcomes": chance.num_outcomes,
            "children": kids,
        }

    return action_node(search.root, search.root_state, 0)


def tree_to_json(search: Search, *, max_depth: int = 3, max_children: int = 10) -> str:
    """:func:`tree_to_dict` as an indented JSON string."""
    return json.dumps(
        tree_to_dict(search, max_depth=max_depth, max_children=max_children), indent=1
    )


def dot_escape(text: str) -> str:
    """``text`` inside a double-quoted DOT string: backslashes and quotes escaped."""
    return text.replace("\\", "\\\\").replace('"', '\\"')


def tree_to_dot(search: Search, *, max_depth: int = 3, max_children: int = 10) -> str:
    """Graphviz DOT source of the tree: decision nodes as boxes labelled with N and Q (root
    player's view), a deterministic move as one edge, chance nodes as small circles whose
    edges carry the outcomes' odds."""
    _check_limits(max_depth, max_children)
    game = search.game
    root_player = max(search.root.player, 0)
    out = [
        "digraph mcts {",
        '  graph [rankdir=TB, fontname="Helvetica"];',
        '  node [fontname="Helvetica", fontsize=10];',
        '  edge [fontname="Helvetica", fontsize=9];',
    ]

    def action_node(node: ActionNode, state: Any, depth: int) -> None:
        role = _role(node.player, root_player)
        fill = {"max": "#dbeafe", "min": "#fee2e2", "end": "#e5e7eb"}[role]
        label = (
            f"#{node.id} {role}\\nN={node.visits} Q={move_value(search, node, root_player):+.3f}"
        )
        proof = proof_label(node.proven, root_player)
        if proof:
            label += f"\\nproven {proof}"
        out.append(
            f'  a{node.id} [shape=box, style="rounded,filled", fillcolor="{fill}", '
            f'label="{label}"];'
        )
        children = list(node.children)
        if depth >= max_depth:
            if children:
                out.append(f'  more{node.id} [shape=plaintext, label="+{len(children)} more"];')
                out.append(f"  a{node.id} -> more{node.id} [style=dashed];")
            return
        shown, hidden = _shown(children, max_children)
        for move in shown:
            action = dot_escape(game.action_label(state, move.action))
            if isinstance(move, ActionNode):
                out.append(f'  a{node.id} -> a{move.id} [label="{action}\\nN={move.visits}"];')
                action_node(move, game.next_state(state, move.action, move.outcome), depth + 1)
                continue
            out.append(
                f'  c{move.id} [shape=circle, width=0.15, label="", style=filled, '
                f'fillcolor="#facc15"];'
            )
            out.append(f'  a{node.id} -> c{move.id} [label="{action}\\nN={move.visits}"];')
            probabilities = dict(game.chance_outcomes(state, move.action))
            for child in move.children:
                child_state = game.next_state(state, move.action, child.outcome)
                outcome = dot_escape(game.outcome_label(state, move.action, child.outcome))
                edge = f' [label="{outcome}\\np={probabilities[child.outcome]:.3f}"]'
                out.append(f"  c{move.id} -> a{child.id}{edge};")
                action_node(child, child_state, depth + 1)
        if hidden:
            out.append(f'  more{node.id} [shape=plaintext, label="+{hidden} more"];')
            out.append(f"  a{node.id} -> more{node.id} [style=dashed];")

    action_node(search.root, search.root_state, 0)
    out.append("}")
    return "\n".join(out)
