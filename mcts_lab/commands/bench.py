"""``mcts-lab bench``: simulations a second and bytes a simulation, and the baselines timed
beside ours (``mcts_lab.bench.benchmark`` does the work)."""

from __future__ import annotations

import argparse
import json
import sys

from mcts_lab.bench import benchmark as bench
from mcts_lab.bench import runs as bench_runs
from mcts_lab.commands.options import (
    MAX_ITERATIONS,
    MAX_SEED,
    UsageError,
    game_options,
    preset_option,
    whole_number,
)
from mcts_lab.common import build_game


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    b = sub.add_parser("bench", help="simulations/second and bytes/simulation", allow_abbrev=False)
    game_options(b, default="connect_four")
    b.add_argument("--iterations", type=whole_number(1, MAX_ITERATIONS), default=5000)
    b.add_argument("--repeat", type=whole_number(1, 1000), default=5)
    b.add_argument("--seed", type=whole_number(0, MAX_SEED), default=0)
    b.add_argument("--memory-iterations", type=whole_number(1, MAX_ITERATIONS), default=50_000)
    b.add_argument(
        "--compare",
        choices=bench.BASELINES,
        action="append",
        default=None,
        help="time a baseline in alternating pairs with ours: textbook (a plain-Python UCT) "
        "or openspiel; repeatable",
    )
    b.add_argument(
        "--no-memory",
        dest="memory",
        action="store_false",
        help="skip the bytes/simulation pass (one untimed search of --memory-iterations)",
    )
    preset_option(b)
    b.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    compared = args.compare or []
    if "textbook" in compared and args.game not in bench_runs.TEXTBOOK_GAMES:
        raise UsageError(f"the textbook UCT plays tic_tac_toe and connect_four, not {args.game}")
    if "openspiel" in compared:
        if args.game not in bench_runs.OPENSPIEL_NAMES:
            raise UsageError(
                f"OpenSpiel has no {args.game}; compare on tic_tac_toe or connect_four"
            )
        if not bench_runs.openspiel_available():
            raise UsageError(f"open_spiel is not installed: {bench_runs.OPENSPIEL_INSTALL_HINT}")
    game = build_game(args.game, args.size)
    log = None
    if sys.stderr.isatty():  # progress for a person watching; scripts get clean stderr

        def log(text: str) -> None:
            print(f"mcts-lab bench: {text}", file=sys.stderr, flush=True)

    def announce(text: str) -> None:  # the long silent step is always announced
        print(f"mcts-lab bench: {text}", file=sys.stderr, flush=True)

    report = bench.run_bench(
        game,
        iterations=args.iterations,
        repeat=args.repeat,
        seed=args.seed,
        memory_iterations=args.memory_iterations,
        compare=compared,
        size=args.size or 1,
        log=log,
        preset=args.preset,
        memory=args.memory,
        announce=announce,
    )
    print(json.dumps(report.to_dict()) if args.json else bench.format_report(report))
    return 0
