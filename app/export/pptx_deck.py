"""The PowerPoint deck (python-pptx): 16:9 slides laid out as :func:`app.export.pictures.slide_svg`
lays out a picture of the same slide, with every text editable (the title, the narration or the
page's text, the deciding terms as real tables) and one picture per drawing (the tree, the
board). Right-to-left paragraphs for Arabic; each run of text carries the deck's language. The
speaker notes hold the whole narration and every decision's terms (what the slide had no room
for).

Shapes are named, so a reader (a test, a script) finds them: ``Title``, ``Narration`` (an
iteration's or a press's narration, a page's text, a question or a reveal), ``Tree``,
``Board``, ``Terms 1``, ``Terms 2``, ... (a table a decision on the path), ``More terms`` (the
deeper decisions the slide has no room for). Every place and size is
:func:`app.export.layout.layout`'s, as the slide's picture has them.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any
from xml.sax.saxutils import escape

from pptx import Presentation
from pptx.dml.color import RGBColor
from pptx.enum.text import MSO_ANCHOR, PP_ALIGN
from pptx.opc.constants import RELATIONSHIP_TYPE as RT
from pptx.opc.packuri import PackURI
from pptx.oxml import parse_xml
from pptx.parts.image import ImagePart
from pptx.util import Emu, Pt

from app.export.layout import MARGIN, ROW_H, SLIDE_H, SLIDE_W, TITLE_H, Layout, TermsPlan, layout
from app.export.pictures import drawn_in_batches, svg_png
from app.export.records import Deck, Slide
from app.export.tree_svg import MIN_TEXT_PX

__all__ = ["PX", "write_pptx"]

#: One px of the 1280x720 layout in EMU (13.333 x 7.5 inches: 96 px an inch).
PX = 9525
#: Pictures are drawn at the layout's px: the projector's 1280x720, pixel for pixel (a larger zoom
#: doubled the deck's time for a sharper picture on screens wider than the class's).
ZOOM = 1.0
_DRAWING = "http://schemas.openxmlformats.org/drawingml/2006/main"
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
              size: float, deck: Deck, *, bold: bool = False, fill: str | None = None,
              middle: bool = False, inset: float = 0.0,
              colour: str = "111827") -> None:  # fmt: skip
    """A named text box with ``text`` (a paragraph a line; blank lines kept), right to left
    when the deck is; ``middle``: centred down the box; ``inset``: px inside its sides."""
    x, y, w, h = box
    shape = slide.shapes.add_textbox(_px(x), _px(y), _px(w), _px(h))  # type: ignore[attr-defined]
    shape.name = name
    frame = shape.text_frame
    frame.word_wrap = True
    frame.vertical_anchor = MSO_ANCHOR.MIDDLE if middle else MSO_ANCHOR.TOP
    frame.margin_left = frame.margin_right = _px(inset)
    frame.margin_top = frame.margin_bottom = _px(0)
    if fill is not None:
        shape.fill.solid()
        shape.fill.fore_color.rgb = _rgb(fill)
    for i, line in enumerate(text.split("\n")):
        paragraph = frame.paragraphs[0] if i == 0 else frame.add_paragraph()
        run = paragraph.add_run()
        run.text = line
        _style(run, paragraph, size, deck, bold, colour)


def _style(run: object, paragraph: object, size: float, deck: Deck, bold: bool,
           colour: str = "111827") -> None:  # fmt: skip
    run.font.size = _pt(size)  # type: ignore[attr-defined]
    run.font.bold = bold  # type: ignore[attr-defined]
    run.font.color.rgb = _rgb(colour)  # type: ignore[attr-defined]
    props = run._r.get_or_add_rPr()  # type: ignore[attr-defined]
    props.set("lang", _LANG.get(deck.lang, deck.lang))
    if deck.rtl:
        paragraph.alignment = PP_ALIGN.RIGHT  # type: ignore[attr-defined]
        paragraph._p.get_or_add_pPr().set("rtl", "1")  # type: ignore[attr-defined]


def _picture(slide: Any, name: str, png: bytes, box: tuple[float, float, float, float],
             media: dict[bytes, Any]) -> None:  # fmt: skip
    """A PNG placed in ``box`` (drawn at the box's px: the projector's scale). ``media``: the
    deck's pictures so far, by their bytes: a picture shown twice is stored once."""
    x, y, w, h = (_px(v) for v in box)
    shapes = slide.shapes
    try:
        # python-pptx's add_picture looks for the same picture, and for the next free name, by
        # walking every part of the deck: a deck's time grew with the square of its slides
        part = media.get(png)
        if part is None:
            part = ImagePart(PackURI(f"/ppt/media/mcts-{len(media) + 1}.png"), "image/png",
                             slide.part.package, png)  # fmt: skip
            media[png] = part
        rid = slide.part.relate_to(part, RT.IMAGE)
        pic = shapes._grpSp.add_pic(shapes._next_shape_id, name, "", rid, x, y, w, h)
    except AttributeError:  # a python-pptx without these inner names: its own, slower way
        pic = shapes.add_picture(io.BytesIO(png), x, y, w, h)._element
    pic.nvPicPr.cNvPr.name = name


def _terms(slide: object, plan: TermsPlan, box: tuple[float, float, float, float],
           deck: Deck) -> None:  # fmt: skip
    """The deciding terms as :func:`app.export.layout.plan_terms` laid them out: a table a
    decision (``Terms 1``, ``Terms 2``, ... stacked: its caption as the first row, the columns'
    header under the first caption, the rows shown, the chosen child's bold on amber, "+k
    more" as its last row), then the line for the deeper decisions left out."""
    x, y, width, _h = box
    cols = len(plan.widths)
    order = list(range(cols))[::-1] if deck.rtl else list(range(cols))
    grid = "".join(f'<a:gridCol w="{int(round(plan.widths[c] * PX))}"/>' for c in order)
    for k, block in enumerate(plan.blocks, start=1):
        rows = [(ROW_H * len(block.caption), _merged(block.table.caption, cols, deck, True,
                                                     "F3F4F6"))]  # fmt: skip
        if k == 1:
            cells = [_cell(block.table.header[c], deck, True, "FFFFFF") for c in order]
            rows.append((plan.head_h, "".join(cells)))
        for r in block.rows:
            chosen = r == block.table.chosen
            fill = "FEF3C7" if chosen else "FFFFFF"
            cells = [_cell(block.table.rows[r][c], deck, chosen, fill) for c in order]
            rows.append((ROW_H, "".join(cells)))
        if block.more:
            rows.append((ROW_H, _merged(block.more, cols, deck, False, "FFFFFF", "374151")))
        height = sum(h for h, _cells in rows)
        shape = slide.shapes.add_table(  # type: ignore[attr-defined]
            1, cols, _px(x), _px(y), _px(width), _px(height)
        )
        shape.name = f"Terms {k}"
        body = "".join(f'<a:tr h="{int(round(h * PX))}">{cells}</a:tr>' for h, cells in rows)
        # the table written as its XML at once: python-pptx's cell by cell took a third of the
        # deck's writing time
        table = parse_xml(
            f'<a:tbl xmlns:a="{_DRAWING}"><a:tblPr/><a:tblGrid>{grid}</a:tblGrid>{body}</a:tbl>'
        )
        old = shape._element.graphic.graphicData.tbl
        old.getparent().replace(old, table)
        y += height
    if plan.hidden:
        _text_box(slide, "More terms", (x, y + 2, width, ROW_H), plan.hidden, MIN_TEXT_PX,
                  deck, colour="374151")  # fmt: skip


def _paragraph(text: str, deck: Deck, bold: bool, align: str, colour: str) -> str:
    """A table cell's paragraph: one run at :data:`MIN_TEXT_PX`, in the deck's language."""
    rtl = ' rtl="1"' if deck.rtl else ""
    weight = ' b="1"' if bold else ""
    return (
        f'<a:p><a:pPr algn="{align}"{rtl}/><a:r><a:rPr lang="{_LANG.get(deck.lang, deck.lang)}" '
        f'sz="{int(round(MIN_TEXT_PX * 75))}"{weight}><a:solidFill><a:srgbClr val="{colour}"/>'
        f"</a:solidFill></a:rPr><a:t>{escape(text)}</a:t></a:r></a:p>"
    )


def _cell(text: str, deck: Deck, bold: bool, fill: str, colour: str = "111827",
          span: int = 0, align: str = "ctr") -> str:  # fmt: skip
    """A table cell's XML (``span``: it runs across that many columns)."""
    spans = f' gridSpan="{span}"' if span else ""
    return (
        f"<a:tc{spans}><a:txBody><a:bodyPr/><a:lstStyle/>"
        f"{_paragraph(text, deck, bold, align, colour)}</a:txBody>"
        f'<a:tcPr marL="{3 * PX}" marR="{3 * PX}" marT="{PX}" marB="{PX}" anchor="ctr">'
        f'<a:solidFill><a:srgbClr val="{fill}"/></a:solidFill></a:tcPr></a:tc>'
    )


def _merged(text: str, cols: int, deck: Deck, bold: bool, fill: str,
            colour: str = "111827") -> str:  # fmt: skip
    """A row's cells as one across the table (a caption, "+k more"), at the reading start."""
    follow = '<a:tc hMerge="1"><a:txBody><a:bodyPr/><a:lstStyle/><a:p/></a:txBody><a:tcPr/></a:tc>'
    return _cell(text, deck, bold, fill, colour, span=cols,
                 align="r" if deck.rtl else "l") + follow * (cols - 1)  # fmt: skip


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


def _drawings(item: Slide, at: Layout) -> list[tuple[str, float]]:
    """The pictures a slide shows, as :func:`app.export.pictures.svg_png` draws them."""
    found = [(item.tree_svg, ZOOM)] if at.tree_box is not None and item.tree_svg else []
    return found + ([(at.board, at.board_zoom)] if at.board is not None else [])


def _add_slide(prs: Any, deck: Deck, item: Slide, at: Layout, media: dict[bytes, Any]) -> None:
    slide = prs.slides.add_slide(prs.slide_layouts[6])  # blank
    _text_box(slide, "Title", (0, 0, SLIDE_W, TITLE_H), at.title, at.title_size, deck,
              bold=True, fill="F3F4F6", middle=True, inset=MARGIN)  # fmt: skip
    _text_box(slide, "Narration", at.body_box, item.text, at.body_size, deck)
    if at.tree_box is not None and item.tree_svg is not None:
        _picture(slide, "Tree", svg_png(item.tree_svg, ZOOM), at.tree_box, media)
    if at.board is not None and at.board_box is not None:
        _picture(slide, "Board", svg_png(at.board, at.board_zoom), at.board_box, media)
    elif at.board_text_box is not None:
        _text_box(slide, "Board", at.board_text_box, "\n".join(at.board_text), 15, deck)
    if at.terms is not None and at.terms_box is not None:
        _terms(slide, at.terms, at.terms_box, deck)
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
    media: dict[bytes, Any] = {}
    laid = [(item, layout(deck, item)) for item in deck.slides]
    for k, (item, at) in enumerate(drawn_in_batches(laid, lambda pair: _drawings(*pair)), 1):
        _add_slide(prs, deck, item, at, media)
        step(k)
    out = io.BytesIO()
    prs.save(out)
    return out.getvalue()
