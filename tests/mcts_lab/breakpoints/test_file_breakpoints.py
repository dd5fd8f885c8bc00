"""Breakpoints over a trace file (mcts_lab.breakpoints.on_files): a lab file stops at the same
iteration as the live search of the same seed (the registry's own probes, asked after every
record), anomaly uses the file's findings, and what cannot hold in a file says why."""

from __future__ import annotations

import json

import pytest

from games import GAME_NAMES
from mcts_core import Search
from mcts_lab import traces
from mcts_lab.breakpoints.conditions import (
    BREAKPOINTS,
    BreakpointError,
    BreakpointKind,
    breakpoint_stop,
    parse_condition,
)
from mcts_lab.breakpoints.on_files import run_until
from mcts_lab.common import build_config, build_game
from mcts_lab.inspect.inspection import inspect_trace
from mcts_lab.traces.lab import run_recorded
from mcts_lab.traces.replay import FileReplay


def _document(
    game: str, position: str | None, iterations: int, seed: int, solver: bool = False
) -> dict:
    g = build_game(game)
    state = g.initial_state() if position is None else g.parse_state(position)
    search = Search(g, state, build_config({"solver": solver}), seed=seed)
    _, steps = run_recorded(search, iterations)
    return traces.from_search(search, steps)


def _live_stop(
    game: str, position: str | None, condition: str, n: int, seed: int, solver: bool = False
) -> int | None:
    g = build_game(game)
    state = g.initial_state() if position is None else g.parse_state(position)
    search = Search(g, state, build_config({"solver": solver}), seed=seed)
    stop = breakpoint_stop([parse_condition(condition, g, state)], search)
    search.run(iterations=n, should_stop=stop, progress_every=1)
    return stop.iteration


def _condition_text(kind: BreakpointKind, doc: dict) -> str:
    """The registry's documented syntax (``kind.argument``) filled in: MOVE the root move the
    recorded run visited most (its label in the file), K a count it reached."""
    root = next(node for node in doc["nodes"] if node["parent"] is None)
    moves = [node for node in doc["nodes"] if node["parent"] == root["id"]]
    top = max(moves, key=lambda node: node["visits"])
    argument = kind.argument.replace("[", "").replace("]", "")
    return kind.name + argument.replace("MOVE", top["move"]).replace("K", "12")


#: What a condition's ``needs_*`` flag says a file must hold, and the words of the refusal.
REFUSALS = {
    "needs_exact": "needs exact values",
    "needs_solver": "needs --solver",
}

ITERATIONS = 120


@pytest.mark.parametrize("game", GAME_NAMES)
@pytest.mark.parametrize("kind", BREAKPOINTS.values(), ids=list(BREAKPOINTS))
def test_every_condition_works_on_a_file_or_says_why(kind: BreakpointKind, game: str) -> None:
    """Every condition of the registry, on every registered game: over a full file (the
    registered game, the solver on, records) it stops where the live search of the same seed
    stopped (a proof only at the file's end: the records do not say when it came); over a bare
    file (no solver, a game nobody registered) it works too, or it is refused for the reason
    its record declares, in words that say so."""
    doc = _document(game, None, ITERATIONS, seed=5, solver=True)
    text = _condition_text(kind, doc)
    trace = traces.parse(doc)
    findings = inspect_trace(trace)["anomalies"]
    try:
        live = _live_stop(game, None, text, ITERATIONS, seed=5, solver=True)
    except BreakpointError as refused:  # the exact value not found in time: the file agrees
        assert kind.needs_exact and "exact value" in str(refused)
        with pytest.raises(BreakpointError, match="exact value"):
            run_until(FileReplay(trace), text, ITERATIONS, findings)
    else:
        stop = run_until(FileReplay(trace), text, ITERATIONS, findings)
        if kind.needs_solver:
            assert stop.position in (live, ITERATIONS) if live else stop.reason is None
        else:
            assert stop.position == (live or ITERATIONS) and (stop.reason is None) == (live is None)

    bare = _document(game, None, ITERATIONS, seed=5)
    bare["game"] = "homebrew"  # no registered game: the file's own labels name the moves
    replay = FileReplay(traces.parse(bare))
    declared = [words for flag, words in REFUSALS.items() if getattr(kind, flag)]
    if declared:
        with pytest.raises(BreakpointError, match="|".join(declared)):
            run_until(replay, text, ITERATIONS, inspect_trace(replay.trace)["anomalies"])
    else:
        stop = run_until(replay, text, ITERATIONS, inspect_trace(replay.trace)["anomalies"])
        assert stop.condition.kind is kind and stop.ran + int(stop.already) >= 1


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
