"""Students' pages take turns on their server process: at most :data:`AT_ONCE` draw at a time.

After a Step the watcher asks every student's page on the process to draw the new screen
(app/classroom/push.py), 60 of them on a replica of a class of 120, and each run is its own
thread. Python runs one thread at a time and shares it round the ready ones, so 60 runs at once
all end near the end of the burst, and the process's other threads wait behind them: the
event loop that sends each finished page to its browser, and the teacher's page (the count of
answers, a reconnecting teacher after a replica died). Taking turns, the first pages are sent
while the last still wait, and the teacher's page, which never waits here, gets its share.

Two at a time, not one: a run that waits for the class store (a Redis round trip) lets the
other run meanwhile. A run that waits for the store among 60 others waits again for its turn
at the interpreter after each answer, five times a page on Redis: with 120 students and a
replica killed (its 60 pages on the other), a Step on the students' screens took 3.8-5.3 s at
p95 with every page at once and 1.4-1.8 s in turns (README, "A class under load").
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["AT_ONCE", "turn"]

#: How many students' page runs of one server process draw at once.
AT_ONCE = 2

_TURNS = threading.BoundedSemaphore(AT_ONCE)
_HELD = threading.local()  # this thread's depth inside turn() (a whole run draws its fragment)


@contextmanager
def turn() -> Iterator[None]:
    """Wait for a turn, draw, give it back (on any exit: a rerun, a stop, an error). Nested
    calls in one run take one turn."""
    depth = getattr(_HELD, "depth", 0)
    if depth == 0:
        _TURNS.acquire()
    _HELD.depth = depth + 1
    try:
        yield
    finally:
        _HELD.depth = depth
        if depth == 0:
            _TURNS.release()
