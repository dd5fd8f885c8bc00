"""The iteration's phases, why a selection or a run stopped, and one iteration's scratch record.

The enums are ``StrEnum``s: each member equals its value as a plain string ("select"), so JSON
output, the app's session state and older callers that compare with strings keep working.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from mcts_core.nodes import ActionNode, ChanceNode
from mcts_core.trace import Evaluation, Expansion, PathStep

__all__ = ["PHASES", "Iteration", "Phase", "RunStop", "Stop"]


class Phase(StrEnum):
    """The four phases of an iteration, in order."""

    SELECT = "select"
    EXPAND = "expand"
    EVALUATE = "evaluate"
    BACKPROPAGATE = "backpropagate"

    @property
    def label(self) -> str:
        """The name a person reads. The evaluation phase is the textbook's "simulate": a
        rollout, or the heuristic where there is none."""
        return "simulate" if self is Phase.EVALUATE else self.value


PHASES: tuple[Phase, ...] = tuple(Phase)


class Stop(StrEnum):
    """Where and why the selection stopped descending."""

    TERMINAL = "terminal"  # the node ends the game
    PROVEN = "proven"  # the solver knows the node's value
    EXPAND = "expand"  # the node has an untried action
    NEW_OUTCOME = "new_outcome"  # a chance node drew an outcome not in the tree yet
    REPEAT = "repeat"  # the node's state already occurred on the path (loop guard)
    CAPPED = "capped"  # the node cap leaves no room for the node this iteration needs


class RunStop(StrEnum):
    """Why :meth:`mcts_core.search.Search.run` returned."""

    ITERATIONS = "iterations"  # the iteration budget was used up
    SECONDS = "seconds"  # the time budget was used up
    SOLVED = "solved"  # the solver proved the root: more iterations change nothing
    NODE_CAP = "node_cap"  # the tree is full and the next iteration needed a new node
    CANCELLED = "cancelled"  # the caller's ``should_stop`` said so


class Iteration:
    """Scratch state of one iteration while its phases run (not part of the public API).

    ``path`` holds the ``ActionNode``s from the root to the leaf (chance nodes sit between them
    as their parents); ``state`` is the game state at the last of them (or, for a new chance
    outcome, after it); ``steps`` collects the trace's path steps when recording.
    """

    __slots__ = (
        "path",
        "state",
        "steps",
        "seen",
        "stop",
        "chance",
        "outcome",
        "probability",
        "expansion",
        "evaluation",
        "values",
        "note",
        "phase",
        "before",
    )

    def __init__(
        self, path: list[ActionNode], state: Any, record: bool, seen: set[Any] | None
    ) -> None:
        self.path = path
        self.state = state
        self.steps: list[PathStep] | None = [] if record else None
        self.seen = seen
        self.stop = Stop.EXPAND
        self.chance: ChanceNode | None = None
        self.outcome: Any = None
        self.probability = 1.0
        self.expansion: Expansion | None = None
        self.evaluation: Evaluation | None = None
        self.values: tuple[float, float] = (0.0, 0.0)
        self.note = ""
        self.phase = Phase.EXPAND
        self.before: Any = None  # the state before a new chance outcome's action
