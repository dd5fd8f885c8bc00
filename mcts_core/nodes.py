"""Search-tree nodes: decision nodes, and chance nodes only where dice decide.

``ActionNode``: a state in which a player decides (or a terminal state). Its ``children`` are
its *moves*, one per action tried so far:

- a deterministic action (one outcome) is a plain edge: the child is the next ``ActionNode``;
- an action with two or more outcomes gets a ``ChanceNode``, whose children are the
  ``ActionNode``s of the outcomes sampled so far.

So a tic-tac-toe or Connect Four tree has no chance nodes at all, and a gridiron tree has them
exactly where a die is rolled (the botbowl tutorial's ActionNode/ChanceNode, without the empty
layer). ``Move = ActionNode | ChanceNode``: both give ``action``, ``visits``, ``value0``,
``value1``, ``mean(player)`` and ``proven``, so a decision treats its children alike.

Every ``ActionNode`` below the root remembers the edge that leads to it: ``action`` (the move
taken at the decision above) and ``outcome`` (the chance outcome, ``NO_CHANCE`` when the move is
deterministic). A state is rebuilt by replaying these from the root
(:meth:`mcts_core.search.Search.state_of`); nodes visited often enough cache their state (see
``state``), within the benchmark's bytes-per-simulation budget.

Statistics live on action nodes: ``visits`` and the per-player sums ``value0`` and ``value1`` of
the values backed up through the node (normalised, see :mod:`mcts_core.config`). Every visit of a
chance node passes on to exactly one of its outcomes, so a chance node's statistics are the sums
over its children; they are derived, never stored twice.

Ids count up in creation order across the life of a search, so graph ids stay stable while the
tree grows (mctx's convention).
"""

from __future__ import annotations

from typing import Any

__all__ = ["ActionNode", "ChanceNode", "Move", "OutcomeNode", "SolverNode", "SolverOutcomeNode"]


class ActionNode:
    """A decision point (or a terminal state).

    Attributes:
        id: creation-order id, unique within a search.
        parent: the node above: the deciding ``ActionNode`` for a deterministic move, the
            ``ChanceNode`` for a chance outcome; ``None`` for the root.
        action: the action taken above that led here (``None`` for the root).
        outcome: the chance outcome that led here (the game's ``NO_CHANCE`` for a deterministic
            action and for the root). Only an :class:`OutcomeNode` (a child of a chance node)
            stores one; on a plain ``ActionNode`` it is the class's ``NO_CHANCE``, which saves
            8 bytes on every node of a game without chance.
        player: the player deciding here, or -1 at a terminal state.
        visits: iterations that passed through this node.
        value0, value1: sums of the backed-up values of player 0 and player 1. Their means are
            each player's estimate of this state.
        children: the moves tried so far, in expansion order: an ``ActionNode`` per
            deterministic action, a ``ChanceNode`` per action with chance (a tuple, the smallest
            container; empty before the first expansion).
        actions: every legal action in expansion order (set the first time the node is
            expanded; ``None`` before; ``()`` at a terminal state).
        proven: with the solver on, the game-theoretic returns of this state under perfect play,
            e.g. ``(1.0, -1.0)`` if player 0 wins by force; ``None`` while unproven. Only a
            search with the solver sets it: its nodes are :class:`SolverNode` (or
            :class:`SolverOutcomeNode`), which store it; on the others it is the class's
            ``None``, which saves 8 bytes a node.
        state: the game state here, cached by the search once the node is visited often (the
            selection then skips replaying the moves above); ``None`` when not cached.
    """

    __slots__ = (
        "id",
        "parent",
        "action",
        "player",
        "visits",
        "value0",
        "value1",
        "children",
        "actions",
        "state",
    )

    #: The outcome of a deterministic move (``NO_CHANCE``); :class:`OutcomeNode` stores its own.
    outcome: Any = None
    #: Unproven: only the nodes of a search with the solver (:class:`SolverNode`) store a proof.
    proven: tuple[float, ...] | None = None

    def __init__(
        self,
        node_id: int,
        parent: ActionNode | ChanceNode | None,
        action: Any,
        player: int,
    ) -> None:
        self.id = node_id
        self.parent = parent
        self.action = action
        self.player = player
        self.visits = 0
        self.value0 = 0.0
        self.value1 = 0.0
        self.children: tuple[Move, ...] = ()
        self.actions: tuple[Any, ...] | None = () if player < 0 else None
        self.state: Any = None

    @property
    def is_terminal(self) -> bool:
        """True at a terminal state (no player decides)."""
        return self.player < 0

    @property
    def is_fully_expanded(self) -> bool:
        """True when every legal action has a child (always true at a terminal state)."""
        if self.actions is None:
            return False
        return len(self.children) == len(self.actions)

    @property
    def decider(self) -> ActionNode | None:
        """The decision node whose move leads here (above a chance node if there is one)."""
        parent = self.parent
        if isinstance(parent, ChanceNode):
            return parent.parent
        return parent

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


class OutcomeNode(ActionNode):
    """The decision node of one sampled outcome of a chance node: an :class:`ActionNode` that
    stores the ``outcome`` that led here (``parent`` is the :class:`ChanceNode`; or the
    deciding node, for a game whose one outcome of a move is not ``NO_CHANCE``)."""

    __slots__ = ("outcome",)

    def __init__(
        self,
        node_id: int,
        parent: ActionNode | ChanceNode | None,
        action: Any,
        outcome: Any,
        player: int,
    ) -> None:
        super().__init__(node_id, parent, action, player)
        self.outcome = outcome


class SolverNode(ActionNode):
    """An :class:`ActionNode` of a search with the solver on: it stores ``proven``."""

    __slots__ = ("proven",)

    def __init__(
        self,
        node_id: int,
        parent: ActionNode | ChanceNode | None,
        action: Any,
        player: int,
    ) -> None:
        super().__init__(node_id, parent, action, player)
        self.proven = None


class SolverOutcomeNode(OutcomeNode):
    """An :class:`OutcomeNode` of a search with the solver on: it stores ``proven``."""

    __slots__ = ("proven",)

    def __init__(
        self,
        node_id: int,
        parent: ActionNode | ChanceNode | None,
        action: Any,
        outcome: Any,
        player: int,
    ) -> None:
        super().__init__(node_id, parent, action, outcome, player)
        self.proven = None


class ChanceNode:
    """An action with two or more chance outcomes; its children are the sampled outcomes.

    Attributes:
        id: creation-order id.
        parent: the ``ActionNode`` where the action was chosen.
        action: the action (as the game defines it).
        num_outcomes: how many outcomes the action has in the game (at least 2).
        children: the :class:`OutcomeNode` of each outcome sampled so far, in the order first
            sampled.
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
    def decider(self) -> ActionNode:
        """The decision node where this action was chosen."""
        return self.parent

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


Move = ActionNode | ChanceNode
"""A child of a decision node: the next decision (deterministic action) or a chance node."""

#: Kept for code written against the first version, where it named any node.
Node = Move
