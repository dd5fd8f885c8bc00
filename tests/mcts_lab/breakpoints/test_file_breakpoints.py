"""Breakpoints over a trace file (mcts_lab.breakpoints.on_files): a lab file stops at the same
iteration as the live search of the same seed (the registry's own probes, asked after every
record), anomaly uses the file's findings, and what cannot hold in a file says why."""

from __future__ import annotations

import json

import pytest

from mcts_core import Search
from mcts_lab import traces
from mcts_lab.breakpoints.conditions import BreakpointError, breakpoint_stop, parse_condition
from mcts_lab.breakpoints.on_files import run_until
from mcts_lab.common import build_config, build_game
from mcts_lab.inspect.inspection import inspect_trace
from mcts_lab.traces.lab import run_recorded
from mcts_lab.traces.replay import FileReplay


def _document(game: str, position: str | None, iterations: int, seed: int) -> dict:
    g = build_game(game)
    state = g.initial_state() if position is None else g.parse_state(position)
    search = Search(g, state, build_config({}), seed=seed)
    _, steps = run_recorded(search, iterations)
    return traces.from_search(search, steps)


def _live_stop(game: str, position: str | None, condition: str, n: int, seed: int) -> int | None:
    g = build_game(game)
    state = g.initial_state() if position is None else g.parse_state(position)
    search = Search(g, state, build_config({}), seed=seed)
    stop = breakpoint_stop([parse_condition(condition, g, state)], search)
    search.run(iterations=n, should_stop=stop, progress_every=1)
    return stop.iteration


@pytest.mark.parametrize(
    ("game", "position", "condition"),
    [
        ("tic_tac_toe", None, "visits:b2>=12"),
        ("tic_tac_toe", None, "favourite-changes"),
        ("tic_tac_toe", "XX.OO....", "visits:c1>=50"),
        ("tic_tac_toe", "XX.OO....", "regret-zero"),
        ("connect_four", None, "q-sign-flips:col 6"),
        ("connect_four", None, "favourite-changes"),
    ],
)
def test_a_file_stops_where_the_live_search_stopped(
    game: str, position: str | None, condition: str
) -> None:
    replay = FileReplay(traces.parse(_document(game, position, 300, seed=5)))
    live = _live_stop(game, position, condition, 300, seed=5)
    assert live is not None, "a condition that holds within the run"
    stop = run_until(replay, condition, 300, [])
    assert stop.reason is not None and stop.position == live == replay.position_index
    assert stop.ran == live and not stop.already


def test_at_most_n_records_and_the_run_goes_on_from_there() -> None:
    replay = FileReplay(traces.parse(_document("tic_tac_toe", None, 300, seed=5)))
    live = _live_stop("tic_tac_toe", None, "visits:b2>=12", 300, seed=5)
    assert live is not None and live > 10
    stop = run_until(replay, "visits:b2>=12", 10, [])
    assert (stop.position, stop.reason, stop.ran) == (10, None, 10)  # did not hold within 10
    stop = run_until(replay, "visits:b2>=12", 300, [])
    assert stop.position == live  # from iteration 10 on
    again = run_until(replay, "visits:b2>=12", 300, [])
    assert again.already and again.position == live  # it holds already: nothing run


def test_anomaly_uses_the_file_s_findings() -> None:
    doc = _document("tic_tac_toe", None, 40, seed=4)
    for record in doc["trace"]:
        if record["iteration"] == 20:  # iteration 20's backup at its second node, flipped
            record["backup"][1]["add"] = -record["backup"][1]["add"]
    trace = traces.parse(json.loads(json.dumps(doc)))
    anomalies = inspect_trace(trace)["anomalies"]
    kinds = {item["kind"] for item in anomalies}
    assert "wrong_view" in kinds
    replay = FileReplay(trace)
    stop = run_until(replay, "anomaly", 40, anomalies)
    assert stop.position == 20 and stop.reason is not None
    assert stop.reason.startswith("inspect's wrong_view check fired at node ")
    stop = run_until(replay, "anomaly", 40, anomalies)  # next: the final tree's finding
    assert stop.position == 40 and "iteration check" in str(stop.reason)


def test_what_cannot_hold_in_a_file_says_why() -> None:
    doc = _document("tic_tac_toe", None, 30, seed=1)
    replay = FileReplay(traces.parse(doc))
    with pytest.raises(BreakpointError, match="proven needs --solver"):
        run_until(replay, "proven", 30, [])
    with pytest.raises(BreakpointError, match="not a legal move"):
        run_until(replay, "visits:z9>=3", 30, [])
    tree_only = FileReplay(traces.parse(traces.from_search(Search(build_game("nim"), seed=1))))
    with pytest.raises(BreakpointError, match="cannot be stepped"):
        run_until(tree_only, "favourite-changes", 30, [])
