"""``mcts-lab tree``: search a position and print the tree (XML, JSON, DOT or mcts-trace)."""

from __future__ import annotations

import argparse

from mcts_core import format_tree, tree_to_dot, tree_to_json
from mcts_lab import traces
from mcts_lab.commands.options import search_options, whole_number
from mcts_lab.commands.search import run_search
from mcts_lab.common import build_game


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tree = sub.add_parser("tree", help="search a position and print the tree", allow_abbrev=False)
    search_options(tree, batch=False)
    tree.add_argument(
        "--format",
        choices=("xml", "json", "dot", "trace"),
        default="xml",
        help="xml, json, dot, or trace: the whole tree in the mcts-trace format (the limits "
        "below do not apply)",
    )
    tree.add_argument("--max-depth", type=whole_number(0, 1000), default=3)
    tree.add_argument("--max-children", type=whole_number(1, 10_000), default=10)


def run(args: argparse.Namespace) -> int:
    game = build_game(args.game, args.size)
    search, _ = run_search(args, game, args.position)
    if args.format == "trace":
        print(traces.dumps(traces.from_search(search)), end="")
        return 0
    export = {"xml": format_tree, "json": tree_to_json, "dot": tree_to_dot}[args.format]
    print(export(search, max_depth=args.max_depth, max_children=args.max_children))
    return 0
