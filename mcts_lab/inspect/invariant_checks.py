"""The checks from what every MCTS guarantees, whatever its bugs: the tree's structure, what
UCT's selection must do with the numbers it had, and what a finished game is worth.

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
  the root; more is allowed: a tree reused from an earlier search keeps its visits).

Selection, in a file that states UCT (``selection_checks.states_uct``):

- ``unvisited`` (:func:`check_unvisited`): UCT's bonus ``C sqrt(ln N / n)`` is infinite at
  ``n = 0``, so an unvisited child wins against every visited one (unless the settings name
  another first-play rule: ``first_play`` or ``fpu``). A recorded decision that chose a
  visited child beside an unvisited one, or (tree only) a child left at 0 visits while a
  sibling was chosen again (more than ``visits_per_iteration`` visits), is reported.
- ``term`` (:func:`check_terms`): each recorded ``q`` and ``bonus`` against the running
  statistics the records give (the backups' sums over the visits so far, from the mover's
  view) and UCT's formula with the file's C: a term that differs beyond rounding is reported
  with both numbers (a bonus with ``N`` for ``ln N``, a virtual loss never removed, a stale Q).

Values (:func:`check_finished_values`, ``terminal``): a finished game's mean is its result by
the named game's rules (win the range's high end, loss the low, a draw the middle), the same
on every visit; a finished leaf valued by a rollout of more than 0 moves is reported with its
iteration.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

from mcts_lab.inspect.anomalies import (
    VALUE_TOLERANCE,
    AnomalyLog,
    FileFacts,
    below_finished,
    game_and_root,
    node_label,
    other_view,
)
from mcts_lab.inspect.selection_checks import states_uct, uct_constant
from mcts_lab.inspect.tree_walk import added_at, at_iteration, subtree_ids
from mcts_lab.traces.format import Trace
from mcts_lab.traces.values import node_players, value_range

__all__ = [
    "check_finished_values",
    "check_structure",
    "check_terms",
    "check_unvisited",
    "visits_per_iteration",
]

#: The settings that name a first-play rule other than UCT's "an unvisited child first".
FIRST_PLAY_KEYS = ("first_play", "fpu")
#: A recorded term may differ from the recomputed one by this much (of the range's width for Q,
#: relative for the bonus): a writer's rounding to 3 decimals.
TERM_TOLERANCE = 1e-3


def visits_per_iteration(trace: Trace) -> int:
    """The header's ``visits_per_iteration``: the most visits one iteration gives a node
    (default 1; a search that rolls out every new child at expansion declares its largest
    number of moves)."""
    value = trace.header.get("visits_per_iteration", 1)
    return value if isinstance(value, int) and value >= 1 else 1


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
    _check_root_visits(trace, r)


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


def _check_root_visits(trace: Trace, r: AnomalyLog) -> None:
    iterations = trace.header.get("iterations")
    if trace.records:
        iterations = max(len(trace.records), iterations if isinstance(iterations, int) else 0)
    if not isinstance(iterations, int) or isinstance(iterations, bool) or iterations < 1:
        return
    visits = int(trace.nodes[trace.root]["visits"])
    if visits < iterations:
        r.add(
            "stall",
            trace.nodes[trace.root]["id"],
            f"the root has {visits:,} visits after {iterations:,} iterations: "
            f"{iterations - visits:,} iterations gave it none (every iteration visits the root: "
            "a search that stopped searching, or a backup that ends below the root?)",
        )


# ------------------------------------------------------------------ selection


def _first_play_stated(trace: Trace) -> bool:
    settings = trace.header.get("settings") or {}
    return any(settings.get(key) is not None for key in FIRST_PLAY_KEYS)


def _replay(trace: Trace) -> Iterator[tuple[dict[str, Any], dict[int, int], dict[int, float]]]:
    """Each record with the visits and value sums (each node's own view, the backups' adds)
    every node had before it; nothing unless the records start at 1 without a gap."""
    records = trace.records
    if not records or records[0]["iteration"] != 1:
        return
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


def check_terms(facts: FileFacts, r: AnomalyLog) -> None:
    """``term``: recorded ``q`` and ``bonus`` against the running statistics and UCT's formula
    (the file states UCT with a C; records from iteration 1 without a gap, every backup)."""
    trace = facts.trace
    c = uct_constant(trace)
    if c is None or any(record.get("backup") is None for record in trace.records):
        return
    nodes, index = trace.nodes, trace.index
    players = node_players(trace)
    low, high = value_range(trace)
    tol = TERM_TOLERANCE * (high - low)
    two = int(trace.header.get("players", 2)) == 2
    zero_sum = bool(trace.header.get("values", {}).get("zero_sum", True))
    for record, visits, sums in _replay(trace):
        for decision in record.get("decisions", ()):
            if decision.get("rule") not in (None, "uct", "ucb1"):
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
                if k is None or n < 1 or "proof" in t or nodes[k].get("proven") is not None:
                    continue
                q = sums.get(t["node"], 0.0) / n
                if facts.views[k] != mover:
                    if not (two and zero_sum):
                        continue
                    q = other_view(q, low, high)
                found = _term_finding(t, q, n, parent_n, children_n, c, tol)
                if found is not None:
                    r.add(
                        "term",
                        decision["node"],
                        f"iteration {record['iteration']}, move {node_label(nodes[k])}: {found}",
                    )
                    break  # one finding per decision
        if not _backup_follows_leaf(record, facts, low, high, two and zero_sum):
            return  # later running statistics carry a wrong backup: the records check's finding


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


def _term_finding(
    t: dict[str, Any], q: float, n: int, parent_n: int, children_n: int, c: float, tol: float
) -> str | None:
    """What is wrong with one child's recorded terms, or ``None``."""
    recorded_q = t.get("q")
    if isinstance(recorded_q, int | float) and abs(recorded_q - q) > tol:
        return (
            f"recorded Q {recorded_q:+.6g}, but the backups so far give {q:+.6g} over {n} "
            "visits (mover's view): a virtual loss never removed, or a stale Q?"
        )
    bonus = t.get("bonus")
    if not isinstance(bonus, int | float):
        return None
    options = [c * math.sqrt(math.log(big) / n) for big in {parent_n, children_n} if big >= 1]
    if not options or any(abs(bonus - b) <= TERM_TOLERANCE * max(1.0, abs(b)) for b in options):
        return None
    big_n = parent_n if parent_n >= 1 else children_n
    return (
        f"recorded bonus {bonus:.6g}, but C sqrt(ln N / n) = {c:.4g} sqrt(ln {big_n} / {n}) "
        f"= {options[0]:.6g} from the records (N_parent in place of ln N_parent, or another "
        "formula than UCT's?)"
    )


# ------------------------------------------------------------------ values


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
