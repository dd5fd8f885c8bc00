"""A seeded run replayed, one slide per chosen iteration (being written)."""

from __future__ import annotations

from app.export.records import Deck, Progress, RunSpec


def run_deck(spec: RunSpec, lang: str, on_progress: Progress | None) -> Deck:
    raise NotImplementedError


def iteration_png(spec: RunSpec, iteration: int, lang: str) -> bytes:
    raise NotImplementedError
