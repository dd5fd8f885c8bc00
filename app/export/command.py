"""``mcts-lab export``: a run or a lesson written as a deck, a handout, an animation or frames.

The command lives beside the export it runs, in the app's folder, because the export draws
with the app's layout, colours and words; ``mcts_lab/cli.py`` adds it when the app is there (a
checkout: ``mcts-lab`` installed from the wheel alone has no app, and so no ``export``). The
flags are a stable interface (docs/cli.md): the search settings are ``mcts-lab search``'s.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from app.export.records import FORMATS, MAX_SLIDES, SUFFIXES, ExportError, RunSpec
from app.words import i18n
from mcts_lab.commands.options import (
    UsageError,
    config_from_args,
    search_options,
    whole_number,
)

__all__ = ["add_parser", "parse_at", "run"]

#: Iterations an export runs when ``--iterations`` is not given.
DEFAULT_EXPORT_ITERATIONS = 30


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``export`` and its flags to the ``mcts-lab`` parser."""
    p = sub.add_parser(
        "export",
        help="write a run or a lesson as slides (pptx), a PDF handout, a GIF/APNG or PNG frames",
        allow_abbrev=False,
    )
    search_options(p, batch=False)
    for action in p._actions:  # --game is not needed with --lesson (checked in run)
        if action.dest == "game":
            action.required = False
    p.add_argument(
        "--lesson", default=None, metavar="NAME", help="export the lesson NAME (lessons/NAME.toml)"
    )
    which = p.add_mutually_exclusive_group()
    which.add_argument(
        "--every",
        type=whole_number(1, 1_000_000),
        default=None,
        metavar="K",
        help="draw every K-th iteration (K, 2K, ...; the last one too)",
    )
    which.add_argument(
        "--at",
        default=None,
        metavar="LIST",
        help="draw these iterations, comma-separated (1,2,5,30)",
    )
    p.add_argument(
        "--format",
        dest="fmt",
        default=None,
        metavar="FORMAT",
        help=f"the file's format: {', '.join(FORMATS)} (default: from --out's suffix)",
    )
    p.add_argument(
        "--lang",
        default="en",
        metavar="TAG",
        help=f"the language of every text: {', '.join(i18n.OFFERED)} (default en)",
    )
    p.add_argument("--out", default=None, metavar="FILE", help="the file to write")
    p.add_argument("--json", action="store_true", help="print one JSON object")


def parse_at(text: str, iterations: int) -> tuple[int, ...]:
    """``--at``'s list ("1,2,5,30") as sorted distinct iteration numbers, each in
    1..``iterations``; :class:`UsageError` naming a bad item."""
    chosen: set[int] = set()
    for item in text.split(","):
        item = item.strip()
        if not item.isascii() or not item.isdigit():
            raise UsageError(f"--at: {item!r} is not an iteration number (e.g. --at 1,2,5,30)")
        number = int(item)
        if not 1 <= number <= iterations:
            raise UsageError(f"--at: iteration {number} is outside the run's 1..{iterations}")
        chosen.add(number)
    return tuple(sorted(chosen))


def _every(k: int, iterations: int) -> tuple[int, ...]:
    """K, 2K, ... and the last iteration."""
    return tuple(sorted(set(range(k, iterations + 1, k)) | {iterations}))


def _format(args: argparse.Namespace) -> str:
    """The format: ``--format``, else the one ``--out``'s suffix names."""
    if args.fmt is not None:
        from app.export.api import check_format  # (see run: the writers load on use)

        return check_format(args.fmt)
    if args.out:
        suffix = Path(args.out).suffix.lower()
        found = [f for f, s in SUFFIXES.items() if s == suffix and f != "apng"]
        if found:
            return found[0]
    raise UsageError(f"--format is needed ({', '.join(FORMATS)})")


def _spec(args: argparse.Namespace) -> RunSpec:
    """The run the flags describe; :class:`UsageError` on flags that do not go together."""
    if args.seconds is not None:
        raise UsageError("export replays a seeded run: give --iterations, not --seconds")
    iterations = args.iterations or DEFAULT_EXPORT_ITERATIONS
    at: tuple[int, ...] = ()
    if args.at is not None:
        at = parse_at(args.at, iterations)
    elif args.every is not None:
        at = _every(args.every, iterations)
    elif iterations > MAX_SLIDES:
        raise UsageError(
            f"{iterations:,} iterations make too many slides (at most {MAX_SLIDES}): "
            "choose some with --every K or --at LIST"
        )
    return RunSpec(
        game=args.game,
        position=args.position or "",
        seed=args.seed,
        config=config_from_args(args),
        iterations=iterations,
        at=at,
        size=args.size,
    )


def run(args: argparse.Namespace) -> int:
    """Write the export; print where, its size and slides (``--json``: one object with
    ``command``, ``format``, ``out``, ``bytes``, ``slides``, ``lang``, ``seconds``, and
    ``game`` and ``iterations`` or ``lesson``)."""
    # the writers' libraries (PowerPoint, PDF, pictures) take seconds to import: loaded when an
    # export runs, never when another command builds the parser
    from app.export.api import check_language, lesson_deck, run_deck, write_deck

    started = time.perf_counter()
    fmt = _format(args)
    lang = check_language(args.lang)
    if args.lesson is not None and args.game is not None:
        raise UsageError("give --game (a run) or --lesson (a lesson), not both")
    if args.lesson is None and args.game is None:
        raise UsageError("the following arguments are required: --game or --lesson")
    out = args.out or (f"{args.lesson or args.game.replace(':', '_')}-{lang}{SUFFIXES[fmt]}")
    summary: dict[str, object] = {"command": "export", "format": fmt, "lang": lang}
    try:
        if args.lesson is not None:
            deck = lesson_deck(args.lesson, lang)
            summary["lesson"] = args.lesson
        else:
            spec = _spec(args)
            deck = run_deck(spec, lang)
            summary["game"] = spec.game
            summary["iterations"] = list(spec.chosen)
        data = write_deck(deck, fmt)
    except ExportError as error:
        raise UsageError(str(error)) from None
    try:
        Path(out).write_bytes(data)
    except OSError as error:
        raise UsageError(f"cannot write {out}: {error.strerror}") from None
    summary |= {
        "out": out,
        "bytes": len(data),
        "slides": len(deck.slides),
        "seconds": round(time.perf_counter() - started, 3),
    }
    if args.json:
        print(json.dumps(summary, ensure_ascii=False))
    else:
        print(
            f"wrote {out}: {fmt}, {len(data):,} bytes, {summary['slides']} slides, "
            f"{summary['seconds']} s",
            file=sys.stdout,
        )
    return 0
