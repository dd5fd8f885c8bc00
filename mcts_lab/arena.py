"""The arena: MCTS plays a number of games as home and as away against an opponent.

The result is the botbowl tutorial's table: home wins, home TDs, away wins, away TDs, totals,
averages and iterations per decision. Home is player 0, away player 1; "home" counts the games
MCTS played as player 0.

How a game is played
--------------------
- MCTS decides with a :class:`~mcts_core.Search` of ``iterations`` iterations per decision.
  With ``reuse=True`` (the default) each searcher keeps its tree for the whole game: after every
  real move (its own, the opponent's, and the chance outcome that followed) it calls
  ``Search.advance`` and the next decision runs ``iterations`` more iterations on top of the
  subtree it kept. With ``reuse=False`` every decision starts a fresh tree.
- The opponent is "random" (a uniformly random legal action) or "mcts" (a second search with its
  own config and iterations, reusing its tree the same way).
- A position with a single legal action (e.g. a kick-off) is played without searching.
- Chance outcomes of real moves are drawn with the game's ``chance_outcomes`` probabilities.

Determinism: every random draw (opponent moves, chance outcomes, the searches' seeds) comes from
``random.Random`` generators derived from ``seed`` and the game's number, so the same seed gives
the same games, whatever the machine's speed; only ``seconds`` differs.

Touchdowns: a game with a ``score(state) -> (home, away)`` method (gridiron) reports them; for
other games ``has_score`` is false and the TD counts are 0.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from mcts_core import Search, SearchConfig
from mcts_core.game import Action, Outcome, State
from mcts_core.rollout import sample_outcome
from mcts_lab.common import AnyGame

__all__ = [
    "ArenaResult",
    "GameRecord",
    "MAX_GAMES",
    "OPPONENTS",
    "ROLLOUTS",
    "format_table",
    "table_columns",
    "table_notes",
    "play_arena",
    "rollout_config",
]

ROLLOUTS = ("none", "turn", "game")
OPPONENTS = ("random", "mcts")
MAX_GAMES = 10_000
MAX_ITERATIONS = 10_000_000
#: A guard against a game that never ends (a bug in its rules): the arena stops with an error.
MAX_ACTIONS_PER_GAME = 100_000


def rollout_config(rollout: str, /, **fields: Any) -> SearchConfig:
    """A config for the tutorial's rollout settings: "none" (``rollout_depth=0``: evaluate the
    leaf with the heuristic), "turn" (``rollout_horizon="turn"``: random rollout to the end of
    the team turn) or "game" (random rollout to the end of the game). ``fields`` are further
    :class:`SearchConfig` fields (e.g. ``c``, ``expansion_order``)."""
    if rollout not in ROLLOUTS:
        raise ValueError(f"rollout must be one of {', '.join(ROLLOUTS)}; got {rollout!r}")
    if rollout == "none":
        fields["rollout_depth"] = 0
    elif rollout == "turn":
        fields["rollout_horizon"] = "turn"
    return SearchConfig(**fields)


@dataclass(frozen=True)
class GameRecord:
    """One arena game.

    Attributes:
        index: the game's number (0-based; with ``games`` asked per side, numbers below
            ``games`` are MCTS at home, the others away).
        mcts_side: the player MCTS was (0 home, 1 away).
        result: for MCTS: 1 win, 0 draw, -1 loss.
        mcts_tds, opponent_tds: touchdowns of MCTS and of the opponent (``None`` when the game
            has no score).
        decisions: searches MCTS ran (positions with a single legal action are not decisions).
        actions: actions played in the game by both sides.
        mean_root_visits: average root visits of MCTS's searches when it chose (``iterations``
            without reuse; more with reuse, which keeps earlier visits). 0.0 if no decision.
    """

    index: int
    mcts_side: int
    result: int
    mcts_tds: int | None
    opponent_tds: int | None
    decisions: int
    actions: int
    mean_root_visits: float


@dataclass(frozen=True)
class ArenaResult:
    """The arena's totals; "home" are the games MCTS played as player 0, "away" as player 1.

    TDs are MCTS's touchdowns (0 when the game has no score: see ``has_score``). ``records``
    holds every game in order, for plots.
    """

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
    opponent_iterations: int | None
    reuse: bool
    seed: int
    decisions: int
    mean_root_visits: float
    has_score: bool
    seconds: float
    records: tuple[GameRecord, ...] = field(repr=False, default=())
    #: Empty when every game asked for was played; otherwise why the arena stopped early.
    stopped: str = ""

    @property
    def draws(self) -> int:
        return self.home_draws + self.away_draws

    @property
    def total_wins(self) -> int:
        return self.home_wins + self.away_wins

    @property
    def total_tds(self) -> int:
        return self.home_tds + self.away_tds

    @property
    def games(self) -> int:
        """Games played in all (both sides)."""
        return 2 * self.games_per_side

    def to_dict(self) -> dict[str, object]:
        """The JSON-ready totals (without ``records``; see docs/cli.md for every field)."""
        data = {
            name: getattr(self, name) for name in self.__dataclass_fields__ if name != "records"
        }
        data["seconds"] = round(self.seconds, 3)
        data["mean_root_visits"] = round(self.mean_root_visits, 1)
        data.update(
            draws=self.draws,
            total_wins=self.total_wins,
            total_tds=self.total_tds,
            avg_wins=round(self.total_wins / self.games, 4),
            avg_tds=round(self.total_tds / self.games, 4),
        )
        return data


def play_arena(
    game: AnyGame,
    *,
    games: int,
    iterations: int,
    config: SearchConfig,
    opponent: str = "random",
    opponent_config: SearchConfig | None = None,
    opponent_iterations: int | None = None,
    seed: int = 0,
    reuse: bool = True,
    progress: Callable[[int, int], None] | None = None,
    seconds: float | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> ArenaResult:
    """Play ``games`` games with MCTS as home and ``games`` as away against ``opponent``.

    Args:
        game: the rules (:class:`games.base.Game`).
        games: games per side, 1 .. 10,000.
        iterations: MCTS iterations per decision.
        config: MCTS's search config.
        opponent: "random" or "mcts".
        opponent_config, opponent_iterations: the opposing search (default: MCTS's own).
        seed: makes the whole arena reproducible.
        reuse: keep each searcher's tree between moves (``Search.advance``).
        progress: called as ``progress(done, total)`` after every game (``total = 2 * games``).
        seconds: stop starting new games after this long (``None``: no bound). Games are
            played in pairs, home then away with the same game number, so a stopped arena
            still has as many games on each side; ``games_per_side`` then counts the pairs
            played and ``stopped`` says why.
        should_stop: polled after every game; True stops the arena there (a cancel button). A
            pair cut in half is dropped, so both sides keep the same number of games; the first
            pair is always played.
    """
    if opponent not in OPPONENTS:
        raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}; got {opponent!r}")
    _check_whole("games", games, 1, MAX_GAMES)
    _check_whole("iterations", iterations, 1, MAX_ITERATIONS)
    if opponent_iterations is not None:
        _check_whole("opponent_iterations", opponent_iterations, 1, MAX_ITERATIONS)
    _check_whole("seed", seed, 0, 2**62)
    opponent_iterations = opponent_iterations or iterations
    start = time.perf_counter()
    if seconds is not None and not 0 < seconds <= 86_400:
        raise ValueError(f"seconds must be in (0, 86400], got {seconds!r}")
    deadline = None if seconds is None else start + seconds
    records: list[GameRecord] = []
    total = 2 * games
    stopped = ""
    pairs = 0
    for pair in range(games):
        if pair and deadline is not None and time.perf_counter() >= deadline:
            stopped = f"time: {seconds:g} s reached after {pairs} of {games} games per side"
            break
        # game ``pair`` with MCTS at home, then game ``games + pair`` with MCTS away: the
        # seeds depend on the game's number only, so the order of play changes no result
        for index in (pair, games + pair):
            if index >= games and pairs and should_stop is not None and should_stop():
                records.pop()  # a cancel between the two games of a pair drops its first
                stopped = f"cancelled after {pairs} of {games} games per side"
                break
            records.append(
                _play_one(
                    game,
                    index=index,
                    side=0 if index < games else 1,
                    iterations=iterations,
                    config=config,
                    opponent=opponent,
                    opponent_config=opponent_config or config,
                    opponent_iterations=opponent_iterations,
                    seed=seed * 100_003 + index,  # distinct per (seed, game): index < 100,003
                    reuse=reuse,
                )
            )
            if progress is not None:
                progress(len(records), total)
        if stopped:
            break
        pairs += 1
        if should_stop is not None and should_stop() and pairs < games:
            stopped = f"cancelled after {pairs} of {games} games per side"
            break
    records.sort(key=lambda record: record.index)
    home = [r for r in records if r.mcts_side == 0]
    away = [r for r in records if r.mcts_side == 1]
    decisions = sum(r.decisions for r in records)
    visits = sum(r.mean_root_visits * r.decisions for r in records)
    return ArenaResult(
        game=game.name,
        games_per_side=pairs,
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
        opponent_iterations=opponent_iterations if opponent == "mcts" else None,
        reuse=reuse,
        seed=seed,
        decisions=decisions,
        mean_root_visits=visits / decisions if decisions else 0.0,
        has_score=_score_function(game) is not None,
        seconds=time.perf_counter() - start,
        records=tuple(records),
        stopped=stopped,
    )


def _check_whole(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{name} must be a whole number in [{low:,}, {high:,}], got {value!r}")


def _score_function(game: AnyGame) -> Callable[[Any], Any] | None:
    score = getattr(game, "score", None)
    return score if callable(score) else None


class _Player:
    """One side's decision maker in one game: a search (kept or fresh) or a random mover."""

    def __init__(
        self,
        game: AnyGame,
        state: State,
        config: SearchConfig | None,
        iterations: int,
        rng: random.Random,
        reuse: bool,
    ) -> None:
        self.game = game
        self.config = config
        self.iterations = iterations
        self.rng = rng
        self.reuse = reuse
        self.search: Search | None = None
        if config is not None and reuse:
            self.search = Search(game, state, config, seed=rng.randrange(2**62))

    def choose(self, state: State, legal: Any) -> tuple[Any, int]:
        """The action to play and the root visits behind it (0 for a random move)."""
        if self.config is None:
            return legal[int(self.rng.random() * len(legal))], 0
        search = self.search
        if search is None:  # no reuse: a fresh tree for this decision
            search = Search(self.game, state, self.config, seed=self.rng.randrange(2**62))
        search.run(iterations=self.iterations)
        return search.best_action(), search.root.visits

    def observe(self, action: Action, outcome: Outcome) -> None:
        """Move the kept tree's root along the real move (no-op without a kept tree)."""
        if self.search is not None:
            self.search.advance(action, outcome)


def _play_one(
    game: AnyGame,
    *,
    index: int,
    side: int,
    iterations: int,
    config: SearchConfig,
    opponent: str,
    opponent_config: SearchConfig,
    opponent_iterations: int,
    seed: int,
    reuse: bool,
) -> GameRecord:
    rng = random.Random(seed)  # chance outcomes of real moves
    state = game.initial_state()
    mcts = _Player(game, state, config, iterations, random.Random(rng.randrange(2**62)), reuse)
    other = _Player(
        game,
        state,
        opponent_config if opponent == "mcts" else None,
        opponent_iterations,
        random.Random(rng.randrange(2**62)),
        reuse,
    )
    players = (mcts, other) if side == 0 else (other, mcts)
    decisions = 0
    root_visits = 0
    actions = 0
    while not game.is_terminal(state):
        if actions >= MAX_ACTIONS_PER_GAME:
            raise RuntimeError(
                f"{game.name}: an arena game did not end within {MAX_ACTIONS_PER_GAME:,} actions"
            )
        mover = game.current_player(state)
        legal = game.legal_actions(state)
        if len(legal) == 1:
            action = legal[0]  # nothing to decide
        else:
            action, visits = players[mover].choose(state, legal)
            if mover == side:
                decisions += 1
                root_visits += visits
        outcomes = game.chance_outcomes(state, action)
        outcome = outcomes[sample_outcome(outcomes, rng)][0]
        for player in players:
            player.observe(action, outcome)
        state = game.next_state(state, action, outcome)
        actions += 1
    returns = game.returns(state)
    result = 1 if returns[side] > 0 else -1 if returns[side] < 0 else 0
    score = _score_function(game)
    tds = tuple(score(state)) if score is not None else None
    return GameRecord(
        index=index,
        mcts_side=side,
        result=result,
        mcts_tds=None if tds is None else int(tds[side]),
        opponent_tds=None if tds is None else int(tds[1 - side]),
        decisions=decisions,
        actions=actions,
        mean_root_visits=root_visits / decisions if decisions else 0.0,
    )


def table_columns(
    result: ArenaResult, rollouts: str = "", env: str = ""
) -> list[tuple[str, str, str]]:
    """The tutorial's table's columns: (heading, cell, alignment), in its order.

    ``rollouts`` and ``env`` fill the tutorial's first two columns (e.g. "none", "1").
    """
    n = result.games_per_side
    return [
        ("Rollouts", rollouts or "-", "<"),
        ("Env", env or result.game, "<"),
        ("Home Wins", f"{result.home_wins}/{n}", ">"),
        ("Home TDs", str(result.home_tds), ">"),
        ("Away Wins", f"{result.away_wins}/{n}", ">"),
        ("Away TDs", str(result.away_tds), ">"),
        ("Total Wins", f"{result.total_wins}/{result.games}", ">"),
        ("Total TDs", str(result.total_tds), ">"),
        ("AVG Wins", f"{result.total_wins / result.games:.2f}", ">"),
        ("AVG TDs", f"{result.total_tds / result.games:.2f}", ">"),
        ("Iterations", str(result.iterations_per_decision), ">"),
    ]


def table_notes(result: ArenaResult) -> list[str]:
    """The lines under the table: draws and losses, decisions, time; no touchdowns."""
    opponent = result.opponent
    if result.opponent == "mcts":
        opponent += f" ({result.opponent_iterations} iterations)"
    notes = [
        f"vs {opponent}; draws {result.draws} (home {result.home_draws}, away "
        f"{result.away_draws}); losses {result.home_losses + result.away_losses} (home "
        f"{result.home_losses}, away {result.away_losses}); {result.decisions:,} decisions, "
        f"mean root visits {result.mean_root_visits:,.0f} "
        f"({'tree reuse' if result.reuse else 'fresh tree per decision'}); "
        f"{result.seconds:.1f} s"
    ]
    if not result.has_score:
        notes.append(f"{result.game} has no touchdowns: the TD columns are 0")
    return notes


def format_table(result: ArenaResult, rollouts: str = "", env: str = "") -> str:
    """The tutorial's table as text: a header and one row, then a line on draws and losses.

    ``rollouts`` and ``env`` fill the tutorial's first two columns (e.g. "none", "1").
    """
    columns = table_columns(result, rollouts, env)
    widths = [max(len(head), len(cell)) for head, cell, _ in columns]
    head = "  ".join(f"{h:{a}{w}}" for (h, _, a), w in zip(columns, widths, strict=True))
    row = "  ".join(f"{c:{a}{w}}" for (_, c, a), w in zip(columns, widths, strict=True))
    return "\n".join([head, row, *table_notes(result)])
