"""How a trace file's values are read: whose view each node's value is from, the value range,
and every player's value sum per node (docs/trace_format.md, "values"). Shared by
:mod:`mcts_lab.inspect.inspection` (the checks) and :mod:`mcts_lab.traces.replay` (the app's
replay)."""

from __future__ import annotations

from typing import Any

from mcts_lab.traces.format import Trace

__all__ = ["node_players", "node_sums", "node_views", "single_sum", "value_range"]


def node_players(trace: Trace) -> list[int]:
    """Each node's player to move (a chance node: the player who chose its action); nodes
    that give none alternate by depth from player 0 at the root (one player: always 0)."""
    count = int(trace.header.get("players", 2))
    return [
        int(node["player"]) if "player" in node else (trace.depth[i] % count if count > 1 else 0)
        for i, node in enumerate(trace.nodes)
    ]


def node_views(trace: Trace) -> list[int]:
    """The player whose view each node's single value (``value_sum``, ``mean``, ``proven``)
    is from, by the header's ``values.view`` (docs/trace_format.md)."""
    players = node_players(trace)
    view = trace.header.get("values", {}).get("view", "edge")
    root_player = max(players[trace.root], 0)
    count = int(trace.header.get("players", 2))
    if isinstance(view, int):
        return [view] * len(trace.nodes)
    if view == "root":
        return [root_player] * len(trace.nodes)
    edge = [root_player] * len(trace.nodes)
    stack = [trace.root]
    while stack:
        at = stack.pop()
        for child in trace.children[at]:
            # below a chance node the decider is the chance node's chooser (its edge view)
            chance = trace.nodes[at].get("kind") == "chance"
            edge[child] = edge[at] if chance else max(players[at], 0)
            stack.append(child)
    if view == "edge":
        return edge
    # "node": the player to move; a chance node its chooser; the end of the game: the player
    # who did not make the last move (two players), else the one who did
    result = []
    for i, player in enumerate(players):
        if player >= 0:
            result.append(player)
        else:
            result.append(1 - edge[i] if count == 2 else edge[i])
    return result


def value_range(trace: Trace) -> tuple[float, float]:
    low, high = trace.header.get("values", {}).get("range", [-1.0, 1.0])
    return float(low), float(high)


def single_sum(node: dict[str, Any]) -> float | None:
    """A node's one value sum: ``value_sum``, else ``mean`` x visits; ``None`` without either."""
    if "value_sum" in node:
        return float(node["value_sum"])
    if "mean" in node:
        return float(node["mean"]) * int(node["visits"])
    return None


def node_sums(trace: Trace, views: list[int]) -> list[list[float | None]]:
    """Per node, the value sum of each player (``None`` where the file does not say)."""
    count = int(trace.header.get("players", 2))
    low, high = value_range(trace)
    zero_sum = bool(trace.header.get("values", {}).get("zero_sum", True))
    result: list[list[float | None]] = []
    for i, node in enumerate(trace.nodes):
        if "value_sums" in node and len(node["value_sums"]) == count:
            result.append([float(v) for v in node["value_sums"]])
            continue
        vector: list[float | None] = [None] * count
        single = single_sum(node)
        if single is not None and 0 <= views[i] < count:
            vector[views[i]] = single
            if zero_sum and count == 2:
                vector[1 - views[i]] = node["visits"] * (low + high) - single
        result.append(vector)
    return result
