"""Time the exports issue 44 sets targets for, on this machine: a 30-iteration Connect Four deck
(<= 10 s), a lesson deck (<= 30 s), and the other formats of the same run beside them.

    python scripts/export_benchmark.py [--lesson traps] [--lang es]

Prints one line per export (seconds, size, slides) and whether each target is met; exit 1 when
one is not. Each time is a whole export: the run replayed, the slides made, the file written.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.export import RunSpec, lesson_deck, run_deck, write_deck

#: Seconds each export may take (issue 44): the run's deck and the lesson's.
TARGETS = {"run pptx": 10.0, "lesson pptx": 30.0}


def _timed(name: str, make: object) -> tuple[str, float, int, int]:
    start = time.perf_counter()
    deck, data = make()  # type: ignore[operator]
    return name, time.perf_counter() - start, len(data), len(deck.slides)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lesson", default="traps")
    parser.add_argument("--lang", default="es")
    args = parser.parse_args(argv)
    spec = RunSpec(game="connect_four", iterations=30)

    def run_as(fmt: str) -> object:
        def make() -> tuple[object, bytes]:
            deck = run_deck(spec, args.lang)
            return deck, write_deck(deck, fmt)

        return make

    def lesson_as(fmt: str) -> object:
        def make() -> tuple[object, bytes]:
            deck = lesson_deck(args.lesson, args.lang)
            return deck, write_deck(deck, fmt)

        return make

    rows = [_timed(f"run {fmt}", run_as(fmt)) for fmt in ("pptx", "pdf", "gif", "png")]
    rows += [_timed(f"lesson {fmt}", lesson_as(fmt)) for fmt in ("pptx", "pdf")]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"export benchmark: Connect Four, 30 iterations; lesson {args.lesson}; "
          f"language {args.lang}; {os.cpu_count()} cores, load {load:.1f}")  # fmt: skip
    failed = False
    for name, seconds, size, slides in rows:
        target = TARGETS.get(name)
        verdict = ""
        if target is not None:
            met = seconds <= target
            failed |= not met
            verdict = f"  (target <= {target:g} s: {'met' if met else 'MISSED'})"
        print(f"{name:12} {seconds:6.2f} s  {size / 1e6:6.2f} MB  {slides:3} slides{verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
