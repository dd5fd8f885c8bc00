"""``mcts-lab arena``: MCTS against an opponent, as home and as away (``mcts_lab.arena`` plays)."""

from __future__ import annotations

import argparse
import json

from mcts_core import SearchConfig
from mcts_core.config import EXPANSION_ORDERS
from mcts_lab import arena
from mcts_lab.commands.options import (
    MAX_GAMES,
    MAX_ITERATIONS,
    MAX_SEED,
    UsageError,
    finite_number,
    game_options,
    preset_option,
    whole_number,
)
from mcts_lab.common import build_game, game_size
from mcts_lab.presets import preset_overrides


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    a = sub.add_parser(
        "arena", help="MCTS against an opponent, as home and as away", allow_abbrev=False
    )
    game_options(a)
    a.add_argument("--games", type=whole_number(1, MAX_GAMES), default=20, help="games per side")
    a.add_argument("--iterations", type=whole_number(1, MAX_ITERATIONS), default=200)
    preset_option(a)
    a.add_argument(
        "--rollout",
        choices=arena.ROLLOUTS,
        default=None,
        help="none (heuristic at the leaf; the default without --preset), turn or game",
    )
    a.add_argument("--opponent", choices=arena.OPPONENTS, default="random")
    a.add_argument("--seed", type=whole_number(0, MAX_SEED), default=0)
    a.add_argument("--expansion", choices=EXPANSION_ORDERS, default=None, help="(listed)")
    a.add_argument("--c", type=finite_number, default=None, help="exploration constant (1.4)")
    a.add_argument("--opponent-c", type=finite_number, default=None)
    a.add_argument("--opponent-iterations", type=whole_number(1, MAX_ITERATIONS), default=None)
    a.add_argument(
        "--no-reuse",
        action="store_true",
        help="a fresh tree per decision instead of keeping it with Search.advance",
    )
    a.add_argument("--json", action="store_true", help="print one JSON object")


def _arena_config(args: argparse.Namespace, game_name: str, c: float | None) -> SearchConfig:
    """The arena's search: the preset (if any), then the arena's own flags. Without a preset
    and without ``--rollout``, the arena's documented default is ``none``."""
    fields = preset_overrides(args.preset, game_name) if args.preset else {}
    if c is not None:
        fields["c"] = c
    if args.expansion is not None:
        fields["expansion_order"] = args.expansion
    rollout = args.rollout or (None if args.preset else "none")
    if rollout is None:
        return SearchConfig(**fields)
    for key in ("rollout_depth", "rollout_horizon"):  # --rollout decides these alone
        fields.pop(key, None)
    return arena.rollout_config(rollout, **fields)


def run(args: argparse.Namespace) -> int:
    if args.opponent != "mcts" and (
        args.opponent_c is not None or args.opponent_iterations is not None
    ):
        raise UsageError("--opponent-c and --opponent-iterations need --opponent mcts")
    game = build_game(args.game, args.size)
    config = _arena_config(args, game.name, args.c)
    opponent_config = None
    if args.opponent == "mcts":
        opponent_c = args.c if args.opponent_c is None else args.opponent_c
        opponent_config = _arena_config(args, game.name, opponent_c)
    result = arena.play_arena(
        game,
        games=args.games,
        iterations=args.iterations,
        config=config,
        opponent=args.opponent,
        opponent_config=opponent_config,
        opponent_iterations=args.opponent_iterations,
        seed=args.seed,
        reuse=not args.no_reuse,
    )
    size = game_size(game)
    if args.json:
        data = result.to_dict()
        data.update(
            rollout=args.rollout or ("preset" if args.preset else "none"),
            preset=args.preset,
            size=size,
            config=config.to_dict(),
            opponent_config=None if opponent_config is None else opponent_config.to_dict(),
        )
        print(json.dumps(data))
    else:
        env = str(size) if size is not None else game.name
        rollouts = args.rollout or (args.preset if args.preset else "none")
        print(arena.format_table(result, rollouts=rollouts, env=env))
    return 0
