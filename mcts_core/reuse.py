"""Tree reuse: what ``Search.advance`` checks of a real move and keeps of the tree after it.

A move played at the root keeps the subtree below it (the move's node, or for an action with
chance the node of the outcome that happened) as the new tree; the rest is discarded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcts_core.game import Game
from mcts_core.nodes import ActionNode, ChanceNode

__all__ = ["UNSET", "Reuse", "kept_root", "played_outcome"]

#: ``Search.advance``'s outcome when the caller gave none (``None`` is a game's NO_CHANCE).
UNSET: Any = object()


@dataclass(frozen=True, slots=True)
class Reuse:
    """What ``Search.advance`` kept of the tree after a real move."""

    kept_nodes: int
    discarded_nodes: int
    kept_visits: int

    @property
    def kept_share(self) -> float:
        total = self.kept_nodes + self.discarded_nodes
        return self.kept_nodes / total if total else 0.0


def played_outcome(game: Game[Any], state: Any, action: Any, outcome: Any = UNSET) -> Any:
    """The chance outcome of a real move ``action`` at ``state``: ``outcome`` itself, or the only
    one when it is ``UNSET`` (a deterministic action). Raises ``ValueError`` when the game is
    over, the action is illegal, the outcome is impossible, or left out where there are several.
    """
    if game.is_terminal(state):
        raise ValueError("the game is over at the root; no move can be played")
    legal = game.legal_actions(state)
    if action not in legal:
        raise ValueError(f"illegal move {action!r} at the root")
    outcomes = game.chance_outcomes(state, action)
    if outcome is UNSET:
        if len(outcomes) != 1:
            raise ValueError(
                f"move {game.action_label(state, action)} has {len(outcomes)} chance "
                "outcomes; say which one happened"
            )
        return outcomes[0][0]
    if outcome not in [o for o, _ in outcomes]:
        raise ValueError(f"outcome {outcome!r} is not possible after that move")
    return outcome


def kept_root(root: ActionNode, action: Any, outcome: Any) -> ActionNode | None:
    """The node below ``root`` reached by ``action`` and ``outcome`` (``None``: the tree never
    tried it), detached from ``root`` so that it can become the new root."""
    move = next((m for m in root.children if m.action == action), None)
    child = move.child_for(outcome) if isinstance(move, ChanceNode) else move
    if child is not None:
        child.parent = None
    return child
