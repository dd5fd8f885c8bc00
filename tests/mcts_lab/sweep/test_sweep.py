"""Sweeps (mcts_lab/sweep/sweeps.py, ``mcts-lab sweep``): Wilson intervals, parameters and values,
task seeds, identical results on every backend (serial, process pool, Ray), the SVG chart and
the command line's errors."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from mcts_core import SearchConfig
from mcts_lab.cli import main
from mcts_lab.sweep.sweeps import (
    PARAMS,
    SweepResult,
    format_sweep,
    parse_values,
    resolve_param,
    run_sweep,
    sweep_svg,
    task_seed,
    wilson_interval,
)
from tests.conftest import CliRunner

#: A small sweep: 2 values x 3 games per side of tic-tac-toe at 30 iterations (12 games).
SMALL: dict[str, Any] = {
    "param": "c",
    "values": (0.5, 2.0),
    "games": 3,
    "iterations": 30,
    "seed": 7,
}


def games_of(result: SweepResult) -> list[Any]:
    """Every game of a sweep, and its totals, without timings or where it ran."""
    return [(r.value, r.records, r.to_dict()) for r in result.results]


# ------------------------------------------------------------------ statistics


def test_wilson_interval_known_values() -> None:
    # published values of the 95% Wilson score interval
    assert wilson_interval(5, 10) == pytest.approx((0.2366, 0.7634), abs=1e-4)
    assert wilson_interval(0, 10) == pytest.approx((0.0, 0.2775), abs=1e-4)
    assert wilson_interval(10, 10) == pytest.approx((0.7225, 1.0), abs=1e-4)
    assert wilson_interval(81, 263) == pytest.approx((0.2553, 0.3662), abs=1e-4)
    low, high = wilson_interval(1, 1000)
    assert 0.0 < low < 0.001 < high < 0.01


# ------------------------------------------------------------------ parameters and values


def test_params_and_values() -> None:
    assert resolve_param("c").field == "c"
    assert resolve_param("min-visits") is resolve_param("min_visits") is PARAMS["min-visits"]
    assert resolve_param("rollout_depth") is PARAMS["depth"]
    assert resolve_param("--iterations").field == "iterations"
    assert parse_values(PARAMS["c"], "0.25, 0.5,1,1.4,2") == (0.25, 0.5, 1.0, 1.4, 2.0)
    assert parse_values(PARAMS["depth"], "0,2,none") == (0, 2, None)
    assert parse_values(PARAMS["expansion"], "listed,heuristic") == ("listed", "heuristic")
    assert parse_values(PARAMS["solver"], "off,on") == (False, True)
    assert parse_values(PARAMS["iterations"], "10,100") == (10, 100)
    with pytest.raises(ValueError, match="unknown --param 'cc'; choose one of c, iterations"):
        resolve_param("cc")
    for param, text, message in [
        ("c", "1,x", "'x' is not a number"),
        ("c", "1,-1", "c must be a finite number in"),
        ("c", "1,1.0", "c 1 is given twice"),
        ("c", "1,,2", "empty item"),
        ("depth", "1.5", "not a whole number or none"),
        ("expansion", "listed,best", "expansion_order must be one of listed, random, heuristic"),
        ("solver", "maybe", "not on or off"),
        ("iterations", "0", "iterations 0 is not in [1,"),
    ]:
        with pytest.raises(ValueError, match=message.replace("[", r"\[")):
            parse_values(PARAMS[param], text)


def test_task_seeds_depend_on_the_value_and_game_only() -> None:
    assert task_seed(1, "c", 0.5, 0) == task_seed(1, "c", 0.5, 0)
    seeds = {task_seed(s, "c", v, i) for s in (0, 1) for v in (0.5, 2.0) for i in range(50)}
    assert len(seeds) == 200 and all(0 <= s < 2**62 for s in seeds)
    # a value's games are the same whatever else is swept and in whatever order
    alone = run_sweep("tic_tac_toe", **{**SMALL, "values": (2.0,)}, backend="serial")
    both = run_sweep("tic_tac_toe", **{**SMALL, "values": (2.0, 0.5)}, backend="serial")
    assert alone.results[0].records == both.results[0].records


def test_a_parameter_without_effect_is_refused() -> None:
    with pytest.raises(ValueError, match="no effect: the settings value the leaf"):
        run_sweep(
            "tic_tac_toe", **{**SMALL, "param": "rollout", "values": ("random", "heuristic")},
            config=SearchConfig(rollout_depth=0), backend="serial",
        )  # fmt: skip
    with pytest.raises(ValueError, match="prior has no effect unless the policy is puct"):
        run_sweep("tic_tac_toe", **{**SMALL, "param": "prior", "values": ("uniform",)})


# ------------------------------------------------------------------ backends


@pytest.mark.slow
def test_serial_and_process_pool_give_identical_results() -> None:
    calls: list[tuple[int, int]] = []
    serial = run_sweep(
        "tic_tac_toe", **SMALL, backend="serial", progress=lambda d, t: calls.append((d, t))
    )
    pool = run_sweep("tic_tac_toe", **SMALL, backend="process", workers=2)
    assert pool.backend == "process" and pool.workers == 2 and serial.backend == "serial"
    assert games_of(serial) == games_of(pool)
    assert calls[-1] == (12, 12) and len(calls) == 6  # one call per task of 2 games
    result = serial.results[0]
    assert result.home.games == result.away.games == 3 and result.total.games == 6
    assert result.total.wins == result.home.wins + result.away.wins
    assert {r.mcts_side for r in result.records} == {0, 1}
    # one worker means no pool
    assert run_sweep("tic_tac_toe", **SMALL, backend="process", workers=1).backend == "serial"


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("127.0.0.1:1", "no Ray cluster answers at 127.0.0.1:1: Connection refused"),
        ("127.0.0.1:x", "--address '127.0.0.1:x': give HOST:PORT"),
    ],
)
def test_a_ray_address_without_a_cluster_fails_fast(
    cli: CliRunner, address: str, message: str
) -> None:
    pytest.importorskip("ray", reason="ray is not installed (pip install -e '.[ray]')")
    status, out, err = cli(
        "sweep", "--game", "tic_tac_toe", "--param", "c", "--values", "1",
        "--games", "1", "--iterations", "5", "--backend", "ray", "--address", address,
    )  # fmt: skip
    assert status == 2 and out == "" and err == f"mcts-lab: error: {message}\n"


def test_a_serial_sweep_stops_early_game_by_game() -> None:
    polls = iter([False, False, True])
    result = run_sweep("tic_tac_toe", **SMALL, backend="serial", should_stop=lambda: next(polls))
    # tasks run game by game across the values: game 0 of 0.5 and of 2, game 1 of 0.5, stop
    assert result.stopped == "stopped" and (result.backend, result.workers) == ("serial", 1)
    assert [r.total.games for r in result.results] == [4, 2]
    full = run_sweep("tic_tac_toe", **SMALL, backend="serial")
    assert full.stopped == "" and result.results[1].records == full.results[1].records[:2]
    assert "stopped early (stopped) after 3 of 6 tasks" in format_sweep(result)
    with pytest.raises(ValueError, match="serial backend only"):
        run_sweep("tic_tac_toe", **SMALL, backend="process", workers=2, seconds=1.0)


@pytest.fixture
def local_ray() -> Any:
    """A local Ray instance for one test (shut down after it, so no other test sees it)."""
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install -e '.[ray]')")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.mark.slow
def test_ray_gives_the_same_results(local_ray: Any) -> None:
    serial = run_sweep("tic_tac_toe", **SMALL, backend="serial")
    on_ray = run_sweep("tic_tac_toe", **SMALL, backend="ray", workers=2)
    assert on_ray.backend == "ray" and local_ray.is_initialized()  # it used the running Ray
    assert games_of(serial) == games_of(on_ray)


@pytest.mark.slow
def test_ray_from_the_command_line(capfd: pytest.CaptureFixture[str]) -> None:
    """The CLI starts its own local Ray instance (2 CPUs, no dashboard), gets the serial
    results, shuts Ray down, and leaves stdout one JSON line and stderr empty."""
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install -e '.[ray]')")
    argv = ["sweep", "--game", "tic_tac_toe", "--param", "c", "--values", "0.5,2", "--games",
            "3", "--iterations", "30", "--seed", "7", "--json"]  # fmt: skip
    assert main([*argv, "--workers", "1"]) == 0
    serial = json.loads(capfd.readouterr().out)
    assert main([*argv, "--backend", "ray", "--workers", "2"]) == 0
    out, err = capfd.readouterr()
    on_ray = json.loads(out)
    assert err == "" and not ray.is_initialized()
    assert (on_ray["backend"], on_ray["workers"]) == ("ray", 2)
    assert on_ray["results"] == serial["results"]


def test_missing_ray_is_a_clear_error(cli: CliRunner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now raises ImportError
    status, out, err = cli(
        "sweep", "--game", "tic_tac_toe", "--param", "c", "--values", "1",
        "--games", "1", "--iterations", "5", "--backend", "ray",
    )  # fmt: skip
    assert status == 2 and out == ""
    assert err == (
        "mcts-lab: error: ray is not installed: pip install ray (or pip install -e '.[ray]')\n"
    )


# ------------------------------------------------------------------ reports


def test_text_table_and_svg() -> None:
    result = run_sweep("tic_tac_toe", **SMALL, backend="serial")
    text = format_sweep(result)
    assert "sweep of c on tic_tac_toe: 3 games per side per value against random" in text
    assert "95% Wilson score intervals" in text
    lines = text.splitlines()
    assert lines[2].startswith("0.5 ") and lines[3].startswith("2 ")
    svg = sweep_svg(result)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert root.tag == f"{ns}svg"
    groups = root.findall(f"{ns}g")
    assert len(groups) == 2 * 3  # per value: all games, home, away
    tips = [g.find(f"{ns}title").text or "" for g in groups]  # type: ignore[union-attr]
    total = result.results[0].total
    assert f"c 0.5, all games: {total.wins}/6 wins" in tips[0]
    labels = [t.text for t in root.iter(f"{ns}text")]
    assert "0.5" in labels and "2" in labels and "c" in labels


# ------------------------------------------------------------------ the command line


def test_sweep_json_and_plot(cli: CliRunner, tmp_path: Path) -> None:
    plot = tmp_path / "c.svg"
    argv = ("sweep", "--game", "tic_tac_toe", "--param", "depth", "--values", "0,none",
            "--games", "2", "--iterations", "20", "--seed", "3", "--workers", "1",
            "--settings", "--c 1", "--json", "--plot", str(plot))  # fmt: skip
    status, out, err = cli(*argv)
    assert status == 0 and err == "" and out.count("\n") == 1
    data = json.loads(out)
    for key, kind in {
        "game": str, "param": str, "field": str, "values": list, "games_per_side": int,
        "iterations": int, "opponent": str, "seed": int, "reuse": bool, "backend": str,
        "workers": int, "tasks": int, "confidence": float, "interval": str, "has_score": bool,
        "seconds": float, "config": dict, "results": list, "plot": str,
    }.items():  # fmt: skip
        assert isinstance(data[key], kind), key
    assert data["param"] == "depth" and data["field"] == "rollout_depth"
    assert data["values"] == [0, None] and data["interval"] == "wilson"
    assert data["tasks"] == 4 and data["backend"] == "serial" and data["workers"] == 1
    assert data["config"]["c"] == 1.0 and data["opponent_config"] is None
    first = data["results"][0]
    assert first["label"] == "0" and first["config"]["rollout_depth"] == 0
    assert data["results"][1]["label"] == "none" and data["results"][1]["config"]["c"] == 1.0
    for side in ("home", "away", "total"):
        block = first[side]
        assert block["wins"] + block["draws"] + block["losses"] == block["games"]
        low, high = block["win_ci"]
        assert 0.0 <= low <= block["win_rate"] <= high <= 1.0
    assert first["total"]["games"] == 4
    ET.parse(plot)  # a well-formed SVG file
    again = json.loads(cli(*argv)[1])
    data.pop("seconds"), again.pop("seconds")
    assert data == again


def test_sweep_against_mcts_and_iterations(cli: CliRunner) -> None:
    status, out, err = cli(
        "sweep", "--game", "tic_tac_toe", "--param", "iterations", "--values", "5,40",
        "--games", "2", "--iterations", "20", "--opponent", "mcts", "--opponent-settings",
        "--c 1", "--workers", "1",
    )  # fmt: skip
    assert status == 0 and err == ""
    assert "against mcts (20 iterations, base settings)" in out
    assert "iterations  " in out.splitlines()[1]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--param", "cc", "--values", "1"), "unknown --param 'cc'"),
        (("--param", "c", "--values", "1,one"), "'one' is not a number (--param c)"),
        (("--param", "c", "--values", "1,1"), "c 1 is given twice"),
        (("--param", "c", "--values", "1", "--address", "h:1"), "--address is for --backend ray"),
        (("--param", "c", "--values", "1", "--plot", "x.png"), "--plot writes SVG"),
        (("--param", "c", "--values", "1", "--plot", "/no/such/dir/x.svg"), "cannot write in"),
        (("--param", "c", "--values", "1", "--opponent-settings", "--c 2"), "need --opponent mcts"),
        (("--param", "c", "--values", "1", "--settings", "--seed 2"), "--seed is set once"),
        (("--param", "c", "--values", "1", "--settings", "--c -1"), "--settings '--c -1'"),
        (("--param", "rollout", "--values", "random", "--settings", "--depth 0"), "no effect"),
        (("--param", "c", "--values", "1", "--workers", "0"), "0 is not in [1, 1,024]"),
        (("--param", "c", "--values", "1", "--backend", "dask"), "invalid choice: 'dask'"),
        (("--param", "c"), "the following arguments are required: --values"),
    ],
)
def test_sweep_errors(cli: CliRunner, argv: tuple[str, ...], message: str) -> None:
    status, out, err = cli("sweep", "--game", "tic_tac_toe", *argv)
    assert status == 2 and out == ""
    assert err.startswith("mcts-lab: error: ") and err.count("\n") == 1
    assert message in err


def test_a_serial_sweep_stops_on_time_or_when_asked() -> None:
    full = run_sweep("tic_tac_toe", **SMALL, backend="serial")
    assert full.stopped == ""
    # polled between tasks: after 3 of the 6 tasks, game by game across the values
    polls: list[int] = []

    def stop() -> bool:
        polls.append(1)
        return len(polls) >= 3

    part = run_sweep("tic_tac_toe", **SMALL, backend="serial", should_stop=stop)
    assert part.stopped == "stopped" and part.tasks == 6
    assert [r.total.games for r in part.results] == [4, 2]  # games 0 and 1 of 0.5, game 0 of 2
    for value, whole in zip(part.results, full.results, strict=True):
        assert value.records == whole.records[: len(value.records)]  # the same seeded games
    assert "stopped early (stopped) after 3 of 6 tasks" in format_sweep(part)
    timed = run_sweep("tic_tac_toe", **SMALL, backend="serial", seconds=1e-9)
    assert timed.stopped == "time" and sum(r.total.games for r in timed.results) == 2
    assert "no games" in format_sweep(timed)  # the value never reached
    with pytest.raises(ValueError, match="serial backend only"):
        run_sweep("tic_tac_toe", **SMALL, backend="process", workers=2, seconds=5.0)
