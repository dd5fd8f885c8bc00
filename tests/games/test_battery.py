"""Every game passes the shared battery (``tests/battery.py``), plus the toy games' own rules."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import Any

import pytest

from games import GAME_NAMES, game_spec, make_game
from games.registry import all_specs
from mcts_core import SearchConfig
from tests.battery import CHECKS, check_state, random_game
from tests.dice_game import MAX_TURNS, LoopGame, LoopState, Pig, PigState

#: id -> a function building the game (built inside the test): every registered game with its
#: default options, the other gridiron sizes, and the toy games.
GAMES: list[Any] = [
    *(pytest.param(functools.partial(make_game, name), id=name) for name in GAME_NAMES),
    pytest.param(lambda: make_game("gridiron", size=3), id="gridiron-3"),
    pytest.param(lambda: make_game("gridiron", size=5), id="gridiron-5"),
    pytest.param(Pig, id="pig"),
    pytest.param(LoopGame, id="loop"),
]


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
@pytest.mark.parametrize("build", GAMES)
def test_battery(build: Callable[[], Any], check: Callable[[Any, range], None]) -> None:
    check(build(), range(20))


def test_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        make_game("chess")


# ------------------------------------------------------------------ the registry


_CONFIG_FIELDS = {f.name for f in dataclasses.fields(SearchConfig)}


@pytest.mark.parametrize("spec", all_specs(), ids=lambda spec: spec.name)
def test_registration_is_consistent(spec: Any) -> None:
    """What the CLI and the app read of a game fits its rules: the name, the buttons' actions,
    the settings and presets (real ``SearchConfig`` fields), the options' defaults."""
    game = spec.make()
    assert game.name == spec.name and game_spec(spec.name) is spec
    start = game.initial_state()
    legal = list(game.legal_actions(start))
    if spec.buttons is not None:
        assert set(legal) <= set(spec.buttons.actions)
        assert not spec.buttons.labels or len(spec.buttons.labels) == len(spec.buttons.actions)
        assert all(spec.buttons.label(game, start, a) for a in spec.buttons.actions)
    if spec.indexed_by_action:
        assert all(isinstance(a, int) for a in legal)
    SearchConfig(**spec.settings)
    for fields in spec.presets.values():
        SearchConfig(**fields)
    assert set(spec.settings) <= _CONFIG_FIELDS
    defaults = {option.name: option.default for option in spec.options}
    assert spec.make(**defaults).initial_state() == start
    for option in spec.options:
        assert (option.default in option.choices) if option.choices else option.slider
    assert len({option.key for option in spec.options}) == len(spec.options)
    implied = spec.options_of_position(game.format_state(start))  # the start's own variant
    assert all(defaults[name] == value for name, value in implied.items())


def test_a_gridiron_position_names_its_size() -> None:
    spec = game_spec("gridiron")
    three = make_game("gridiron", size=3)
    assert spec.options_of_position(three.format_state(three.initial_state())) == {"size": 3}
    assert spec.options_of_position("nonsense") == {} == spec.options_of_position("²_1")
    assert make_game("gridiron", size=3, score=2.0).weights.score == 2.0  # a slider's option


# ------------------------------------------------------------------ the toy games themselves


def test_pig_rolls_with_exact_odds() -> None:
    game = Pig()
    state = game.parse_state("3-7-4-1-5")
    assert game.legal_actions(state) == ["roll", "hold"]
    assert game.chance_outcomes(state, "roll") == tuple((face, 1 / 6) for face in range(1, 7))
    assert game.next_state(state, "roll", 5) == PigState((3, 7), 9, 1, 5)
    assert game.next_state(state, "roll", 1) == PigState((3, 7), 0, 0, 6)  # turn total lost
    assert game.next_state(state, "hold") == PigState((3, 11), 0, 0, 6)
    assert game.returns(game.next_state(state, "hold")) == (-1.0, 1.0)
    assert game.legal_actions(game.initial_state()) == ["roll"]  # nothing to hold yet


def test_pig_draws_after_max_turns() -> None:
    game = Pig()
    state = game.parse_state(f"4-5-0-0-{MAX_TURNS}")
    assert game.is_terminal(state) and game.returns(state) == (0.0, 0.0)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1-2-3", "five numbers joined by '-'"),
        ("1-2-x-0-0", "five numbers"),
        ("1-2-3-2-0", "player to move must be 0 or 1"),
        ("1-2-3-0-1", "after 1 turns player 1 moves, not player 0"),
        ("1-2-1-0-2", "turn total of 1 is impossible"),
        ("1-2-0-0-21", "21 turns played"),
        ("10-2-0-0-4", "player 0 has 10 banked but is still to move"),
        ("11-2-4-1-5", "game is over but a turn total of 4"),
        ("01-2-0-0-0", "leading zeros"),
    ],
)
def test_pig_bad_positions(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Pig().parse_state(text)


def test_loop_game_wait_is_a_true_no_op() -> None:
    game = LoopGame()
    state = game.parse_state("1-1-0")
    assert game.legal_actions(state) == ["advance", "wait"]
    waited = game.next_state(state, "wait")
    assert waited == state and hash(waited) == hash(state)
    assert game.current_player(waited) == game.current_player(state)
    assert game.next_state(state, "advance") == LoopState((2, 1), 1)


def test_loop_game_ends_and_random_games_use_wait() -> None:
    game = LoopGame(target=2)
    assert game.returns(game.parse_state("2-1-1")) == (1.0, -1.0)
    check_state(game, game.parse_state("2-1-1"))
    waits = [
        len(states) > len({game.format_state(s) for s in states})
        for states in (random_game(game, seed) for seed in range(10))
    ]
    assert any(waits)  # some random game repeated a state, so the battery covered the cycle


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("1-1", "three numbers"),
        ("1-1-2", "player to move must be 0 or 1"),
        ("2-0-0", "impossible with player 0 to move"),
        ("3-3-0", "player 1 cannot reach the target 3"),
        ("4-3-1", "player 1 cannot reach"),
    ],
)
def test_loop_game_bad_positions(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        LoopGame().parse_state(text)


def test_loop_game_rejects_a_bad_target() -> None:
    with pytest.raises(ValueError, match="target must be at least 1"):
        LoopGame(target=0)
