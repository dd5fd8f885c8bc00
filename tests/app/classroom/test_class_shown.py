"""The teacher's screen as a server process keeps it for its students' pages
(app/classroom/student/shown.py): read and decoded once per version, replaced by a newer
version, never lent to a newer class of the same code, and what a page makes of it kept per
language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.classroom import Room
from app.classroom.core import codes
from app.classroom.core.frame import Frame
from app.classroom.core.store import open_store
from app.classroom.student import shown
from app.words import i18n


class Counting:
    """A store with its frame reads counted."""

    def __init__(self, store: Any) -> None:
        self._store = store
        self.frames = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def frame(self, code: str) -> Any:
        self.frames += 1
        return self._store.frame(code)


def _room(path: Path, now: float) -> tuple[Room, Counting]:
    store = Counting(open_store(f"sqlite:///{path}"))
    return Room(store, clock=lambda: now), store  # type: ignore[arg-type]


def _class(room: Room, code: str, now: float) -> str:
    """A class under the code ``code`` (the store's own call: a test chooses the code)."""
    assert room.store.create_class(code, codes.hash_secret("s"), now)
    return "s"


def _frame(stats: str) -> dict[str, Any]:
    return Frame(stats=stats, narration=(f"said {stats}",)).to_dict()


@pytest.fixture(autouse=True)
def fresh() -> None:
    shown._FRAMES.clear()
    shown._MADE.clear()


def test_a_version_is_read_once_and_a_newer_one_replaces_it(tmp_path: Path) -> None:
    room, store = _room(tmp_path / "a.db", 1_800_000_000.0)
    secret = _class(room, "ABCDEF", 1_800_000_000.0)
    room.publish("ABCDEF", secret, _frame("one"))
    firsts = [shown.frame_now(room, "ABCDEF") for _ in range(5)]
    assert store.frames == 1  # five pages, one read of the frame
    assert {(v, f.stats if f else None) for v, f, _ in firsts} == {(1, "one")}
    room.publish("ABCDEF", secret, _frame("two"))
    version, frame, _screen = shown.frame_now(room, "ABCDEF")
    assert (version, frame and frame.stats, store.frames) == (2, "two", 2)


def test_a_newer_class_of_the_same_code_never_gets_the_older_ones_frame(tmp_path: Path) -> None:
    old, _ = _room(tmp_path / "old.db", 1_800_000_000.0)
    room_old = _class(old, "ABCDEF", 1_800_000_000.0)
    old.publish("ABCDEF", room_old, _frame("old class"))
    assert shown.frame_now(old, "ABCDEF")[1].stats == "old class"  # type: ignore[union-attr]
    new, _ = _room(tmp_path / "new.db", 1_800_000_500.0)  # the code again, later, version 1 too
    secret = _class(new, "ABCDEF", 1_800_000_500.0)
    new.publish("ABCDEF", secret, _frame("new class"))
    version, frame, _screen = shown.frame_now(new, "ABCDEF")
    assert (version, frame and frame.stats) == (1, "new class")
    made = shown.in_language("ABCDEF", 1, "narration", lambda: "the new class's words")
    assert made == "the new class's words"


def test_words_are_made_once_a_language_and_again_for_a_new_version(tmp_path: Path) -> None:
    room, _ = _room(tmp_path / "a.db", 1_800_000_000.0)
    secret = _class(room, "ABCDEF", 1_800_000_000.0)
    room.publish("ABCDEF", secret, _frame("one"))
    shown.frame_now(room, "ABCDEF")
    calls: list[str] = []

    def make() -> str:
        calls.append(i18n.current_tag())
        return f"words in {i18n.current_tag()}"

    for tag in ("en", "es", "en", "es", "de"):
        with i18n.language(tag):
            assert shown.in_language("ABCDEF", 1, "narration", make) == f"words in {tag}"
    assert calls == ["en", "es", "de"]
    room.publish("ABCDEF", secret, _frame("two"))
    with i18n.language("en"):
        assert shown.in_language("ABCDEF", 2, "narration", make) == "words in en"  # not kept yet
        shown.frame_now(room, "ABCDEF")
        shown.in_language("ABCDEF", 2, "narration", make)
        shown.in_language("ABCDEF", 2, "narration", make)
    assert calls == ["en", "es", "de", "en", "en"]  # made for version 2, then kept
