"""Where a sweep's tasks run: in this process, a local process pool, or Ray (see
:mod:`mcts_lab.sweep.sweeps`'s Backends). A task is one game each side for one value."""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from mcts_core import SearchConfig
from mcts_lab.arena import GameRecord, play_arena
from mcts_lab.common import AnyGame, build_game

Backend = Literal["serial", "process", "ray"]


BACKENDS: tuple[Backend, ...] = ("serial", "process", "ray")


RAY_INSTALL_HINT = "pip install ray (or pip install -e '.[ray]')"


class BackendUnavailable(RuntimeError):
    """The backend asked for cannot run here (Ray not installed, no cluster at the address)."""


@dataclass(frozen=True)
class SweepTask:
    """One unit of work: game ``index`` with MCTS at home and game ``index`` with MCTS away,
    for one value. Plain data, so it pickles to any worker."""

    game: str
    size: int | None
    value_index: int
    index: int
    seed: int
    iterations: int
    config: SearchConfig
    opponent: str
    opponent_config: SearchConfig | None
    opponent_iterations: int
    reuse: bool


@lru_cache(maxsize=8)
def task_game(name: str, size: int | None) -> AnyGame:
    return build_game(name, size)


def run_task(task: SweepTask) -> tuple[GameRecord, ...]:
    """Play a task's two games (home first): the function every backend runs."""
    result = play_arena(
        task_game(task.game, task.size),
        games=1,
        iterations=task.iterations,
        config=task.config,
        opponent=task.opponent,
        opponent_config=task.opponent_config,
        opponent_iterations=task.opponent_iterations,
        seed=task.seed,
        reuse=task.reuse,
    )
    return result.records


def default_workers() -> int:
    """The cores this process may use (all of them unless an affinity mask says otherwise)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on every platform
        return max(1, os.cpu_count() or 1)


Progress = Callable[[int, int], None]


def run_serial(
    tasks: Sequence[SweepTask],
    progress: Progress | None,
    seconds: float | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> tuple[list[Any], str]:
    """Every task in order; before each task after the first, stop when ``seconds`` have passed
    ("time") or ``should_stop()`` says so ("stopped"). Returns the outputs and the reason
    ("" when every task ran)."""
    results: list[Any] = []
    start = time.perf_counter()
    for done, task in enumerate(tasks, start=1):
        if results and seconds is not None and time.perf_counter() - start >= seconds:
            return results, "time"
        if results and should_stop is not None and should_stop():
            return results, "stopped"
        results.append(run_task(task))
        if progress is not None:
            progress(2 * done, 2 * len(tasks))
    return results, ""


def _ignore_interrupt() -> None:
    """Workers leave Ctrl-C to the main process, which cancels what is left."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_pool(tasks: Sequence[SweepTask], workers: int, progress: Progress | None) -> list[Any]:
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    if context.get_start_method() == "forkserver":
        context.set_forkserver_preload(["mcts_lab.sweep.sweeps"])
    results: list[Any] = [None] * len(tasks)
    executor = ProcessPoolExecutor(workers, mp_context=context, initializer=_ignore_interrupt)
    finished = False
    try:
        futures: dict[Future[Any], int] = {
            executor.submit(run_task, task): i for i, task in enumerate(tasks)
        }
        pending = set(futures)
        done = 0
        while pending:
            ready, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in ready:
                results[futures[future]] = future.result()
                done += 1
            if progress is not None:
                progress(2 * done, 2 * len(tasks))
        finished = True
    finally:
        executor.shutdown(wait=finished, cancel_futures=not finished)
    return results


def run_ray(
    tasks: Sequence[SweepTask], workers: int, address: str | None, progress: Progress | None
) -> list[Any]:
    try:
        import ray
    except ImportError:
        raise BackendUnavailable(f"ray is not installed: {RAY_INSTALL_HINT}") from None
    started = False
    if not ray.is_initialized():
        if address:
            _check_reachable(address)
        try:
            if address:
                import games
                import mcts_core
                import mcts_lab

                # ship this checkout's code, so the cluster plays exactly these rules
                ray.init(
                    address=address,
                    runtime_env={"py_modules": [mcts_core, games, mcts_lab]},
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                )
            else:
                ray.init(
                    address="local",  # a new instance, even if a Ray cluster runs here
                    num_cpus=workers,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.ERROR,
                )
        except Exception as error:  # Ray raises several kinds (ConnectionError, RuntimeError)
            where = f"at {address}" if address else "locally"
            text = " ".join(str(error).split())[:200]
            raise BackendUnavailable(f"cannot start Ray {where}: {text}") from None
        started = True
    try:
        remote = ray.remote(num_cpus=1)(run_task)
        refs = [remote.remote(task) for task in tasks]
        pending = list(refs)
        while pending:
            ready, pending = ray.wait(pending, num_returns=len(pending), timeout=0.25)
            if progress is not None:
                progress(2 * (len(refs) - len(pending)), 2 * len(tasks))
        return list(ray.get(refs))
    finally:
        if started:
            ray.shutdown()


def _check_reachable(address: str) -> None:
    """Fail in seconds, not minutes, when nothing listens at a ``HOST:PORT`` address (Ray
    itself retries for minutes). ``auto`` and addresses without a port are left to Ray."""
    text = address.strip().removeprefix("ray://")
    host, colon, port = text.rpartition(":")
    if not colon or text == "auto":
        return
    if not port.isdigit() or not host:
        raise BackendUnavailable(f"--address {address[:80]!r}: give HOST:PORT")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise BackendUnavailable(f"no Ray cluster answers at {address[:80]}: {reason}") from None
