"""The ``mcts-lab`` command line: ``search``, ``tree``, ``bench``, ``arena``, ``compare``,
``sweep`` and ``inspect``.

Its flags and JSON fields are a stable interface others script against (docs/cli.md): add,
never rename. Exit status: 0 done; 1 a ``--positions-file`` batch in which some line failed;
2 bad input (one line on stderr, ``mcts-lab: error: ...``, never a traceback); 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import shlex
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, NoReturn

from games import GAME_NAMES
from games.registry import game_spec, is_openspiel
from mcts_core import Search, SearchConfig, format_tree, tree_to_dot, tree_to_json
from mcts_core.config import (
    EXPANSION_ORDERS,
    FINAL_POLICIES,
    PRIORS,
    ROLLOUT_HORIZONS,
    ROLLOUT_POLICIES,
    TREE_POLICIES,
    VALUE_RANGES,
)
from mcts_lab import arena, bench, compare, inspection, sweep, traces
from mcts_lab.common import (
    CONFIG_OPTIONS,
    GAME_SIZES,
    build_config,
    build_game,
    check_game_name,
    game_size,
    parse_position,
    search_summary,
)
from mcts_lab.exact import add_exact
from mcts_lab.presets import PRESET_HELP, PRESET_NAMES, preset_overrides
from mcts_lab.traces.lab import write_run

__all__ = ["main", "build_parser", "MAX_ITERATIONS", "MAX_GAMES"]

#: Caps on sizes so a typo cannot start a week-long run or exhaust memory.
MAX_ITERATIONS = 10_000_000
MAX_GAMES = arena.MAX_GAMES
MAX_SECONDS = 3600.0
MAX_SEED = 2**62
DEFAULT_ITERATIONS = 1000


class UsageError(Exception):
    """Bad input: reported in one line with exit status 2."""


class _Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage and exiting, so ``main`` reports every
    bad input the same way (one line, status 2)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


# ---------------------------------------------------------------- argument types


#: How much of an offending value an error line quotes.
QUOTE_CHARS = 80
# ASCII digits only: int() and float() also take "1_000" and other scripts' digits ("١٢",
# full-width "１"), which nobody means in a seed or an iteration count.
_WHOLE = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def quote(text: str) -> str:
    """``text`` quoted for an error line, cut to ``QUOTE_CHARS`` characters."""
    if len(text) <= QUOTE_CHARS:
        return repr(text)
    return f"{text[:QUOTE_CHARS]!r}... ({len(text):,} characters)"


def _whole(low: int, high: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        if not _WHOLE.fullmatch(text.strip()):
            raise argparse.ArgumentTypeError(f"{quote(text)} is not a whole number")
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value:,} is not in [{low:,}, {high:,}]")
        return value

    parse.__name__ = "whole number"  # argparse names the type in some messages
    return parse


def _number(text: str) -> float:
    if not _NUMBER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"{quote(text)} is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{quote(text)} is not a finite number")
    return value


def _seconds(text: str) -> float:
    value = _number(text)
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"{value:g} is not in (0, {MAX_SECONDS:g}]")
    return value


def _game(text: str) -> str:
    """``--game``: a registered game or ``openspiel:<game string>``, checked here so that a bad
    one is one line and status 2 (the choices, or why OpenSpiel refused it)."""
    try:
        return check_game_name(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


# ---------------------------------------------------------------- the parser


def _game_options(p: argparse.ArgumentParser, *, default: str | None = None) -> None:
    p.add_argument(
        "--game",
        type=_game,
        metavar="GAME",
        required=default is None,
        default=default,
        help=f"the game: {', '.join(GAME_NAMES)}, or openspiel:NAME with OpenSpiel's game string, "
        "e.g. openspiel:pig(winscore=20)" + (f" (default {default})" if default else ""),
    )
    p.add_argument(
        "--size",
        type=int,
        choices=GAME_SIZES,
        default=None,
        help="gridiron preset: 1 v 1, 3 v 3 or 5 v 5 players (default 1; other games ignore it)",
    )


def _search_options(p: argparse.ArgumentParser, *, batch: bool) -> None:
    _game_options(p)
    p.add_argument("--position", default=None, help="position string (default: the start)")
    if batch:
        p.add_argument(
            "--positions-file",
            default=None,
            metavar="FILE",
            help="search every position in FILE (one a line; blank lines and # comments "
            "skipped) and print one JSON object per line",
        )
    p.add_argument(
        "--iterations",
        type=_whole(1, MAX_ITERATIONS),
        default=None,
        help=f"iterations (default {DEFAULT_ITERATIONS:,}, or unlimited with --seconds alone)",
    )
    p.add_argument("--seconds", type=_seconds, default=None, help="wall-clock budget")
    p.add_argument("--seed", type=_whole(0, MAX_SEED), default=0, help="random seed (default 0)")
    # Search settings default to None: "not given", so a --preset can fill them and an explicit
    # flag still wins over the preset. SearchConfig holds the real defaults (named in the help).
    _preset_option(p)
    p.add_argument("--c", type=_number, default=None, help="exploration constant (default 1.4)")
    p.add_argument("--policy", choices=TREE_POLICIES, default=None, help="tree policy (uct)")
    p.add_argument("--prior", choices=PRIORS, default=None, help="PUCT priors (uniform)")
    p.add_argument(
        "--min-visits", type=_whole(0, 1_000_000), default=None, help="visits before UCT (T)"
    )
    p.add_argument("--expansion", choices=EXPANSION_ORDERS, default=None, help="(listed)")
    p.add_argument("--rollout", choices=ROLLOUT_POLICIES, default=None, help="(random)")
    p.add_argument(
        "--epsilon", type=_number, default=None, help="random share of --rollout epsilon (0.1)"
    )
    p.add_argument(
        "--depth",
        type=_whole(0, 1_000_000),
        default=None,
        help="rollout depth limit (0: heuristic at the leaf, no rollout; default: no limit)",
    )
    p.add_argument("--horizon", choices=ROLLOUT_HORIZONS, default=None, help="(game)")
    p.add_argument("--win", type=_number, default=None, help="value of a win (default 1)")
    p.add_argument("--draw", type=_number, default=None, help="value of a draw (default 0)")
    p.add_argument("--loss", type=_number, default=None, help="value of a loss (default -1)")
    p.add_argument("--heuristic-weight", type=_number, default=None, help="(1)")
    p.add_argument("--value-range", choices=VALUE_RANGES, default=None, help="(symmetric)")
    p.add_argument("--final", choices=FINAL_POLICIES, default=None, help="(most_visited)")
    p.add_argument(
        "--solver",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="MCTS-Solver: prove wins and losses (default off; --no-solver turns a preset's off)",
    )
    p.add_argument("--max-nodes", type=_whole(2, 100_000_000), default=None, help="(500,000)")


def _preset_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--preset",
        choices=PRESET_NAMES,
        default=None,
        help="named settings; explicit flags override them. "
        + "; ".join(f"{name}: {text}" for name, text in PRESET_HELP.items()),
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``mcts-lab`` (its ``error`` raises instead of exiting)."""
    parser = _Parser(
        prog="mcts-lab",
        description="Monte Carlo Tree Search, explained: search a position, print its tree, "
        "benchmark the search, play an arena. Reference: docs/cli.md.",
        allow_abbrev=False,
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    search = sub.add_parser(
        "search", help="search a position and summarise the root", allow_abbrev=False
    )
    _search_options(search, batch=True)
    search.add_argument("--json", action="store_true", help="print one JSON object")
    search.add_argument(
        "--exact",
        action="store_true",
        help="also solve the position: each move's exact value and the chosen move's regret",
    )
    search.add_argument(
        "--exact-seconds",
        type=_seconds,
        default=2.0,
        help="time budget of the exact values (default 2); a move not solved in time gets null",
    )
    search.add_argument(
        "--trace",
        default=None,
        metavar="FILE",
        help="write the tree and every iteration in the mcts-trace format (docs/trace_format.md; "
        "FILE.jsonl: JSON Lines)",
    )

    tree = sub.add_parser("tree", help="search a position and print the tree", allow_abbrev=False)
    _search_options(tree, batch=False)
    tree.add_argument(
        "--format",
        choices=("xml", "json", "dot", "trace"),
        default="xml",
        help="xml, json, dot, or trace: the whole tree in the mcts-trace format (the limits "
        "below do not apply)",
    )
    tree.add_argument("--max-depth", type=_whole(0, 1000), default=3)
    tree.add_argument("--max-children", type=_whole(1, 10_000), default=10)

    b = sub.add_parser("bench", help="simulations/second and bytes/simulation", allow_abbrev=False)
    _game_options(b, default="connect_four")
    b.add_argument("--iterations", type=_whole(1, MAX_ITERATIONS), default=5000)
    b.add_argument("--repeat", type=_whole(1, 1000), default=5)
    b.add_argument("--seed", type=_whole(0, MAX_SEED), default=0)
    b.add_argument("--memory-iterations", type=_whole(1, MAX_ITERATIONS), default=50_000)
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
    _preset_option(b)
    b.add_argument("--json", action="store_true", help="print one JSON object")

    a = sub.add_parser(
        "arena", help="MCTS against an opponent, as home and as away", allow_abbrev=False
    )
    _game_options(a)
    a.add_argument("--games", type=_whole(1, MAX_GAMES), default=20, help="games per side")
    a.add_argument("--iterations", type=_whole(1, MAX_ITERATIONS), default=200)
    _preset_option(a)
    a.add_argument(
        "--rollout",
        choices=arena.ROLLOUTS,
        default=None,
        help="none (heuristic at the leaf; the default without --preset), turn or game",
    )
    a.add_argument("--opponent", choices=arena.OPPONENTS, default="random")
    a.add_argument("--seed", type=_whole(0, MAX_SEED), default=0)
    a.add_argument("--expansion", choices=EXPANSION_ORDERS, default=None, help="(listed)")
    a.add_argument("--c", type=_number, default=None, help="exploration constant (1.4)")
    a.add_argument("--opponent-c", type=_number, default=None)
    a.add_argument("--opponent-iterations", type=_whole(1, MAX_ITERATIONS), default=None)
    a.add_argument(
        "--no-reuse",
        action="store_true",
        help="a fresh tree per decision instead of keeping it with Search.advance",
    )
    a.add_argument("--json", action="store_true", help="print one JSON object")
    _compare_parser(sub)
    _sweep_parser(sub)
    _inspect_parser(sub)
    return parser


# ---------------------------------------------------------------- search and tree


def _config(args: argparse.Namespace) -> SearchConfig:
    """The preset's settings (if any), overridden by every flag given explicitly."""
    preset = preset_overrides(args.preset, args.game) if args.preset else {}
    return build_config({name: getattr(args, name) for name in CONFIG_OPTIONS}, base=preset)


def _run_search(
    args: argparse.Namespace, game: Any, position: str | None, trace_file: str | None = None
) -> tuple[Search, Any]:
    """Search ``position`` with the command's settings; returns the search and its RunResult
    (``None`` when the position is already over). Given ``trace_file``, every iteration is
    stepped and written there with the tree (the same tree as without)."""
    state = parse_position(game, position, args.seed)
    search = Search(game, state, _config(args), seed=args.seed)
    if game.is_terminal(state):
        if trace_file is not None:
            _write_trace(lambda: traces.write(traces.from_search(search), trace_file), trace_file)
        return search, None
    iterations = args.iterations
    if iterations is None and args.seconds is None:
        iterations = DEFAULT_ITERATIONS
    if trace_file is None:
        result = search.run(iterations=iterations, seconds=args.seconds)
    else:
        result = _write_trace(
            lambda: write_run(search, trace_file, iterations, args.seconds), trace_file
        )
    if result.iterations == 0:
        raise UsageError(
            f"--seconds {args.seconds:g} was too short to finish one iteration; "
            "give more time or --iterations"
        )
    return search, result


def _mover(game_name: str, player: int) -> str:
    """The player to move by the game's name for them, with the number the JSON reports
    (``X (player 0)``); an OpenSpiel game keeps OpenSpiel's numbers (chess: 1 is White)."""
    try:
        name = game_spec(game_name).player_names[player]
    except (ValueError, IndexError):
        name = ""
    text = (
        f"{name} (player {player})" if name and name != f"Player {player}" else f"player {player}"
    )
    return text + (", OpenSpiel's numbering" if is_openspiel(game_name) else "")


def _format_summary(data: dict[str, Any]) -> str:
    position = data["position"] or "(start)"
    lines = [
        f"{data['game']} at {position!r}: {data['iterations']:,} iterations in "
        f"{data['seconds']:.3f} s ({data['iterations_per_second']:,.0f}/s), "
        f"{data['nodes']:,} nodes, depth {data['max_depth']}"
    ]
    if data["note"]:
        lines.append(data["note"])
    if data["best_action"] is None:
        return "\n".join(lines)
    value = f"root mean {data['root_value']:+.3f}" if data["root_value"] is not None else ""
    if data["root_proven"]:
        # the proof is the root's value; the mean of its rollouts is kept for comparison
        proven = {"win": "+1", "draw": "0", "loss": "-1"}[data["root_proven"]]
        value = f"root value {proven}: proven {data['root_proven']} (rollouts' {value})"
    lines.append(f"to move: {_mover(data['game'], data['root_player'])}; {value}")
    lines.append(
        f"best move: {data['best_action']} (index {data['best_action_index']}); final policies: "
        + ", ".join(f"{k} {v}" for k, v in data["final_choices"].items())
    )
    if data["principal_variation"]:
        lines.append("principal variation: " + " ".join(data["principal_variation"]))
    exact = "regret" in data  # --exact
    if exact:
        regret = "unknown" if data["regret"] is None else f"{data['regret']:.3f}"
        lines.append(
            f"regret: {regret} (the best move's exact value minus the chosen move's; exact: "
            "the game-theoretic value, '?' when not solved within --exact-seconds)"
        )
    width = max(8, *(len(c["action"]) for c in data["children"]))
    lines.append(
        f"{'move':<{width}} {'index':>5} {'visits':>8} {'value':>8}"
        + (f" {'exact':>8}" if exact else "")
        + "  proven   (value: mean, from the view of the player to move at the root, -1..1)"
    )
    for child in sorted(data["children"], key=lambda c: (-c["visits"], c["action_index"])):
        exact_text = ""
        if exact:
            known = child["exact"] is not None
            exact_text = " " + (f"{child['exact']:+.3f}" if known else "?").rjust(8)
        lines.append(
            f"{child['action']:<{width}} {child['action_index']:>5} {child['visits']:>8,} "
            f"{child['value']:>+8.3f}{exact_text}  {child['proven'] or ''}"
        )
    return "\n".join(lines)


def _summary(args: argparse.Namespace, search: Search, result: Any) -> dict[str, Any]:
    """The search's JSON summary, with the exact values when ``--exact`` asks for them."""
    data = search_summary(search, result)
    if args.exact:
        add_exact(data, search.game, search.root_state, args.exact_seconds)
    return data


def _read_positions(path: str) -> list[tuple[int, str]]:
    """(line number, position) of every non-blank, non-comment line of the file."""
    try:
        # utf-8-sig: a file saved by Notepad starts with a byte-order mark, not a position
        with open(path, encoding="utf-8-sig") as handle:
            lines = handle.read().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        raise UsageError(f"cannot read positions file {path!r}: {reason}") from None
    return [
        (number, line.strip())
        for number, line in enumerate(lines, start=1)
        if line.strip() and not line.strip().startswith("#")
    ]


def cmd_search(args: argparse.Namespace) -> int:
    game = build_game(args.game, args.size)
    if args.positions_file is None:
        search, result = _run_search(args, game, args.position, args.trace)
        data = _summary(args, search, result)
        print(json.dumps(data) if args.json else _format_summary(data))
        return 0
    if args.position is not None:
        raise UsageError("give --position or --positions-file, not both")
    if args.trace:
        raise UsageError("--trace records one search: give --position, not --positions-file")
    _config(args)  # a bad setting is a usage error, not a failure of every line
    status = 0
    for number, position in _read_positions(args.positions_file):
        try:
            search, result = _run_search(args, game, position)
            data = {"line": number, **_summary(args, search, result)}
        except ValueError as error:
            data = {"line": number, "game": game.name, "position": position, "error": str(error)}
            status = 1
        print(json.dumps(data), flush=True)
    return status


def cmd_tree(args: argparse.Namespace) -> int:
    game = build_game(args.game, args.size)
    search, _ = _run_search(args, game, args.position)
    if args.format == "trace":
        print(traces.dumps(traces.from_search(search)), end="")
        return 0
    export = {"xml": format_tree, "json": tree_to_json, "dot": tree_to_dot}[args.format]
    print(export(search, max_depth=args.max_depth, max_children=args.max_children))
    return 0


# ---------------------------------------------------------------- bench and arena


def cmd_bench(args: argparse.Namespace) -> int:
    compared = args.compare or []
    if "textbook" in compared and args.game not in bench.TEXTBOOK_GAMES:
        raise UsageError(f"the textbook UCT plays tic_tac_toe and connect_four, not {args.game}")
    if "openspiel" in compared:
        if args.game not in bench.OPENSPIEL_NAMES:
            raise UsageError(
                f"OpenSpiel has no {args.game}; compare on tic_tac_toe or connect_four"
            )
        if not bench.openspiel_available():
            raise UsageError(f"open_spiel is not installed: {bench.OPENSPIEL_INSTALL_HINT}")
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


def cmd_arena(args: argparse.Namespace) -> int:
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


# ---------------------------------------------------------------- compare and sweep

#: Flags a settings string (``--a``, ``--b``, ``--settings``) may not hold: the command sets
#: them once for every search it runs.
_SHARED_FLAGS = (
    "--game",
    "--size",
    "--position",
    "--positions-file",
    "--iterations",
    "--seconds",
    "--seed",
)


def _settings(text: str, game_name: str, flag: str) -> SearchConfig:
    """The search settings a string of ``mcts-lab search`` flags describes (``--c 0.5
    --policy ucb1``, a ``--preset``, ...), read by the very parser and config builder of
    ``search``. ``flag`` names the option the string came in, for the error line."""
    try:
        tokens = shlex.split(text)
    except ValueError as error:
        raise UsageError(f"{flag} {quote(text)}: {error}") from None
    for token in tokens:
        name = token.split("=", 1)[0]
        if name in _SHARED_FLAGS:
            raise UsageError(f"{flag}: {name} is set once for the whole command, not in {flag}")
    parser = _Parser(prog=f"mcts-lab {flag}", allow_abbrev=False, add_help=False)
    _search_options(parser, batch=False)
    try:
        return _config(parser.parse_args(["--game", game_name, *tokens]))
    except (UsageError, ValueError) as error:
        raise UsageError(f"{flag} {quote(text)}: {error}") from None


_SETTINGS_HELP = (
    'the search flags of "mcts-lab search" in one string, e.g. "--c 0.5 --policy ucb1" '
    "(a single flag without a value: --{name}=--solver)"
)


def _compare_parser(sub: Any) -> None:
    p = sub.add_parser(
        "compare",
        help="two settings in lockstep: where their selection paths first part, and why",
        allow_abbrev=False,
    )
    _game_options(p)
    p.add_argument("--position", default=None, help="position string (default: the start)")
    p.add_argument(
        "--iterations",
        type=_whole(1, compare.MAX_COMPARE_ITERATIONS),
        default=200,
        help="iterations of each search (default 200)",
    )
    p.add_argument("--seed", type=_whole(0, MAX_SEED), default=0, help="both searches' seed")
    p.add_argument("--a", default="", metavar="FLAGS", help=_SETTINGS_HELP.format(name="a"))
    p.add_argument("--b", default="", metavar="FLAGS", help=_SETTINGS_HELP.format(name="b"))
    p.add_argument("--json", action="store_true", help="print one JSON object")


def cmd_compare(args: argparse.Namespace) -> int:
    game = build_game(args.game, args.size)
    state = parse_position(game, args.position, args.seed)
    config_a = _settings(args.a, args.game, "--a")
    config_b = _settings(args.b, args.game, "--b")
    result = compare.compare_searches(
        game, state, config_a, config_b, iterations=args.iterations, seed=args.seed
    )
    if args.json:
        print(json.dumps({**result.to_dict(), "flags": {"a": args.a, "b": args.b}}))
    else:
        print(compare.format_comparison(result, args.a, args.b))
    return 0


def _sweep_parser(sub: Any) -> None:
    p = sub.add_parser(
        "sweep",
        help="one search parameter over several values, each an arena, with confidence intervals",
        allow_abbrev=False,
    )
    _game_options(p)
    p.add_argument(
        "--param",
        required=True,
        help="the parameter: " + ", ".join(sweep.PARAMS) + " (the search flags without dashes)",
    )
    p.add_argument("--values", required=True, help="its values, comma-separated: 0.5,1,1.4,2")
    p.add_argument(
        "--games", type=_whole(1, MAX_GAMES), default=20, help="games per side per value (20)"
    )
    p.add_argument(
        "--iterations",
        type=_whole(1, MAX_ITERATIONS),
        default=200,
        help="MCTS iterations per decision (200)",
    )
    p.add_argument("--opponent", choices=arena.OPPONENTS, default="random")
    p.add_argument(
        "--opponent-iterations",
        type=_whole(1, MAX_ITERATIONS),
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
    p.add_argument("--seed", type=_whole(0, MAX_SEED), default=0, help="random seed (default 0)")
    p.add_argument(
        "--workers",
        type=_whole(1, 1024),
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


def cmd_sweep(args: argparse.Namespace) -> int:
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
    config = _settings(args.settings, args.game, "--settings")
    opponent_config = (
        _settings(args.opponent_settings, args.game, "--opponent-settings")
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


# ---------------------------------------------------------------- traces

#: The largest trace file ``inspect`` reads (bytes); the app's uploads stop at 20 MB.
INSPECT_MAX_BYTES = 100 * 1024 * 1024


def _write_trace(write: Callable[[], Any], path: str) -> Any:
    """``write()``'s result; a file that cannot be written is a usage error (one line)."""
    try:
        return write()
    except OSError as error:
        raise UsageError(f"cannot write {path!r}: {error.strerror}") from None


def _inspect_parser(sub: Any) -> None:
    p = sub.add_parser(
        "inspect",
        help="summarise an mcts-trace file (any MCTS's tree or trace) and list its anomalies",
        allow_abbrev=False,
    )
    p.add_argument("file", metavar="FILE", help="an mcts-trace file (.json or .jsonl)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--exact",
        action="store_true",
        help="with a registered game named in the file: the root moves' exact values beside "
        "the file's",
    )
    p.add_argument("--exact-seconds", type=_seconds, default=2.0, help="(default 2)")


def cmd_inspect(args: argparse.Namespace) -> int:
    """Exit 0: no anomalies; 1: anomalies found; 2: unreadable or not of the format."""
    trace = traces.load(args.file, max_bytes=INSPECT_MAX_BYTES)
    data = inspection.inspect_trace(trace, exact=args.exact, exact_seconds=args.exact_seconds)
    print(json.dumps(data) if args.json else inspection.format_report(data))
    return 1 if data["anomaly_counts"] else 0


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "search": cmd_search,
    "tree": cmd_tree,
    "bench": cmd_bench,
    "arena": cmd_arena,
    "compare": cmd_compare,
    "sweep": cmd_sweep,
    "inspect": cmd_inspect,
}


_LONG_QUOTE = re.compile(f"'([^']{{{QUOTE_CHARS}}})[^']+'")
MAX_ERROR_CHARS = 300


def _one_line(error: BaseException) -> str:
    """The error as one line on stderr: any value it quotes (argparse's, a game parser's) cut
    to ``QUOTE_CHARS`` characters, the whole line to ``MAX_ERROR_CHARS``."""
    text = " ".join(str(error).split())
    text = _LONG_QUOTE.sub(r"'\1...'", text)
    if len(text) > MAX_ERROR_CHARS:
        text = text[: MAX_ERROR_CHARS - 3] + "..."
    return text or type(error).__name__


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line with ``argv`` (default ``sys.argv[1:]``); returns the exit status."""
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args)
    except (UsageError, ValueError) as error:
        print(f"mcts-lab: error: {_one_line(error)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("mcts-lab: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `mcts-lab tree ... | head`: the reader left, not an error
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
