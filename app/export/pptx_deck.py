"""The PowerPoint deck (python-pptx): 16:9 slides laid out as :func:`app.export.pictures.slide_svg`
lays out a picture of the same slide, with every text editable (the title, the narration or the
page's text, the deciding terms as real tables) and one picture per drawing (the tree, the
board). Right-to-left paragraphs for Arabic; each run of text carries the deck's language. The
speaker notes hold the whole narration and every decision's terms (what the slide had no room
for).

Shapes are named, so a reader (a test, a script) finds them: ``Title``, ``Narration`` (an
iteration's or a press's narration, a page's text, a question or a reveal), ``Tree``,
``Board``, ``Terms 1``, ``Terms 2``, ...
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.enum.text import MSO_ANCHOR, PP_ALIGN
from pptx.util import Emu, Pt

from app.export.pictures import SLIDE_H, SLIDE_W, svg_png
from app.export.records import Deck, Slide, Table

__all__ = ["PX", "write_pptx"]

#: One px of the 1280x720 layout in EMU (13.333 x 7.5 inches: 96 px an inch).
PX = 9525
#: Pictures are drawn at the layout's px: the projector's 1280x720, pixel for pixel (a larger zoom
#: doubled the deck's time for a sharper picture on screens wider than the class's).
ZOOM = 1.0
_MARGIN = 16
_TITLE_H = 64
_TREE = (760, 430)
_LANG = {"en": "en-US", "es": "es-ES", "de": "de-DE", "zh-Hans": "zh-CN", "ar": "ar-SA"}


def _rgb(hex_colour: str) -> Any:
    """A python-pptx colour from ``"F3F4F6"`` (python-pptx's colour type is untyped)."""
    return RGBColor.from_string(hex_colour)  # type: ignore[no-untyped-call]


def _px(value: float) -> Emu:
    return Emu(int(round(value * PX)))


def _pt(px: float) -> Pt:
    """A font size given in px of the layout, in points (0.75 pt a px)."""
    return Pt(px * 0.75)


def _text_box(slide: object, name: str, box: tuple[float, float, float, float], text: str,
              size: float, deck: Deck, *, bold: bool = False,
              fill: str | None = None) -> None:  # fmt: skip
    """A named text box with ``text`` (a paragraph a line; blank lines kept), right to left
    when the deck is."""
    x, y, w, h = box
    shape = slide.shapes.add_textbox(_px(x), _px(y), _px(w), _px(h))  # type: ignore[attr-defined]
    shape.name = name
    frame = shape.text_frame
    frame.word_wrap = True
    frame.vertical_anchor = MSO_ANCHOR.TOP
    if fill is not None:
        shape.fill.solid()
        shape.fill.fore_color.rgb = _rgb(fill)
    for i, line in enumerate(text.split("\n")):
        paragraph = frame.paragraphs[0] if i == 0 else frame.add_paragraph()
        run = paragraph.add_run()
        run.text = line
        _style(run, paragraph, size, deck, bold)


def _style(run: object, paragraph: object, size: float, deck: Deck, bold: bool) -> None:
    run.font.size = _pt(size)  # type: ignore[attr-defined]
    run.font.bold = bold  # type: ignore[attr-defined]
    run.font.color.rgb = _rgb("111827")  # type: ignore[attr-defined]
    props = run._r.get_or_add_rPr()  # type: ignore[attr-defined]
    props.set("lang", _LANG.get(deck.lang, deck.lang))
    if deck.rtl:
        paragraph.alignment = PP_ALIGN.RIGHT  # type: ignore[attr-defined]
        paragraph._p.get_or_add_pPr().set("rtl", "1")  # type: ignore[attr-defined]


def _picture(slide: object, name: str, svg: str, box: tuple[float, float, float, float]) -> None:
    """An SVG drawn as a PNG, placed in ``box`` (aspect kept, centred across, from the top)."""
    png = svg_png(svg, ZOOM)
    x, y, w, h = box
    from PIL import Image

    with Image.open(io.BytesIO(png)) as image:
        pw, ph = image.size
    scale = min(w / pw, h / ph)
    dw, dh = pw * scale, ph * scale
    shape = slide.shapes.add_picture(  # type: ignore[attr-defined]
        io.BytesIO(png), _px(x + (w - dw) / 2), _px(y), _px(dw), _px(dh)
    )
    shape.name = name


def _table(slide: object, name: str, table: Table, box: tuple[float, float, float, float],
           deck: Deck) -> None:  # fmt: skip
    """The deciding terms as an editable table: its caption as the first row, the chosen
    child's row bold on amber."""
    x, y, w, h = box
    rows, cols = len(table.rows) + 2, len(table.header)
    shape = slide.shapes.add_table(rows, cols, _px(x), _px(y), _px(w), _px(h))  # type: ignore[attr-defined]
    shape.name = name
    grid = shape.table
    grid.first_row = True
    caption = grid.cell(0, 0)
    caption.merge(grid.cell(0, cols - 1))
    _cell(caption, table.caption, deck, bold=True, fill="F3F4F6")
    for c, head in enumerate(table.header):
        _cell(grid.cell(1, (cols - 1 - c) if deck.rtl else c), head, deck, bold=True,
              fill="F9FAFB")  # fmt: skip
    for r, row in enumerate(table.rows):
        chosen = r == table.chosen
        for c, value in enumerate(row):
            _cell(grid.cell(r + 2, (cols - 1 - c) if deck.rtl else c), value, deck,
                  bold=chosen, fill="FEF3C7" if chosen else "FFFFFF")  # fmt: skip
    for i in range(rows):
        grid.rows[i].height = _px(20)


def _cell(cell: object, text: str, deck: Deck, *, bold: bool, fill: str) -> None:
    cell.fill.solid()  # type: ignore[attr-defined]
    cell.fill.fore_color.rgb = _rgb(fill)  # type: ignore[attr-defined]
    cell.margin_top = cell.margin_bottom = _px(2)  # type: ignore[attr-defined]
    cell.margin_left = cell.margin_right = _px(3)  # type: ignore[attr-defined]
    frame = cell.text_frame  # type: ignore[attr-defined]
    paragraph = frame.paragraphs[0]
    run = paragraph.add_run()
    run.text = text
    _style(run, paragraph, 14, deck, bold)
    if not deck.rtl:
        paragraph.alignment = PP_ALIGN.CENTER


def _notes(slide: object, item: Slide) -> None:
    """The speaker notes: the whole text and every decision's terms, as plain lines."""
    lines = [item.text]
    for table in item.tables:
        lines += ["", table.caption, " | ".join(table.header)]
        lines += [
            ("▶ " if r == table.chosen else "") + " | ".join(row)
            for r, row in enumerate(table.rows)
        ]
    slide.notes_slide.notes_text_frame.text = "\n".join(lines)  # type: ignore[attr-defined]


def _add_slide(prs: Any, deck: Deck, item: Slide) -> None:
    slide = prs.slides.add_slide(prs.slide_layouts[6])  # blank
    m = _MARGIN
    _text_box(slide, "Title", (0, 0, SLIDE_W, _TITLE_H), item.title, 24, deck, bold=True,
              fill="F3F4F6")  # fmt: skip
    if item.tree_svg is None:
        _text_box(slide, "Narration", (m, _TITLE_H + 16, SLIDE_W - 2 * m, SLIDE_H - _TITLE_H - 32),
                  item.text, 24, deck)  # fmt: skip
        _notes(slide, item)
        return
    tree_w, tree_h = _TREE
    tree_x = SLIDE_W - m - tree_w if deck.rtl else m
    side_x = m if deck.rtl else m + tree_w + 16
    side_w = SLIDE_W - 2 * m - tree_w - 16
    _picture(slide, "Tree", item.tree_svg, (tree_x, _TITLE_H + 8, tree_w, tree_h))
    _text_box(slide, "Narration", (tree_x, _TITLE_H + tree_h + 14, tree_w,
              SLIDE_H - _TITLE_H - tree_h - 24), item.text, 17, deck)  # fmt: skip
    y = _TITLE_H + 8.0
    if item.board_svg is not None:
        _picture(slide, "Board", item.board_svg, (side_x, y, side_w, 250))
        y += 258
    elif item.board_text:
        _text_box(slide, "Board", (side_x, y, side_w, 200), item.board_text, 15, deck)
        y += 208
    for k, table in enumerate(item.tables, start=1):
        height = 20 * (len(table.rows) + 2)
        if y + height > SLIDE_H - 8:
            break  # the notes hold every table
        _table(slide, f"Terms {k}", table, (side_x, y, side_w, height), deck)
        y += height + 10
    _notes(slide, item)


def write_pptx(deck: Deck, step: Callable[[int], None]) -> bytes:
    """``deck`` as a .pptx file: a title slide, then one slide per deck slide; ``step(k)``
    after the k-th."""
    prs = Presentation()
    prs.slide_width = _px(SLIDE_W)
    prs.slide_height = _px(SLIDE_H)
    cover = prs.slides.add_slide(prs.slide_layouts[6])
    _text_box(cover, "Title", (64, 220, SLIDE_W - 128, 120), deck.title, 40, deck, bold=True)
    _text_box(cover, "Narration", (64, 350, SLIDE_W - 128, 200), deck.subtitle, 22, deck)
    for k, item in enumerate(deck.slides, start=1):
        _add_slide(prs, deck, item)
        step(k)
    out = io.BytesIO()
    prs.save(out)
    return out.getvalue()
