"""The mcts-trace format: round trips, foreign trees, every anomaly planted and found, no false
alarm on correct searches, bad files refused in one line, and the CLI's ``inspect``."""

from __future__ import annotations

import copy
import dataclasses
import json
import math
import random
from pathlib import Path
from typing import Any

import jsonschema
import numpy as np
import pytest

from games import GAME_NAMES, make_game
from mcts_core import Search
from mcts_core.trace import Decision, IterationTrace, PathStep, RolloutStep
from mcts_lab import traces
from mcts_lab.cli import main
from mcts_lab.common import action_index, build_config, build_game
from mcts_lab.inspect.anomalies import DELTA
from mcts_lab.inspect.inspection import inspect_trace
from mcts_lab.inspect.statistics_checks import chi_square_sf
from mcts_lab.traces.format import check_value, schema
from mcts_lab.traces.lab import run_recorded
from mcts_lab.traces.replay import FileReplay


def lab_doc(
    game: str = "tic_tac_toe",
    iterations: int = 300,
    seed: int = 1,
    position: str | None = None,
    **options: Any,
):
    g = build_game(game)
    root = g.initial_state() if position is None else g.parse_state(position)
    search = Search(g, root, build_config(options), seed=seed)
    _, steps = run_recorded(search, iterations)
    return search, steps, traces.from_search(search, steps)


def kinds(doc: dict[str, Any]) -> set[str]:
    return set(inspect_trace(traces.parse(doc))["anomaly_counts"])


def found(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return inspect_trace(traces.parse(doc))["anomalies"]


def full_schema_errors(doc: dict[str, Any]) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema())
    return [error.message for error in validator.iter_errors(doc)]


# ------------------------------------------------------------------ round trips


@pytest.mark.parametrize("game", ["tic_tac_toe", "gridiron"])
def test_search_trace_load_gives_the_same_tree_and_paths(tmp_path: Path, game: str) -> None:
    search, steps, doc = lab_doc(game, 200, seed=5)
    assert not full_schema_errors(doc)
    for name in ("t.json", "t.jsonl"):
        traces.write(doc, tmp_path / name)
        trace = traces.load(tmp_path / name)
        assert len(trace.nodes) == search.node_count
        for node in trace.nodes:
            live = search.find_node(node["id"])
            assert live is not None
            assert node["visits"] == live.visits
            assert node["value_sums"] == [live.value0, live.value1]
            parent = live.parent.id if live.parent is not None else None
            assert node["parent"] == parent
        assert [r["path"] for r in trace.records] == [
            [u.node_id for u in step.updates] for step in steps
        ]
        assert trace.header["seed"] == 5 and trace.header["iterations"] == 200


def _without_the_file_s_blanks(trace: IterationTrace) -> IterationTrace:
    """``trace`` with what a file does not hold blanked as FileReplay.iteration_trace
    documents: actions (the file's are node ids), the outcome count, the rollout's moves (its
    length stays), the end position and a deterministic expansion's outcome label."""
    path: list[PathStep] = []
    for step in trace.path:
        if isinstance(step, Decision):
            kids = tuple(dataclasses.replace(t, action=t.node_id) for t in step.children)
            path.append(dataclasses.replace(step, children=kids))
        else:
            path.append(dataclasses.replace(step, num_outcomes=0))
    expansion = trace.expansion
    if expansion is not None and expansion.chance_id is None:
        expansion = dataclasses.replace(expansion, outcome_label="")
    blank = RolloutStep(-1, "", "")
    evaluation = dataclasses.replace(
        trace.evaluation, rollout=(blank,) * len(trace.evaluation.rollout), end_state=""
    )
    return dataclasses.replace(trace, path=tuple(path), expansion=expansion, evaluation=evaluation)


@pytest.mark.parametrize(
    ("game", "position", "options"),
    [
        ("tic_tac_toe", "XO..X....", {"solver": True}),  # O to move, soon proven lost
        ("connect_four", None, {"policy": "puct", "min_visits": 2}),
        ("gridiron", None, {}),
        ("gridiron", None, {"depth": 0, "solver": True}),
    ],
)
def test_each_record_rebuilds_the_live_iteration_trace(
    game: str, position: str | None, options: dict[str, Any]
) -> None:
    """FileReplay.iteration_trace gives back every iteration's IterationTrace from the lab's
    file (the decisions' terms and proofs, dice, the expansion, the leaf's values, the backup
    with each node's visits, mean and proof), but for the blanks it documents."""
    _, steps, doc = lab_doc(game, 200, seed=8, position=position, **options)
    replay = FileReplay(traces.loads(traces.dumps(doc, json_lines=True), json_lines=True))
    for k, step in enumerate(steps, 1):
        replay.goto(k)
        rebuilt = replay.iteration_trace()
        assert rebuilt is not None
        assert _without_the_file_s_blanks(rebuilt) == _without_the_file_s_blanks(step)
    if game == "tic_tac_toe":
        assert any("proof" in item for r in doc["trace"] for item in r["backup"])
        assert any(
            "proof" in t for r in doc["trace"] for d in r["decisions"] for t in d["children"]
        )
    replay.goto(0)
    assert replay.iteration_trace() is None  # before the first record


def test_the_lab_s_record_fields_are_checked() -> None:
    _, _, doc = lab_doc("tic_tac_toe", 40, seed=2, solver=True)
    assert not full_schema_errors(doc)
    record = doc["trace"][-1]
    assert {"leaf_raw", "rollout_moves", "evaluation", "leaf_values"} <= set(record)
    record["backup"][0]["proof"] = "maybe"
    with pytest.raises(traces.TraceError, match="proof"):
        traces.parse(doc)


def test_recorded_run_builds_the_same_tree_as_run() -> None:
    g = make_game("connect_four")
    plain = Search(g, g.initial_state(), seed=9)
    plain.run(iterations=300)
    recorded = Search(g, g.initial_state(), seed=9)
    run_recorded(recorded, 300)
    strip = lambda d: {k: v for k, v in d.items() if k != "trace"}  # noqa: E731
    assert strip(traces.from_search(plain)) == strip(traces.from_search(recorded))


def test_cli_search_trace_matches_search_json(tmp_path: Path, capsys) -> None:
    path = tmp_path / "run.jsonl"
    argv = ["search", "--game", "tic_tac_toe", "--iterations", "150", "--seed", "3", "--json"]
    assert main([*argv, "--trace", str(path)]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["seed"] == 3 and summary["config"]["c"] == 1.4
    trace = traces.load(path)
    assert len(trace.records) == 150
    header = trace.header
    assert (header["game"], header["position"], header["seed"], header["iterations"]) == (
        summary["game"],
        summary["position"],
        3,
        150,
    )
    assert header["settings"] == summary["config"]
    report = inspect_trace(trace)
    by_action = {row["action"]: row for row in report["root_children"]}
    for child in summary["children"]:
        assert by_action[child["action"]]["visits"] == child["visits"]
        assert by_action[child["action"]]["value"] == pytest.approx(child["value"], abs=1e-6)
    # the same seed without --trace gives the same numbers
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)
    assert again["children"] == summary["children"]


def test_tree_format_trace_is_a_valid_tree(capsys) -> None:
    argv = ["tree", "--game", "gridiron", "--iterations", "120", "--format", "trace"]
    assert main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert not full_schema_errors(doc)
    trace = traces.parse(doc)
    assert "trace" not in doc and trace.nodes[0]["visits"] == 120
    assert any(node.get("kind") == "chance" for node in trace.nodes)
    assert not inspect_trace(trace)["anomaly_counts"]


def test_the_fast_checker_agrees_with_jsonschema() -> None:
    _, _, doc = lab_doc("gridiron", 60)
    good_node, good_record = doc["nodes"][3], doc["trace"][3]
    bad_nodes = [
        {**good_node, "visits": -1},
        {**good_node, "visits": 1.5},
        {**good_node, "visits": True},
        {**good_node, "parent": "0"},
        {**good_node, "kind": "decision"},
        {**good_node, "prior": 1.5},
        {**good_node, "move": "x" * 1001},
        {**good_node, "value_sums": ["a"]},
        {k: v for k, v in good_node.items() if k != "visits"},
        {**good_node, "id": -3},
        {**good_node, "player": 99},
    ]
    bad_records = [
        {**good_record, "path": []},
        {**good_record, "iteration": 0},
        {**good_record, "backup": [{"node": 1}]},
        {**good_record, "decisions": [{"node": 0}]},
        {**good_record, "leaf_value": "high"},
    ]
    defs = schema()["$defs"]
    node_validator = jsonschema.Draft202012Validator({**defs["node"], "$defs": defs})
    record_validator = jsonschema.Draft202012Validator({**defs["iteration"], "$defs": defs})
    for node in [good_node, *bad_nodes]:
        ours = check_value(node, defs["node"], "node") is None
        assert ours == node_validator.is_valid(node), node
    for record in [good_record, *bad_records]:
        ours = check_value(record, defs["iteration"], "record") is None
        assert ours == record_validator.is_valid(record), record


# ------------------------------------------------------------------ foreign trees


@pytest.mark.parametrize("name, moves", [("tic_tac_toe", [4, 0]), ("connect_four", [3])])
def test_openspiel_mctsbot_trees_convert_and_are_clean(name: str, moves: list[int]) -> None:
    pyspiel = pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(name)
    for seed in range(3):
        rng = np.random.RandomState(seed)
        evaluator = mcts.RandomRolloutEvaluator(1, rng)
        bot = mcts.MCTSBot(game, 1.4, 200, evaluator, random_state=rng, solve=True)
        state = game.new_initial_state()
        for move in moves:
            state.apply_action(move)
        root = bot.mcts_search(state)
        doc = traces.from_openspiel(root, state, settings={"c": 1.4}, seed=seed)
        assert not full_schema_errors(doc)
        trace = traces.parse(doc)
        report = inspect_trace(trace)
        assert report["anomaly_counts"] == {}, report["anomalies"][:3]
        assert report["root"]["visits"] == root.explore_count
        visits = {row["action_index"]: row["visits"] for row in report["root_children"]}
        assert visits == {c.action: c.explore_count for c in root.children}
        assert doc["game"] == f"openspiel:{name}()"
        # a planted sign error: the first child's rewards from the other player's view
        child = next(n for n in doc["nodes"] if n["parent"] == 0 and n["visits"] > 5)
        child["value_sum"] = -child["value_sum"]
        assert "wrong_view" in kinds(doc)


def mctx_arrays() -> dict[str, np.ndarray]:
    """A two-player mctx tree per its documented layout (discount -1, no rewards): the root's
    raw value 0.1, then simulations expanding node 1 (action 0, raw 0.5), node 2 (action 2,
    raw 0.3) and node 3 (action 1 below node 1, raw -0.2), each value from its mover's view."""
    unvisited = -1
    node_visits = np.array([[4, 2, 1, 1]])
    node_values = np.array([[(0.1 - 0.5 - 0.3 - 0.2) / 4, (0.5 + 0.2) / 2, 0.3, -0.2]])
    parents = np.array([[-1, 0, 0, 1]])
    action_from_parent = np.array([[-1, 0, 2, 1]])
    children_index = np.full((1, 4, 3), unvisited)
    children_index[0, 0, 0], children_index[0, 0, 2], children_index[0, 1, 1] = 1, 2, 3
    children_visits = np.zeros((1, 4, 3), dtype=int)
    children_values = np.zeros((1, 4, 3))
    for node in (1, 2, 3):
        parent, action = parents[0, node], action_from_parent[0, node]
        children_visits[0, parent, action] = node_visits[0, node]
        children_values[0, parent, action] = node_values[0, node]
    return {
        "node_visits": node_visits,
        "node_values": node_values,
        "parents": parents,
        "action_from_parent": action_from_parent,
        "children_index": children_index,
        "children_visits": children_visits,
        "children_values": children_values,
        "children_prior_logits": np.log(np.array([[[0.5, 0.3, 0.2]] * 4])),
        "children_rewards": np.zeros((1, 4, 3)),
        "children_discounts": np.where(children_index >= 0, -1.0, 0.0),
    }


def test_mctx_arrays_convert_and_are_clean() -> None:
    doc = traces.from_mctx(mctx_arrays(), action_labels=["left", "middle", "right"])
    assert not full_schema_errors(doc)
    report = inspect_trace(traces.parse(doc))
    assert report["anomaly_counts"] == {}
    rows = {row["action"]: row for row in report["root_children"]}
    assert rows["left"]["visits"] == 2 and rows["left"]["prior"] == pytest.approx(0.5)
    # root mover's view: node 1's value 0.35 was its own mover's
    assert rows["left"]["value"] == pytest.approx(-0.35)
    assert report["root"]["visits"] == 4


def test_mctx_root_value_with_the_wrong_sign_is_a_wrong_view() -> None:
    arrays = mctx_arrays()
    arrays["node_values"][0, 0] = -arrays["node_values"][0, 0]
    assert "wrong_view" in kinds(traces.from_mctx(arrays))


def test_mctx_with_rewards_is_not_checked_as_a_mean() -> None:
    arrays = mctx_arrays()
    arrays["children_rewards"][0, 0, 0] = 1.0
    assert traces.from_mctx(arrays)["values"]["backup"] == "other"


def tiny_uct(seed: int, iterations: int, buggy: bool = False) -> dict[str, Any]:
    """An independent UCT (not the lab's search) on Nim, recording with Recorder. Each node's
    value is from the view of the player who moved into it (the format's "edge" view);
    ``buggy`` backs up the value of the player to move at the node instead, the classic sign
    bug."""
    rng = random.Random(seed)
    game = make_game("nim")
    start = game.initial_state()
    rec = traces.Recorder(
        game="nim",
        position=game.format_state(start),
        settings={"c": 1.4},
        seed=seed,
        writer="tiny-uct",
    )
    root = rec.root(player=game.current_player(start))
    state_of = {root: start}
    kids: dict[int, list[int]] = {root: []}
    untried = {root: list(game.legal_actions(start))}
    visits = {root: 0}
    sums = {root: 0.0}
    mover_into = {root: game.current_player(start)}
    for _ in range(iterations):
        node, path = root, [root]
        while not untried[node] and kids[node]:
            parent_visits = visits[node]
            terms = []
            for k in kids[node]:
                q, bonus = sums[k] / visits[k], 1.4 * math.sqrt(math.log(parent_visits) / visits[k])
                terms.append(
                    {"node": k, "visits": visits[k], "q": q, "bonus": bonus, "score": q + bonus}
                )
            best = max(terms, key=lambda t: t["score"])
            rec.select(node, best["node"], terms=terms, rule="uct")
            node = best["node"]
            path.append(node)
        state = state_of[node]
        if untried[node]:
            action = untried[node].pop(0)
            after = game.next_state(state, action, game.chance_outcomes(state, action)[0][0])
            player = -1 if game.is_terminal(after) else game.current_player(after)
            child = rec.expand(
                node,
                move=game.action_label(state, action),
                player=player,
                action=action_index(game, state, action),
            )
            state_of[child], kids[child], visits[child], sums[child] = after, [], 0, 0.0
            untried[child] = [] if game.is_terminal(after) else list(game.legal_actions(after))
            mover_into[child] = game.current_player(state)
            kids[node].append(child)
            node, state = child, after
            path.append(child)
        while not game.is_terminal(state):
            action = rng.choice(list(game.legal_actions(state)))
            state = game.next_state(state, action, game.chance_outcomes(state, action)[0][0])
        returns = game.returns(state)
        for n in path:
            view = mover_into[n]
            if buggy and n != root:
                view = 1 - view
            visits[n] += 1
            sums[n] += returns[view]
            rec.backup(n, returns[view])
        rec.finish(leaf=node, leaf_value=returns[mover_into[node]], evaluation="rollout")
    return rec.document()


def test_an_independent_uct_recorded_is_clean_and_its_sign_bug_is_found(tmp_path: Path) -> None:
    doc = tiny_uct(seed=2, iterations=300)
    assert not full_schema_errors(doc)
    traces.write(doc, tmp_path / "uct.jsonl")
    report = inspect_trace(traces.load(tmp_path / "uct.jsonl"))
    assert report["anomaly_counts"] == {}, report["anomalies"][:3]
    assert report["iterations"] == 300 and report["root"]["visits"] == 300
    bug = inspect_trace(traces.parse(tiny_uct(seed=2, iterations=300, buggy=True)))
    assert "wrong_view" in bug["anomaly_counts"]


# ------------------------------------------------------------------ anomalies, planted


def small_tree(**root: Any) -> dict[str, Any]:
    return {
        "format": "mcts-trace",
        "version": 1,
        "settings": {"c": 1.0},
        "values": {"range": [-1, 1], "view": "edge", "zero_sum": True, "backup": "mean"},
        "nodes": [{"id": 0, "parent": None, "player": 0, "visits": 1, "value_sum": 0.0, **root}],
    }


def add(doc: dict[str, Any], **node: Any) -> None:
    doc["nodes"].append(node)


def test_a_correct_small_tree_is_clean() -> None:
    doc = small_tree(visits=4, value_sum=0.5)
    add(doc, id=1, parent=0, player=1, move="a", visits=2, value_sum=1.0)
    add(doc, id=2, parent=0, player=1, move="b", visits=1, value_sum=-0.5)
    assert kinds(doc) == set()


def test_visit_count_planted() -> None:
    doc = small_tree(visits=9, value_sum=0.0)
    add(doc, id=1, parent=0, player=1, move="a", visits=2, value_sum=0.0)
    [item] = found(doc)
    assert item["kind"] == "visit_count" and item["node"] == 0 and "9 visits" in item["detail"]


def test_value_range_mean_and_prior_planted() -> None:
    doc = small_tree(visits=3, value_sum=0.0)
    add(doc, id=1, parent=0, player=1, move="a", visits=1, value_sum=4.0, prior=0.7)
    add(doc, id=2, parent=0, player=1, move="b", visits=1, value_sum=0.5, mean=0.2, prior=0.6)
    assert {"value_range", "mean", "prior"} <= kinds(doc)


def test_proven_planted() -> None:
    doc = small_tree(visits=3, value_sum=1.0, proven=-1.0)
    add(doc, id=1, parent=0, player=1, move="win", visits=2, value_sum=2.0, proven=1.0)
    [item] = found(doc)
    assert item["kind"] == "proven" and "'win' is proven 1" in item["detail"]
    complete = small_tree(visits=3, value_sum=-2.0, proven=1.0, num_actions=1)
    add(complete, id=1, parent=0, player=1, move="lose", visits=2, value_sum=-2.0, proven=-1.0)
    assert kinds(complete) == {"proven"}


def test_starved_planted_with_what_uct_would_choose() -> None:
    doc = small_tree(visits=2201, value_sum=200 * 0.6 + 2000 * -0.2)
    add(doc, id=1, parent=0, player=1, move="good", visits=200, value_sum=200 * 0.6)
    add(doc, id=2, parent=0, player=1, move="bad", visits=2000, value_sum=2000 * -0.2)
    [item] = [i for i in found(doc) if i["kind"] == "starved"]
    assert item["node"] == 0
    assert "'good'" in item["detail"] and "would choose 'good'" in item["detail"]
    # within the noise bound: not flagged by the Hoeffding test (UCT with the file's c = 1
    # could not end so, which its exact bound says: uct_starved)
    close = small_tree(visits=221, value_sum=20 * 0.6 + 200 * -0.2)
    add(close, id=1, parent=0, player=1, move="good", visits=20, value_sum=20 * 0.6)
    add(close, id=2, parent=0, player=1, move="bad", visits=200, value_sum=200 * -0.2)
    assert kinds(close) == {"uct_starved"}
    close["settings"] = {}  # no UCT stated: no bound
    assert kinds(close) == set()


def test_chance_counts_planted_and_chi_square_known_values() -> None:
    assert chi_square_sf(3.841, 1) == pytest.approx(0.05, abs=1e-3)
    assert chi_square_sf(18.307, 10) == pytest.approx(0.05, abs=1e-3)
    assert chi_square_sf(0.0, 3) == 1.0
    doc = small_tree(visits=1001, value_sum=0.0)
    add(doc, id=1, parent=0, kind="chance", player=0, move="roll", visits=1000, value_sum=0.0)
    add(doc, id=2, parent=1, player=1, move="heads", probability=0.5, visits=900, value_sum=0.0)
    add(doc, id=3, parent=1, player=1, move="tails", probability=0.5, visits=100, value_sum=0.0)
    [item] = found(doc)
    assert item["kind"] == "chance_counts" and item["node"] == 1
    fair = copy.deepcopy(doc)
    fair["nodes"][2]["visits"], fair["nodes"][3]["visits"] = 520, 480
    assert kinds(fair) == set()


def test_wrong_view_planted_in_a_lab_tree() -> None:
    _, _, doc = lab_doc("tic_tac_toe", 300, seed=2)
    root_kids = [n for n in doc["nodes"] if n["parent"] == 0]
    for node in root_kids:
        node["value_sums"].reverse()
        node["mean"] = node["value_sums"][0] / node["visits"]
    doc.pop("trace")
    items = found(doc)
    assert any(i["kind"] == "wrong_view" and i["node"] == 0 for i in items)


def test_iteration_anomalies_planted() -> None:
    _, _, doc = lab_doc("tic_tac_toe", 100, seed=3)
    early = copy.deepcopy(doc)
    early["trace"][5]["expanded"] = []  # the node seems to appear from nowhere
    assert "iteration" in kinds(early)
    flipped = copy.deepcopy(doc)
    record = flipped["trace"][40]
    leaf = record["backup"][-1]
    view_values = record["leaf_values"]
    leaf["add"] = view_values[1] if leaf["add"] == view_values[0] else view_values[0]
    assert "wrong_view" in kinds(flipped) or "iteration" in kinds(flipped)
    counted = copy.deepcopy(doc)
    counted["trace"][60]["decisions"][0]["children"][0]["visits"] += 3
    assert "iteration" in kinds(counted)


def test_illegal_move_planted() -> None:
    _, _, doc = lab_doc("tic_tac_toe", 50, seed=1)
    doc.pop("trace")
    child = next(n for n in doc["nodes"] if n["parent"] == 0)
    grandchild = next(n for n in doc["nodes"] if n["parent"] == child["id"])
    grandchild["action"], grandchild["move"] = child["action"], child["move"]  # same cell again
    items = found(doc)
    assert any(i["kind"] == "illegal_move" and i["node"] == grandchild["id"] for i in items)


# ------------------------------------------------------------------ no false alarms

VARIANTS: list[dict[str, Any]] = [
    {},
    {"solver": True},
    {"value_range": "unit"},
    {"policy": "puct", "prior": "heuristic"},
    {"min_visits": 3, "c": 0.5},
    {"depth": 0},
]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_no_false_alarm_on_100_seeded_runs(game: str) -> None:
    for seed in range(100):
        g = build_game(game)
        search = Search(g, g.initial_state(), build_config(VARIANTS[seed % 6]), seed=seed)
        if seed % 4 == 0:  # a quarter with every iteration recorded
            _, steps = run_recorded(search, 40)
        else:
            search.run(iterations=20 + 2 * seed)
            steps = []
        report = inspect_trace(traces.parse(traces.from_search(search, steps)))
        assert report["anomaly_counts"] == {}, (seed, report["anomalies"][:2])


def test_thresholds_are_the_documented_ones() -> None:
    assert DELTA == 1e-9
    text = Path(__file__).parents[3].joinpath("docs", "trace_format.md").read_text("utf-8")
    assert "1e-9" in text


# ------------------------------------------------------------------ bad files


def refusal(path: Path) -> str:
    with pytest.raises(traces.TraceError) as error:
        traces.load(path)
    message = str(error.value)
    assert "\n" not in message and len(message) < 300
    return message


def test_bad_files_get_one_line(tmp_path: Path) -> None:
    cases: dict[str, str | bytes] = {
        "malformed.json": '{"format": "mcts-trace", "version": 1,\n "nodes": [}',
        "not_object.json": "[1, 2]",
        "other.json": '{"format": "something", "version": 1, "nodes": []}',
        "version.json": '{"format": "mcts-trace", "version": 7, "nodes": []}',
        "schema.json": json.dumps(small_tree(visits=-2)),
        "nan.json": '{"format": "mcts-trace", "version": 1, "nodes": [{"id": 0, "parent": null,'
        ' "visits": 1, "mean": NaN}]}',
        "cycle.json": json.dumps(
            {
                "format": "mcts-trace",
                "version": 1,
                "nodes": [
                    {"id": 0, "parent": None, "visits": 3},
                    {"id": 1, "parent": 2, "visits": 1},
                    {"id": 2, "parent": 1, "visits": 1},
                ],
            }
        ),
        "deep.json": "[" * 100_000 + "]" * 100_000,
        "binary.json": b"\xff\xfe\x00garbage",
        "empty.jsonl": "",
        "long_string.json": json.dumps(small_tree(position="x" * 1_000_000)),
        "bad_line.jsonl": json.dumps(small_tree()) + "\n{oops\n",
    }
    messages = {}
    for name, content in cases.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
        messages[name] = refusal(path)
    assert messages["malformed.json"].startswith("line 2:")
    assert "cycle" in messages["cycle.json"]
    assert "visits" in messages["schema.json"]
    assert "NaN" in messages["nan.json"]
    assert "1,000,000 characters" in messages["long_string.json"]
    assert messages["bad_line.jsonl"].startswith("line ")


def test_huge_files_are_refused_before_reading(tmp_path: Path) -> None:
    # a 10-million-node tree and a 1 GB string: refused by size, never read (sparse files)
    nodes = tmp_path / "ten_million.json"
    with open(nodes, "w") as handle:
        handle.write('{"format":"mcts-trace","version":1,"nodes":[')
        handle.truncate(10_000_000 * 32)
    string = tmp_path / "gigabyte.json"
    with open(string, "w") as handle:
        handle.write('{"format":"mcts-trace","version":1,"position":"')
        handle.truncate(1 << 30)
    for path in (nodes, string):
        assert "at most 104,857,600 are read" in refusal(path)  # 100 MB
    with pytest.raises(traces.TraceError, match="at most"):
        traces.loads(b" " * (traces.MAX_FILE_BYTES + 1))


def test_too_many_nodes_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from mcts_lab.traces import format as trace_format

    monkeypatch.setattr(trace_format, "MAX_NODES", 10)
    doc = small_tree()
    for i in range(1, 12):
        add(doc, id=i, parent=0, visits=0)
    with pytest.raises(traces.TraceError, match="at most 10"):
        traces.parse(doc)


# ------------------------------------------------------------------ the CLI


def test_inspect_exit_status_and_json(tmp_path: Path, capsys) -> None:
    clean = tmp_path / "clean.json"
    _, _, doc = lab_doc("connect_four", 80)
    traces.write(doc, clean)
    assert main(["inspect", str(clean), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"root_children", "nodes", "iterations", "anomalies"} <= set(data)
    assert data["nodes"] == 81 and data["iterations"] == 80
    assert {"action", "visits", "value", "prior"} <= set(data["root_children"][0])
    broken = tmp_path / "broken.json"
    doc["nodes"][0]["visits"] += 7
    traces.write(doc, broken)
    assert main(["inspect", str(broken), "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert {"kind", "node", "detail"} == set(data["anomalies"][0])
    assert main(["inspect", str(broken)]) == 1
    assert "visit_count node 0" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    assert main(["inspect", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mcts-lab: error: line 1:") and err.count("\n") == 1


def test_inspect_exact_adds_exact_values(tmp_path: Path, capsys) -> None:
    path = tmp_path / "t.json"
    argv = ["search", "--game", "tic_tac_toe", "--position", "XX.OO....", "--iterations", "200"]
    assert main([*argv, "--trace", str(path), "--json"]) == 0
    capsys.readouterr()
    assert main(["inspect", str(path), "--json", "--exact"]) == 0
    rows = json.loads(capsys.readouterr().out)["root_children"]
    exact = {row["action"]: row["exact"] for row in rows}
    assert exact["c1"] == 1.0  # x completes the top row
    assert set(exact.values()) <= {1.0, 0.0, -1.0}


# ------------------------------------------------------------------ the documented examples

DOCS = Path(__file__).parents[3] / "docs"


def test_the_documented_examples_are_clean() -> None:
    text = (DOCS / "trace_format.md").read_text("utf-8")
    tree = text.split("```json\n", 1)[1].split("```", 1)[0]
    lines = text.split("```jsonl\n", 1)[1].split("```", 1)[0]
    for data, json_lines in ((tree, False), (lines, True)):
        trace = traces.loads(data, json_lines=json_lines)
        report = inspect_trace(trace)
        assert report["anomaly_counts"] == {}, report["anomalies"]
        assert report["root"]["visits"] == 4 and len(report["root_children"]) == 3
    assert not full_schema_errors(json.loads(tree))


def test_the_javascript_writer_writes_a_clean_trace(tmp_path: Path) -> None:
    import shutil
    import subprocess

    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("Node.js is not installed")
    out = subprocess.run(
        [node, str(DOCS / "examples" / "write_trace.js")],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout
    trace = traces.loads(out)
    report = inspect_trace(trace)
    assert report["anomaly_counts"] == {} and report["iterations"] == 200
    assert not full_schema_errors(json.loads(out))


def test_a_stream_is_read_as_it_is_parsed_with_its_progress() -> None:
    """traces.read (the app's upload): the same trace as loads, JSON Lines or one object, the
    kind guessed past blank lines, the progress rising to 1, a size over the limit refused."""
    import io

    g = build_game("tic_tac_toe")
    search = Search(g, g.initial_state(), seed=3)
    _, steps = run_recorded(search, 3_000)
    doc = traces.from_search(search, steps)
    for json_lines in (True, False):
        text = traces.dumps(doc, json_lines=json_lines).encode()
        said: list[float] = []
        trace = traces.read(io.BytesIO(b"\n\n" + text), progress=said.append)
        assert trace.document() == traces.loads(text).document()
        assert said == sorted(said) and said[-1] == 1.0
        if json_lines:  # every 2,000 lines: 3,000 records and their nodes
            assert len(said) >= 3 and 0 < said[0] < 1
    with pytest.raises(traces.TraceError, match="at most 1,000 are read"):
        traces.read(io.BytesIO(traces.dumps(doc).encode()), max_bytes=1_000)
    with pytest.raises(traces.TraceError, match="not UTF-8"):
        traces.read(io.BytesIO(b'{"format": "\xff"}'))
