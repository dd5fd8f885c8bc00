"""``mcts-lab search``: search a position (or every line of a file) and summarise the root, as
text or one JSON object (``mcts_lab.common.search_summary``, a stable interface)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from games.registry import game_spec, is_openspiel
from mcts_core import Search
from mcts_lab import traces
from mcts_lab.commands.options import (
    DEFAULT_ITERATIONS,
    UsageError,
    config_from_args,
    search_options,
    seconds_budget,
    write_trace,
)
from mcts_lab.common import build_game, parse_position, search_summary
from mcts_lab.exact import add_exact
from mcts_lab.traces.lab import write_run


def add_parser(sub: Any) -> None:
    search = sub.add_parser(
        "search", help="search a position and summarise the root", allow_abbrev=False
    )
    search_options(search, batch=True)
    search.add_argument("--json", action="store_true", help="print one JSON object")
    search.add_argument(
        "--exact",
        action="store_true",
        help="also solve the position: each move's exact value and the chosen move's regret",
    )
    search.add_argument(
        "--exact-seconds",
        type=seconds_budget,
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


def run_search(
    args: argparse.Namespace, game: Any, position: str | None, trace_file: str | None = None
) -> tuple[Search, Any]:
    """Search ``position`` with the command's settings; returns the search and its RunResult
    (``None`` when the position is already over). Given ``trace_file``, every iteration is
    stepped and written there with the tree (the same tree as without)."""
    state = parse_position(game, position, args.seed)
    search = Search(game, state, config_from_args(args), seed=args.seed)
    if game.is_terminal(state):
        if trace_file is not None:
            write_trace(lambda: traces.write(traces.from_search(search), trace_file), trace_file)
        return search, None
    iterations = args.iterations
    if iterations is None and args.seconds is None:
        iterations = DEFAULT_ITERATIONS
    if trace_file is None:
        result = search.run(iterations=iterations, seconds=args.seconds)
    else:
        result = write_trace(
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


def run(args: argparse.Namespace) -> int:
    game = build_game(args.game, args.size)
    if args.positions_file is None:
        search, result = run_search(args, game, args.position, args.trace)
        data = _summary(args, search, result)
        print(json.dumps(data) if args.json else _format_summary(data))
        return 0
    if args.position is not None:
        raise UsageError("give --position or --positions-file, not both")
    if args.trace:
        raise UsageError("--trace records one search: give --position, not --positions-file")
    config_from_args(args)  # a bad setting is a usage error, not a failure of every line
    status = 0
    for number, position in _read_positions(args.positions_file):
        try:
            search, result = run_search(args, game, position)
            data = {"line": number, **_summary(args, search, result)}
        except ValueError as error:
            data = {"line": number, "game": game.name, "position": position, "error": str(error)}
            status = 1
        print(json.dumps(data), flush=True)
    return status
