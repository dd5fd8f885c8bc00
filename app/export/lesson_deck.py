"""A lesson followed page by page and press by press (being written)."""

from __future__ import annotations

from app.export.records import Deck, Progress


def lesson_deck(name: str, lang: str, on_progress: Progress | None) -> Deck:
    raise NotImplementedError
