"""The PowerPoint deck (being written)."""

from __future__ import annotations

from collections.abc import Callable

from app.export.records import Deck


def write_pptx(deck: Deck, step: Callable[[int], None]) -> bytes:
    raise NotImplementedError
