"""The arena: determinism, the tutorial's table, tree reuse, chance outcomes, touchdowns."""

from __future__ import annotations

import json
from dataclasses import FrozenInstanceError
from typing import Any

import pytest

from games import make_game
from mcts_lab.arena import ArenaResult, format_table, play_arena, rollout_config
from tests.conftest import CliRunner
from tests.dice_game import Pig, PigState


class ScoredPig(Pig):
    """Pig with a score: banked points play the role of touchdowns."""

    name = "scored_pig"

    def score(self, state: PigState) -> tuple[int, int]:
        return state.banked


def test_arena_json_fields_and_determinism(cli: CliRunner) -> None:
    argv = ("arena", "--game", "tic_tac_toe", "--games", "2", "--iterations", "100",
            "--rollout", "game", "--seed", "3", "--json")  # fmt: skip
    status, out, err = cli(*argv)
    assert status == 0 and err == ""
    first = json.loads(out)
    second = json.loads(cli(*argv)[1])
    for key, kind in {
        "games_per_side": int, "home_wins": int, "home_tds": int, "away_wins": int,
        "away_tds": int, "draws": int, "iterations_per_decision": int, "home_losses": int,
        "away_losses": int, "config": dict, "seconds": float, "total_wins": int,
        "avg_wins": float, "reuse": bool, "has_score": bool, "decisions": int,
    }.items():  # fmt: skip
        assert isinstance(first[key], kind), key
    assert first.pop("seconds") >= 0 and second.pop("seconds") >= 0
    assert first == second
    assert first["games_per_side"] == 2 and first["iterations_per_decision"] == 100
    assert first["home_wins"] + first["home_draws"] + first["home_losses"] == 2
    assert first["away_wins"] + first["away_draws"] + first["away_losses"] == 2
    assert first["draws"] == first["home_draws"] + first["away_draws"]
    assert first["home_tds"] == first["away_tds"] == 0 and first["has_score"] is False
    assert first["config"]["rollout_depth"] is None and first["rollout"] == "game"
    assert first["home_losses"] == 0  # 100 iterations never lose tic-tac-toe to random as X


def test_arena_table(cli: CliRunner) -> None:
    status, out, _ = cli(
        "arena", "--game", "connect_four", "--games", "1", "--iterations", "30",
        "--rollout", "game", "--seed", "1",
    )  # fmt: skip
    assert status == 0
    head, row, *notes = out.splitlines()
    for column in ("Rollouts", "Env", "Home Wins", "Home TDs", "Away Wins", "Away TDs",
                   "Total Wins", "Total TDs", "AVG Wins", "AVG TDs", "Iterations"):  # fmt: skip
        assert column in head
    assert row.split()[:2] == ["game", "connect_four"] and row.split()[-1] == "30"
    assert "no touchdowns" in out and "vs random" in notes[0]


def test_arena_mcts_against_mcts_with_other_c(cli: CliRunner) -> None:
    status, out, _ = cli(
        "arena", "--game", "tic_tac_toe", "--games", "1", "--iterations", "100",
        "--rollout", "game", "--opponent", "mcts", "--opponent-c", "0.2",
        "--opponent-iterations", "20", "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert status == 0 and data["opponent"] == "mcts" and data["opponent_iterations"] == 20
    assert data["opponent_config"]["c"] == 0.2 and data["config"]["c"] == 1.4


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["arena", "--game", "tic_tac_toe", "--games", "0"], "not in"),
        (["arena", "--game", "tic_tac_toe", "--games", "10001"], "not in"),
        (["arena", "--game", "tic_tac_toe", "--rollout", "some"], "invalid choice"),
        (["arena", "--game", "tic_tac_toe", "--opponent-c", "1"], "need --opponent mcts"),
        (["arena", "--game", "tic_tac_toe", "--c", "1e999"], "not a finite number"),
        (["arena", "--game", "tic_tac_toe", "--opponent", "mcts", "--opponent-c", "-1"], "c must"),
    ],
)
def test_arena_bad_arguments(cli: CliRunner, argv: list[str], message: str) -> None:
    status, out, err = cli(*argv)
    assert status == 2 and out == "" and err.count("\n") == 1
    assert err.startswith("mcts-lab: error:") and message in err


def _arena(game: Any, **options: Any) -> ArenaResult:
    settings: dict[str, Any] = {
        "games": 3,
        "iterations": 40,
        "config": rollout_config("none"),
        "seed": 11,
    }
    settings.update(options)
    return play_arena(game, **settings)


def test_an_arena_bounded_in_time_stops_after_a_whole_pair() -> None:
    game = ScoredPig()
    full = _arena(game)
    assert full.stopped == "" and full.games_per_side == 3
    cut = _arena(game, seconds=1e-9)  # the first pair is always played, then time is up
    assert cut.games_per_side == 1 and cut.games == 2
    assert cut.stopped.startswith("time:") and "1 of 3 games per side" in cut.stopped
    # pairs are game n at home and game games+n away: the same seeds as the full arena's
    assert cut.records == tuple(r for r in full.records if r.index in (0, 3))
    assert cut.home_wins + cut.home_draws + cut.home_losses == 1
    assert cut.to_dict()["stopped"] == cut.stopped
    with pytest.raises(ValueError, match="seconds"):
        _arena(game, seconds=0)


def test_a_cancelled_arena_keeps_its_whole_pairs() -> None:
    game = ScoredPig()
    full = _arena(game, games=4)
    polls: list[int] = []

    def cancel_on_the_third_poll() -> bool:
        polls.append(1)
        return len(polls) >= 3

    cut = _arena(game, games=4, should_stop=cancel_on_the_third_poll)
    # polls: after pair 0 (no), before pair 1's away game (no), after pair 1 (yes)
    assert cut.games_per_side == 2 and cut.stopped == "cancelled after 2 of 4 games per side"
    assert cut.records == tuple(r for r in full.records if r.index in (0, 1, 4, 5))
    polls.clear()
    # polls: after pair 0 (no), before pair 1's away game (yes): pair 1's home game is dropped
    mid_pair = _arena(game, games=4, should_stop=lambda: bool(polls.append(1)) or len(polls) >= 2)
    assert mid_pair.games_per_side == 1 and mid_pair.records == cut.records[:1] + cut.records[2:3]


def test_play_arena_with_chance_is_deterministic_and_reports_tds() -> None:
    game = ScoredPig()
    calls: list[tuple[int, int]] = []
    first = _arena(game, progress=lambda done, total: calls.append((done, total)))
    second = _arena(game)
    assert calls == [(i, 6) for i in range(1, 7)]
    assert first.records == second.records
    assert first.to_dict() | {"seconds": 0} == second.to_dict() | {"seconds": 0}
    assert first.has_score and first.home_tds == sum(
        r.mcts_tds for r in first.records if r.mcts_side == 0
    )
    assert first.home_tds + first.away_tds > 0  # banking points is what Pig is about
    assert [r.mcts_side for r in first.records] == [0, 0, 0, 1, 1, 1]
    different = _arena(game, seed=12)
    assert different.records != first.records
    with pytest.raises(FrozenInstanceError):
        first.home_wins = 0  # type: ignore[misc]


def test_tree_reuse_keeps_visits_and_fresh_trees_do_not() -> None:
    game = make_game("tic_tac_toe")
    config = rollout_config("game")
    reused = _arena(game, config=config, games=2, iterations=60)
    fresh = _arena(game, config=config, games=2, iterations=60, reuse=False)
    assert fresh.mean_root_visits == 60.0
    assert reused.mean_root_visits > 60.0  # later decisions start from a kept subtree
    assert reused.reuse and not fresh.reuse
    assert "tree reuse" in format_table(reused) and "fresh tree" in format_table(fresh)


def test_mcts_opponent_in_a_chance_game() -> None:
    game = Pig()
    result = _arena(
        game,
        games=2,
        opponent="mcts",
        opponent_config=rollout_config("turn", c=0.5),
        opponent_iterations=10,
    )
    assert result.opponent == "mcts" and result.opponent_iterations == 10
    assert not result.has_score and result.home_tds == result.away_tds == 0
    assert result.home_wins + result.home_draws + result.home_losses == 2


def test_play_arena_rejects_bad_values() -> None:
    game = Pig()
    with pytest.raises(ValueError, match="games"):
        _arena(game, games=0)
    with pytest.raises(ValueError, match="iterations"):
        _arena(game, iterations=-1)
    with pytest.raises(ValueError, match="opponent"):
        _arena(game, opponent="human")
    with pytest.raises(ValueError, match="rollout"):
        rollout_config("sometimes")


def test_rollout_config_maps_the_tutorials_settings() -> None:
    assert rollout_config("none").rollout_depth == 0
    assert rollout_config("turn").rollout_horizon == "turn"
    game_config = rollout_config("game", c=0.9)
    assert game_config.rollout_depth is None and game_config.rollout_horizon == "game"
    assert game_config.c == 0.9


def test_gridiron_arena(cli: CliRunner) -> None:
    pytest.importorskip("games.gridiron")
    argv = ("arena", "--game", "gridiron", "--size", "1", "--games", "1", "--iterations", "20",
            "--rollout", "none", "--seed", "2", "--json")  # fmt: skip
    status, out, err = cli(*argv)
    assert status == 0, err
    data = json.loads(out)
    assert data["has_score"] is True and data["size"] == 1
    again = json.loads(cli(*argv)[1])
    assert data | {"seconds": 0} == again | {"seconds": 0}
