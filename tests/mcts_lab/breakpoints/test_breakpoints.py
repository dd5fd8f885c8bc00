"""``mcts-lab search --until``: every breakpoint stops at the FIRST iteration where its condition
holds, checked against the same seed's full trace (the search run without ``--until``, with
``--trace``: the iteration records say when the condition first holds, worked out here from the
records alone); a condition that never holds runs the whole budget and says so; bad input is
one line and status 2."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from mcts_lab.breakpoints.conditions import BREAKPOINTS
from mcts_lab.common import build_game, parse_position
from mcts_lab.exact import VALUE_TOLERANCE, best_value, exact_values
from mcts_lab.inspect.anomalies import FileFacts
from mcts_lab.inspect.checks import run_checks
from mcts_lab.traces.format import parse
from mcts_lab.traces.values import node_sums, node_views
from tests.conftest import CliRunner

# ------------------------------------------------------------------ the reference: the records


@dataclass
class Replayed:
    """The tree after each iteration, rebuilt from a trace file's records: the root's moves
    (label, action index), their visits and value sums (root mover's view), proofs seen."""

    doc: dict[str, Any]
    iteration: int = 0
    visits: dict[int, int] = field(default_factory=dict)
    sums: dict[int, float] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)  # root moves in the order first tried
    proofs: dict[int, str] = field(default_factory=dict)
    visited: int | None = None  # the root move this iteration went through

    @property
    def root(self) -> int:
        return int(self.doc["nodes"][0]["id"])

    def move_id(self, label: str) -> int:
        for node in self.doc["nodes"]:
            if node["parent"] == self.root and node["move"] == label:
                return int(node["id"])
        raise AssertionError(f"no root move {label!r} in the file")

    def label(self, node_id: int) -> str:
        return next(n["move"] for n in self.doc["nodes"] if n["id"] == node_id)

    def mean(self, node_id: int) -> float | None:
        n = self.visits.get(node_id, 0)
        return self.sums[node_id] / n if n else None


def replay(doc: dict[str, Any]) -> Iterator[Replayed]:
    """The state after each record in turn (one object, updated in place)."""
    state = Replayed(doc)
    root = state.root
    for record in doc["trace"]:
        state.iteration = record["iteration"]
        path = record["path"]
        state.visited = path[1] if len(path) > 1 else None
        adds = {b["node"]: b for b in record["backup"]}
        if state.visited is not None:
            move = state.visited
            if move not in state.visits:
                state.order.append(move)
            state.visits[move] = state.visits.get(move, 0) + 1
            state.sums[move] = state.sums.get(move, 0.0) + adds[move]["add"]
        for node_id in (root, *state.order):
            if node_id in adds and "proof" in adds[node_id]:
                state.proofs.setdefault(node_id, adds[node_id]["proof"])
        yield state


def first(doc: dict[str, Any], holds: Callable[[Replayed], bool]) -> int | None:
    """The first iteration after which ``holds`` is true (``None``: never in the file)."""
    for state in replay(doc):
        if holds(state):
            return state.iteration
    return None


def favourite_changes(state: Replayed, memo: dict[str, int]) -> bool:
    """Another move got strictly more visits than the favourite (the first move tried)."""
    if not state.order:
        return False
    favourite = memo.setdefault("favourite", state.order[0])
    moved = state.visited
    if moved is not None and state.visits[moved] > state.visits.get(favourite, 0):
        memo["favourite"] = moved
        return True
    return False


def most_visited(state: Replayed) -> int:
    """The search's most_visited rule: visits, then the mean, then the earlier move."""
    return max(
        range(len(state.order)),
        key=lambda i: (state.visits[state.order[i]], state.mean(state.order[i]) or 0.0, -i),
    )


# ------------------------------------------------------------------ running the command


def search(cli: CliRunner, *args: str) -> dict[str, Any]:
    status, out, err = cli("search", *args, "--json")
    assert status == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def full_trace(cli: CliRunner, tmp_path: Path, *args: str) -> dict[str, Any]:
    """The same search without ``--until``, every iteration written to a file."""
    path = tmp_path / "full.json"
    search(cli, *args, "--trace", str(path))
    doc: dict[str, Any] = json.loads(path.read_text())
    return doc


def agree(
    cli: CliRunner,
    tmp_path: Path,
    args: tuple[str, ...],
    until: str,
    holds: Callable[[Replayed], bool],
) -> int | None:
    """Run with ``--until`` and check the stop is the first iteration the trace says the
    condition holds; returns it."""
    stopped = search(cli, *args, "--until", until)
    expected = first(full_trace(cli, tmp_path, *args), holds)
    assert stopped["stopped_at"] == expected, (until, stopped["stop_reason"])
    if expected is not None:
        assert stopped["iterations"] == expected and stopped["stopped"] == "cancelled"
        assert stopped["stop_reason"].startswith(until + ": ")
    else:
        assert stopped["stop_reason"].startswith("no --until condition held")
    assert stopped["until"] == [until]
    return expected


TTT = ("--game", "tic_tac_toe")
C4 = ("--game", "connect_four")


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
@pytest.mark.parametrize("game", [TTT, (*C4, "--position", "4453")])
def test_favourite_changes_stops_where_the_trace_says(
    cli: CliRunner, tmp_path: Path, game: tuple[str, ...], seed: int
) -> None:
    args = (*game, "--iterations", "400", "--seed", str(seed))
    memo: dict[str, int] = {}
    where = agree(cli, tmp_path, args, "favourite-changes", lambda s: favourite_changes(s, memo))
    assert where is not None and where > 1


@pytest.mark.parametrize(
    ("position", "seed"),
    [("XO..X....", 0), ("X.O......", 1), ("XO.......", 2), ("X...O...X", 3), ("....X.O..", 0)],
)
def test_proven_root_stops_where_the_trace_says(
    cli: CliRunner, tmp_path: Path, position: str, seed: int
) -> None:
    args = (*TTT, "--position", position, "--solver", "--iterations", "3000", "--seed", str(seed))
    where = agree(cli, tmp_path, args, "proven", lambda s: s.root in s.proofs)
    assert where is not None and where > 20


@pytest.mark.parametrize("position", ["X.O......", "XO..X....", "X...O...X"])
@pytest.mark.parametrize("seed", [0, 5])
def test_proven_move_stops_where_the_trace_says(
    cli: CliRunner, tmp_path: Path, position: str, seed: int
) -> None:
    args = (*TTT, "--position", position, "--solver", "--iterations", "3000", "--seed", str(seed))
    doc = full_trace(cli, tmp_path, *args)
    # a root move proven by the end of the run, the last of them to be tried
    root = doc["nodes"][0]["id"]
    move = [n["move"] for n in doc["nodes"] if n["parent"] == root and "proven" in n][-1]
    target = Replayed(doc).move_id(move)
    where = agree(cli, tmp_path, args, f"proven:{move}", lambda s: target in s.proofs)
    assert where is not None and where > 1


@pytest.mark.parametrize(
    ("game", "position", "seed"),
    [
        (TTT, "O...X...X", 0),
        (TTT, "O...X...X", 4),
        (TTT, "XO.......", 1),
        (TTT, "X.O......", 2),
        (C4, "123456712345671234", 3),
        (C4, "12345671234567123456", 3),
    ],
)
def test_regret_zero_stops_where_the_trace_says(
    cli: CliRunner, tmp_path: Path, game: tuple[str, ...], position: str, seed: int
) -> None:
    args = (*game, "--position", position, "--iterations", "600", "--seed", str(seed))
    name = game[1]
    built = build_game(name, None)
    values = exact_values(built, parse_position(built, position, seed), 10.0)
    best = best_value(values)
    assert best is not None
    by_label = {built.action_label(parse_position(built, position, 0), a): v
                for a, v in values.items()}  # fmt: skip

    def holds(state: Replayed) -> bool:
        favourite = state.label(state.order[most_visited(state)])
        value = by_label[favourite]
        return value is not None and best - value < VALUE_TOLERANCE

    where = agree(cli, tmp_path, args, "regret-zero", holds)
    assert where is not None and where > 1  # the first move tried is not a best move


@pytest.mark.parametrize(
    ("game", "label", "k"),
    [(TTT, "b2", 50), (TTT, "a1", 7), ((*C4, "--position", "4453"), "col 3", 40)],
)
def test_visits_stops_where_the_trace_says(
    cli: CliRunner, tmp_path: Path, game: tuple[str, ...], label: str, k: int
) -> None:
    args = (*game, "--iterations", "500", "--seed", "7")
    target = Replayed(full_trace(cli, tmp_path, *args)).move_id(label)
    where = agree(
        cli, tmp_path, args, f"visits:{label}>={k}", lambda s: s.visits.get(target, 0) >= k
    )
    assert where is not None and where >= k


@pytest.mark.parametrize(
    ("label", "seed", "flips"),
    [("a1", 1, True), ("a1", 3, True), ("c3", 2, True), ("a3", 0, True), ("a1", 0, False)],
)
def test_q_sign_flips_stops_where_the_trace_says(
    cli: CliRunner, tmp_path: Path, label: str, seed: int, flips: bool
) -> None:
    args = (*TTT, "--iterations", "1500", "--seed", str(seed))
    target = Replayed(full_trace(cli, tmp_path, *args)).move_id(label)
    signs: list[int] = []

    def holds(state: Replayed) -> bool:
        mean = state.mean(target)
        sign = 0 if mean is None else (mean > 0) - (mean < 0)
        if sign == 0:
            return False
        flipped = bool(signs) and signs[-1] != sign
        signs.append(sign)
        return flipped

    where = agree(cli, tmp_path, args, f"q-sign-flips:{label}", holds)
    assert (where is not None) is flips


def prefix_doc(doc: dict[str, Any], upto: int) -> dict[str, Any]:
    """The file's tree as it was after ``upto`` iterations, from the records alone: the nodes
    added by then, their visits and value sums (each path node gains the leaf's values)."""
    records = doc["trace"][:upto]
    by_id = {n["id"]: n for n in doc["nodes"]}
    root = doc["nodes"][0]["id"]
    present = {root}
    visits: dict[int, int] = {}
    sums: dict[int, list[float]] = {}
    for record in records:
        present.update(record["expanded"])
        for node_id in record["path"]:
            visits[node_id] = visits.get(node_id, 0) + 1
            total = sums.setdefault(node_id, [0.0, 0.0])
            total[0] += record["leaf_values"][0]
            total[1] += record["leaf_values"][1]
    has_children = {by_id[i]["parent"] for i in present if by_id[i]["parent"] is not None}
    nodes = []
    for node in doc["nodes"]:
        if node["id"] not in present:
            continue
        item = {k: v for k, v in node.items() if k not in ("num_actions", "proven")}
        if node["id"] in has_children and "num_actions" in node:
            item["num_actions"] = node["num_actions"]
        n = visits.get(node["id"], 0)
        parent = node["parent"]
        view = node["player"] if parent is None else by_id[parent]["player"]
        item["visits"] = n
        item["value_sums"] = sums.get(node["id"], [0.0, 0.0])
        item["mean"] = item["value_sums"][view] / n if n else 0.0
        nodes.append(item)
    head = {k: v for k, v in doc.items() if k not in ("nodes", "trace")}
    return {**head, "iterations": upto, "nodes": nodes}


def anomaly_at(doc: dict[str, Any], upto: int) -> bool:
    trace = parse(prefix_doc(doc, upto))
    views = node_views(trace)
    return bool(run_checks(FileFacts(trace, views, node_sums(trace, views))).counts)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_anomaly_stops_where_the_trace_says(cli: CliRunner, tmp_path: Path, seed: int) -> None:
    # --c 0 (greedy selection) leaves a move that wins at once with fewer visits than a
    # sibling: inspect's proven_starved check fires
    args = (*TTT, "--c", "0", "--iterations", "150", "--seed", str(seed))
    doc = full_trace(cli, tmp_path, *args)
    where = agree(cli, tmp_path, args, "anomaly", lambda s: anomaly_at(doc, s.iteration))
    assert where is not None and where > 10


def test_anomaly_never_fires_on_a_correct_search(cli: CliRunner) -> None:
    data = search(cli, *TTT, "--iterations", "150", "--seed", "0", "--until", "anomaly")
    assert data["stopped_at"] is None and data["iterations"] == 150
    assert data["stop_reason"] == "no --until condition held within the budget of 150 iterations"


# ------------------------------------------------------------------ never, several, text


def test_a_condition_that_never_holds_runs_the_budget_and_says_so(cli: CliRunner) -> None:
    data = search(cli, *TTT, "--iterations", "300", "--until", "visits:a1>=1000")
    assert data["stopped_at"] is None and data["iterations"] == 300
    assert data["stopped"] == "iterations"
    assert data["stop_reason"] == "no --until condition held within the budget of 300 iterations"
    status, out, _ = cli("search", *TTT, "--iterations", "300", "--until", "visits:a1>=1000")
    assert status == 0
    assert "no --until condition held within the budget of 300 iterations" in out


def test_the_first_of_several_conditions_stops_and_the_text_says_why(cli: CliRunner) -> None:
    args = (*TTT, "--iterations", "500", "--seed", "7")
    alone = [
        search(cli, *args, "--until", u)["stopped_at"] for u in ("visits:b2>=50", "visits:a1>=9")
    ]
    both = search(cli, *args, "--until", "visits:b2>=50", "--until", "visits:a1>=9")
    assert both["stopped_at"] == min(alone)
    status, out, _ = cli("search", *args, "--until", "visits:b2>=50")
    assert status == 0
    assert f"stopped at iteration {alone[0]:,}: visits:b2>=50: b2 reached 50 visits" in out


def test_a_solved_root_ends_the_run_before_the_condition(cli: CliRunner) -> None:
    data = search(cli, *TTT, "--position", "XX.OO....", "--solver", "--until", "visits:a3>=100")
    assert data["stopped"] == "solved" and data["stopped_at"] is None
    assert "before the solver proved the root" in data["stop_reason"]


def test_until_with_a_trace_writes_the_run_up_to_the_stop(cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "until.json"
    args = (*TTT, "--iterations", "500", "--seed", "7", "--until", "visits:b2>=50")
    data = search(cli, *args, "--trace", str(path))
    plain = search(cli, *args)
    doc = json.loads(path.read_text())
    assert data["stopped_at"] == plain["stopped_at"] == len(doc["trace"]) == doc["iterations"]
    assert data["children"] == plain["children"]


def test_without_until_the_json_is_unchanged(cli: CliRunner) -> None:
    data = search(cli, *TTT, "--iterations", "50")
    assert not {"until", "stopped_at", "stop_reason"} & set(data)


def test_every_condition_is_in_the_cli_doc() -> None:
    text = (Path(__file__).parents[3] / "docs" / "cli.md").read_text()
    for kind in BREAKPOINTS.values():
        assert f"`{kind.syntax}`" in text, kind.syntax


@pytest.mark.parametrize(
    ("until", "words"),
    [
        ("bogus", "unknown condition 'bogus'"),
        ("visits:z9>=3", "'z9' is not a legal move here"),
        ("visits:a1>=x", "K must be a whole number"),
        ("visits:a1>=0", "K must be in [1, 10,000,000]"),
        ("visits:a1", "visits needs a move and a count"),
        ("q-sign-flips", "q-sign-flips needs a move"),
        ("q-sign-flips:", "a move is missing"),
        ("proven:e5", "'e5' is not a legal move here"),
        ("proven", "proven needs --solver"),
        ("favourite-changes:a1", "favourite-changes takes no argument"),
        ("visits:b2>=3", "'b2' is not a legal move here"),  # b2 is taken at this position
    ],
)
def test_bad_conditions_are_one_line_and_status_2(cli: CliRunner, until: str, words: str) -> None:
    position = ("--position", "....X....") if until == "visits:b2>=3" else ()
    status, out, err = cli("search", *TTT, *position, "--until", until)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("mcts-lab: error: --until")
    assert words in err and "Traceback" not in err


def test_until_is_one_search(cli: CliRunner, tmp_path: Path) -> None:
    positions = tmp_path / "p.txt"
    positions.write_text("X........\n")
    status, _, err = cli(
        "search", *TTT, "--positions-file", str(positions), "--until", "favourite-changes"
    )
    assert status == 2 and "--until stops one search" in err
