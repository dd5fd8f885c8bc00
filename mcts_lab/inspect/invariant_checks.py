"""The checks from what every MCTS guarantees, whatever its bugs: the tree's structure, what a
UCT or PUCT selection must do with the numbers it had, and what a running mean and a finished
game are worth.

They name causes, so the registry (``mcts_lab/inspect/checks.py``) runs them before the checks
of the tree's arithmetic, whose findings usually follow from them. Each is exact (no
statistics): a correct search never trips one beyond a writer's rounding (1e-6 of the value
range's width). docs/trace_format.md's table "What inspect checks" gives each bound.

Structure (:func:`check_structure`):

- ``backup``: an iteration record whose ``backup`` gave no value to some node of its ``path``
  (a backup loop that stops below the root, at the leaf's parent, ...): every node the
  iteration visited gets the leaf's value.
- ``duplicate_move``: two children of one node with the same move (or the same outcome of a
  chance node): the move was expanded twice, and its visits are split between two nodes.
- ``illegal_move``: children below a node marked finished (``player`` -1); with a game named,
  the rules check finds those below a position the game says is over. Named with the
  iteration that added the first, and the later checks leave that subtree alone.
- ``stall``: the root has fewer visits than the search's iterations (every iteration visits
  the root at least once, up to ``visits_per_iteration`` times; more is allowed: a tree
  reused from an earlier search keeps its visits). Where the file states UCT, the detail
  names the finished game UCT with its C reaches walking down the final tree: the one a
  stalled search selects again and again (``imparaai-montecarlo`` 1.3.1).

Selection:

- ``unvisited`` (:func:`check_unvisited`, a file that states UCT:
  ``selection_checks.states_uct``): UCT's bonus ``C sqrt(ln N / n)`` is infinite at
  ``n = 0``, so an unvisited child wins against every visited one (unless the settings name
  another first-play rule: ``first_play`` or ``fpu``). A recorded decision that chose a
  visited child beside an unvisited one, or (tree only) a child left at 0 visits while a
  sibling was chosen again (more than ``visits_per_iteration`` visits), is reported.
- ``term`` (:func:`check_terms`, the rule :func:`term_rule` reads: UCT with its C, or PUCT
  with ``c`` or AlphaZero's ``pb_c_init`` and ``pb_c_base``): each recorded ``bonus``
  against the formula from the records' visits and the tree's prior (a recorded prior that is
  not the tree's is itself reported), each recorded ``q`` of a visited child against the
  running statistics the backups give (their sums over the visits so far, from the mover's
  view; a Q that is the other player's view is named so): a term that differs beyond
  rounding is reported with both numbers (a bonus with ``N`` for ``ln N``, ``1 + n`` without
  its parentheses, a stale Q, a node reading the other player's wins).

Values:

- ``running_mean`` (:func:`check_running_means`): a node's mean against the mean of the leaf
  values its records backed up through it (each record's leaf value turned to the node's view,
  else its ``backup`` add), where the records cover the whole search one visit an iteration;
  the detail names the first iteration whose decision read a Q of the node off those values
  (a virtual loss never removed, an incremental mean dividing by the wrong count). It runs
  before ``term``, which leaves the Q of the nodes it flagged to it.
- ``terminal`` (:func:`check_finished_values`): a finished game's mean is its result by the
  named game's rules (win the range's high end, loss the low, a draw the middle), the same on
  every visit; a finished leaf valued by a rollout of more than 0 moves is reported with its
  iteration.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from mcts_lab.inspect.anomalies import (
    VALUE_TOLERANCE,
    AnomalyLog,
    FileFacts,
    below_finished,
    game_and_root,
    node_label,
    other_view,
    visits_per_iteration,
)
from mcts_lab.inspect.selection_checks import states_uct, uct_constant
from mcts_lab.inspect.tree_walk import added_at, at_iteration, subtree_ids
from mcts_lab.traces.format import Trace
from mcts_lab.traces.values import node_players, value_range

__all__ = [
    "TermRule",
    "check_finished_values",
    "check_running_means",
    "check_structure",
    "check_terms",
    "check_unvisited",
    "term_rule",
    "visits_per_iteration",
]

#: The settings that name a first-play rule other than UCT's "an unvisited child first".
FIRST_PLAY_KEYS = ("first_play", "fpu")
#: A recorded term may differ from the recomputed one by this much (of the range's width for Q,
#: relative for the bonus): a writer's rounding to 3 decimals.
TERM_TOLERANCE = 1e-3


# ------------------------------------------------------------------ structure


def check_structure(facts: FileFacts, r: AnomalyLog) -> None:
    """``backup``, ``duplicate_move``, ``illegal_move`` (below a node marked finished) and
    ``stall``: the module's docstring."""
    trace = facts.trace
    nodes, children = trace.nodes, trace.children
    _check_backups(trace, r)
    added = added_at(trace)
    for i, kids in enumerate(children):
        seen: dict[tuple[str, object], int] = {}
        for k in kids:
            key = _move_key(nodes[k])
            if key is None:
                continue
            if key not in seen:
                seen[key] = k
                continue
            first = seen[key]
            a, b = nodes[first]["id"], nodes[k]["id"]
            r.add(
                "duplicate_move",
                nodes[i]["id"],
                f"move {node_label(nodes[k])} expanded twice: nodes {a}{at_iteration(added, a)} "
                f"and {b}{at_iteration(added, b)}, with {nodes[first]['visits']} and "
                f"{nodes[k]['visits']} visits (an untried move not removed when expanded?)",
            )
            r.explain(subtree_ids(trace, first) | subtree_ids(trace, k))
    for i, node in enumerate(nodes):
        if node.get("player") == -1 and children[i] and node.get("kind") != "chance":
            below_finished(trace, i, r)
    _check_root_visits(facts, r)


def _move_key(node: dict[str, Any]) -> tuple[str, object] | None:
    action = node.get("action")
    if isinstance(action, int) and not isinstance(action, bool):
        return ("action", action)
    move = node.get("move")
    return None if move is None else ("move", move)


def _check_backups(trace: Trace, r: AnomalyLog) -> None:
    for record in trace.records:
        items = record.get("backup")
        if items is None:
            continue
        given = {item["node"] for item in items}
        missing = [node_id for node_id in record["path"] if node_id not in given]
        if not missing:
            continue
        lowest = next((n for n in record["path"] if n in given), None)
        stop = f", stopping at node {lowest}" if lowest is not None else ""
        r.add(
            "backup",
            missing[0],
            f"iteration {record['iteration']}: the backup gave no value to node"
            f"{'s' if len(missing) > 1 else ''} {', '.join(map(str, missing))} of the path "
            f"{record['path']}{stop}: every node the iteration visited gets the leaf's value "
            "(a backup loop that ends before the root?)",
        )


def _check_root_visits(facts: FileFacts, r: AnomalyLog) -> None:
    trace = facts.trace
    iterations = trace.header.get("iterations")
    if trace.records:
        iterations = max(len(trace.records), iterations if isinstance(iterations, int) else 0)
    if not isinstance(iterations, int) or isinstance(iterations, bool) or iterations < 1:
        return
    visits = int(trace.nodes[trace.root]["visits"])
    # each iteration gives the root at least one visit, up to visits_per_iteration: the bound
    # is the least, so a declared expansion rollout never hides a stall nor raises one
    if visits < iterations:
        reached = _reselected_finished(facts)
        cause = (
            "a search that stopped searching, e.g. one that selects a finished game again and "
            "again without backing it up, or a backup that ends below the root?"
        )
        if reached is not None:
            cause = (
                f"UCT with the file's C on the final statistics selects {reached}, a finished "
                "game: a search that selects it again and again without backing it up (or "
                "expanding anything) does nothing from then on"
            )
        r.add(
            "stall",
            trace.nodes[trace.root]["id"],
            f"the root has {visits:,} visits after {iterations:,} iterations: "
            f"at least {iterations - visits:,} iterations gave it none (every iteration visits "
            f"the root: {cause})",
        )


def _reselected_finished(facts: FileFacts) -> str | None:
    """Where UCT with the file's C, walking down from the root on the final statistics (Q from
    the mover's view, an unvisited child first), ends when that is a finished game (a node
    marked with player -1), as the words "node N (after 'a', 'b')"; else ``None``."""
    trace = facts.trace
    c = uct_constant(trace)
    if c is None:
        return None
    nodes, children = trace.nodes, trace.children
    players = node_players(trace)
    at, moves = trace.root, []
    while children[at] and players[at] >= 0 and nodes[at].get("kind") != "chance":
        big_n = max(int(nodes[at]["visits"]), 1)
        best, best_score = None, -math.inf
        for k in children[at]:
            n = int(nodes[k]["visits"])
            total = facts.sums[k][players[at]] if players[at] < len(facts.sums[k]) else None
            if not n:
                score = math.inf
            elif total is None:
                return None
            else:
                score = total / n + c * math.sqrt(math.log(big_n) / n)
            if score > best_score:
                best, best_score = k, score
        if best is None:
            return None
        at = best
        moves.append(node_label(nodes[at]))
    if players[at] != -1 or children[at]:
        return None
    after = f" (after {', '.join(moves)})" if moves else ""
    n = int(nodes[at]["visits"])
    return f"node {nodes[at]['id']}{after} with {n:,} visit{'s' if n != 1 else ''}"


# ------------------------------------------------------------------ selection


def _first_play_stated(trace: Trace) -> bool:
    settings = trace.header.get("settings") or {}
    return any(settings.get(key) is not None for key in FIRST_PLAY_KEYS)


def _replay(trace: Trace) -> Iterator[tuple[dict[str, Any], dict[int, int], dict[int, float]]]:
    """Each record with the visits and value sums (each node's own view, the backups' adds)
    every node had before it; nothing unless the records start at 1 without a gap and one
    iteration gives one visit (``visits_per_iteration`` 1)."""
    records = trace.records
    if not records or records[0]["iteration"] != 1 or visits_per_iteration(trace) > 1:
        return  # a path's nodes got one visit each only when one iteration gives one
    if any(
        b["iteration"] != a["iteration"] + 1 for a, b in zip(records, records[1:], strict=False)
    ):
        return
    visits: dict[int, int] = {}
    sums: dict[int, float] = {}
    for record in records:
        yield record, visits, sums
        for node_id in record["path"]:
            visits[node_id] = visits.get(node_id, 0) + 1
        for item in record.get("backup", ()):
            sums[item["node"]] = sums.get(item["node"], 0.0) + float(item["add"])


def check_unvisited(facts: FileFacts, r: AnomalyLog) -> None:
    """``unvisited``: under UCT an unvisited child wins against every visited one."""
    trace = facts.trace
    if _first_play_stated(trace) or not states_uct(trace):
        return
    nodes, index = trace.nodes, trace.index
    flagged: set[int] = set()
    for record, visits, _ in _replay(trace):
        for decision in record.get("decisions", ()):
            if decision.get("rule") not in (None, "uct", "ucb1") or decision["node"] in flagged:
                continue
            counts = {
                t["node"]: int(t.get("visits", visits.get(t["node"], 0)))
                for t in decision.get("children", ())
            }
            chosen = decision["chosen"]
            zero = [k for k, n in counts.items() if n == 0 and k in index]
            if zero and counts.get(chosen, 0) > 0 and chosen in index:
                flagged.add(decision["node"])
                r.add(
                    "unvisited",
                    decision["node"],
                    f"iteration {record['iteration']}: chose {node_label(nodes[index[chosen]])} "
                    f"({counts[chosen]} visits) beside {len(zero)} unvisited "
                    f"(e.g. {node_label(nodes[index[zero[0]]])}): UCT's bonus C sqrt(ln N / n) "
                    "is infinite at n = 0, so an unvisited child comes first",
                )
    players = node_players(trace)
    most = visits_per_iteration(trace)
    for i, node in enumerate(nodes):
        kids = trace.children[i]
        if node["id"] in flagged or len(kids) < 2 or players[i] < 0:
            continue
        if node.get("kind") == "chance" or node.get("proven") is not None:
            continue  # outcomes are drawn, not chosen; a solver stops at a proven node
        if any(nodes[k].get("proven") is not None for k in kids):
            continue  # a solver skips proven children
        zero = [k for k in kids if nodes[k]["visits"] == 0]
        top = max(kids, key=lambda k: nodes[k]["visits"])
        if zero and nodes[top]["visits"] > most:
            r.add(
                "unvisited",
                node["id"],
                f"{len(zero)} of its {len(kids)} moves (e.g. {node_label(nodes[zero[0]])}) have "
                f"0 visits while {node_label(nodes[top])} took {nodes[top]['visits']:,}: UCT "
                "tries every move before it chooses one again (an unvisited child's bonus is "
                "infinite)",
            )


@dataclass(frozen=True)
class TermRule:
    """The score rule a file states, for recomputing its recorded bonuses: ``name`` "uct"
    (``c sqrt(ln N / n)``, ucb1's C folded in) or "puct" (``c P sqrt(N) / (1 + n)``; with
    ``pb_c_base`` AlphaZero's growing ``c = pb_c_init + ln((N + pb_c_base + 1) / pb_c_base)``),
    ``rules`` the decisions' ``rule`` values it covers (and none named)."""

    name: str
    c: float
    base: float | None = None

    @property
    def rules(self) -> tuple[str, ...]:
        return ("uct", "ucb1") if self.name == "uct" else ("puct",)

    def c_at(self, big_n: int) -> float:
        if self.base is None:
            return self.c
        return self.c + math.log((big_n + self.base + 1) / self.base)

    def bonus(self, big_n: int, n: int, prior: float | None) -> float | None:
        """The bonus of a child with ``n`` visits at a node with ``big_n`` (``None``: not
        defined there: UCT at ``n = 0``, PUCT without a prior)."""
        if self.name == "uct":
            return self.c * math.sqrt(math.log(big_n) / n) if n >= 1 and big_n >= 1 else None
        if prior is None:
            return None
        return self.c_at(big_n) * prior * math.sqrt(big_n) / (1 + n)

    def formula(self, big_n: int, n: int, prior: float | None) -> str:
        if self.name == "uct":
            return f"C sqrt(ln N / n) = {self.c:.4g} sqrt(ln {big_n} / {n})"
        c = f"{self.c_at(big_n):.6g}" + ("" if self.base is None else " (AlphaZero's c at N)")
        return f"c P sqrt(N) / (1 + n) = {c} x {prior:.6g} x sqrt({big_n}) / (1 + {n})"


def term_rule(trace: Trace) -> TermRule | None:
    """The rule whose terms :func:`check_terms` recomputes: UCT where the file states it with
    a C (``selection_checks.uct_constant``); PUCT where its settings name ``tree_policy``
    "puct" (or name none and a record names the rule "puct", none another) with a positive
    ``c``, or AlphaZero's ``pb_c_init`` and ``pb_c_base``; else ``None``."""
    c = uct_constant(trace)
    if c is not None:
        return TermRule("uct", c)
    settings = trace.header.get("settings") or {}
    policy = settings.get("tree_policy")
    if policy is None:
        named = {
            decision.get("rule")
            for record in trace.records
            for decision in record.get("decisions", ())
        } - {None}
        if named != {"puct"}:
            return None
    elif policy != "puct":
        return None
    init, base = _positive(settings.get("pb_c_init")), _positive(settings.get("pb_c_base"))
    if init is not None and base is not None:
        return TermRule("puct", init, base)
    c = _positive(settings.get("c"))
    return None if c is None else TermRule("puct", c)


def _positive(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value) if value > 0 and math.isfinite(value) else None


def check_terms(facts: FileFacts, r: AnomalyLog) -> None:
    """``term``: recorded ``q`` and ``bonus`` against the running statistics and the stated
    rule's formula (UCT or PUCT, :func:`term_rule`; records from iteration 1 without a gap).
    The bonus needs the paths alone; Q the backups (every record's), and is left to the
    ``running_mean`` check at a node whose mean it found wrong."""
    trace = facts.trace
    rule = term_rule(trace)
    if rule is None:
        return
    with_q = all(record.get("backup") is not None for record in trace.records)
    nodes, index = trace.nodes, trace.index
    players = node_players(trace)
    low, high = value_range(trace)
    tol = TERM_TOLERANCE * (high - low)
    two = int(trace.header.get("players", 2)) == 2
    mirror = two and bool(trace.header.get("values", {}).get("zero_sum", True))
    explained = facts.memo.get("running_mean_nodes", set())
    for record, visits, sums in _replay(trace):
        for decision in record.get("decisions", ()):
            if decision.get("rule") not in (None, *rule.rules):
                continue
            at = index.get(decision["node"])
            if at is None or players[at] < 0:
                continue
            mover = players[at]
            terms = decision.get("children", ())
            parent_n = visits.get(decision["node"], 0)
            children_n = sum(visits.get(t["node"], 0) for t in terms)
            for t in terms:
                k = index.get(t["node"])
                n = visits.get(t["node"], 0)
                if k is None or "proof" in t or nodes[k].get("proven") is not None:
                    continue
                found = _prior_finding(t, nodes[k]) if rule.name == "puct" else None
                if found is None and n >= 1 and with_q and t["node"] not in explained:
                    q = sums.get(t["node"], 0.0) / n
                    if facts.views[k] == mover or mirror:
                        q = q if facts.views[k] == mover else other_view(q, low, high)
                        found = _q_finding(t.get("q"), q, n, mover, low, high, tol, mirror)
                if found is None:
                    prior = _prior(t, nodes[k])
                    found = _bonus_finding(t, rule, n, prior, parent_n, children_n)
                if found is not None:
                    r.add(
                        "term",
                        decision["node"],
                        f"iteration {record['iteration']}, move {node_label(nodes[k])}: {found}",
                    )
                    break  # one finding per decision
        if with_q and not _backup_follows_leaf(record, facts, low, high, mirror):
            return  # later running statistics carry a wrong backup: the records check's finding


def _prior(t: dict[str, Any], node: dict[str, Any]) -> float | None:
    """A child's prior: the tree's (the node's ``prior``), else the one the decision recorded."""
    for value in (node.get("prior"), t.get("prior")):
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
    return None


def _prior_finding(t: dict[str, Any], node: dict[str, Any]) -> str | None:
    recorded, tree = t.get("prior"), node.get("prior")
    if not isinstance(recorded, int | float) or not isinstance(tree, int | float):
        return None
    if abs(recorded - tree) <= TERM_TOLERANCE:
        return None
    return (
        f"the decision used prior {recorded:.6g}, the tree's prior of the move is {tree:.6g} "
        "(priors matched to the wrong children: a policy vector in another order?)"
    )


def _q_finding(
    recorded: Any, q: float, n: int, mover: int, low: float, high: float, tol: float, mirror: bool
) -> str | None:
    """What is wrong with a recorded Q against the running mean ``q`` (the mover's view)."""
    if not isinstance(recorded, int | float) or isinstance(recorded, bool):
        return None
    if abs(recorded - q) <= tol:
        return None
    other = other_view(q, low, high)
    if mirror and abs(recorded - other) <= tol:
        return (
            f"recorded Q {recorded:+.6g} is the other player's view: the backups so far give "
            f"{q:+.6g} over {n} visit{'s' if n != 1 else ''} from the mover's (player {mover}'s) "
            f"view, {other:+.6g} from player {1 - mover}'s. The selection read the child's value "
            "from the wrong player's view (whose results a node reads as its wins?)"
        )
    return (
        f"recorded Q {recorded:+.6g}, but the backups so far give {q:+.6g} over {n} visits "
        "(mover's view): a virtual loss never removed, or a stale Q?"
    )


def _backup_follows_leaf(
    record: dict[str, Any], facts: FileFacts, low: float, high: float, mirror: bool
) -> bool:
    """Whether every value the record backed up is its leaf's value from that node's view
    (``True`` when the record does not say the leaf's value)."""
    trace = facts.trace
    leaf = trace.index.get(record.get("leaf", record["path"][-1]))
    value = record.get("leaf_value")
    if leaf is None or not isinstance(value, int | float) or not mirror:
        return True
    tol = VALUE_TOLERANCE * (high - low) * 4
    for item in record.get("backup", ()):
        at = trace.index.get(item["node"])
        if at is None:
            continue
        want = value if facts.views[at] == facts.views[leaf] else other_view(value, low, high)
        if abs(float(item["add"]) - want) > tol:
            return False
    return True


def _bonus_finding(
    t: dict[str, Any],
    rule: TermRule,
    n: int,
    prior: float | None,
    parent_n: int,
    children_n: int,
) -> str | None:
    """What is wrong with one child's recorded bonus, or ``None`` (N: the node's visits so far
    or its children's, either accepted)."""
    bonus = t.get("bonus")
    if not isinstance(bonus, int | float) or isinstance(bonus, bool):
        return None
    options = {big: rule.bonus(big, n, prior) for big in {parent_n, children_n}}
    known = {big: b for big, b in options.items() if b is not None}
    if not known or any(
        abs(bonus - b) <= TERM_TOLERANCE * max(1.0, abs(b)) for b in known.values()
    ):
        return None
    big_n = parent_n if parent_n in known else next(iter(known))
    why = (
        "N_parent in place of ln N_parent, or another formula than UCT's?"
        if rule.name == "uct"
        else "1 + n without its parentheses, a prior of another move, or another formula?"
    )
    return (
        f"recorded bonus {bonus:.6g}, but {rule.formula(big_n, n, prior)} = "
        f"{known[big_n]:.6g} from the records ({why})"
    )


# ------------------------------------------------------------------ values


def check_running_means(facts: FileFacts, r: AnomalyLog) -> None:
    """``running_mean``: a node's mean that is not the mean of the leaf values backed up
    through it. From iteration 1 without a gap (one visit a iteration), every record's leaf
    value (``leaf_values``, or ``leaf_value`` turned to each node's view: two players,
    zero-sum; without either, the record's ``backup`` adds) goes to every node its backup names
    (its path without a ``backup``). Where the records cover the whole search, a node whose
    visits they account for must end with the mean of those values; the detail names the first
    iteration where a decision's recorded Q of the node already differed. A record whose adds
    are not its leaf's values stops the check (the records check's ``wrong_view``)."""
    trace = facts.trace
    records = trace.records
    if not _fresh(trace) or visits_per_iteration(trace) > 1:
        return
    nodes, index = trace.nodes, trace.index
    players = node_players(trace)
    low, high = value_range(trace)
    width = max(high - low, 1e-12)
    visits: dict[int, int] = {}
    sums: dict[int, float] = {}
    first_off: dict[int, tuple[int, float, float, int]] = {}  # the mover's view
    for record in records:
        for decision in record.get("decisions", ()):
            at = index.get(decision["node"])
            if at is None or players[at] < 0:
                continue
            for t in decision.get("children", ()):
                node_id, q = t["node"], t.get("q")
                k, n = index.get(node_id), visits.get(node_id, 0)
                if k is None or n < 1 or node_id in first_off or "proof" in t:
                    continue
                if not isinstance(q, int | float) or nodes[k].get("proven") is not None:
                    continue
                mean = _view_of(sums.get(node_id, 0.0) / n, facts.views[k], players[at], trace)
                if mean is not None and abs(q - mean) > TERM_TOLERANCE * width:
                    first_off[node_id] = (record["iteration"], float(q), mean, n)
        values = _backed_up(record, facts, low, high)
        if values is None:
            return
        for node_id, value in values.items():
            visits[node_id] = visits.get(node_id, 0) + 1
            sums[node_id] = sums.get(node_id, 0.0) + value
    declared = trace.header.get("iterations")
    if isinstance(declared, int) and declared != len(records):
        return  # records of part of the search: the visits before them are unknown
    flagged: set[int] = set()
    for i, node in enumerate(nodes):
        node_id, n = node["id"], int(node["visits"])
        own = _own_sum(node, facts.views[i])
        if not n or own is None or visits.get(node_id, 0) != n:
            continue
        expected = sums.get(node_id, 0.0)
        if abs(own - expected) <= VALUE_TOLERANCE * width * (1 + n):
            continue
        flagged.add(node_id)
        when = ""
        if node_id in first_off:
            it, q, mean, m = first_off[node_id]
            when = (
                f"; first off at iteration {it}, whose decision read Q {q:+.6g} where the "
                f"{m} leaf value{'s' if m != 1 else ''} before it give{'' if m != 1 else 's'} "
                f"{mean:+.6g} (mover's view)"
            )
        r.add(
            "running_mean",
            node_id,
            f"mean {own / n:+.6g} over {n} visit{'s' if n != 1 else ''} (player "
            f"{facts.views[i]}'s view), but the leaf values backed up through it give "
            f"{expected / n:+.6g}{when}: a running mean that does not follow from the leaf "
            "values (a virtual loss never removed, an incremental update dividing by the wrong "
            "count, a moving average, a discount the file does not state?)",
        )
    facts.memo["running_mean_nodes"] = flagged


def _fresh(trace: Trace) -> bool:
    """Records from iteration 1 without a gap."""
    records = trace.records
    if not records or records[0]["iteration"] != 1:
        return False
    pairs = zip(records, records[1:], strict=False)
    return all(b["iteration"] == a["iteration"] + 1 for a, b in pairs)


def _view_of(value: float, view: int, player: int, trace: Trace) -> float | None:
    """A value from player ``view``'s view as ``player`` sees it (``None``: no way to tell:
    not two players zero-sum)."""
    if view == player:
        return value
    values = trace.header.get("values", {})
    if int(trace.header.get("players", 2)) != 2 or not values.get("zero_sum", True):
        return None
    low, high = value_range(trace)
    return other_view(value, low, high)


def _backed_up(
    record: dict[str, Any], facts: FileFacts, low: float, high: float
) -> dict[int, float] | None:
    """Node id -> the value this record backed up through it, each from the node's own view
    (``None``: the record gives no leaf value and no adds, or adds that are not its leaf's)."""
    trace = facts.trace
    index, views = trace.index, facts.views
    items = record.get("backup")
    targets = [item["node"] for item in items] if items is not None else record["path"]
    per_player = record.get("leaf_values")
    count = int(trace.header.get("players", 2))
    leaf = index.get(record.get("leaf", record["path"][-1]))
    single = record.get("leaf_value")
    values: dict[int, float] = {}
    for node_id in targets:
        at = index.get(node_id)
        if at is None:
            return None
        if isinstance(per_player, list) and len(per_player) == count and 0 <= views[at] < count:
            values[node_id] = float(per_player[views[at]])
        elif isinstance(single, int | float) and leaf is not None:
            value = _view_of(float(single), views[leaf], views[at], trace)
            if value is None:
                return None
            values[node_id] = value
    if items is None:
        return values if len(values) == len(targets) else None
    tol = VALUE_TOLERANCE * (high - low) * 4
    for item in items:
        add = float(item["add"])
        if item["node"] not in values:
            values[item["node"]] = add  # no leaf value: the add is what was backed up
        elif abs(values[item["node"]] - add) > tol:
            return None
    return values


def _own_sum(node: dict[str, Any], view: int) -> float | None:
    """A node's value sum from its own view: ``mean`` x visits when the file gives a mean (the
    statistic a search keeps as a running mean), else ``value_sum``, else its view's
    ``value_sums``."""
    if "mean" in node:
        return float(node["mean"]) * int(node["visits"])
    if "value_sum" in node:
        return float(node["value_sum"])
    sums = node.get("value_sums")
    return float(sums[view]) if isinstance(sums, list) and 0 <= view < len(sums) else None


def check_finished_values(facts: FileFacts, r: AnomalyLog) -> None:
    """``terminal``: a finished leaf valued by a rollout; a finished game's mean against its
    result by the named game's rules."""
    trace = facts.trace
    nodes = trace.nodes
    finished = {i for i, node in enumerate(nodes) if node.get("player") == -1}
    results = _results_by_rules(facts)
    finished |= set(results)
    first_seen: dict[int, int] = {}
    reported: set[int] = set()
    for record in trace.records:
        leaf = trace.index.get(record.get("leaf", record["path"][-1]))
        if leaf is None or leaf not in finished or trace.children[leaf]:
            continue
        first_seen.setdefault(leaf, record["iteration"])
        moves = record.get("rollout_moves")
        if isinstance(moves, int) and moves > 0 and leaf not in reported:
            reported.add(leaf)
            r.add(
                "terminal",
                nodes[leaf]["id"],
                f"iteration {record['iteration']} valued this finished game by a rollout of "
                f"{moves} moves: a finished game's value is its result (a rollout of 0 moves; "
                "one from the parent's position?)",
            )
    low, high = value_range(trace)
    tol = VALUE_TOLERANCE * max(high - low, 1e-12)
    for i, (result, what) in sorted(results.items()):
        view = facts.views[i]
        visits = int(nodes[i]["visits"])
        total = facts.sums[i][view] if 0 <= view < len(facts.sums[i]) else None
        if i in reported or not visits or total is None or trace.children[i]:
            continue
        expected = low + (result[view] + 1) / 2 * (high - low)
        mean = total / visits
        if abs(mean - expected) > tol * (1 + visits):
            reported.add(i)
            when = f", first at iteration {first_seen[i]}" if i in first_seen else ""
            r.add(
                "terminal",
                nodes[i]["id"],
                f"a finished game ({what} by the game's rules: {expected:g} from player "
                f"{view}'s view) has a mean of {mean:.6g} over {visits} visits{when}: some "
                "visits scored it wrongly (a draw is the middle of the range)",
            )
    facts.memo["terminal_reported"] = {nodes[i]["id"] for i in reported}


def _results_by_rules(facts: FileFacts) -> dict[int, tuple[tuple[float, ...], str]]:
    """Node position -> the game's returns (per player, in [-1, 1]) and a word for them, for
    every node the named game says is finished (empty without a usable game)."""
    trace = facts.trace
    name = trace.header.get("game")
    if not isinstance(name, str):
        return {}
    try:
        game, state = game_and_root(trace, name)
    except (ValueError, ImportError, KeyError, TypeError):
        return {}
    nodes, children = trace.nodes, trace.children
    found: dict[int, tuple[tuple[float, ...], str]] = {}
    stack: list[tuple[int, Any]] = [(trace.root, state)]
    while stack:
        at, here = stack.pop()
        if game.is_terminal(here):
            returns = tuple(float(v) for v in game.returns(here))
            winner = returns.index(max(returns))
            word = "a draw" if len(set(returns)) == 1 else f"player {winner} won"
            found[at] = (returns, word)
            continue
        if nodes[at].get("kind") == "chance":
            continue  # outcomes below a chance node: not followed (rare, and legal by rules)
        legal = list(game.legal_actions(here))
        labels = {game.action_label(here, a): a for a in legal}
        for k in children[at]:
            child = nodes[k]
            if child.get("kind") == "chance":
                continue
            action = labels.get(child.get("move", ""))
            if action is None:
                continue
            outcomes = game.chance_outcomes(here, action)
            if len(outcomes) == 1:
                stack.append((k, game.next_state(here, action, outcomes[0][0])))
    return found
