"""What the ``mcts-lab`` commands share: the caps on sizes, the argument types (ASCII numbers
in a range, a game name), the option groups (``--game``, the search settings, ``--preset``),
the parser that raises :class:`UsageError` instead of exiting, reading a command's search
settings (:func:`config_from_args`, :func:`settings_from_flags`), and printing an output whose
reader may leave early (:func:`emit`)."""

from __future__ import annotations

import argparse
import math
import os
import re
import shlex
import sys
from collections.abc import Callable
from typing import NoReturn, TypeVar

from games import GAME_NAMES
from mcts_core import SearchConfig
from mcts_core.config import (
    EXPANSION_ORDERS,
    FINAL_POLICIES,
    PRIORS,
    ROLLOUT_HORIZONS,
    ROLLOUT_POLICIES,
    TREE_POLICIES,
    VALUE_RANGES,
)
from mcts_lab import arena
from mcts_lab.common import CONFIG_OPTIONS, GAME_SIZES, build_config, check_game_name
from mcts_lab.presets import PRESET_HELP, PRESET_NAMES, preset_overrides

#: Caps on sizes so a typo cannot start a week-long run or exhaust memory.
MAX_ITERATIONS = 10_000_000
MAX_GAMES = arena.MAX_GAMES
MAX_SECONDS = 3600.0
MAX_SEED = 2**62
DEFAULT_ITERATIONS = 1000


class UsageError(Exception):
    """Bad input: reported in one line with exit status 2."""


class Parser(argparse.ArgumentParser):
    """argparse that raises instead of printing usage and exiting, so ``main`` reports every
    bad input the same way (one line, status 2)."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


#: How much of an offending value an error line quotes.
QUOTE_CHARS = 80
# ASCII digits only: int() and float() also take "1_000" and other scripts' digits ("١٢",
# full-width "１"), which nobody means in a seed or an iteration count.
_WHOLE = re.compile(r"[+-]?[0-9]+")
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")


def emit(text: str) -> None:
    """Print ``text`` (a command's whole output). A reader that left early (``| head``) is no
    error and changes no exit status: what is left goes nowhere, and the command still returns
    its own status (the handler in ``cli.main`` would return 0 for every command)."""
    try:
        print(text)
        sys.stdout.flush()  # a closed pipe says so here, not at the interpreter's exit
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def quote(text: str) -> str:
    """``text`` quoted for an error line, cut to ``QUOTE_CHARS`` characters."""
    if len(text) <= QUOTE_CHARS:
        return repr(text)
    return f"{text[:QUOTE_CHARS]!r}... ({len(text):,} characters)"


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: a whole number in ASCII digits within [low, high]."""

    def parse(text: str) -> int:
        if not _WHOLE.fullmatch(text.strip()):
            raise argparse.ArgumentTypeError(f"{quote(text)} is not a whole number")
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value:,} is not in [{low:,}, {high:,}]")
        return value

    parse.__name__ = "whole number"  # argparse names the type in some messages
    return parse


def finite_number(text: str) -> float:
    """An argparse type: a finite number in ASCII digits (``1.4``, ``-1``, ``1e3``)."""
    if not _NUMBER.fullmatch(text.strip()):
        raise argparse.ArgumentTypeError(f"{quote(text)} is not a number")
    value = float(text)
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"{quote(text)} is not a finite number")
    return value


def seconds_budget(text: str) -> float:
    """An argparse type: a time budget in seconds, in (0, ``MAX_SECONDS``]."""
    value = finite_number(text)
    if not 0 < value <= MAX_SECONDS:
        raise argparse.ArgumentTypeError(f"{value:g} is not in (0, {MAX_SECONDS:g}]")
    return value


def game_name_arg(text: str) -> str:
    """``--game``: a registered game or ``openspiel:<game string>``, checked here so that a bad
    one is one line and status 2 (the choices, or why OpenSpiel refused it)."""
    try:
        return check_game_name(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def game_options(p: argparse.ArgumentParser, *, default: str | None = None) -> None:
    """``--game`` (required without a ``default``) and ``--size``."""
    p.add_argument(
        "--game",
        type=game_name_arg,
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


def search_options(p: argparse.ArgumentParser, *, batch: bool) -> None:
    """The flags of one search: the game, the position (and ``--positions-file`` when
    ``batch``), the budget, the seed, ``--preset`` and every search setting
    (``mcts_lab/settings.py``'s rows; ``tests/mcts_lab/test_settings.py`` checks they agree)."""
    game_options(p)
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
        type=whole_number(1, MAX_ITERATIONS),
        default=None,
        help=f"iterations (default {DEFAULT_ITERATIONS:,}, or unlimited with --seconds alone)",
    )
    p.add_argument("--seconds", type=seconds_budget, default=None, help="wall-clock budget")
    p.add_argument(
        "--seed", type=whole_number(0, MAX_SEED), default=0, help="random seed (default 0)"
    )
    # Search settings default to None: "not given", so a --preset can fill them and an explicit
    # flag still wins over the preset. SearchConfig holds the real defaults (named in the help).
    preset_option(p)
    p.add_argument(
        "--c", type=finite_number, default=None, help="exploration constant (default 1.4)"
    )
    p.add_argument("--policy", choices=TREE_POLICIES, default=None, help="tree policy (uct)")
    p.add_argument("--prior", choices=PRIORS, default=None, help="PUCT priors (uniform)")
    p.add_argument(
        "--min-visits", type=whole_number(0, 1_000_000), default=None, help="visits before UCT (T)"
    )
    p.add_argument("--expansion", choices=EXPANSION_ORDERS, default=None, help="(listed)")
    p.add_argument("--rollout", choices=ROLLOUT_POLICIES, default=None, help="(random)")
    p.add_argument(
        "--epsilon",
        type=finite_number,
        default=None,
        help="random share of --rollout epsilon (0.1)",
    )
    p.add_argument(
        "--depth",
        type=whole_number(0, 1_000_000),
        default=None,
        help="rollout depth limit (0: heuristic at the leaf, no rollout; default: no limit)",
    )
    p.add_argument("--horizon", choices=ROLLOUT_HORIZONS, default=None, help="(game)")
    p.add_argument("--win", type=finite_number, default=None, help="value of a win (default 1)")
    p.add_argument("--draw", type=finite_number, default=None, help="value of a draw (default 0)")
    p.add_argument("--loss", type=finite_number, default=None, help="value of a loss (default -1)")
    p.add_argument("--heuristic-weight", type=finite_number, default=None, help="(1)")
    p.add_argument("--value-range", choices=VALUE_RANGES, default=None, help="(symmetric)")
    p.add_argument("--final", choices=FINAL_POLICIES, default=None, help="(most_visited)")
    p.add_argument(
        "--solver",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="MCTS-Solver: prove wins and losses (default off; --no-solver turns a preset's off)",
    )
    p.add_argument("--max-nodes", type=whole_number(2, 100_000_000), default=None, help="(500,000)")


def preset_option(p: argparse.ArgumentParser) -> None:
    """``--preset``: named settings that explicit flags override."""
    p.add_argument(
        "--preset",
        choices=PRESET_NAMES,
        default=None,
        help="named settings; explicit flags override them. "
        + "; ".join(f"{name}: {text}" for name, text in PRESET_HELP.items()),
    )


def config_from_args(args: argparse.Namespace) -> SearchConfig:
    """The preset's settings (if any), overridden by every flag given explicitly."""
    preset = preset_overrides(args.preset, args.game) if args.preset else {}
    return build_config({name: getattr(args, name) for name in CONFIG_OPTIONS}, base=preset)


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


def settings_from_flags(text: str, game_name: str, flag: str) -> SearchConfig:
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
    parser = Parser(prog=f"mcts-lab {flag}", allow_abbrev=False, add_help=False)
    search_options(parser, batch=False)
    try:
        return config_from_args(parser.parse_args(["--game", game_name, *tokens]))
    except (UsageError, ValueError) as error:
        raise UsageError(f"{flag} {quote(text)}: {error}") from None


SETTINGS_HELP = (
    'the search flags of "mcts-lab search" in one string, e.g. "--c 0.5 --policy ucb1" '
    "(a single flag without a value: --{name}=--solver)"
)


#: what the write given to :func:`write_trace` returns
_T = TypeVar("_T")


def write_trace(write: Callable[[], _T], path: str) -> _T:
    """``write()``'s result; a file that cannot be written is a usage error (one line)."""
    try:
        return write()
    except OSError as error:
        raise UsageError(f"cannot write {path!r}: {error.strerror}") from None
