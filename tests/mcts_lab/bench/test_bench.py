"""The benchmark command with tiny numbers: it runs and reports; timings are never asserted."""

from __future__ import annotations

import json
import platform
import re
import statistics
from collections.abc import Callable
from typing import Any

import pytest

from mcts_lab.bench import benchmark as bench
from mcts_lab.bench import machine as bench_machine
from mcts_lab.bench import runs as bench_runs
from tests.conftest import CliRunner

TINY = ("--iterations", "30", "--repeat", "2", "--memory-iterations", "200")
#: The JSON rounds a ratio to 3 decimals: a small ratio (a loaded machine's tiny run: 0.013 for
#: 0.01322) is then off by more than 1% of itself, never by more than half the last place.
ROUNDED = 0.0005


@pytest.mark.slow
def test_bench_json(cli: CliRunner) -> None:
    status, out, err = cli("bench", "--game", "tic_tac_toe", *TINY, "--json")
    # the one long step is announced even to a script; nothing else goes to stderr
    assert status == 0 and err.count("\n") == 1
    assert err.startswith("mcts-lab bench: measuring memory of a 200-simulation tree")
    assert "--no-memory skips it" in err
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
    assert data["targets"]["openspiel_ratio_min"] == 4.0  # tic-tac-toe's target
    assert data["targets"]["textbook_ratio_min"] == 1.3
    assert data["targets"]["textbook_ratio_met"] is None and data["comparisons"] == {}
    assert data["targets"]["openspiel_ratio_met"] is None
    # the issue sets the memory target on a Connect Four tree only
    assert data["targets"]["bytes_per_simulation_max"] is None
    assert data["targets"]["bytes_per_simulation_met"] is None
    assert data["pairs"] is None and data["pair_ratio_median"] is None


@pytest.mark.slow
def test_bench_text(cli: CliRunner) -> None:
    status, out, _ = cli("bench", "--game", "connect_four", *TINY)
    assert status == 0
    assert "no traces" in out and "with traces" in out and "bytes per simulation" in out
    assert "targets:" in out and "not measured" in out


def test_bench_no_memory(cli: CliRunner) -> None:
    status, out, err = cli("bench", "--game", "connect_four", *TINY, "--no-memory", "--json")
    data = json.loads(out)
    assert status == 0 and err == ""  # no memory pass, nothing to announce
    assert data["bytes_per_simulation"] is None
    assert data["targets"]["bytes_per_simulation_met"] is None
    assert data["targets"]["bytes_per_simulation_max"] == 200.0
    status, out, _ = cli("bench", "--game", "connect_four", *TINY, "--no-memory")
    assert "bytes per simulation: not measured (--no-memory)" in out


@pytest.mark.parametrize("game", sorted(bench.TARGET_TEXTBOOK_RATIOS))  # the games with targets
def test_bench_against_the_textbook(cli: CliRunner, game: str) -> None:
    status, out, _ = cli(
        "bench", "--game", game, *TINY, "--no-memory", "--compare", "textbook", "--json"
    )
    data = json.loads(out)
    assert status == 0
    textbook = data["comparisons"]["textbook"]
    assert textbook["theirs"]["name"] == "textbook UCT (plain Python)"
    # one pair per repeat, the very runs the medians are taken over
    assert [p["ours"] for p in textbook["pairs"]] == data["rates"][0]["runs"]
    assert [p["textbook"] for p in textbook["pairs"]] == textbook["theirs"]["runs"]
    ratios = [p["ours"] / p["textbook"] for p in textbook["pairs"]]
    assert textbook["pair_ratio_median"] == pytest.approx(sum(ratios) / 2, rel=0.01, abs=ROUNDED)
    assert textbook["pair_ratio_low"] == pytest.approx(min(ratios), rel=0.01, abs=ROUNDED)
    assert textbook["pair_ratio_high"] == pytest.approx(max(ratios), rel=0.01, abs=ROUNDED)
    assert data["targets"]["textbook_ratio_measured"] == pytest.approx(
        textbook["pair_ratio_median"], rel=0.01, abs=ROUNDED
    )
    assert data["openspiel"] is None and data["pairs"] is None  # OpenSpiel was not compared
    status, out, _ = cli("bench", "--game", game, *TINY, "--no-memory", "--compare",
                         "textbook")  # fmt: skip
    assert "textbook UCT (plain Python)" in out and "median of per-pair ratios (range)" in out


def test_the_textbook_uct_plays_both_games() -> None:
    """The baseline is a real UCT: it runs the simulations asked for and, on tic-tac-toe's
    corner opening, finds O's only drawing reply (the centre)."""
    import random

    from mcts_lab.textbook import TextbookTicTacToe, uct_search

    state = TextbookTicTacToe()
    state.play(0)
    root = uct_search(state, 3000, 1.4, random.Random(0))
    assert root.visits == 3000
    assert max(root.children, key=lambda child: child.visits).move == 4


def test_bench_textbook_rejects_other_games(cli: CliRunner) -> None:
    status, _, err = cli("bench", "--game", "nim", *TINY, "--compare", "textbook")
    assert status == 2 and "textbook UCT plays tic_tac_toe and connect_four" in err


@pytest.mark.slow
def test_bench_against_openspiel(cli: CliRunner) -> None:
    if not bench_runs.openspiel_available():
        pytest.skip("open_spiel is not installed")
    status, out, _ = cli(
        "bench", "--game", "tic_tac_toe", *TINY, "--compare", "openspiel", "--json"
    )
    data = json.loads(out)
    assert status == 0 and data["openspiel"]["median"] > 0
    assert data["ratio"] == pytest.approx(
        data["rates"][0]["median"] / data["openspiel"]["median"], rel=0.01, abs=ROUNDED
    )
    assert isinstance(data["targets"]["openspiel_ratio_met"], bool)
    # one pair per repeat: our run and OpenSpiel's, the very runs the medians are taken over
    assert len(data["pairs"]) == 2
    assert [p["ours"] for p in data["pairs"]] == data["rates"][0]["runs"]
    assert [p["openspiel"] for p in data["pairs"]] == data["openspiel"]["runs"]
    ratios = [p["ours"] / p["openspiel"] for p in data["pairs"]]
    assert data["pair_ratio_median"] == pytest.approx(sum(ratios) / 2, rel=0.01, abs=ROUNDED)
    assert data["targets"]["openspiel_ratio_measured"] == pytest.approx(
        data["pair_ratio_median"], rel=0.01, abs=ROUNDED
    )
    assert data["targets"]["openspiel_ratio_as_specified"] is False  # 30, not 5,000 simulations
    assert data["machine"]["open_spiel"] == bench_machine.openspiel_version()
    assert data["openspiel_version"] == data["machine"]["open_spiel"]


def test_bench_without_openspiel_says_how_to_install(
    cli: CliRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bench_runs, "openspiel_available", lambda: False)
    status, out, err = cli("bench", "--game", "connect_four", "--compare", "openspiel")
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
def test_bench_bad_arguments(cli: CliRunner, argv: list[str], message: str) -> None:
    status, out, err = cli(*argv)
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err


def test_gridiron_bench_reports_both_evaluations(cli: CliRunner) -> None:
    pytest.importorskip("games.gridiron")
    status, out, err = cli("bench", "--game", "gridiron", "--size", "1", *TINY, "--json")
    assert status == 0, err
    data = json.loads(out)
    names = [r["name"] for r in data["rates"]]
    assert len(names) == 4 and "heuristic leaf" in names[0] and "end of turn" in names[2]
    assert data["targets"] == {} and data["size"] == 1


# ---------------------------------------------------------------- alternation (no real timing)


class FakeClock:
    """A clock that advances by the seconds each fake run declares, and logs every read."""

    def __init__(self, events: list[tuple[Any, ...]]) -> None:
        self.now = 0.0
        self.events = events

    def __call__(self) -> float:
        self.events.append(("clock",))
        return self.now


def fake_runner(
    name: str, events: list[tuple[Any, ...]], clock: FakeClock, seconds: Callable[[int], float]
) -> bench_runs.Runner:
    """A runner that logs when it is built and run; a run "takes" ``seconds(seed)``."""

    def prepare(seed: int) -> Callable[[], object]:
        events.append(("prepare", name, seed))

        def run() -> None:
            events.append(("run", name, seed))
            clock.now += seconds(seed)

        return run

    return prepare


def test_alternate_warms_up_each_side_untimed_then_alternates_pair_by_pair() -> None:
    events: list[tuple[Any, ...]] = []
    clock = FakeClock(events)
    ours = fake_runner("A", events, clock, lambda seed: 1.0 + seed)
    theirs = fake_runner("B", events, clock, lambda seed: 10.0 * (1 + seed))
    seconds = bench_runs.alternate(
        [ours, theirs], repeat=3, seed=5, warmup=1, clock=clock, collect=lambda: None
    )
    warm_up = [("prepare", "A", 8), ("run", "A", 8), ("prepare", "B", 8), ("run", "B", 8)]
    timed = []
    for seed in (5, 6, 7):
        for name in ("A", "B"):  # A B A B A B
            timed += [("prepare", name, seed), ("clock",), ("run", name, seed), ("clock",)]
    assert events == warm_up + timed  # no clock read during the warm-up
    assert seconds == [[6.0, 7.0, 8.0], [60.0, 70.0, 80.0]]


def test_alternate_without_warmup_and_with_one_side() -> None:
    events: list[tuple[Any, ...]] = []
    clock = FakeClock(events)
    only = fake_runner("A", events, clock, lambda seed: 2.0)
    seconds = bench_runs.alternate([only], repeat=2, seed=0, warmup=0, clock=clock, collect=list)
    assert [e for e in events if e[0] == "run"] == [("run", "A", 0), ("run", "A", 1)]
    assert seconds == [[2.0, 2.0]]


@pytest.mark.slow
def test_run_bench_alternates_ours_with_openspiel_after_a_warm_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The whole run, OpenSpiel replaced by a stand-in: the order of runs, and the pairs,
    medians and ratios come from the very same runs (nothing is timed twice)."""
    from mcts_lab.common import build_game

    events: list[tuple[Any, ...]] = []
    real_our_runner = bench_runs.our_runner

    def logged_our_runner(game: Any, config: Any, *, iterations: int, record: bool) -> Any:
        real = real_our_runner(game, config, iterations=iterations, record=record)
        name = "traces" if record else "ours"

        def prepare(seed: int) -> Callable[[], object]:
            run = real(seed)

            def logged() -> object:
                events.append((name, seed))
                return run()

            return logged

        return prepare

    def fake_openspiel_runner(game_name: str, *, iterations: int) -> bench_runs.Runner:
        def prepare(seed: int) -> Callable[[], object]:
            return lambda: events.append(("openspiel", seed))

        return prepare

    monkeypatch.setattr(bench_runs, "our_runner", logged_our_runner)
    monkeypatch.setattr(bench_runs, "openspiel_runner", fake_openspiel_runner)
    monkeypatch.setattr(bench_machine, "openspiel_version", lambda: "9.9.9")
    report = bench.run_bench(
        build_game("connect_four"),
        iterations=20,
        repeat=3,
        seed=0,
        memory_iterations=100,
        compare="openspiel",
    )
    assert events == [
        ("ours", 3), ("openspiel", 3),  # warm-up, untimed
        ("ours", 0), ("openspiel", 0), ("ours", 1), ("openspiel", 1), ("ours", 2), ("openspiel", 2),
        ("traces", 3), ("traces", 0), ("traces", 1), ("traces", 2),
    ]  # fmt: skip
    assert report.pairs is not None and report.openspiel is not None
    assert [p.ours for p in report.pairs] == list(report.rates[0].runs)
    assert [p.openspiel for p in report.pairs] == list(report.openspiel.runs)
    assert report.pair_ratio_median == statistics.median(p.ratio for p in report.pairs)
    assert report.ratio == report.rates[0].median / report.openspiel.median
    assert report.openspiel_version == "9.9.9" and report.machine["open_spiel"] == "9.9.9"
    text = bench.format_report(report)
    assert "median of per-pair ratios" in text and "ratio of the medians" in text
    pair_lines = [line for line in text.splitlines() if re.fullmatch(r" +[123]: .* = .*x", line)]
    assert len(pair_lines) == 3  # one line per pair, in the order run


# ---------------------------------------------------------------- the header


def test_cpu_model_from_cpuinfo() -> None:
    x86 = "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC 7B13\nmodel\t: 1\n"
    assert bench_machine.cpu_model(x86) == "AMD EPYC 7B13"
    pi = "processor : 0\nBogoMIPS : 50\nHardware : BCM2835\n"
    assert bench_machine.cpu_model(pi) == "BCM2835"
    pi4 = "Model\t\t: Raspberry Pi 4 Model B Rev 1.4\n"
    assert bench_machine.cpu_model(pi4).startswith("Raspberry")


MACHINE_FIELDS = {
    "cpu": (str, type(None)),
    "cores": (int, type(None)),
    "cores_usable": (int, type(None)),
    "os": str,
    "python": str,
    "python_implementation": str,
    "mcts_lab": (str, type(None)),
    "mcts_lab_revision": (str, type(None)),
    "open_spiel": (str, type(None)),
    "numpy": (str, type(None)),
}


def test_machine_info_fields() -> None:
    info = bench_machine.machine_info()
    assert set(info) == set(MACHINE_FIELDS)
    for key, kind in MACHINE_FIELDS.items():
        assert isinstance(info[key], kind), key
    assert info["python"] == platform.python_version()
    assert info["python_implementation"] == platform.python_implementation()
    assert info["open_spiel"] is None  # only when compared
    assert info["mcts_lab"] is not None and info["numpy"] is not None  # both installed
    if bench_runs.openspiel_available():
        version = bench_machine.openspiel_version()
        assert bench_machine.machine_info(openspiel=True)["open_spiel"] == version


def test_header_names_machine_python_and_versions() -> None:
    machine = {
        "cpu": "Test CPU 3000",
        "cores": 8,
        "cores_usable": 4,
        "os": "Testix 1.0, Linux 6.1 x86_64",
        "python": "3.11.7",
        "python_implementation": "CPython",
        "mcts_lab": "0.1.0",
        "mcts_lab_revision": "abc1234-dirty",
        "open_spiel": "2.0.2",
        "numpy": "2.4.6",
    }
    first, second = bench_machine.format_header(machine)
    assert first == "machine: Test CPU 3000, 8 (4 usable) cores, Testix 1.0, Linux 6.1 x86_64"
    assert second == (
        "versions: Python 3.11.7 (CPython), mcts-lab 0.1.0 (git abc1234-dirty), "
        "open_spiel 2.0.2, numpy 2.4.6"
    )
    bare = dict(machine, cpu=None, cores_usable=8, open_spiel=None, mcts_lab_revision=None)
    first, second = bench_machine.format_header(bare)
    assert first.startswith("machine: unknown, 8 cores,") and "open_spiel" not in second


def test_text_report_starts_with_the_header(cli: CliRunner) -> None:
    status, out, _ = cli("bench", "--game", "tic_tac_toe", *TINY)
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("machine: ") and lines[1].startswith("versions: Python ")
    assert platform.python_version() in lines[1] and "mcts-lab" in lines[1]
    assert "numpy" in lines[1] and "open_spiel" not in lines[1]
    assert "warm-up" in lines[2]


# ---------------------------------------------------------------- JSON shape


REPORT_FIELDS = {
    "game": str,
    "size": (int, type(None)),
    "iterations": int,
    "repeat": int,
    "seed": int,
    "c": float,
    "rates": list,
    "bytes_per_simulation": (float, type(None)),  # None with --no-memory
    "memory_iterations": int,
    "memory_config": str,
    "openspiel": (dict, type(None)),
    "openspiel_version": (str, type(None)),
    "ratio": (float, type(None)),
    "targets": dict,
    "machine": dict,
    "warmup": int,
    "pairs": (list, type(None)),
    "pair_ratio_median": (float, type(None)),
    "comparisons": dict,
}

TARGET_FIELDS = {
    "textbook_ratio_min",
    "textbook_ratio_met",
    "textbook_ratio_measured",
    "openspiel_ratio_min",
    "openspiel_ratio_met",
    "openspiel_ratio_measured",
    "openspiel_ratio_statistic",
    "openspiel_ratio_simulations",
    "openspiel_ratio_as_specified",
    "bytes_per_simulation_max",
    "bytes_per_simulation_met",
    "bytes_per_simulation_game",
    "bytes_per_simulation_iterations",
    "bytes_per_simulation_as_specified",
}


@pytest.mark.slow
def test_bench_json_shape(cli: CliRunner) -> None:
    status, out, _ = cli("bench", "--game", "connect_four", *TINY, "--json")
    assert status == 0 and out.count("\n") == 1
    data = json.loads(out)
    assert set(data) == set(REPORT_FIELDS)
    for key, kind in REPORT_FIELDS.items():
        assert isinstance(data[key], kind), key
    assert set(data["machine"]) == set(MACHINE_FIELDS) and data["warmup"] == 1
    assert set(data["targets"]) == TARGET_FIELDS
    targets = data["targets"]
    assert targets["openspiel_ratio_min"] == 6.0 and targets["openspiel_ratio_met"] is None
    assert targets["bytes_per_simulation_max"] == 200.0
    assert isinstance(targets["bytes_per_simulation_met"], bool)
    assert targets["bytes_per_simulation_as_specified"] is False  # 200, not 50,000 simulations


def test_defaults_are_the_issue_measurement() -> None:
    from mcts_lab.cli import build_parser

    args = build_parser().parse_args(["bench"])
    assert args.game == "connect_four" and args.iterations == bench.TARGET_SIMULATIONS == 5000
    assert args.memory_iterations == bench.TARGET_BYTES_ITERATIONS == 50_000
    assert args.repeat == 5


# ---------------------------------------------------------------- targets


def targets(game: str, ratio: float | None, memory: float, **sizes: int) -> dict[str, Any]:
    return bench.targets_for(
        game,
        iterations=sizes.get("iterations", 5000),
        memory_iterations=sizes.get("memory_iterations", 50_000),
        bytes_per_simulation=memory,
        pair_ratio_median=ratio,
    )


@pytest.mark.parametrize(
    ("game", "ratio", "met"),
    [
        ("connect_four", 6.0, True),
        ("connect_four", 5.99, False),
        ("connect_four", 4.5, False),
        ("tic_tac_toe", 4.0, True),
        ("tic_tac_toe", 3.99, False),
        ("tic_tac_toe", 5.0, True),
        ("connect_four", None, None),
    ],
)
def test_ratio_target_per_game(game: str, ratio: float | None, met: bool | None) -> None:
    result = targets(game, ratio, 100.0)
    assert result["openspiel_ratio_met"] is met
    assert result["openspiel_ratio_min"] == bench.TARGET_OPENSPIEL_RATIOS[game]
    assert result["openspiel_ratio_as_specified"] is (None if ratio is None else True)


@pytest.mark.parametrize(("memory", "met"), [(200.0, True), (199.0, True), (200.5, False)])
def test_bytes_target_on_connect_four(memory: float, met: bool) -> None:
    result = targets("connect_four", 7.0, memory)
    assert result["bytes_per_simulation_met"] is met
    assert result["bytes_per_simulation_as_specified"] is True


def test_targets_elsewhere_and_off_specification() -> None:
    assert targets("gridiron", None, 100.0) == {}
    ttt = targets("tic_tac_toe", 5.0, 9999.0)
    assert ttt["bytes_per_simulation_max"] is None and ttt["bytes_per_simulation_met"] is None
    small = targets("connect_four", 7.0, 100.0, iterations=30, memory_iterations=200)
    assert small["openspiel_ratio_met"] is True and small["openspiel_ratio_as_specified"] is False
    assert small["bytes_per_simulation_as_specified"] is False
    assert bench.TARGET_OPENSPIEL_RATIO == 6.0 and bench.TARGET_BYTES_PER_SIMULATION == 200.0


def fake_report(game: str, ours: float, theirs: float, memory: float) -> bench.BenchReport:
    pairs = (bench.Pair(ours, theirs),)
    return bench.BenchReport(
        game=game,
        size=None,
        iterations=5000,
        repeat=1,
        seed=0,
        rates=(
            bench_runs.Measurement("MCTS Lab, random rollouts, no traces", ours, (ours,)),
            bench_runs.Measurement("MCTS Lab, random rollouts, with traces", ours / 5, (ours / 5,)),
        ),
        bytes_per_simulation=memory,
        memory_iterations=50_000,
        memory_config="random rollouts",
        openspiel=bench_runs.Measurement("OpenSpiel MCTSBot (Python)", theirs, (theirs,)),
        openspiel_version="2.0.2",
        ratio=ours / theirs,
        targets=targets(game, ours / theirs, memory),
        machine=bench_machine.machine_info(),
        pairs=pairs,
        pair_ratio_median=ours / theirs,
    )


def test_report_says_met_and_not_met() -> None:
    missed = bench.format_report(fake_report("connect_four", 45_000.0, 10_000.0, 327.0))
    assert (
        ">= 6x the OpenSpiel at 5,000 simulations: 4.50x (median of per-pair ratios), NOT met"
        in missed
    )
    assert "<= 200 bytes/simulation on a 50,000-simulation connect_four tree: 327, NOT met" in (
        missed
    )
    assert "indicative" not in missed
    reached = bench.format_report(fake_report("connect_four", 70_000.0, 10_000.0, 190.0))
    assert "7.00x (median of per-pair ratios), met" in reached and "190, met" in reached
    ttt = bench.format_report(fake_report("tic_tac_toe", 40_000.0, 10_000.0, 137.0))
    assert ">= 4x the OpenSpiel" in ttt and "4.00x (median of per-pair ratios), met" in ttt
    assert "no memory target for tic_tac_toe" in ttt


def test_a_preset_benchmarks_that_search() -> None:
    from mcts_lab.bench.benchmark import bench_configs

    ((label, config),) = bench_configs("tic_tac_toe", "tutorial")
    assert label == "preset tutorial"
    assert (config.tree_policy, config.c, config.rollout_horizon) == ("ucb1", 0.707, "turn")
    ((_, strong),) = bench_configs("connect_four", "strong")
    assert strong.solver is True
