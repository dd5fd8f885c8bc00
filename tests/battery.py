"""The test battery every game passes (in the spirit of PettingZoo's ``api_test`` and OpenSpiel's
``random_sim_test``).

Each ``check_*`` function takes a game and a range of seeds, plays seeded uniformly random games
and checks one group of the protocol's promises (:mod:`games.base`). They are plain functions so
``tests/games/test_battery.py`` can parametrize over games x checks and a failure names both; a
failed check raises ``AssertionError`` with the position string. ``check_game`` runs them all.

Random games are played by :func:`mcts_core.rollout.generic_random_playout`, the same draws the
search makes, bounded by ``MAX_STEPS`` actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from mcts_core.game import PositionError
from mcts_core.rollout import generic_random_playout

__all__ = [
    "MAX_STEPS",
    "SEEDS",
    "CHECKS",
    "random_game",
    "check_state",
    "check_random_games_end",
    "check_states_along_random_games",
    "check_same_seed_same_game",
    "check_fast_playout",
    "check_game",
]

#: A random game longer than this many actions counts as "does not end".
MAX_STEPS = 5000
#: Seeds used when a check is not given any.
SEEDS = range(20)


def random_game(game: Any, seed: int) -> list[Any]:
    """The states of one uniformly random game from the initial state, the last one included.

    Stops after ``MAX_STEPS`` actions even if the game is not over (``check_random_games_end``
    is the check that it is).
    """
    start = game.initial_state()
    final, played = generic_random_playout(game, start, random.Random(seed), MAX_STEPS, False)
    states = [start]
    for action, outcome in played:
        states.append(game.next_state(states[-1], action, outcome))
    assert states[-1] == final, f"{game.name}: replaying the same actions gave another state"
    return states


def check_state(game: Any, state: Any) -> None:
    """The protocol's promises at one state: hashing, position strings, values, actions,
    chance outcomes, labels, and that ``next_state`` leaves its input alone."""
    text = game.format_state(state)
    assert isinstance(text, str), f"{game.name}: format_state must return a string"
    state_hash = hash(state)
    parsed = game.parse_state(text)
    assert parsed == state, f"{game.name}: parse(format(s)) != s for {text!r}"
    assert hash(parsed) == state_hash, f"{game.name}: equal states hash differently at {text!r}"
    assert game.format_state(parsed) == text, f"{game.name}: format(parse(t)) != t for {text!r}"

    heuristic = tuple(game.heuristic(state))
    assert len(heuristic) == game.num_players == 2, (text, heuristic)
    assert all(-1.0 <= h <= 1.0 for h in heuristic), (text, heuristic)  # also rules out NaN

    if game.is_terminal(state):
        returns = tuple(game.returns(state))
        assert len(returns) == 2 and sum(returns) == 0, (text, returns)
        assert set(returns) <= {-1.0, 0.0, 1.0}, (text, returns)
        return

    assert game.current_player(state) in (0, 1), text
    legal = list(game.legal_actions(state))
    assert legal, f"{game.name}: no legal action at non-terminal {text!r}"
    assert legal == list(game.legal_actions(state)), f"unstable legal action order at {text!r}"
    assert len(set(legal)) == len(legal), f"repeated legal actions at {text!r}"
    for action in legal:
        label = game.action_label(state, action)
        assert isinstance(label, str) and label, (text, action, label)
        outcomes = list(game.chance_outcomes(state, action))
        assert outcomes, (text, action)
        assert all(p > 0 for _, p in outcomes), (text, action, outcomes)
        assert abs(sum(p for _, p in outcomes) - 1.0) <= 1e-9, (text, action, outcomes)
        assert len({o for o, _ in outcomes}) == len(outcomes), f"repeated outcomes at {text!r}"
        for outcome, _ in outcomes:
            assert isinstance(game.outcome_label(state, action, outcome), str)
            child = game.next_state(state, action, outcome)
            hash(child)
            assert child == game.next_state(state, action, outcome), "next_state must be a function"
    # the state must be exactly what it was before any next_state call
    assert state == parsed and hash(state) == state_hash, f"next_state changed {text!r}"
    assert game.format_state(state) == text, f"next_state changed {text!r}"


def check_random_games_end(game: Any, seeds: range = SEEDS) -> None:
    """Uniformly random games reach a terminal state within ``MAX_STEPS`` actions."""
    for seed in seeds:
        states = random_game(game, seed)
        assert game.is_terminal(states[-1]), (
            f"{game.name}: random game {seed} did not end within {MAX_STEPS} actions"
        )


def check_states_along_random_games(game: Any, seeds: range = SEEDS) -> None:
    """Every state of every random game passes :func:`check_state`."""
    for seed in seeds:
        for state in random_game(game, seed):
            check_state(game, state)


def check_same_seed_same_game(game: Any, seeds: range = SEEDS) -> None:
    """The same seed replays the same game; different seeds do not all give one game."""
    games = []
    for seed in seeds:
        first = [game.format_state(s) for s in random_game(game, seed)]
        again = [game.format_state(s) for s in random_game(game, seed)]
        assert first == again, f"{game.name}: seed {seed} gave two different games"
        games.append(tuple(first))
    if len(games) > 1:
        assert len(set(games)) > 1, f"{game.name}: every seed gave the same game"


#: (max_steps, stop_on_turn_change) pairs tried by :func:`check_fast_playout`.
_PLAYOUT_LIMITS = ((None, False), (0, False), (1, False), (3, False), (None, True), (5, True))


def check_fast_playout(game: Any, seeds: range = SEEDS) -> None:
    """If the game has ``random_playout``, it equals the generic playout: same final state, same
    actions and outcomes, and the generator left in the same state (same draws consumed)."""
    fast: Callable[..., tuple[Any, list[tuple[Any, Any]]]] | None = getattr(
        game, "random_playout", None
    )
    if fast is None:
        return
    starts = []
    for seed in range(4):
        states = random_game(game, 1000 + seed)
        starts += states[:: max(1, len(states) // 5)] + [states[-1]]  # the terminal end too
    for seed in seeds:
        for state in starts:
            for max_steps, turn in _PLAYOUT_LIMITS:
                generic_rng, fast_rng = random.Random(seed), random.Random(seed)
                expected = generic_random_playout(game, state, generic_rng, max_steps, turn)
                got = fast(state, fast_rng, max_steps, turn)
                where = (game.format_state(state), seed, max_steps, turn)
                assert got == expected, where
                assert fast_rng.getstate() == generic_rng.getstate(), ("rng use differs", where)
    check_random_returns(game, starts, seeds)


def check_random_returns(game: Any, starts: list[Any], seeds: range) -> None:
    """If the game has ``random_returns`` (with ``deterministic = True``), it gives the returns
    at the end of the generic playout to the end, with the same draws; and no action of the
    game has a chance outcome."""
    returns_of: Callable[..., tuple[float, ...]] | None = getattr(game, "random_returns", None)
    if returns_of is None:
        return
    assert getattr(game, "deterministic", False), "random_returns needs deterministic = True"
    for seed in seeds:
        for state in starts:
            generic_rng, fast_rng = random.Random(seed), random.Random(seed)
            end, _ = generic_random_playout(game, state, generic_rng, None, False)
            where = (game.format_state(state), seed)
            assert returns_of(state, fast_rng) == tuple(game.returns(end)), where
            assert fast_rng.getstate() == generic_rng.getstate(), ("rng use differs", where)
            for action in game.legal_actions(state):
                assert len(game.chance_outcomes(state, action)) == 1, where


#: Position strings no game reads: wrong characters, a sign, a field's worth of junk, nothing
#: but spaces around junk, a character that is a digit to ``str.isdigit`` but not to ``int``.
MALFORMED_POSITIONS = ("not a position ✗", "-1", "9/9/9/9/9", "  ?  ", "²", "x" * 300)


def check_malformed_positions(game: Any, seeds: range = SEEDS) -> None:
    """``parse_state`` refuses a malformed string with a ``PositionError`` (a ``ValueError``)
    whose message is not empty, and so does a real position with junk after it."""
    del seeds  # the strings are fixed
    texts = list(MALFORMED_POSITIONS)
    final = random_game(game, 0)[-1]
    texts.append(game.format_state(final) + "✗")
    for text in texts:
        try:
            game.parse_state(text)
        except PositionError as error:
            assert isinstance(error, ValueError) and str(error), f"{game.name} {text!r}"
        else:
            raise AssertionError(f"{game.name} read the malformed position {text!r}")


#: Every check, for parametrizing.
CHECKS: tuple[Callable[[Any, range], None], ...] = (
    check_random_games_end,
    check_states_along_random_games,
    check_same_seed_same_game,
    check_fast_playout,
    check_malformed_positions,
)


def check_game(game: Any, seeds: range = SEEDS) -> None:
    """Run every check in ``CHECKS`` on ``game``."""
    for check in CHECKS:
        check(game, seeds)
