"""Building the trace records of :mod:`mcts_core.trace` while an iteration runs.

The search calls these only when it records (``step()`` and the phase methods); ``run()``
records nothing and never enters this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mcts_core.game import Game
from mcts_core.nodes import ActionNode, ChanceNode, Move
from mcts_core.phases import Iteration, Stop
from mcts_core.solver import proof_label
from mcts_core.trace import (
    ChanceStep,
    ChildTerms,
    Decision,
    Expansion,
    IterationTrace,
    NodeUpdate,
    RolloutStep,
)

__all__ = [
    "chance_step",
    "decision",
    "expansion",
    "iteration_trace",
    "rollout_steps",
    "stop_note",
]


def decision(
    game: Game[Any],
    node: ActionNode,
    state: Any,
    *,
    rule: str,
    visits: Sequence[int],
    values: Sequence[float],
    bonuses: Sequence[float],
    priors: Sequence[float] | None,
    proofs: Sequence[tuple[float, ...] | None] | None,
    chosen: int,
) -> Decision:
    """The record of one selection decision at ``node``: every move's terms and the choice."""
    player = node.player
    label = game.action_label
    moves: Sequence[Move] = node.children
    terms = tuple(
        ChildTerms(
            node_id=move.id,
            action=move.action,
            label=label(state, move.action),
            visits=visits[i],
            q=values[i],
            bonus=bonuses[i],
            prior=None if priors is None else priors[i],
            score=values[i] + bonuses[i],
            proven=None if proofs is None else proof_label(proofs[i], player),
        )
        for i, move in enumerate(moves)
    )
    return Decision(node.id, player, node.visits, rule, terms, chosen)


def iteration_trace(it: Iteration, iteration: int, root_player: int) -> IterationTrace:
    """The finished iteration's trace; ``it`` has been backed up.

    Every node on the path gets an update (a chance node between two decisions gets its own),
    each from the view of the player who chose the move into it: that is where the sign flips
    between players show.
    """
    updates: list[NodeUpdate] = []
    previous_player = max(root_player, 0)
    for depth, node in enumerate(it.path):
        view = previous_player
        added = it.values[view]
        parent = node.parent
        if depth and isinstance(parent, ChanceNode):
            updates.append(
                NodeUpdate(
                    parent.id,
                    "chance",
                    parent.parent.player,
                    view,
                    added,
                    parent.visits,
                    parent.mean(view),
                    proof_label(parent.proven, view),
                )
            )
        updates.append(
            NodeUpdate(
                node.id,
                "action",
                node.player,
                view,
                added,
                node.visits,
                node.mean(view),
                proof_label(node.proven, view),
            )
        )
        if node.player >= 0:
            previous_player = node.player
    assert it.evaluation is not None and it.steps is not None
    return IterationTrace(
        iteration=iteration,
        path=tuple(it.steps),
        expansion=it.expansion,
        leaf_id=it.path[-1].id,
        evaluation=it.evaluation,
        updates=tuple(updates),
        note=it.note or stop_note(it.stop),
    )


def stop_note(stop: Stop) -> str:
    """A sentence for a person when the selection stopped somewhere unusual ("" otherwise)."""
    if stop is Stop.REPEAT:
        return (
            "The leaf's position already occurred on this path (a loop): it was valued "
            "by the heuristic and is not expanded."
        )
    if stop is Stop.PROVEN:
        return "The selection reached a proven node: its exact value was backed up."
    return ""


def rollout_steps(
    game: Game[Any], state: Any, played: Sequence[tuple[Any, Any]]
) -> tuple[RolloutStep, ...]:
    """The records of a rollout's moves ``played`` from ``state``: who moved, what, what chance
    gave (replayed from ``state`` for the labels)."""
    steps = []
    for action, outcome in played:
        steps.append(
            RolloutStep(
                game.current_player(state),
                game.action_label(state, action),
                game.outcome_label(state, action, outcome),
            )
        )
        state = game.next_state(state, action, outcome)
    return tuple(steps)


def chance_step(
    game: Game[Any],
    state: Any,
    move: ChanceNode,
    outcome: Any,
    probability: float,
    num_outcomes: int,
    sampled: ActionNode | None,
) -> ChanceStep:
    """The record of the selection's draw at chance node ``move`` (its action taken at
    ``state``): ``outcome``, of chance ``probability`` among ``num_outcomes``, was drawn, leading
    to ``sampled`` (``None``: an outcome new to the tree)."""
    action = move.action
    return ChanceStep(
        node_id=move.id,
        action_label=game.action_label(state, action),
        outcome_label=game.outcome_label(state, action, outcome),
        probability=probability,
        num_outcomes=num_outcomes,
        child_id=None if sampled is None else sampled.id,
    )


def expansion(
    game: Game[Any],
    state: Any,
    parent: ActionNode,
    chance: ChanceNode | None,
    child: ActionNode,
    outcome: Any,
    probability: float,
    new_action: bool,
) -> Expansion:
    """The record of the expansion that added ``child`` below ``parent`` (through ``chance``
    when its action has chance), its move taken at ``state`` with ``outcome``: a new action
    (``new_action``) or a new outcome of a known chance node."""
    action = child.action
    return Expansion(
        parent_id=parent.id,
        chance_id=None if chance is None else chance.id,
        node_id=child.id,
        new_action=new_action,
        action_label=game.action_label(state, action),
        outcome_label=game.outcome_label(state, action, outcome),
        probability=probability,
        untried=len(parent.actions or ()) - len(parent.children),
    )
