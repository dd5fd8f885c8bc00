"""Speed and memory benchmarks: numbers printed, never asserted.

- simulations/second of ``Search.run`` (no traces) and of a ``Search.step`` loop (traces),
  median over repeats, a fresh search per repeat, C = 1.4, random rollouts to the end, from the
  initial position (gridiron: heuristic leaf evaluation, and random rollouts to the end of the
  turn);
- bytes per simulation: memory still allocated (tracemalloc) after building a tree, divided by
  the simulations;
- optionally OpenSpiel's Python ``MCTSBot`` with ``RandomRolloutEvaluator`` on the same game,
  same simulations and repeats, side by side.
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc
from dataclasses import dataclass
from typing import Any

from mcts_core import Search, SearchConfig

__all__ = ["Measurement", "simulations_per_second", "bytes_per_simulation", "openspiel_rate"]

OPENSPIEL_NAMES = {"connect_four": "connect_four", "tic_tac_toe": "tic_tac_toe"}


@dataclass(frozen=True)
class Measurement:
    """A named speed: the median and every repeat, in simulations per second."""

    name: str
    median: float
    runs: tuple[float, ...]


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
    """Median simulations/second over ``repeat`` fresh searches of ``iterations`` each."""
    runs = []
    for r in range(repeat):
        search = Search(game, None, config, seed=seed + r)
        start = time.perf_counter()
        if record:
            for _ in range(iterations):
                search.step()
        else:
            search.run(iterations=iterations)
        runs.append(iterations / (time.perf_counter() - start))
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
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python.algorithms import mcts  # noqa: F401
    except ImportError:
        return False
    return True


def openspiel_rate(game_name: str, *, iterations: int, repeat: int, seed: int) -> Measurement:
    """OpenSpiel's Python MCTS (uct_c=1.4, one random rollout per leaf) from the initial state."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(OPENSPIEL_NAMES[game_name])
    runs = []
    for r in range(repeat):
        random_state = np.random.RandomState(seed + r)
        bot = mcts.MCTSBot(
            game,
            uct_c=1.4,
            max_simulations=iterations,
            evaluator=mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state),
            random_state=random_state,
            solve=False,
        )
        state = game.new_initial_state()
        start = time.perf_counter()
        bot.mcts_search(state)
        runs.append(iterations / (time.perf_counter() - start))
    return Measurement("OpenSpiel MCTSBot", statistics.median(runs), tuple(runs))
