"""Search-tree nodes: decision nodes and chance nodes alternate, as in the botbowl tutorial.

``ActionNode``: a state in which a player decides. Its children are ``ChanceNode``s, one per
action tried so far. ``ChanceNode``: an action taken; its children are ``ActionNode``s, one per
chance outcome sampled so far. A deterministic action has a chance node with a single outcome.

Nodes do not store game states: a state is rebuilt by replaying actions and outcomes from the
root (:meth:`mcts_core.search.Search.state_of`). That keeps a node small (the benchmark's budget is
350 bytes per simulation, two nodes) and mirrors the tutorial, which steps a forward model too.

Statistics live on action nodes: ``visits`` and the per-player sums ``value0`` and ``value1`` of
the values backed up through the node (normalised, see :mod:`mcts_core.config`). Every visit of a
chance node passes on to exactly one of its outcomes, so a chance node's statistics are the sums
over its children; they are derived, never stored twice.

Ids count up in creation order across the life of a search, so graph ids stay stable while the
tree grows (mctx's convention).
"""

from __future__ import annotations

from typing import Any

__all__ = ["ActionNode", "ChanceNode", "Node"]


class ActionNode:
    """A decision point (or a terminal state).

    Attributes:
        id: creation-order id, unique within a search.
        parent: the ``ChanceNode`` this node is an outcome of; ``None`` for the root.
        outcome: the chance outcome that led here from ``parent`` (the game's ``NO_CHANCE`` for a
            deterministic action).
        player: the player deciding here, or -1 at a terminal state.
        visits: iterations that passed through this node.
        value0, value1: sums of the backed-up values of player 0 and player 1. Their means are
            each player's estimate of this state.
        children: the ``ChanceNode``s of the actions tried so far, in expansion order (a tuple,
            the smallest container; empty before the first expansion).
        actions: every legal action in expansion order (set the first time the node is
            expanded; ``None`` before; ``()`` at a terminal state).
        proven: with the solver on, the game-theoretic returns of this state under perfect play,
            e.g. ``(1.0, -1.0)`` if player 0 wins by force; ``None`` while unproven.
    """

    __slots__ = (
        "id",
        "parent",
        "outcome",
        "player",
        "visits",
        "value0",
        "value1",
        "children",
        "actions",
        "proven",
    )

    def __init__(self, node_id: int, parent: ChanceNode | None, outcome: Any, player: int) -> None:
        self.id = node_id
        self.parent = parent
        self.outcome = outcome
        self.player = player
        self.visits = 0
        self.value0 = 0.0
        self.value1 = 0.0
        self.children: tuple[ChanceNode, ...] = ()
        self.actions: tuple[Any, ...] | None = () if player < 0 else None
        self.proven: tuple[float, ...] | None = None

    @property
    def is_terminal(self) -> bool:
        """True at a terminal state (no player decides)."""
        return self.player < 0

    @property
    def is_fully_expanded(self) -> bool:
        """True when every legal action has a chance node (always true at a terminal state)."""
        if self.actions is None:
            return False
        return len(self.children) == len(self.actions)

    @property
    def value_sums(self) -> tuple[float, float]:
        """Per-player sums of backed-up values (player 0, player 1)."""
        return (self.value0, self.value1)

    def mean(self, player: int) -> float:
        """Mean backed-up value from ``player``'s view (0.0 before the first visit)."""
        if not self.visits:
            return 0.0
        return (self.value1 if player else self.value0) / self.visits

    def __repr__(self) -> str:
        return f"ActionNode(id={self.id}, player={self.player}, visits={self.visits})"


class ChanceNode:
    """An action taken at its parent ``ActionNode``; its children are the sampled outcomes.

    Attributes:
        id: creation-order id.
        parent: the ``ActionNode`` where the action was chosen.
        action: the action (as the game defines it).
        num_outcomes: how many outcomes the action has in the game (1 when deterministic).
        children: the ``ActionNode`` of each outcome sampled so far, in the order first sampled
            (a tuple: almost always of one node, and a one-tuple is the smallest container).
    """

    __slots__ = ("id", "parent", "action", "num_outcomes", "children")

    def __init__(self, node_id: int, parent: ActionNode, action: Any, num_outcomes: int) -> None:
        self.id = node_id
        self.parent = parent
        self.action = action
        self.num_outcomes = num_outcomes
        self.children: tuple[ActionNode, ...] = ()

    @property
    def player(self) -> int:
        """The player who chose this action."""
        return self.parent.player

    @property
    def visits(self) -> int:
        """Visits: the sum over the outcomes (each visit passes to exactly one outcome)."""
        return sum(child.visits for child in self.children)

    @property
    def value0(self) -> float:
        return sum(child.value0 for child in self.children)

    @property
    def value1(self) -> float:
        return sum(child.value1 for child in self.children)

    @property
    def value_sums(self) -> tuple[float, float]:
        """Per-player sums of backed-up values (player 0, player 1)."""
        return (self.value0, self.value1)

    def mean(self, player: int) -> float:
        """Mean backed-up value from ``player``'s view (0.0 before the first visit)."""
        visits = self.visits
        if not visits:
            return 0.0
        return (self.value1 if player else self.value0) / visits

    @property
    def proven(self) -> tuple[float, ...] | None:
        """Proven returns when every outcome has been seen and all are proven equal."""
        if len(self.children) != self.num_outcomes:
            return None
        first = self.children[0].proven
        if first is None:
            return None
        for child in self.children[1:]:
            if child.proven != first:
                return None
        return first

    def child_for(self, outcome: Any) -> ActionNode | None:
        """The outcome node for ``outcome``, or ``None`` if that outcome was never sampled."""
        for child in self.children:
            if child.outcome == outcome:
                return child
        return None

    def __repr__(self) -> str:
        return f"ChanceNode(id={self.id}, action={self.action!r}, visits={self.visits})"


Node = ActionNode | ChanceNode
