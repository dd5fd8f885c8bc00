"""Other people's search trees in the mcts-trace format: OpenSpiel's and mctx's.

Neither library is imported here: :func:`from_openspiel` reads the attributes of OpenSpiel's
``SearchNode`` and calls the methods of the ``pyspiel`` state it is given; :func:`from_mctx`
reads an ``mctx.Tree``'s arrays with NumPy, so no JAX is needed to convert one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from mcts_lab.traces.format import FORMAT, VERSION

__all__ = ["from_openspiel", "from_mctx"]

# OpenSpiel's pyspiel.PlayerId values (kept here so this module needs no pyspiel import)
_OPENSPIEL_TERMINAL = -4
_OPENSPIEL_CHANCE = -1


def _player(state: Any) -> int:
    """The player to move (-1 at a terminal state; a chance state: see the caller)."""
    return -1 if state.is_terminal() else int(state.current_player())


def from_openspiel(
    root: Any, state: Any, *, settings: dict[str, Any] | None = None, seed: int | None = None
) -> dict[str, Any]:
    """The tree OpenSpiel's ``MCTSBot.mcts_search(state)`` returns, with the state it searched.

    OpenSpiel's ``SearchNode`` keeps ``explore_count`` and ``total_reward`` "from the parent
    node's perspective": the player who chose the move into the node (past chance nodes, the
    decision maker above them), which is the format's "edge" view. A chance state becomes a
    ``chance`` node whose children carry their ``probability``; ``outcome`` (a solved node's
    returns) becomes ``proven``. The game is named ``openspiel:<game string>`` and positions
    are the action histories the lab's OpenSpiel adapter reads, so ``mcts-lab inspect`` can
    check every move against the rules.
    """
    game = state.get_game()
    players = int(game.num_players())
    utility = game.get_type().utility
    zero_sum = getattr(utility, "name", str(utility)).endswith("ZERO_SUM")
    root_player = int(state.current_player()) if not state.is_terminal() else 0
    nodes: list[dict[str, Any]] = []
    # (search node, parent id, the parent's state, this node's state, view of this node)
    stack: list[tuple[Any, int | None, Any, Any, int]] = [(root, None, None, state, root_player)]
    next_id = 0
    while stack:
        node, parent_id, before, here, view = stack.pop()
        node_id = next_id
        next_id += 1
        item: dict[str, Any] = {"id": node_id, "parent": parent_id}
        chance = here.is_chance_node()
        if chance:
            item["kind"] = "chance"
            item["player"] = view
        else:
            item["player"] = _player(here)
        if before is not None:
            item["move"] = str(before.action_to_string(before.current_player(), node.action))
            item["action"] = int(node.action)
            if before.is_chance_node():
                item["probability"] = float(node.prior)
            else:
                item["prior"] = float(node.prior)
        item["visits"] = int(node.explore_count)
        item["value_sum"] = float(node.total_reward)
        if node.outcome is not None:
            item["proven"] = float(node.outcome[view])
        if node.children:
            item["num_actions"] = len(node.children)
        item["position"] = ",".join(str(a) for a in here.history())
        nodes.append(item)
        child_view = view if chance else max(int(here.current_player()), 0)
        if here.is_terminal():
            continue
        for child in reversed(node.children):
            after = here.child(child.action)
            stack.append((child, node_id, here, after, child_view))
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": f"openspiel:{game}",
        "position": ",".join(str(a) for a in state.history()),
        "settings": dict(settings or {}),
        "seed": seed,
        "iterations": int(root.explore_count),
        "writer": {"name": "open_spiel MCTSBot", "version": ""},
        "players": players,
        "values": {
            "range": [float(game.min_utility()), float(game.max_utility())],
            "view": "edge",
            "zero_sum": zero_sum,
            "backup": "mean",
        },
        "visit_rule": "leaf_visit",
        "nodes": nodes,
    }


def _field(tree: Any, name: str) -> np.ndarray:
    value = tree[name] if isinstance(tree, dict) else getattr(tree, name)
    return np.asarray(value)


def _softmax(logits: np.ndarray) -> np.ndarray:
    finite = np.where(np.isfinite(logits), logits, -np.inf)
    top = np.max(finite)
    if not np.isfinite(top):
        return np.zeros_like(logits, dtype=float)
    weights = np.exp(finite - top)
    result: np.ndarray = weights / weights.sum()
    return result


def from_mctx(
    tree: Any,
    batch_index: int = 0,
    *,
    two_player: bool = True,
    value_range: tuple[float, float] = (-1.0, 1.0),
    action_labels: Sequence[str] | Callable[[int], str] | None = None,
    settings: dict[str, Any] | None = None,
    seed: int | None = None,
) -> dict[str, Any]:
    """One batch entry of an ``mctx.Tree`` (or anything with its array fields, a dict too).

    Reads ``node_visits`` and ``node_values`` [B, N], ``parents`` and ``action_from_parent``
    [B, N] (-1 for the root and unused slots), ``children_index`` [B, N, A] (-1: unvisited),
    ``children_visits``, ``children_values`` and ``children_prior_logits`` [B, N, A], and,
    when present, ``children_rewards`` and ``children_discounts``.

    mctx values are "node" values: from the view of the agent acting at the node. With
    ``two_player`` (mctx's two-player convention, discount -1) the players alternate by depth
    from player 0 at the root; otherwise one player acts everywhere. The backup is a plain
    mean (``values.backup = "mean"``, so sums must add up) only when every reward is 0 and
    every discount is -1 (two players) or 1 (one player); otherwise "other". A child's
    ``prior`` is the softmax of its parent's prior logits; its visits and value are the
    parent's edge statistics (``children_visits``, ``children_values``), the root's are
    ``node_visits`` and ``node_values``. Unvisited actions are not listed.
    """
    visits = _field(tree, "node_visits")[batch_index]
    values = _field(tree, "node_values")[batch_index]
    parents = _field(tree, "parents")[batch_index]
    action_from_parent = _field(tree, "action_from_parent")[batch_index]
    children_index = _field(tree, "children_index")[batch_index]
    children_visits = _field(tree, "children_visits")[batch_index]
    children_values = _field(tree, "children_values")[batch_index]
    logits = _field(tree, "children_prior_logits")[batch_index]
    plain = True
    discount = -1.0 if two_player else 1.0
    for name, expected in (("children_rewards", 0.0), ("children_discounts", discount)):
        try:
            array = _field(tree, name)[batch_index]
        except (AttributeError, KeyError):
            continue
        used = children_index >= 0
        if used.any() and not np.allclose(array[used], expected):
            plain = False

    def label(action: int) -> str:
        if action_labels is None:
            return str(action)
        if callable(action_labels):
            return str(action_labels(action))
        return str(action_labels[action])

    nodes: list[dict[str, Any]] = [
        {
            "id": 0,
            "parent": None,
            "player": 0,
            "visits": int(visits[0]),
            "mean": float(values[0]),
            "num_actions": int(logits.shape[-1]),
        }
    ]
    depth = {0: 0}
    stack = [0]
    while stack:
        parent = stack.pop()
        priors = _softmax(logits[parent])
        for action in range(children_index.shape[-1]):
            child = int(children_index[parent, action])
            if child < 0:
                continue
            if int(parents[child]) != parent or int(action_from_parent[child]) != action:
                raise ValueError(
                    f"mctx tree: children_index[{parent}, {action}] = {child}, but node {child}'s "
                    f"parent is {int(parents[child])} and action {int(action_from_parent[child])}"
                )
            depth[child] = depth[parent] + 1
            n = int(children_visits[parent, action])
            mean = float(children_values[parent, action])
            nodes.append(
                {
                    "id": child,
                    "parent": parent,
                    "player": depth[child] % 2 if two_player else 0,
                    "move": label(action),
                    "action": action,
                    "prior": float(priors[action]),
                    "visits": n,
                    "mean": mean,
                }
            )
            stack.append(child)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": None,
        "position": None,
        "settings": dict(settings or {}),
        "seed": seed,
        "iterations": max(int(visits[0]) - 1, 0),
        "writer": {"name": "mctx", "version": ""},
        "players": 2 if two_player else 1,
        "values": {
            "range": [float(value_range[0]), float(value_range[1])],
            "view": "node",
            "zero_sum": two_player,
            "backup": "mean" if plain else "other",
        },
        "visit_rule": "leaf_visit",
        "nodes": nodes,
    }
