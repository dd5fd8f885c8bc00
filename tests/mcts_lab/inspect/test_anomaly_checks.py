"""The registry of ``inspect``'s anomaly checks (mcts_lab/inspect/checks.py): one record a check,
each documented, run in its order, skipped where the file lacks what it needs."""

from __future__ import annotations

import re
from pathlib import Path

from mcts_lab import traces
from mcts_lab.inspect.checks import ANOMALY_CHECKS, Need
from mcts_lab.inspect.inspection import inspect_trace
from tests.mcts_lab.traces.test_traces import add, found, kinds, lab_doc, small_tree

DOCS = Path(__file__).parents[3] / "docs" / "trace_format.md"


def _documented_kinds() -> set[str]:
    """The kinds in docs/trace_format.md's table "What inspect checks" (its first column)."""
    text = DOCS.read_text("utf-8")
    table = text[text.index("## What inspect checks") :].split("\n\n")[2]
    return set(re.findall(r"^\| `([a-z_]+)` \|", table, re.M))


def test_every_check_has_a_unique_name_and_a_one_line_doc() -> None:
    names = [check.name for check in ANOMALY_CHECKS]
    assert len(names) == len(set(names)) == 17
    for check in ANOMALY_CHECKS:
        assert check.doc and "\n" not in check.doc and len(check.doc) <= 100, check.name
        assert check.kinds and callable(check.run)


def test_the_documented_kinds_are_the_registry_s() -> None:
    registered = {kind for check in ANOMALY_CHECKS for kind in check.kinds}
    assert _documented_kinds() == registered
    assert len(registered) == 23


def test_anomalies_are_listed_in_the_registry_s_order() -> None:
    _, _, doc = lab_doc("tic_tac_toe", 50, seed=1)
    doc.pop("trace")
    child = next(n for n in doc["nodes"] if n["parent"] == 0)
    grandchild = next(n for n in doc["nodes"] if n["parent"] == child["id"])
    grandchild["action"], grandchild["move"] = child["action"], child["move"]  # rules
    doc["nodes"][0]["visits"] += 5  # nodes: the root's visits against its children's
    listed = [item["kind"] for item in found(doc)]
    assert {"visit_count", "illegal_move"} <= set(listed)
    order = {kind: i for i, check in enumerate(ANOMALY_CHECKS) for kind in check.kinds}
    places = [order[kind] for kind in listed]
    assert places == sorted(places)


def test_a_check_runs_only_where_its_needs_are_met() -> None:
    starved = small_tree(visits=2201, value_sum=200 * 0.6 + 2000 * -0.2)
    add(starved, id=1, parent=0, player=1, move="good", visits=200, value_sum=200 * 0.6)
    add(starved, id=2, parent=0, player=1, move="bad", visits=2000, value_sum=2000 * -0.2)
    assert kinds(starved) == {"starved"}
    starved["values"]["backup"] = "other"  # values that are not means: no Hoeffding bound
    trace = traces.parse(starved)
    assert not Need.MEAN_BACKUP.met(trace) and not Need.RECORDS.met(trace)
    assert not Need.GAME.met(trace)
    assert inspect_trace(trace)["anomaly_counts"] == {}
    needs = {check.name: check.needs for check in ANOMALY_CHECKS}
    assert needs["starved"] == {Need.MEAN_BACKUP} and needs["records"] == {Need.RECORDS}
    assert needs["rules"] == {Need.GAME} and needs["nodes"] == needs["proofs"] == frozenset()


def test_a_finished_game_scored_wrongly_is_found() -> None:
    """A win proven +1 (the player who moved there wins) whose 13 visits each backed up -1:
    the bug a search makes when it scores a finished game from the wrong side."""
    doc = small_tree(visits=14, value_sum=-13.0)
    add(doc, id=1, parent=0, player=-1, move="win", visits=13, value_sum=-13.0, proven=1.0)
    [item] = found(doc)
    assert item["kind"] == "terminal" and item["node"] == 1
    assert "proven 1" in item["detail"] and "mean of -1 over 13 visits" in item["detail"]
    right = small_tree(visits=14, value_sum=13.0)
    add(right, id=1, parent=0, player=-1, move="win", visits=13, value_sum=13.0, proven=1.0)
    assert kinds(right) == set()


def test_records_that_value_a_finished_game_twice_are_found() -> None:
    _, _, doc = lab_doc("tic_tac_toe", 400, seed=5, position="XX.OO....")  # wins close by
    records = doc["trace"]
    finished = {n["id"] for n in doc["nodes"] if n["player"] == -1}
    at = [k for k, rec in enumerate(records) if rec.get("leaf", rec["path"][-1]) in finished]
    assert kinds(doc) == set() and len(at) >= 2  # the lab's own run: clean
    later = records[at[-1]]
    later["leaf_value"] = -later["leaf_value"] if later["leaf_value"] else 0.5
    items = [i for i in found(doc) if i["kind"] == "terminal"]
    assert items and "a finished game has one value" in items[0]["detail"]


def test_a_decision_against_its_own_scores_is_found() -> None:
    """Selection that always takes the first child: its records still hold the UCT scores it
    ignored, and the decision is checked against them (``score``, or ``q + bonus``)."""
    _, _, doc = lab_doc("tic_tac_toe", 60, seed=2)
    record = doc["trace"][40]
    decision = record["decisions"][0]
    children = decision["children"]
    low = min(children, key=lambda t: t["score"])
    decision["chosen"] = low["node"]
    items = [i for i in found(doc) if i["kind"] == "decision"]
    assert len(items) == 1 and items[0]["node"] == decision["node"]
    best = max(t["score"] for t in children)
    assert f"score {low['score']:.6g}) over" in items[0]["detail"]
    assert f"(score {best:.6g})" in items[0]["detail"]
    for terms in children:  # no score recorded: q + bonus stands for it
        del terms["score"]
    assert any(i["kind"] == "decision" for i in found(doc))
    decision["rule"] = "min_visits"  # a rule that is no argmax of the scores: not checked
    assert not any(i["kind"] == "decision" for i in found(doc))
