"""The records an export is made of: what to export (:class:`RunSpec`), what each slide shows
(:class:`Slide`, :class:`Table`), the whole deck (:class:`Deck`), the formats and the error a
bad request raises. Frozen plain data: the builders (``slides.py``) fill them in with the app's
words in the chosen language; the writers (``pptx_deck.py``, ``pdf_handout.py``,
``pictures.py``, by ``layout.py``) only lay them out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from mcts_core.config import SearchConfig

__all__ = [
    "FORMATS",
    "MAX_ITERATIONS",
    "MAX_SLIDES",
    "MEDIA_TYPES",
    "SUFFIXES",
    "Deck",
    "ExportError",
    "Format",
    "Progress",
    "RunSpec",
    "Slide",
    "SlideKind",
    "Table",
]

#: The formats, by the name ``--format`` and the app's ``export_format`` use:
#: ``pptx`` a PowerPoint deck; ``pdf`` a handout (two iterations or one lesson press a page);
#: ``gif`` / ``apng`` an animation of the tree over the chosen iterations (a lesson: of its
#: slides); ``png`` every slide as a PNG picture, in a zip file.
Format = Literal["pptx", "pdf", "gif", "apng", "png"]
FORMATS: tuple[Format, ...] = ("pptx", "pdf", "gif", "apng", "png")
#: A format's file suffix (``png``: a zip of PNG frames).
SUFFIXES: dict[str, str] = {
    "pptx": ".pptx",
    "pdf": ".pdf",
    "gif": ".gif",
    "apng": ".png",
    "png": ".zip",
}
#: A format's media type (the app's download button).
MEDIA_TYPES: dict[str, str] = {
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "pdf": "application/pdf",
    "gif": "image/gif",
    "apng": "image/apng",
    "png": "application/zip",
}

#: The most iterations a run export searches (a seeded run is replayed from the start).
MAX_ITERATIONS = 100_000
#: The most slides (chosen iterations) one export draws: a deck a class can page through and a
#: file a learning platform takes.
MAX_SLIDES = 200

#: ``on_progress(done, total)``: called after each slide is made and after each is written
#: (``total`` is fixed for one export, ``done`` counts up to it); the app's progress bar.
Progress = Callable[[int, int], None]

#: What a slide is: ``iteration`` a run's iteration (tree, narration, terms, board);
#: ``page`` a lesson page's text; ``state`` the screen after a lesson's press; ``question`` the
#: question a page asks before the press; ``reveal`` its answer after it.
SlideKind = Literal["iteration", "page", "state", "question", "reveal"]


class ExportError(ValueError):
    """A request that cannot be exported (an unknown game, lesson, format or language, an
    iteration outside the run): one line that names the bad value."""


@dataclass(frozen=True)
class RunSpec:
    """A seeded run to export: the same game, position, seed and settings give the same tree
    (the app's Link rebuilds it the same way), so the run is replayed from its first iteration.

    Attributes:
        game: a registered game's name (``games.GAME_NAMES``).
        position: the root position string; ``""``: where the game starts (its opening, the
            forced first moves rolled with ``seed``, as in the app).
        seed: the search's seed.
        config: the search settings (the app's widgets, the CLI's flags).
        iterations: iterations run in all (1..:data:`MAX_ITERATIONS`).
        at: the iterations drawn, each in 1..``iterations``, in increasing order; empty: every
            iteration (at most :data:`MAX_SLIDES` slides either way).
        size: the game's ``size`` option (gridiron's players per team), ``None``: its default.
        tree_top_k: children drawn per node below the top (the app's ``tree_top_k``).
        tree_levels: rows of the tree drawn (the app's ``tree_levels``).
    """

    game: str
    position: str = ""
    seed: int = 0
    config: SearchConfig = field(default_factory=SearchConfig)
    iterations: int = 30
    at: tuple[int, ...] = ()
    size: int | None = None
    tree_top_k: int = 3
    tree_levels: int = 6

    def __post_init__(self) -> None:
        if not 1 <= self.iterations <= MAX_ITERATIONS:
            raise ExportError(f"iterations must be 1..{MAX_ITERATIONS:,}, got {self.iterations}")
        bad = [n for n in self.at if not 1 <= n <= self.iterations]
        if bad:
            raise ExportError(f"iteration {bad[0]} is outside the run's 1..{self.iterations}")
        if list(self.at) != sorted(set(self.at)):
            raise ExportError("the iterations to draw must be in increasing order, each once")
        if len(self.chosen) > MAX_SLIDES:
            raise ExportError(
                f"{len(self.chosen):,} iterations to draw: at most {MAX_SLIDES} "
                "(choose some with --every or --at)"
            )
        if not 1 <= self.tree_top_k <= 12 or not 1 <= self.tree_levels <= 12:
            raise ExportError("tree_top_k and tree_levels must be 1..12")

    @property
    def chosen(self) -> tuple[int, ...]:
        """The iterations drawn: ``at``, or every iteration of the run."""
        return self.at or tuple(range(1, self.iterations + 1))


@dataclass(frozen=True)
class Table:
    """A table of a slide, its cells as shown (words in the deck's language).

    Attributes:
        caption: what the table is ("Selection at the root", ...).
        header: the column names.
        rows: the rows, each as long as ``header``.
        chosen: the row drawn highlighted (the child the selection chose), or ``None``.
        order: the rows from the most telling to the least (the chosen child, then the others
            by their Q + bonus, highest first): a slide with no room for every row shows the
            first ones, in the table's own order, and says how many it left out; empty: as
            listed.
    """

    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    chosen: int | None = None
    order: tuple[int, ...] = ()

    def telling(self) -> tuple[int, ...]:
        """The rows' indices from the most telling to the least (:attr:`order`, else as
        listed with the chosen one first)."""
        if self.order:
            return self.order
        first = () if self.chosen is None else (self.chosen,)
        return first + tuple(r for r in range(len(self.rows)) if r != self.chosen)


@dataclass(frozen=True)
class Slide:
    """One 16:9 slide (a handout's block), in the deck's language.

    Attributes:
        kind: what it is (:data:`SlideKind`).
        title: the title line: the game, the iteration and the phase (a lesson: the page's
            title and what the slide is).
        text: the body: an iteration's narration, a page's text (paragraphs separated by a
            blank line), a question with its options, a reveal. Plain text, never markup.
        tree_svg: the tree as the app draws it (``tree_svg.py``), or ``None``.
        board_svg: the board with each root move's share of the visits, or ``None`` (a game
            without a board view: ``board_text`` is shown).
        board_text: the board as text when the game has no picture ("" otherwise).
        tables: the deciding terms: one UCT table per decision on the iteration's path.
        iteration: the search's iteration count at this slide, ``None`` for a text slide.
        narration: the app's narration of what the slide shows alone (an iteration's or a
            press's), "" when it has none: what the tests compare against the app's words.
        short_titles: shorter forms of ``title``, shortest last, for a title too long for one
            line of the slide (the phases named in two words, the game left out of a lesson's
            state); the writers take the first form that fits.
    """

    kind: SlideKind
    title: str
    text: str
    tree_svg: str | None = None
    board_svg: str | None = None
    board_text: str = ""
    tables: tuple[Table, ...] = ()
    iteration: int | None = None
    narration: str = ""
    short_titles: tuple[str, ...] = ()


@dataclass(frozen=True)
class Deck:
    """The slides of one export, in one language.

    Attributes:
        title: the deck's title (the game and the run's settings, or the lesson's title).
        lang: the language tag (``app.words.i18n.OFFERED``) every text is in.
        rtl: the language runs right to left (Arabic): text is aligned and ordered so.
        slides: in order.
        subtitle: a line under the title (the run's settings, the lesson's summary).
    """

    title: str
    lang: str
    rtl: bool
    slides: tuple[Slide, ...]
    subtitle: str = ""
