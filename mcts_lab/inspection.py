"""``mcts-lab inspect``: summarise a trace file and find what is wrong in it.

:func:`inspect_trace` returns one JSON-ready dict: the root and its children (visits, value,
prior), the tree's size and depth, the iteration records, and the **anomalies**, each
``{"kind", "node", "detail"}`` with the numbers. The checks and their thresholds (also in
docs/trace_format.md, "What inspect checks"):

- ``visit_count``: a node with children whose visits are not its children's sum plus the
  rule's allowance (``visit_rule``: "leaf_visit" 0 or 1, "at_least" any surplus, "exact" 0;
  a proven node may have any surplus, the search stops there).
- ``value_range``: a mean outside ``values.range``; ``prior``: priors of one node's children
  (or probabilities of one chance node's outcomes) summing to more than 1.
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
- ``illegal_move`` (a registered game named in the file): a move or outcome the game's rules
  do not allow at that position, or a node whose player is not the one to move.

``DELTA = 1e-9`` is the chance of a false alarm per test on a correct search; a tree of a
million nodes makes a few million tests, so a correct file raises one with a chance near 1 in
300 under the tests' assumptions.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from typing import Any

from mcts_lab.traces.format import Trace
from mcts_lab.traces.values import node_players, node_sums, node_views, single_sum, value_range

__all__ = [
    "DELTA",
    "MAX_LISTED",
    "chi_square_sf",
    "format_report",
    "inspect_trace",
    "node_players",
    "node_sums",
    "node_views",
    "value_range",
]

#: The false-alarm probability of each statistical test (starved moves, chance counts).
DELTA = 1e-9
#: At most this many anomalies are listed (all are counted in ``anomaly_counts``).
MAX_LISTED = 1000
#: Relative tolerance on values: a writer may round to 6 decimals.
VALUE_TOLERANCE = 1e-6
#: Pooled buckets of a chi-square test need at least this expected count.
MIN_EXPECTED = 5.0


class _Report:
    def __init__(self) -> None:
        self.listed: list[dict[str, Any]] = []
        self.counts: Counter[str] = Counter()

    def add(self, kind: str, node: int | None, detail: str) -> None:
        self.counts[kind] += 1
        if len(self.listed) < MAX_LISTED:
            self.listed.append({"kind": kind, "node": node, "detail": detail})


def _other(value: float, low: float, high: float) -> float:
    """The other player's view of a value in a two-player zero-sum range."""
    return low + high - value


# ------------------------------------------------------------------ the checks


def _check_nodes(
    trace: Trace, views: list[int], sums: list[list[float | None]], r: _Report
) -> None:
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
        allowed_high = {"leaf_visit": 1, "exact": 0}.get(rule, math.inf)
        if proven is not None or node.get("player") == -1:
            allowed_high = math.inf
        if rule != "none" and not 0 <= surplus <= allowed_high:
            allowance = {"leaf_visit": "plus 0 or 1", "exact": "exactly", "at_least": "or more"}
            r.add(
                "visit_count",
                node_id,
                f"{visits} visits, its {len(kids)} children have {child_visits} "
                f"(rule {rule}: the children's sum {allowance.get(rule, '')})",
            )
        # priors and probabilities
        for key in ("prior", "probability"):
            total = sum(nodes[k][key] for k in kids if key in nodes[k])
            if total > 1 + VALUE_TOLERANCE:
                r.add("prior", node_id, f"its children's {key} values sum to {total:.6g} (> 1)")
        # value sums add up (player by player), or add up with the children's views swapped
        if mean_backup and surplus >= 0 and rule != "none":
            _check_sums(i, kids, surplus, sums, count, low, high, width, r, node_id)


def _check_sums(
    i: int,
    kids: list[int],
    surplus: int,
    sums: list[list[float | None]],
    count: int,
    low: float,
    high: float,
    width: float,
    r: _Report,
    node_id: int,
) -> None:
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
                f"{straight[1]:.6g} plus {surplus} leaf value(s) in [{low:g}, {high:g}]",
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
        return _other(float(proven), low, high)
    return None


def _check_proofs(trace: Trace, views: list[int], r: _Report) -> None:
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
                f"{_label(nodes[k])} is proven {v:g} for them",
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


def _hoeffding(visits: int, width: float) -> float:
    """How far a mean of ``visits`` values in a range of ``width`` strays from its
    expectation with probability at most ``DELTA`` (Hoeffding's inequality, two-sided)."""
    return width * math.sqrt(math.log(2 / DELTA) / (2 * visits))


def _check_starved(
    trace: Trace, views: list[int], sums: list[list[float | None]], r: _Report
) -> None:
    if trace.header.get("values", {}).get("backup", "mean") != "mean":
        return
    nodes, children = trace.nodes, trace.children
    low, high = value_range(trace)
    width = high - low
    players = node_players(trace)
    settings = trace.header.get("settings") or {}
    c = settings.get("c") if isinstance(settings.get("c"), int | float) else None
    for i, node in enumerate(nodes):
        mover = players[i]
        kids = children[i]
        if node.get("kind") == "chance" or mover < 0 or len(kids) < 2:
            continue
        stats = []
        for k in kids:
            visits = nodes[k]["visits"]
            total = sums[k][mover] if mover < len(sums[k]) else None
            if visits < 1 or total is None or nodes[k].get("proven") is not None:
                continue
            stats.append((k, visits, total / visits))
        if len(stats) < 2:
            continue
        worst: tuple[float, int, int, float] | None = None
        for a, na, qa in stats:
            for b, nb, qb in stats:
                if nb < 2 * na:
                    continue
                gap = qa - qb
                bound = _hoeffding(na, width) + _hoeffding(nb, width)
                if gap > bound and (worst is None or gap - bound > worst[0]):
                    worst = (gap - bound, a, b, bound)
        if worst is None:
            continue
        _, a, b, bound = worst
        na, nb = nodes[a]["visits"], nodes[b]["visits"]
        qa = next(q for k, _, q in stats if k == a)
        qb = next(q for k, _, q in stats if k == b)
        total_visits = max(node["visits"], 2)
        uct_c = c if c is not None else math.sqrt(2)
        scores = {k: q + uct_c * math.sqrt(math.log(total_visits) / n) for k, n, q in stats}
        pick = max(scores, key=lambda k: scores[k])
        r.add(
            "starved",
            node["id"],
            f"move {_label(nodes[a])}: mean {qa:+.4f} over {na} visits; move "
            f"{_label(nodes[b])}: mean {qb:+.4f} over {nb} visits (player {mover}'s view). The "
            f"gap {qa - qb:.4f} exceeds the noise bound {bound:.4f} (Hoeffding, delta "
            f"{DELTA:g}); UCT with c={uct_c:.4g}{'' if c is not None else ' (the file gives none)'}"
            f" would choose {_label(nodes[pick])} (score {scores[pick]:.4f})",
        )


def chi_square_sf(statistic: float, dof: int) -> float:
    """P(X >= statistic) for a chi-square variable with ``dof`` degrees of freedom (the
    regularised upper incomplete gamma function Q(dof/2, statistic/2))."""
    if statistic <= 0:
        return 1.0
    a, x = dof / 2.0, statistic / 2.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # series for the lower function P, then Q = 1 - P
        term = total = 1.0 / a
        n = a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if term < total * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    # continued fraction for Q (Lentz)
    tiny = 1e-300
    b = x + 1 - a
    cc = 1 / tiny
    d = 1 / b
    h = d
    for n in range(1, 10_000):
        an = -n * (n - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        cc = b + an / cc
        cc = tiny if abs(cc) < tiny else cc
        d = 1 / d
        delta = d * cc
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(log_front) * h


def _check_chance(trace: Trace, r: _Report) -> None:
    nodes, children = trace.nodes, trace.children
    for i, node in enumerate(nodes):
        kids = children[i]
        if node.get("kind") != "chance" or not kids:
            continue
        if any("probability" not in nodes[k] for k in kids):
            continue
        counts = [nodes[k]["visits"] for k in kids]
        total = sum(counts)
        if total == 0:
            continue
        probabilities = [float(nodes[k]["probability"]) for k in kids]
        buckets = [(p * total, n) for p, n in zip(probabilities, counts, strict=True)]
        unseen = 1.0 - sum(probabilities)
        if unseen > 1e-9:
            buckets.append((unseen * total, 0))
        buckets.sort()
        pooled: list[tuple[float, int]] = []
        expected_run, observed_run = 0.0, 0
        for expected, observed in buckets:
            expected_run += expected
            observed_run += observed
            if expected_run >= MIN_EXPECTED:
                pooled.append((expected_run, observed_run))
                expected_run, observed_run = 0.0, 0
        if expected_run and pooled:  # the small remainder joins the last pooled bucket
            last_expected, last_observed = pooled[-1]
            pooled[-1] = (last_expected + expected_run, last_observed + observed_run)
        if len(pooled) < 2 or any(e <= 0 for e, _ in pooled):
            continue
        statistic = sum((o - e) ** 2 / e for e, o in pooled)
        p_value = chi_square_sf(statistic, len(pooled) - 1)
        if p_value < DELTA:
            shown = ", ".join(
                f"{_label(nodes[k])} {n} (expected {p * total:.1f})"
                for k, n, p in zip(kids, counts, probabilities, strict=True)
            )
            r.add(
                "chance_counts",
                node["id"],
                f"outcome counts {shown}: chi-square {statistic:.1f} on {len(pooled) - 1} "
                f"degrees of freedom, p = {p_value:.2g} < {DELTA:g}",
            )


def _check_records(trace: Trace, views: list[int], r: _Report) -> None:
    records = trace.records
    if not records:
        return
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
        if all_backups and mean_backup and single is not None and node["visits"]:
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
    r: _Report,
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
        per_player[1 - leaf_view] = _other(value, low, high)
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


def _check_rules(trace: Trace, r: _Report) -> None:
    """Every move legal and every player right, when the file names a registered game."""
    from games.registry import game_spec

    name = trace.header.get("game")
    if not isinstance(name, str):
        return
    try:
        game, state = _game_and_root(trace, name)
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
            r.add("illegal_move", node["id"], "moves below a finished game")
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
                    f"move {_label(child)} is not legal at {game.format_state(here)!r}",
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
                            f"outcome {_label(nodes[g])} cannot follow {_label(child)}",
                        )
                        continue
                    stack.append((g, game.next_state(here, action, outcome)))
                continue
            if len(outcomes) != 1:
                r.add(
                    "illegal_move",
                    child["id"],
                    f"move {_label(child)} has {len(outcomes)} outcomes but no chance node",
                )
                continue
            stack.append((k, game.next_state(here, action, outcomes[0][0])))


def _label(node: dict[str, Any]) -> str:
    move = node.get("move")
    return repr(move) if move is not None else f"#{node['id']}"


# ------------------------------------------------------------------ the report


def _game_and_root(trace: Trace, name: str) -> tuple[Any, Any]:
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


def inspect_trace(
    trace: Trace, *, exact: bool = False, exact_seconds: float = 2.0
) -> dict[str, Any]:
    """The summary and anomalies of a checked trace (the ``inspect --json`` object).

    ``root_children`` rows: ``id``, ``action`` (the move's label), ``action_index`` (when the
    file gives it), ``visits``, ``value`` (mean from the root mover's view, in the file's
    range), ``prior``, ``proven``; with ``exact``, ``exact`` (the game-theoretic value from the
    root mover's view in [-1, 1]; ``None`` when not solved in time or not a registered game).
    """
    start = time.perf_counter()
    views = node_views(trace)
    sums = node_sums(trace, views)
    players = node_players(trace)
    report = _Report()
    _check_nodes(trace, views, sums, report)
    _check_proofs(trace, views, report)
    _check_starved(trace, views, sums, report)
    _check_chance(trace, report)
    _check_records(trace, views, report)
    _check_rules(trace, report)
    root = trace.nodes[trace.root]
    mover = max(players[trace.root], 0)

    def mean_of(i: int, player: int) -> float | None:
        total = sums[i][player] if player < len(sums[i]) else None
        visits = trace.nodes[i]["visits"]
        return None if total is None or not visits else round(total / visits, 6)

    rows = []
    for k in trace.children[trace.root]:
        child = trace.nodes[k]
        row = {
            "id": child["id"],
            "action": child.get("move", f"#{child['id']}"),
            "action_index": child.get("action") if isinstance(child.get("action"), int) else None,
            "visits": child["visits"],
            "value": mean_of(k, mover),
            "prior": child.get("prior"),
            "proven": child.get("proven"),
        }
        rows.append(row)
    low, high = value_range(trace)
    data: dict[str, Any] = {
        "format": trace.header["format"],
        "version": trace.header["version"],
        "game": trace.header.get("game"),
        "position": trace.header.get("position"),
        "writer": trace.header.get("writer"),
        "seed": trace.header.get("seed"),
        "settings": trace.header.get("settings"),
        "search_iterations": trace.header.get("iterations"),
        "iterations": len(trace.records),
        "nodes": len(trace.nodes),
        "depth": max(trace.depth),
        "value_range": [low, high],
        "view": trace.header.get("values", {}).get("view", "edge"),
        "root": {
            "id": root["id"],
            "player": players[trace.root],
            "visits": root["visits"],
            "value": mean_of(trace.root, mover),
        },
        "root_children": rows,
        "anomalies": report.listed,
        "anomaly_counts": dict(sorted(report.counts.items())),
    }
    if exact:
        _add_exact(trace, data, exact_seconds)
    data["seconds"] = round(time.perf_counter() - start, 3)
    return data


def _add_exact(trace: Trace, data: dict[str, Any], seconds: float) -> None:
    from mcts_lab.common import action_index
    from mcts_lab.exact import exact_values

    name = trace.header.get("game")
    for row in data["root_children"]:
        row["exact"] = None
    if not isinstance(name, str):
        data["exact_note"] = "the file names no game"
        return
    try:
        game, state = _game_and_root(trace, name)
    except (ValueError, ImportError, KeyError, TypeError) as error:
        data["exact_note"] = f"no exact values: {error}"
        return
    values = exact_values(game, state, seconds)
    by_index = {action_index(game, state, a): v for a, v in values.items()}
    by_label = {game.action_label(state, a): v for a, v in values.items()}
    for row in data["root_children"]:
        value = by_index.get(row["action_index"]) if row["action_index"] is not None else None
        if value is None:
            value = by_label.get(row["action"])
        row["exact"] = None if value is None else round(value, 6)


def format_report(data: dict[str, Any]) -> str:
    """The report as text for a terminal (labels from the file are quoted, never styled)."""
    writer = data.get("writer") or {}
    lines = [
        f"{data['format']} v{data['version']} by {writer.get('name') or 'an unnamed writer'}"
        f"{' ' + writer['version'] if writer.get('version') else ''}: game "
        f"{data['game'] or '(not named)'}, position {data['position']!r}, seed {data['seed']}",
        f"{data['nodes']:,} nodes, depth {data['depth']}, {data['iterations']:,} iteration "
        f"records (search iterations: {data['search_iterations']}); values in "
        f"[{data['value_range'][0]:g}, {data['value_range'][1]:g}], view {data['view']}",
        f"root #{data['root']['id']}: player {data['root']['player']} to move, "
        f"{data['root']['visits']:,} visits, value {_num(data['root']['value'])}",
    ]
    rows = sorted(data["root_children"], key=lambda row: -row["visits"])
    if rows:
        exact = "exact" in rows[0]
        width = max(8, *(len(repr(row["action"])) for row in rows))
        lines.append(
            f"{'move':<{width}} {'visits':>8} {'value':>9} {'prior':>7} {'proven':>7}"
            + (f" {'exact':>7}" if exact else "")
            + "  (value: mean from the root mover's view)"
        )
        for row in rows:
            lines.append(
                f"{row['action']!r:<{width}} {row['visits']:>8,} {_num(row['value']):>9} "
                f"{_num(row['prior']):>7} {_num(row['proven']):>7}"
                + (f" {_num(row['exact']):>7}" if exact else "")
            )
    counts = data["anomaly_counts"]
    if not counts:
        lines.append("no anomalies found")
    else:
        total = sum(counts.values())
        lines.append(
            f"{total:,} anomal{'y' if total == 1 else 'ies'}: "
            + ", ".join(f"{kind} {n:,}" for kind, n in counts.items())
        )
        for item in data["anomalies"]:
            node = "" if item["node"] is None else f" node {item['node']}"
            lines.append(f"  {item['kind']}{node}: {item['detail']}")
        if total > len(data["anomalies"]):
            lines.append(f"  ... {total - len(data['anomalies']):,} more not listed")
    return "\n".join(lines)


def _num(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:+.4f}"
    return str(value)
