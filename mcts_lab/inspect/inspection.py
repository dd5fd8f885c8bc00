"""``mcts-lab inspect``: summarise a trace file and find what is wrong in it.

:func:`inspect_trace` returns one JSON-ready dict: the root and its children (visits, value,
prior), the tree's size and depth, the iteration records, and the **anomalies**, each
``{"kind", "node", "detail"}`` with the numbers, found by the checks the
registry ``mcts_lab/inspect/checks.py`` lists, in its order (``mcts_lab/inspect/anomalies.py`` says
every threshold). :func:`format_report` is the report as text.
"""

from __future__ import annotations

import time
from typing import Any

from mcts_lab.inspect.anomalies import MAX_LISTED, FileFacts
from mcts_lab.inspect.checks import run_checks
from mcts_lab.inspect.exact_check import exact_root_values
from mcts_lab.traces.format import Trace
from mcts_lab.traces.values import node_players, node_sums, node_views, value_range

__all__ = ["format_report", "inspect_trace"]


def inspect_trace(
    trace: Trace,
    *,
    exact: bool = False,
    exact_seconds: float = 2.0,
    max_anomalies: int = MAX_LISTED,
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
    facts = FileFacts(trace, views, sums, exact_seconds if exact else None)
    report = run_checks(facts, max_anomalies)  # anomaly_checks.py
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
        "truncated": report.truncated,  # some anomalies counted but not listed
    }
    if exact:
        _add_exact(facts, data)
    data["seconds"] = round(time.perf_counter() - start, 3)
    return data


def _add_exact(facts: FileFacts, data: dict[str, Any]) -> None:
    from mcts_lab.common import action_index

    for row in data["root_children"]:
        row["exact"] = None
    found = exact_root_values(facts)  # the exact check's values, worked out once
    if isinstance(found, str):
        data["exact_note"] = found
        return
    game, state, values = found
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
    """A value in the report: signed with 4 decimals, in short scientific form where that
    would hide it (below 1e-4) or run long (from 1e6: 1e308 is ``+1.000e+308``, not 309
    digits)."""
    if value is None:
        return "-"
    if isinstance(value, float):
        if value != 0 and not 1e-4 <= abs(value) < 1e6:
            return f"{value:+.3e}"
        return f"{value:+.4f}"
    return str(value)
