"""Sweeps: one search parameter over a list of values, each value an arena against one opponent.

For every value the sweep plays ``games`` games with MCTS at home and ``games`` away (the arena
of :mod:`mcts_lab.arena`), and reports win, draw and loss rates per side with 95% **Wilson score
intervals**. The swept value changes MCTS's settings only; the opponent keeps its own (a random
mover, or a search with the base settings).

Tasks and seeds
---------------
The games are split into independent tasks: task ``(value, i)`` plays game ``i`` with MCTS at
home and game ``i`` with MCTS away (``play_arena(games=1, seed=task_seed)``). A task's seed is
derived from the sweep's seed, the parameter, the value (its canonical text) and ``i`` alone
(:func:`task_seed`), so a value's games are the same whatever other values are swept, in
whatever order, on whatever backend and however many workers: the results are identical.

Backends
--------
- ``"serial"``: every task in this process, in order.
- ``"process"``: a local :class:`concurrent.futures.ProcessPoolExecutor` (``workers`` processes,
  default all usable cores; one worker means ``"serial"``). Workers start from a fork server
  (clean, without the caller's threads) where the platform has one, else they are spawned.
- ``"ray"``: Ray tasks, on a local Ray instance with ``workers`` CPUs, or on the cluster at
  ``address`` (``"HOST:PORT"``, ``"auto"``, ``"ray://HOST:10001"``), to which this package's
  code is shipped (``runtime_env`` ``py_modules``); its nodes need Python and numpy. Ray is an
  optional extra (``pip install -e '.[ray]'``), imported only here and only when asked for.
"""

from __future__ import annotations

import dataclasses
import hashlib
import html
import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from mcts_core import SearchConfig
from mcts_lab.arena import MAX_GAMES, OPPONENTS, GameRecord
from mcts_lab.common import game_size
from mcts_lab.settings import SETTINGS, SettingKind
from mcts_lab.sweep.backends import (
    BACKENDS,
    Backend,
    BackendUnavailable,
    Progress,
    SweepTask,
    default_workers,
    run_pool,
    run_ray,
    run_serial,
    run_task,
    task_game,
)
from mcts_lab.sweep.stats import (
    CONFIDENCE,
    Rates,
    SweepResult,
    ValueResult,
    rates_of,
    value_text,
    wilson_interval,
)

__all__ = [
    "BACKENDS",
    "BackendUnavailable",
    "CONFIDENCE",
    "MAX_VALUES",
    "PARAMS",
    "Rates",
    "SweepParam",
    "SweepResult",
    "SweepTask",
    "ValueResult",
    "default_workers",
    "format_sweep",
    "parse_values",
    "resolve_param",
    "run_sweep",
    "run_task",
    "sweep_svg",
    "task_seed",
    "wilson_interval",
]


MAX_VALUES = 100


MAX_ITERATIONS = 10_000_000


@dataclass(frozen=True)
class SweepParam:
    """A parameter a sweep can vary.

    Attributes:
        name: its name in ``--param``: the ``mcts-lab search`` flag without dashes (``c``,
            ``min-visits``, ``depth``) or ``iterations``.
        field: the :class:`SearchConfig` field it sets, or ``"iterations"`` (MCTS's iterations
            per decision).
        kind: how a value is read: "number", "whole", "whole_or_none" (``none``: no limit),
            "choice" (checked by ``SearchConfig``) or "switch" (``on``/``off``).
    """

    name: str
    field: str
    kind: SettingKind


PARAMS: dict[str, SweepParam] = {
    p.name: p
    for p in (
        *(SweepParam(s.flag, s.field, s.kind) for s in SETTINGS[:1]),  # c first
        SweepParam("iterations", "iterations", "whole"),
        *(SweepParam(s.flag, s.field, s.kind) for s in SETTINGS[1:]),
    )
}


_WHOLE = re.compile(r"[+-]?[0-9]+")


_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


_SWITCH = {"on": True, "true": True, "yes": True, "off": False, "false": False, "no": False}


def resolve_param(name: str) -> SweepParam:
    """The parameter called ``name``: a ``search`` flag name (``min-visits`` or
    ``min_visits``) or a :class:`SearchConfig` field (``rollout_depth``). ``ValueError`` names
    the choices otherwise."""
    key = name.strip().lstrip("-").replace("_", "-")
    if key in PARAMS:
        return PARAMS[key]
    for param in PARAMS.values():
        if param.field.replace("_", "-") == key:
            return param
    raise ValueError(
        f"unknown --param {name[:40]!r}; choose one of {', '.join(PARAMS)} "
        "(the search flags without dashes, or iterations)"
    )


def parse_values(param: SweepParam, text: str) -> tuple[Any, ...]:
    """The comma-separated values of ``param``, read and checked one by one (``ValueError``
    naming the bad one). Duplicates (``1`` and ``1.0`` for ``c``) and empty items are refused."""
    items = [item.strip() for item in text.split(",")]
    if not text.strip() or any(not item for item in items):
        raise ValueError(f"--values {text[:80]!r} has an empty item; give v1,v2,...")
    if len(items) > MAX_VALUES:
        raise ValueError(f"--values has {len(items)} items; at most {MAX_VALUES}")
    values: dict[str, Any] = {}
    for item in items:
        value = _read(param, item)
        key = value_text(value)
        if key in values:
            raise ValueError(f"--values: {param.name} {key} is given twice")
        values[key] = value
    return tuple(values.values())


def _read(param: SweepParam, item: str) -> Any:
    quoted = repr(item[:40])
    if param.kind == "number":
        if not _NUMBER.fullmatch(item) or not math.isfinite(float(item)):
            raise ValueError(f"--values: {quoted} is not a number (--param {param.name})")
        value: Any = float(item)
    elif param.kind == "whole" or (param.kind == "whole_or_none" and item.lower() != "none"):
        if not _WHOLE.fullmatch(item):
            hint = " or none" if param.kind == "whole_or_none" else ""
            raise ValueError(
                f"--values: {quoted} is not a whole number{hint} (--param {param.name})"
            )
        value = int(item)
    elif param.kind == "whole_or_none":
        value = None
    elif param.kind == "switch":
        if item.lower() not in _SWITCH:
            raise ValueError(f"--values: {quoted} is not on or off (--param {param.name})")
        value = _SWITCH[item.lower()]
    else:
        value = item
    if param.field == "iterations":
        if not 1 <= value <= MAX_ITERATIONS:
            raise ValueError(f"--values: iterations {value:,} is not in [1, {MAX_ITERATIONS:,}]")
    else:
        try:
            SearchConfig(**{param.field: value})
        except ValueError as error:
            raise ValueError(f"--values: {error}") from None
    return value


def _check_effect(param: SweepParam, config: SearchConfig) -> None:
    """Refuse a parameter that the base settings make irrelevant (every value would play the
    same games), with what to change."""
    field_name = param.field
    if field_name in ("rollout", "epsilon", "rollout_horizon") and config.rollout_depth == 0:
        raise ValueError(
            f"--param {param.name} has no effect: the settings value the leaf by the heuristic "
            "without a rollout (depth 0)"
        )
    if field_name == "epsilon" and config.rollout != "epsilon":
        raise ValueError(
            "--param epsilon has no effect unless the rollout is epsilon: add --settings "
            '"--rollout epsilon"'
        )
    if field_name == "prior" and config.tree_policy != "puct":
        raise ValueError(
            '--param prior has no effect unless the policy is puct: add --settings "--policy puct"'
        )


def task_seed(seed: int, param: str, value: Any, index: int) -> int:
    """The seed of task ``index`` of ``value``: a hash of the sweep's seed, the parameter's
    name, the value's canonical text and the game number, in [0, 2**62)."""
    key = f"{seed}/{param}/{value_text(value)}/{index}".encode()
    return int.from_bytes(hashlib.blake2b(key, digest_size=8).digest(), "big") >> 2


def run_sweep(
    game: str,
    *,
    param: str | SweepParam,
    values: Sequence[Any],
    games: int,
    iterations: int,
    config: SearchConfig | None = None,
    opponent: str = "random",
    opponent_config: SearchConfig | None = None,
    opponent_iterations: int | None = None,
    seed: int = 0,
    size: int | None = None,
    reuse: bool = True,
    backend: Backend = "process",
    workers: int | None = None,
    address: str | None = None,
    progress: Progress | None = None,
    seconds: float | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> SweepResult:
    """Play the sweep and gather its results.

    Args:
        game, size: the game by name (workers build their own copy) and the gridiron preset.
        param: the parameter (a name for :func:`resolve_param`, or a :class:`SweepParam`).
        values: its values, already read (see :func:`parse_values`).
        games: games per side per value, 1 .. 10,000.
        iterations: MCTS's iterations per decision (the swept value when ``param`` is
            ``iterations``).
        config: MCTS's base settings (default ``SearchConfig()``); the value is laid over it.
        opponent: "random" or "mcts"; ``opponent_config`` (default: the base settings, without
            the value) and ``opponent_iterations`` (default ``iterations``) set the opposing
            search.
        seed: the sweep's seed; see :func:`task_seed`.
        reuse: keep each searcher's tree between moves (the arena's tree reuse).
        backend: "serial", "process" or "ray"; ``workers``: processes or local Ray CPUs
            (default all usable cores); ``address``: a Ray cluster.
        progress: called as ``progress(games_done, games_total)``.
        seconds, should_stop: serial backend only: no new task starts after ``seconds`` or
            once ``should_stop()`` returns True (polled between tasks); the result's
            ``stopped`` says so. Tasks run game by game across the values (game 0 of every
            value, then game 1, ...), so a sweep stopped early has played about as many games
            for every value.
    """
    spec = param if isinstance(param, SweepParam) else resolve_param(param)
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}; got {backend!r}")
    if opponent not in OPPONENTS:
        raise ValueError(f"opponent must be one of {', '.join(OPPONENTS)}; got {opponent!r}")
    if not values:
        raise ValueError("give at least one value")
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ValueError(f"games must be a whole number in [1, {MAX_GAMES:,}], got {games!r}")
    if address is not None and backend != "ray":
        raise ValueError("an address is for the Ray backend (--backend ray)")
    workers = default_workers() if workers is None else workers
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"workers must be a whole number >= 1, got {workers!r}")
    serial = backend == "serial" or (backend == "process" and workers == 1)
    if (seconds is not None or should_stop is not None) and not serial:
        raise ValueError("seconds and should_stop bound the serial backend only")
    if seconds is not None and not seconds > 0:
        raise ValueError(f"seconds must be > 0, got {seconds!r}")
    base = config or SearchConfig()
    _check_effect(spec, base)
    built = task_game(game, size)  # a bad name or size fails here, before any worker starts
    tasks: list[SweepTask] = []
    settings: list[tuple[SearchConfig, int]] = []
    for value in values:
        if spec.field == "iterations":
            value_config, value_iterations = base, value
        else:
            value_config = dataclasses.replace(base, **{spec.field: value})
            value_iterations = iterations
        settings.append((value_config, value_iterations))
    for index in range(games):  # game by game across the values (see ``seconds``)
        for value_index, (value, (value_config, value_iterations)) in enumerate(
            zip(values, settings, strict=True)
        ):
            tasks.append(
                SweepTask(
                    game=game,
                    size=size,
                    value_index=value_index,
                    index=index,
                    seed=task_seed(seed, spec.name, value, index),
                    iterations=value_iterations,
                    config=value_config,
                    opponent=opponent,
                    opponent_config=(opponent_config or base) if opponent == "mcts" else None,
                    opponent_iterations=opponent_iterations or iterations,
                    reuse=reuse,
                )
            )
    start = time.perf_counter()
    stopped = ""
    workers = min(workers, len(tasks))
    if backend == "ray":
        outputs = run_ray(tasks, workers, address, progress)
    elif backend == "process" and workers > 1:
        outputs = run_pool(tasks, workers, progress)
    else:
        outputs, stopped = run_serial(tasks, progress, seconds, should_stop)
    elapsed = time.perf_counter() - start
    per_value: list[list[GameRecord]] = [[] for _ in values]
    for task, records in zip(tasks[: len(outputs)], outputs, strict=True):
        per_value[task.value_index].extend(records)
    results = []
    for value, (value_config, value_iterations), records in zip(
        values, settings, per_value, strict=True
    ):
        home = [r for r in records if r.mcts_side == 0]
        away = [r for r in records if r.mcts_side == 1]
        decisions = sum(r.decisions for r in records)
        visits = sum(r.mean_root_visits * r.decisions for r in records)
        results.append(
            ValueResult(
                value=value,
                config=value_config,
                iterations=value_iterations,
                home=rates_of(home),
                away=rates_of(away),
                total=rates_of(records),
                home_tds=sum(r.mcts_tds or 0 for r in home),
                away_tds=sum(r.mcts_tds or 0 for r in away),
                decisions=decisions,
                mean_root_visits=visits / decisions if decisions else 0.0,
                records=tuple(records),
            )
        )
    return SweepResult(
        game=built.name,
        size=game_size(built),
        param=spec.name,
        field=spec.field,
        games_per_side=games,
        iterations=iterations,
        opponent=opponent,
        opponent_iterations=(opponent_iterations or iterations) if opponent == "mcts" else None,
        seed=seed,
        reuse=reuse,
        # what ran: the serial backend, or a process backend of one worker, is one process
        backend="serial" if serial or (backend == "process" and workers == 1) else backend,
        workers=1 if serial else workers,
        tasks=len(tasks),
        seconds=elapsed,
        config=base,
        opponent_config=(opponent_config or base) if opponent == "mcts" else None,
        has_score=callable(getattr(built, "score", None)),
        results=tuple(results),
        stopped=stopped,
    )


def _percent(rates: Rates, name: str) -> str:
    count = {"win": rates.wins, "draw": rates.draws, "loss": rates.losses}[name]
    if not rates.games:  # a value a stopped sweep never reached
        return "no games"
    low, high = wilson_interval(count, rates.games)
    return f"{100 * count / rates.games:5.1f}% [{100 * low:4.1f}-{100 * high:5.1f}]"


def format_sweep(result: SweepResult) -> str:
    """The sweep as a text table: per value, MCTS's wins/draws/losses at home, away and in
    all, and the total win and loss rates with their 95% Wilson intervals."""
    against = result.opponent
    if result.opponent == "mcts":
        against += f" ({result.opponent_iterations} iterations, base settings)"
    iterations = "" if result.field == "iterations" else f", {result.iterations} iterations"
    lines = [
        f"sweep of {result.param} on {result.game}: {result.games_per_side} games per side per "
        f"value against {against}{iterations}, seed {result.seed}",
    ]
    labels = [value_text(r.value) for r in result.results]
    width = max(5, len(result.param), *(len(label) for label in labels))
    lines.append(
        f"{result.param:<{width}}  {'home W/D/L':>12}  {'away W/D/L':>12}  {'total W/D/L':>13}  "
        f"{'win rate [95% CI]':>20}  {'loss rate [95% CI]':>20}"
    )
    for label, r in zip(labels, result.results, strict=True):

        def wdl(rates: Rates) -> str:
            return f"{rates.wins}/{rates.draws}/{rates.losses}"

        lines.append(
            f"{label:<{width}}  {wdl(r.home):>12}  {wdl(r.away):>12}  {wdl(r.total):>13}  "
            f"{_percent(r.total, 'win'):>20}  {_percent(r.total, 'loss'):>20}"
        )
    lines.append(
        "intervals: 95% Wilson score intervals of each rate over the value's "
        f"{2 * result.games_per_side} games"
    )
    if result.stopped:
        played = sum(r.total.games for r in result.results) // 2
        lines.append(
            f"stopped early ({result.stopped}) after {played:,} of {result.tasks:,} tasks: the "
            "rates count the games played"
        )
    where = f"{result.backend}, {result.workers} worker{'s' * (result.workers != 1)}"
    lines.append(f"{result.tasks:,} tasks of 2 games ({where}); {result.seconds:.1f} s")
    return "\n".join(lines)


def sweep_svg(result: SweepResult, width: int = 640, height: int = 400) -> str:
    """An SVG chart of MCTS's win rate against the value, with 95% Wilson intervals as bars:
    all games (black), home (blue) and away (orange), the values evenly spaced in the order
    given. A plain string: the CLI writes it, a page can inline it."""
    left, right, top, bottom = 64, 20, 48, 64
    plot_w, plot_h = width - left - right, height - top - bottom
    count = len(result.results)

    def x_of(i: int) -> float:
        return left + plot_w * (i + 0.5) / count

    def y_of(rate: float) -> float:
        return top + plot_h * (1.0 - rate)

    title = (
        f"MCTS win rate vs {result.param} ({result.game}, {2 * result.games_per_side} games per "
        f"value vs {result.opponent}, seed {result.seed})"
    )
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">',
        f"<title>{html.escape(title)}</title>",
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="{width / 2:.1f}" y="20" text-anchor="middle" font-size="13">'
        f"{html.escape(title)}</text>",
    ]
    for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = y_of(tick)
        out.append(
            f'<line x1="{left}" y1="{y:.1f}" x2="{left + plot_w}" y2="{y:.1f}" stroke="#ddd"/>'
        )
        out.append(
            f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{int(tick * 100)}%</text>'
        )
    out.append(
        f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + plot_h}" stroke="black"/>'
        f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" '
        'stroke="black"/>'
    )
    out.append(
        f'<text transform="translate(16 {top + plot_h / 2:.1f}) rotate(-90)" '
        'text-anchor="middle">win rate (95% Wilson interval)</text>'
    )
    out.append(
        f'<text x="{left + plot_w / 2:.1f}" y="{height - 14}" text-anchor="middle">'
        f"{html.escape(result.param)}</text>"
    )
    series = (("all games", "total", "black", 0.0), ("home", "home", "#1f77b4", -9.0),
              ("away", "away", "#ff7f0e", 9.0))  # fmt: skip
    for i, r in enumerate(result.results):
        label = html.escape(value_text(r.value))
        out.append(
            f'<text x="{x_of(i):.1f}" y="{top + plot_h + 18}" text-anchor="middle">{label}</text>'
        )
        for name, attribute, colour, offset in series:
            rates: Rates = getattr(r, attribute)
            if not rates.games:  # a value a stopped sweep never reached: nothing to draw
                continue
            low, high = wilson_interval(rates.wins, rates.games)
            x = x_of(i) + offset
            tip = (
                f"{html.escape(result.param)} {label}, {name}: {rates.wins}/{rates.games} wins "
                f"({100 * rates.win_rate:.1f}%, 95% CI {100 * low:.1f}-{100 * high:.1f}%)"
            )
            out.append(
                f"<g><title>{tip}</title>"
                f'<line x1="{x:.1f}" y1="{y_of(low):.1f}" x2="{x:.1f}" y2="{y_of(high):.1f}" '
                f'stroke="{colour}" stroke-width="1.5"/>'
                f'<line x1="{x - 4:.1f}" y1="{y_of(low):.1f}" x2="{x + 4:.1f}" '
                f'y2="{y_of(low):.1f}" stroke="{colour}"/>'
                f'<line x1="{x - 4:.1f}" y1="{y_of(high):.1f}" x2="{x + 4:.1f}" '
                f'y2="{y_of(high):.1f}" stroke="{colour}"/>'
                f'<circle cx="{x:.1f}" cy="{y_of(rates.win_rate):.1f}" r="4" fill="{colour}"/>'
                "</g>"
            )
    legend_x = left + 8
    for k, (name, _, colour, _) in enumerate(series):
        x = legend_x + 110 * k
        out.append(
            f'<circle cx="{x}" cy="{top - 12}" r="4" fill="{colour}"/>'
            f'<text x="{x + 8}" y="{top - 8}">{name}</text>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"
