"""``mcts-lab inspect A --diff B``: two recorded runs compared to their first difference, then
node by node. The expected first differences are worked out here from the two files' records
directly (move labels along each path, the recorded numbers), not by the code under test."""

from __future__ import annotations

import copy
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from mcts_lab import traces
from mcts_lab.cli import main
from mcts_lab.compare.trace_diff import DiffInputError, diff_traces
from tests.mcts_lab.textbook_uct import textbook_uct
from tests.mcts_lab.traces.test_traces import lab_doc

POSITION = "X...O...."


def _lab(seed: int = 1, c: float = 1.4, iterations: int = 150, **options: Any) -> dict[str, Any]:
    return lab_doc("tic_tac_toe", iterations, seed, POSITION, c=c, **options)[2]


def _write(tmp_path: Path, name: str, doc: dict[str, Any]) -> str:
    path = tmp_path / name
    traces.write(doc, path)
    return str(path)


def _labels(doc: dict[str, Any], record: dict[str, Any]) -> list[str]:
    """A record's path as the move labels below the root (read straight from the nodes)."""
    move = {node["id"]: node.get("move") for node in doc["nodes"]}
    return [move[i] for i in record["path"][1:]]


def _first_path_split(a: dict[str, Any], b: dict[str, Any]) -> int | None:
    """The first iteration whose paths (as move labels) differ."""
    for ra, rb in zip(a["trace"], b["trace"], strict=True):
        if _labels(a, ra) != _labels(b, rb):
            return int(ra["iteration"])
    return None


def _decision_numbers(doc: dict[str, Any], record: dict[str, Any]) -> list[Any]:
    move = {node["id"]: node.get("move") for node in doc["nodes"]}
    return [
        (move[d["node"]], sorted((move[t["node"]], t["visits"], t["q"], t["bonus"],
                                  t["score"]) for t in d["children"]))
        for d in record["decisions"]
    ]  # fmt: skip


def _first_numbers_split(a: dict[str, Any], b: dict[str, Any], before: int) -> int | None:
    """The first iteration before ``before`` whose recorded decision numbers or leaf values
    differ (both files are the lab's: the same range and view)."""
    for ra, rb in zip(a["trace"], b["trace"], strict=True):
        if ra["iteration"] >= before:
            return None
        if _decision_numbers(a, ra) != _decision_numbers(b, rb):
            return int(ra["iteration"])
        if ra["leaf_values"] != rb["leaf_values"]:
            return int(ra["iteration"])
    return None


# ------------------------------------------------------------------ known answers


def test_two_runs_of_one_seed_are_identical(tmp_path: Path, capsys) -> None:
    a, b = _write(tmp_path, "a.jsonl", _lab()), _write(tmp_path, "b.json", _lab())
    assert main(["inspect", a, "--diff", b]) == 0
    out = capsys.readouterr().out
    assert "first difference: none in the 150 iteration records" in out
    assert out.rstrip().endswith("identical within 1e-09")
    assert main(["inspect", a, "--diff", b, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["identical"] is True and data["first_difference"] is None
    assert data["node_differences"] == [] and data["truncated"] is False
    assert data["records_compared"] == 150


def test_different_seeds_part_where_the_records_say(tmp_path: Path, capsys) -> None:
    a, b = _lab(seed=1), _lab(seed=2)
    split = _first_path_split(a, b)
    numbers = _first_numbers_split(a, b, split or 10**9)
    assert split is not None and numbers is not None and numbers < split
    diff = diff_traces(traces.parse(a), traces.parse(b))
    assert diff.first_path_difference is not None
    assert diff.first_path_difference.iteration == split
    assert diff.first_difference is not None and diff.first_difference.iteration == numbers
    assert not diff.identical and diff.settings_differences == {"seed": (1, 2)}
    assert main(["inspect", _write(tmp_path, "a.json", a), "--diff",
                 _write(tmp_path, "b.json", b)]) == 1  # fmt: skip
    out = capsys.readouterr().out
    assert f"first path difference: iteration {split}, at " in out
    assert "settings that differ: seed 1 / 2" in out


def test_a_different_c_parts_at_the_decision_with_its_terms() -> None:
    a, b = _lab(c=1.4), _lab(c=2.0)
    split = _first_path_split(a, b)
    numbers = _first_numbers_split(a, b, split or 10**9)
    assert split is not None and numbers is not None
    diff = diff_traces(traces.parse(a), traces.parse(b))
    first = diff.first_difference
    assert first is not None and first.iteration == numbers and first.kind == "decision"
    assert first.a["field"] == "bonus"  # the same visits and Q, another bonus
    path = diff.first_path_difference
    assert path is not None and path.iteration == split and path.kind == "path"
    # the deciding numbers are the records' own: A's chosen child's score and Q at that node
    record = a["trace"][split - 1]
    decision = next(d for d in record["decisions"] if _labels(a, record)[: len(path.node or ())]
                    == list(path.node or ()))  # fmt: skip
    chosen = next(t for t in decision["children"] if t["node"] == decision["chosen"])
    assert f"UCT {chosen['score']:+.3f} = Q {chosen['q']:+.3f}" in path.explanation
    assert path.a["choice"] != path.b["choice"]
    assert diff.settings_differences == {"c": (1.4, 2.0)}


def test_lab_against_a_foreign_writer(tmp_path: Path, capsys) -> None:
    lab = _lab(seed=3, iterations=60)
    book = textbook_uct("tic_tac_toe", POSITION, seed=3, iterations=60, records=True)
    split = _first_path_split(lab, book)
    assert split is not None
    diff = diff_traces(traces.parse(lab), traces.parse(book))
    assert diff.first_path_difference is not None
    assert diff.first_path_difference.iteration == split
    # the textbook against itself (same seed): identical, as the lab's
    again = textbook_uct("tic_tac_toe", POSITION, seed=3, iterations=60, records=True)
    assert diff_traces(traces.parse(book), traces.parse(again)).identical
    # tree-only: the final trees only, and the root's visits agree (60 each)
    tree = textbook_uct("tic_tac_toe", POSITION, seed=3, iterations=60)
    code = main(["inspect", _write(tmp_path, "lab.json", lab), "--diff",
                 _write(tmp_path, "tree.json", tree), "--json"])  # fmt: skip
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["first_difference"] is None and data["records_compared"] == 0
    assert data["records_note"].startswith("B has no iteration records")
    assert all(d["path"] != [] or "visits" not in d["fields"] for d in data["node_differences"])


def test_the_start_named_two_ways_is_one_position() -> None:
    lab = lab_doc("tic_tac_toe", 40, 1, None)[2]  # position "........."
    book = textbook_uct("tic_tac_toe", None, seed=1, iterations=40)  # no position
    assert lab["position"] == "........." and "position" not in book
    assert diff_traces(traces.parse(lab), traces.parse(book)).a["records"] == 40


def test_the_tolerance_decides_a_tiny_value_difference(tmp_path: Path, capsys) -> None:
    a = _lab(iterations=60)
    b = copy.deepcopy(a)
    leaf = b["trace"][29]
    leaf["leaf_values"] = [v + 1e-7 * (1 if i == 0 else -1) for i, v in
                           enumerate(leaf["leaf_values"])]  # fmt: skip
    node = b["nodes"][1]
    node["mean"] += 1e-7
    node["value_sums"] = [s + 1e-7 * node["visits"] * (1 if node["player"] == 1 else -1)
                          for s in node["value_sums"]]  # fmt: skip
    pa, pb = _write(tmp_path, "a.json", a), _write(tmp_path, "b.json", b)
    assert main(["inspect", pa, "--diff", pb, "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["first_difference"]["kind"] == "leaf"
    assert data["first_difference"]["iteration"] == 30
    assert [d["fields"] for d in data["node_differences"]] == [["mean"]]
    assert main(["inspect", pa, "--diff", pb, "--tolerance", "1e-6"]) == 0
    assert "identical within 1e-06" in capsys.readouterr().out


def test_junit_xml_parses_and_carries_the_failure(tmp_path: Path, capsys) -> None:
    a, b = _lab(seed=1, iterations=60), _lab(seed=2, iterations=60)
    b["nodes"][-1]["move"] = 'c3 <&"\x01>'  # a hostile label is escaped, not markup
    split = _first_path_split(a, b)
    assert split is not None and _first_numbers_split(a, b, split) is not None
    out = tmp_path / "diff.xml"
    assert main(["inspect", _write(tmp_path, "a.json", a), "--diff",
                 _write(tmp_path, "b.json", b), "--junit", str(out)]) == 1  # fmt: skip
    capsys.readouterr()
    root = ET.parse(out).getroot()
    suites = root.findall("testsuite")
    assert root.tag == "testsuites" and len(suites) == 1
    cases = {case.get("name"): case for case in suites[0].findall("testcase")}
    assert list(cases) == ["paths", "statistics", "final tree"]
    assert suites[0].get("failures") == "3"
    failure = cases["paths"].find("failure")
    assert failure is not None and f"iteration {split}," in (failure.get("message") or "")
    assert "only in B" in (cases["final tree"].find("failure").get("message") or "")
    # identical runs: three passing testcases
    same = tmp_path / "same.xml"
    pa = _write(tmp_path, "a.json", a)
    assert main(["inspect", pa, "--diff", pa, "--junit", str(same)]) == 0
    capsys.readouterr()
    suite = ET.parse(same).getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "0"
    assert all(case.find("failure") is None for case in suite.findall("testcase"))


def test_the_list_of_node_differences_says_when_it_is_cut(tmp_path: Path, capsys) -> None:
    pa = _write(tmp_path, "a.json", _lab(seed=1, iterations=60))
    pb = _write(tmp_path, "b.json", _lab(seed=2, iterations=60))
    assert main(["inspect", pa, "--diff", pb, "--json", "--max-differences", "3"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert len(data["node_differences"]) == 3 and data["truncated"] is True
    assert sum(data["node_difference_counts"].values()) > 3
    assert data["node_differences"][0]["path"] == []  # the root first, shallowest first


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("case", "expected"),
    [
        ("missing", "cannot read"),
        ("other_game", "A is a game of tic_tac_toe, B of connect_four"),
        ("other_position", "the root positions differ"),
        ("malformed", "not valid JSON"),
        ("negative", "is not a number >= 0"),
        ("junit_alone", "--junit needs --diff B"),
        ("exact", "--exact does not apply with --diff"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys, case: str, expected: str):
    pa = _write(tmp_path, "a.json", _lab(iterations=20))
    argv = ["inspect", pa, "--diff"]
    if case == "missing":
        argv.append(str(tmp_path / "nothing.json"))
    elif case == "other_game":
        argv.append(_write(tmp_path, "c4.json", lab_doc("connect_four", 20, 1)[2]))
    elif case == "other_position":
        argv.append(_write(tmp_path, "p.json", lab_doc("tic_tac_toe", 20, 1, "XO.......")[2]))
    elif case == "malformed":
        (tmp_path / "bad.json").write_text('{"format": "mcts-trace",')
        argv.append(str(tmp_path / "bad.json"))
    elif case == "negative":
        argv += [pa, "--tolerance", "-1"]
    elif case == "junit_alone":
        argv = ["inspect", pa, "--junit", str(tmp_path / "x.xml")]
    else:
        argv += [pa, "--exact"]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("mcts-lab: error: ") and captured.err.count("\n") == 1
    assert expected in captured.err


def test_different_games_raise_the_diff_input_error() -> None:
    a = traces.parse(_lab(iterations=10))
    b = traces.parse(lab_doc("connect_four", 10, 1)[2])
    with pytest.raises(DiffInputError):
        diff_traces(a, b)


def test_ids_the_loader_does_not_check_are_named_not_a_crash() -> None:
    a = _lab(iterations=40)
    k = next(i for i, r in enumerate(a["trace"]) if r["decisions"])
    b = copy.deepcopy(a)
    b["trace"][k]["decisions"][0]["children"][0]["node"] = 9998  # no such node
    diff = diff_traces(traces.parse(a), traces.parse(b))
    first = diff.first_difference
    assert first is not None and first.kind == "decision" and first.record == k + 1
    assert first.a["field"] == "children" and "#9998 (no such node)" in first.b["value"]
    c = copy.deepcopy(a)
    c["trace"][k]["leaf"] = 9999
    first = diff_traces(traces.parse(a), traces.parse(c)).first_difference
    assert (
        first is not None and first.kind == "leaf" and first.b["leaf"] == ["#9999 (no such node)"]
    )


def _in_node_view(doc: dict[str, Any]) -> dict[str, Any]:
    """The lab's file rewritten as mctx writes values: each node's one value sum from the view
    of the player to move there (a finished game: the player who did not move last), the
    backups the same way; no per-player sums."""
    out = copy.deepcopy(doc)
    out["values"]["view"] = "node"
    player = {node["id"]: node["player"] for node in out["nodes"]}
    parent = {node["id"]: node["parent"] for node in out["nodes"]}

    def edge(i: int) -> int:
        return player[i] if parent[i] is None else player[parent[i]]

    def node_view(i: int) -> int:
        return player[i] if player[i] >= 0 else 1 - edge(i)

    for node in out["nodes"]:
        i = node["id"]
        node["value_sum"] = node.pop("value_sums")[node_view(i)]
        del node["mean"]
        if "proven" in node and node_view(i) != edge(i):
            node["proven"] = -node["proven"]
    for record in out["trace"]:
        for item in record["backup"]:
            if node_view(item["node"]) != edge(item["node"]):
                item["add"] = -item["add"]
    return out


def test_a_file_in_another_view_compares_equal() -> None:
    a = _lab(iterations=80, solver=True)
    b = _in_node_view(a)
    assert any(n["value_sum"] != 0 for n in b["nodes"]) and b["values"]["view"] == "node"
    assert diff_traces(traces.parse(a), traces.parse(b)).identical
    b["trace"][40]["backup"][1]["add"] += 0.5  # one add changed: found, at iteration 41
    first = diff_traces(traces.parse(a), traces.parse(b)).first_difference
    assert first is not None and (first.kind, first.iteration) == ("backup", 41)


def _two_moves(order: list[str], chosen: str, expanded: bool) -> dict[str, Any]:
    """A root with moves a1 and b1 listed in ``order``, one record that takes ``chosen`` with
    the same terms for both (0 visits each), having expanded both (``expanded``) or not."""
    ids = {label: i for i, label in enumerate(order, start=1)}
    nodes = [{"id": 0, "parent": None, "player": 0, "visits": 1, "value_sum": 0.0}]
    for label in order:
        visits = int(label == chosen)
        node = {"id": ids[label], "parent": 0, "player": 1, "move": label, "visits": visits}
        nodes.append(node | {"value_sum": 0.0})
    record: dict[str, Any] = {"iteration": 1, "path": [0, ids[chosen]]}
    terms = [{"node": ids[m], "visits": 0} for m in order]
    record["decisions"] = [{"node": 0, "chosen": ids[chosen], "rule": "uct", "children": terms}]
    if expanded:
        record["expanded"] = [ids[chosen]]
    doc = {"format": "mcts-trace", "version": 1, "game": None, "iterations": 1}
    return doc | {"nodes": nodes, "trace": [record]}


def test_runs_that_part_by_order_or_by_another_draw_say_so() -> None:
    """The same statistics, a different child: the children's order (or a random stream)
    broke the tie, not a term; a different move expanded: their expansion orders differ."""
    a = traces.parse(_two_moves(["a1", "b1"], "a1", expanded=False))
    b = traces.parse(_two_moves(["b1", "a1"], "b1", expanded=False))
    found = diff_traces(a, b).first_path_difference
    assert found is not None and found.divergence == "selection"
    assert found.explanation.endswith(
        ": the same statistics, but the node's children are in a different order "
        "(A a1, b1; B b1, a1): a tie broken by order, not a term"
    )
    b = traces.parse(_two_moves(["a1", "b1"], "b1", expanded=False))
    found = diff_traces(a, b).first_path_difference
    assert found is not None and found.explanation.endswith(
        "a different child taken: a tie broken by a different random stream (or order), not a term"
    )
    a = traces.parse(_two_moves(["a1", "b1"], "a1", expanded=True))
    b = traces.parse(_two_moves(["a1", "b1"], "b1", expanded=True))
    found = diff_traces(a, b).first_path_difference
    assert found is not None and found.divergence == "expansion"
    assert "their expansion orders (or random streams) differ, not a term" in found.explanation


def test_a_setting_one_file_does_not_record_is_not_a_difference(tmp_path: Path, capsys) -> None:
    """Against a writer that records only ``c``, the lab's other settings are listed once as
    recorded by one file; no Python ``None`` is printed."""
    a = _lab()
    b = copy.deepcopy(a)
    b["settings"] = {"c": 2.0}
    del b["seed"]
    assert (
        main(["inspect", _write(tmp_path, "a.json", a), "--diff", _write(tmp_path, "b.json", b)])
        == 0
    )  # fmt: skip: the same records and tree
    out = capsys.readouterr().out
    assert "None" not in out
    assert "settings that differ: c 1.4 / 2\n" in out
    only = [line for line in out.splitlines() if line.startswith("recorded by A only")]
    assert len(only) == 1 and "seed" in only[0] and "tree_policy" in only[0]
    assert "seed not recorded" in out
