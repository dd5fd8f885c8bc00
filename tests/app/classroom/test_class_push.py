"""The watcher that pushes the teacher's changes to the students' pages (app/classroom/push.py),
over a real SQLite class store; the sessions are recorders of the reruns asked of them (the
real runtime's sessions are driven in tests/browser/test_class_browser.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from app.classroom import Room, open_store
from app.classroom.core.room import HERE_SECONDS
from app.classroom.push import RETRY_SECONDS, Watcher


class Page:
    """A session's rerun handle that records the reruns asked of it."""

    def __init__(self) -> None:
        self.reruns: list[str] = []  # the fragments run ("": the whole page)
        self.busy = False

    def rerun(self, fragment: str, sent: Callable[[], None]) -> None:
        if not self.busy:  # as the runtime's handle: only an idle session is pushed
            self.reruns.append(fragment)
            sent()


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _room(tmp_path: Path) -> tuple[Room, str, str]:
    room = Room(open_store(f"sqlite:///{tmp_path / 'classes.db'}"))
    teacher = room.start()
    return room, teacher.code, teacher.secret


def _join(room: Room, code: str, *names: str) -> dict[str, str]:
    """Students joined by name: name -> student id."""
    return {name: room.join(code, f"client-{name}", name=name)[1].id for name in names}


def _watcher(room: Room, pages: dict[str, Page], clock: Clock | None = None) -> Watcher:
    # check() by hand, never the thread
    return Watcher(room.version, room.here, pages.get, every=3600, clock=clock or Clock())


def _class(
    tmp_path: Path, *names: str, clock: Clock | None = None
) -> tuple[Room, str, str, dict[str, str], dict[str, Page], Watcher]:
    """A class whose students (by name; a name is also their page's session id) each have a
    page that drew the class's current frame: the room, code, secret, ids, pages, watcher."""
    room, code, secret = _room(tmp_path)
    ids = _join(room, code, *names)
    pages = {name: Page() for name in names}
    watcher = _watcher(room, pages, clock)
    for sid in pages:
        watcher.drawn(sid, code, ids[sid], room.version(code), "frame")
    return room, code, secret, ids, pages, watcher


def test_a_publish_pushes_every_page_behind_it_once(tmp_path: Path) -> None:
    room, code, secret, ids, pages, watcher = _class(tmp_path, "a", "b")
    assert watcher.check() == 0  # nothing new
    room.publish(code, secret, {"stats": "1"})
    assert watcher.check() == 2
    assert watcher.check() == 0  # asked once per version, not every round
    assert [p.reruns for p in pages.values()] == [["frame"], ["frame"]]
    watcher.drawn("a", code, ids["a"], room.version(code), "frame")  # a drew it
    room.publish(code, secret, {"stats": "2"})
    assert watcher.check() == 2
    assert [len(p.reruns) for p in pages.values()] == [2, 2]
    watcher.stop()


def test_a_busy_page_is_asked_again_and_a_gone_one_is_forgotten(tmp_path: Path) -> None:
    room, code, secret, ids, pages, watcher = _class(tmp_path, "busy", "gone")
    del pages["gone"]  # its session closed
    pages["busy"].busy = True
    room.publish(code, secret, {"stats": "1"})
    assert watcher.check() == 1  # asked; busy, it is not pushed (its run reads the store)
    assert watcher.pages() == 1 and pages["busy"].reruns == []
    pages["busy"].busy = False
    assert watcher.check() == 1  # asked again, and pushed now
    assert pages["busy"].reruns == ["frame"] and watcher.check() == 0
    watcher.stop()


def test_a_push_that_did_not_take_reruns_the_whole_page(tmp_path: Path) -> None:
    room, code, secret = _room(tmp_path)
    ids = _join(room, code, "a")
    page, clock = Page(), Clock()
    watcher = _watcher(room, {"a": page}, clock)
    watcher.drawn("a", code, ids["a"], room.version(code), "frame")
    room.publish(code, secret, {"stats": "1"})
    watcher.check()
    clock.now += RETRY_SECONDS - 0.1
    assert watcher.check() == 0  # the fragment's run may still come
    clock.now += 0.2
    assert watcher.check() == 1 and page.reruns == ["frame", ""]
    watcher.stop()


def test_the_watcher_says_pages_are_open_and_reruns_a_removed_one(tmp_path: Path) -> None:
    clock = Clock()
    room, code, secret, ids, pages, watcher = _class(tmp_path, "stays", "removed", clock=clock)
    joined = room.student(code, ids["stays"])
    assert joined is not None
    room.clock = lambda: joined.seen + 60  # a minute later on the room's clock
    room.remove_student(code, secret, ids["removed"])
    clock.now += HERE_SECONDS
    assert watcher.check() == 1  # the removed page runs whole: it says so
    assert pages["removed"].reruns == [""] and pages["stays"].reruns == []
    seen = room.student(code, ids["stays"])
    assert seen is not None and seen.seen == joined.seen + 60  # "still open", written
    watcher.stop()


def test_an_ended_class_pushes_its_pages_and_a_left_page_is_not_pushed(tmp_path: Path) -> None:
    room, code, secret, ids, pages, watcher = _class(tmp_path, "a", "b")
    watcher.forget("b")  # b went to explore on their own
    room.end(code, secret)
    assert watcher.check() == 1  # a's run says the class ended
    assert (pages["a"].reruns, pages["b"].reruns) == (["frame"], [])
    watcher.stop()


def test_the_thread_pushes_within_a_few_rounds(tmp_path: Path) -> None:
    room, code, secret = _room(tmp_path)
    ids = _join(room, code, "a")
    page = Page()
    watcher = Watcher(room.version, room.here, {"a": page}.get, every=0.01)
    watcher.drawn("a", code, ids["a"], room.version(code), "frame")  # starts the thread
    room.publish(code, secret, {"stats": "1"})
    deadline = time.monotonic() + 30  # a generous bound on a loaded machine, not a timing test
    while not page.reruns and time.monotonic() < deadline:
        time.sleep(0.01)
    assert page.reruns == ["frame"]
    watcher.stop()
