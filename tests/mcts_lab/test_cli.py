"""The mcts-lab command line: search JSON schema, determinism, batch mode, errors, tree exports."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mcts_core import Search
from mcts_lab.common import (
    action_index,
    build_config,
    build_game,
    principal_variation,
    search_summary,
    signed_value,
)
from tests.conftest import CliRunner
from tests.dice_game import Pig

SEARCH_FIELDS = {
    "game": str,
    "position": str,
    "iterations": int,
    "seconds": float,
    "iterations_per_second": float,
    "nodes": int,
    "best_action": str,
    "best_action_index": int,
    "children": list,
    "root_player": int,
    "root_value": float,
    "max_depth": int,
    "final_choices": dict,
    "principal_variation": list,
    "config": dict,
    "stopped": str,
    "note": str,
}


def test_search_json_schema(cli: CliRunner) -> None:
    status, out, err = cli(
        "search", "--game", "connect_four", "--position", "4453",
        "--iterations", "300", "--seed", "1", "--json",
    )  # fmt: skip
    assert status == 0 and err == ""
    assert out.count("\n") == 1  # one JSON object on one line
    data = json.loads(out)
    for key, kind in SEARCH_FIELDS.items():
        assert isinstance(data[key], kind), key
    assert data["game"] == "connect_four" and data["position"] == "4453"
    assert data["iterations"] == 300 and data["stopped"] == "iterations"
    assert data["root_player"] == 0
    assert data["best_action"] == f"col {data['best_action_index'] + 1}"
    assert data["root_proven"] is None
    assert sum(c["visits"] for c in data["children"]) == 300
    assert sorted(c["action_index"] for c in data["children"]) == list(range(7))
    for child in data["children"]:
        assert set(child) == {"action", "action_index", "visits", "value", "proven"}
        assert child["action"] == f"col {child['action_index'] + 1}"
        assert isinstance(child["visits"], int) and isinstance(child["value"], float)
        assert -1.0 <= child["value"] <= 1.0 and child["proven"] is None
    assert data["config"]["c"] == 1.4 and data["config"]["tree_policy"] == "uct"
    assert set(data["final_choices"]) == {"most_visited", "highest_value", "robust"}
    assert data["principal_variation"][0] == data["best_action"]


def test_search_values_are_from_the_root_movers_view(cli: CliRunner) -> None:
    # O to move; X threatens a1-b1-c1 (cell 2): blocking is O's only move that does not lose.
    _, out, _ = cli(
        "search", "--game", "tic_tac_toe", "--position", "XX..O....",
        "--iterations", "3000", "--seed", "2", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert data["root_player"] == 1
    assert data["best_action_index"] == 2
    others = [c for c in data["children"] if c["action_index"] != 2]
    assert max(c["value"] for c in others) < 0  # every other move loses for O, the root mover
    block = next(c for c in data["children"] if c["action_index"] == 2)
    assert block["value"] > max(c["value"] for c in others)


def test_search_is_deterministic(cli: CliRunner) -> None:
    argv = ("search", "--game", "tic_tac_toe", "--iterations", "400", "--seed", "7", "--json")
    first = json.loads(cli(*argv)[1])
    second = json.loads(cli(*argv)[1])
    assert first["children"] == second["children"]
    assert first["best_action"] == second["best_action"]
    assert first["nodes"] == second["nodes"]
    other = json.loads(cli(*argv[:-2], "8", "--json")[1])
    assert other["children"] != first["children"]  # the seed matters


def test_unit_value_range_reports_minus_one_to_one(cli: CliRunner) -> None:
    argv = ("search", "--game", "tic_tac_toe", "--position", "XX.OO....", "--iterations", "300")
    symmetric = json.loads(cli(*argv, "--json")[1])
    unit = json.loads(cli(*argv, "--json", "--value-range", "unit")[1])
    win = next(c for c in unit["children"] if c["action_index"] == 2)
    assert win["value"] == pytest.approx(1.0)
    assert all(-1.0 <= c["value"] <= 1.0 for c in unit["children"])
    assert any(c["value"] < 0 for c in unit["children"])  # a unit q < 0.5 is reported < 0
    assert symmetric["best_action_index"] == unit["best_action_index"] == 2
    assert unit["config"]["value_range"] == "unit"


def test_solver_reports_proven_children(cli: CliRunner) -> None:
    _, out, _ = cli(
        "search", "--game", "tic_tac_toe", "--position", "XX.OO....",
        "--iterations", "2000", "--solver", "--expansion", "random", "--json",
    )  # fmt: skip
    data = json.loads(out)
    win = next(c for c in data["children"] if c["action_index"] == 2)
    assert win["proven"] == "win" and data["root_proven"] == "win"
    assert data["stopped"] == "solved" and data["best_action_index"] == 2


def test_shaping_options_reach_the_config(cli: CliRunner) -> None:
    _, out, _ = cli(
        "search", "--game", "connect_four", "--iterations", "50", "--json",
        "--c", "0.7", "--policy", "puct", "--rollout", "epsilon", "--epsilon", "0.3",
        "--depth", "4", "--min-visits", "2", "--expansion", "heuristic", "--final", "robust",
        "--win", "1", "--draw", "-0.5", "--loss", "-100", "--heuristic-weight", "0.5",
        "--horizon", "turn", "--max-nodes", "1000",
    )  # fmt: skip
    config = json.loads(out)["config"]
    assert config == {
        **config,
        "c": 0.7, "tree_policy": "puct", "rollout": "epsilon", "epsilon": 0.3,
        "rollout_depth": 4, "min_visits": 2, "expansion_order": "heuristic",
        "final_policy": "robust", "win_value": 1.0, "draw_value": -0.5, "loss_value": -100.0,
        "heuristic_weight": 0.5, "rollout_horizon": "turn", "max_nodes": 1000,
    }  # fmt: skip


def test_human_summary_is_a_table(cli: CliRunner) -> None:
    status, out, _ = cli("search", "--game", "connect_four", "--iterations", "200", "--seed", "3")
    assert status == 0
    assert "best move: col" in out and "visits" in out and "view of the player to move" in out
    assert sum(line.startswith("col ") for line in out.splitlines()) == 7


def test_positions_file_gives_json_lines(cli: CliRunner, tmp_path: Path) -> None:
    batch = tmp_path / "positions.txt"
    batch.write_text("# three positions\nX.O.X....\n\n  # indented comment\nOOO......\nXX.OO....\n")
    status, out, err = cli(
        "search", "--game", "tic_tac_toe", "--positions-file", str(batch),
        "--iterations", "100",
    )  # fmt: skip
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["position"] for line in lines] == ["X.O.X....", "OOO......", "XX.OO...."]
    assert [line["line"] for line in lines] == [2, 5, 6]
    assert set(lines[1]) == {"line", "game", "position", "error"}
    assert "O has more stones" in lines[1]["error"]
    assert lines[0]["best_action"] and lines[2]["best_action"]
    assert lines[0]["iterations"] == 100 and "error" not in lines[0]
    assert status == 1 and err == ""  # one line failed; the batch went on


def test_positions_file_all_good_exits_0(cli: CliRunner, tmp_path: Path) -> None:
    batch = tmp_path / "c4.txt"
    batch.write_text("\n4453\n44\n")
    status, out, _ = cli(
        "search", "--game", "connect_four", "--positions-file", str(batch),
        "--iterations", "60", "--seed", "4",
    )  # fmt: skip
    assert status == 0
    assert [json.loads(line)["position"] for line in out.splitlines()] == ["4453", "44"]
    empty = tmp_path / "empty.txt"
    empty.write_text("# nothing\n")
    assert cli("search", "--game", "connect_four", "--positions-file", str(empty)) == (
        0,
        "",
        "",
    )


def test_terminal_position_is_reported(cli: CliRunner) -> None:
    status, out, _ = cli("search", "--game", "tic_tac_toe", "--position", "XXXOO....", "--json")
    data = json.loads(out)
    assert status == 0 and data["best_action"] is None and data["best_action_index"] is None
    assert data["children"] == [] and data["root_player"] is None and "over" in data["note"]


def test_seconds_budget(cli: CliRunner) -> None:
    _, out, _ = cli("search", "--game", "connect_four", "--seconds", "0.05", "--json")
    data = json.loads(out)
    assert data["stopped"] == "seconds" and data["iterations"] > 0
    _, out, _ = cli(
        "search", "--game", "connect_four", "--seconds", "5", "--iterations", "20",
        "--json",
    )  # fmt: skip
    assert json.loads(out)["iterations"] == 20  # whichever budget runs out first


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["search", "--game", "chess"], "invalid choice"),
        (["search", "--game", "connect_four", "--position", "448"], "column 8 out of range"),
        (["search", "--game", "tic_tac_toe", "--position", "XO"], "9 cells"),
        (["search", "--game", "tic_tac_toe", "--iterations", "-5"], "not in"),
        (["search", "--game", "tic_tac_toe", "--iterations", str(10**12)], "not in"),
        (["search", "--game", "tic_tac_toe", "--iterations", "lots"], "not a whole number"),
        (["search", "--game", "tic_tac_toe", "--c", "nan"], "not a number"),
        (["search", "--game", "tic_tac_toe", "--c", "1e999"], "not a finite number"),
        (["search", "--game", "tic_tac_toe", "--c", "-1"], "c must be"),
        (["search", "--game", "tic_tac_toe", "--epsilon", "2"], "epsilon"),
        (["search", "--game", "tic_tac_toe", "--loss", "5"], "loss_value"),
        (["search", "--game", "tic_tac_toe", "--seconds", "0"], "not in"),
        (["search", "--game", "tic_tac_toe", "--seed", "-1"], "not in"),
        (["search", "--game", "tic_tac_toe", "--positions-file", "/nonexistent"], "cannot read"),
        (["search", "--game", "tic_tac_toe", "--positions-file", "/", "--c", "-2"], "c must"),
        (["search", "--game", "tic_tac_toe", "--iter", "5"], "unrecognized"),
        (["search", "--game", "connect_four", "--position", "4", "--positions-file", "f"],
         "not both"),
        (["tree", "--game", "tic_tac_toe", "--format", "svg"], "invalid choice"),
        (["tree", "--game", "tic_tac_toe", "--max-children", "0"], "not in"),
        (["search"], "required"),
        ([], "required"),
        # ASCII digits only: int() and float() would take these
        (["search", "--game", "tic_tac_toe", "--seed", "1_000"], "not a whole number"),
        (["search", "--game", "tic_tac_toe", "--seed", "\u0661\u0662"], "not a whole number"),
        (["search", "--game", "tic_tac_toe", "--iterations", "\uff12"], "not a whole number"),
        (["search", "--game", "tic_tac_toe", "--c", "1_0"], "not a number"),
        (["search", "--game", "tic_tac_toe", "--seconds", "1e-9"], "too short to finish one"),
    ],
)  # fmt: skip
def test_bad_arguments_exit_2_with_one_line(cli: CliRunner, argv: list[str], message: str) -> None:
    status, out, err = cli(*argv)
    assert status == 2 and out == ""
    assert err.startswith("mcts-lab: error:") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(
    "argv",
    [
        ["search", "--game", "g" * 5000],
        ["search", "--game", "tic_tac_toe", "--seed", "9" * 5000 + "x"],
        ["search", "--game", "gridiron", "--position", "1_" * 3000],
        ["search", "--game", "connect_four", "--position", "x" * 5000],
    ],
)
def test_error_lines_quote_at_most_80_characters(cli: CliRunner, argv: list[str]) -> None:
    status, _, err = cli(*argv)
    assert status == 2 and err.count("\n") == 1
    assert len(err) < 320  # the message, the choices, and at most 80 quoted characters
    assert "x" * 81 not in err and "9" * 81 not in err and "g" * 81 not in err


def test_positions_file_with_a_byte_order_mark(cli: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "positions.txt"
    path.write_bytes(b"\xef\xbb\xbf4453\n")  # as Notepad saves UTF-8
    status, out, err = cli(
        "search", "--game", "connect_four", "--positions-file", str(path),
        "--iterations", "20", "--json",
    )  # fmt: skip
    assert status == 0 and err == ""
    assert json.loads(out)["position"] == "4453"


def test_tree_formats(cli: CliRunner) -> None:
    base = ("tree", "--game", "tic_tac_toe", "--iterations", "200", "--max-depth", "2")
    root = ET.fromstring(cli(*base)[1])
    assert root.tag == "ActionNode" and root.get("visits") == "200" and root.get("p") == "max"
    assert root.findall("ChanceNode") == []  # tic-tac-toe has no dice: no chance layer
    moves = root.findall("ActionNode")
    assert len(moves) == 9 and sum(int(c.get("visits")) for c in moves) == 200
    assert all(c.get("p") == "min" and c.get("action") for c in moves)
    data = json.loads(cli(*base, "--format", "json")[1])
    assert data["visits"] == 200 and data["kind"] == "action"
    assert cli(*base, "--format", "dot")[1].startswith("digraph")


def test_tree_limits(cli: CliRunner) -> None:
    out = cli(
        "tree", "--game", "connect_four", "--position", "4453", "--iterations", "500",
        "--max-depth", "1", "--max-children", "3", "--seed", "5",
    )[1]  # fmt: skip
    root = ET.fromstring(out)
    assert len(root.findall("ActionNode")) == 3
    assert "4 more actions not shown" in out


def test_console_script_runs_without_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mcts_lab.cli", "search", "--game", "connect_four",
         "--position", "4x"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr == "mcts-lab: error: bad character 'x' at index 1: use column digits 1-7\n"


def test_console_script_offers_export_from_any_directory(tmp_path: Path) -> None:
    """The app is not installed, yet an install from a checkout finds its ``export`` from
    anywhere (a teacher's Documents folder), and refuses a bad format in one line."""
    done = subprocess.run(
        [sys.executable, "-m", "mcts_lab.cli", "export", "--game", "nim", "--iterations", "2",
         "--format", "doc", "--out", "x.doc"],
        capture_output=True, text=True, check=False, cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("mcts-lab: error:") and done.stderr.count("\n") == 1
    assert "doc" in done.stderr and not list(tmp_path.iterdir())


def test_console_script_json_end_to_end() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mcts_lab.cli", "search", "--game", "tic_tac_toe",
         "--position", "X.O.X....", "--iterations", "500", "--seed", "1", "--json"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and done.stderr == ""
    data = json.loads(done.stdout)
    assert data["position"] == "X.O.X...." and data["best_action_index"] == 8  # O must block


# ------------------------------------------------------------ shared helpers (common.py)


def test_action_index_per_game() -> None:
    c4 = build_game("connect_four")
    state = c4.parse_state("4453")
    assert [action_index(c4, state, a) for a in c4.legal_actions(state)] == list(range(7))
    pig = Pig()
    state = pig.parse_state("0-0-3-0-0")
    assert [action_index(pig, state, a) for a in pig.legal_actions(state)] == [0, 1]


def test_signed_value_and_config_helpers() -> None:
    assert signed_value(0.25, "symmetric") == 0.25
    assert signed_value(0.25, "unit") == -0.5
    assert signed_value(0.75, build_config(value_range="unit")) == 0.5
    config = build_config({"c": 2.0, "depth": None, "policy": "ucb1"}, expansion="random")
    assert (config.c, config.tree_policy, config.expansion_order) == (2.0, "ucb1", "random")
    assert config.rollout_depth is None
    with pytest.raises(ValueError, match="unknown search option"):
        build_config(colour="blue")
    with pytest.raises(ValueError, match="unknown game"):
        build_game("chess")


def test_summary_of_a_game_with_chance() -> None:
    pig = Pig()
    search = Search(pig, pig.parse_state("0-0-3-0-0"), build_config(), seed=1)
    result = search.run(iterations=300)
    data = search_summary(search, result)
    assert data["game"] == "pig" and data["position"] == "0-0-3-0-0"
    assert {c["action"]: c["action_index"] for c in data["children"]} == {"roll": 0, "hold": 1}
    json.dumps(data)  # JSON-ready
    pv = principal_variation(search)
    assert pv and (pv[0] == "hold" or pv[0].startswith("roll: rolled "))


def test_preset_sets_the_search_and_explicit_flags_win(cli: CliRunner) -> None:
    base = ("search", "--game", "tic_tac_toe", "--iterations", "20", "--json")
    code, out, _ = cli(*base, "--preset", "tutorial")
    config = json.loads(out)["config"]
    assert code == 0
    assert (config["tree_policy"], config["c"], config["value_range"]) == ("ucb1", 0.707, "unit")
    assert (config["rollout_horizon"], config["solver"]) == ("turn", False)
    code, out, _ = cli(*base, "--preset", "strong", "--c", "2", "--no-solver")
    config = json.loads(out)["config"]
    assert (config["c"], config["solver"]) == (2.0, False)
    code, out, _ = cli(*base, "--preset", "strong")
    assert json.loads(out)["config"]["solver"] is True
    code, out, _ = cli(*base)  # no preset: the documented defaults
    config = json.loads(out)["config"]
    assert (config["c"], config["tree_policy"], config["solver"]) == (1.4, "uct", False)
    code, _, err = cli(*base, "--preset", "nonsense")
    assert code == 2 and "invalid choice" in err


def test_preset_on_tree_and_arena(cli: CliRunner) -> None:
    code, out, _ = cli(
        "tree", "--game", "connect_four", "--iterations", "30", "--preset", "strong",
        "--format", "json",
    )  # fmt: skip
    assert code == 0 and json.loads(out)
    arena_args = ("arena", "--game", "gridiron", "--games", "1", "--iterations", "10", "--json")
    code, out, _ = cli(*arena_args, "--preset", "tutorial")
    data = json.loads(out)
    assert code == 0 and data["preset"] == "tutorial" and data["rollout"] == "preset"
    assert data["config"]["rollout_horizon"] == "turn" and data["config"]["tree_policy"] == "ucb1"
    code, out, _ = cli(*arena_args, "--preset", "tutorial", "--rollout", "none")
    data = json.loads(out)
    assert data["config"]["rollout_depth"] == 0 and data["config"]["rollout_horizon"] == "game"
    code, out, _ = cli(*arena_args)  # no preset: rollout none, as documented
    assert json.loads(out)["config"]["rollout_depth"] == 0


def test_the_text_names_the_player_to_move(cli: CliRunner) -> None:
    code, out, _ = cli("search", "--game", "tic_tac_toe", "--iterations", "20")
    assert code == 0 and "to move: X (player 0);" in out
    code, out, _ = cli(
        "search", "--game", "tic_tac_toe", "--position", "X........", "--iterations", "20"
    )
    assert "to move: O (player 1);" in out


def test_gridiron_starts_after_the_kick_off(cli: CliRunner) -> None:
    """The kick-off is the start's one legal move: the CLI, like the app, searches after it."""
    from games.registry import make_game

    game = make_game("gridiron")
    assert len(game.legal_actions(game.initial_state())) == 1
    code, out, _ = cli("search", "--game", "gridiron", "--iterations", "50", "--json")
    data = json.loads(out)
    assert code == 0 and data["position"] != game.format_state(game.initial_state())
    assert len(data["children"]) > 1  # real choices, not the kick-off alone
    assert "to move" not in out
