"""The checks from MCTS invariants (issue 41) on a plain UCT written apart from the lab, with
bugs the lab's checks were never told about, in both writers (``Recorder`` and JSON by hand):
each is reported with its cause as the first anomaly, and the correct search raises none."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from games import GAME_NAMES
from mcts_core import Search
from mcts_lab import traces
from mcts_lab.common import build_config, build_game
from mcts_lab.inspect.anomalies import AnomalyLog, FileFacts
from mcts_lab.inspect.checks import ANOMALY_CHECKS
from mcts_lab.inspect.inspection import inspect_trace
from mcts_lab.traces.lab import run_recorded
from mcts_lab.traces.values import node_sums, node_views
from tests.mcts_lab.inspect.planted_imparaai import planted_imparaai
from tests.mcts_lab.inspect.planted_uct import planted_uct

#: Each bug, the kind its first anomaly must be, and a position where the bug shows.
PLANTED = [
    ("duplicate", "duplicate_move", None),
    ("unvisited_zero", "unvisited", None),
    ("n_parent", "term", None),
    ("virtual_loss", "running_mean", "XX.OO...."),
    ("draw_as_loss", "terminal", "XOXXOO.X."),
    ("below_finished", "illegal_move", "XX.OO...."),
    ("partial_backup", "backup", None),
    ("rollout_finished", "terminal", "XX.OO...."),
]


def first(doc: dict) -> dict | None:
    listed = inspect_trace(traces.parse(doc))["anomalies"]
    return listed[0] if listed else None


@pytest.mark.parametrize("recorder", [True, False], ids=["recorder", "by_hand"])
@pytest.mark.parametrize(("bug", "kind", "position"), PLANTED, ids=[p[0] for p in PLANTED])
def test_each_planted_bug_is_reported_with_its_cause_first(
    bug: str, kind: str, position: str | None, recorder: bool
) -> None:
    for seed in range(2):
        doc = planted_uct(
            "tic_tac_toe", seed=seed, iterations=200, bug=bug, recorder=recorder, position=position
        )
        item = first(doc)
        assert item is not None and item["kind"] == kind, (seed, item)


@pytest.mark.parametrize("recorder", [True, False], ids=["recorder", "by_hand"])
def test_the_correct_search_raises_no_anomaly(recorder: bool) -> None:
    for c in (0.5, 1.4, 2.0):
        for position in (None, "XX.OO....", "XOXXOO.X.", "X...O...."):
            for seed in range(2):
                doc = planted_uct(
                    "tic_tac_toe",
                    seed=seed,
                    iterations=150,
                    c=c,
                    recorder=recorder,
                    position=position,
                )
                assert first(doc) is None, (c, position, seed, first(doc))


def test_children_below_a_finished_game_come_first_in_inspect(tmp_path: Path) -> None:
    """The issue's file: the first line of ``inspect``'s anomalies names ``illegal_move`` at
    its iteration, and the command exits 1."""
    doc = planted_uct(
        "tic_tac_toe",
        seed=0,
        iterations=300,
        bug="below_finished",
        recorder=False,
        position="XX.OO....",
    )
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    run = subprocess.run(
        [sys.executable, "-m", "mcts_lab.cli", "inspect", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    listed = [line for line in lines if line.startswith("  ")]
    assert listed[0].startswith("  illegal_move node") and "iteration" in listed[0]


@pytest.mark.parametrize("c", [0.35, 1.0])
def test_expansion_rollouts_declared_raise_no_anomaly(c: float) -> None:
    """An imparaai-style search (every new child rolled out at expansion) declares
    ``visits_per_iteration``: no false alarm; undeclared, the UCT bounds read each of those
    visits as a choice and fire, so the declaration is what the bounds use."""
    undeclared = 0
    for seed in range(3):
        doc = planted_imparaai("tic_tac_toe", seed=seed, iterations=600, c=c)
        assert first(doc) is None, (seed, first(doc))
        doc = planted_imparaai("tic_tac_toe", seed=seed, iterations=600, c=c, declare=False)
        undeclared += len(inspect_trace(traces.parse(doc))["anomalies"])
    assert undeclared > 0


def test_a_search_that_stops_at_a_finished_game_is_a_stall() -> None:
    """imparaai-montecarlo 1.3.1's bug: selection reaching a finished game does nothing, so
    later iterations give the root no visit; declared expansion rollouts do not hide it."""
    doc = planted_imparaai("tic_tac_toe", seed=0, iterations=1000, stall=True)
    item = first(doc)
    assert item is not None and item["kind"] == "stall", item
    assert f"{doc['nodes'][0]['visits']:,} visits after 1,000 iterations" in item["detail"]


def test_the_visits_that_ended_at_a_node_may_reach_visits_per_iteration() -> None:
    """A leaf rolled out 3 times in one iteration, then expanded: 3 visits beyond its
    children's, allowed with ``visits_per_iteration`` 3 and not with the default."""
    nodes = [
        {"id": 0, "parent": None, "visits": 5, "value_sum": 0.0},
        {"id": 1, "parent": 0, "visits": 4, "value_sum": 0.0},
        {"id": 2, "parent": 1, "visits": 1, "value_sum": 0.0},
    ]
    doc = {"format": "mcts-trace", "version": 1, "visit_rule": "leaf_visit", "nodes": nodes}
    kinds = [a["kind"] for a in inspect_trace(traces.parse(doc))["anomalies"]]
    assert "visit_count" in kinds
    doc["visits_per_iteration"] = 3
    kinds = [a["kind"] for a in inspect_trace(traces.parse(doc))["anomalies"]]
    assert "visit_count" not in kinds


# ------------------------------------------------------------------ the lab's own search

#: The six settings of tests/mcts_lab/traces/test_traces.py's seeded runs.
SETTINGS: list[dict[str, Any]] = [
    {},
    {"solver": True},
    {"value_range": "unit"},
    {"policy": "puct", "prior": "heuristic"},
    {"min_visits": 3, "c": 0.5},
    {"depth": 0},
]
#: The checks from MCTS invariants, by their registry names.
INVARIANT_CHECKS = ("structure", "unvisited", "running_means", "terms", "finished_values")
#: Where odd seeds start: few moves left, so 12 iterations choose among children and reach
#: finished games (gridiron from its start: its chance nodes give decisions early).
NEAR_END = {"tic_tac_toe": "X...O....", "connect_four": "4453", "nim": "1-2-2/0"}


@pytest.mark.slow  # about 10 s of CPU for the four games; -m "not slow" skips it, CI runs it
@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_invariant_checks_raise_nothing_on_the_lab_s_search(game: str) -> None:
    """100 seeds x the six settings, every iteration recorded (12 each): the invariant checks
    (``structure``, ``unvisited``, ``running_means``, ``terms``, ``finished_values``, run as
    the registry runs them) find nothing on the lab's own search."""
    checks = [check for check in ANOMALY_CHECKS if check.name in INVARIANT_CHECKS]
    assert len(checks) == len(INVARIANT_CHECKS)
    decisions = 0
    for seed in range(100):
        for settings in SETTINGS:
            g = build_game(game)
            position = NEAR_END.get(game) if seed % 2 else None
            root = g.initial_state() if position is None else g.parse_state(position)
            search = Search(g, root, build_config(settings), seed=seed)
            _, steps = run_recorded(search, 12)
            doc = traces.from_search(search, steps)
            if position is not None:
                doc["position"] = position
            trace = traces.parse(doc)
            views = node_views(trace)
            facts = FileFacts(trace, views, node_sums(trace, views))
            log = AnomalyLog()
            for check in checks:
                if check.applies_to(trace):
                    check.run(facts, log)
            assert not log.counts, (seed, settings, log.listed[:1])
            decisions += sum(len(r.get("decisions", ())) for r in trace.records)
    assert decisions > 600  # the runs chose among children, so the terms were checked
