"""Timing and measuring runs for the benchmark (``mcts_lab.bench.benchmark``): a runner per searcher
(ours, the textbook UCT, OpenSpiel's Python MCTS), the alternation of runners in rounds after
untimed warm-ups (:func:`alternate`), simulations per second (:class:`Measurement`) and the bytes a
simulation keeps (:func:`bytes_per_simulation`). The module docstring of
``mcts_lab.bench.benchmark`` says what is measured and how."""

from __future__ import annotations

import gc
import random
import statistics
import time
import tracemalloc
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mcts_core import Search, SearchConfig
from mcts_lab.common import AnyGame
from mcts_lab.textbook import TEXTBOOK_GAMES, uct_search

__all__ = [
    "Measurement",
    "OPENSPIEL_INSTALL_HINT",
    "OPENSPIEL_NAME",
    "OPENSPIEL_NAMES",
    "Runner",
    "TEXTBOOK_GAMES",
    "TEXTBOOK_NAME",
    "WARMUP_RUNS",
    "alternate",
    "bytes_per_simulation",
    "measurement",
    "openspiel_available",
    "openspiel_rate",
    "openspiel_runner",
    "our_runner",
    "simulations_per_second",
    "textbook_runner",
]

#: Our game name -> ``pyspiel.load_game`` name.
OPENSPIEL_NAMES = {"connect_four": "connect_four", "tic_tac_toe": "tic_tac_toe"}
#: Untimed runs of each side before a measurement's timed runs.
WARMUP_RUNS = 1
OPENSPIEL_INSTALL_HINT = "pip install open_spiel (or pip install -e '.[openspiel]')"
OPENSPIEL_NAME = "OpenSpiel MCTSBot (Python)"
TEXTBOOK_NAME = "textbook UCT (plain Python)"

#: A runner builds one search from a seed (not timed) and returns the call that runs it (timed).
Runner = Callable[[int], Callable[[], object]]


@dataclass(frozen=True)
class Measurement:
    """A named speed: the median and every repeat, in simulations per second."""

    name: str
    median: float
    runs: tuple[float, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "median": round(self.median, 1),
            "runs": [round(r, 1) for r in self.runs],
        }


def alternate(
    runners: Sequence[Runner],
    *,
    repeat: int,
    seed: int,
    warmup: int = WARMUP_RUNS,
    clock: Callable[[], float] = time.perf_counter,
    collect: Callable[[], object] = gc.collect,
) -> list[list[float]]:
    """Seconds of every timed run of every runner, taking turns: first ``warmup`` untimed
    rounds (seeds ``seed + repeat``, ``seed + repeat + 1`` ...), then ``repeat`` timed rounds,
    round ``r`` running each runner in the order given with seed ``seed + r``. Returns one list
    per runner, in round order. ``clock`` is read only right before and after a timed run;
    ``collect`` runs before each run, outside the timing."""
    for w in range(warmup):
        for runner in runners:
            run = runner(seed + repeat + w)
            run()
            del run
    seconds: list[list[float]] = [[] for _ in runners]
    for r in range(repeat):
        for times, runner in zip(seconds, runners, strict=True):
            run = runner(seed + r)
            collect()  # the previous run's tree (cyclic garbage) is freed outside the timing
            start = clock()
            run()
            times.append(clock() - start)
            del run
    return seconds


def our_runner(game: AnyGame, config: SearchConfig, *, iterations: int, record: bool) -> Runner:
    """A fresh ``Search`` per seed; ``record=False`` runs ``Search.run(iterations=...)``,
    ``record=True`` a loop of ``Search.step()`` (a trace per iteration)."""

    def prepare(seed: int) -> Callable[[], object]:
        search = Search(game, None, config, seed=seed)
        if record:
            step = search.step

            def run() -> None:
                for _ in range(iterations):
                    step()

            return run

        def run_fast() -> None:
            done = search.run(iterations=iterations).iterations
            if done != iterations:  # a solved root (a preset with the solver); never by default
                raise ValueError(
                    f"the search stopped after {done:,} of {iterations:,} iterations "
                    f"({search.root.proven and 'the solver proved the root' or 'node cap'}); "
                    "time fewer --iterations or a preset without the solver"
                )

        return run_fast

    return prepare


def openspiel_runner(game_name: str, *, iterations: int) -> Runner:
    """OpenSpiel's Python MCTS (``uct_c=1.4``, one random rollout per leaf, ``solve=False``): a
    fresh ``MCTSBot`` per seed (its evaluator and its own generator seeded with it), running
    ``bot.mcts_search(initial state)``."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(OPENSPIEL_NAMES[game_name])

    def prepare(seed: int) -> Callable[[], object]:
        bot = mcts.MCTSBot(
            game,
            uct_c=1.4,
            max_simulations=iterations,
            evaluator=mcts.RandomRolloutEvaluator(
                n_rollouts=1, random_state=np.random.RandomState(seed)
            ),
            random_state=np.random.RandomState(seed),
            solve=False,
        )
        state = game.new_initial_state()

        def run() -> None:
            root = bot.mcts_search(state)
            if root.explore_count != iterations:  # it ran exactly the simulations asked for
                raise RuntimeError(
                    f"OpenSpiel ran {root.explore_count} of {iterations} simulations"
                )

        return run

    return prepare


def textbook_runner(game_name: str, *, iterations: int) -> Runner:
    """The textbook UCT of :mod:`mcts_lab.textbook` (C = 1.4, random rollouts to the end): a
    fresh ``random.Random(seed)`` per seed, running ``uct_search(initial state)``."""
    make_state = TEXTBOOK_GAMES[game_name]

    def prepare(seed: int) -> Callable[[], object]:
        rng = random.Random(seed)
        state = make_state()

        def run() -> None:
            root = uct_search(state, iterations, 1.4, rng)
            if root.visits != iterations:
                raise RuntimeError(f"the textbook UCT ran {root.visits} of {iterations}")

        return run

    return prepare


def measurement(name: str, iterations: int, seconds: list[float]) -> Measurement:
    runs = tuple(iterations / s for s in seconds)
    return Measurement(name, statistics.median(runs), runs)


def simulations_per_second(
    game: AnyGame,
    config: SearchConfig,
    *,
    iterations: int,
    repeat: int,
    seed: int,
    record: bool,
    name: str,
    warmup: int = WARMUP_RUNS,
) -> Measurement:
    """Median simulations/second over ``repeat`` fresh searches of ``iterations`` each, after
    ``warmup`` untimed ones. ``record=False`` times ``Search.run(iterations=...)``;
    ``record=True`` a loop of ``Search.step()``, which builds a trace per iteration. Repeat
    ``r`` uses seed ``seed + r``."""
    runner = our_runner(game, config, iterations=iterations, record=record)
    (seconds,) = alternate([runner], repeat=repeat, seed=seed, warmup=warmup)
    return measurement(name, iterations, seconds)


def openspiel_rate(
    game_name: str, *, iterations: int, repeat: int, seed: int, warmup: int = WARMUP_RUNS
) -> Measurement:
    """OpenSpiel alone (see :func:`openspiel_runner`): median simulations/second over
    ``repeat`` fresh bots after ``warmup`` untimed ones. ``run_bench`` times it in pairs with
    ours instead."""
    runner = openspiel_runner(game_name, iterations=iterations)
    (seconds,) = alternate([runner], repeat=repeat, seed=seed, warmup=warmup)
    return measurement(OPENSPIEL_NAME, iterations, seconds)


def bytes_per_simulation(
    game: AnyGame, config: SearchConfig, *, iterations: int, seed: int
) -> float:
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
