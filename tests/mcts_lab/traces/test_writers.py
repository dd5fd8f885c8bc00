"""The writers of the mcts-trace format for other people's searches (issue 32, "Writers that
cover the format"): ``traces.Recorder`` in a hand-written search, with and without its
iteration records, and ``traces.from_mctx`` on trees that search past the end of a game (by
hand, and from a real mctx search when ``mctx`` is installed). Every docstring example of the
two modules runs here too."""

from __future__ import annotations

import doctest
import json
import math
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mcts_lab import traces
from mcts_lab.cli import main
from mcts_lab.common import build_game
from mcts_lab.inspect.inspection import inspect_trace
from mcts_lab.traces import foreign, recorder


def counts(doc: dict[str, Any]) -> dict[str, int]:
    return dict(inspect_trace(traces.parse(doc))["anomaly_counts"])


def inspect_cli(doc: dict[str, Any], path: Path, capsys: Any) -> tuple[int, dict[str, Any]]:
    """``mcts-lab inspect FILE --json`` on ``doc`` written to ``path``: exit code, report."""
    traces.write(doc, path)
    capsys.readouterr()
    code = main(["inspect", str(path), "--json"])
    return code, json.loads(capsys.readouterr().out)


# ------------------------------------------------------------------ docstring examples


@pytest.mark.parametrize("module", [recorder, foreign], ids=["recorder", "foreign"])
def test_every_docstring_example_runs(module: Any) -> None:
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted >= 10  # the examples are there (not skipped as prose)


# ------------------------------------------------------------------ Recorder


def hand_uct(
    position: str, *, seed: int, iterations: int, c: float = 1.4, bug: str = "none"
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A small UCT written by hand (not the lab's search) on tic-tac-toe, recording every
    iteration with :class:`traces.Recorder`: selection terms, each finished game's ``proven``
    result, ``num_actions``, ``leaf_values`` and ``leaf_raw``. Values are from the view of the
    player who moved into a node (the format's "edge" view). ``bug="terminal_wrong"``: a win
    reached at a finished game is backed up as a loss. Returns the document and the search's
    own tree (per node: parent, move, action, player, visits, value sum, proven, moves)."""
    rng = random.Random(seed)
    game = build_game("tic_tac_toe")
    start = game.parse_state(position)
    rec = traces.Recorder(
        game="tic_tac_toe",
        position=position,
        settings={"tree_policy": "uct", "c": c},
        seed=seed,
        writer="hand-uct",
    )
    legal = list(game.legal_actions(start))
    nodes: list[dict[str, Any]] = [
        {"state": start, "parent": None, "move": None, "action": None,
         "player": game.current_player(start), "mover": game.current_player(start),
         "kids": [], "untried": legal, "visits": 0, "sum": 0.0, "proven": None,
         "num_actions": len(legal)},
    ]  # fmt: skip
    rec.root(player=nodes[0]["player"], num_actions=len(legal))
    for _ in range(iterations):
        node, path = 0, [0]
        while not nodes[node]["untried"] and nodes[node]["kids"]:
            n_parent = nodes[node]["visits"]
            terms = []
            for k in nodes[node]["kids"]:
                q = nodes[k]["sum"] / nodes[k]["visits"]
                bonus = c * math.sqrt(math.log(n_parent) / nodes[k]["visits"])
                terms.append({"node": k, "visits": nodes[k]["visits"], "q": q, "bonus": bonus,
                              "score": q + bonus})  # fmt: skip
            best = max(terms, key=lambda t: t["score"])
            rec.select(node, best["node"], terms=terms, rule="uct")
            node = best["node"]
            path.append(node)
        state = nodes[node]["state"]
        if nodes[node]["untried"]:
            action = nodes[node]["untried"].pop(rng.randrange(len(nodes[node]["untried"])))
            after = game.next_state(state, action, None)
            over = game.is_terminal(after)
            mover = game.current_player(state)
            moves = [] if over else list(game.legal_actions(after))
            proven = game.returns(after)[mover] if over else None
            child = rec.expand(
                node,
                move=game.action_label(state, action),
                action=int(action),
                player=-1 if over else game.current_player(after),
                proven=proven,
                num_actions=len(moves),
            )
            nodes.append(
                {"state": after, "parent": node, "move": game.action_label(state, action),
                 "action": int(action), "player": -1 if over else game.current_player(after),
                 "mover": mover, "kids": [], "untried": moves, "visits": 0, "sum": 0.0,
                 "proven": proven, "num_actions": len(moves)}
            )  # fmt: skip
            assert child == len(nodes) - 1
            nodes[node]["kids"].append(child)
            node, state = child, after
            path.append(child)
        rollout = 0
        while not game.is_terminal(state):
            state = game.next_state(state, rng.choice(list(game.legal_actions(state))), None)
            rollout += 1
        returns = list(game.returns(state))
        if bug == "terminal_wrong" and rollout == 0 and max(returns) > 0:
            returns = [-v for v in returns]
        for n in path:
            value = returns[nodes[n]["mover"]]
            nodes[n]["visits"] += 1
            nodes[n]["sum"] += value
            rec.backup(n, value)
        rec.finish(
            leaf=node,
            leaf_value=returns[nodes[node]["mover"]],
            leaf_values=returns,
            leaf_raw=returns,
            evaluation="terminal" if rollout == 0 else "rollout",
            rollout_moves=rollout,
        )
    return rec.document(), nodes


def tree_from(
    nodes: list[dict[str, Any]], position: str, *, tree_only: bool = True
) -> dict[str, Any]:
    """The finished tree of :func:`hand_uct` written node by node from the search's own numbers
    (``tree_only=False``: the way it had to be done before, through the iteration calls)."""
    rec = traces.Recorder(
        game="tic_tac_toe",
        position=position,
        settings={"tree_policy": "uct", "c": 1.4},
        tree_only=tree_only,
    )
    rec.root(player=nodes[0]["player"], num_actions=nodes[0]["num_actions"])
    for i, node in enumerate(nodes[1:], start=1):
        made = rec.expand(
            node["parent"],
            move=node["move"],
            action=node["action"],
            player=node["player"],
            proven=node["proven"],
            num_actions=node["num_actions"],
        )
        assert made == i
    for i, node in enumerate(nodes):
        rec.set_stats(i, visits=node["visits"], value_sum=node["sum"])
    return rec.document()


@pytest.mark.parametrize("position", ["X...O....", "........."])
def test_a_hand_written_search_recorded_inspects_clean_with_the_right_counts(
    position: str, tmp_path: Path, capsys: Any
) -> None:
    doc, nodes = hand_uct(position, seed=3, iterations=600)
    code, report = inspect_cli(doc, tmp_path / "search.jsonl", capsys)
    assert code == 0, report["anomalies"][:3]
    assert report["anomaly_counts"] == {}
    assert report["iterations"] == 600 and report["search_iterations"] == 600
    assert report["nodes"] == len(nodes)
    assert report["root"]["visits"] == 600
    rows = {row["id"]: row["visits"] for row in report["root_children"]}
    assert rows == {k: nodes[k]["visits"] for k in nodes[0]["kids"]}
    # the format's new fields are in the file as the search gave them
    finished = [n for n in doc["nodes"] if n["player"] == -1]
    assert finished and all(n["proven"] in (-1.0, 0.0, 1.0) for n in finished)
    assert doc["nodes"][0]["num_actions"] == len(nodes[0]["kids"])
    record = doc["trace"][0]
    assert len(record["leaf_values"]) == 2 and record["leaf_raw"] == record["leaf_values"]
    assert "rollout_moves" in record


def test_a_finished_tree_is_written_without_inventing_iterations(
    tmp_path: Path, capsys: Any
) -> None:
    """The same search's finished tree, node by node from its own numbers: tree-only, it
    inspects clean with no iteration record; through the iteration calls (all a developer had
    before) one made-up record draws hundreds of ``iteration`` anomalies."""
    position = "X...O...."
    doc, nodes = hand_uct(position, seed=5, iterations=800)
    tree = tree_from(nodes, position)
    assert "trace" not in tree
    code, report = inspect_cli(tree, tmp_path / "tree.json", capsys)
    assert code == 0, report["anomalies"][:3]
    assert report["iterations"] == 0 and report["search_iterations"] == 800
    assert report["nodes"] == len(nodes)
    # the tree-only file holds exactly the recorded run's tree
    assert tree["nodes"] == doc["nodes"]
    before = tree_from(nodes, position, tree_only=False)
    assert len(before["trace"]) == 1  # the made-up record
    made_up = counts(before)
    assert set(made_up) == {"iteration"}
    assert made_up["iteration"] >= 100  # 300 on this 691-node tree


def test_a_recorded_run_can_be_written_tree_only(tmp_path: Path, capsys: Any) -> None:
    rec = traces.Recorder(game="tic_tac_toe", position="XX.OO....", settings={"c": 1.4})
    root = rec.root(player=0, num_actions=5)
    win = rec.expand(root, move="c1", action=2, player=-1, proven=1.0)
    for node in (root, win):
        rec.backup(node, 1.0, proof="win" if node == win else None)
    rec.finish(leaf=win, leaf_value=1.0)
    assert "trace" in rec.document()
    only = rec.document(tree_only=True)
    assert "trace" not in only and only["iterations"] == 1
    rec.write(tmp_path / "t.jsonl", tree_only=True)
    capsys.readouterr()
    assert main(["inspect", str(tmp_path / "t.jsonl")]) == 0


def test_a_tree_only_recorder_refuses_iterations_and_takes_every_node_field() -> None:
    rec = traces.Recorder(
        game="gridiron", game_options={"size": 3}, tree_only=True, iterations=9, players=2
    )
    root = rec.root(player=0, position=None)
    with pytest.raises(ValueError, match="tree-only"):
        rec.select(root, root)
    with pytest.raises(ValueError, match="tree-only"):
        rec.backup(root, 1.0)
    with pytest.raises(ValueError, match="tree-only"):
        rec.finish()
    rec.set_stats(root, visits=3, value_sum=0.5, value_sums=[0.5, -0.5], proven=0.0)
    rec.prove(root, None)
    doc = rec.document()
    assert doc["game_options"] == {"size": 3} and doc["iterations"] == 9
    assert doc["nodes"][0]["value_sums"] == [0.5, -0.5] and doc["nodes"][0]["proven"] is None
    with pytest.raises(ValueError, match="num_actions"):
        traces.Recorder(tree_only=True).root(player=0, num_actions=-1)
    with pytest.raises(ValueError, match="proof"):
        live = traces.Recorder()
        live.backup(live.root(player=0), 1.0, proof="won")


def test_a_finished_game_scored_wrong_in_a_recorded_search_is_still_flagged(
    tmp_path: Path, capsys: Any
) -> None:
    doc, nodes = hand_uct("X...O....", seed=3, iterations=600, bug="terminal_wrong")
    code, report = inspect_cli(doc, tmp_path / "bug.jsonl", capsys)
    assert code == 1
    assert "terminal" in report["anomaly_counts"]
    tree_code, tree_report = inspect_cli(tree_from(nodes, "X...O...."), tmp_path / "t.json", capsys)
    assert tree_code == 1 and "terminal" in tree_report["anomaly_counts"]


# ------------------------------------------------------------------ from_mctx, by hand


def mctx_tree(
    parents: list[int], actions: list[int], visits: list[int], values: list[float], width: int = 9
) -> dict[str, np.ndarray]:
    """An mctx tree's arrays (batch of one) from each node's parent, action, visits and node
    value; the edge statistics are the child's, as mctx keeps them."""
    n = len(parents)
    tree = {
        "node_visits": np.array([visits]),
        "node_values": np.array([values], dtype=float),
        "parents": np.array([parents]),
        "action_from_parent": np.array([actions]),
        "children_index": np.full((1, n, width), -1),
        "children_visits": np.zeros((1, n, width), dtype=int),
        "children_values": np.zeros((1, n, width)),
        "children_prior_logits": np.zeros((1, n, width)),
        "children_rewards": np.zeros((1, n, width)),
        "children_discounts": np.zeros((1, n, width)),
    }
    for node in range(1, n):
        parent, action = parents[node], actions[node]
        tree["children_index"][0, parent, action] = node
        tree["children_visits"][0, parent, action] = visits[node]
        tree["children_values"][0, parent, action] = values[node]
        tree["children_discounts"][0, parent, action] = -1.0
    return tree


def test_from_mctx_takes_the_root_player_from_the_position() -> None:
    """O to move at the root: the players alternate from player 1, so naming the game gives
    no false wrong-player anomaly (mctx's trees start at player 0 otherwise)."""
    tree = mctx_tree([-1, 0, 0], [-1, 0, 4], [3, 1, 1], [0.0, 0.0, 0.0])
    doc = traces.from_mctx(tree, game="tic_tac_toe", position="....X....")
    # action 4 is taken: an illegal move, still flagged
    assert [n["player"] for n in doc["nodes"]] == [1, 0, 0]
    assert doc["nodes"][0]["num_actions"] == 8
    assert counts(doc) == {"illegal_move": 1}
    assert traces.from_mctx(tree)["nodes"][0]["player"] == 0  # no game: as before


def test_from_mctx_marks_a_game_ended_by_discount_zero_and_folds_its_reward() -> None:
    """pgx's convention: the move that ends the game pays its mover the result (reward 1,
    discount 0, value 0), and mctx's node 2 below it is dropped; no game named."""
    tree = mctx_tree([-1, 0, 1, 0], [-1, 2, 0, 5], [4, 2, 1, 1], [0.5, 0.0, 0.0, 0.0])
    tree["children_rewards"][0, 0, 2] = 1.0
    tree["children_discounts"][0, 0, 2] = 0.0
    tree["children_discounts"][0, 1, 0] = 0.0
    doc = traces.from_mctx(tree)
    ids = [n["id"] for n in doc["nodes"]]
    assert ids == [0, 1, 3]
    win = doc["nodes"][1]
    assert win["player"] == -1 and win["mean"] == -1.0  # the loser's view of X's win
    assert doc["values"]["backup"] == "mean"
    assert counts(doc) == {}
    named = traces.from_mctx(tree, game="tic_tac_toe", position="XX.OO....")
    assert named["nodes"][1]["proven"] == -1.0 and counts(named) == {}


def test_from_mctx_terminal_flags() -> None:
    tree = mctx_tree([-1, 0, 1, 0], [-1, 2, 0, 5], [4, 2, 1, 1], [0.5, -1.0, 1.0, 0.0])
    flags = np.array([[False, True, True, False]])
    doc = traces.from_mctx(tree, terminal=flags)
    assert [n["id"] for n in doc["nodes"]] == [0, 1, 3] and doc["nodes"][1]["player"] == -1
    assert "proven" not in doc["nodes"][1]  # no game: the result is not known
    assert counts(doc) == {}
    assert [n["id"] for n in traces.from_mctx(tree, terminal=flags[0])["nodes"]] == [0, 1, 3]
    with pytest.raises(ValueError, match="one flag per node"):
        traces.from_mctx(tree, terminal=[True])


def test_from_mctx_a_finished_game_scored_wrong_is_flagged() -> None:
    """X's win at c1 valued as a win for O (the node's mover): ``proven`` from the rules
    disagrees with the mean, ``terminal``."""
    tree = mctx_tree([-1, 0, 0], [-1, 2, 5], [3, 1, 1], [-1.0 / 3, 1.0, 0.0])
    doc = traces.from_mctx(tree, game="tic_tac_toe", position="XX.OO....")
    assert counts(doc) == {"terminal": 1}
    assert (
        "proven"
        not in traces.from_mctx(
            tree, game="tic_tac_toe", position="XX.OO....", finished_values=False
        )["nodes"][1]
    )


# ------------------------------------------------------------------ from_mctx, real mctx


@pytest.fixture(scope="module")
def mctx_search() -> Any:
    pytest.importorskip("mctx", reason="mctx (and jax) not installed: pip install mctx")
    from tests.mcts_lab import mctx_tictactoe

    return mctx_tictactoe


def test_a_real_mctx_tree_searched_past_finished_games_inspects_clean(
    mctx_search: Any, tmp_path: Path, capsys: Any
) -> None:
    """3,000 simulations of gumbel_muzero_policy at X...O....: unmarked, naming the game gives
    a pile of illegal moves below finished games (122 on this seed); marked, clean."""
    position = "X...O...."
    output = mctx_search.search(position, simulations=3000, seed=0, convention="value")
    tree = output.search_tree
    unmarked = traces.from_mctx(tree)
    unmarked["game"], unmarked["position"] = "tic_tac_toe", position
    assert counts(unmarked).get("illegal_move", 0) > 50
    doc = traces.from_mctx(tree, game="tic_tac_toe", position=position)
    code, report = inspect_cli(doc, tmp_path / "mctx.json", capsys)
    assert code == 0, report["anomalies"][:3]
    assert report["root"]["visits"] == 3001 and doc["values"]["backup"] == "mean"
    finished = [n for n in doc["nodes"] if n["player"] == -1]
    assert finished and all("proven" in n for n in finished)
    assert len(doc["nodes"]) < len(unmarked["nodes"])  # the nodes past finished games
    # the embeddings' own flags, no game named: the same tree
    flagged = traces.from_mctx(tree, terminal=mctx_search.finished_flags(output))
    assert [n["id"] for n in flagged["nodes"]] == [n["id"] for n in doc["nodes"]]
    assert counts(flagged) == {}


def test_a_real_mctx_tree_with_rewards_on_the_last_move_is_a_plain_mean(
    mctx_search: Any,
) -> None:
    position = "........."
    output = mctx_search.search(position, simulations=3000, seed=1, convention="reward")
    before = traces.from_mctx(output.search_tree)
    assert before["values"]["backup"] == "mean"  # the nodes past the end are dropped
    doc = traces.from_mctx(output.search_tree, game="tic_tac_toe", position=position)
    assert doc["values"]["backup"] == "mean"
    assert counts(doc) == {}


def test_a_real_mctx_tree_scoring_finished_games_wrong_is_flagged(
    mctx_search: Any, tmp_path: Path, capsys: Any
) -> None:
    position = "XX.OO...."
    output = mctx_search.search(position, simulations=3000, seed=0, wrong=True)
    doc = traces.from_mctx(output.search_tree, game="tic_tac_toe", position=position)
    code, report = inspect_cli(doc, tmp_path / "wrong.json", capsys)
    assert code == 1
    assert set(report["anomaly_counts"]) == {"terminal"}


def test_from_mctx_reads_an_openspiel_game() -> None:
    pytest.importorskip("pyspiel", reason="OpenSpiel not installed")
    game = build_game("openspiel:tic_tac_toe()")
    state = game.initial_state()
    for action in (0, 3, 1, 4):  # X a1, O a2, X b1, O b2: X to move, cell 2 wins
        state = game.next_state(state, action, None)
    tree = mctx_tree([-1, 0, 1, 0], [-1, 2, 0, 5], [4, 2, 1, 1], [0.5, -1.0, 1.0, 0.0])
    doc = traces.from_mctx(tree, game="openspiel:tic_tac_toe()", position=game.format_state(state))
    assert [(n["id"], n["player"], n.get("proven")) for n in doc["nodes"]] == [
        (0, 0, None),
        (1, -1, -1.0),
        (3, 1, None),
    ]
    assert counts(doc) == {}
