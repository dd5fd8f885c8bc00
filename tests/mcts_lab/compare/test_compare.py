"""Two searches in lockstep (mcts_lab/compare/searches.py, ``mcts-lab compare``): identical settings
never part; different settings give identical traces, with the same random stream, until the first
differing choice, which is explained by the term that made it."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import make_game
from mcts_core import IterationTrace, SearchConfig
from mcts_lab.compare.searches import Lockstep, compare_searches, config_differences, path_labels
from tests.conftest import CliRunner


def without_terms(trace: IterationTrace) -> dict[str, Any]:
    """A trace without what the settings compared here compute differently at a decision:
    the bonus, the score (Q + bonus) and the rule's name. Everything else (ids, visits, Q,
    the choice, expansion, rollout, values, updates) must be the same in both searches."""
    data = trace.to_dict()
    for step in data["path"]:
        step.pop("rule", None)
        for child in step.get("children", ()):
            child.pop("bonus")
            child.pop("score")
    return data


def lockstep_run(game: Any, a: SearchConfig, b: SearchConfig, iterations: int, seed: int) -> list:
    """Step both searches, checking after every in-sync iteration that the random streams are
    at the same place; returns (comparison, trace A, trace B) per iteration."""
    pair = Lockstep(game, game.initial_state(), a, b, seed=seed)
    steps = []
    for _ in range(iterations):
        step = pair.step()
        if step.comparison.in_sync:
            assert pair.a.rng.getstate() == pair.b.rng.getstate()
        steps.append(step)
    return steps


@pytest.mark.parametrize(
    ("game_name", "config"),
    [
        ("tic_tac_toe", SearchConfig()),
        ("connect_four", SearchConfig(expansion_order="random", solver=True)),
        ("gridiron", SearchConfig(rollout_horizon="turn", expansion_order="random")),
    ],
)
def test_identical_settings_never_diverge(game_name: str, config: SearchConfig) -> None:
    game = make_game(game_name)
    result = compare_searches(
        game, game.initial_state(), config, SearchConfig(**config.to_dict()),
        iterations=300, seed=5,
    )  # fmt: skip
    assert result.iterations_run == 300 and len(result.steps) == 300
    assert all(step.same_path and step.in_sync for step in result.steps)
    assert result.first_divergence is None and result.first_out_of_sync is None
    assert result.differences == {} and result.same_path_iterations == 300
    assert result.search_a.rng.getstate() == result.search_b.rng.getstate()
    data = result.to_dict()
    for side in ("a", "b"):
        data[side].pop("seconds")
        data[side].pop("iterations_per_second")
    assert data["a"] == data["b"] and data["same_choice"] is True


@pytest.mark.parametrize(
    ("game_name", "a", "b", "term"),
    [
        ("tic_tac_toe", SearchConfig(c=0.5), SearchConfig(c=2.0), "bonus"),
        ("connect_four", SearchConfig(c=1.0), SearchConfig(c=3.0), "bonus"),
        ("gridiron", SearchConfig(rollout_depth=0, c=1.4), SearchConfig(rollout_depth=0, c=0.5),
         "bonus"),
        ("tic_tac_toe", SearchConfig(), SearchConfig(tree_policy="ucb1"), "bonus"),
        ("tic_tac_toe", SearchConfig(), SearchConfig(min_visits=3), "rule"),
    ],
)  # fmt: skip
def test_different_settings_identical_until_the_first_differing_choice(
    game_name: str, a: SearchConfig, b: SearchConfig, term: str
) -> None:
    game = make_game(game_name)
    seed = 3
    steps = lockstep_run(game, a, b, iterations=200, seed=seed)
    first = next(i for i, s in enumerate(steps) if not s.comparison.same_path)
    assert first > 0  # they agree for a while: every difference below is a choice
    for step in steps[:first]:
        assert step.comparison.in_sync
        assert without_terms(step.trace_a) == without_terms(step.trace_b)
    divergent = steps[first]
    depth = divergent.comparison.depth
    assert depth is not None and divergent.comparison.kind == "selection"
    ta, tb = divergent.trace_a, divergent.trace_b
    # the paths agree above the parting decision, which was taken in identical trees
    decisions_a, decisions_b = ta.decisions, tb.decisions
    for da, db in zip(decisions_a[:depth], decisions_b[:depth], strict=False):
        assert da.chosen_terms.label == db.chosen_terms.label
    da, db = decisions_a[depth], decisions_b[depth]
    assert da.node_id == db.node_id
    assert [(t.label, t.visits) for t in da.children] == [(t.label, t.visits) for t in db.children]
    assert da.chosen_terms.label != db.chosen_terms.label
    # the comparison reports the same split and names the deciding term
    result = compare_searches(game, game.initial_state(), a, b, iterations=first + 1, seed=seed)
    divergence = result.first_divergence
    assert divergence is not None
    assert divergence.iteration == ta.iteration == first + 1
    assert divergence.depth == depth and divergence.in_sync_before
    assert divergence.choice_a == da.chosen_terms.label
    assert divergence.choice_b == db.chosen_terms.label
    assert divergence.terms_a == da.children and divergence.terms_b == db.children
    assert divergence.deciding_term == term
    assert result.first_out_of_sync == first + 1 and result.out_of_sync_reason == "path"
    text = divergence.explanation
    assert f"A ({_settings_text(a, b, 0)}) chose {da.chosen_terms.label}" in text
    assert f"B ({_settings_text(a, b, 1)}) chose {db.chosen_terms.label}" in text
    if term == "bonus":
        assert "Q is the same in both; the exploration bonus decided" in text
        assert f"bonus {da.chosen_terms.bonus:.3f}" in text
    else:
        assert "min_visits" in text


def _settings_text(a: SearchConfig, b: SearchConfig, side: int) -> str:
    parts = []
    for name, pair in config_differences(a, b).items():
        value = pair[side]
        parts.append(f"{name} {value:g}" if isinstance(value, float) else f"{name} {value}")
    return ", ".join(parts)


def test_value_range_divergence_is_decided_by_q() -> None:
    game = make_game("tic_tac_toe")
    state = game.parse_state("X...O....")
    result = compare_searches(
        game, state, SearchConfig(), SearchConfig(value_range="unit"), iterations=60, seed=2
    )
    divergence = result.first_divergence
    assert divergence is not None and divergence.in_sync_before
    # the same leaf values in [-1, 1] and [0, 1] keep the searches in sync until then
    assert result.first_out_of_sync == divergence.iteration
    assert divergence.deciding_term == "q"
    assert "Q decided (the searches value in different ranges)" in divergence.explanation


def test_settings_that_draw_differently_are_reported_out_of_sync() -> None:
    game = make_game("tic_tac_toe")
    result = compare_searches(
        game, game.initial_state(), SearchConfig(), SearchConfig(rollout="heuristic"),
        iterations=50, seed=1,
    )  # fmt: skip
    # the first iteration's path is the same, but the rollouts draw differently
    assert result.steps[0].same_path and not result.steps[0].in_sync
    assert result.first_out_of_sync == 1 and result.out_of_sync_reason == "random_stream"
    divergence = result.first_divergence
    assert divergence is not None and not divergence.in_sync_before
    assert divergence.deciding_term == "statistics"
    assert "no single term is to blame" in divergence.explanation


def test_expansion_order_divergence() -> None:
    game = make_game("connect_four")
    result = compare_searches(
        game, game.initial_state(), SearchConfig(), SearchConfig(expansion_order="heuristic"),
        iterations=5, seed=0,
    )  # fmt: skip
    divergence = result.first_divergence
    assert divergence is not None and divergence.iteration == 1 and divergence.depth == 0
    assert divergence.kind == "expansion" and divergence.deciding_term == "expansion_order"
    assert divergence.choice_a == "+col 1" and divergence.choice_b.startswith("+col ")
    assert result.steps[0].path_a == ("+col 1",)


def test_path_labels_name_chance_outcomes() -> None:
    game = make_game("gridiron")
    pair = Lockstep(game, game.initial_state(), SearchConfig(), SearchConfig(), seed=1)
    labels = [path_labels(pair.step().trace_a) for _ in range(20)]
    assert any(label.startswith("[") and label.endswith("]") for path in labels for label in path)
    assert all(path[-1].startswith("+") for path in labels if path)


def test_node_cap_stops_the_comparison() -> None:
    game = make_game("tic_tac_toe")
    result = compare_searches(
        game, game.initial_state(), SearchConfig(), SearchConfig(max_nodes=20),
        iterations=100, seed=0,
    )  # fmt: skip
    assert result.iterations_run == 19 and "B's tree is full (max_nodes 20)" in result.note
    assert result.to_dict()["b"]["stopped"] == "node_cap"


def test_compare_rejects_bad_arguments() -> None:
    game = make_game("tic_tac_toe")
    with pytest.raises(ValueError, match="iterations"):
        compare_searches(game, game.initial_state(), SearchConfig(), SearchConfig(), iterations=0)
    with pytest.raises(ValueError, match="already over"):
        Lockstep(game, game.parse_state("XXXOO...."), SearchConfig(), SearchConfig())


# ------------------------------------------------------------------ the command line


def test_compare_json(cli: CliRunner) -> None:
    argv = ("compare", "--game", "tic_tac_toe", "--iterations", "120", "--seed", "1",
            "--a", "--c 0.5", "--b", "--c 2 --final robust", "--json")  # fmt: skip
    status, out, err = cli(*argv)
    assert status == 0 and err == "" and out.count("\n") == 1
    data = json.loads(out)
    for key, kind in {
        "game": str, "position": str, "seed": int, "iterations": int, "iterations_run": int,
        "differences": dict, "same_path_iterations": int, "first_divergence": dict,
        "first_out_of_sync": int, "out_of_sync_reason": str, "same_choice": bool, "a": dict,
        "b": dict, "note": str, "steps": list, "flags": dict,
    }.items():  # fmt: skip
        assert isinstance(data[key], kind), key
    assert data["differences"] == {"c": [0.5, 2.0], "final_policy": ["most_visited", "robust"]}
    assert data["flags"] == {"a": "--c 0.5", "b": "--c 2 --final robust"}
    assert data["a"]["config"]["c"] == 0.5 and data["b"]["config"]["final_policy"] == "robust"
    assert data["a"]["iterations"] == data["b"]["iterations"] == 120
    assert len(data["steps"]) == 120
    step = data["steps"][0]
    assert set(step) == {"iteration", "same_path", "in_sync", "depth", "kind", "a", "b"}
    divergence = data["first_divergence"]
    assert set(divergence) == {
        "iteration", "depth", "kind", "player", "parent_visits", "a", "b", "deciding_term",
        "in_sync_before", "explanation",
    }  # fmt: skip
    assert set(divergence["a"]) == {"choice", "rule", "terms"}
    assert set(divergence["a"]["terms"][0]) == {
        "action", "visits", "q", "bonus", "prior", "score", "proven"
    }  # fmt: skip
    first = divergence["iteration"]
    assert all(s["same_path"] for s in data["steps"][: first - 1])
    assert not data["steps"][first - 1]["same_path"]
    assert data["steps"][first - 1]["depth"] == divergence["depth"]
    assert data["same_path_iterations"] >= first - 1
    # deterministic: the same command gives the same object, timings aside
    again = json.loads(cli(*argv)[1])
    for d in (data, again):
        for side in ("a", "b"):
            d[side].pop("seconds")
            d[side].pop("iterations_per_second")
    assert data == again


def test_compare_text_and_single_flag_settings(cli: CliRunner) -> None:
    status, out, err = cli(
        "compare", "--game", "tic_tac_toe", "--position", "X...O....",
        "--iterations", "100", "--seed", "2", "--b=--solver",
    )  # fmt: skip
    assert status == 0 and err == ""
    assert "settings that differ: solver off / on" in out
    assert "first divergence: iteration" in out and "same path on" in out
    status, out, _ = cli("compare", "--game", "connect_four", "--iterations", "30")
    assert status == 0
    assert "the settings are the same" in out and "first divergence: none" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--a", "--seed 3"), "--a: --seed is set once for the whole command"),
        (("--b=--iterations=5",), "--b: --iterations is set once"),
        (("--b", "--solver"), "argument --b: expected one argument"),  # write --b=--solver
        (("--a", "--c nan"), "--a '--c nan': argument --c: 'nan' is not a"),
        (("--a", "--loss 5"), "--a '--loss 5'"),
        (("--b", "--bogus 1"), "unrecognized arguments: --bogus"),
        (("--a", "--c 'open"), "No closing quotation"),
        (("--iterations", "0"), "0 is not in [1, 100,000]"),
        (("--position", "XXXOO...."), "already over"),
        (("--position", "XX"), "9"),
    ],
)
def test_compare_errors(cli: CliRunner, argv: tuple[str, ...], message: str) -> None:
    status, out, err = cli("compare", "--game", "tic_tac_toe", *argv)
    assert status == 2 and out == ""
    assert err.startswith("mcts-lab: error: ") and err.count("\n") == 1
    assert message in err
