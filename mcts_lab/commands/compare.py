"""``mcts-lab compare``: two settings in lockstep, where their selection paths first part and why
(``mcts_lab.compare.searches`` runs and reports)."""

from __future__ import annotations

import argparse
import json

from mcts_lab.commands.options import (
    MAX_SEED,
    SETTINGS_HELP,
    game_options,
    settings_from_flags,
    whole_number,
)
from mcts_lab.common import build_game, parse_position
from mcts_lab.compare import searches as compare


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "compare",
        help="two settings in lockstep: where their selection paths first part, and why",
        allow_abbrev=False,
    )
    game_options(p)
    p.add_argument("--position", default=None, help="position string (default: the start)")
    p.add_argument(
        "--iterations",
        type=whole_number(1, compare.MAX_COMPARE_ITERATIONS),
        default=200,
        help="iterations of each search (default 200)",
    )
    p.add_argument("--seed", type=whole_number(0, MAX_SEED), default=0, help="both searches' seed")
    p.add_argument("--a", default="", metavar="FLAGS", help=SETTINGS_HELP.format(name="a"))
    p.add_argument("--b", default="", metavar="FLAGS", help=SETTINGS_HELP.format(name="b"))
    p.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    game = build_game(args.game, args.size)
    state = parse_position(game, args.position, args.seed)
    config_a = settings_from_flags(args.a, args.game, "--a")
    config_b = settings_from_flags(args.b, args.game, "--b")
    result = compare.compare_searches(
        game, state, config_a, config_b, iterations=args.iterations, seed=args.seed
    )
    if args.json:
        print(json.dumps({**result.to_dict(), "flags": {"a": args.a, "b": args.b}}))
    else:
        print(compare.format_comparison(result, args.a, args.b))
    return 0
