"""``mcts-lab inspect FILE --until CONDITION`` (issue 41): the first iteration record after
which a breakpoint condition holds in a file, with the condition's words; exit 0 held, 1 not,
2 a condition the file cannot answer."""

from __future__ import annotations

import json
from pathlib import Path

from mcts_lab.cli import main
from tests.mcts_lab.inspect.planted_uct import planted_uct


def _file(tmp_path: Path, bug: str = "none", position: str | None = None) -> str:
    doc = planted_uct(
        "tic_tac_toe", seed=0, iterations=300, bug=bug, recorder=False, position=position
    )
    path = tmp_path / f"{bug}.json"
    path.write_text(json.dumps(doc))
    return str(path)


def test_anomaly_stops_at_the_iteration_that_added_a_move_below_a_finished_game(
    tmp_path: Path, capsys
) -> None:
    path = _file(tmp_path, "below_finished", "XX.OO....")
    assert main(["inspect", path, "--until", "anomaly", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(["inspect", path, "--json"]) == 1
    cause = json.loads(capsys.readouterr().out)["anomalies"][0]
    assert cause["kind"] == "illegal_move"
    assert data["stopped_at"] == int(cause["detail"].split()[1].rstrip(":"))
    assert data["stop_reason"].startswith("anomaly: inspect's illegal_move check fired")
    assert main(["inspect", path, "--until", "anomaly"]) == 0
    assert capsys.readouterr().out.startswith(f"iteration {data['stopped_at']}: anomaly: ")


def test_a_move_condition_stops_where_the_records_reach_it(tmp_path: Path, capsys) -> None:
    path = _file(tmp_path)
    doc = json.loads(Path(path).read_text())
    root_moves = {n["id"]: n["move"] for n in doc["nodes"] if n["parent"] == 0}
    move, child = next((m, i) for i, m in root_moves.items())
    expected = [r["iteration"] for r in doc["trace"] if child in r["path"]][4]
    assert main(["inspect", path, "--until", f"visits:{move}>=5", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["stopped_at"] == expected
    assert data["stop_reason"] == f"visits:{move}>=5: {move} reached 5 visits (>= 5)"


def test_a_condition_that_never_holds_exits_1_and_a_bad_one_2(tmp_path: Path, capsys) -> None:
    path = _file(tmp_path)
    assert main(["inspect", path, "--until", "anomaly", "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["stopped_at"] is None
    assert data["stop_reason"] == "anomaly held after none of the file's 300 iteration records"
    assert main(["inspect", path, "--until", "bogus"]) == 2
    assert "unknown condition 'bogus'" in capsys.readouterr().err
