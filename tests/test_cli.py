"""The mcts-lab command line: JSON schema, determinism, batch mode, errors, exports, arena."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from mcts_lab.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_search_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "search", "--game", "connect_four", "--position", "4453",
        "--iterations", "300", "--seed", "1", "--json",
    )  # fmt: skip
    assert status == 0
    data = json.loads(out)
    for key, kind in {
        "game": str, "position": str, "iterations": int, "seconds": float,
        "iterations_per_second": float, "nodes": int, "best_action": str,
        "best_action_index": int, "children": list,
    }.items():  # fmt: skip
        assert isinstance(data[key], kind), key
    assert data["game"] == "connect_four" and data["position"] == "4453"
    assert data["iterations"] == 300
    assert data["best_action"] == f"col {data['best_action_index'] + 1}"
    assert sum(c["visits"] for c in data["children"]) == 300
    for child in data["children"]:
        assert set(child) == {"action", "action_index", "visits", "value", "proven"}
        assert -1.0 <= child["value"] <= 1.0


def test_search_is_deterministic(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("search", "--game", "tic_tac_toe", "--iterations", "400", "--seed", "7", "--json")
    first = json.loads(run(capsys, *argv)[1])
    second = json.loads(run(capsys, *argv)[1])
    assert first["children"] == second["children"]
    assert first["best_action"] == second["best_action"]


def test_unit_value_range_keeps_the_json_value_in_minus_one_to_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ("search", "--game", "tic_tac_toe", "--position", "XX.OO....", "--iterations", "300")
    symmetric = json.loads(run(capsys, *argv, "--json")[1])
    unit = json.loads(run(capsys, *argv, "--json", "--value-range", "unit")[1])
    best = next(c for c in unit["children"] if c["action_index"] == 2)
    assert best["value"] == pytest.approx(1.0)
    assert symmetric["best_action_index"] == unit["best_action_index"] == 2


def test_solver_reports_proven_children(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(
        capsys, "search", "--game", "tic_tac_toe", "--position", "XX.OO....",
        "--iterations", "2000", "--solver", "--json",
    )  # fmt: skip
    data = json.loads(out)
    win = next(c for c in data["children"] if c["action_index"] == 2)
    assert win["proven"] == "win"


def test_positions_file_gives_json_lines(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    batch = tmp_path / "positions.txt"
    batch.write_text("# three positions\nX.O.X....\n\nOOO......\nXX.OO....\n")
    status, out, _ = run(
        capsys, "search", "--game", "tic_tac_toe", "--positions-file", str(batch),
        "--iterations", "100",
    )  # fmt: skip
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["position"] for line in lines] == ["X.O.X....", "OOO......", "XX.OO...."]
    assert "error" in lines[1] and "O has more stones" in lines[1]["error"]
    assert lines[0]["best_action"] and lines[2]["best_action"]
    assert status == 1  # one line failed


def test_terminal_position_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "search", "--game", "tic_tac_toe", "--position", "XXXOO....",
                         "--json")  # fmt: skip
    data = json.loads(out)
    assert status == 0 and data["best_action"] is None and "over" in data["note"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["search", "--game", "chess"], "invalid choice"),
        (["search", "--game", "connect_four", "--position", "448"], "column 8 out of range"),
        (["search", "--game", "tic_tac_toe", "--iterations", "-5"], "not in"),
        (["search", "--game", "tic_tac_toe", "--iterations", str(10**12)], "not in"),
        (["search", "--game", "tic_tac_toe", "--c", "nan"], "not a finite number"),
        (["search", "--game", "tic_tac_toe", "--loss", "5"], "loss_value"),
        (["search", "--game", "tic_tac_toe", "--positions-file", "/nonexistent"], "cannot read"),
        (["arena", "--game", "tic_tac_toe", "--games", "0"], "not in"),
        (["bench", "--game", "gridiron", "--compare", "openspiel"], "OpenSpiel has no"),
        ([], "required"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2
    assert err.startswith("mcts-lab: error:") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_tree_formats(capsys: pytest.CaptureFixture[str]) -> None:
    base = ("tree", "--game", "tic_tac_toe", "--iterations", "200", "--max-depth", "2")
    root = ET.fromstring(run(capsys, *base)[1])
    assert root.tag == "ActionNode" and root.get("visits") == "200"
    data = json.loads(run(capsys, *base, "--format", "json")[1])
    assert data["visits"] == 200
    assert run(capsys, *base, "--format", "dot")[1].startswith("digraph")


def test_console_script_runs_without_traceback() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mcts_lab.cli", "search", "--game", "connect_four",
         "--position", "4x"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "mcts-lab: error: bad character 'x' at index 1: use column digits 1-7"
    )


def test_bench_prints_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "bench", "--game", "tic_tac_toe", "--iterations", "50", "--repeat", "2",
        "--memory-iterations", "200", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert status == 0
    assert len(data["rates"]) == 2 and all(r["median"] > 0 for r in data["rates"])
    assert data["bytes_per_simulation"] > 0


def test_arena_json_and_determinism(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ("arena", "--game", "tic_tac_toe", "--games", "2", "--iterations", "100",
            "--rollout", "game", "--seed", "3", "--json")  # fmt: skip
    first = json.loads(run(capsys, *argv)[1])
    second = json.loads(run(capsys, *argv)[1])
    for key in ("games_per_side", "home_wins", "home_tds", "away_wins", "away_tds", "draws",
                "iterations_per_decision"):  # fmt: skip
        assert key in first
    first.pop("seconds")
    second.pop("seconds")
    assert first == second
    assert first["games_per_side"] == 2
    assert first["home_wins"] + first["home_draws"] + first["home_losses"] == 2
    assert first["home_losses"] == 0  # 100 iterations never lose tic-tac-toe to random as X


def test_arena_mcts_against_mcts_with_other_c(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "arena", "--game", "tic_tac_toe", "--games", "1", "--iterations", "100",
        "--rollout", "game", "--opponent", "mcts", "--opponent-c", "0.2",
    )  # fmt: skip
    assert status == 0 and "Home Wins" in out
