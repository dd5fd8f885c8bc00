"""Two trace files compared: where do two recorded runs first part, and how do their final
trees differ? (``mcts-lab inspect A --diff B``, the app's file view.)

:mod:`mcts_lab.compare.searches` runs two live searches in lockstep; this module compares two runs
already written to mcts-trace files (docs/trace_format.md), from any writer. It reuses the
lockstep's words for how paths part (:data:`~mcts_lab.compare.records.DivergenceKind`:
"selection", "chance", "expansion", "stop"); its records are in
:mod:`mcts_lab.compare.trace_diff_records`, its text and JUnit XML in
:mod:`mcts_lab.compare.trace_diff_report`.

**Matching.** A node of A and a node of B are the same node when their **action paths** from
the root are the same: the labels (``move``; a file without one: ``action N``, else ``#id``)
of the moves and outcomes from the root down. Two siblings with the same label are told apart
by their order (``"b2 (2)"``).

**Records.** The iteration records are walked in file order, the k-th of A against the k-th of
B. At each pair: first the **path** (the action path of the record's last node; the iteration
numbers, and the record counts at the end); while the paths are the same, the **statistics**:
each recorded decision's children (``visits`` exactly; ``q``, ``bonus``, ``prior``, ``score``
within the tolerance; the ``rule``), the leaf (which node, its value, the ``evaluation``) and
each ``backup`` add. A field only one file records is not compared (a writer that records no
terms is not "different" for that). The first path difference and the first statistics
difference before it are both reported; the earlier is ``first_difference``.

**Values.** Leaf values, backup adds and node means are compared in [-1, 1] (a [0, 1] file's
values doubled and shifted) and from the **edge view** (the player who chose the move into the
node; the root: its own player), whatever range and view each file declares, so a lab file
and a foreign one compare. A recorded decision's terms are compared as the writer recorded them
(Q from the deciding player's view, in the file's range).

**The final trees.** Every node of either tree by its action path: ``visits`` exactly, ``mean``
(edge view, [-1, 1]) and ``proven`` (same) within the tolerance, and the nodes only in A or only
in B. Listed shallowest first, then by the larger visit count.

**Bad input.** Files of different games, game options or root positions are not two runs to
compare: :class:`DiffInputError` (a ``ValueError``; the CLI's one line and exit 2). A file
without iteration records (a tree-only document) is compared by its final tree only.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from collections.abc import Iterable
from typing import Any, TypeGuard

from mcts_lab.compare.records import DivergenceKind, show_value
from mcts_lab.compare.trace_diff_records import FirstDifference, NodeDifference, TraceDiff
from mcts_lab.traces.format import Trace
from mcts_lab.traces.rules import game_moves
from mcts_lab.traces.values import node_sums, node_views, value_range

__all__ = [
    "DEFAULT_TOLERANCE",
    "MAX_LISTED",
    "DiffInputError",
    "FirstDifference",
    "NodeDifference",
    "TraceDiff",
    "diff_traces",
    "node_text",
]

#: ``--tolerance`` by default: two values closer than this are the same (rounding only).
DEFAULT_TOLERANCE = 1e-9
#: Node differences listed by default (all are counted; ``truncated`` says some were left out).
MAX_LISTED = 1_000

_TERMS = ("q", "bonus", "prior", "score")


class DiffInputError(ValueError):
    """The two files are not two runs of one game from one position (the message says how)."""


# ------------------------------------------------------------------ one file's side


class _Side:
    """One file read for comparing: each node's action path, and values in [-1, 1] from the
    edge view."""

    def __init__(self, trace: Trace, name: str) -> None:
        self.trace = trace
        self.name = name
        self.low, self.high = value_range(trace)
        self.views = node_views(trace)
        values = dict(trace.header.get("values", {}))
        values["view"] = "edge"
        edge_trace = dataclasses.replace(trace, header={**trace.header, "values": values})
        self.edge = node_views(edge_trace)
        self.sums = node_sums(trace, self.views)
        self.players = int(trace.header.get("players", 2))
        self.zero_sum = bool(trace.header.get("values", {}).get("zero_sum", True))
        self.keys: list[tuple[str, ...]] = [()] * len(trace.nodes)
        self.chance = [node.get("kind") == "chance" for node in trace.nodes]
        stack = [trace.root]
        while stack:
            at = stack.pop()
            seen: dict[str, int] = {}
            for child in trace.children[at]:
                label = _label(trace.nodes[child])
                seen[label] = seen.get(label, 0) + 1
                if seen[label] > 1:
                    label = f"{label} ({seen[label]})"
                self.keys[child] = (*self.keys[at], label)
                stack.append(child)
        self.by_key = {key: i for i, key in enumerate(self.keys)}

    def i(self, node_id: int) -> int:
        """The place of a node the loader checked exists (path, expanded, backup, decision)."""
        return self.trace.index[node_id]

    def key(self, node_id: object) -> tuple[str, ...]:
        """A node's action path; an id the loader does not check (a record's ``leaf``, a
        decision child's ``node``) that is no node reads ``("#id (no such node)",)``."""
        i = self.trace.index.get(node_id) if isinstance(node_id, int) else None
        return (f"#{node_id} (no such node)",) if i is None else self.keys[i]

    def label(self, node_id: object) -> str:
        """The label of the move into a node (``"(root)"`` for the root)."""
        key = self.key(node_id)
        return key[-1] if key else "(root)"

    def scaled(self, value: float) -> float:
        """A value of the file's range in [-1, 1]."""
        if self.high == self.low:
            return value
        scaled = (value - self.low) / (self.high - self.low) * 2 - 1
        # a value near the float's limit stays finite (JSON output holds no infinity)
        return scaled if math.isfinite(scaled) else math.copysign(sys.float_info.max, scaled)

    def edge_value(self, i: int, value: object) -> float | None:
        """A value of node ``i`` from the file's view, as its edge view's in [-1, 1] (``None``
        when the file gives none or the views cannot be converted)."""
        if not isinstance(value, int | float) or isinstance(value, bool):
            return None
        if self.views[i] == self.edge[i]:
            return self.scaled(float(value))
        if self.zero_sum and self.players == 2:
            return self.scaled(self.low + self.high - float(value))
        return None

    def stats(self, i: int) -> dict[str, Any]:
        """A final node's ``visits``, ``mean`` and ``proven`` (edge view, [-1, 1])."""
        node = self.trace.nodes[i]
        visits = int(node["visits"])
        player = self.edge[i]
        total = self.sums[i][player] if 0 <= player < len(self.sums[i]) else None
        mean = None if total is None or not visits else self.scaled(total / visits)
        return {
            "visits": visits,
            "mean": None if mean is None else round(mean, 12),
            "proven": self.edge_value(i, node.get("proven")),
        }

    def summary(self) -> dict[str, Any]:
        header = self.trace.header
        return {
            "file": self.name,
            "game": header.get("game"),
            "position": header.get("position"),
            "writer": header.get("writer"),
            "seed": header.get("seed"),
            "records": len(self.trace.records),
            "nodes": len(self.trace.nodes),
        }


def _label(node: dict[str, Any]) -> str:
    if isinstance(node.get("move"), str):
        return str(node["move"])
    if isinstance(node.get("action"), int):
        return f"action {node['action']}"
    return f"#{node['id']}"


# ------------------------------------------------------------------ the comparison


def diff_traces(
    a: Trace,
    b: Trace,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    names: tuple[str, str] = ("A", "B"),
    max_listed: int = MAX_LISTED,
) -> TraceDiff:
    """Compare two checked trace files (see the module docstring for what is compared).

    Args:
        a, b: the two files, loaded (:func:`mcts_lab.traces.load`).
        tolerance: the largest value difference that is no difference (>= 0, finite); visits
            are compared exactly.
        names: the files' names for the summaries.
        max_listed: node differences listed at most (all are counted).

    Raises :class:`DiffInputError` when the files are of different games, game options or
    root positions, and ``ValueError`` for a bad tolerance.
    """
    if not (math.isfinite(tolerance) and tolerance >= 0):
        raise ValueError(f"the tolerance must be a finite number >= 0, not {tolerance!r}")
    _check_same_start(a, b)
    side_a, side_b = _Side(a, names[0]), _Side(b, names[1])
    walk = _RecordWalk(side_a, side_b, tolerance)
    note = ""
    if not a.records or not b.records:
        which = " and ".join(n for n, t in zip("AB", (a, b), strict=True) if not t.records)
        note = f"{which} has no iteration records: the final trees are compared, not the runs"
        if which == "A and B":
            note = note.replace("has", "have")
    else:
        walk.run()
    listed, counts = _node_differences(side_a, side_b, tolerance, max_listed)
    return TraceDiff(
        a=side_a.summary(),
        b=side_b.summary(),
        tolerance=tolerance,
        records_compared=walk.compared,
        records_note=note,
        first_difference=walk.first,
        first_path_difference=walk.first_path,
        node_differences=tuple(listed),
        node_counts=counts,
        settings_differences=_settings_differences(a, b),
    )


def _check_same_start(a: Trace, b: Trace) -> None:
    """Refuse two files that are not runs of one game from one position."""
    game_a, game_b = a.header.get("game"), b.header.get("game")
    if game_a != game_b and game_a is not None and game_b is not None:
        raise DiffInputError(
            f"A is a game of {show_value(game_a)}, B of {show_value(game_b)}: a diff compares "
            "two runs of one game from one position"
        )
    options_a, options_b = a.header.get("game_options"), b.header.get("game_options")
    if options_a and options_b and options_a != options_b:
        raise DiffInputError(
            f"the game options differ (A {options_a}, B {options_b}): a diff compares two runs "
            "of one game from one position"
        )
    moves_a, moves_b = game_moves(a), game_moves(b)
    if moves_a is not None and moves_b is not None:
        # the registered game's own reading: an absent position and "........." are one start
        start_a = moves_a.game.format_state(moves_a.root_state)
        start_b = moves_b.game.format_state(moves_b.root_state)
    else:
        start_a, start_b = a.header.get("position"), b.header.get("position")
    if start_a != start_b:
        raise DiffInputError(
            f"the root positions differ (A {_position(start_a)}, B {_position(start_b)}): a "
            "diff compares two runs of one game from one position"
        )


def _position(text: object) -> str:
    if text is None:
        return "the start"
    quoted = repr(text)
    return quoted if len(quoted) <= 40 else quoted[:37] + "...'"


def _settings_differences(a: Trace, b: Trace) -> dict[str, tuple[Any, Any]]:
    found: dict[str, tuple[Any, Any]] = {}
    if a.header.get("seed") != b.header.get("seed"):
        found["seed"] = (a.header.get("seed"), b.header.get("seed"))
    sa, sb = a.header.get("settings") or {}, b.header.get("settings") or {}
    for key in [*sa, *(k for k in sb if k not in sa)]:
        if sa.get(key) != sb.get(key):
            found[str(key)] = (sa.get(key), sb.get(key))
    return found


class _RecordWalk:
    """The records of both files walked pair by pair (see the module docstring)."""

    def __init__(self, a: _Side, b: _Side, tolerance: float) -> None:
        self.a, self.b = a, b
        self.tolerance = tolerance
        self.compared = 0
        self.first: FirstDifference | None = None
        self.first_path: FirstDifference | None = None

    def run(self) -> None:
        records_a, records_b = self.a.trace.records, self.b.trace.records
        for k, (ra, rb) in enumerate(zip(records_a, records_b, strict=False), start=1):
            self.compared = k
            found = self._path(k, ra, rb)
            if found is not None:
                self.first_path = found
                self.first = self.first or found
                return
            if self.first is None:
                self.first = self._statistics(k, ra, rb)
        if len(records_a) != len(records_b):
            k = min(len(records_a), len(records_b)) + 1
            longer = records_a if len(records_a) > len(records_b) else records_b
            found = FirstDifference(
                record=k,
                iteration=longer[k - 1].get("iteration"),
                kind="records",
                divergence=None,
                depth=None,
                node=None,
                a={"records": len(records_a)},
                b={"records": len(records_b)},
                explanation=(
                    f"record {k:,}: A has {len(records_a):,} iteration records, B "
                    f"{len(records_b):,}; the first {k - 1:,} were compared"
                ),
            )
            self.first_path = found
            self.first = self.first or found

    # -------------------------------------------------------------- paths

    def _path_key(self, side: _Side, record: dict[str, Any]) -> tuple[str, ...]:
        return side.keys[side.i(record["path"][-1])]

    def _path(self, k: int, ra: dict[str, Any], rb: dict[str, Any]) -> FirstDifference | None:
        it_a, it_b = ra["iteration"], rb["iteration"]
        key_a, key_b = self._path_key(self.a, ra), self._path_key(self.b, rb)
        if it_a != it_b:
            return FirstDifference(
                k, it_a, "iteration", None, None, None,
                {"iteration": it_a, "path": list(key_a)}, {"iteration": it_b, "path": list(key_b)},
                f"record {k:,}: A's is iteration {it_a:,}, B's iteration {it_b:,}: the records "
                "do not line up",
            )  # fmt: skip
        if key_a == key_b:
            return None
        depth = next(
            (d for d, (x, y) in enumerate(zip(key_a, key_b, strict=False)) if x != y),
            min(len(key_a), len(key_b)),
        )
        node = key_a[:depth]
        new_a, new_b = self._expanded(self.a, ra), self._expanded(self.b, rb)
        kind: DivergenceKind
        if depth >= len(key_a) or depth >= len(key_b):
            kind = "stop"
        elif self.a.chance[self.a.by_key[node]]:
            kind = "chance"
        elif key_a[: depth + 1] in new_a and key_b[: depth + 1] in new_b:
            kind = "expansion"
        elif key_a[: depth + 1] in new_a or key_b[: depth + 1] in new_b:
            kind = "stop"
        else:
            kind = "selection"
        side_a = self._choice(self.a, ra, key_a, depth, new_a)
        side_b = self._choice(self.b, rb, key_b, depth, new_b)
        return FirstDifference(
            record=k,
            iteration=it_a,
            kind="path",
            divergence=kind,
            depth=depth,
            node=node,
            a=side_a,
            b=side_b,
            explanation=_path_sentence(it_a, depth, node, kind, side_a, side_b)
            + self._parting_cause(kind, node, side_a, side_b),
        )

    def _parting_cause(
        self, kind: DivergenceKind, node: tuple[str, ...], a: dict[str, Any], b: dict[str, Any]
    ) -> str:
        """Why the paths part where no term says so: a different move expanded first, the
        node's children in another order, or the same statistics with a different child
        taken (a tie broken by order or by another random stream); ``""`` when the terms
        differ (the sentence's terms then say why) or cannot be compared."""
        if kind == "expansion":
            return (
                ": the same node expanded a different untried move, so their expansion orders "
                "(or random streams) differ, not a term"
            )
        if kind != "selection":
            return ""
        order_a, order_b = self._order(self.a, node), self._order(self.b, node)
        reordered = order_a != order_b and sorted(order_a) == sorted(order_b)
        order = (
            f"the node's children are in a different order (A {', '.join(order_a[:6])}; "
            f"B {', '.join(order_b[:6])}{', ...' if len(order_b) > 6 else ''})"
        )
        if not (a["terms"] and b["terms"]):
            return f": {order}, not a recorded term" if reordered else ""
        terms_a = {row["action"]: row for row in a["terms"]}
        terms_b = {row["action"]: row for row in b["terms"]}
        if set(terms_a) != set(terms_b):
            return ""
        for action, row in terms_a.items():
            other = terms_b[action]
            if row.get("visits") != other.get("visits"):
                return ""
            if not all(self._same(row.get(name), other.get(name)) for name in _TERMS):
                return ""
        if reordered:
            return f": the same statistics, but {order}: a tie broken by order, not a term"
        return (
            ": the same statistics, but a different child taken: a tie broken by a different "
            "random stream (or order), not a term"
        )

    def _order(self, side: _Side, node: tuple[str, ...]) -> list[str]:
        """The labels of a node's children in the file's order (empty: no such node)."""
        at = side.by_key.get(node)
        return [] if at is None else [side.keys[k][-1] for k in side.trace.children[at]]

    def _expanded(self, side: _Side, record: dict[str, Any]) -> set[tuple[str, ...]]:
        return {side.keys[side.i(n)] for n in record.get("expanded", ())}

    def _choice(
        self,
        side: _Side,
        record: dict[str, Any],
        key: tuple[str, ...],
        depth: int,
        expanded: set[tuple[str, ...]],
    ) -> dict[str, Any]:
        """What one file did at the parting node: its choice, rule and recorded terms."""
        if depth >= len(key):
            choice = f"stop ({record.get('evaluation') or 'leaf'})"
        elif key[: depth + 1] in expanded:
            choice = f"+{key[depth]}"
        elif side.chance[side.by_key[key[:depth]]]:
            choice = f"[{key[depth]}]"
        else:
            choice = key[depth]
        item: dict[str, Any] = {"path": list(key), "choice": choice, "rule": None, "terms": []}
        parent = side.by_key.get(key[:depth])
        for decision in record.get("decisions", ()):
            if parent is not None and side.i(decision["node"]) == parent:
                item["rule"] = decision.get("rule")
                item["terms"] = [self._terms(side, t) for t in decision.get("children", ())]
        return item

    def _terms(self, side: _Side, terms: dict[str, Any]) -> dict[str, Any]:
        row: dict[str, Any] = {"action": side.label(terms["node"])}
        for name in ("visits", *_TERMS):
            row[name] = terms.get(name)
        return row

    # -------------------------------------------------------------- statistics

    def _statistics(self, k: int, ra: dict[str, Any], rb: dict[str, Any]) -> FirstDifference | None:
        """The first statistics difference of two records with the same path, or ``None``."""
        path = list(self._path_key(self.a, ra))
        return (
            self._decisions(k, ra, rb, path)
            or self._leaf(k, ra, rb, path)
            or (self._backups(k, ra, rb, path))
        )

    def _same(self, x: object, y: object) -> bool:
        """Two recorded numbers are the same within the tolerance (``None``: not recorded)."""
        if not _number(x) or not _number(y):
            return True
        return abs(float(x) - float(y)) <= self.tolerance

    def _decisions(
        self, k: int, ra: dict[str, Any], rb: dict[str, Any], path: list[str]
    ) -> FirstDifference | None:
        by_node_b = {self.b.keys[self.b.i(d["node"])]: d for d in rb.get("decisions", ())}
        for da in ra.get("decisions", ()):
            node = self.a.keys[self.a.i(da["node"])]
            db = by_node_b.get(node)
            if db is None:
                continue
            found = self._decision_pair(da, db, node)
            if found is None:
                continue
            what, child, value_a, value_b = found
            where = _where(node)
            terms_a = [self._terms(self.a, t) for t in da.get("children", ())]
            terms_b = [self._terms(self.b, t) for t in db.get("children", ())]
            if what == "rule" or what == "children":
                text = f"{what} {show_value(value_a)} / {show_value(value_b)}"
            else:
                text = f"{child}'s {what} {_num(value_a)} / {_num(value_b)}"
            return FirstDifference(
                record=k,
                iteration=ra["iteration"],
                kind="decision",
                divergence=None,
                depth=len(node),
                node=node,
                a={"path": path, "field": what, "child": child, "value": value_a,
                   "rule": da.get("rule"), "terms": terms_a},
                b={"path": path, "field": what, "child": child, "value": value_b,
                   "rule": db.get("rule"), "terms": terms_b},
                explanation=(
                    f"iteration {ra['iteration']:,}: the same path, but the decision at {where} "
                    f"was scored differently (A / B): {text}"
                ),
            )  # fmt: skip
        return None

    def _decision_pair(
        self, da: dict[str, Any], db: dict[str, Any], node: tuple[str, ...]
    ) -> tuple[str, str | None, Any, Any] | None:
        """(field, child label, A's, B's) of the first difference in one decision."""
        if None not in (da.get("rule"), db.get("rule")) and da["rule"] != db["rule"]:
            return "rule", None, da["rule"], db["rule"]
        kids_a = {self.a.label(t["node"]): t for t in da.get("children", ())}
        kids_b = {self.b.label(t["node"]): t for t in db.get("children", ())}
        if kids_a and kids_b and set(kids_a) != set(kids_b):
            return "children", None, sorted(kids_a), sorted(kids_b)
        for label, ta in kids_a.items():
            tb = kids_b.get(label)
            if tb is None or ta == tb:  # the same numbers (the common case): nothing to weigh
                continue
            if None not in (ta.get("visits"), tb.get("visits")) and ta["visits"] != tb["visits"]:
                return "visits", label, ta["visits"], tb["visits"]
            for name in _TERMS:
                if not self._same(ta.get(name), tb.get(name)):
                    return name, label, ta.get(name), tb.get(name)
        return None

    def _leaf(
        self, k: int, ra: dict[str, Any], rb: dict[str, Any], path: list[str]
    ) -> FirstDifference | None:
        leaf_a, leaf_b = self._leaf_of(self.a, ra), self._leaf_of(self.b, rb)
        value_a, value_b = self._leaf_value(self.a, ra), self._leaf_value(self.b, rb)
        ev_a, ev_b = ra.get("evaluation"), rb.get("evaluation")
        if leaf_a != leaf_b:
            what = f"A valued {_where(leaf_a)}, B {_where(leaf_b)}"
        elif not self._same(value_a, value_b):
            what = (
                f"the leaf's value (from the view of the player who moved into it, in [-1, 1]) "
                f"is {_num(value_a)} in A, {_num(value_b)} in B"
            )
        elif ev_a is not None and ev_b is not None and ev_a != ev_b:
            what = f"A valued the leaf by {ev_a}, B by {ev_b}"
        else:
            return None
        return FirstDifference(
            record=k,
            iteration=ra["iteration"],
            kind="leaf",
            divergence=None,
            depth=len(leaf_a),
            node=leaf_a,
            a={"path": path, "leaf": list(leaf_a), "leaf_value": value_a, "evaluation": ev_a},
            b={"path": path, "leaf": list(leaf_b), "leaf_value": value_b, "evaluation": ev_b},
            explanation=f"iteration {ra['iteration']:,}: the same path, but {what}",
        )

    def _leaf_of(self, side: _Side, record: dict[str, Any]) -> tuple[str, ...]:
        return side.key(record.get("leaf", record["path"][-1]))

    def _leaf_value(self, side: _Side, record: dict[str, Any]) -> float | None:
        """The leaf's value from its edge view in [-1, 1], or ``None`` (not recorded)."""
        i = side.trace.index.get(record.get("leaf", record["path"][-1]))
        if i is None:
            return None
        per_player = record.get("leaf_values")
        player = side.edge[i]
        if isinstance(per_player, list) and 0 <= player < len(per_player):
            return _round(side.scaled(float(per_player[player])))
        return _round(side.edge_value(i, record.get("leaf_value")))

    def _backups(
        self, k: int, ra: dict[str, Any], rb: dict[str, Any], path: list[str]
    ) -> FirstDifference | None:
        adds_a = self._adds(self.a, ra)
        adds_b = self._adds(self.b, rb)
        if not adds_a or not adds_b:
            return None
        for node in [*adds_a, *(n for n in adds_b if n not in adds_a)]:
            value_a, value_b = adds_a.get(node), adds_b.get(node)
            present = (node in adds_a) == (node in adds_b)
            if present and self._same(value_a, value_b):
                continue
            if not present:
                text = f"{_where(node)} got a backup in {'A' if node in adds_a else 'B'} only"
            else:
                text = f"{_where(node)} gained {_num(value_a)} in A, {_num(value_b)} in B"
            return FirstDifference(
                record=k,
                iteration=ra["iteration"],
                kind="backup",
                divergence=None,
                depth=len(node),
                node=node,
                a={"path": path, "value": value_a},
                b={"path": path, "value": value_b},
                explanation=(
                    f"iteration {ra['iteration']:,}: the same path, but the backups differ "
                    f"(each from the view of the player who moved into the node, in [-1, 1]): "
                    f"{text}"
                ),
            )
        return None

    def _adds(self, side: _Side, record: dict[str, Any]) -> dict[tuple[str, ...], float | None]:
        adds: dict[tuple[str, ...], float | None] = {}
        for item in record.get("backup", ()):
            i = side.i(item["node"])
            value = side.edge_value(i, item.get("add"))
            key = side.keys[i]
            previous = adds.get(key)
            adds[key] = _round(value if previous is None or value is None else previous + value)
        return adds


def _node_differences(
    a: _Side, b: _Side, tolerance: float, max_listed: int
) -> tuple[list[NodeDifference], dict[str, int]]:
    found: list[NodeDifference] = []
    for key, i in a.by_key.items():
        j = b.by_key.get(key)
        stats_a = a.stats(i)
        if j is None:
            found.append(NodeDifference(key, "only_a", (), stats_a, None))
            continue
        stats_b = b.stats(j)
        fields = tuple(_differing(stats_a, stats_b, tolerance))
        if fields:
            found.append(NodeDifference(key, "changed", fields, stats_a, stats_b))
    for key, j in b.by_key.items():
        if key not in a.by_key:
            found.append(NodeDifference(key, "only_b", (), None, b.stats(j)))
    counts = {"changed": 0, "only_a": 0, "only_b": 0}
    for item in found:
        counts[item.kind] += 1

    def visits(item: NodeDifference) -> int:
        return max(int(side["visits"]) for side in (item.a, item.b) if side is not None)

    found.sort(key=lambda item: (len(item.path), -visits(item), item.path))
    return found[:max_listed], counts


def _differing(x: dict[str, Any], y: dict[str, Any], tolerance: float) -> Iterable[str]:
    if x["visits"] != y["visits"]:
        yield "visits"
    for name in ("mean", "proven"):
        vx, vy = x[name], y[name]
        if (vx is None) != (vy is None) or (
            vx is not None and vy is not None and abs(vx - vy) > tolerance
        ):
            yield name


# ------------------------------------------------------------------ words


def _number(value: object) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 12)


def _num(value: object) -> str:
    """A number in a sentence: signed, 3 decimals; short scientific form for the very small
    or large; ``?`` when not recorded."""
    if not _number(value):
        return "?" if value is None else str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if value != 0 and not 1e-3 <= abs(value) < 1e6:
        return f"{value:+.3e}"
    return f"{value:+.3f}"


def node_text(node: tuple[str, ...] | list[str] | None, root: str = "the root") -> str:
    """An action path for a person: its labels joined by spaces (by " > " when a label holds a
    space), a label with a control character quoted; ``root`` for the root."""
    if not node:
        return root
    labels = [label if label.isprintable() else repr(label) for label in node]
    return (" > " if any(" " in label for label in labels) else " ").join(labels)


def _where(node: tuple[str, ...] | None) -> str:
    return node_text(node)


def _term_text(rule: str | None, terms: dict[str, Any] | None) -> str:
    """``UCT +1.412 = Q +0.500 + U 0.912, n 5`` from the recorded terms (only what was
    recorded; the score is Q + U when the writer gave no score)."""
    if terms is None:
        return "not among its children"
    q: object = terms.get("q")
    bonus: object = terms.get("bonus")
    score: object = terms.get("score")
    if score is None and _number(q) and _number(bonus):
        score = float(q) + float(bonus)
    text = f"{(rule or 'score').upper()} {_num(score)}" if _number(score) else ""
    if _number(q) and _number(bonus):
        sign = "+" if float(bonus) >= 0 else "-"
        text += (" = " if text else "") + f"Q {_num(q)} {sign} U {_num(abs(float(bonus)))[1:]}"
    elif _number(q):
        text += (", " if text else "") + f"Q {_num(q)}"
    if terms.get("visits") is not None:
        text += (", " if text else "") + f"n {terms['visits']}"
    return text or "no terms recorded"


def _path_sentence(
    iteration: int,
    depth: int,
    node: tuple[str, ...],
    kind: DivergenceKind,
    a: dict[str, Any],
    b: dict[str, Any],
) -> str:
    head = f"iteration {iteration:,}, at {_where(node)} (depth {depth}, {kind})"
    if kind == "chance":
        return f"{head}: A drew {a['choice']}, B drew {b['choice']}"
    if kind == "expansion":
        return f"{head}: A expanded {a['choice'][1:]}, B expanded {b['choice'][1:]}"
    return f"{head}: {_side_sentence('A', a, b)}; {_side_sentence('B', b, a)}"


def _side_sentence(name: str, mine: dict[str, Any], other: dict[str, Any]) -> str:
    choice = mine["choice"]
    if choice.startswith("stop"):
        return f"{name} stopped there {choice[5:]}"
    if choice.startswith("+"):
        return f"{name} expanded {choice[1:]}"
    by_action = {row["action"]: row for row in mine["terms"]}
    said = f"{name} selected {choice}"
    if not mine["terms"]:
        return said + " (no terms recorded)"
    said += f" ({_term_text(mine['rule'], by_action.get(choice))})"
    rival = other["choice"].lstrip("+")
    if rival != choice and not rival.startswith("stop"):
        rival_terms = by_action.get(rival)
        said += (
            f" over {rival} ({_term_text(mine['rule'], rival_terms)})"
            if rival_terms is not None
            else f"; it had not tried {rival}"
        )
    return said
