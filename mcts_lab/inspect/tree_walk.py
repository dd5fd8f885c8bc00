"""What several checks ask of a file's tree and records: a node's subtree, the iteration that
added a node, and the finished games by the named game's rules."""

from __future__ import annotations

from mcts_lab.traces.format import Trace

__all__ = ["added_at", "subtree_ids"]


def subtree_ids(trace: Trace, at: int) -> set[int]:
    """The ids of the node at position ``at`` and of every node below it."""
    found: set[int] = set()
    stack = [at]
    while stack:
        i = stack.pop()
        found.add(trace.nodes[i]["id"])
        stack.extend(trace.children[i])
    return found


def added_at(trace: Trace) -> dict[int, int]:
    """Node id -> the iteration that added it: the record listing it in ``expanded``, else the
    first record whose path reaches it (empty without records)."""
    found: dict[int, int] = {}
    for record in trace.records:
        for node_id in record.get("expanded", ()):
            found.setdefault(node_id, record["iteration"])
    for record in trace.records:
        for node_id in record["path"]:
            found.setdefault(node_id, record["iteration"])
    return found


def at_iteration(added: dict[int, int], node_id: int) -> str:
    """`` (added at iteration N)`` for an anomaly's detail, or nothing when unknown."""
    return f" (added at iteration {added[node_id]})" if node_id in added else ""
