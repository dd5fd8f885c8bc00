"""SVG to PNG, slides as pictures, GIF, APNG and PNG frames (being written)."""

from __future__ import annotations

from collections.abc import Callable

from app.export.records import Deck


def write_animation(deck: Deck, fmt: str, step: Callable[[int], None]) -> bytes:
    raise NotImplementedError


def write_frames_zip(deck: Deck, step: Callable[[int], None]) -> bytes:
    raise NotImplementedError
