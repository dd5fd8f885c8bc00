"""Measure playing strength: the value-preserving rate on positions with exact values.

    python scripts/measure_strength.py --game G --iterations N [--preset NAME]
                                       [--set key=value ...] [--seeds K] [--limit M]
                                       [--min-stones S] [--workers W] [--json]

Searches every position of the game's set in ``mcts_lab/positions/`` (tic_tac_toe: all 3,191
with a losing move, every symmetric version; connect_four: see its file) once per seed
0..K-1 and prints the share of searches whose chosen move keeps the position's exact value
(see mcts_lab/strength.py). Settings: the defaults, then
``--preset`` (mcts_lab/presets.py), then every ``--set FIELD=VALUE`` (a SearchConfig field:
``--set c=1.0 --set solver=true --set rollout_depth=none``).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcts_core import SearchConfig
from mcts_lab.presets import PRESET_NAMES, preset_overrides
from mcts_lab.strength import POSITION_SETS, load_positions, value_preserving_rate


def parse_setting(text: str) -> tuple[str, Any]:
    """``key=value`` -> (key, value): true/false, none, a whole number, a number, else text."""
    key, sep, raw = text.partition("=")
    key = key.strip().replace("-", "_")
    if not sep or not key:
        raise argparse.ArgumentTypeError(f"{text!r} is not key=value")
    raw = raw.strip()
    value: Any
    if raw.lower() in ("true", "false"):
        value = raw.lower() == "true"
    elif raw.lower() == "none":
        value = None
    else:
        try:
            value = int(raw)
        except ValueError:
            try:
                value = float(raw)
            except ValueError:
                value = raw
    return key, value


def stones(game: str, position: str) -> int:
    """Stones on the board of a position string (tic-tac-toe: marks; Connect Four: moves)."""
    return len(position) - position.count(".") if game == "tic_tac_toe" else len(position)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=POSITION_SETS, required=True)
    parser.add_argument("--iterations", type=int, required=True, help="iterations per search")
    parser.add_argument("--preset", choices=PRESET_NAMES, default=None)
    parser.add_argument(
        "--set",
        dest="settings",
        type=parse_setting,
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="a SearchConfig field, over the preset (repeatable)",
    )
    parser.add_argument("--seeds", type=int, default=3, help="seeds 0..K-1 per position (3)")
    parser.add_argument("--limit", type=int, default=None, help="only the first M positions")
    parser.add_argument(
        "--workers", type=int, default=1, help="processes sharing the positions (1)"
    )
    parser.add_argument(
        "--min-stones", type=int, default=None, help="only positions with this many stones or more"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    overrides: dict[str, Any] = preset_overrides(args.preset, args.game) if args.preset else {}
    overrides.update(dict(args.settings))
    try:
        SearchConfig(**overrides)
    except (TypeError, ValueError) as error:
        parser.error(f"bad settings {overrides}: {error}")
    if args.iterations < 1 or args.seeds < 1:
        parser.error("--iterations and --seeds must be at least 1")
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    positions = load_positions(args.game)
    if args.min_stones is not None:
        positions = [p for p in positions if stones(args.game, p.position) >= args.min_stones]
    positions = positions[: args.limit]
    result = value_preserving_rate(
        args.game, positions, overrides, args.iterations, range(args.seeds), args.workers
    )
    if args.json:
        data = result.to_dict()
        data.update(preset=args.preset, overrides=overrides)
        print(json.dumps(data))
        return 0
    label = args.preset or "defaults"
    if args.settings:
        label += " + " + ", ".join(f"{k}={v}" for k, v in args.settings)
    print(
        f"{args.game}, {label}, {args.iterations:,} iterations: value-preserving rate "
        f"{result.rate:.1%} ({result.preserved}/{result.searches} searches: "
        f"{result.positions} positions x {args.seeds} seeds) in {result.seconds:.1f} s"
    )
    for miss in result.misses[:10]:
        print(
            f"  lost value: {miss.position!r} seed {miss.seed}: played {miss.chosen} "
            f"({miss.chosen_value:+g}, best {miss.best:+g})"
        )
    if len(result.misses) > 10:
        print(f"  ... and {len(result.misses) - 10} more")
    return 0


if __name__ == "__main__":
    sys.exit(main())
