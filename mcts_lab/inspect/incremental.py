"""``inspect``'s checks on a live search after every iteration, in time near linear in the run:
the ``anomaly`` breakpoint (``mcts_lab.breakpoints.conditions``).

Re-checking the whole tree after each iteration costs O(n) per iteration, O(n^2) per run (7 s at
500 tic-tac-toe iterations). :class:`AnomalyWatch` checks only what changed since it last
looked: the nodes whose visits changed (an iteration's path: the root, the nodes it chose, the
node it added; each changed node's parent changed too) with all their children, as a small
document run through the same registry's local checks (``mcts_lab.inspect.checks.run_checks``
with ``local=True``: each record's ``local`` flag).

Why that finds exactly what the whole check finds, given the tree was clean when it last
looked: every local check but two reads a node and its children only (visits and value sums
against the children's, proofs against the children's, a node's children's counts for the
starvation bounds and the chi-square test, a finished game's mean, a move's legality), so an
anomaly that is new must be at a node that changed or whose child changed, and both are
changed nodes, whose children are all in the small document. ``sign`` and ``uct_starved``
share their findings across the tree (a player's broken nodes), but a clean tree had no broken
node, so the broken nodes now are changed nodes too, and either kind fires exactly when one
exists. A child that did not change appears without its own children, which only skips its
checks that read them (unchanged, and clean before). The checks that are not local need
iteration records, which a live search's tree has none of (a test holds the two together), and
``--exact`` is not asked for.

What it assumes of the search: a node's statistics and proof change only when an iteration
visits it (its visits grow), as in the lab's search; a new root (a move played, a tree
reused) is checked whole once. When the small document finds something, the whole tree is
checked once more, so the words (the first anomaly in ``inspect``'s order) are the whole
check's.
"""

from __future__ import annotations

from typing import Any

from mcts_core import ChanceNode, Search
from mcts_lab.inspect.anomalies import FileFacts
from mcts_lab.inspect.checks import run_checks
from mcts_lab.traces.format import parse
from mcts_lab.traces.lab import from_search, header, node_item
from mcts_lab.traces.values import node_sums, node_views

__all__ = ["AnomalyWatch", "first_anomaly"]


def first_anomaly(doc: dict[str, Any], *, local: bool = False) -> str | None:
    """The words of the first anomaly ``inspect`` lists for the document (tree only, no
    ``--exact``; ``local``: only the local checks, for a part of a tree), or ``None`` when it
    finds none."""
    trace = parse(doc)
    views = node_views(trace)
    log = run_checks(FileFacts(trace, views, node_sums(trace, views)), limit=1, local=local)
    if not log.listed:
        return None
    first = log.listed[0]
    return f"inspect's {first['kind']} check fired at node {first['node']}: {first['detail']}"


class AnomalyWatch:
    """A probe over ``search``: called after iterations, the words of the first anomaly
    ``inspect`` would list on the whole tree now, or ``None`` while it is clean (the module's
    docstring). ``full_checks`` counts the times it checked the whole tree."""

    def __init__(self, search: Search) -> None:
        self.search = search
        self.full_checks = 0
        self._root: Any = None
        self._header: dict[str, Any] = {}
        self._seen: dict[int, int] = {}  # node id -> its visits when last looked at

    def whole(self) -> str | None:
        """The whole tree checked (the answer this watch must match)."""
        self.full_checks += 1
        return first_anomaly(from_search(self.search))

    def __call__(self) -> str | None:
        search = self.search
        if search.root is not self._root:
            self._root = search.root
            self._header = header(search)
            self._seen = {}
            self._remember(search.root)
            return self.whole()
        items = self._changed()
        if not items:
            return None
        doc = {**self._header, "nodes": sorted(items, key=lambda item: item["id"])}
        if first_anomaly(doc, local=True) is None:
            return None
        return self.whole()

    def _remember(self, root: Any) -> None:
        stack = [root]
        while stack:
            node = stack.pop()
            self._seen[node.id] = node.visits
            stack.extend(node.children)

    def _changed(self) -> list[dict[str, Any]]:
        """The nodes whose visits changed since the last look and all their children, as
        document nodes (``[]``: nothing changed)."""
        search = self.search
        game = search.game
        seen = self._seen
        root = search.root
        root_player = max(root.player, 0)
        if root.visits == seen.get(root.id, 0):
            return []
        items: list[dict[str, Any]] = []
        # (a changed node, its parent's id, the state where its move was chosen, its state)
        stack: list[tuple[Any, int | None, Any, Any]] = [(root, None, None, search.root_state)]
        while stack:
            node, parent_id, before, state = stack.pop()
            seen[node.id] = node.visits
            items.append(node_item(search, node, parent_id, before, state, root_player))
            chance = isinstance(node, ChanceNode)
            for child in node.children:
                where = before if chance else state  # where the child's move was chosen
                if child.visits == seen.get(child.id, 0):
                    items.append(node_item(search, child, node.id, where, None, root_player))
                    continue
                if chance:
                    after = game.next_state(before, node.action, child.outcome)
                elif isinstance(child, ChanceNode):
                    after = state
                else:
                    after = game.next_state(state, child.action, child.outcome)
                stack.append((child, node.id, where, after))
        return items
