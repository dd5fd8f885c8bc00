"""Students' pages take turns on a server process (app/classroom/student/turns.py): at most
AT_ONCE draw at once; a whole page that draws its fragment takes one
turn; a run that ends by an exception (Streamlit's rerun and stop are exceptions) gives its
turn back."""

from __future__ import annotations

import threading
import time

import pytest

from app.classroom.student import turns


def test_at_most_at_once_draw_and_every_run_draws() -> None:
    drawing, most, done = 0, 0, []
    lock, start, full = threading.Lock(), threading.Barrier(12), threading.Event()

    def page(n: int) -> None:
        nonlocal drawing, most
        start.wait(10)  # all ask at once, as the pages the watcher pushes at a Step
        with turns.turn():
            with lock:
                drawing += 1
                most = max(most, drawing)
                if drawing == turns.AT_ONCE:
                    full.set()
            full.wait(5)  # (a run's work: held until every turn was taken once, however slow
            time.sleep(0.01)  # the machine; the others wait for a turn meanwhile)
            with lock:
                drawing -= 1
                done.append(n)

    threads = [threading.Thread(target=page, args=(n,)) for n in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert sorted(done) == list(range(12))
    assert most == turns.AT_ONCE


def test_a_whole_page_drawing_its_fragment_takes_one_turn() -> None:
    held = [turns.turn() for _ in range(turns.AT_ONCE - 1)]
    for other in held:
        other.__enter__()  # the other turns taken: one left
    try:
        finished = threading.Event()

        def whole_page() -> None:
            with turns.turn(), turns.turn():  # the page, then its fragment inside it
                finished.set()

        thread = threading.Thread(target=whole_page)
        thread.start()
        assert finished.wait(5), "a nested turn waited for itself"
        thread.join(5)
    finally:
        for other in held:
            other.__exit__(None, None, None)


def test_a_run_ended_by_an_exception_gives_its_turn_back() -> None:
    for _ in range(turns.AT_ONCE + 2):
        with pytest.raises(RuntimeError), turns.turn():
            raise RuntimeError("a rerun")  # (Streamlit stops a run by raising)
    got = [turns._TURNS.acquire(timeout=1) for _ in range(turns.AT_ONCE)]
    for taken in got:
        if taken:
            turns._TURNS.release()
    assert all(got)
