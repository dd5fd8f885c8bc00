"""The statistical anomaly checks of ``mcts-lab inspect`` (``mcts_lab/inspect/anomalies.py`` lists
every check): ``starved``, a move whose mean beats a sibling's by more than both means' Hoeffding
bounds while the sibling took at least twice its visits, and ``chance_counts``, a chance node's
outcome counts a chi-square test rejects. Each test raises a false alarm on a correct search
with probability at most ``DELTA``."""

from __future__ import annotations

import math

from mcts_lab.inspect.anomalies import DELTA, AnomalyLog, FileFacts, node_label
from mcts_lab.traces.values import node_players, value_range

__all__ = ["MIN_EXPECTED", "check_chance", "check_starved", "chi_square_sf"]

#: Pooled buckets of a chi-square test need at least this expected count.
MIN_EXPECTED = 5.0


def _hoeffding(visits: int, width: float) -> float:
    """How far a mean of ``visits`` values in a range of ``width`` strays from its
    expectation with probability at most ``DELTA`` (Hoeffding's inequality, two-sided)."""
    return width * math.sqrt(math.log(2 / DELTA) / (2 * visits))


def check_starved(facts: FileFacts, r: AnomalyLog) -> None:
    """``starved``: a move left short of visits though its mean is surely better (a file whose
    values are means: the registry's ``Need.MEAN_BACKUP``)."""
    trace, sums = facts.trace, facts.sums
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
            f"move {node_label(nodes[a])}: mean {qa:+.4f} over {na} visits; move "
            f"{node_label(nodes[b])}: mean {qb:+.4f} over {nb} visits (player {mover}'s view). The "
            f"gap {qa - qb:.4f} exceeds the noise bound {bound:.4f} (Hoeffding, delta "
            f"{DELTA:g}); UCT with c={uct_c:.4g}{'' if c is not None else ' (the file gives none)'}"
            f" would choose {node_label(nodes[pick])} (score {scores[pick]:.4f})",
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


def check_chance(facts: FileFacts, r: AnomalyLog) -> None:
    """``chance_counts``: outcome counts a chi-square test rejects at ``DELTA``."""
    trace = facts.trace
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
                f"{node_label(nodes[k])} {n} (expected {p * total:.1f})"
                for k, n, p in zip(kids, counts, probabilities, strict=True)
            )
            r.add(
                "chance_counts",
                node["id"],
                f"outcome counts {shown}: chi-square {statistic:.1f} on {len(pooled) - 1} "
                f"degrees of freedom, p = {p_value:.2g} < {DELTA:g}",
            )
