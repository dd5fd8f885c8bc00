"""What stops a search: the budget ``Search.run`` is given, the node cap, and what a run answers.

``run()`` takes an iteration count, a wall-clock budget or both (:func:`run_limit` checks them
and turns them into an iteration limit); the tree may not grow past ``SearchConfig.max_nodes``
(an iteration that needs a node then raises :class:`NodeCapReached`); a run answers with a
:class:`RunResult` saying why it stopped (:class:`~mcts_core.phases.RunStop`).
"""

from __future__ import annotations

from dataclasses import dataclass

from mcts_core.config import check_count
from mcts_core.phases import RunStop

__all__ = ["MAX_RUN_ITERATIONS", "NodeCapReached", "RunResult", "node_cap_message", "run_limit"]

#: The most iterations one ``run()`` call may be asked for.
MAX_RUN_ITERATIONS = 10_000_000


class NodeCapReached(RuntimeError):
    """The tree is full and this iteration needed a new node: it was not counted.

    Nothing in the tree changed. The message says what to do (raise ``max_nodes`` or play a
    move, which frees the discarded part of the tree).
    """


@dataclass(frozen=True, slots=True)
class RunResult:
    """What ``Search.run`` did: iterations run, wall seconds, and why it stopped."""

    iterations: int
    seconds: float
    stopped: RunStop
    message: str = ""


def node_cap_message(max_nodes: int) -> str:
    """What a person reads when a tree of ``max_nodes`` nodes is full."""
    return (
        f"The tree is full: it holds its cap of {max_nodes:,} nodes, and the "
        "next iteration needed a new one, so the search stopped there. Raise max_nodes or "
        "play a move to free memory."
    )


def run_limit(iterations: int | None, seconds: float | None) -> int:
    """The iteration limit of a run given ``iterations`` and/or ``seconds`` (at least one), each
    checked: at most 10,000,000 iterations, between 0 and 3600 seconds."""
    if iterations is None and seconds is None:
        raise ValueError("give iterations, seconds or both")
    if iterations is not None:
        check_count("iterations", iterations, 0, MAX_RUN_ITERATIONS)
    if seconds is not None and (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not 0 <= seconds <= 3600
    ):
        raise ValueError(f"seconds must be between 0 and 3600, got {seconds!r}")
    return MAX_RUN_ITERATIONS if iterations is None else iterations
