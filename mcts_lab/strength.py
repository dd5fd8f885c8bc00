"""Playing strength on positions with known exact values: the value-preserving rate.

A move *preserves the value* of a position when its exact value (see :mod:`mcts_lab.exact`)
equals the best move's: a won position stays won, a drawn one drawn. The rate is the share of
searches whose chosen move does that, over a set of positions and seeds. It measures only
positions where some move loses value (elsewhere every move preserves it).

The sets ship with the package in ``mcts_lab/positions/`` (``tic_tac_toe.json``,
``connect_four.json``), made by ``scripts/make_positions.py``; each lists positions with every
legal move's exact value. ``scripts/measure_strength.py`` prints the rate for a preset or
settings.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from importlib import resources
from typing import Any

from mcts_core import Search, SearchConfig
from mcts_lab.common import action_index, build_game
from mcts_lab.exact import VALUE_TOLERANCE

__all__ = [
    "ExactPosition",
    "Miss",
    "StrengthResult",
    "POSITION_SETS",
    "load_positions",
    "positions_from_dict",
    "value_preserving_rate",
]

#: Games with a position set in ``mcts_lab/positions/<game>.json``.
POSITION_SETS = ("tic_tac_toe", "connect_four")


@dataclass(frozen=True)
class ExactPosition:
    """A position string and every legal move's exact value for the player to move.

    ``values`` maps the action index (tic-tac-toe: the cell 0..8; Connect Four: the 0-based
    column 0..6; other games: the index in ``legal_actions``) to 1 win, 0 draw, -1 loss.
    """

    position: str
    values: Mapping[int, float]

    @property
    def best(self) -> float:
        """The position's value: the best move's."""
        return max(self.values.values())

    def preserves(self, index: int) -> bool:
        """Whether the move with this index keeps the position's value."""
        value = self.values.get(index)
        return value is not None and value >= self.best - VALUE_TOLERANCE

    def to_dict(self) -> dict[str, object]:
        return {
            "position": self.position,
            "values": {str(k): _compact(v) for k, v in sorted(self.values.items())},
        }


@dataclass(frozen=True)
class Miss:
    """A search whose chosen move lost value."""

    position: str
    seed: int
    chosen: int
    chosen_value: float
    best: float


@dataclass
class StrengthResult:
    """What :func:`value_preserving_rate` measured."""

    game: str
    iterations: int
    seeds: tuple[int, ...]
    config: dict[str, Any]
    positions: int
    searches: int
    preserved: int
    seconds: float
    misses: list[Miss] = field(default_factory=list)

    @property
    def rate(self) -> float:
        """Share of searches whose chosen move kept the position's exact value."""
        return self.preserved / self.searches if self.searches else math.nan

    def to_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["seeds"] = list(self.seeds)
        data["rate"] = self.rate
        return data


def positions_from_dict(data: Mapping[str, Any]) -> list[ExactPosition]:
    """The positions of a set as stored in ``mcts_lab/positions/<game>.json``."""
    return [
        ExactPosition(entry["position"], {int(k): float(v) for k, v in entry["values"].items()})
        for entry in data["positions"]
    ]


def load_positions(game_name: str) -> list[ExactPosition]:
    """The packaged position set of ``game_name`` (see :data:`POSITION_SETS`)."""
    if game_name not in POSITION_SETS:
        raise ValueError(
            f"no position set for {game_name!r}; there are sets for {', '.join(POSITION_SETS)}"
        )
    text = resources.files("mcts_lab").joinpath("positions", f"{game_name}.json").read_text()
    return positions_from_dict(json.loads(text))


def value_preserving_rate(
    game_name: str,
    positions: Sequence[ExactPosition | Mapping[str, Any]] | None,
    config_overrides: Mapping[str, Any],
    iterations: int,
    seeds: Iterable[int],
    workers: int = 1,
) -> StrengthResult:
    """Search every position with every seed; count the chosen moves that keep the value.

    Args:
        game_name: ``tic_tac_toe``, ``connect_four`` (or any game whose positions are given).
        positions: :class:`ExactPosition` objects or their dicts (``{"position": ...,
            "values": {index: value}}``); ``None`` loads the packaged set of the game.
        config_overrides: :class:`SearchConfig` fields laid over the defaults (e.g.
            ``{"solver": True, "c": 1.0}``, or a preset's ``preset_overrides(name, game)``).
        iterations: iterations per search.
        seeds: one fresh search per position and seed.
        workers: processes to share the positions among (1: this process). Every search is
            seeded, so the result does not depend on it (only ``seconds`` does).

    Returns:
        A :class:`StrengthResult`; ``rate`` is preserved / searches, ``misses`` lists the
        searches that lost value.
    """
    build_game(game_name)  # an unknown game fails here, before any worker starts
    config = SearchConfig(**dict(config_overrides))
    seed_list = tuple(seeds)
    if not seed_list:
        raise ValueError("give at least one seed")
    if positions is None:
        positions = load_positions(game_name)
    items = [p if isinstance(p, ExactPosition) else positions_from_dict({"positions": [p]})[0]
             for p in positions]  # fmt: skip
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1, got {workers!r}")
    start = time.perf_counter()
    if workers == 1 or len(items) < 2:
        searches, preserved, misses = _search_positions(
            game_name, items, config, iterations, seed_list
        )
    else:
        # interleaved shares: neighbouring positions (similar cost) go to different workers
        shares = [items[w::workers] for w in range(workers)]
        with multiprocessing.Pool(workers) as pool:
            parts = pool.starmap(
                _search_positions,
                [(game_name, share, config, iterations, seed_list) for share in shares],
            )
        searches = sum(p[0] for p in parts)
        preserved = sum(p[1] for p in parts)
        order = {item.position: i for i, item in enumerate(items)}
        misses = sorted((m for p in parts for m in p[2]), key=lambda m: (order[m.position], m.seed))
    return StrengthResult(
        game=game_name,
        iterations=iterations,
        seeds=seed_list,
        config=config.to_dict(),
        positions=len(items),
        searches=searches,
        preserved=preserved,
        seconds=time.perf_counter() - start,
        misses=misses,
    )


def _search_positions(
    game_name: str,
    items: Sequence[ExactPosition],
    config: SearchConfig,
    iterations: int,
    seeds: Sequence[int],
) -> tuple[int, int, list[Miss]]:
    """Searches, value-keeping searches and misses over ``items`` x ``seeds`` (one worker)."""
    game = build_game(game_name)
    searches = preserved = 0
    misses: list[Miss] = []
    for item in items:
        state = game.parse_state(item.position)
        for seed in seeds:
            search = Search(game, state, config, seed=seed)
            search.run(iterations=iterations)
            chosen = action_index(game, state, search.best_action())
            searches += 1
            if item.preserves(chosen):
                preserved += 1
            else:
                misses.append(
                    Miss(item.position, seed, chosen, item.values.get(chosen, math.nan), item.best)
                )
    return searches, preserved, misses


def _compact(value: float) -> float | int:
    """1.0 -> 1 in the JSON files (exact values of deterministic games are whole)."""
    return int(value) if value == int(value) else value
