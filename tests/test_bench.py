"""The benchmark command with tiny numbers: it runs and reports; timings are never asserted."""

from __future__ import annotations

import json

import pytest

from mcts_lab import bench
from mcts_lab.cli import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


TINY = ("--iterations", "30", "--repeat", "2", "--memory-iterations", "200")


def test_bench_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "bench", "--game", "tic_tac_toe", *TINY, "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert data["game"] == "tic_tac_toe" and data["iterations"] == 30 and data["repeat"] == 2
    assert [r["name"] for r in data["rates"]] == [
        "MCTS Lab, random rollouts, no traces",
        "MCTS Lab, random rollouts, with traces",
    ]
    for rate in data["rates"]:
        assert rate["median"] > 0 and len(rate["runs"]) == 2
    assert data["bytes_per_simulation"] > 0 and data["memory_iterations"] == 200
    assert data["openspiel"] is None and data["ratio"] is None
    assert data["targets"]["openspiel_ratio_min"] == 5.0
    assert data["targets"]["openspiel_ratio_met"] is None
    assert data["targets"]["bytes_per_simulation_max"] == 350.0
    assert isinstance(data["targets"]["bytes_per_simulation_met"], bool)


def test_bench_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "bench", "--game", "connect_four", *TINY)
    assert status == 0
    assert "no traces" in out and "with traces" in out and "bytes per simulation" in out
    assert "targets:" in out and "not measured" in out


def test_bench_against_openspiel(capsys: pytest.CaptureFixture[str]) -> None:
    if not bench.openspiel_available():
        pytest.skip("open_spiel is not installed")
    status, out, _ = run(
        capsys, "bench", "--game", "tic_tac_toe", *TINY, "--compare", "openspiel", "--json"
    )
    data = json.loads(out)
    assert status == 0 and data["openspiel"]["median"] > 0
    assert data["ratio"] == pytest.approx(
        data["rates"][0]["median"] / data["openspiel"]["median"], rel=0.01
    )
    assert isinstance(data["targets"]["openspiel_ratio_met"], bool)


def test_bench_without_openspiel_says_how_to_install(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench, "openspiel_available", lambda: False)
    status, out, err = run(capsys, "bench", "--game", "connect_four", "--compare", "openspiel")
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("mcts-lab: error:") and "pip install open_spiel" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["bench", "--game", "gridiron", "--compare", "openspiel"], "OpenSpiel has no"),
        (["bench", "--repeat", "0"], "not in"),
        (["bench", "--iterations", str(10**12)], "not in"),
        (["bench", "--compare", "pachi"], "invalid choice"),
    ],
)
def test_bench_bad_arguments(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err


def test_gridiron_bench_reports_both_evaluations(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("games.gridiron")
    status, out, err = run(capsys, "bench", "--game", "gridiron", "--size", "1", *TINY, "--json")
    assert status == 0, err
    data = json.loads(out)
    names = [r["name"] for r in data["rates"]]
    assert len(names) == 4 and "heuristic leaf" in names[0] and "end of turn" in names[2]
    assert data["targets"] == {} and data["size"] == 1
