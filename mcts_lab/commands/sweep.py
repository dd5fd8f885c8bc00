"""``mcts-lab sweep``: one search setting over several values, each an arena, with confidence
intervals (``mcts_lab.sweep.sweeps`` runs them)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable

from mcts_lab import arena
from mcts_lab.commands.options import (
    MAX_GAMES,
    MAX_ITERATIONS,
    MAX_SEED,
    UsageError,
    game_options,
    quote,
    settings_from_flags,
    whole_number,
)
from mcts_lab.sweep import sweeps as sweep


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "sweep",
        help="one search parameter over several values, each an arena, with confidence intervals",
        allow_abbrev=False,
    )
    game_options(p)
    p.add_argument(
        "--param",
        required=True,
        help="the parameter: " + ", ".join(sweep.PARAMS) + " (the search flags without dashes)",
    )
    p.add_argument("--values", required=True, help="its values, comma-separated: 0.5,1,1.4,2")
    p.add_argument(
        "--games", type=whole_number(1, MAX_GAMES), default=20, help="games per side per value (20)"
    )
    p.add_argument(
        "--iterations",
        type=whole_number(1, MAX_ITERATIONS),
        default=200,
        help="MCTS iterations per decision (200)",
    )
    p.add_argument("--opponent", choices=arena.OPPONENTS, default="random")
    p.add_argument(
        "--opponent-iterations",
        type=whole_number(1, MAX_ITERATIONS),
        default=None,
        help="the opposing search's iterations per decision (default --iterations)",
    )
    p.add_argument(
        "--settings",
        default="",
        metavar="FLAGS",
        help='MCTS\'s base settings as search flags in one string, e.g. "--depth 0" '
        "(default: the search defaults); the swept value is laid over them",
    )
    p.add_argument(
        "--opponent-settings",
        default=None,
        metavar="FLAGS",
        help="the opposing search's settings (default: --settings; needs --opponent mcts)",
    )
    p.add_argument("--no-reuse", action="store_true", help="a fresh tree for every decision")
    p.add_argument(
        "--seed", type=whole_number(0, MAX_SEED), default=0, help="random seed (default 0)"
    )
    p.add_argument(
        "--workers",
        type=whole_number(1, 1024),
        default=None,
        help="processes, or local Ray CPUs (default: all usable cores; 1: no pool)",
    )
    p.add_argument("--backend", choices=("process", "ray"), default="process")
    p.add_argument(
        "--address",
        default=None,
        metavar="HOST:PORT",
        help="a Ray cluster to run on (with --backend ray; default: a local Ray instance)",
    )
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--plot", default=None, metavar="FILE.svg", help="write an SVG chart")


def _progress_bar(label: str) -> Callable[[int, int], None] | None:
    """A progress bar on stderr for a person watching; scripts get a clean stderr."""
    if not sys.stderr.isatty():
        return None
    start = time.perf_counter()

    def show(done: int, total: int) -> None:
        filled = 30 * done // total
        elapsed = time.perf_counter() - start
        left = f", ~{elapsed * (total - done) / done:.0f} s left" if 0 < done < total else ""
        sys.stderr.write(
            f"\r{label} [{'#' * filled}{'.' * (30 - filled)}] {done}/{total} games, "
            f"{elapsed:.0f} s{left}   "
        )
        if done >= total:
            sys.stderr.write("\n")
        sys.stderr.flush()

    return show


def run(args: argparse.Namespace) -> int:
    param = sweep.resolve_param(args.param)
    values = sweep.parse_values(param, args.values)
    if args.opponent != "mcts" and (
        args.opponent_settings is not None or args.opponent_iterations is not None
    ):
        raise UsageError("--opponent-settings and --opponent-iterations need --opponent mcts")
    if args.address is not None and args.backend != "ray":
        raise UsageError("--address is for --backend ray")
    if args.address is not None and not args.address.strip():
        raise UsageError("--address is empty; give HOST:PORT (or auto)")
    if args.plot is not None:
        folder = os.path.dirname(os.path.abspath(args.plot))
        if not args.plot.lower().endswith(".svg"):
            raise UsageError(
                f"--plot writes SVG: give a file name ending in .svg, not {quote(args.plot)}"
            )
        if not os.path.isdir(folder) or not os.access(folder, os.W_OK):
            raise UsageError(f"--plot: cannot write in {quote(folder)}")
    config = settings_from_flags(args.settings, args.game, "--settings")
    opponent_config = (
        settings_from_flags(args.opponent_settings, args.game, "--opponent-settings")
        if args.opponent_settings is not None
        else None
    )
    try:
        result = sweep.run_sweep(
            args.game,
            size=args.size,
            param=param,
            values=values,
            games=args.games,
            iterations=args.iterations,
            config=config,
            opponent=args.opponent,
            opponent_config=opponent_config,
            opponent_iterations=args.opponent_iterations,
            seed=args.seed,
            reuse=not args.no_reuse,
            backend=args.backend,
            workers=args.workers,
            address=args.address,
            progress=_progress_bar(f"mcts-lab sweep {param.name}"),
        )
    except sweep.BackendUnavailable as error:
        raise UsageError(str(error)) from None
    if args.plot is not None:
        try:
            with open(args.plot, "w", encoding="utf-8") as handle:
                handle.write(sweep.sweep_svg(result))
        except OSError as error:
            raise UsageError(f"--plot: cannot write {quote(args.plot)}: {error.strerror}") from None
    if args.json:
        print(json.dumps({**result.to_dict(), "plot": args.plot}))
    else:
        print(sweep.format_sweep(result) + (f"\nplot: {args.plot}" if args.plot else ""))
    return 0
