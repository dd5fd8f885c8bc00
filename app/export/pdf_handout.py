"""The PDF handout (fpdf2): A4 pages a student revises from, two iterations a page for a run, one
press a page for a lesson (its page's text, its question, the state after it and the reveal).
Every word is real text, searchable and copyable, in an embedded font: DejaVu Sans (Latin,
Arabic: shaped and right to left with HarfBuzz) or, for Chinese, Noto Sans CJK (its Latin too,
so a line is one font); the pictures (the tree, the board) are the same PNGs every format draws.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from fpdf import FPDF

from app.export.pictures import drawn_in_batches, svg_png
from app.export.records import Deck, Slide, Table

__all__ = ["FONT_FILES", "write_pdf"]

#: The fonts embedded: DejaVu Sans (fonts-dejavu-core) and Noto Sans CJK (fonts-noto-cjk, its
#: Simplified Chinese face: number 2 of the collection), both installed by ``.ci/run``.
FONT_FILES = {
    "regular": Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
    "bold": Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"),
    "cjk": Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
    "cjk_bold": Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc"),
}
_CJK_FACE = 2  # Noto Sans CJK SC in the collection
_W = 186.0  # mm of text width on A4 with 12 mm margins
_TREE_W = 118.0  # mm: the tree picture's width (760 x 430 px)
_SIDE_W = _W - _TREE_W - 6


def _fonts(pdf: FPDF, lang: str) -> str:
    """Add the deck's fonts; returns the family its text is set in."""
    if lang.startswith("zh"):
        pdf.add_font("Text", "", str(FONT_FILES["cjk"]), collection_font_number=_CJK_FACE)
        pdf.add_font("Text", "B", str(FONT_FILES["cjk_bold"]), collection_font_number=_CJK_FACE)
        return "Text"
    pdf.add_font("Text", "", str(FONT_FILES["regular"]))
    pdf.add_font("Text", "B", str(FONT_FILES["bold"]))
    return "Text"


#: The handout's pictures at 1.25 x the slide's px: about 200 dpi at its 118 mm.
_HANDOUT_ZOOM = 1.25


def _png(svg: str) -> bytes:
    return svg_png(svg, _HANDOUT_ZOOM)


def _drawings(slide: Slide) -> list[tuple[str, float]]:
    """The pictures a slide's block shows, as :func:`_png` draws them."""
    if slide.tree_svg is None:
        return []
    return [(svg, _HANDOUT_ZOOM) for svg in (slide.tree_svg, slide.board_svg) if svg is not None]


def _text(pdf: FPDF, deck: Deck, text: str, size: float, *, bold: bool = False,
          width: float = 0.0, x: float | None = None) -> None:  # fmt: skip
    """A paragraph block (blank lines kept) at ``x`` (default: the left margin)."""
    pdf.set_font("Text", "B" if bold else "", size)
    if x is not None:
        pdf.set_x(x)
    pdf.multi_cell(width, size * 0.5, text, align="R" if deck.rtl else "L",
                   new_x="LMARGIN", new_y="NEXT")  # fmt: skip


def _table(pdf: FPDF, deck: Deck, table: Table, x: float, width: float) -> None:
    """A compact table of the deciding terms (7 pt), the chosen row bold on amber."""
    pdf.set_font("Text", "B", 7)
    pdf.set_x(x)
    pdf.multi_cell(width, 3.4, table.caption, align="R" if deck.rtl else "L",
                   new_x="LMARGIN", new_y="NEXT")  # fmt: skip
    cols = len(table.header)
    widths = [width * (1.4 if i == 0 else 1.0) / (cols + 0.4) for i in range(cols)]
    order = list(range(cols))[::-1] if deck.rtl else list(range(cols))
    rows = [table.header, *table.rows]
    for r, row in enumerate(rows):
        chosen = r - 1 == table.chosen
        pdf.set_font("Text", "B" if r == 0 or chosen else "", 6.5)
        pdf.set_fill_color(*((254, 243, 199) if chosen else (255, 255, 255)))
        pdf.set_x(x)
        for c in order:
            text = str(row[c])
            while len(text) > 1 and pdf.get_string_width(text) > widths[c] - 0.6:
                text = text[:-2] + "…"
            pdf.cell(widths[c], 3.3, text, border=0, align="C", fill=chosen)
        pdf.ln(3.3)


def _iteration_block(pdf: FPDF, deck: Deck, slide: Slide) -> None:
    """An iteration (or a state): its title, the tree with the narration under it, the board
    and the deciding terms beside it."""
    _text(pdf, deck, slide.title, 11, bold=True)
    top = pdf.get_y() + 1
    left = pdf.l_margin
    tree_x = left + _W - _TREE_W if deck.rtl else left
    side_x = left if deck.rtl else left + _TREE_W + 6
    tree_h = _TREE_W * 430 / 760
    assert slide.tree_svg is not None
    pdf.image(io.BytesIO(_png(slide.tree_svg)), x=tree_x, y=top, w=_TREE_W, h=tree_h)
    pdf.set_y(top + tree_h + 2)
    _text(pdf, deck, slide.text, 9, width=_TREE_W, x=tree_x)
    below = pdf.get_y()
    pdf.set_y(top)
    if slide.board_svg is not None:
        png = _png(slide.board_svg)
        from PIL import Image

        with Image.open(io.BytesIO(png)) as image:
            pw, ph = image.size
        board_h = min(48.0, _SIDE_W * ph / pw)
        board_w = board_h * pw / ph
        pdf.image(io.BytesIO(png), x=side_x + (_SIDE_W - board_w) / 2, y=top, w=board_w,
                  h=board_h)  # fmt: skip
        pdf.set_y(top + board_h + 2)
    elif slide.board_text:
        pdf.set_font("Text", "", 8)
        pdf.set_x(side_x)
        pdf.multi_cell(_SIDE_W, 3.6, slide.board_text, new_x="LMARGIN", new_y="NEXT")
    for table in slide.tables:
        _table(pdf, deck, table, side_x, _SIDE_W)
        pdf.ln(1.5)
    pdf.set_y(max(below, pdf.get_y()) + 5)


def _block_height(slide: Slide) -> float:
    """About how much of a page (mm) a slide's block takes."""
    if slide.tree_svg is not None:
        return 8 + _TREE_W * 430 / 760 + 4 + 4.6 * (len(slide.text) / 95 + 1) + 5
    return 8 + 4.6 * (len(slide.text) / 80 + slide.text.count("\n") + 1)


def _new_sheet(deck: Deck, slide: Slide, before: Slide | None, on_page: int) -> bool:
    """Whether ``slide`` starts a new page: a run's third iteration on a page; a lesson's
    page, and the first slide of each press (its question, or its state)."""
    if before is None:
        return True
    if slide.kind == "iteration":
        return on_page >= 2
    if slide.kind == "page":
        return True
    return slide.kind in ("question", "state") and before.kind in ("state", "reveal")


def write_pdf(deck: Deck, step: Callable[[int], None]) -> bytes:
    """``deck`` as an A4 handout; ``step(k)`` after the k-th slide is laid out."""
    pdf = FPDF(orientation="P", unit="mm", format="A4")
    pdf.set_margins(12, 12, 12)
    pdf.set_auto_page_break(True, margin=12)
    pdf.set_title(deck.title)
    pdf.set_lang(deck.lang)
    pdf.set_creator("MCTS Lab")
    _fonts(pdf, deck.lang)
    if deck.rtl:
        pdf.set_text_shaping(use_shaping_engine=True, direction="rtl", script="arab",
                             language="ara")  # fmt: skip
    else:
        pdf.set_text_shaping(True)
    pdf.add_page()
    _text(pdf, deck, deck.title, 16, bold=True)
    if deck.subtitle:
        _text(pdf, deck, deck.subtitle, 10)
    pdf.ln(3)
    before: Slide | None = None
    on_page = 0
    for k, slide in enumerate(drawn_in_batches(deck.slides, _drawings), start=1):
        fresh = _new_sheet(deck, slide, before, on_page) and before is not None
        if fresh or pdf.get_y() + min(_block_height(slide), 120) > pdf.h - 12:
            pdf.add_page()
            on_page = 0
        if slide.tree_svg is not None:
            _iteration_block(pdf, deck, slide)
        else:
            _text(pdf, deck, slide.title, 11, bold=True)
            _text(pdf, deck, slide.text, 9.5)
            pdf.ln(4)
        on_page += 1
        before = slide
        step(k)
    return bytes(pdf.output())
