"""Speed and memory benchmarks: numbers to print, never asserted in tests.

What is measured (docs/cli.md, ``mcts-lab bench``):

- simulations/second of ``Search.run(iterations=N)`` (no traces recorded) and of a loop of
  ``Search.step()`` (a full :class:`~mcts_core.IterationTrace` per iteration), the median over
  ``repeat`` fresh searches, C = 1.4, from the initial position. Tic-tac-toe and Connect Four:
  uniformly random rollouts to the end of the game. Gridiron: heuristic leaf evaluation
  (``rollout_depth=0``) and random rollouts to the end of the turn (``rollout_horizon="turn"``).
- bytes per simulation: the memory still allocated (``tracemalloc``) after building a tree of
  ``memory_iterations`` simulations, divided by that number (the search object, its tree and
  caches; the game's constants were allocated before).
- optionally OpenSpiel's Python ``mcts.MCTSBot`` with ``RandomRolloutEvaluator(n_rollouts=1)``
  and ``uct_c=1.4`` on the same game, timing ``bot.mcts_search(state)`` from the initial state
  with the same N and repeats.

Before every timed run the garbage of the previous one is collected (``gc.collect()``, not
timed); the garbage collector stays on during the timing, as in normal use.
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mcts_core import Search, SearchConfig

__all__ = [
    "BenchReport",
    "Measurement",
    "OPENSPIEL_NAMES",
    "TARGET_BYTES_PER_SIMULATION",
    "TARGET_OPENSPIEL_RATIO",
    "bench_configs",
    "bytes_per_simulation",
    "format_report",
    "openspiel_available",
    "openspiel_rate",
    "run_bench",
    "simulations_per_second",
]

#: Our game name -> ``pyspiel.load_game`` name.
OPENSPIEL_NAMES = {"connect_four": "connect_four", "tic_tac_toe": "tic_tac_toe"}
#: The issue's targets for tic-tac-toe and Connect Four (reported, not enforced).
TARGET_OPENSPIEL_RATIO = 5.0
TARGET_BYTES_PER_SIMULATION = 350.0
OPENSPIEL_INSTALL_HINT = "pip install open_spiel (or pip install -e '.[openspiel]')"


@dataclass(frozen=True)
class Measurement:
    """A named speed: the median and every repeat, in simulations per second."""

    name: str
    median: float
    runs: tuple[float, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "median": round(self.median, 1),
            "runs": [round(r, 1) for r in self.runs],
        }


@dataclass(frozen=True)
class BenchReport:
    """Everything ``mcts-lab bench`` reports.

    ``rates`` come in pairs per config: without traces, then with traces. ``openspiel`` and
    ``ratio`` (our first rate / OpenSpiel's) are ``None`` without ``--compare openspiel``.
    ``targets`` holds the issue's targets with whether they are met (``None``: not measured);
    empty for games the targets do not cover.
    """

    game: str
    size: int | None
    iterations: int
    repeat: int
    seed: int
    rates: tuple[Measurement, ...]
    bytes_per_simulation: float
    memory_iterations: int
    memory_config: str
    openspiel: Measurement | None
    openspiel_version: str | None
    ratio: float | None
    targets: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "size": self.size,
            "iterations": self.iterations,
            "repeat": self.repeat,
            "seed": self.seed,
            "c": 1.4,
            "rates": [m.to_dict() for m in self.rates],
            "bytes_per_simulation": round(self.bytes_per_simulation, 1),
            "memory_iterations": self.memory_iterations,
            "memory_config": self.memory_config,
            "openspiel": None if self.openspiel is None else self.openspiel.to_dict(),
            "openspiel_version": self.openspiel_version,
            "ratio": None if self.ratio is None else round(self.ratio, 2),
            "targets": self.targets,
        }


def bench_configs(game_name: str) -> list[tuple[str, SearchConfig]]:
    """The configs the benchmark times for a game, with a short label each."""
    if game_name == "gridiron":
        return [
            ("heuristic leaf", SearchConfig(c=1.4, rollout_depth=0)),
            ("rollout to end of turn", SearchConfig(c=1.4, rollout_horizon="turn")),
        ]
    return [("random rollouts", SearchConfig(c=1.4))]


def simulations_per_second(
    game: Any,
    config: SearchConfig,
    *,
    iterations: int,
    repeat: int,
    seed: int,
    record: bool,
    name: str,
) -> Measurement:
    """Median simulations/second over ``repeat`` fresh searches of ``iterations`` each.

    ``record=False`` times ``Search.run(iterations=...)``; ``record=True`` a loop of
    ``Search.step()``, which builds a trace per iteration. Repeat ``r`` uses seed ``seed + r``.
    """
    runs = []
    for r in range(repeat):
        gc.collect()  # free the previous repeat's tree (cyclic garbage) outside the timing
        search = Search(game, None, config, seed=seed + r)
        if record:
            step = search.step
            start = time.perf_counter()
            for _ in range(iterations):
                step()
            elapsed = time.perf_counter() - start
        else:
            start = time.perf_counter()
            done = search.run(iterations=iterations).iterations
            elapsed = time.perf_counter() - start
            if done != iterations:  # e.g. a solved root; never with the bench's configs
                raise RuntimeError(f"the search stopped after {done} of {iterations} iterations")
        runs.append(iterations / elapsed)
        del search
    return Measurement(name, statistics.median(runs), tuple(runs))


def bytes_per_simulation(game: Any, config: SearchConfig, *, iterations: int, seed: int) -> float:
    """Bytes still allocated after building an ``iterations``-simulation tree, per simulation."""
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        search = Search(game, None, config, seed=seed)
        search.run(iterations=iterations)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del search
    return (after - before) / iterations


def openspiel_available() -> bool:
    """True when ``pyspiel`` and OpenSpiel's Python MCTS can be imported."""
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python.algorithms import mcts  # noqa: F401
    except ImportError:
        return False
    return True


def openspiel_version() -> str | None:
    try:
        from importlib.metadata import version

        return version("open_spiel")
    except Exception:  # noqa: BLE001 - metadata is a nicety
        return None


def openspiel_rate(game_name: str, *, iterations: int, repeat: int, seed: int) -> Measurement:
    """OpenSpiel's Python MCTS (``uct_c=1.4``, one random rollout per leaf, ``solve=False``):
    median simulations/second of ``bot.mcts_search(initial state)`` over ``repeat`` fresh bots.
    """
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(OPENSPIEL_NAMES[game_name])
    runs = []
    for r in range(repeat):
        bot = mcts.MCTSBot(
            game,
            uct_c=1.4,
            max_simulations=iterations,
            evaluator=mcts.RandomRolloutEvaluator(
                n_rollouts=1, random_state=np.random.RandomState(seed + r)
            ),
            random_state=np.random.RandomState(seed + r),
            solve=False,
        )
        state = game.new_initial_state()
        gc.collect()  # as for our search: leftovers of the previous repeat are not timed
        start = time.perf_counter()
        bot.mcts_search(state)
        runs.append(iterations / (time.perf_counter() - start))
    return Measurement("OpenSpiel MCTSBot (Python)", statistics.median(runs), tuple(runs))


def run_bench(
    game: Any,
    *,
    iterations: int,
    repeat: int,
    seed: int = 0,
    memory_iterations: int = 50_000,
    compare: str | None = None,
    size: int | None = None,
    log: Callable[[str], None] | None = None,
) -> BenchReport:
    """Run every measurement for ``game`` (see the module docstring); ``log`` hears progress."""
    say = log or (lambda _text: None)
    if compare not in (None, "openspiel"):
        raise ValueError(f"compare must be 'openspiel' or None, got {compare!r}")
    if compare and game.name not in OPENSPIEL_NAMES:
        raise ValueError(f"OpenSpiel has no {game.name}; compare on tic_tac_toe or connect_four")
    configs = bench_configs(game.name)
    rates = []
    for label, config in configs:
        for record in (False, True):
            name = f"MCTS Lab, {label}, {'with' if record else 'no'} traces"
            say(f"timing {name} ...")
            rates.append(
                simulations_per_second(
                    game,
                    config,
                    iterations=iterations,
                    repeat=repeat,
                    seed=seed,
                    record=record,
                    name=name,
                )
            )
    theirs = None
    if compare == "openspiel":
        say("timing OpenSpiel ...")
        theirs = openspiel_rate(game.name, iterations=iterations, repeat=repeat, seed=seed)
    say(f"measuring memory of a {memory_iterations:,}-simulation tree ...")
    memory = bytes_per_simulation(game, configs[0][1], iterations=memory_iterations, seed=seed)
    ratio = None if theirs is None else rates[0].median / theirs.median
    targets: dict[str, Any] = {}
    if game.name in OPENSPIEL_NAMES:
        targets = {
            "openspiel_ratio_min": TARGET_OPENSPIEL_RATIO,
            "openspiel_ratio_met": None if ratio is None else ratio >= TARGET_OPENSPIEL_RATIO,
            "bytes_per_simulation_max": TARGET_BYTES_PER_SIMULATION,
            "bytes_per_simulation_met": memory <= TARGET_BYTES_PER_SIMULATION,
        }
    return BenchReport(
        game=game.name,
        size=size if game.name == "gridiron" else None,
        iterations=iterations,
        repeat=repeat,
        seed=seed,
        rates=tuple(rates),
        bytes_per_simulation=memory,
        memory_iterations=memory_iterations,
        memory_config=configs[0][0],
        openspiel=theirs,
        openspiel_version=openspiel_version() if theirs is not None else None,
        ratio=ratio,
        targets=targets,
    )


def format_report(report: BenchReport) -> str:
    """The report as aligned text lines."""
    game = report.game + (f" (size {report.size})" if report.size else "")
    lines = [
        f"{game}: {report.iterations:,} simulations x {report.repeat} repeats, C = 1.4, from the "
        "initial position; median simulations/second",
    ]
    width = max(len(m.name) for m in report.rates) + 2
    if report.openspiel is not None:
        width = max(width, len(report.openspiel.name) + 2)
    for m in report.rates:
        lines.append(f"  {m.name:<{width}} {m.median:>12,.0f}")
    if report.openspiel is not None and report.ratio is not None:
        lines.append(f"  {report.openspiel.name:<{width}} {report.openspiel.median:>12,.0f}")
        lines.append(f"  {'ratio (first row / OpenSpiel)':<{width}} {report.ratio:>11.2f}x")
    lines.append(
        f"  bytes per simulation ({report.memory_iterations:,}-simulation tree, "
        f"{report.memory_config}): {report.bytes_per_simulation:,.0f}"
    )
    targets = report.targets
    if targets:
        ratio_text = (
            "not measured (add --compare openspiel)"
            if targets["openspiel_ratio_met"] is None
            else f"{report.ratio:.2f}x, {'met' if targets['openspiel_ratio_met'] else 'NOT met'}"
        )
        bytes_met = "met" if targets["bytes_per_simulation_met"] else "NOT met"
        lines.append(
            f"  targets: >= {targets['openspiel_ratio_min']:g}x OpenSpiel: {ratio_text}; "
            f"<= {targets['bytes_per_simulation_max']:g} bytes/simulation: "
            f"{report.bytes_per_simulation:,.0f}, {bytes_met}"
        )
    return "\n".join(lines)
