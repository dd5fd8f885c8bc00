"""The export's public API: a run or a lesson as the bytes of a file in one format.

The slides are made first (:func:`run_deck`, :func:`lesson_deck`: the app's own drawing and
words, in the chosen language), then written (:func:`write_deck`). ``on_progress(done, total)``
is called as slides are made and written, for a progress bar; ``total`` is twice the slides
(made, then written).
"""

from __future__ import annotations

from app.export import pdf_handout, pictures, pptx_deck, slides
from app.export.records import FORMATS, Deck, ExportError, Format, Progress, RunSpec
from app.words import i18n

__all__ = [
    "check_format",
    "check_language",
    "export_lesson",
    "export_run",
    "iteration_png",
    "lesson_deck",
    "run_deck",
    "write_deck",
]


def check_format(fmt: str) -> Format:
    """``fmt`` if it is one of :data:`FORMATS`, else :class:`ExportError`."""
    for known in FORMATS:
        if fmt == known:
            return known
    raise ExportError(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})")


def check_language(lang: str) -> str:
    """``lang`` if the app offers it (``app.words.i18n.offered()``), else :class:`ExportError`."""
    if lang not in i18n.offered():
        raise ExportError(f"unknown language {lang!r} (choose from {', '.join(i18n.offered())})")
    return lang


def run_deck(spec: RunSpec, lang: str = "en", on_progress: Progress | None = None) -> Deck:
    """The slides of a seeded run: one per iteration of ``spec.chosen`` (title: the game, the
    iteration and the phase; the tree as the app draws it; the narration; the UCT rows of each
    decision on the path; the board with each root move's share of the visits), in ``lang``.

    ``on_progress(done, total)`` after each slide, ``total = 2 * len(spec.chosen)`` (the
    second half is :func:`write_deck`'s). Raises :class:`ExportError` on a bad game, position
    or language."""
    check_language(lang)
    return slides.run_deck(spec, lang, on_progress)


def lesson_deck(name: str, lang: str = "en", on_progress: Progress | None = None) -> Deck:
    """The slides of the lesson ``name`` (``lessons/<name>.toml``), in its ``lang``
    translation: each page's text slide, then for each press the state after it; a page's
    question on a slide of its own before the press, its reveal on one after it.

    ``on_progress(done, total)`` after each slide made (``total``: twice the slides, an
    estimate until the lesson has been followed). Raises :class:`ExportError` on an unknown
    lesson or language, or a lesson file that cannot be read."""
    check_language(lang)
    return slides.lesson_deck(name, lang, on_progress)


def write_deck(deck: Deck, fmt: Format | str, on_progress: Progress | None = None,
               done: int = 0, total: int | None = None) -> bytes:  # fmt: skip
    """``deck`` as the bytes of a ``fmt`` file (:data:`FORMATS`; ``SUFFIXES`` and
    ``MEDIA_TYPES`` name its suffix and media type). ``on_progress(done + k, total)`` after
    each of its ``k`` slides is written (``total`` defaults to ``done + len(slides)``)."""
    chosen = check_format(str(fmt))
    count = len(deck.slides)
    whole = total if total is not None else done + count

    def step(k: int) -> None:
        if on_progress is not None:
            on_progress(done + k, whole)

    if chosen == "pptx":
        return pptx_deck.write_pptx(deck, step)
    if chosen == "pdf":
        return pdf_handout.write_pdf(deck, step)
    if chosen in ("gif", "apng"):
        return pictures.write_animation(deck, chosen, step)
    return pictures.write_frames_zip(deck, step)


def export_run(spec: RunSpec, fmt: Format | str, lang: str = "en",
               on_progress: Progress | None = None) -> bytes:  # fmt: skip
    """A seeded run as a ``fmt`` file in ``lang``: :func:`run_deck` then :func:`write_deck`.
    ``on_progress(done, total)`` counts the slides made, then written. Raises
    :class:`ExportError` (one line) on bad input."""
    check_format(str(fmt))
    deck = run_deck(spec, lang, on_progress)
    count = len(deck.slides)
    return write_deck(deck, fmt, on_progress, done=count, total=2 * count)


def export_lesson(name: str, fmt: Format | str, lang: str = "en",
                  on_progress: Progress | None = None) -> bytes:  # fmt: skip
    """The lesson ``name`` as a ``fmt`` file in ``lang``: :func:`lesson_deck` then
    :func:`write_deck`. Raises :class:`ExportError` (one line) on bad input."""
    check_format(str(fmt))
    deck = lesson_deck(name, lang, on_progress)
    count = len(deck.slides)
    return write_deck(deck, fmt, on_progress, done=count, total=2 * count)


def iteration_png(spec: RunSpec, iteration: int, lang: str = "en") -> bytes:
    """The tree picture of the run's ``iteration`` (1..``spec.iterations``) as a PNG: the
    picture every format draws (the deck's, the handout's, the animation's frame), at the
    projector's scale (texts >= 14 px at 1280x720). What a browser test compares with the
    app's drawing of the same iteration."""
    check_language(lang)
    if not 1 <= iteration <= spec.iterations:
        raise ExportError(f"iteration {iteration} is outside the run's 1..{spec.iterations}")
    return slides.iteration_png(spec, iteration, lang)
