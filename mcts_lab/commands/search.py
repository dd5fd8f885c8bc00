"""``mcts-lab search``: search a position (or every line of a file) and summarise the root, as
text or one JSON object (``mcts_lab.common.search_summary``, a stable interface)."""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from typing import Any, TypedDict

from games.registry import game_spec, is_openspiel
from mcts_core import Search
from mcts_core.phases import RunStop
from mcts_lab import traces
from mcts_lab.breakpoints.conditions import (
    BREAKPOINTS,
    BreakpointError,
    BreakpointStop,
    Condition,
    Context,
    breakpoint_stop,
    parse_condition,
)
from mcts_lab.commands.options import (
    DEFAULT_ITERATIONS,
    UsageError,
    config_from_args,
    quote,
    search_options,
    seconds_budget,
    write_trace,
)
from mcts_lab.common import AnyGame, SearchSummary, build_game, parse_position, search_summary
from mcts_lab.exact import add_exact
from mcts_lab.traces.lab import write_run


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    search.add_argument(
        "--until",
        action="append",
        default=None,
        metavar="CONDITION",
        help="stop at the first iteration where CONDITION holds (at most the iteration budget; "
        "repeat for several, the first to hold stops): "
        + "; ".join(f"{k.syntax}: {k.doc}" for k in BREAKPOINTS.values()),
    )


def run_search(
    args: argparse.Namespace,
    game: AnyGame,
    position: str | None,
    trace_file: str | None = None,
    until: list[Condition] | None = None,
) -> tuple[Search, Any]:
    """Search ``position`` with the command's settings; returns the search and its RunResult
    (``None`` when the position is already over). Given ``trace_file``, every iteration is
    stepped and written there with the tree (the same tree as without). Given ``until``
    (breakpoints), the run ends after the first iteration where one holds: the RunResult is
    then a :class:`UntilResult` that says which."""
    state = parse_position(game, position, args.seed)
    search = Search(game, state, config_from_args(args), seed=args.seed)
    if game.is_terminal(state):
        if trace_file is not None:
            write_trace(lambda: traces.write(traces.from_search(search), trace_file), trace_file)
        return search, None
    iterations = args.iterations
    if iterations is None and args.seconds is None:
        iterations = DEFAULT_ITERATIONS
    if until:
        result: Any = _run_until(args, search, iterations, until, trace_file)
    elif trace_file is None:
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
    if isinstance(result, UntilResult) and result.search is not None:
        search = result.search  # the traced rerun: the same tree
    return search, result


@dataclass(frozen=True)
class UntilResult:
    """``Search.run``'s result (its fields) with what the breakpoints say: ``stop`` (which
    condition held, why, at which iteration) and ``search``, the rerun that wrote the trace
    (``None`` without ``--trace``)."""

    iterations: int
    seconds: float
    stopped: RunStop
    message: str
    stop: BreakpointStop
    search: Search | None = None


def _run_until(
    args: argparse.Namespace,
    search: Search,
    iterations: int | None,
    until: list[Condition],
    trace_file: str | None,
) -> UntilResult:
    """Run ``search`` with the breakpoints asked after every iteration. With ``trace_file`` the
    same seeded search is run again, stepped and written, for the iterations the first run
    made (the same tree: a seeded search is deterministic)."""
    try:
        stop = breakpoint_stop(until, search, Context(exact_seconds=args.exact_seconds))
    except BreakpointError as error:
        raise UsageError(f"--until: {error}") from None
    result = search.run(
        iterations=iterations, seconds=args.seconds, should_stop=stop, progress_every=1
    )
    rerun = None
    if trace_file is not None and result.iterations:
        rerun = Search(search.game, search.root_state, search.config, seed=search.seed)
        write_trace(lambda: write_run(rerun, trace_file, result.iterations), trace_file)
    return UntilResult(
        result.iterations, result.seconds, result.stopped, result.message, stop, rerun
    )


def _parse_until(args: argparse.Namespace, game: AnyGame) -> list[Condition]:
    """The ``--until`` conditions, checked against the game and the position (one line and
    status 2 for a bad one)."""
    if not args.until:
        return []
    state = parse_position(game, args.position, args.seed)
    conditions = []
    for text in args.until:
        try:
            conditions.append(parse_condition(text, game, state))
        except BreakpointError as error:
            raise UsageError(f"--until {quote(text)}: {error}") from None
    return conditions


class _UntilFields(TypedDict):
    stopped_at: int | None
    stop_reason: str


def _until_fields(result: UntilResult | None) -> _UntilFields:
    """``stopped_at`` and ``stop_reason`` of a run with ``--until``."""
    if result is None:
        return {"stopped_at": None, "stop_reason": "the position is already over: nothing ran"}
    stop = result.stop
    if stop.held is not None:
        return {"stopped_at": stop.iteration, "stop_reason": f"{stop.held.text}: {stop.reason}"}
    within = f"{result.iterations:,} iterations"
    why = {
        RunStop.ITERATIONS: f"within the budget of {within}",
        RunStop.SECONDS: f"within the --seconds budget ({within})",
        RunStop.SOLVED: f"before the solver proved the root, after {within}",
        RunStop.NODE_CAP: f"before the tree was full, after {within}",
    }.get(result.stopped, f"in {within}")
    return {"stopped_at": None, "stop_reason": f"no --until condition held {why}"}


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


def _format_summary(data: SearchSummary) -> str:
    position = data["position"] or "(start)"
    lines = [
        f"{data['game']} at {position!r}: {data['iterations']:,} iterations in "
        f"{data['seconds']:.3f} s ({data['iterations_per_second']:,.0f}/s), "
        f"{data['nodes']:,} nodes, depth {data['max_depth']}"
    ]
    if data["note"]:
        lines.append(data["note"])
    if "stop_reason" in data:  # --until
        where = data["stopped_at"]
        lines.append(
            f"stopped at iteration {where:,}: {data['stop_reason']}"
            if where is not None
            else data["stop_reason"]
        )
    if data["best_action"] is None:
        return "\n".join(lines)
    value = f"root mean {data['root_value']:+.3f}" if data["root_value"] is not None else ""
    if data["root_proven"]:
        # the proof is the root's value; the mean of its rollouts is kept for comparison
        proven = {"win": "+1", "draw": "0", "loss": "-1"}[data["root_proven"]]
        value = f"root value {proven}: proven {data['root_proven']} (rollouts' {value})"
    player = data["root_player"]
    assert player is not None  # a best move: the position is not over
    lines.append(f"to move: {_mover(data['game'], player)}; {value}")
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


def _summary(args: argparse.Namespace, search: Search, result: Any) -> SearchSummary:
    """The search's JSON summary, with the exact values when ``--exact`` asks for them and
    where the breakpoints stopped it with ``--until``."""
    data = search_summary(search, result)
    if args.exact:
        add_exact(data, search.game, search.root_state, args.exact_seconds)
    if args.until:
        data["until"] = list(args.until)
        fields = _until_fields(result)
        data["stopped_at"], data["stop_reason"] = fields["stopped_at"], fields["stop_reason"]
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
        until = _parse_until(args, game)
        search, result = run_search(args, game, args.position, args.trace, until)
        data = _summary(args, search, result)
        print(json.dumps(data) if args.json else _format_summary(data))
        return 0
    if args.position is not None:
        raise UsageError("give --position or --positions-file, not both")
    if args.trace:
        raise UsageError("--trace records one search: give --position, not --positions-file")
    if args.until:
        raise UsageError("--until stops one search: give --position, not --positions-file")
    config_from_args(args)  # a bad setting is a usage error, not a failure of every line
    status = 0
    for number, position in _read_positions(args.positions_file):
        try:
            search, result = run_search(args, game, position)
            row: dict[str, object] = {"line": number, **_summary(args, search, result)}
        except ValueError as error:
            row = {"line": number, "game": game.name, "position": position, "error": str(error)}
            status = 1
        print(json.dumps(row), flush=True)
    return status
