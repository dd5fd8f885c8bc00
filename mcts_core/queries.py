"""Reading a search tree: children with their Q, the final move, the principal variation, a node
by id, the size of a subtree. Nothing here changes the tree.

The :class:`~mcts_core.search.Search` methods of the same names call these; the views may call
either.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from mcts_core.config import SearchConfig
from mcts_core.game import Game
from mcts_core.nodes import ActionNode, ChanceNode, Move
from mcts_core.policies import FINAL_POLICY_FUNCTIONS
from mcts_core.solver import final_move_index, proof_label

__all__ = [
    "ChildSummary",
    "best_child",
    "children_summary",
    "find_node",
    "find_node_by_visits",
    "iter_nodes",
    "move_value",
    "principal_variation",
    "subtree_size_and_depth",
]


class SearchedTree(Protocol):
    """What these readers need of a search: :class:`mcts_core.search.Search` satisfies it.

    A protocol rather than an import, so that the search (which calls these) and its readers do
    not import each other.
    """

    game: Game[Any]
    config: SearchConfig
    root: ActionNode

    @property
    def value_width(self) -> float: ...

    def value_of_raw(self, raw: float) -> float: ...

    def state_of(self, node: Move) -> Any: ...


@dataclass(frozen=True, slots=True)
class ChildSummary:
    """A move of a decision node as a final-move policy sees it.

    Attributes:
        node_id: the move's node (the next ``ActionNode``, or the ``ChanceNode`` of an action
            with chance).
        action: the action.
        label: the action's label.
        visits: n, the move's visits.
        q: its value from the view of the player deciding at the parent, in the search's range:
            the proven value when the solver proved it, the mean of its backed-up values
            otherwise.
        proven: "win", "draw" or "loss" for that player when the solver proved it.
        mean: the mean of its backed-up values, proven or not (equal to ``q`` when unproven).
    """

    node_id: int
    action: Any
    label: str
    visits: int
    q: float
    proven: str | None
    mean: float = 0.0


def move_value(search: SearchedTree, move: Move | ActionNode, player: int) -> float:
    """A node's value from ``player``'s view: its proof's value with the solver, else its mean."""
    proof = move.proven if search.config.solver else None
    if proof is not None:
        return search.value_of_raw(proof[player])
    return move.mean(player)


def children_summary(search: SearchedTree, node: ActionNode | None = None) -> list[ChildSummary]:
    """The moves of a decision node (default: the root), valued for the player deciding there."""
    node = search.root if node is None else node
    if not node.children:
        return []
    state = search.state_of(node)
    player = node.player
    label = search.game.action_label
    solver = search.config.solver
    return [
        ChildSummary(
            node_id=move.id,
            action=move.action,
            label=label(state, move.action),
            visits=move.visits,
            q=move_value(search, move, player),
            proven=proof_label(move.proven, player) if solver else None,
            mean=move.mean(player),
        )
        for move in node.children
    ]


def best_child(search: SearchedTree, policy: str | None = None) -> ChildSummary:
    """The root move the final-move policy picks, with proven moves at their proven values
    (:func:`mcts_core.solver.final_move_index` gives the rule)."""
    policy = policy or search.config.final_policy
    if policy not in FINAL_POLICY_FUNCTIONS:
        raise ValueError(
            f"final policy must be one of {', '.join(FINAL_POLICY_FUNCTIONS)}; got {policy!r}"
        )
    children = children_summary(search)
    if not children:
        raise ValueError("the search has no moves to choose from yet: run some iterations")
    choose = FINAL_POLICY_FUNCTIONS[policy]
    visits = [c.visits for c in children]
    values = [c.q for c in children]
    if not search.config.solver:
        return children[choose(visits, values)]
    exact = [c.q if c.proven else None for c in children]
    index = final_move_index(
        visits, values, [c.proven for c in children], exact, choose, search.value_width
    )
    return children[index]


def principal_variation(search: SearchedTree, max_length: int = 50) -> list[Move]:
    """The most visited line from the root: the root, then for every move its node (and, after
    a chance node, the most visited outcome), at most ``max_length`` moves."""
    line: list[Move] = [search.root]
    node: ActionNode = search.root
    moves = 0
    while node.children and moves < max_length:
        move = max(node.children, key=lambda m: m.visits)
        line.append(move)
        if isinstance(move, ChanceNode):
            if not move.children:
                break
            node = max(move.children, key=lambda n: n.visits)
            line.append(node)
        else:
            node = move
        moves += 1
    return line


def iter_nodes(root: ActionNode) -> Iterator[Move]:
    """Every node below and including ``root``, depth first, children in expansion order."""
    stack: list[Move] = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def find_node(root: ActionNode, node_id: int) -> Move | None:
    """The node with id ``node_id`` in the tree below ``root`` (``None`` if absent).

    Ids grow with depth along every path (a child is always created after its parent), so
    subtrees whose nodes all have larger ids than the target are skipped.
    """
    stack: list[Move] = [root]
    while stack:
        node = stack.pop()
        if node.id == node_id:
            return node
        if node.id < node_id:
            stack.extend(node.children)
    return None


def find_node_by_visits(root: ActionNode, node_id: int, budget: int) -> Move | None:
    """The node with id ``node_id`` (action or chance) looked for best-first by visits among at
    most ``budget`` nodes, never the whole tree: quick for a node a view just drew (they are
    well visited); ``None`` when not found within the budget."""
    if root.id == node_id:
        return root
    heap: list[tuple[int, int, Move]] = [(0, root.id, root)]
    looked = 0
    while heap and looked < budget:
        _, _, node = heapq.heappop(heap)
        looked += 1
        for child in node.children:
            if child.id == node_id:
                return child
            if child.id < node_id:  # ids grow downwards: younger nodes cannot be above
                heapq.heappush(heap, (-child.visits, child.id, child))
    return None


def subtree_size_and_depth(root: ActionNode) -> tuple[int, int]:
    """Number of nodes (action and chance) below and including ``root``, and the deepest
    depth in moves (a chance node and its outcome count as one move)."""
    count = 0
    deepest = 0
    stack: list[tuple[Move, int]] = [(root, 0)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if isinstance(node, ActionNode) and depth > deepest:
            deepest = depth
        step = 0 if isinstance(node, ChanceNode) else 1
        stack.extend((child, depth + step) for child in node.children)
    return count, deepest
