"""The anomaly checks of ``mcts-lab inspect``: what is wrong in a trace file.

Each check reads a file's :class:`FileFacts` and adds to an :class:`AnomalyLog` anomalies
``{"kind", "node", "detail"}`` with the numbers; the registry
(``mcts_lab.inspect.checks.ANOMALY_CHECKS``: a record a check, with what it needs) runs them in
order. This module holds the checks
of the tree's arithmetic, proofs, records and rules; the statistical ones (``starved``,
``chance_counts``) are ``mcts_lab/inspect/statistics_checks.py``. The checks and their thresholds
(also in docs/trace_format.md, "What inspect checks"):

- ``visit_count``: a node with children whose visits are not its children's sum plus the
  rule's allowance (``visit_rule``: "leaf_visit" 0 or 1, "at_least" any surplus, "exact" 0;
  a proven node may have any surplus, the search stops there).
- ``value_range``: a mean outside ``values.range``; ``prior``: priors of one node's children
  (or probabilities of one chance node's outcomes) summing to more than 1 (by more than 1e-6
  a child: each may be rounded to 6 decimals).
- ``mean``: ``mean`` not equal to ``value_sum / visits`` (beyond 1e-6 of the range's width,
  room for a writer's rounding), or a value sum without visits.
- ``wrong_view`` / ``value_sum``: with ``values.backup = "mean"`` a parent's value sum is its
  children's sums plus its own leaf evaluations, each within the range, player by player.
  When that fails but holds with the children's players swapped, the values below the node
  are from the other player's view (``wrong_view``); otherwise the sums simply do not add up
  (``value_sum``). An iteration record whose backed-up value at a node is the other player's
  leaf value is ``wrong_view`` too.
- ``proven``: a proven value its children contradict: a child proven better for the player
  to move than the node itself, all legal moves proven and none as good as the node, or a
  chance node whose outcomes are all proven with a different expectation.
- ``starved``: a move whose mean beats a sibling's by more than both means' noise bounds
  (Hoeffding at ``DELTA``: ``w * sqrt(ln(2 / DELTA) / (2 n))`` for range width ``w`` and
  ``n`` visits, the sum of the two bounds) while the sibling took at least twice its visits;
  the detail says what UCT with the file's ``c`` would choose.
- ``chance_counts``: a chance node whose outcome counts a chi-square test rejects at
  ``DELTA`` (expected counts below 5 are pooled first; the unsampled outcomes are one bucket).
- ``iteration``: records inconsistent with the tree: a path through a node before it was
  added, a node added twice, iteration numbers that skip, a decision whose chosen child is
  not on the path or whose listed visits differ from the records before it, and (when the
  records cover the whole search) visits or value sums the backups do not add up to.
- ``terminal``: a finished game (player -1, no children) whose visits did not all give the
  same value: a mean that is not its own proven value, or two records valuing it differently
  (beyond 1e-6 of the range's width): some visits were scored wrongly.
- ``decision``: a recorded decision of a score rule (``uct``, ``ucb1``, ``puct``, or none named)
  that did not choose a child of the highest score it recorded (``score``, or ``q + bonus``),
  beyond 1e-6 of the scores' scale.
- ``illegal_move`` (a registered game named in the file): a move or outcome the game's rules
  do not allow at that position, or a node whose player is not the one to move.

``DELTA = 1e-9`` is the chance of a false alarm per test on a correct search; a tree of a
million nodes makes a few million tests, so a correct file raises one with a chance near 1 in
300 under the tests' assumptions.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from mcts_lab.inspect.tree_walk import added_at, subtree_ids
from mcts_lab.traces.format import Trace
from mcts_lab.traces.values import node_players, single_sum, value_range

__all__ = [
    "DELTA",
    "MAX_LISTED",
    "STRUCTURAL_KINDS",
    "VALUE_TOLERANCE",
    "AnomalyLog",
    "FileFacts",
    "check_decisions",
    "check_nodes",
    "check_proofs",
    "check_records",
    "check_terminals",
    "check_rules",
    "below_finished",
    "game_and_root",
    "node_label",
    "other_view",
]

#: The false-alarm probability of each statistical test (starved moves, chance counts).
DELTA = 1e-9
#: At most this many anomalies are listed (all are counted in ``anomaly_counts``).
MAX_LISTED = 1000
#: Relative tolerance on values: a writer may round to 6 decimals.
VALUE_TOLERANCE = 1e-6


class AnomalyLog:
    """The anomalies found, the root cause first: ``listed`` gives one example of every kind
    (in the order the kinds were first found, which is the registry's) before any kind's
    repetitions, at most ``limit`` (``MAX_LISTED`` unless asked); every kind is counted in
    ``counts``; ``truncated`` says some were left out of the list.

    ``explain(nodes, cause)``: a structural anomaly (a move expanded twice, moves below a
    finished game) explains what the later checks would find in those nodes; their findings
    there of a kind outside :data:`STRUCTURAL_KINDS` are not listed nor counted as anomalies,
    only in ``explained`` (how many were left out so)."""

    def __init__(self, limit: int = MAX_LISTED) -> None:
        self.limit = limit
        self.counts: Counter[str] = Counter()
        self.explained = 0
        self._explained_nodes: set[int] = set()
        self._first: dict[str, dict[str, Any]] = {}
        self._rest: list[dict[str, Any]] = []

    @property
    def listed(self) -> list[dict[str, Any]]:
        """The listed anomalies: each kind's first, then the repetitions in the order found."""
        firsts = list(self._first.values())[: self.limit]
        return firsts + self._rest[: self.limit - len(firsts)]

    @property
    def truncated(self) -> bool:
        return sum(self.counts.values()) > len(self.listed)

    def explain(self, nodes: set[int]) -> None:
        """Node ids whose later, non-structural findings a structural anomaly explains."""
        self._explained_nodes |= nodes

    def add(self, kind: str, node: int | None, detail: str) -> None:
        if node is not None and node in self._explained_nodes and kind not in STRUCTURAL_KINDS:
            self.explained += 1
            return
        self.counts[kind] += 1
        item = {"kind": kind, "node": node, "detail": detail}
        if kind not in self._first:
            self._first[kind] = item
        elif len(self._rest) < self.limit:
            self._rest.append(item)


#: The kinds that say the tree's shape is wrong (a cause the other checks' findings follow from).
STRUCTURAL_KINDS = frozenset({"duplicate_move", "illegal_move", "backup", "stall"})


@dataclass(frozen=True)
class FileFacts:
    """What every check reads of one file, worked out once: the checked ``trace``, each node's
    ``views`` (whose view its values are from: ``mcts_lab.traces.values.node_views``) and its
    ``sums`` (value sums per player, ``None`` where the file gives none:
    ``mcts_lab.traces.values.node_sums``); ``exact_seconds``, the budget for exact values when
    ``inspect --exact`` asks for them (``None``: not asked); ``memo``, what one check works out
    for another (the selection checks share their bound's findings)."""

    trace: Trace
    views: list[int]
    sums: list[list[float | None]]
    exact_seconds: float | None = None
    memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


def visits_per_iteration(trace: Trace) -> int:
    """The header's ``visits_per_iteration``: the most visits one iteration gives a node
    (default 1; a search that rolls out every new child at expansion declares its largest
    number of moves, a leaf parallel search its rollouts per leaf)."""
    value = trace.header.get("visits_per_iteration", 1)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else 1


def other_view(value: float, low: float, high: float) -> float:
    """The other player's view of a value in a two-player zero-sum range."""
    return low + high - value


# ------------------------------------------------------------------ the checks


def check_nodes(facts: FileFacts, r: AnomalyLog) -> None:
    """``visit_count``, ``value_range``, ``prior``, ``mean``, and ``wrong_view`` /
    ``value_sum`` of the node's sums, node by node."""
    trace, views, sums = facts.trace, facts.views, facts.sums
    nodes, children = trace.nodes, trace.children
    low, high = value_range(trace)
    width = max(high - low, 1e-12)
    tol = VALUE_TOLERANCE * width
    rule = trace.header.get("visit_rule", "leaf_visit")
    mean_backup = trace.header.get("values", {}).get("backup", "mean") == "mean"
    count = int(trace.header.get("players", 2))
    for i, node in enumerate(nodes):
        node_id = node["id"]
        visits = node["visits"]
        kids = children[i]
        # mean = sum / visits, values in range
        single = single_sum(node)
        if visits == 0:
            if (single and abs(single) > tol) or any(
                v is not None and abs(v) > tol for v in node.get("value_sums", ())
            ):
                r.add("mean", node_id, "a value sum on a node with 0 visits")
        else:
            if "value_sum" in node and "mean" in node:
                implied = node["value_sum"] / visits
                if abs(implied - node["mean"]) > tol:
                    r.add(
                        "mean",
                        node_id,
                        f"mean {node['mean']:.6g} but value_sum / visits = "
                        f"{node['value_sum']:.6g} / {visits} = {implied:.6g}",
                    )
            if "value_sums" in node and "mean" in node and 0 <= views[i] < len(node["value_sums"]):
                implied = node["value_sums"][views[i]] / visits
                if abs(implied - node["mean"]) > tol:
                    r.add(
                        "mean",
                        node_id,
                        f"mean {node['mean']:.6g} but value_sums[{views[i]}] / visits = "
                        f"{implied:.6g}",
                    )
            for player, total in enumerate(sums[i]):
                if total is None:
                    continue
                mean = total / visits
                if not low - tol <= mean <= high + tol:
                    r.add(
                        "value_range",
                        node_id,
                        f"player {player}'s mean {mean:.6g} is outside the range "
                        f"[{low:g}, {high:g}]",
                    )
                    break
        proven = node.get("proven")
        if proven is not None and not low - tol <= proven <= high + tol:
            r.add("value_range", node_id, f"proven value {proven:g} outside [{low:g}, {high:g}]")
        if not kids:
            continue
        # visits against the children's sum
        child_visits = sum(nodes[k]["visits"] for k in kids)
        surplus = visits - child_visits
        # the visits that ended at the node: one iteration's (up to visits_per_iteration)
        allowed_high = {"leaf_visit": visits_per_iteration(trace), "exact": 0}.get(rule, math.inf)
        if proven is not None or node.get("player") == -1:
            allowed_high = math.inf
        if rule != "none" and not 0 <= surplus <= allowed_high:
            most = visits_per_iteration(trace)
            leaf = "plus 0 or 1" if most == 1 else f"plus 0 to {most} (visits_per_iteration)"
            allowance = {"leaf_visit": leaf, "exact": "exactly", "at_least": "or more"}
            r.add(
                "visit_count",
                node_id,
                f"{visits} visits, its {len(kids)} children have {child_visits} "
                f"(rule {rule}: the children's sum {allowance.get(rule, '')})",
            )
        # priors and probabilities
        for key in ("prior", "probability"):
            total = sum(nodes[k][key] for k in kids if key in nodes[k])
            if total > 1 + VALUE_TOLERANCE * len(kids):  # each rounded to 6 decimals
                r.add("prior", node_id, f"its children's {key} values sum to {total:.6g} (> 1)")
        # value sums add up (player by player), or add up with the children's views swapped
        if mean_backup and surplus >= 0 and rule != "none":
            note = ""
            if i == trace.root and visits and all(total == 0 for total in sums[i]):
                # visits counted on the way down, values added by a backup loop that stops
                # below the root (``while node.parent is not None``)
                note = (
                    f": the root has {visits} visits but no value was ever added to it (a "
                    "backup that stops below the root?)"
                )
            _check_sums(i, kids, surplus, sums, count, low, high, width, r, node_id, note)


def _check_sums(
    i: int,
    kids: list[int],
    surplus: int,
    sums: list[list[float | None]],
    count: int,
    low: float,
    high: float,
    width: float,
    r: AnomalyLog,
    node_id: int,
    note: str = "",
) -> None:
    """``wrong_view`` or ``value_sum`` at node ``i`` (``note``: added to a ``value_sum``'s
    detail)."""

    def fits(player: int, child_player: int) -> tuple[bool, float] | None:
        parent_sum = sums[i][player]
        parts = [sums[k][child_player] for k in kids]
        if parent_sum is None or any(p is None for p in parts):
            return None
        children_sum = math.fsum(p for p in parts if p is not None)
        residual = parent_sum - children_sum
        tol = VALUE_TOLERANCE * width * (1 + surplus + len(kids)) + 1e-9 * abs(parent_sum)
        return low * surplus - tol <= residual <= high * surplus + tol, children_sum

    for player in range(count):
        straight = fits(player, player)
        if straight is None or straight[0]:
            continue
        parent_sum = sums[i][player]
        swapped = fits(player, 1 - player) if count == 2 else None
        if swapped is not None and swapped[0]:
            r.add(
                "wrong_view",
                node_id,
                f"player {player}'s value sum here is {parent_sum:.6g}, its children's "
                f"{straight[1]:.6g}: they add up only with the children's values taken from "
                f"the other player's view ({swapped[1]:.6g})",
            )
        else:
            r.add(
                "value_sum",
                node_id,
                f"player {player}'s value sum {parent_sum:.6g} is not its children's "
                f"{straight[1]:.6g} plus {surplus} leaf value(s) in [{low:g}, {high:g}]{note}",
            )
        return


def _proven_in(
    trace: Trace, views: list[int], i: int, player: int, low: float, high: float
) -> float | None:
    """Node ``i``'s proven value from ``player``'s view (``None``: unproven or unknown)."""
    proven = trace.nodes[i].get("proven")
    if proven is None:
        return None
    if views[i] == player:
        return float(proven)
    zero_sum = bool(trace.header.get("values", {}).get("zero_sum", True))
    if zero_sum and int(trace.header.get("players", 2)) == 2:
        return other_view(float(proven), low, high)
    return None


def check_proofs(facts: FileFacts, r: AnomalyLog) -> None:
    """``proven``: proven values their children contradict."""
    trace, views = facts.trace, facts.views
    nodes, children = trace.nodes, trace.children
    low, high = value_range(trace)
    tol = VALUE_TOLERANCE * max(high - low, 1e-12)
    players = node_players(trace)
    for i, node in enumerate(nodes):
        kids = children[i]
        if node.get("proven") is None or not kids:
            continue
        if node.get("kind") == "chance":
            outcomes = [
                (nodes[k].get("probability"), _proven_in(trace, views, k, views[i], low, high))
                for k in kids
            ]
            if any(p is None or v is None for p, v in outcomes):
                continue
            if abs(sum(p for p, _ in outcomes if p is not None) - 1) > VALUE_TOLERANCE:
                continue
            expected = sum(p * v for p, v in outcomes if p is not None and v is not None)
            mine = _proven_in(trace, views, i, views[i], low, high)
            if mine is not None and abs(expected - mine) > tol:
                r.add(
                    "proven",
                    node["id"],
                    f"proven {mine:g}, but its outcomes, all proven, give {expected:g}",
                )
            continue
        mover = players[i]
        if mover < 0:
            continue
        mine = _proven_in(trace, views, i, mover, low, high)
        if mine is None:
            continue
        values = [(k, _proven_in(trace, views, k, mover, low, high)) for k in kids]
        better = [(k, v) for k, v in values if v is not None and v > mine + tol]
        if better:
            k, v = max(better, key=lambda kv: kv[1] if kv[1] is not None else -math.inf)
            r.add(
                "proven",
                node["id"],
                f"proven {mine:g} for player {mover} (to move), but move "
                f"{node_label(nodes[k])} is proven {v:g} for them",
            )
            continue
        complete = node.get("num_actions") == len(kids)
        known = [v for _, v in values if v is not None]
        if complete and len(known) == len(kids) and max(known) < mine - tol:
            r.add(
                "proven",
                node["id"],
                f"proven {mine:g} for player {mover} (to move), but all {len(kids)} moves are "
                f"proven, the best {max(known):g}",
            )


def check_terminals(facts: FileFacts, r: AnomalyLog) -> None:
    """``terminal``: a finished game (``player`` -1, no children) whose visits did not all give
    the same value: its mean is not its own proven value, or two iteration records gave it
    different leaf values. Every visit of a finished game scores the same result, so either
    says the result was scored wrongly on some visits (a win scored as a loss)."""
    trace, views, sums = facts.trace, facts.views, facts.sums
    nodes, children = trace.nodes, trace.children
    low, high = value_range(trace)
    tol = VALUE_TOLERANCE * max(high - low, 1e-12)
    players = node_players(trace)
    finished = {
        i
        for i, node in enumerate(nodes)
        if players[i] < 0 and not children[i] and node.get("kind") != "chance"
    }
    already = facts.memo.get("terminal_reported", set())  # by the game's rules, first
    reached: dict[int, str] = {}  # a finished game -> the first iteration that valued it
    for record in trace.records:
        at = trace.index.get(record.get("leaf", record["path"][-1]))
        if at is not None:
            reached.setdefault(at, f", first valued at iteration {record['iteration']}")
    for i in sorted(finished):
        if nodes[i]["id"] in already:
            continue
        visits = int(nodes[i]["visits"])
        view = views[i]
        total = sums[i][view] if 0 <= view < len(sums[i]) else None
        proven = _proven_in(trace, views, i, view, low, high)
        if not visits or total is None or proven is None:
            continue
        mean = total / visits
        if abs(mean - proven) > tol:
            r.add(
                "terminal",
                nodes[i]["id"],
                f"a finished game proven {proven:g} (player {view}'s view) has a mean of "
                f"{mean:.6g} over {visits} visits{reached.get(i, '')}: every visit of a "
                "finished game gives the same value, so some were scored wrongly",
            )
    seen: dict[int, float] = {}
    for record in trace.records:
        leaf = trace.index.get(record.get("leaf", record["path"][-1]))
        value = record.get("leaf_value")
        if leaf not in finished or not isinstance(value, int | float):
            continue
        first = seen.setdefault(leaf, float(value))
        if abs(float(value) - first) > tol:
            r.add(
                "terminal",
                nodes[leaf]["id"],
                f"iteration {record['iteration']} valued this finished game at {value:.6g}, "
                f"an earlier one at {first:.6g}: a finished game has one value",
            )
            seen[leaf] = float(value)  # said once per change, not at every later record


#: The rules whose decision is the argmax of the recorded score (a recorded ``rule`` outside
#: these, a minimum-visits or solver rule or a writer's own, is not checked; none is).
SCORE_RULES = frozenset({"uct", "ucb1", "puct", "formula"})


def _score(terms: dict[str, Any]) -> float | None:
    """A child's recorded score: ``score``, else ``q + bonus``; ``None`` without either."""
    if isinstance(terms.get("score"), int | float):
        return float(terms["score"])
    q, bonus = terms.get("q"), terms.get("bonus")
    if isinstance(q, int | float) and isinstance(bonus, int | float):
        return float(q) + float(bonus)
    return None


def check_decisions(facts: FileFacts, r: AnomalyLog) -> None:
    """``decision``: a recorded decision of a score rule (``uct``, ``ucb1``, ``puct``, or no
    rule named) that did not choose a child of the highest score it recorded itself (``score``,
    or ``q + bonus``), beyond 1e-6 of the scores' scale: the selection ignored its own
    formula (always the first child, a stale or mis-indexed score)."""
    trace = facts.trace
    nodes, index = trace.nodes, trace.index
    for record in trace.records:
        for decision in record.get("decisions", ()):
            rule = decision.get("rule")
            if rule is not None and rule not in SCORE_RULES:
                continue
            scored = [(t["node"], _score(t)) for t in decision.get("children", ())]
            known = [(node, s) for node, s in scored if s is not None]
            chosen = next((s for node, s in known if node == decision["chosen"]), None)
            if chosen is None or len(known) < 2 or decision["chosen"] not in index:
                continue  # (a chosen child the tree lacks is an ``iteration`` anomaly)
            best_node, best = max(known, key=lambda item: item[1])
            tol = VALUE_TOLERANCE * max(1.0, abs(best), abs(chosen))
            if best > chosen + tol:
                where = index.get(decision["node"])
                label = node_label(nodes[index[decision["chosen"]]])
                other = node_label(nodes[index[best_node]]) if best_node in index else best_node
                r.add(
                    "decision",
                    None if where is None else nodes[where]["id"],
                    f"iteration {record['iteration']}: {rule or 'the rule'} chose {label} "
                    f"(score {chosen:.6g}) over {other} (score {best:.6g}), against the "
                    "scores it recorded",
                )


def check_records(facts: FileFacts, r: AnomalyLog) -> None:
    """``iteration`` (and a record's ``wrong_view``): the records against the tree (a file
    with records: the registry's ``Need.RECORDS``)."""
    trace, views = facts.trace, facts.views
    records = trace.records
    nodes, index = trace.nodes, trace.index
    low, high = value_range(trace)
    tol = VALUE_TOLERANCE * max(high - low, 1e-12)
    count = int(trace.header.get("players", 2))
    zero_sum = bool(trace.header.get("values", {}).get("zero_sum", True))
    mean_backup = trace.header.get("values", {}).get("backup", "mean") == "mean"
    fresh = records[0]["iteration"] == 1
    contiguous = True
    for before, after in zip(records, records[1:], strict=False):
        if after["iteration"] != before["iteration"] + 1:
            contiguous = False
            r.add(
                "iteration",
                None,
                f"iteration numbers jump from {before['iteration']} to {after['iteration']}",
            )
            break
    tracks_expansion = fresh and any("expanded" in record for record in records)
    root_id = nodes[trace.root]["id"]
    known = {root_id}
    replay_visits: Counter[int] = Counter()
    added: dict[int, float] = {}
    all_backups = True
    for record in records:
        number = record["iteration"]
        expanded = record.get("expanded", [])
        if tracks_expansion:
            for node_id in expanded:
                if node_id in known:
                    r.add("iteration", node_id, f"iteration {number} adds node {node_id} again")
                elif (
                    nodes[index[node_id]]["parent"] not in known
                    and nodes[index[node_id]]["parent"] not in expanded
                ):
                    r.add(
                        "iteration",
                        node_id,
                        f"iteration {number} adds node {node_id} below a node not added yet",
                    )
            new = set(expanded)
            for node_id in record["path"]:
                if node_id not in known and node_id not in new:
                    r.add(
                        "iteration",
                        node_id,
                        f"iteration {number}'s path goes through node {node_id}, which no "
                        "iteration before it added",
                    )
                    known.add(node_id)  # once is enough
            known.update(new)
        on_path = set(record["path"])
        for decision in record.get("decisions", ()):
            if decision["chosen"] not in on_path:
                r.add(
                    "iteration",
                    decision["node"],
                    f"iteration {number}: the decision at node {decision['node']} chose node "
                    f"{decision['chosen']}, which is not on the path",
                )
            if fresh and contiguous:
                for terms in decision.get("children", ()):
                    listed = terms.get("visits")
                    if listed is not None and listed != replay_visits[terms["node"]]:
                        r.add(
                            "iteration",
                            terms["node"],
                            f"iteration {number}: the decision at node {decision['node']} "
                            f"lists node {terms['node']} with {listed} visits; the records "
                            f"before it give {replay_visits[terms['node']]}",
                        )
        for node_id in record["path"]:
            replay_visits[node_id] += 1
        backups = record.get("backup")
        if backups is None:
            all_backups = False
        else:
            for item in backups:
                added[item["node"]] = added.get(item["node"], 0.0) + item["add"]
            if mean_backup:
                _check_leaf_values(trace, record, views, count, zero_sum, low, high, tol, r)
    header_iterations = trace.header.get("iterations")
    complete = (
        fresh and contiguous and (header_iterations is None or header_iterations == len(records))
    )
    if not complete:
        return
    explained = facts.memo.get("running_mean_nodes", set())  # its sums: that check's finding
    for i, node in enumerate(nodes):
        node_id = node["id"]
        got = replay_visits.get(node_id, 0)
        missing = node["visits"] - got
        if not 0 <= missing <= 1:
            r.add(
                "iteration",
                node_id,
                f"{node['visits']} visits, but the records visit it {got} times",
            )
            continue
        single = single_sum(node)
        if "value_sums" in node and 0 <= views[i] < len(node["value_sums"]):
            single = float(node["value_sums"][views[i]])
        checked = all_backups and mean_backup and node_id not in explained
        if checked and single is not None and node["visits"]:
            residual = single - added.get(node_id, 0.0)
            slack = tol * (1 + node["visits"])
            if not low * missing - slack <= residual <= high * missing + slack:
                r.add(
                    "iteration",
                    node_id,
                    f"value sum {single:.6g}, but the records' backups add up to "
                    f"{added.get(node_id, 0.0):.6g}",
                )


def _check_leaf_values(
    trace: Trace,
    record: dict[str, Any],
    views: list[int],
    count: int,
    zero_sum: bool,
    low: float,
    high: float,
    tol: float,
    r: AnomalyLog,
) -> None:
    """Each backed-up value is the leaf's value from that node's view."""
    per_player = record.get("leaf_values")
    if per_player is None or len(per_player) != count:
        leaf = record.get("leaf", record["path"][-1])
        value = record.get("leaf_value")
        if value is None or not (zero_sum and count == 2) or leaf not in trace.index:
            return
        leaf_view = views[trace.index[leaf]]
        per_player = [0.0, 0.0]
        per_player[leaf_view] = value
        per_player[1 - leaf_view] = other_view(value, low, high)
    for item in record["backup"]:
        view = views[trace.index[item["node"]]]
        if not 0 <= view < count:
            continue
        expected = per_player[view]
        if abs(item["add"] - expected) <= tol:
            continue
        if count == 2 and abs(item["add"] - per_player[1 - view]) <= tol:
            r.add(
                "wrong_view",
                item["node"],
                f"iteration {record['iteration']} added {item['add']:.6g} here: the leaf's "
                f"value for the other player; from player {view}'s view it is {expected:.6g}",
            )
        else:
            r.add(
                "iteration",
                item["node"],
                f"iteration {record['iteration']} added {item['add']:.6g} here; the leaf's "
                f"value from player {view}'s view is {expected:.6g}",
            )
        return  # one finding per record


def check_rules(facts: FileFacts, r: AnomalyLog) -> None:
    """Every move legal and every player right, when the file names a game (the registry's
    ``Need.GAME``; one that is not registered is itself an ``illegal_move``)."""
    from games.registry import game_spec

    trace = facts.trace
    name = str(trace.header["game"])
    try:
        game, state = game_and_root(trace, name)
    except (ValueError, ImportError, KeyError, TypeError) as error:
        r.add("illegal_move", None, f"the file's game or position cannot be used: {error}")
        return
    nodes, children = trace.nodes, trace.children
    indexed = game_spec(name).indexed_by_action  # action ids are the documented numbers
    stack: list[tuple[int, Any]] = [(trace.root, state)]
    while stack:
        at, here = stack.pop()
        node = nodes[at]
        terminal = game.is_terminal(here)
        player = node.get("player")
        if node.get("kind") != "chance" and player is not None:
            expected = -1 if terminal else game.current_player(here)
            if player != expected:
                r.add(
                    "illegal_move",
                    node["id"],
                    f"the node says player {player} moves; the game says {expected}",
                )
        kids = children[at]
        if not kids:
            continue
        if terminal:
            if player != -1:  # (a node marked finished is the structure check's)
                below_finished(trace, at, r)
            continue
        legal = list(game.legal_actions(here))
        by_index = {int(a): a for a in legal} if indexed else dict(enumerate(legal))
        by_label: dict[str, Any] | None = None
        for k in kids:
            child = nodes[k]
            number = child.get("action")
            action = by_index.get(number) if isinstance(number, int) else None
            if action is None:
                if by_label is None:
                    by_label = {game.action_label(here, a): a for a in legal}
                action = by_label.get(child.get("move", ""))
            if action is None:
                r.add(
                    "illegal_move",
                    child["id"],
                    f"move {node_label(child)} is not legal at {game.format_state(here)!r}",
                )
                continue
            outcomes = game.chance_outcomes(here, action)
            if child.get("kind") == "chance":
                labels = {game.outcome_label(here, action, o): o for o, _ in outcomes}
                for g in children[k]:
                    outcome = labels.get(nodes[g].get("move", ""))
                    if outcome is None:
                        r.add(
                            "illegal_move",
                            nodes[g]["id"],
                            f"outcome {node_label(nodes[g])} cannot follow {node_label(child)}",
                        )
                        continue
                    stack.append((g, game.next_state(here, action, outcome)))
                continue
            if len(outcomes) != 1:
                r.add(
                    "illegal_move",
                    child["id"],
                    f"move {node_label(child)} has {len(outcomes)} outcomes but no chance node",
                )
                continue
            stack.append((k, game.next_state(here, action, outcomes[0][0])))


def below_finished(trace: Trace, at: int, r: AnomalyLog) -> None:
    """``illegal_move``: children below the finished game at position ``at``, named with the
    iteration that added the first; the subtree's other findings follow from it."""
    added = added_at(trace)
    kids = trace.children[at]
    first = min(kids, key=lambda k: added.get(trace.nodes[k]["id"], 0))
    first_id = trace.nodes[first]["id"]
    when = f"iteration {added[first_id]}: " if first_id in added else ""
    r.add(
        "illegal_move",
        trace.nodes[at]["id"],
        f"{when}move {node_label(trace.nodes[first])} added below a finished game "
        f"({len(kids)} move{'s' if len(kids) != 1 else ''} below it): the game was over here",
    )
    r.explain(subtree_ids(trace, at))


def node_label(node: dict[str, Any]) -> str:
    """A node as an anomaly's detail names it: its move's label quoted, else ``#id``."""
    move = node.get("move")
    return repr(move) if move is not None else f"#{node['id']}"


def game_and_root(trace: Trace, name: str) -> tuple[Any, Any]:
    """The registered game a file names (with its size option) and the file's root state;
    ``ValueError`` (or the game's own error) when either cannot be used. No position in the
    file: the game's initial state (not the CLI's opening after a forced move: a file's root is
    where its writer started)."""
    from games.registry import game_spec
    from mcts_lab.common import build_game, parse_position

    game_spec(name)
    size = (trace.header.get("game_options") or {}).get("size")
    game = build_game(name, size if isinstance(size, int) else None)
    position = trace.header.get("position")
    return game, game.initial_state() if position is None else parse_position(game, position)
