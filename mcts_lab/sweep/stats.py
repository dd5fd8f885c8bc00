"""A sweep's statistics: win, draw and loss rates per side with 95% Wilson score intervals,
per value, and the sweep's result record."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

from mcts_core import SearchConfig
from mcts_lab.arena import GameRecord

#: The confidence of the intervals and its normal quantile.
CONFIDENCE = 0.95


_Z = 1.959963984540054


def value_text(value: object) -> str:
    """A value as a person and the seeds read it: ``0.5``, ``1000``, ``none``, ``on``."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:g}" if float(f"{value:g}") == value else repr(value)
    return str(value)


def wilson_interval(successes: int, trials: int, z: float = _Z) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% with the default ``z``).

    Unlike the normal approximation it stays inside [0, 1] and is not empty at 0 or
    ``trials`` successes: ``(centre - half, centre + half)`` with ``centre = (p + z²/2n) /
    (1 + z²/n)`` and ``half = z * sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n)``.
    """
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denominator = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass(frozen=True)
class Rates:
    """Results of MCTS in ``games`` games, with each rate's 95% Wilson interval."""

    games: int
    wins: int
    draws: int
    losses: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def to_dict(self) -> dict[str, object]:
        data: dict[str, object] = {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
        }
        for name, count in (("win", self.wins), ("draw", self.draws), ("loss", self.losses)):
            data[f"{name}_rate"] = round(count / self.games, 4) if self.games else 0.0
            low, high = wilson_interval(count, self.games)
            data[f"{name}_ci"] = [round(low, 4), round(high, 4)]
        return data


def rates_of(records: Sequence[GameRecord]) -> Rates:
    return Rates(
        games=len(records),
        wins=sum(r.result == 1 for r in records),
        draws=sum(r.result == 0 for r in records),
        losses=sum(r.result == -1 for r in records),
    )


@dataclass(frozen=True)
class ValueResult:
    """One value's games: MCTS's results at home, away and in all, and its touchdowns."""

    value: object
    config: SearchConfig
    iterations: int
    home: Rates
    away: Rates
    total: Rates
    home_tds: int
    away_tds: int
    decisions: int
    mean_root_visits: float
    records: tuple[GameRecord, ...] = field(repr=False, default=())

    def to_dict(self) -> dict[str, object]:
        return {
            "value": self.value,
            "label": value_text(self.value),
            "iterations": self.iterations,
            "home": self.home.to_dict(),
            "away": self.away.to_dict(),
            "total": self.total.to_dict(),
            "home_tds": self.home_tds,
            "away_tds": self.away_tds,
            "decisions": self.decisions,
            "mean_root_visits": round(self.mean_root_visits, 1),
            "config": self.config.to_dict(),
        }


@dataclass(frozen=True)
class SweepResult:
    """A whole sweep: the settings, and one :class:`ValueResult` per value in order."""

    game: str
    size: int | None
    param: str
    field: str
    games_per_side: int
    iterations: int
    opponent: str
    opponent_iterations: int | None
    seed: int
    reuse: bool
    backend: str
    workers: int
    tasks: int
    seconds: float
    config: SearchConfig
    opponent_config: SearchConfig | None
    has_score: bool
    results: tuple[ValueResult, ...]
    #: "" when every task ran; "time" or "stopped" when ``seconds`` or ``should_stop`` ended
    #: the sweep early (serial backend): the rates then count the games played
    stopped: str = ""

    def to_dict(self) -> dict[str, object]:
        """The ``mcts-lab sweep --json`` object (docs/cli.md)."""
        return {
            "game": self.game,
            "size": self.size,
            "param": self.param,
            "field": self.field,
            "values": [r.value for r in self.results],
            "games_per_side": self.games_per_side,
            "iterations": self.iterations,
            "opponent": self.opponent,
            "opponent_iterations": self.opponent_iterations,
            "seed": self.seed,
            "reuse": self.reuse,
            "backend": self.backend,
            "workers": self.workers,
            "tasks": self.tasks,
            "confidence": CONFIDENCE,
            "interval": "wilson",
            "has_score": self.has_score,
            "seconds": round(self.seconds, 3),
            "config": self.config.to_dict(),
            "opponent_config": None
            if self.opponent_config is None
            else self.opponent_config.to_dict(),
            "results": [r.to_dict() for r in self.results],
            "stopped": self.stopped,
        }
