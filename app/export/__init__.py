"""Take the lab out of the room (issue 44): a run or a lesson as a slide deck (PowerPoint), a PDF
handout, an animation (GIF or APNG) or PNG frames, in the class's language.

Pure Python (no Streamlit): the app's Export box (``app/screen``), the lesson strip's Export
(``app/lessons/lesson_view.py``) and ``mcts-lab export`` (:mod:`app.export.command`) call the same
functions. What a slide shows is made once, by the app's own code (the tree's layout and colours,
the narration, the UCT rows, the board), into plain records; each format only lays them out:

- ``records.py``: :class:`RunSpec` (a run to export), :class:`Slide`, :class:`Deck`, the formats
  and :class:`ExportError` (bad input, one line);
- ``api.py``: :func:`export_run`, :func:`export_lesson`, :func:`write_deck`, :func:`run_deck`,
  :func:`lesson_deck`, :func:`iteration_png` (the public API);
- ``slides.py``: a seeded run replayed, one slide per chosen iteration; a lesson followed page
  by page and press by press (its question and its reveal on slides of their own);
- ``tree_svg.py``: the browser tree's drawing (:class:`app.drawing.tree_model.TreeView`, the
  app's layout and colours) as an SVG, framed as the projector frames it;
- ``layout.py``: where everything of a 16:9 slide goes, every text at 14 px or more, the tables
  and the title whole (the slide's picture and the deck alike);
- ``pictures.py``: SVG to PNG (resvg, two at a time), whole slides as pictures, GIF, APNG and PNG
  frames;
- ``pptx_deck.py``: the PowerPoint deck (editable text, one picture per drawing);
- ``pdf_handout.py``: the PDF handout (text that can be searched and copied);
- ``command.py``: ``mcts-lab export``'s flags and run.
"""

from typing import TYPE_CHECKING

from app.export.records import (
    FORMATS,
    MEDIA_TYPES,
    SUFFIXES,
    Deck,
    ExportError,
    Format,
    Progress,
    RunSpec,
    Slide,
    Table,
)

if TYPE_CHECKING:  # (what __getattr__ below gives, for the type checker)
    from app.export.api import (
        export_lesson,
        export_run,
        iteration_png,
        lesson_deck,
        run_deck,
        write_deck,
    )

#: The public API's functions, from :mod:`app.export.api` on first use: ``mcts-lab`` reads this
#: package for every command (its ``export``), and the writers' libraries take seconds to import.
_API = ("export_lesson", "export_run", "iteration_png", "lesson_deck", "run_deck", "write_deck")


def __getattr__(name: str) -> object:
    if name in _API:
        from app.export import api

        return getattr(api, name)
    raise AttributeError(f"module 'app.export' has no attribute {name!r}")


__all__ = [
    "FORMATS",
    "MEDIA_TYPES",
    "SUFFIXES",
    "Deck",
    "ExportError",
    "Format",
    "Progress",
    "RunSpec",
    "Slide",
    "Table",
    "export_lesson",
    "export_run",
    "iteration_png",
    "lesson_deck",
    "run_deck",
    "write_deck",
]
