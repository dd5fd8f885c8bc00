"""The arena: MCTS plays a number of games as home and as away against an opponent.

It prints the botbowl tutorial's table (home wins, home TDs, away wins, away TDs, totals,
averages, iterations per decision). Home is player 0, away player 1. Everything random (the
opponent's moves, chance outcomes of real moves, each decision's search seed) comes from the
arena's seed, so the same seed gives the same results.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from mcts_core import Search, SearchConfig
from mcts_core.rollout import sample_outcome

__all__ = ["ArenaResult", "GameRecord", "play_arena", "rollout_config", "format_table"]

ROLLOUTS = ("none", "turn", "game")
OPPONENTS = ("random", "mcts")
MAX_GAMES = 10_000
MAX_ACTIONS_PER_GAME = 100_000


def rollout_config(rollout: str, **fields: Any) -> SearchConfig:
    """A config for the tutorial's rollout settings: "none" (heuristic leaf), "turn" (random
    rollout to the end of the team turn) or "game" (random rollout to the end)."""
    if rollout not in ROLLOUTS:
        raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}; got {rollout!r}")
    if rollout == "none":
        fields["rollout_depth"] = 0
    elif rollout == "turn":
        fields["rollout_horizon"] = "turn"
    return SearchConfig(**fields)


@dataclass(frozen=True)
class GameRecord:
    """One arena game: which side MCTS played, the result for MCTS (1 win, 0 draw, -1 loss),
    touchdowns (or None for games without a score) and the number of MCTS decisions."""

    mcts_side: int
    result: int
    mcts_tds: int | None
    opponent_tds: int | None
    decisions: int


@dataclass(frozen=True)
class ArenaResult:
    """The arena's totals. "home" counts the games MCTS played as player 0, "away" as player 1.
    TDs are MCTS's touchdowns (0 for games without a score)."""

    game: str
    games_per_side: int
    home_wins: int
    home_draws: int
    home_losses: int
    home_tds: int
    away_wins: int
    away_draws: int
    away_losses: int
    away_tds: int
    iterations_per_decision: int
    opponent: str
    seconds: float
    has_score: bool
    records: tuple[GameRecord, ...] = field(repr=False, default=())

    @property
    def draws(self) -> int:
        return self.home_draws + self.away_draws

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("records")
        data["draws"] = self.draws
        data["total_wins"] = self.home_wins + self.away_wins
        data["total_tds"] = self.home_tds + self.away_tds
        games = 2 * self.games_per_side
        data["avg_wins"] = data["total_wins"] / games if games else 0.0
        data["avg_tds"] = data["total_tds"] / games if games else 0.0
        return data


def play_arena(
    game: Any,
    *,
    games: int,
    iterations: int,
    config: SearchConfig,
    opponent: str = "random",
    opponent_config: SearchConfig | None = None,
    opponent_iterations: int | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> ArenaResult:
    """Play ``games`` games with MCTS as home and ``games`` as away.

    Each MCTS decision is a fresh search of ``iterations`` iterations from the real position
    (multi-action turns make every action a decision). ``progress(done, total)`` is called after
    every game.
    """
    if opponent not in OPPONENTS:
        raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}; got {opponent!r}")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be a whole number in [1, {MAX_GAMES:,}], got {games!r}")
    if not isinstance(iterations, int) or not 1 <= iterations <= 10_000_000:
        raise ValueError(f"iterations must be in [1, 10,000,000], got {iterations!r}")
    start = time.perf_counter()
    records = []
    total = 2 * games
    for index in range(total):
        side = 0 if index < games else 1
        records.append(
            _play_one(
                game,
                side,
                iterations,
                config,
                opponent,
                opponent_config or config,
                opponent_iterations or iterations,
                seed * 100_003 + index,
            )
        )
        if progress is not None:
            progress(index + 1, total)
    home = [r for r in records if r.mcts_side == 0]
    away = [r for r in records if r.mcts_side == 1]
    has_score = callable(getattr(game, "score", None))
    return ArenaResult(
        game=game.name,
        games_per_side=games,
        home_wins=sum(r.result == 1 for r in home),
        home_draws=sum(r.result == 0 for r in home),
        home_losses=sum(r.result == -1 for r in home),
        home_tds=sum(r.mcts_tds or 0 for r in home),
        away_wins=sum(r.result == 1 for r in away),
        away_draws=sum(r.result == 0 for r in away),
        away_losses=sum(r.result == -1 for r in away),
        away_tds=sum(r.mcts_tds or 0 for r in away),
        iterations_per_decision=iterations,
        opponent=opponent,
        seconds=time.perf_counter() - start,
        has_score=has_score,
        records=tuple(records),
    )


def _play_one(
    game: Any,
    side: int,
    iterations: int,
    config: SearchConfig,
    opponent: str,
    opponent_config: SearchConfig,
    opponent_iterations: int,
    seed: int,
) -> GameRecord:
    rng = random.Random(seed)
    state = game.initial_state()
    decisions = 0
    for _ in range(MAX_ACTIONS_PER_GAME):
        if game.is_terminal(state):
            break
        mover = game.current_player(state)
        legal = game.legal_actions(state)
        if len(legal) == 1:
            action = legal[0]  # nothing to decide (e.g. a kick-off)
        elif mover == side:
            search = Search(game, state, config, seed=rng.randrange(2**62))
            search.run(iterations=iterations)
            action = search.best_action()
            decisions += 1
        elif opponent == "random":
            action = legal[rng.randrange(len(legal))]
        else:
            search = Search(game, state, opponent_config, seed=rng.randrange(2**62))
            search.run(iterations=opponent_iterations)
            action = search.best_action()
        outcomes = game.chance_outcomes(state, action)
        outcome = outcomes[sample_outcome(outcomes, rng)][0]
        state = game.next_state(state, action, outcome)
    else:
        raise RuntimeError(f"an arena game did not end within {MAX_ACTIONS_PER_GAME} actions")
    returns = game.returns(state)
    result = 1 if returns[side] > 0 else -1 if returns[side] < 0 else 0
    score = getattr(game, "score", None)
    tds = score(state) if callable(score) else None
    return GameRecord(
        mcts_side=side,
        result=result,
        mcts_tds=None if tds is None else tds[side],
        opponent_tds=None if tds is None else tds[1 - side],
        decisions=decisions,
    )


def format_table(result: ArenaResult, label: str = "") -> str:
    """The tutorial's table as text (one row)."""
    n = result.games_per_side
    data = result.to_dict()
    total_wins = f"{data['total_wins']}/{2 * n}"
    head = (
        f"{'run':<22} {'Home Wins':>9} {'Home TDs':>8} {'Away Wins':>9} {'Away TDs':>8} "
        f"{'Total Wins':>10} {'Total TDs':>9} {'AVG Wins':>8} {'AVG TDs':>7} {'Iterations':>10}"
    )
    row = (
        f"{label or result.game:<22} {f'{result.home_wins}/{n}':>9} {result.home_tds:>8} "
        f"{f'{result.away_wins}/{n}':>9} {result.away_tds:>8} "
        f"{total_wins:>10} {data['total_tds']:>9} "
        f"{data['avg_wins']:>8.2f} {data['avg_tds']:>7.2f} {result.iterations_per_decision:>10}"
    )
    note = f"draws: {result.draws}, losses: {result.home_losses + result.away_losses}"
    if not result.has_score:
        note += f" ({result.game} has no touchdowns: TD columns are 0)"
    return f"{head}\n{row}\n{note}"
