"""The test battery every game passes (PettingZoo's api_test, OpenSpiel's random_sim_test).

``check_game(game)`` plays seeded random games and checks the protocol's promises on every
state it meets. Each check raises ``AssertionError`` with the position string when it fails.
"""

from __future__ import annotations

import random
from typing import Any

from mcts_core.rollout import generic_random_playout

MAX_STEPS = 5000


def random_game(game: Any, seed: int) -> list[Any]:
    """The states of one uniformly random game from the initial state."""
    rng = random.Random(seed)
    state = game.initial_state()
    states = [state]
    for _ in range(MAX_STEPS):
        if game.is_terminal(state):
            return states
        legal = game.legal_actions(state)
        action = legal[rng.randrange(len(legal))]
        outcomes = game.chance_outcomes(state, action)
        r, acc = rng.random(), 0.0
        outcome = outcomes[-1][0]
        for o, p in outcomes:
            acc += p
            if r < acc:
                outcome = o
                break
        state = game.next_state(state, action, outcome)
        states.append(state)
    raise AssertionError(f"{game.name}: a random game did not end within {MAX_STEPS} actions")


def check_state(game: Any, state: Any) -> None:
    """The protocol's promises at one state."""
    text = game.format_state(state)
    assert isinstance(text, str)
    hash(state)
    parsed = game.parse_state(text)
    assert parsed == state, f"{game.name}: parse(format(s)) != s for {text!r}"
    assert game.format_state(parsed) == text
    heuristic = game.heuristic(state)
    assert len(heuristic) == 2 and all(-1.0 <= h <= 1.0 for h in heuristic), (text, heuristic)
    if game.is_terminal(state):
        returns = tuple(game.returns(state))
        assert len(returns) == 2 and sum(returns) == 0, (text, returns)
        assert set(returns) <= {-1.0, 0.0, 1.0}, (text, returns)
        return
    assert game.current_player(state) in (0, 1)
    legal = list(game.legal_actions(state))
    assert legal, f"{game.name}: no legal action at non-terminal {text!r}"
    assert legal == list(game.legal_actions(state)), "legal actions must come in a stable order"
    assert len(set(legal)) == len(legal), "legal actions must be distinct"
    for action in legal:
        label = game.action_label(state, action)
        assert isinstance(label, str) and label, (text, action)
        outcomes = list(game.chance_outcomes(state, action))
        assert outcomes, (text, action)
        assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-9, (text, action, outcomes)
        assert all(p > 0 for _, p in outcomes), (text, action, outcomes)
        assert len({o for o, _ in outcomes}) == len(outcomes), "outcomes must be distinct"
        for outcome, _ in outcomes:
            assert isinstance(game.outcome_label(state, action, outcome), str)
            game.next_state(state, action, outcome)
    assert game.format_state(state) == text, "next_state must not change its input"


def check_game(game: Any, seeds: range = range(20)) -> None:
    """Random games end, every state keeps the protocol's promises, seeds replay exactly."""
    for seed in seeds:
        states = random_game(game, seed)
        assert game.is_terminal(states[-1])
        for state in states:
            check_state(game, state)
        replay = random_game(game, seed)
        assert [game.format_state(s) for s in replay] == [game.format_state(s) for s in states]
    fast = getattr(game, "random_playout", None)
    if fast is not None:
        start = random_game(game, 0)
        for seed in seeds:
            for state in start[:: max(1, len(start) // 4)]:
                for max_steps, turn in ((None, False), (3, False), (None, True), (0, False)):
                    expected = generic_random_playout(
                        game, state, random.Random(seed), max_steps, turn
                    )
                    got = fast(state, random.Random(seed), max_steps, turn)
                    assert got == expected, (game.format_state(state), seed, max_steps, turn)
