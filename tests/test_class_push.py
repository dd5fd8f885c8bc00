"""The watcher that pushes the teacher's changes to the students' pages (app/class_push.py),
over a real SQLite class store; the sessions are recorders of the reruns asked of them (the
real runtime's sessions are driven in tests/test_class_browser.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from app.class_push import Watcher
from app.classroom import Room, open_store


class Page:
    """A session's rerun handle that records the reruns asked of it."""

    def __init__(self) -> None:
        self.reruns = 0
        self.busy = False

    def rerun(self, fragment: str, sent: Callable[[], None]) -> None:
        assert fragment == "frame"  # the part the page said it drew the frame in
        if not self.busy:  # as the runtime's handle: only an idle session is pushed
            self.reruns += 1
            sent()


def _room(tmp_path: Path) -> tuple[Room, str, str]:
    room = Room(open_store(f"sqlite:///{tmp_path / 'classes.db'}"))
    teacher = room.start()
    return room, teacher.code, teacher.secret


def _watcher(room: Room, pages: dict[str, Page]) -> Watcher:
    return Watcher(room.version, pages.get, every=3600)  # check() by hand, never the thread


def test_a_publish_pushes_every_page_behind_it_once(tmp_path: Path) -> None:
    room, code, secret = _room(tmp_path)
    pages = {"a": Page(), "b": Page()}
    watcher = _watcher(room, pages)
    version = room.version(code)
    for sid in pages:
        watcher.drawn(sid, code, version, "frame")
    assert watcher.check() == 0  # nothing new
    room.publish(code, secret, {"stats": "1"})
    assert watcher.check() == 2
    assert watcher.check() == 0  # asked once per version, not every round
    assert [p.reruns for p in pages.values()] == [1, 1]
    watcher.drawn("a", code, room.version(code), "frame")  # a drew it; b's rerun is still coming
    room.publish(code, secret, {"stats": "2"})
    assert watcher.check() == 2
    assert [p.reruns for p in pages.values()] == [2, 2]
    watcher.stop()


def test_a_running_page_waits_and_a_gone_one_is_forgotten(tmp_path: Path) -> None:
    room, code, secret = _room(tmp_path)
    pages = {"busy": Page(), "gone": Page()}
    watcher = _watcher(room, pages)
    for sid in pages:
        watcher.drawn(sid, code, room.version(code), "frame")
    del pages["gone"]  # its session closed
    pages["busy"].busy = True
    room.publish(code, secret, {"stats": "1"})
    assert watcher.check() == 1  # asked; busy, it is not pushed (its run reads the store)
    assert watcher.pages() == 1 and pages["busy"].reruns == 0
    pages["busy"].busy = False
    assert watcher.check() == 1  # asked again, and pushed now
    assert pages["busy"].reruns == 1 and watcher.check() == 0
    watcher.stop()


def test_an_ended_class_pushes_its_pages_and_a_left_page_is_not_pushed(tmp_path: Path) -> None:
    room, code, secret = _room(tmp_path)
    pages = {"a": Page(), "b": Page()}
    watcher = _watcher(room, pages)
    for sid in pages:
        watcher.drawn(sid, code, room.version(code), "frame")
    watcher.forget("b")  # b went to explore on their own
    room.end(code, secret)
    assert watcher.check() == 1  # a's run says the class ended
    assert (pages["a"].reruns, pages["b"].reruns) == (1, 0)
    watcher.stop()


def test_the_thread_pushes_within_a_few_rounds(tmp_path: Path) -> None:
    room, code, secret = _room(tmp_path)
    page = Page()
    watcher = Watcher(room.version, {"a": page}.get, every=0.01)
    watcher.drawn("a", code, room.version(code), "frame")  # starts the thread
    room.publish(code, secret, {"stats": "1"})
    deadline = time.monotonic() + 30  # a generous bound on a loaded machine, not a timing test
    while page.reruns == 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert page.reruns == 1
    watcher.stop()
