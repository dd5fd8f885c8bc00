"""A recorder your own Python MCTS calls as it runs, to write an mcts-trace file.

Call it where your search already does the work::

    rec = Recorder(game="tic_tac_toe", position="", settings={"c": 1.4}, seed=7)
    root = rec.root(player=0)
    for _ in range(iterations):
        node = root
        while ...:                                # your selection
            rec.select(node, child, terms=[...])  # optional: each child's q, bonus, score
            node = child
        new = rec.expand(node, move="c4", player=1, prior=0.2)   # your expansion
        value = ...                               # your evaluation, from new's view
        for n in path_from_root:                  # your backup
            rec.backup(n, added_value)            # what your code adds to n's value sum
        rec.finish(leaf=new, leaf_value=value)

    rec.set_stats(node_id, visits=..., value_sum=...)  # optional: your tree's own numbers
    rec.write("my-search.jsonl")

The recorder keeps the tree's statistics from your ``backup`` calls; ``set_stats`` replaces a
node's with the numbers your own tree holds, so ``mcts-lab inspect`` compares what was backed up
with what your tree ended with. Values are in ``value_range`` from the ``view`` you state (the
format's "edge" view by default: a node's value is from the view of the player who chose the
move into it; "node": the player to move there; "root"; or a player number).
"""

from __future__ import annotations

import os
from typing import Any

from mcts_lab.traces.format import FORMAT, VERSION, parse, write

__all__ = ["Recorder"]


class Recorder:
    """Records a search's tree and its iterations (see the module docstring).

    Node ids are handed out in creation order from 0 (the root).
    """

    def __init__(
        self,
        *,
        game: str | None = None,
        position: str | None = None,
        settings: dict[str, Any] | None = None,
        seed: int | None = None,
        players: int = 2,
        value_range: tuple[float, float] = (-1.0, 1.0),
        view: str | int = "edge",
        zero_sum: bool = True,
        writer: str = "",
        writer_version: str = "",
    ) -> None:
        self._header: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": game,
            "position": position,
            "settings": dict(settings or {}),
            "seed": seed,
            "iterations": 0,
            "writer": {"name": writer, "version": writer_version},
            "players": players,
            "values": {
                "range": [float(value_range[0]), float(value_range[1])],
                "view": view,
                "zero_sum": zero_sum,
                "backup": "mean",
            },
            "visit_rule": "leaf_visit",
        }
        self._nodes: list[dict[str, Any]] = []
        self._records: list[dict[str, Any]] = []
        self._open: dict[str, Any] | None = None

    # ------------------------------------------------------------ the tree

    def root(self, *, player: int, position: str | None = None) -> int:
        """Create the root (``player``: who moves there, -1 if the game is over); returns 0."""
        if self._nodes:
            raise ValueError("the recorder already has a root")
        node: dict[str, Any] = {"id": 0, "parent": None, "player": player, "visits": 0}
        node["value_sum"] = 0.0
        if position is not None:
            node["position"] = position
        self._nodes.append(node)
        return 0

    def expand(
        self,
        parent: int,
        *,
        move: str,
        player: int,
        prior: float | None = None,
        probability: float | None = None,
        action: int | str | None = None,
        chance: bool = False,
    ) -> int:
        """Add a node below ``parent`` (the move ``move`` leads to it; ``player`` moves there,
        -1 at the end of the game; ``chance=True`` for a chance node, whose ``player`` is the
        one who chose its action; ``probability`` for an outcome below a chance node). Returns
        the new node's id; the open iteration lists it as expanded."""
        self._node(parent)
        node_id = len(self._nodes)
        node: dict[str, Any] = {"id": node_id, "parent": parent, "player": player, "move": move}
        if chance:
            node["kind"] = "chance"
        for key, value in (("prior", prior), ("probability", probability), ("action", action)):
            if value is not None:
                node[key] = value
        node["visits"] = 0
        node["value_sum"] = 0.0
        self._nodes.append(node)
        self._record().setdefault("expanded", []).append(node_id)
        return node_id

    def set_stats(
        self, node: int, *, visits: int, value_sum: float | None = None, mean: float | None = None
    ) -> None:
        """Replace a node's statistics with your own tree's (its value from the stated view)."""
        item = self._node(node)
        item["visits"] = int(visits)
        item.pop("value_sum", None)
        if value_sum is not None:
            item["value_sum"] = float(value_sum)
        if mean is not None:
            item["mean"] = float(mean)

    # ------------------------------------------------------------ the iterations

    def select(
        self,
        node: int,
        chosen: int,
        *,
        terms: list[dict[str, Any]] | None = None,
        rule: str | None = None,
    ) -> None:
        """A selection decision at ``node``: ``chosen`` is the child taken. ``terms``: every
        child's ``{"node", "visits", "q", "bonus", "prior", "score"}`` as your code computed
        them (any subset of the keys but ``node``); ``rule``: the formula's name."""
        decision: dict[str, Any] = {"node": node, "chosen": chosen}
        if rule is not None:
            decision["rule"] = rule
        if terms is not None:
            decision["children"] = [dict(t) for t in terms]
        self._record().setdefault("decisions", []).append(decision)

    def backup(self, node: int, value: float) -> None:
        """Your backup added ``value`` to ``node``'s value sum (from the stated view) and one
        visit. Call it for every node your backup updates, in any order."""
        item = self._node(node)
        item["visits"] += 1
        if "value_sum" in item:
            item["value_sum"] += float(value)
        self._record().setdefault("backup", []).append({"node": node, "add": float(value)})

    def finish(
        self,
        *,
        leaf: int | None = None,
        leaf_value: float | None = None,
        evaluation: str | None = None,
        note: str | None = None,
    ) -> None:
        """End the iteration: ``leaf`` was valued ``leaf_value`` (from its stated view)."""
        record = self._record()
        record["path"] = self._path(record)
        for key, value in (
            ("leaf", leaf),
            ("leaf_value", leaf_value),
            ("evaluation", evaluation),
            ("note", note),
        ):
            if value is not None:
                record[key] = value
        self._records.append(record)
        self._header["iterations"] = len(self._records)
        self._open = None

    # ------------------------------------------------------------ output

    def document(self) -> dict[str, Any]:
        """The trace so far as an mcts-trace document (an open iteration is finished first)."""
        if self._open is not None:
            self.finish()
        doc = dict(self._header)
        doc["nodes"] = [dict(node) for node in self._nodes]
        if self._records:
            doc["trace"] = [dict(record) for record in self._records]
        parse(doc)
        return doc

    def write(self, path: str | os.PathLike[str]) -> None:
        """Write the trace (``.jsonl``: JSON Lines)."""
        write(self.document(), path)

    # ------------------------------------------------------------ helpers

    def _node(self, node: int) -> dict[str, Any]:
        if not 0 <= node < len(self._nodes):
            raise ValueError(f"no node {node} (the recorder has {len(self._nodes)})")
        return self._nodes[node]

    def _record(self) -> dict[str, Any]:
        if not self._nodes:
            raise ValueError("create the root first: Recorder.root(player=...)")
        if self._open is None:
            self._open = {"iteration": len(self._records) + 1}
        return self._open

    def _path(self, record: dict[str, Any]) -> list[int]:
        """The nodes that got a visit, root first (by depth below the root)."""
        visited = {item["node"] for item in record.get("backup", ())}
        if not visited:
            return [0]

        def depth(node: int) -> int:
            steps = 0
            parent = self._nodes[node]["parent"]
            while parent is not None:
                steps += 1
                parent = self._nodes[parent]["parent"]
            return steps

        return sorted(visited, key=depth)
