"""The checks that find selection and sign bugs (issue 32): ``uct_starved``, ``sign``,
``proven_starved``, ``decision`` recomputed from the records and ``exact_value``, on a
textbook UCT's files (tests/mcts_lab/textbook_uct.py) correct and with planted bugs, on the
lab's own search through the CLI, and on PyPI ``mcts`` 1.0.4 where it installs."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from games import GAME_NAMES
from mcts_lab import traces
from mcts_lab.cli import main
from mcts_lab.inspect.anomalies import FileFacts
from mcts_lab.inspect.inspection import inspect_trace
from mcts_lab.inspect.selection_checks import states_uct, uct_constant
from tests.mcts_lab.textbook_uct import textbook_uct
from tests.mcts_lab.traces.test_traces import add, small_tree

#: The correct search's positions (4) and constants (3); seeds 0..4: 60 runs.
POSITIONS = [
    ("tic_tac_toe", None),
    ("tic_tac_toe", "X...O...."),
    ("tic_tac_toe", "XX.OO...."),
    ("nim", None),
]
CONSTANTS = (0.5, 1.4, 2.0)


def counts(doc: dict[str, Any], **options: Any) -> dict[str, int]:
    return dict(inspect_trace(traces.parse(doc), **options)["anomaly_counts"])


@pytest.mark.parametrize("position", POSITIONS)
def test_a_correct_textbook_uct_is_clean(position: tuple[str, str | None]) -> None:
    """60 runs of the correct search (4 positions, 3 values of C, 5 seeds), and with its
    solver on (2 seeds): no anomaly."""
    game, where = position
    for c in CONSTANTS:
        for seed in range(5):
            doc = textbook_uct(game, where, seed=seed, iterations=600, c=c)
            assert counts(doc) == {}, (c, seed)
        for seed in range(2):
            doc = textbook_uct(game, where, seed=seed, iterations=600, c=c, solver=True)
            assert counts(doc) == {}, ("solver", c, seed)


def test_a_correct_textbook_uct_with_records_is_clean() -> None:
    for seed in range(3):
        for terms in (True, False):
            for solver in (False, True):
                doc = textbook_uct(
                    "tic_tac_toe",
                    "X...O....",
                    seed=seed,
                    iterations=300,
                    records=True,
                    terms=terms,
                    solver=solver,
                )
                assert counts(doc) == {}, (seed, terms, solver)


#: Each planted bug, the kind that names it, the three tic-tac-toe positions it is planted
#: from (where it shows: a finished game is rarely reached from the start in a few hundred
#: iterations, and at ``XX.OO....`` the root is proven before the solver can err below it)
#: and the iterations that expose it.
PLANTED: list[tuple[str, str, tuple[str | None, ...], int]] = [
    ("no_sign_flip", "sign", (None, "X...O....", "XO......."), 400),
    ("log_child", "uct_starved", (None, "XX.OO....", "X...O...."), 200),
    ("first_child", "uct_starved", (None, "XX.OO....", "X...O...."), 200),
    ("terminal_wrong", "terminal", ("XX.OO....", "X...O....", "XO......."), 400),
    ("root_unbacked", "value_sum", (None, "XX.OO....", "X...O...."), 200),
    ("leaf_wrong_view", "wrong_view", (None, "XX.OO....", "X...O...."), 200),
    ("solver_no_negation", "proven", ("X...O....", "XO.......", "X.O......"), 400),
]


@pytest.fixture(scope="module")
def planted_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Path]]:
    """The planted bugs' files, written once for the module: per bug, one file a position."""
    folder = tmp_path_factory.mktemp("planted")
    files: dict[str, list[Path]] = {}
    for bug, _, positions, iterations in PLANTED:
        for k, where in enumerate(positions):
            doc = textbook_uct(
                "tic_tac_toe",
                where,
                seed=1,
                iterations=iterations,
                bug=bug,
                solver=bug.startswith("solver"),
            )
            path = folder / f"{bug}-{k}.json"
            traces.write(doc, path)
            files.setdefault(bug, []).append(path)
    return files


@pytest.mark.parametrize(("bug", "kind"), [(bug, kind) for bug, kind, _, _ in PLANTED])
def test_planted_bugs_exit_1_naming_their_kind(
    bug: str, kind: str, planted_files: dict[str, list[Path]], capsys: pytest.CaptureFixture[str]
) -> None:
    """Each bug from three positions, tree only (no records): ``inspect`` exits 1 and names
    the bug's kind (the root's unadded value at the root, with the words that say so)."""
    for path in planted_files[bug]:
        status = main(["inspect", str(path)])
        out = capsys.readouterr().out
        assert status == 1, (path.name, out[-800:])
        assert f"\n  {kind} node" in out, (path.name, out[-800:])
        if bug == "root_unbacked":
            assert "  value_sum node 0: " in out and "no value was ever added" in out


def test_the_solver_s_proofs_are_checked_only_where_they_contradict() -> None:
    """The correct solver proves the root of ``XO.......`` a win for X (the search stops
    there) with no anomaly; the forgetful one stores a node whose mover wins as a win for the
    player who moved into it, and ``proven`` names that node and the winning move."""
    right = textbook_uct("tic_tac_toe", "XO.......", seed=1, iterations=400, solver=True)
    assert right["nodes"][0]["proven"] == 1.0 and right["iterations"] < 400
    assert counts(right) == {}
    wrong = textbook_uct(
        "tic_tac_toe", "XO.......", seed=1, iterations=400, solver=True, bug="solver_no_negation"
    )
    items = [a for a in inspect_trace(traces.parse(wrong))["anomalies"] if a["kind"] == "proven"]
    by_id = {n["id"]: n for n in wrong["nodes"]}
    for item in items:
        node = by_id[item["node"]]
        assert node["proven"] == 1.0 and node["parent"] is not None  # copied, not negated
        assert "proven -1 for player" in item["detail"] and "is proven 1 for them" in item["detail"]
    assert items


def test_first_child_starves_a_winning_move_at_xx_oo() -> None:
    """The issue's case: at ``XX.OO....`` selection that always takes the first child leaves
    the winning move c1 with a visit or two while a sibling takes the rest."""
    for seed in range(3):
        doc = textbook_uct(
            "tic_tac_toe", "XX.OO....", seed=seed, iterations=3000, bug="first_child"
        )
        root_kids = [n for n in doc["nodes"] if n["parent"] == 0]
        win = next(n for n in root_kids if n["move"] == "c1")
        if max(root_kids, key=lambda n: n["visits"]) is win:
            continue  # c1 happened to be the first child: nothing starved
        found = inspect_trace(traces.parse(doc))["anomalies"]
        proofs = [a for a in found if a["kind"] == "proven_starved" and a["node"] == 0]
        assert proofs and "'c1' ends the game with a win" in proofs[0]["detail"]
        assert f"{win['visits']} visit" in proofs[0]["detail"]


def test_the_uct_bound_fires_at_low_counts_and_says_its_numbers() -> None:
    """A move that lost its one visit beside a sibling at +0.5 over 14: UCT with C = 1.4 would
    have gone back to it (the Hoeffding test cannot fire below 10 visits); over 13 it might
    not have yet, and at C = 0.5 it need not."""
    doc = small_tree(visits=16, value_sum=-1.0 + 7.0)
    doc["settings"] = {"c": 1.4, "tree_policy": "uct"}
    add(doc, id=1, parent=0, player=1, move="a", visits=1, value_sum=-1.0)
    add(doc, id=2, parent=0, player=1, move="b", visits=14, value_sum=7.0)
    [item] = inspect_trace(traces.parse(doc))["anomalies"]
    assert item["kind"] == "uct_starved" and item["node"] == 0
    assert "'a': 1 visit, mean -1.0000" in item["detail"] and "C=1.4" in item["detail"]
    doc["settings"]["c"] = 0.5
    assert counts(doc) == {}
    doc["settings"]["c"] = 1.4
    doc["nodes"][2].update(visits=13, value_sum=6.5)
    doc["nodes"][0].update(visits=15, value_sum=5.5)
    assert counts(doc) == {}


def test_the_bound_is_never_broken_by_uct_itself() -> None:
    """Soundness by brute force: a UCT on random bandit trees (values anywhere in [-1, 1], C
    and the range varied) never ends with counts the bound flags, over 400 runs."""
    rng = random.Random(0)
    for run in range(400):
        arms = rng.randint(2, 6)
        c = rng.choice([0.3, 0.5, 1.0, 1.4, 2.0])
        means = [rng.uniform(-1, 1) for _ in range(arms)]
        visits, sums = [1] * arms, []
        for m in means:
            sums.append(max(-1.0, min(1.0, m + rng.uniform(-1, 1))))
        for _ in range(rng.randint(5, 400)):
            total = sum(visits)
            k = max(
                range(arms),
                key=lambda a: sums[a] / visits[a] + c * math.sqrt(math.log(total + 1) / visits[a]),
            )
            value = 1.0 if rng.random() < (1 + means[k]) / 2 else -1.0
            if rng.random() < 0.3:
                value = rng.uniform(-1, 1)
            visits[k] += 1
            sums[k] += value
        doc = small_tree(visits=sum(visits) + 1, value_sum=-sum(sums))
        doc["settings"] = {"c": c, "tree_policy": "uct"}
        doc["values"]["view"] = "node"
        doc["nodes"][0].pop("value_sum")
        doc["nodes"][0]["value_sums"] = [0.0, 0.0]
        for a in range(arms):
            add(doc, id=a + 1, parent=0, player=1, visits=visits[a], value_sums=[sums[a], -sums[a]])
        doc["nodes"][0]["value_sums"] = [sum(sums), -sum(sums)]
        found = inspect_trace(traces.parse(doc))["anomaly_counts"]
        assert not {"uct_starved", "sign", "proven_starved"} & set(found), (run, found)


def test_decisions_without_scores_are_recomputed_from_the_records() -> None:
    """A writer that records which child it chose but no scores: the decision is checked
    against UCT's scores recomputed from the records' visits and backups."""
    doc = textbook_uct(
        "tic_tac_toe",
        "X...O....",
        seed=2,
        iterations=300,
        bug="first_child",
        records=True,
        terms=False,
    )
    found = inspect_trace(traces.parse(doc))["anomalies"]
    decisions = [a for a in found if a["kind"] == "decision"]
    assert decisions and "recomputed from the records" in decisions[0]["detail"]
    # a rule that is not UCT is not recomputed
    for record in doc["trace"]:
        for decision in record["decisions"]:
            decision["rule"] = "thompson"
    assert "decision" not in counts(doc)


def test_states_uct() -> None:
    doc = small_tree()
    assert not states_uct(traces.parse(doc)) or uct_constant(traces.parse(doc)) == 1.0
    doc["settings"] = {"c": 0.5, "tree_policy": "ucb1"}
    assert uct_constant(traces.parse(doc)) == pytest.approx(2 * math.sqrt(2) * 0.5)
    doc["settings"] = {"c": 1.25, "tree_policy": "puct"}
    assert uct_constant(traces.parse(doc)) is None
    doc["settings"] = {"c": 1.25}  # no policy named, unequal priors: PUCT
    add(doc, id=1, parent=0, player=1, move="a", visits=0, prior=0.7)
    add(doc, id=2, parent=0, player=1, move="b", visits=0, prior=0.3)
    assert not states_uct(traces.parse(doc))


def test_exact_value_flags_a_sign_bug_only_with_exact(tmp_path: Path, capsys) -> None:
    doc = textbook_uct("tic_tac_toe", "X...O....", seed=0, iterations=3000, bug="no_sign_flip")
    doc["settings"] = {}  # no UCT stated: only the exact check can speak
    assert counts(doc) == {}
    found = counts(doc, exact=True)
    assert found == {"exact_value": 1}
    path = tmp_path / "t.json"
    traces.write(doc, path)
    assert main(["inspect", str(path), "--exact", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    [item] = data["anomalies"]
    assert "exact value is +0.000" in item["detail"] and "sign" in item["detail"]
    assert data["root_children"][0]["exact"] is not None  # the values are still shown
    right = textbook_uct("tic_tac_toe", "X...O....", seed=0, iterations=3000)
    assert counts(right, exact=True) == {}


def test_file_facts_keep_their_old_fields() -> None:
    doc = small_tree()
    trace = traces.parse(doc)
    facts = FileFacts(trace, [0], [[0.0, 0.0]])
    assert facts.exact_seconds is None and facts.memo == {}


SEARCHES = [
    [],
    ["--c", "0.5"],
    ["--c", "2.0", "--solver"],
    ["--policy", "ucb1", "--c", "0.7"],
    ["--policy", "puct", "--prior", "heuristic"],
    ["--min-visits", "3"],
]


@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_lab_s_search_through_the_cli_is_clean(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for k, extra in enumerate(SEARCHES):
        path = tmp_path / f"{k}.json"
        argv = ["search", "--game", game, "--iterations", str(300 + 300 * k), "--seed", str(k)]
        assert main([*argv, *extra, "--trace", str(path), "--json"]) == 0
        capsys.readouterr()
        status = main(["inspect", str(path)])
        out = capsys.readouterr().out
        assert status == 0, (extra, out[-600:])


# ------------------------------------------------------------------ PyPI mcts 1.0.4


class _TicTacToe:
    """Tic-tac-toe in PyPI ``mcts``'s state interface; ``getReward`` from X's view (player 1
    in the package's examples), as its README's example does."""

    def __init__(self, cells: tuple[int, ...] = (0,) * 9, to_move: int = 1) -> None:
        self.cells, self.to_move = cells, to_move

    def getCurrentPlayer(self) -> int:
        return self.to_move

    def getPossibleActions(self) -> list[int]:
        return [i for i, v in enumerate(self.cells) if v == 0]

    def takeAction(self, action: int) -> _TicTacToe:
        cells = list(self.cells)
        cells[action] = self.to_move
        return _TicTacToe(tuple(cells), -self.to_move)

    def _winner(self) -> int:
        lines = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8)]
        for a, b, c in [*lines, (2, 4, 6)]:
            if self.cells[a] != 0 and self.cells[a] == self.cells[b] == self.cells[c]:
                return self.cells[a]
        return 0

    def isTerminal(self) -> bool:
        return self._winner() != 0 or all(self.cells)

    def getReward(self) -> float:
        return float(self._winner())


class _ConnectFour(_TicTacToe):
    """Connect Four (7 x 6) in the same interface; a cell is column + 7 * row from the bottom."""

    def __init__(self, cells: tuple[int, ...] = (0,) * 42, to_move: int = 1) -> None:
        super().__init__(cells, to_move)

    def getPossibleActions(self) -> list[int]:
        return [col for col in range(7) if self.cells[col + 35] == 0]

    def takeAction(self, action: int) -> _ConnectFour:
        cells = list(self.cells)
        row = next(r for r in range(6) if cells[action + 7 * r] == 0)
        cells[action + 7 * row] = self.to_move
        return _ConnectFour(tuple(cells), -self.to_move)

    def _winner(self) -> int:
        cells = self.cells
        for r in range(6):
            for col in range(7):
                v = cells[col + 7 * r]
                if not v:
                    continue
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    if all(
                        0 <= r + k * dr < 6
                        and 0 <= col + k * dc < 7
                        and cells[col + k * dc + 7 * (r + k * dr)] == v
                        for k in range(4)
                    ):
                        return v
        return 0


def _mcts_document(searcher: Any, game: str, exploration: float) -> dict[str, Any]:
    """PyPI ``mcts``'s tree as an mcts-trace document: its ``totalReward`` is the reward from
    X's view (player 0 here) at every node, so the file says view 0; its bonus
    ``e sqrt(2 ln N / n)`` is UCT with C = e sqrt(2)."""
    nodes: list[dict[str, Any]] = []
    stack: list[tuple[Any, int | None, Any]] = [(searcher.root, None, None)]
    while stack:
        node, parent, action = stack.pop()
        item: dict[str, Any] = {
            "id": len(nodes),
            "parent": parent,
            "player": -1 if node.isTerminal else (0 if node.state.getCurrentPlayer() == 1 else 1),
            "visits": node.numVisits,
            "value_sum": float(node.totalReward),
        }
        if action is not None:
            item["move"], item["action"] = str(action), action
        nodes.append(item)
        for child_action, child in node.children.items():
            stack.append((child, item["id"], child_action))
    return {
        "format": "mcts-trace",
        "version": 1,
        "game": None,
        "settings": {"c": exploration * math.sqrt(2), "tree_policy": "uct"},
        "writer": {"name": "mcts (PyPI)", "version": "1.0.4"},
        "players": 2,
        "values": {"range": [-1, 1], "view": 0, "zero_sum": True, "backup": "mean"},
        "visit_rule": "leaf_visit",
        "nodes": nodes,
    }


@pytest.mark.parametrize("game", ["tic_tac_toe", "connect_four"])
def test_pypi_mcts_1_0_4_sign_bug_is_flagged(game: str) -> None:
    """PyPI ``mcts`` 1.0.4 maximises the reward of the player ``getReward`` speaks for at every
    node (the opponent plays X's best reply): its files are flagged ``sign``."""
    mcts = pytest.importorskip("mcts", reason="PyPI mcts==1.0.4 is not installed")
    if not hasattr(mcts, "mcts") or not hasattr(mcts, "treeNode"):
        pytest.skip("not PyPI's mcts 1.0.4 (another package named mcts)")
    flagged = 0
    for seed in range(3):
        random.seed(seed)
        searcher = mcts.mcts(iterationLimit=2000 if game == "tic_tac_toe" else 1500)
        start = _TicTacToe() if game == "tic_tac_toe" else _ConnectFour()
        searcher.search(initialState=start)
        doc = _mcts_document(searcher, game, searcher.explorationConstant)
        found = counts(doc)
        assert set(found) <= {"sign", "uct_starved", "proven_starved"}, found
        flagged += "sign" in found
    assert flagged == 3
