"""The ``mcts-lab`` command line: ``search``, ``tree``, ``bench``, ``arena``, ``compare``,
``sweep``, ``inspect`` and, in a checkout with the app, ``export``.

Its flags and JSON fields are a stable interface others script against (docs/cli.md): add,
never rename. Exit status: 0 done; 1 a ``--positions-file`` batch in which some line failed;
2 bad input (one line on stderr, ``mcts-lab: error: ...``, never a traceback); 130 interrupted.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from types import ModuleType

from mcts_lab.commands import arena, bench, compare, inspect, search, sweep, tree
from mcts_lab.commands.options import (
    MAX_GAMES,
    MAX_ITERATIONS,
    QUOTE_CHARS,
    Parser,
    UsageError,
)

__all__ = ["main", "build_parser", "MAX_ITERATIONS", "MAX_GAMES"]

#: Every command by name, in the order the help lists them: its module's ``add_parser`` adds
#: it, its ``run`` does it.
COMMANDS = {
    "search": search,
    "tree": tree,
    "bench": bench,
    "arena": arena,
    "compare": compare,
    "sweep": sweep,
    "inspect": inspect,
}


def _commands() -> dict[str, ModuleType]:
    """:data:`COMMANDS`, and ``export`` when the app is there to draw it.

    ``mcts-lab export`` draws with the app's tree layout, colours and words, so its module is
    the app's (``app/export/command.py``): the one import from ``mcts_lab`` up into ``app``,
    made here at run time and named in pyproject's import contract. The app runs from a
    checkout and is not installed (the wheel holds no app): an install from a checkout
    (``pip install -e .``) finds it beside this package, from any working directory; the wheel
    simply offers no ``export``."""
    checkout = Path(__file__).resolve().parents[1]
    if not (checkout / "app" / "export" / "command.py").is_file():
        return COMMANDS
    if str(checkout) not in sys.path:  # (last: never in front of an installed package)
        sys.path.append(str(checkout))
    from app.export import command as export

    return {**COMMANDS, "export": export}


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``mcts-lab`` (its ``error`` raises instead of exiting)."""
    parser = Parser(
        prog="mcts-lab",
        description="Monte Carlo Tree Search, explained: search a position, print its tree, "
        "benchmark the search, play an arena. Reference: docs/cli.md.",
        allow_abbrev=False,
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in _commands().values():
        command.add_parser(sub)
    return parser


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
        run: Callable[[argparse.Namespace], int] = _commands()[args.command].run
        return run(args)
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
