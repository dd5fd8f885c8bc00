"""The teacher's screen as this server process read it: decoded once per version, and its
words made once per version and language, for every student's page on the process.

After a Step every student's page runs to draw the same new frame: 60 pages a replica in a
class of 120. Each read it from the store, decoded its JSON and rebuilt its narration from the
facts, the same work 60 times. Here the first page does it; the others ask the store only
whether the version is still the one decoded (one indexed read) and take the rest from here.

What is kept is never changed by a page (a :class:`Frame` is frozen; its dicts are read,
never written: ``said.tree_in_language`` builds a new tree). A page that finds a newer version
decodes it and it replaces the old; the watcher pushes every page that drew an older one
(app/classroom/push.py), so nothing stale stays on a screen.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from app.classroom import ClassInfo, Room
from app.classroom.core.frame import Frame
from app.classroom.core.room import screen_key
from app.words.i18n import current_tag

__all__ = ["frame_now", "in_language"]

T = TypeVar("T")

#: Classes this process keeps a frame of (one process serves a few classes; more: started over).
MAX_CLASSES = 64
#: What a page makes of a frame in its language, kept per (class, version, what, language).
MAX_MADE = 256

_LOCK = threading.Lock()
#: code -> ((the class's start, version), (version, frame, screen key))
_FRAMES: dict[str, tuple[tuple[float, int], tuple[int, Frame | None, str]]] = {}
_MADE: dict[tuple[str, float, int, str, str], Any] = {}


def frame_now(r: Room, code: str, info: ClassInfo | None = None) -> tuple[int, Frame | None, str]:
    """The class's frame now: its version, the :class:`Frame` (``None``: nothing published
    yet, or a record that does not read) and its screen key (``room.screen_key``: what "I'm
    lost" counts on); the one place a student's page reads a frame. :meth:`Frame.from_dict`
    reads any key missing or of the wrong kind (a replica of another version) as its default,
    so the page never checks a key itself. One read
    (the class's record: its version) when this process already decoded that version of this
    class (the class's start time tells it from an older class of the same code); the frame's
    read and decoding otherwise; ``info``: that record as this run already read it (none: it is
    read here). :class:`~app.classroom.ClassError` for a class that is gone, as
    ``Room.follow``."""
    if info is None or info.code != code:
        info = r.store.class_info(code)
    with _LOCK:
        known = _FRAMES.get(code)
    if info is not None and known is not None and known[0] == (info.created, info.version):
        return known[1]
    version, data = r.follow(code, -1)
    if data is None:
        return version, None, ""
    found = (version, Frame.from_dict(data), screen_key(data if isinstance(data, dict) else {}))
    if info is not None and info.version == version:  # (else a newer one came meanwhile)
        with _LOCK:
            if len(_FRAMES) >= MAX_CLASSES and code not in _FRAMES:
                _FRAMES.clear()
            _FRAMES[code] = ((info.created, version), found)
    return found


def in_language(code: str, version: int, what: str, make: Callable[[], T]) -> T:
    """``make()`` for version ``version`` of class ``code`` in the page's language, made once
    on this process (``what`` names it: "narration", "tree"). ``make`` must depend on nothing
    else (not the student, not the page's state). Kept with the decoded frame's class start
    (:func:`frame_now`): an older class of the same code made nothing that is used again."""
    with _LOCK:
        known = _FRAMES.get(code)
    if known is None or known[0][1] != version:
        return make()  # (not the frame this process keeps: made, not kept)
    key = (code, known[0][0], version, what, current_tag())
    with _LOCK:
        if key in _MADE:
            return _MADE[key]  # type: ignore[no-any-return]
    made = make()
    with _LOCK:
        if len(_MADE) >= MAX_MADE:
            _MADE.clear()
        _MADE[key] = made
    return made
