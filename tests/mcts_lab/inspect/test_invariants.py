"""The checks from MCTS invariants (issue 41) on a plain UCT written apart from the lab, with
bugs the lab's checks were never told about, in both writers (``Recorder`` and JSON by hand):
each is reported with its cause as the first anomaly, and the correct search raises none."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mcts_lab import traces
from mcts_lab.inspect.inspection import inspect_trace
from tests.mcts_lab.inspect.planted_uct import planted_uct

#: Each bug, the kind its first anomaly must be, and a position where the bug shows.
PLANTED = [
    ("duplicate", "duplicate_move", None),
    ("unvisited_zero", "unvisited", None),
    ("n_parent", "term", None),
    ("virtual_loss", "term", "XX.OO...."),
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
