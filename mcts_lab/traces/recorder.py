"""A recorder your own Python MCTS calls as it runs, to write an mcts-trace file.

Call it where your search already does the work: ``root()`` once, then in each iteration
``select()`` at every choice your selection makes, ``expand()`` for the node it adds,
``backup()`` for every node your backup updates and ``finish()`` with the leaf's value. Here
three iterations of a tic-tac-toe search at ``XX.OO....`` (X, player 0, to move; values in
[-1, 1] from the format's "edge" view: the player who chose the move into the node), written
by hand where your code would compute them:

>>> from mcts_lab.traces import Recorder
>>> rec = Recorder(game="tic_tac_toe", position="XX.OO....", settings={"c": 1.4}, seed=7)
>>> root = rec.root(player=0, num_actions=5)
>>> # iteration 1: your expansion adds c1, which wins for X: a finished game (player -1)
>>> win = rec.expand(root, move="c1", action=2, player=-1, proven=1.0)
>>> for node in (root, win):                  # your backup: what it adds to each node
...     rec.backup(node, 1.0)
>>> rec.finish(leaf=win, leaf_value=1.0, leaf_values=[1.0, -1.0], leaf_raw=[1.0, -1.0],
...            evaluation="terminal")
>>> # iteration 2: c2 (O to move there), a rollout O won: -1 from X's view
>>> other = rec.expand(root, move="c2", action=5, player=1)
>>> for node in (root, other):
...     rec.backup(node, -1.0)
>>> rec.finish(leaf=other, leaf_value=-1.0, leaf_values=[-1.0, 1.0], leaf_raw=[-1.0, 1.0],
...            evaluation="rollout", rollout_moves=3)
>>> # iteration 3: your selection's UCT terms at the root (optional), then the win again
>>> rec.select(root, win, rule="uct", terms=[
...     {"node": win, "visits": 1, "q": 1.0, "bonus": 1.165, "score": 2.165},
...     {"node": other, "visits": 1, "q": -1.0, "bonus": 1.165, "score": 0.165}])
>>> for node in (root, win):
...     rec.backup(node, 1.0)
>>> rec.finish(leaf=win, leaf_value=1.0, evaluation="terminal")
>>> doc = rec.document()                      # or rec.write("my-search.jsonl")
>>> doc["iterations"], len(doc["nodes"]), [r["path"] for r in doc["trace"]]
(3, 3, [[0, 1], [0, 2], [0, 1]])

``mcts-lab inspect`` finds nothing wrong with it (nor with a file written by ``write``):

>>> from mcts_lab.inspect.inspection import inspect_trace
>>> from mcts_lab.traces import parse
>>> inspect_trace(parse(doc))["anomaly_counts"]
{}

A finished tree without its iterations (a **tree-only** document: no ``trace`` records, so
``inspect`` runs every check but the records' own): ``Recorder(tree_only=True)``, then
``root()`` and ``expand()`` for each node of your tree and ``set_stats()`` with its numbers.
No iteration record is made up:

>>> tree = Recorder(game="tic_tac_toe", position="XX.OO....", tree_only=True)
>>> root = tree.root(player=0, num_actions=5)
>>> win = tree.expand(root, move="c1", action=2, player=-1, proven=1.0)
>>> tree.set_stats(win, visits=2, value_sum=2.0)
>>> tree.set_stats(root, visits=2, value_sum=2.0)
>>> doc = tree.document()
>>> "trace" in doc, doc["iterations"], inspect_trace(parse(doc))["anomaly_counts"]
(False, 2, {})

The recorder keeps the tree's statistics from your ``backup`` calls; ``set_stats`` replaces a
node's with the numbers your own tree holds, so ``mcts-lab inspect`` compares what was backed up
with what your tree ended with. Values are in ``value_range`` from the ``view`` you state (the
format's "edge" view by default: a node's value is from the view of the player who chose the
move into it; "node": the player to move there; "root"; or a player number). ``position`` is
the root's position string in the named game (tic-tac-toe: nine cells, ``"........."`` the
empty board) or ``None``: the game's start.
"""

from __future__ import annotations

import os
from typing import Any

from mcts_lab.traces.format import FORMAT, VERSION, parse, write

__all__ = ["Recorder"]

_PROOFS = ("win", "draw", "loss")


class Recorder:
    """Records a search's tree and its iterations (see the module docstring).

    Node ids are handed out in creation order from 0 (the root). Every keyword but
    ``tree_only`` and ``iterations`` is the header field of the same name
    (docs/trace_format.md): ``game``, ``position``, ``game_options``, ``settings``, ``seed``,
    ``players``, ``visit_rule``; ``value_range``, ``view``, ``zero_sum`` and ``backup`` are
    ``values.range``, ``.view``, ``.zero_sum`` and ``.backup``; ``writer`` and
    ``writer_version`` the ``writer``'s name and version.

    ``tree_only``: record the finished tree alone, no iterations (a tree-only document):
    ``expand`` adds a node without opening an iteration record, ``set_stats`` gives every
    node's statistics, and ``select``, ``backup`` and ``finish`` are refused.
    ``iterations``: the header's ``iterations`` (how many the search ran); default: the
    records' count, or in a tree-only document the root's visits.
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
        tree_only: bool = False,
        iterations: int | None = None,
        game_options: dict[str, Any] | None = None,
        backup: str = "mean",
        visit_rule: str = "leaf_visit",
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
                "backup": backup,
            },
            "visit_rule": visit_rule,
        }
        if game_options is not None:
            self._header["game_options"] = dict(game_options)
        self.tree_only = tree_only
        self._iterations = iterations
        self._nodes: list[dict[str, Any]] = []
        self._records: list[dict[str, Any]] = []
        self._open: dict[str, Any] | None = None

    # ------------------------------------------------------------ the tree

    def root(
        self,
        *,
        player: int,
        position: str | None = None,
        proven: float | None = None,
        num_actions: int | None = None,
    ) -> int:
        """Create the root (``player``: who moves there, -1 if the game is over); returns 0.
        ``position``: the root's position string; ``proven``: its proven value (from its own
        player's view); ``num_actions``: its number of legal moves."""
        if self._nodes:
            raise ValueError("the recorder already has a root")
        node: dict[str, Any] = {"id": 0, "parent": None, "player": player, "visits": 0}
        node["value_sum"] = 0.0
        if position is not None:
            node["position"] = position
        _set_known(node, proven=proven, num_actions=num_actions)
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
        proven: float | None = None,
        num_actions: int | None = None,
        position: str | None = None,
    ) -> int:
        """Add a node below ``parent`` (the move ``move`` leads to it; ``player`` moves there,
        -1 at the end of the game; ``chance=True`` for a chance node, whose ``player`` is the
        one who chose its action; ``probability`` for an outcome below a chance node;
        ``proven``: its proven value, from the stated view, e.g. a finished game's result;
        ``num_actions``: its number of legal moves; ``position``: its position string).
        Returns the new node's id; the open iteration lists it as expanded (a tree-only
        recorder opens none)."""
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
        if position is not None:
            node["position"] = position
        _set_known(node, proven=proven, num_actions=num_actions)
        if not self.tree_only:
            self._record().setdefault("expanded", []).append(node_id)
        self._nodes.append(node)
        return node_id

    def set_stats(
        self,
        node: int,
        *,
        visits: int,
        value_sum: float | None = None,
        mean: float | None = None,
        value_sums: list[float] | None = None,
        proven: float | None = None,
        num_actions: int | None = None,
    ) -> None:
        """Replace a node's statistics with your own tree's (its value from the stated view;
        ``value_sums``: the sums per player, ``[player 0, player 1]``). ``proven`` and
        ``num_actions``, when given, are set too (a node's proof found during the search)."""
        item = self._node(node)
        item["visits"] = int(visits)
        item.pop("value_sum", None)
        if value_sum is not None:
            item["value_sum"] = float(value_sum)
        if mean is not None:
            item["mean"] = float(mean)
        if value_sums is not None:
            item["value_sums"] = [float(v) for v in value_sums]
        _set_known(item, proven=proven, num_actions=num_actions)

    def prove(self, node: int, value: float | None) -> None:
        """Set a node's proven value (from the stated view); ``None``: unproven."""
        self._node(node)["proven"] = None if value is None else float(value)

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
        child's ``{"node", "visits", "q", "bonus", "prior", "score", "proof"}`` as your code
        computed them (any subset of the keys but ``node``); ``rule``: the formula's name."""
        self._node(chosen)
        decision: dict[str, Any] = {"node": node, "chosen": chosen}
        if rule is not None:
            decision["rule"] = rule
        if terms is not None:
            decision["children"] = [dict(t) for t in terms]
        self._record().setdefault("decisions", []).append(decision)

    def backup(self, node: int, value: float, *, proof: str | None = None) -> None:
        """Your backup added ``value`` to ``node``'s value sum (from the stated view) and one
        visit. Call it for every node your backup updates, in any order. ``proof``:
        ``"win"``, ``"draw"`` or ``"loss"`` (from that view) once the node is proven."""
        item = self._node(node)
        record = self._record()
        if proof is not None and proof not in _PROOFS:
            raise ValueError(f"proof {proof!r}: one of {', '.join(_PROOFS)}")
        item["visits"] += 1
        if "value_sum" in item:
            item["value_sum"] += float(value)
        added: dict[str, Any] = {"node": node, "add": float(value)}
        if proof is not None:
            added["proof"] = proof
        record.setdefault("backup", []).append(added)

    def finish(
        self,
        *,
        leaf: int | None = None,
        leaf_value: float | None = None,
        evaluation: str | None = None,
        note: str | None = None,
        leaf_values: list[float] | None = None,
        leaf_raw: list[float] | None = None,
        rollout_moves: int | None = None,
        path: list[int] | None = None,
    ) -> None:
        """End the iteration: ``leaf`` was valued ``leaf_value`` (from its stated view);
        ``leaf_values``: its value per player; ``leaf_raw``: per player, its value before
        shaping (the game's returns or the heuristic, in [-1, 1]); ``evaluation``: how
        (``"rollout"``, ``"terminal"``, ...), ``rollout_moves``: how many moves a rollout
        played. ``path``: the nodes the iteration visited, root first (default: the selection's
        path, from ``select()`` and ``expand()``, to ``leaf``; see :meth:`_path`)."""
        record = self._record()
        record["path"] = [int(n) for n in path] if path is not None else self._path(record, leaf)
        for key, value in (
            ("leaf", leaf),
            ("leaf_value", leaf_value),
            ("evaluation", evaluation),
            ("note", note),
            ("rollout_moves", rollout_moves),
        ):
            if value is not None:
                record[key] = value
        for key, values in (("leaf_values", leaf_values), ("leaf_raw", leaf_raw)):
            if values is not None:
                record[key] = [float(v) for v in values]
        self._records.append(record)
        self._open = None

    # ------------------------------------------------------------ output

    def document(self, *, tree_only: bool | None = None) -> dict[str, Any]:
        """The trace so far as an mcts-trace document (an open iteration is finished first).
        ``tree_only=True`` leaves the iteration records out (default: the recorder's own
        ``tree_only``); the tree's statistics stay what the backups made them."""
        if self._open is not None:
            self.finish()
        if not self._nodes:
            raise ValueError("create the root first: Recorder.root(player=...)")
        only_tree = self.tree_only if tree_only is None else tree_only
        doc = dict(self._header)
        doc["values"] = dict(doc["values"])
        if self._iterations is not None:
            doc["iterations"] = int(self._iterations)
        elif self._records:
            doc["iterations"] = len(self._records)
        else:
            doc["iterations"] = int(self._nodes[0]["visits"])
        doc["nodes"] = [dict(node) for node in self._nodes]
        if self._records and not only_tree:
            doc["trace"] = [dict(record) for record in self._records]
        parse(doc)
        return doc

    def write(self, path: str | os.PathLike[str], *, tree_only: bool | None = None) -> None:
        """Write the trace (``.jsonl``: JSON Lines); ``tree_only`` as in :meth:`document`."""
        write(self.document(tree_only=tree_only), path)

    # ------------------------------------------------------------ helpers

    def _node(self, node: int) -> dict[str, Any]:
        if not 0 <= node < len(self._nodes):
            raise ValueError(f"no node {node} (the recorder has {len(self._nodes)})")
        return self._nodes[node]

    def _record(self) -> dict[str, Any]:
        if self.tree_only:
            raise ValueError(
                "a tree-only recorder keeps no iterations: add nodes with expand() and give "
                "their statistics with set_stats()"
            )
        if not self._nodes:
            raise ValueError("create the root first: Recorder.root(player=...)")
        if self._open is None:
            self._open = {"iteration": len(self._records) + 1}
        return self._open

    def _path(self, record: dict[str, Any], leaf: int | None) -> list[int]:
        """The nodes that got a visit, root first: the selection's walk (the root, each
        ``select()``'s chosen child, then the child of its last node that was expanded alone or
        is the ``leaf``) when it holds every node the backup updated, so a backup that stops
        short (at the leaf's parent) is written as what the search did; else the backed-up
        nodes by depth below the root (a search that calls ``backup()`` only)."""
        walk = [0]
        for decision in record.get("decisions", ()):
            if decision["node"] != walk[-1]:
                walk = []
                break
            walk.append(decision["chosen"])
        if walk:
            below = [n for n in record.get("expanded", ()) if self._nodes[n]["parent"] == walk[-1]]
            if leaf is not None and self._nodes[leaf]["parent"] == walk[-1]:
                walk.append(leaf)
            elif len(below) == 1:
                walk.append(below[0])
        visited = {item["node"] for item in record.get("backup", ())}
        if walk and visited <= set(walk):
            return walk
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


def _set_known(node: dict[str, Any], *, proven: float | None, num_actions: int | None) -> None:
    """Set a node's ``proven`` and ``num_actions`` where given."""
    if proven is not None:
        node["proven"] = float(proven)
    if num_actions is not None:
        if num_actions < 0:
            raise ValueError(f"num_actions {num_actions}: at least 0")
        node["num_actions"] = int(num_actions)
