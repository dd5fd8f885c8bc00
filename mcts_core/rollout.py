"""Rollout (simulation) helpers: how random draws turn into actions and chance outcomes, and the
rollouts themselves.

``pick_index`` and ``sample_outcome`` define the exact way the search consumes its random
generator during a rollout. A game's optional fast path (``random_playout``) must draw
identically, so the same seed gives the same tree whether or not the fast path exists.
``generic_random_playout`` is the random rollout, ``guided_playout`` the heuristic-greedy and
epsilon-greedy ones (scoring moves with ``action_score``, which the expansion order and PUCT's
heuristic prior use too).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

__all__ = [
    "action_score",
    "generic_random_playout",
    "guided_playout",
    "pick_index",
    "sample_outcome",
]


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


def action_score(game: Any, state: Any, action: Any, player: int) -> float:
    """``player``'s expected heuristic right after ``action`` (over its chance outcomes)."""
    total = 0.0
    for outcome, probability in game.chance_outcomes(state, action):
        total += probability * game.heuristic(game.next_state(state, action, outcome))[player]
    return total


def guided_playout(
    game: Any,
    state: Any,
    rng: random.Random,
    max_steps: int | None,
    stop_on_turn_change: bool,
    epsilon: float,
) -> tuple[Any, list[tuple[Any, Any]]]:
    """A heuristic-greedy rollout, or with ``epsilon`` > 0 an epsilon-greedy one (one draw decides
    random vs greedy; greedy ties are broken by one more draw).

    Stops like :func:`generic_random_playout` and returns the same: the final state and the
    ``(action, outcome)`` pairs played.
    """
    played: list[tuple[Any, Any]] = []
    first_player = game.current_player(state)
    while not game.is_terminal(state):
        if max_steps is not None and len(played) >= max_steps:
            break
        player = game.current_player(state)
        if stop_on_turn_change and player != first_player:
            break
        legal = game.legal_actions(state)
        if epsilon > 0.0 and rng.random() < epsilon:
            action = legal[pick_index(rng, len(legal))]
        else:
            scores = [action_score(game, state, a, player) for a in legal]
            top = max(scores)
            best = [a for a, s in zip(legal, scores, strict=True) if s >= top - 1e-12]
            action = best[pick_index(rng, len(best))] if len(best) > 1 else best[0]
        outcomes = game.chance_outcomes(state, action)
        outcome = outcomes[sample_outcome(outcomes, rng)][0]
        played.append((action, outcome))
        state = game.next_state(state, action, outcome)
    return state, played
