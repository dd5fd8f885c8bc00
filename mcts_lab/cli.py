"""The ``mcts-lab`` command line: ``search``, ``tree``, ``bench`` and ``arena``.

Its flags and JSON fields are a stable interface (docs/cli.md): add, never rename. Bad input
exits with status 2 and one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from games import GAME_NAMES
from mcts_core import (
    Search,
    SearchConfig,
    format_tree,
    tree_to_dot,
    tree_to_json,
)
from mcts_core.config import (
    EXPANSION_ORDERS,
    FINAL_POLICIES,
    PRIORS,
    ROLLOUT_HORIZONS,
    ROLLOUT_POLICIES,
    TREE_POLICIES,
    VALUE_RANGES,
)
from mcts_lab import arena, bench
from mcts_lab.common import action_index, build_game, children_rows

__all__ = ["main"]

MAX_ITERATIONS = 10_000_000


class UsageError(Exception):
    """Bad input: reported in one line with exit status 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


def _whole(low: int, high: int):  # noqa: ANN202 - an argparse type
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value:,} is not in [{low:,}, {high:,}]")
        return value

    return parse


def _number(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{text!r} is not a finite number")
    return value


def _game_options(p: argparse.ArgumentParser, default_game: str | None = None) -> None:
    p.add_argument(
        "--game", choices=GAME_NAMES, required=default_game is None, default=default_game
    )
    p.add_argument(
        "--size",
        type=int,
        choices=(1, 3, 5),
        default=1,
        help="gridiron preset: 1 v 1, 3 v 3 or 5 v 5",
    )


def _search_options(p: argparse.ArgumentParser) -> None:
    _game_options(p)
    p.add_argument("--position", default=None, help="position string (default: the start)")
    p.add_argument(
        "--positions-file",
        default=None,
        help="search every position in this file (one per line), JSON Lines out",
    )
    p.add_argument("--iterations", type=_whole(1, MAX_ITERATIONS), default=1000)
    p.add_argument(
        "--seconds",
        type=_number,
        default=None,
        help="time budget (with or instead of --iterations)",
    )
    p.add_argument("--seed", type=_whole(0, 2**62), default=0)
    p.add_argument("--c", type=_number, default=1.4, help="exploration constant")
    p.add_argument("--policy", choices=TREE_POLICIES, default="uct")
    p.add_argument("--prior", choices=PRIORS, default="uniform", help="PUCT priors")
    p.add_argument("--min-visits", type=_whole(0, 1_000_000), default=0)
    p.add_argument("--expansion", choices=EXPANSION_ORDERS, default="listed")
    p.add_argument("--rollout", choices=ROLLOUT_POLICIES, default="random")
    p.add_argument("--epsilon", type=_number, default=0.1)
    p.add_argument(
        "--depth",
        type=_whole(0, 1_000_000),
        default=None,
        help="rollout depth limit (0: heuristic at the leaf, no rollout)",
    )
    p.add_argument("--horizon", choices=ROLLOUT_HORIZONS, default="game")
    p.add_argument("--win", type=_number, default=1.0)
    p.add_argument("--draw", type=_number, default=0.0)
    p.add_argument("--loss", type=_number, default=-1.0)
    p.add_argument("--heuristic-weight", type=_number, default=1.0)
    p.add_argument("--value-range", choices=VALUE_RANGES, default="symmetric")
    p.add_argument("--final", choices=FINAL_POLICIES, default="most_visited")
    p.add_argument("--solver", action="store_true")
    p.add_argument("--max-nodes", type=_whole(2, 100_000_000), default=500_000)


def _config(args: argparse.Namespace) -> SearchConfig:
    return SearchConfig(
        c=args.c,
        tree_policy=args.policy,
        prior=args.prior,
        min_visits=args.min_visits,
        expansion_order=args.expansion,
        rollout=args.rollout,
        epsilon=args.epsilon,
        rollout_depth=args.depth,
        rollout_horizon=args.horizon,
        win_value=args.win,
        draw_value=args.draw,
        loss_value=args.loss,
        heuristic_weight=args.heuristic_weight,
        value_range=args.value_range,
        final_policy=args.final,
        solver=args.solver,
        max_nodes=args.max_nodes,
    )


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="mcts-lab", description="Monte Carlo Tree Search, explained.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    search = sub.add_parser("search", help="search a position and summarise the root")
    _search_options(search)
    search.add_argument("--json", action="store_true", help="one JSON object (documented)")

    tree = sub.add_parser("tree", help="search a position and print the tree")
    _search_options(tree)
    tree.add_argument("--format", choices=("xml", "json", "dot"), default="xml")
    tree.add_argument("--max-depth", type=_whole(0, 1000), default=3)
    tree.add_argument("--max-children", type=_whole(1, 10_000), default=10)

    b = sub.add_parser("bench", help="simulations/second and bytes/simulation")
    _game_options(b, default_game="connect_four")
    b.add_argument("--iterations", type=_whole(1, MAX_ITERATIONS), default=5000)
    b.add_argument("--repeat", type=_whole(1, 1000), default=5)
    b.add_argument("--seed", type=_whole(0, 2**62), default=0)
    b.add_argument("--memory-iterations", type=_whole(1, MAX_ITERATIONS), default=50_000)
    b.add_argument("--compare", choices=("openspiel",), default=None)
    b.add_argument("--json", action="store_true")

    a = sub.add_parser("arena", help="MCTS against an opponent, as home and as away")
    _game_options(a)
    a.add_argument("--games", type=_whole(1, arena.MAX_GAMES), default=20, help="games per side")
    a.add_argument("--iterations", type=_whole(1, MAX_ITERATIONS), default=200)
    a.add_argument("--rollout", choices=arena.ROLLOUTS, default="none")
    a.add_argument("--opponent", choices=arena.OPPONENTS, default="random")
    a.add_argument("--seed", type=_whole(0, 2**62), default=0)
    a.add_argument("--expansion", choices=EXPANSION_ORDERS, default="listed")
    a.add_argument("--c", type=_number, default=1.4)
    a.add_argument("--opponent-c", type=_number, default=None)
    a.add_argument("--opponent-iterations", type=_whole(1, MAX_ITERATIONS), default=None)
    a.add_argument("--json", action="store_true")
    return parser


# ------------------------------------------------------------------ commands


def _run_search(args: argparse.Namespace, position: str | None) -> tuple[Any, Search, Any]:
    game = build_game(args.game, args.size)
    state = game.initial_state() if position is None else game.parse_state(position)
    search = Search(game, state, _config(args), seed=args.seed)
    result = None
    if not game.is_terminal(state):
        iterations = args.iterations if args.seconds is None else None
        if args.seconds is not None and not 0 < args.seconds <= 3600:
            raise ValueError(f"--seconds must be in (0, 3600], got {args.seconds}")
        result = search.run(iterations=iterations, seconds=args.seconds)
    return game, search, result


def _search_summary(args: argparse.Namespace, position: str | None) -> dict[str, Any]:
    game, search, result = _run_search(args, position)
    state = search.root_state
    data: dict[str, Any] = {
        "game": game.name,
        "position": game.format_state(state),
        "root_player": None if game.is_terminal(state) else game.current_player(state),
        "iterations": search.iterations,
        "seconds": round(result.seconds, 6) if result else 0.0,
        "iterations_per_second": (
            round(result.iterations / result.seconds, 1) if result and result.seconds else 0.0
        ),
        "nodes": search.node_count,
        "max_depth": search.max_depth,
        "best_action": None,
        "best_action_index": None,
        "children": children_rows(search),
        "final_choices": {},
        "config": search.config.to_dict(),
    }
    if game.is_terminal(state):
        data["note"] = "the position is already over: there is no move to choose"
        return data
    best = search.best_child()
    data["best_action"] = best.label
    data["best_action_index"] = action_index(game, state, best.action)
    data["final_choices"] = {name: c.label for name, c in search.final_choices().items()}
    if result and result.message:
        data["note"] = result.message
    return data


def _print_summary(data: dict[str, Any]) -> None:
    print(
        f"{data['game']} at {data['position'] or '(start)'!r}: {data['iterations']:,} "
        f"iterations in {data['seconds']:.3f} s ({data['iterations_per_second']:,.0f}/s), "
        f"{data['nodes']:,} nodes, depth {data['max_depth']}"
    )
    if data.get("note"):
        print(data["note"])
    if data["best_action"] is None:
        return
    print(
        f"best move: {data['best_action']}  (final policies: "
        + ", ".join(f"{k} {v}" for k, v in data["final_choices"].items())
        + ")"
    )
    print(f"{'move':<24} {'visits':>8} {'value':>8}  proven   (value: root mover's view, -1..1)")
    for child in sorted(data["children"], key=lambda c: -c["visits"]):
        print(
            f"{child['action']:<24} {child['visits']:>8} {child['value']:>+8.3f}  "
            f"{child['proven'] or ''}"
        )


def _positions(path: str) -> list[str]:
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError as error:
        raise UsageError(f"cannot read positions file {path!r}: {error.strerror}") from None
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def cmd_search(args: argparse.Namespace) -> int:
    if args.positions_file is not None:
        status = 0
        for position in _positions(args.positions_file):
            try:
                data = _search_summary(args, position)
            except ValueError as error:
                data = {"game": args.game, "position": position, "error": str(error)}
                status = 1
            print(json.dumps(data), flush=True)
        return status
    data = _search_summary(args, args.position)
    if args.json:
        print(json.dumps(data))
    else:
        _print_summary(data)
    return 0


def cmd_tree(args: argparse.Namespace) -> int:
    _, search, _ = _run_search(args, args.position)
    export = {"xml": format_tree, "json": tree_to_json, "dot": tree_to_dot}[args.format]
    print(export(search, max_depth=args.max_depth, max_children=args.max_children))
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    if args.compare == "openspiel":
        if args.game not in bench.OPENSPIEL_NAMES:
            raise UsageError(
                f"OpenSpiel has no {args.game}; compare on tic_tac_toe or connect_four"
            )
        if not bench.openspiel_available():
            raise UsageError("open_spiel is not installed: pip install -e '.[openspiel]'")
    game = build_game(args.game, args.size)
    if args.game == "gridiron":
        configs = [
            ("heuristic leaf", SearchConfig(c=1.4, rollout_depth=0)),
            ("rollout to end of turn", SearchConfig(c=1.4, rollout_horizon="turn")),
        ]
    else:
        configs = [("random rollouts", SearchConfig(c=1.4))]
    rows = []
    for label, config in configs:
        for record in (False, True):
            rows.append(
                bench.simulations_per_second(
                    game,
                    config,
                    iterations=args.iterations,
                    repeat=args.repeat,
                    seed=args.seed,
                    record=record,
                    name=f"MCTS Lab, {label}, {'with' if record else 'no'} traces",
                )
            )
    theirs = None
    if args.compare == "openspiel":
        theirs = bench.openspiel_rate(
            args.game, iterations=args.iterations, repeat=args.repeat, seed=args.seed
        )
    memory = bench.bytes_per_simulation(
        game, configs[0][1], iterations=args.memory_iterations, seed=args.seed
    )
    if args.json:
        print(
            json.dumps(
                {
                    "game": args.game,
                    "iterations": args.iterations,
                    "repeat": args.repeat,
                    "rates": [
                        {
                            "name": m.name,
                            "median": round(m.median, 1),
                            "runs": [round(r, 1) for r in m.runs],
                        }
                        for m in rows
                    ],
                    "openspiel": None if theirs is None else round(theirs.median, 1),
                    "ratio": None if theirs is None else round(rows[0].median / theirs.median, 2),
                    "bytes_per_simulation": round(memory, 1),
                    "memory_iterations": args.memory_iterations,
                }
            )
        )
        return 0
    print(
        f"{args.game}: {args.iterations:,} simulations x {args.repeat} repeats, C = 1.4, "
        "from the initial position (median simulations/second)"
    )
    for m in rows + ([theirs] if theirs else []):
        print(f"  {m.name:<52} {m.median:>10,.0f}")
    if theirs is not None:
        ratio = rows[0].median / theirs.median
        print(f"  {'ratio (MCTS Lab, no traces / OpenSpiel)':<52} {ratio:>10.2f}x")
    print(f"  bytes per simulation ({args.memory_iterations:,}-simulation tree):{memory:>20,.0f}")
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    game = build_game(args.game, args.size)
    config = arena.rollout_config(args.rollout, c=args.c, expansion_order=args.expansion)
    opponent_config = None
    if args.opponent_c is not None:
        opponent_config = arena.rollout_config(
            args.rollout, c=args.opponent_c, expansion_order=args.expansion
        )
    result = arena.play_arena(
        game,
        games=args.games,
        iterations=args.iterations,
        config=config,
        opponent=args.opponent,
        opponent_config=opponent_config,
        opponent_iterations=args.opponent_iterations,
        seed=args.seed,
    )
    if args.json:
        data = result.to_dict()
        data["config"] = config.to_dict()
        data["rollout"] = args.rollout
        data["size"] = args.size if args.game == "gridiron" else None
        print(json.dumps(data))
    else:
        label = f"{args.rollout} rollout, {args.expansion}"
        print(arena.format_table(result, label))
    return 0


COMMANDS = {"search": cmd_search, "tree": cmd_tree, "bench": cmd_bench, "arena": cmd_arena}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (2 for bad input)."""
    try:
        args = _parser().parse_args(argv)
        return COMMANDS[args.command](args)
    except (UsageError, ValueError) as error:
        message = str(error).splitlines()[0] if str(error) else type(error).__name__
        print(f"mcts-lab: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("mcts-lab: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
