"""The selection checks of ``mcts-lab inspect``: what UCT guarantees about a finished tree.

These checks read the tree alone (no iteration records needed) and raise **no false alarm on a
correct UCT search with the file's C**: each flags only counts that UCT with that C cannot
produce, whatever values its rollouts drew (a bound over the value range, not a statistical
test). A file states UCT (:func:`uct_constant`) when its ``settings`` name ``tree_policy`` "uct"
or "ucb1" (the lab's; "ucb1" is ``2 c sqrt(2 ln N / n)``, UCT with C = 2 sqrt(2) c), or name no
policy but give a number ``c`` and equal priors among siblings (unequal priors read as PUCT),
and no record names another score rule.

The bound (``uct_starved``)
---------------------------
UCT at a node whose mover is p chooses the child k maximising ``Q_k + C sqrt(ln N / n_k)``,
where ``Q_k`` is k's mean from p's view, ``n_k`` its visits and ``N`` the node's visits (at
least its children's sum). Take two children, i and j, with final visits ``n_i`` and ``n_j``,
value sums ``S_i`` and ``S_j`` (p's view), values in ``[lo, hi]``, and ``n_j - 1 > n_i``. Every
visit of j but its first (the expansion) came from a choice at the node, so consider the last
one: j had ``n_j - 1`` visits, i had some ``m`` with ``1 <= m <= n_i``, the node had ``N'``
visits, and UCT chose j, so (ties allowed)

    Q_j' + C sqrt(ln N' / (n_j - 1))  >=  Q_i' + C sqrt(ln N' / m).

What the final tree fixes about that moment, soundly:

- ``Q_j' <= (S_j - lo) / (n_j - 1)``: j got exactly one more value after it, at least ``lo``;
- ``Q_i' >= max(lo, hi - (n_i hi - S_i) / m)``: i's later ``n_i - m`` values were at most
  ``hi`` each;
- ``N' >= (n_j - 1) + 1 + (the node's other visited children)``: every child is added (or
  visited once) before UCT first chooses among them, as in the lab, OpenSpiel's ``MCTSBot``,
  PyPI's ``mcts`` and the textbook; a larger ``N'`` only widens the gap below, since
  ``1/sqrt(m) > 1/sqrt(n_j - 1)``.

With ``A = C sqrt(ln N'_min)``, if for **every** m in ``1..n_i``

    max(lo, hi - (n_i hi - S_i) / m) + A / sqrt(m)  >  (S_j - lo) / (n_j - 1) + A / sqrt(n_j - 1)

then no run of a correct UCT with that C ends with these counts: i was starved. The left side's
minimum over m is at ``m = 1``, at ``m = n_i`` or next to ``(n_i hi - S_i) / (hi - lo)`` (it
falls, then rises and falls), so four values of m decide it. Under a solver
(:func:`solver_semantics`) a proven child's score may have been its proven value, with the
bonus (the lab) or without it (OpenSpiel's ``MCTSBot(solve=True)``), so i's least score is at
most its proven value and j's greatest at least its proven value plus the bonus. Without a
solver a finished game's mean is exact (every visit gave the same value).
A ``min_visits`` rule in the settings chooses the least visited child first: the test needs
``n_j - 1 >= min_visits``. A file that declares ``visits_per_iteration`` K (a search that
rolls out every new child at expansion, each rollout backed up through the path) reads
``n_j - K`` for ``n_j - 1`` throughout: j's last choice gave it at most K visits, each at
least ``lo``, so ``Q_j' <= lo + (S_j - n_j lo) / (n_j - K)`` and its bonus is at most
``C sqrt(ln N' / (n_j - K))``. The slack is 1e-6 of the range's width (a writer's rounding).

The sign (``sign``)
-------------------
Two players, zero-sum: the bound is tested from the mover's view and from the other player's.
When at every node of player p where the mover's view fails (two nodes at least) the other
view holds, the
selection at p's nodes maximised the other player's value: the sign was not flipped between
players (OpenSpiel's ``MCTSBot`` keeps a child's ``total_reward`` from the view of the player
who moved into it, the parent's mover, the format's "edge" view; mctx keeps a node's value from
its own mover's view and negates it through ``discount = -1`` into the parent's Q, the "node"
view; PyPI's ``mcts`` 1.0.4 keeps every value from one player's view and maximises it at every
node, the bug this finds). Nodes where the other view fails too are ``uct_starved``.

Proofs (``proven_starved``)
---------------------------
A finished game that wins for the mover (every visit gave ``hi``: its mean is ``hi``) has
``Q = hi`` at every moment, the highest any sibling's Q can be, and the largest bonus of any
child with fewer visits; so under UCT with **any** C > 0 a sibling j cannot be chosen while the
win has fewer than ``n_j - 1`` visits, once ``N' >= 2``. A winning finished game with ``n_i``
visits beside a sibling with ``n_j > n_i + 1`` visits is flagged (C need not be stated; the
file must still state UCT). A move proven a win by a solver is not a finished game: its Q was
its mean until the proof, so it is not tested.
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
    check_decisions,
    node_label,
    other_view,
    visits_per_iteration,
)
from mcts_lab.traces.format import Trace
from mcts_lab.traces.values import node_players, value_range

__all__ = [
    "MAX_GROWN",
    "check_decision_rules",
    "check_proven_starved",
    "check_sign",
    "check_uct_bound",
    "solver_semantics",
    "states_uct",
    "uct_constant",
]

#: Per node, the siblings tested as the one that grew: the most visited this many (a node with
#: hundreds of moves would otherwise cost hundreds squared tests).
MAX_GROWN = 8

#: A sign error is named from this many broken nodes of one player (one could be anything).
MIN_SIGN_NODES = 2

#: The rules a file's records may name and still be UCT (``min_visits``: the lab's first visits).
UCT_RULES = frozenset({"uct", "ucb1", "min_visits"})


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def states_uct(trace: Trace) -> bool:
    """Whether the file says its selection is UCT (the module's docstring: settings naming
    ``uct`` or ``ucb1``, or a ``c`` with equal sibling priors; no record naming another rule)."""
    settings = trace.header.get("settings") or {}
    policy = settings.get("tree_policy")
    for record in trace.records:
        for decision in record.get("decisions", ()):
            rule = decision.get("rule")
            if rule is not None and rule not in UCT_RULES:
                return False
    if policy is not None:
        return policy in ("uct", "ucb1")
    if _number(settings.get("c")) is None:
        return False
    nodes = trace.nodes
    for kids in trace.children:
        priors = {float(nodes[k]["prior"]) for k in kids if nodes[k].get("prior") is not None}
        if len(priors) > 1 and max(priors) - min(priors) > VALUE_TOLERANCE:
            return False  # unequal priors: a PUCT search, whatever its c
    return True


def uct_constant(trace: Trace) -> float | None:
    """The UCT constant C the file states (``c``; for "ucb1", ``2 sqrt(2) c``), ``None`` when
    the file does not state UCT with a positive number."""
    if not states_uct(trace):
        return None
    settings = trace.header.get("settings") or {}
    c = _number(settings.get("c"))
    if c is None or not c > 0 or not math.isfinite(c):
        return None
    return 2 * math.sqrt(2) * c if settings.get("tree_policy") == "ucb1" else c


def _min_visits(trace: Trace) -> int:
    value = _number((trace.header.get("settings") or {}).get("min_visits"))
    return 0 if value is None else max(int(value), 0)


@dataclass(frozen=True)
class Starved:
    """One pair that breaks the bound at a node: ``starved`` (i) and ``grown`` (j), the
    bound's two sides (``low_side`` the least i's score could have been, ``high_side`` the most
    j's could have been) and the numbers behind them."""

    node: int
    starved: int
    grown: int
    low_side: float
    high_side: float
    n_parent: int  # N'_min, the fewest visits the node can have had

    @property
    def margin(self) -> float:
        return self.low_side - self.high_side


def _finished(trace: Trace, players: list[int], k: int) -> bool:
    return players[k] < 0 and not trace.children[k] and trace.nodes[k].get("kind") != "chance"


def _proven_value(trace: Trace, facts: FileFacts, k: int, player: int) -> float | None:
    """Child k's proven value from ``player``'s view (two players, zero-sum), else ``None``."""
    proven = _number(trace.nodes[k].get("proven"))
    if proven is None:
        return None
    if facts.views[k] == player:
        return proven
    values = trace.header.get("values", {})
    if values.get("zero_sum", True) and int(trace.header.get("players", 2)) == 2:
        low, high = value_range(trace)
        return other_view(proven, low, high)
    return None


def solver_semantics(trace: Trace) -> bool:
    """Whether a proven child's score may have been its proven value (with or without the
    bonus: the lab's solver adds it, OpenSpiel's ``MCTSBot(solve=True)`` does not): the settings
    say ``solver`` (or ``solve``) is on, or they do not say it is off and some node is proven."""
    settings = trace.header.get("settings") or {}
    for key in ("solver", "solve"):
        if key in settings:
            return bool(settings[key])
    return any(node.get("proven") is not None for node in trace.nodes)


def _worst_pair(
    facts: FileFacts,
    players: list[int],
    i: int,
    player: int,
    c: float,
    min_visits: int,
    solver: bool,
) -> Starved | None:
    """Node ``i``'s pair that breaks UCT's bound the most, with values from ``player``'s view.
    ``solver``: a proven child's score may also have been its proven value, bonus or none."""
    trace = facts.trace
    nodes = trace.nodes
    low, high = value_range(trace)
    width = high - low
    stats: list[tuple[int, int, float, float | None]] = []  # child, visits, sum, proven
    for k in trace.children[i]:
        visits = int(nodes[k]["visits"])
        total = facts.sums[k][player] if 0 <= player < len(facts.sums[k]) else None
        if visits < 1 or total is None:
            continue
        proven = _proven_value(trace, facts, k, player)
        if not solver and _finished(trace, players, k):
            proven = None  # a finished game's every value is the same: its mean is exact
        stats.append((k, visits, total, proven))
    if len(stats) < 2:
        return None
    visited = sum(1 for _, n, _, _ in stats if n >= 1)
    grown = sorted(stats, key=lambda s: -s[1])[:MAX_GROWN]
    tol = VALUE_TOLERANCE * width * 4 + 1e-12
    # j's last choice gave it at most `most` visits: it had at least n_j - most before it
    most = visits_per_iteration(trace)
    worst: Starved | None = None
    for j, nj, sj, pj in grown:
        before = nj - most
        if before < max(1, min_visits):
            continue
        # its n_j - before later values were at least lo each
        upper = min(high, low + (sj - nj * low) / before)
        if pj is not None:
            upper = max(upper, pj)  # the proven value with the bonus: the most it scored
        for k, nk, sk, pk in stats:
            if k == j or not nk < before:
                continue
            n_min = before + 1 + (visited - 2)
            if n_min < 2:
                continue
            a = c * math.sqrt(math.log(n_min))
            high_side = upper + a / math.sqrt(before)
            deficit = max(nk * high - sk, 0.0)  # D = n_i hi - S_i
            turn = deficit / width if width > 0 else 1.0
            candidates = {1, nk}
            candidates |= {min(max(math.floor(turn), 1), nk), min(max(math.ceil(turn), 1), nk)}
            low_side = math.inf
            for m in candidates:
                q = max(low, high - deficit / m)
                low_side = min(low_side, q + a / math.sqrt(m))
            if pk is not None:
                low_side = min(low_side, pk)  # the proven value without a bonus: the least
            margin = low_side - high_side
            if margin > tol and (worst is None or margin > worst.margin):
                worst = Starved(i, k, j, low_side, high_side, n_min)
    return worst


def _decision_nodes(trace: Trace, players: list[int]) -> Iterator[int]:
    for i, node in enumerate(trace.nodes):
        if node.get("kind") != "chance" and players[i] >= 0 and len(trace.children[i]) >= 2:
            yield i


@dataclass(frozen=True)
class _Findings:
    """Each node's pair that breaks the bound from its mover's view, and whether the other
    player's view keeps the bound there (two players, zero-sum)."""

    broken: list[tuple[Starved, bool]]  # (the pair, the other view holds at the node)


def _findings(facts: FileFacts) -> _Findings:
    cached = facts.memo.get("uct_bound")
    if isinstance(cached, _Findings):
        return cached
    trace = facts.trace
    c = uct_constant(trace)
    broken: list[tuple[Starved, bool]] = []
    if c is not None:
        players = node_players(trace)
        min_visits = _min_visits(trace)
        solver = solver_semantics(trace)
        values = trace.header.get("values", {})
        two = int(trace.header.get("players", 2)) == 2 and values.get("zero_sum", True)
        for i in _decision_nodes(trace, players):
            mover = players[i]
            pair = _worst_pair(facts, players, i, mover, c, min_visits, solver)
            if pair is None:
                continue
            other = _worst_pair(facts, players, i, 1 - mover, c, min_visits, solver)
            flipped = two and other is None
            broken.append((pair, flipped))
    result = facts.memo["uct_bound"] = _Findings(broken)
    return result


def _sign_players(facts: FileFacts, findings: _Findings) -> set[int]:
    """The players at whose every broken node the other player's view keeps the bound."""
    players = node_players(facts.trace)
    by_player: dict[int, list[bool]] = {}
    for pair, flipped in findings.broken:
        by_player.setdefault(players[pair.node], []).append(flipped)
    return {p for p, flags in by_player.items() if len(flags) >= MIN_SIGN_NODES and all(flags)}


def _describe(facts: FileFacts, pair: Starved, player: int, c: float) -> str:
    trace = facts.trace
    nodes = trace.nodes
    i, j = pair.starved, pair.grown
    ni, nj = int(nodes[i]["visits"]), int(nodes[j]["visits"])
    qi = _mean(facts, i, player)
    qj = _mean(facts, j, player)
    return (
        f"move {node_label(nodes[i])}: {ni} visit{'s' if ni != 1 else ''}, mean {qi:+.4f}; "
        f"move {node_label(nodes[j])}: {nj} visits, mean {qj:+.4f} (player {player}'s view). "
        f"UCT with C={c:.4g} never chose {node_label(nodes[j])} for its visit {nj} then: "
        f"{node_label(nodes[i])}'s score was at least {pair.low_side:.4f}, "
        f"{node_label(nodes[j])}'s at most {pair.high_side:.4f} (N >= {pair.n_parent}, "
        "values within the range)"
    )


def _mean(facts: FileFacts, k: int, player: int) -> float:
    total = facts.sums[k][player] if 0 <= player < len(facts.sums[k]) else None
    visits = int(facts.trace.nodes[k]["visits"])
    return math.nan if total is None or not visits else total / visits


def check_uct_bound(facts: FileFacts, r: AnomalyLog) -> None:
    """``uct_starved``: a move left at n visits while a sibling grew past what UCT with the
    file's C allows (the module's docstring derives the bound); one per node, its worst pair.
    Nodes the ``sign`` check explains are left to it."""
    c = uct_constant(facts.trace)
    if c is None:
        return
    findings = _findings(facts)
    sign = _sign_players(facts, findings)
    players = node_players(facts.trace)
    for pair, _ in findings.broken:
        mover = players[pair.node]
        if mover in sign:
            continue
        r.add("uct_starved", facts.trace.nodes[pair.node]["id"], _describe(facts, pair, mover, c))


def check_sign(facts: FileFacts, r: AnomalyLog) -> None:
    """``sign``: at every node of a player where the visits break UCT's bound from that
    player's view, they keep it from the other player's: the selection maximised the opponent's
    value (no sign flip between players). One anomaly per player, at its worst node."""
    c = uct_constant(facts.trace)
    if c is None:
        return
    trace = facts.trace
    findings = _findings(facts)
    players = node_players(trace)
    for player in sorted(_sign_players(facts, findings)):
        mine = [pair for pair, _ in findings.broken if players[pair.node] == player]
        worst = max(mine, key=lambda pair: pair.margin)
        r.add(
            "sign",
            trace.nodes[worst.node]["id"],
            f"at {len(mine)} node{'s' if len(mine) != 1 else ''} where player {player} moves, "
            f"the visits break UCT's bound from player {player}'s view but keep it from player "
            f"{1 - player}'s: the selection maximised the other player's value (no sign flip "
            "between players, or the wrong view stored). Worst: "
            + _describe(facts, worst, player, c),
        )


def check_proven_starved(facts: FileFacts, r: AnomalyLog) -> None:
    """``proven_starved``: a finished game that wins for the mover (mean ``hi``) left with
    ``n_i`` visits while a sibling took more than ``n_i + 1``: impossible under UCT with any C."""
    trace = facts.trace
    if not states_uct(trace):
        return
    nodes = trace.nodes
    players = node_players(trace)
    low, high = value_range(trace)
    tol = VALUE_TOLERANCE * (high - low)
    min_visits = _min_visits(trace)
    for i in _decision_nodes(trace, players):
        mover = players[i]
        wins = []
        for k in trace.children[i]:
            visits = int(nodes[k]["visits"])
            if not visits or not _finished(trace, players, k):
                continue
            proven = _proven_value(trace, facts, k, mover)
            if _mean(facts, k, mover) >= high - tol and (proven is None or proven >= high - tol):
                wins.append(k)
        if not wins:
            continue
        win = min(wins, key=lambda k: nodes[k]["visits"])
        n_win = int(nodes[win]["visits"])
        others = [k for k in trace.children[i] if k not in wins]
        if not others:
            continue
        top = max(others, key=lambda k: nodes[k]["visits"])
        n_top = int(nodes[top]["visits"])
        before = n_top - visits_per_iteration(trace)  # its visits before its last choice
        if before > n_win and before >= max(1, min_visits) and before + n_win >= 2:
            r.add(
                "proven_starved",
                nodes[i]["id"],
                f"move {node_label(nodes[win])} ends the game with a win for player {mover} "
                f"(every one of its {n_win} visit{'s' if n_win != 1 else ''} gave {high:g}), "
                f"but move {node_label(nodes[top])} took {n_top} visits: UCT never prefers a "
                "move to a sure win with fewer visits, whatever its C",
            )


def check_decision_rules(facts: FileFacts, r: AnomalyLog) -> None:
    """``decision``: a recorded decision against its own rule. Where the writer recorded each
    child's terms, against those (:func:`mcts_lab.inspect.anomalies.check_decisions`); where it
    recorded no score or ``q`` and ``bonus``, against the UCT scores recomputed from the records'
    statistics (the file states UCT with its C; the records start at iteration 1, run without a
    gap and give every backup): a child's Q is its value sum from the mover's view over its
    visits so far, its bonus ``C sqrt(ln N / n)`` with N the node's visits so far or its
    children's (flagged only when both say the choice was not a maximum)."""
    check_decisions(facts, r)
    _check_recomputed(facts, r)


def _check_recomputed(facts: FileFacts, r: AnomalyLog) -> None:
    trace = facts.trace
    records = trace.records
    c = uct_constant(trace)
    if c is None or not records or records[0]["iteration"] != 1:
        return
    pairs = zip(records, records[1:], strict=False)
    if any(b["iteration"] != a["iteration"] + 1 for a, b in pairs):
        return
    if any(record.get("backup") is None for record in records):
        return
    players = node_players(trace)
    min_visits = _min_visits(trace)
    count = int(trace.header.get("players", 2))
    zero_sum = bool(trace.header.get("values", {}).get("zero_sum", True))
    visits: dict[int, int] = {}
    sums: dict[int, float] = {}  # each node's sum from its own view (the backups' adds)
    for record in records:
        for decision in record.get("decisions", ()):
            _recompute_one(
                decision, record, facts, players, visits, sums, c, min_visits, count, zero_sum, r
            )
        for node_id in record["path"]:
            visits[node_id] = visits.get(node_id, 0) + 1
        for item in record["backup"]:
            sums[item["node"]] = sums.get(item["node"], 0.0) + float(item["add"])


def _recompute_one(
    decision: dict[str, Any],
    record: dict[str, Any],
    facts: FileFacts,
    players: list[int],
    visits: dict[int, int],
    sums: dict[int, float],
    c: float,
    min_visits: int,
    count: int,
    zero_sum: bool,
    r: AnomalyLog,
) -> None:
    trace = facts.trace
    index, nodes = trace.index, trace.nodes
    terms = decision.get("children", ())
    if len(terms) < 2 or any(_has_score(t) for t in terms):
        return  # scores recorded: checked against them
    rule = decision.get("rule")
    if rule is not None and rule not in ("uct", "ucb1"):
        return
    at = index.get(decision["node"])
    if at is None or decision["chosen"] not in index:
        return
    mover = players[at]
    low, high = value_range(trace)
    scores: dict[int, tuple[float, float]] = {}  # child id -> (Q, n)
    for t in terms:
        k = index.get(t["node"])
        n = visits.get(t["node"], 0)
        if k is None or n < 1 or mover < 0:
            return
        if nodes[k].get("proven") is not None and not _finished(trace, players, k):
            return  # a solver may have used the proof as Q
        q = sums.get(t["node"], 0.0) / n
        view = facts.views[k]
        if view != mover:
            if not (zero_sum and count == 2):
                return
            q = other_view(q, low, high)
        scores[t["node"]] = (q, n)
    if min_visits > 1 and min(n for _, n in scores.values()) < min_visits:
        return
    chosen = decision["chosen"]
    if chosen not in scores:
        return
    parent_n = visits.get(decision["node"], 0)
    children_n = int(sum(n for _, n in scores.values()))
    tol = VALUE_TOLERANCE * (high - low) * 4 + 1e-9
    verdicts = []
    for big_n in {parent_n, children_n}:
        if big_n < 1:
            return
        log_n = math.log(big_n)
        value = {k: q + c * math.sqrt(log_n / n) for k, (q, n) in scores.items()}
        best = max(value, key=lambda k: value[k])
        verdicts.append((value[best] - value[chosen], best, value))
    if all(gap > tol for gap, _, _ in verdicts):
        gap, best, value = min(verdicts, key=lambda v: v[0])
        r.add(
            "decision",
            nodes[index[decision["node"]]]["id"],
            f"iteration {record['iteration']}: {rule or 'the rule'} chose "
            f"{node_label(nodes[index[chosen]])} (UCT score {value[chosen]:.6g}, recomputed "
            f"from the records: Q {scores[chosen][0]:+.4f} over {scores[chosen][1]:.0f} visits) "
            f"over {node_label(nodes[index[best]])} (score {value[best]:.6g}: Q "
            f"{scores[best][0]:+.4f} over {scores[best][1]:.0f} visits), C={c:.4g}",
        )


def _has_score(terms: dict[str, Any]) -> bool:
    return _number(terms.get("score")) is not None or (
        _number(terms.get("q")) is not None and _number(terms.get("bonus")) is not None
    )
