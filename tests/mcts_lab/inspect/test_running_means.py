"""Known answers for two of the invariant checks (issue 41): ``running_mean`` (a node's mean
against the leaf values backed up through it) and ``term`` on PUCT (the bonus recomputed from
the records, the prior against the tree's), on four iterations written by hand, and the planted
bugs each is for."""

from __future__ import annotations

import copy
from typing import Any

from mcts_lab import traces
from mcts_lab.inspect.inspection import inspect_trace
from tests.mcts_lab.inspect.planted_uct import planted_uct


def _node(node_id: int, parent: int | None, player: int, visits: int, mean: float) -> dict:
    node = {"id": node_id, "parent": parent, "player": player, "visits": visits, "mean": mean}
    if parent is not None:
        node |= {"move": "ab"[node_id - 1], "action": node_id - 1, "prior": [0.7, 0.3][node_id - 1]}
    return node


def _record(it: int, path: list[int], value: float, terms: list | None = None) -> dict:
    """Iteration ``it`` down ``path``, the leaf valued ``value`` (player 0's view: every node
    here is valued from player 0's, the root's own and its children's edge view)."""
    record: dict[str, Any] = {"iteration": it, "path": path, "leaf": path[-1]}
    record |= {"leaf_value": value, "backup": [{"node": n, "add": value} for n in path]}
    if terms is not None:
        record["decisions"] = [{"node": 0, "chosen": path[1], "children": terms}]
    return record


def four_iterations(settings: dict | None = None) -> dict[str, Any]:
    """Root (X to move) with moves a and b, both added at iteration 1; a is valued +1, b -1,
    a -1, a +1 (X's view). Each decision records the children's visits and Q so far."""
    records = [
        _record(1, [0, 1], 1.0) | {"expanded": [1, 2]},
        _record(2, [0, 2], -1.0, [{"node": 1, "visits": 1, "q": 1.0}, {"node": 2, "visits": 0}]),
        _record(
            3,
            [0, 1],
            -1.0,
            [{"node": 1, "visits": 1, "q": 1.0}, {"node": 2, "visits": 1, "q": -1.0}],
        ),
        _record(
            4,
            [0, 1],
            1.0,
            [{"node": 1, "visits": 2, "q": 0.0}, {"node": 2, "visits": 1, "q": -1.0}],
        ),
    ]
    nodes = [_node(0, None, 0, 4, 0.0), _node(1, 0, 1, 3, 0.333333), _node(2, 0, 1, 1, -1.0)]
    doc = {"format": "mcts-trace", "version": 1, "settings": settings or {}, "iterations": 4}
    return doc | {"nodes": nodes, "trace": records}


def report(doc: dict[str, Any]) -> dict[str, Any]:
    return inspect_trace(traces.parse(doc))


# ------------------------------------------------------------------ running_mean


def test_a_mean_that_follows_the_leaf_values_is_clean() -> None:
    assert report(four_iterations())["anomaly_counts"] == {}


def test_a_running_mean_off_by_one_is_reported_with_both_means_and_its_iteration() -> None:
    """``mean += (v - mean) / (n + 1)`` after counting the visit: a's mean reads +0.5 after
    its first value (+1), 0 after the second (-1), +0.25 after the third (+1); the leaf values
    give +1, 0, +1/3."""
    doc = four_iterations()
    doc["nodes"][1]["mean"] = 0.25
    doc["trace"][2]["decisions"][0]["children"][0]["q"] = 0.5
    first = report(doc)["anomalies"][0]
    assert first["kind"] == "running_mean" and first["node"] == 1
    assert first["detail"].startswith(
        "mean +0.25 over 3 visits (player 0's view), but the leaf values backed up through it "
        "give +0.333333; first off at iteration 3, whose decision read Q +0.5 where the 1 leaf "
        "value before it gives +1 (mover's view)"
    )


def test_without_leaf_values_the_backups_are_what_was_backed_up() -> None:
    doc = four_iterations()
    for record in doc["trace"]:
        del record["leaf_value"]
    assert report(doc)["anomaly_counts"] == {}
    doc["nodes"][1]["mean"] = 0.25
    first = report(doc)["anomalies"][0]
    assert first["kind"] == "running_mean" and "give +0.333333" in first["detail"]
    assert "iteration" not in report(doc)["anomaly_counts"]  # the same finding, said once


def test_records_of_part_of_a_search_or_wrong_adds_leave_the_means_alone() -> None:
    part = four_iterations()
    part["nodes"][1]["mean"] = 0.25
    del part["trace"][0]  # from iteration 2: the visits before are unknown
    assert "running_mean" not in report(part)["anomaly_counts"]
    flipped = four_iterations()
    flipped["nodes"][1]["mean"] = 0.25
    flipped["trace"][2]["backup"][1]["add"] = 1.0  # the other player's value of -1
    counts = report(flipped)["anomaly_counts"]
    assert "running_mean" not in counts and "wrong_view" in counts


# ------------------------------------------------------------------ term, PUCT


def puct(settings: dict[str, Any], bonuses: list[tuple[float, float]]) -> dict[str, Any]:
    """Three iterations of a PUCT search: at iteration 1 the root's moves are added and a is
    taken; at 2 and 3 the decision records each child's prior and bonus (``bonuses``: (a, b) at
    iterations 2 and 3; a is valued +1, -1; b -1)."""
    doc = four_iterations({"tree_policy": "puct"} | settings)
    doc["iterations"] = 3
    doc["trace"] = [doc["trace"][0], copy.deepcopy(doc["trace"][2]), doc["trace"][1]]
    doc["trace"][1]["iteration"], doc["trace"][2]["iteration"] = 2, 3
    doc["trace"][0]["decisions"] = [{"node": 0, "chosen": 1, "rule": "puct"}]
    visits = [(1, 0), (2, 0)]
    steps = zip(doc["trace"][1:], bonuses, visits, strict=True)
    for record, (bonus_a, bonus_b), (n_a, n_b) in steps:
        a = {"node": 1, "visits": n_a, "q": [1.0, 0.0][n_a - 1], "prior": 0.7, "bonus": bonus_a}
        b = {"node": 2, "visits": n_b, "prior": 0.3, "bonus": bonus_b}
        record["decisions"] = [{"node": 0, "chosen": record["path"][1], "children": [a, b]}]
    doc["nodes"][0] |= {"visits": 3, "mean": -1 / 3}
    doc["nodes"][1] |= {"visits": 2, "mean": 0.0}
    return doc


#: c P sqrt(N) / (1 + n) with c = 2: a (P 0.7) at N = 1, n = 1 and N = 2, n = 2; b (P 0.3)
#: at n = 0: 0.7, 0.6, then 2 x 0.7 x sqrt(2) / 3 and 2 x 0.3 x sqrt(2).
RIGHT = [(0.7, 0.6), (0.659966, 0.848528)]
#: AlphaZero's c = 1.25 + ln((N + 19652 + 1) / 19652): 1.2501018 at N = 1, 1.2501526 at 2.
ALPHAZERO = [(0.437536, 0.375031), (0.412529, 0.530395)]


def test_puct_bonuses_that_follow_the_formula_are_clean() -> None:
    assert report(puct({"c": 2.0}, RIGHT))["anomaly_counts"] == {}
    alphazero = {"pb_c_init": 1.25, "pb_c_base": 19652}
    assert report(puct(alphazero, ALPHAZERO))["anomaly_counts"] == {}
    assert report(puct({"c": 2.0}, ALPHAZERO))["anomaly_counts"] == {"term": 2}


def test_a_puct_bonus_without_the_parentheses_of_1_plus_n_is_a_term() -> None:
    """``c P sqrt(N) / 1 + n``: a's bonus at iteration 3 is 2 x 0.7 x sqrt(2) + 2 = 3.979899."""
    first = report(puct({"c": 2.0}, [RIGHT[0], (3.979899, 0.848528)]))["anomalies"][0]
    assert first["kind"] == "term" and first["node"] == 0
    assert first["detail"] == (
        "iteration 3, move 'a': recorded bonus 3.9799, but c P sqrt(N) / (1 + n) = 2 x 0.7 x "
        "sqrt(2) / (1 + 2) = 0.659966 from the records (1 + n without its parentheses, a prior "
        "of another move, or another formula?)"
    )


def test_a_prior_of_another_move_is_a_term() -> None:
    doc = puct({"c": 2.0}, RIGHT)
    doc["trace"][1]["decisions"][0]["children"][0]["prior"] = 0.3
    first = report(doc)["anomalies"][0]
    assert first["kind"] == "term"
    assert "the decision used prior 0.3, the tree's prior of the move is 0.7" in first["detail"]


def test_a_q_from_the_other_player_s_view_is_named_so() -> None:
    doc = four_iterations({"c": 1.0})  # UCT (equal priors: unequal ones read as PUCT)
    for node in doc["nodes"][1:]:
        del node["prior"]
    assert report(doc)["anomaly_counts"] == {}
    doc["trace"][2]["decisions"][0]["children"][0]["q"] = -1.0
    first = report(doc)["anomalies"][0]
    assert first["kind"] == "term"
    assert first["detail"].startswith(
        "iteration 3, move 'a': recorded Q -1 is the other player's view: the backups so far "
        "give +1 over 1 visit from the mover's (player 0's) view, -1 from player 1's."
    )


# ------------------------------------------------------------------ planted, both writers


def test_the_planted_running_mean_and_puct_bugs_come_first_in_both_writers() -> None:
    """planted_uct's ``mean_off_by_one`` (UCT) and its PUCT bugs, 150 iterations from the
    start, through Recorder and by hand; the correct PUCT search raises nothing."""
    cases = [
        ("mean_off_by_one", "uct", "running_mean"),
        ("puct_parentheses", "puct", "term"),
        ("prior_misaligned", "puct", "term"),
        ("none", "puct", None),
    ]
    for bug, rule, kind in cases:
        for recorder in (True, False):
            doc = planted_uct(
                "tic_tac_toe", seed=0, iterations=150, bug=bug, rule=rule, recorder=recorder
            )
            listed = report(doc)["anomalies"]
            assert (listed[0]["kind"] if listed else None) == kind, (bug, recorder, listed[:1])
