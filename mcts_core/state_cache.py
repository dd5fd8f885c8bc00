"""The state cache: which nodes keep their game state, and how any other node's is rebuilt.

A node holds no state unless it has been visited ``CACHE_VISITS`` times (the root always holds
one): the selection, stepping into such a child, stores the state it computed there. The state
of any other node is rebuilt by replaying the moves from the nearest node above that holds one.
"""

from __future__ import annotations

from typing import Any

from mcts_core.game import Game
from mcts_core.nodes import ActionNode, ChanceNode, Move

__all__ = ["CACHE_VISITS", "replay_state"]

#: A node caches its state once it has been visited this often: the selection then stops
#: replaying moves there. Most nodes are leaves visited once or twice, so the cache costs few
#: bytes per simulation and saves most of the replay (measured in docs/search.md).
CACHE_VISITS = 5


def replay_state(game: Game[Any], node: Move) -> Any:
    """The game state at ``node`` (for a chance node: the state where its action is taken),
    rebuilt by replaying moves from the nearest node above that caches its state (the root of
    a tree always does)."""
    current: ActionNode = node.parent if isinstance(node, ChanceNode) else node
    moves = []
    state = current.state
    while state is None:
        moves.append((current.action, current.outcome))
        above = current.decider
        assert above is not None  # the root caches its state
        current = above
        state = current.state
    next_state = game.next_state
    for action, outcome in reversed(moves):
        state = next_state(state, action, outcome)
    return state
