"""Rollout (simulation) helpers: how random draws turn into actions and chance outcomes.

These two functions define the exact way the search consumes its random generator during a
rollout. A game's optional fast path (``random_playout``) must draw identically, so the same seed
gives the same tree whether or not the fast path exists.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

__all__ = ["pick_index", "sample_outcome", "generic_random_playout"]


def pick_index(rng: random.Random, n: int) -> int:
    """A uniformly random index in ``range(n)`` using exactly one ``rng.random()`` draw."""
    return int(rng.random() * n)


def sample_outcome(outcomes: Sequence[tuple[Any, float]], rng: random.Random) -> int:
    """Index of a chance outcome drawn with its probability.

    A single outcome (a deterministic action) uses no random draw; otherwise exactly one.
    """
    if len(outcomes) == 1:
        return 0
    r = rng.random()
    acc = 0.0
    for i, (_, p) in enumerate(outcomes):
        acc += p
        if r < acc:
            return i
    return len(outcomes) - 1  # r fell into the rounding gap above the last cumulative sum


def generic_random_playout(
    game: Any,
    state: Any,
    rng: random.Random,
    max_steps: int | None,
    stop_on_turn_change: bool,
) -> tuple[Any, list[tuple[Any, Any]]]:
    """Play uniformly random actions; the reference behaviour for ``Game.random_playout``.

    Stops at a terminal state, after ``max_steps`` actions (``None``: no limit) or, with
    ``stop_on_turn_change``, when the player to move is no longer the one who moved first.
    Returns the final state and the ``(action, outcome)`` pairs played.
    """
    played: list[tuple[Any, Any]] = []
    if game.is_terminal(state):
        return state, played
    first_player = game.current_player(state)
    while not game.is_terminal(state):
        if max_steps is not None and len(played) >= max_steps:
            break
        if stop_on_turn_change and game.current_player(state) != first_player:
            break
        legal = game.legal_actions(state)
        action = legal[pick_index(rng, len(legal))]
        outcomes = game.chance_outcomes(state, action)
        outcome = outcomes[sample_outcome(outcomes, rng)][0]
        played.append((action, outcome))
        state = game.next_state(state, action, outcome)
    return state, played
