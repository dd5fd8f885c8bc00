"""Pictures: an SVG drawn as a PNG (resvg), a whole slide as one 1280x720 picture, the animation
of the tree over the chosen iterations (GIF or APNG) and every slide as PNG frames in a zip.

The renderer is resvg (``resvg-py``, a wheel with no system library): it draws the SVGs the app
builds as a browser does, shapes Arabic (joined letters, right to left) and falls back from
DejaVu Sans to Noto Sans CJK for Chinese glyphs, where CairoSVG's text has neither shaping nor
fallback (docs/cli.md, "Why resvg").
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Sequence
from xml.sax.saxutils import escape

import resvg_py
from PIL import Image

from app.drawing.tree_text import text_width
from app.export.records import Deck, Slide, Table
from app.export.tree_svg import CJK_FONT_FAMILY, FONT_FAMILY, MIN_TEXT_PX

__all__ = [
    "SLIDE_H",
    "SLIDE_W",
    "animation_frame_svg",
    "slide_png",
    "slide_svg",
    "svg_png",
    "wrap",
    "write_animation",
    "write_frames_zip",
]

_CJK = re.compile(r"[\u2e80-\u9fff\uff00-\uffef]")
#: A slide's size in px (16:9, the projector's 1280x720).
SLIDE_W, SLIDE_H = 1280, 720
_MARGIN = 16
_TITLE_H = 64
_TEXT = "#111827"
_MUTED = "#374151"
_RULE = "#e5e7eb"
_CHOSEN = "#fef3c7"
#: An animation frame: a title line over the tree picture (px).
_FRAME_TITLE = 40
#: How long each animation frame shows (ms), and the last one (a pause before the loop).
FRAME_MS, LAST_FRAME_MS = 1200, 3000


def svg_png(svg: str, zoom: float = 1.0) -> bytes:
    """``svg`` drawn as PNG bytes at ``zoom`` x its size (the system's fonts: DejaVu Sans,
    Noto Sans CJK; a picture with Chinese in it is set in Noto Sans CJK first)."""
    if _CJK.search(svg):  # the tree's and the board's faces alike
        svg = re.sub(r'font-family="DejaVu Sans[^"]*"', f'font-family="{CJK_FONT_FAMILY}"', svg)
    return bytes(
        resvg_py.svg_to_bytes(
            svg_string=svg, zoom=zoom, font_family="DejaVu Sans", background="#ffffff"
        )
    )


def wrap(text: str, size: float, width: float) -> list[str]:
    """``text`` broken into lines no wider than ``width`` px at font size ``size`` (the
    layout's upper width estimate): at spaces, and between any two characters of a script
    written without spaces (Chinese). A blank line separates paragraphs (kept as "")."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = re.findall(r"[\u2e80-\u9fff\uff00-\uffef]|[^\s\u2e80-\u9fff\uff00-\uffef]+\s*",
                           paragraph.strip())  # fmt: skip
        line = ""
        for word in words:
            candidate = line + word
            if line and text_width(candidate.rstrip(), size) > width:
                lines.append(line.rstrip())
                line = word.lstrip()
            else:
                line = candidate
        lines.append(line.rstrip())
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _text_lines(lines: Sequence[str], x: float, y: float, size: float, *, rtl: bool,
                right: float, weight: int = 400, fill: str = _TEXT,
                gap: float = 1.35) -> tuple[str, float]:  # fmt: skip
    """SVG text, one ``<text>`` a line from ``y`` (the first baseline) down; right-aligned at
    ``right`` and written right to left when ``rtl``. Returns the SVG and the next baseline."""
    anchor = "end" if rtl else "start"
    at = right if rtl else x
    direction = ' direction="rtl" unicode-bidi="embed"' if rtl else ""
    parts = []
    for line in lines:
        if line:
            parts.append(
                f'<text x="{at:.1f}" y="{y:.1f}" font-size="{size:g}" font-weight="{weight}" '
                f'text-anchor="{anchor}" fill="{fill}"{direction}>{escape(line)}</text>'
            )
        y += size * gap
    return "".join(parts), y


def _nested(svg: str, x: float, y: float, width: float, height: float) -> str:
    """An SVG picture placed in the box (``x``, ``y``, ``width``, ``height``), scaled to fit
    (aspect kept): its outer element's size replaced, its viewBox kept."""
    start = svg.find("<svg")
    end = svg.find(">", start)
    head = re.sub(r'\s(width|height|x|y)="[^"]*"', "", svg[start:end])
    head += f' x="{x:.1f}" y="{y:.1f}" width="{width:.1f}" height="{height:.1f}"'
    head += ' preserveAspectRatio="xMidYMin meet"'
    return head + svg[end:]


def _table(
    table: Table, x: float, y: float, width: float, rtl: bool, bottom: float
) -> tuple[str, float]:
    """A table of the deciding terms at :data:`MIN_TEXT_PX`, as many rows as fit above
    ``bottom``; returns the SVG and the y below it."""
    size = MIN_TEXT_PX
    row_h = size * 1.45
    parts, y_text = _text_lines(wrap(table.caption, size, width), x, y + size, size, rtl=rtl,
                                right=x + width, weight=700)  # fmt: skip
    y = y_text - size + 4
    columns = len(table.header)
    # the move's column wider than the numbers'
    weights = [1.4 if i == 0 else 1.0 for i in range(columns)]
    unit = width / sum(weights)
    edges = [x]
    for w in weights:
        edges.append(edges[-1] + w * unit)

    def cells(c: int) -> tuple[float, float]:
        at = (columns - 1 - c) if rtl else c
        return edges[at], edges[at + 1]

    # the header on up to two lines ("n (before" / "backup)")
    heads = [wrap(h, size, cells(c)[1] - cells(c)[0] - 4)[:2] for c, h in enumerate(table.header)]
    head_h = row_h * max(len(h) for h in heads)
    for c, lines in enumerate(heads):
        left, right = cells(c)
        for i, line in enumerate(lines):
            parts += (
                f'<text x="{(left + right) / 2:.1f}" y="{y + size + i * row_h:.1f}" '
                f'font-size="{size:g}" font-weight="700" text-anchor="middle" '
                f'fill="{_TEXT}">{escape(line)}</text>'
            )
    y += head_h
    for r, row in enumerate(table.rows):
        if y + row_h > bottom:
            break
        if r == table.chosen:
            parts += (
                f'<rect x="{x}" y="{y:.1f}" width="{width}" height="{row_h:.1f}" fill="{_CHOSEN}"/>'
            )
        weight = 700 if r == table.chosen else 400
        for c, cell in enumerate(row):
            left, right = cells(c)
            shown = cell
            while len(shown) > 1 and text_width(shown, size) > right - left - 4:
                shown = shown[:-2] + "…"
            parts += (
                f'<text x="{(left + right) / 2:.1f}" y="{y + size:.1f}" font-size="{size:g}" '
                f'font-weight="{weight}" text-anchor="middle" fill="{_TEXT}">'
                f"{escape(shown)}</text>"
            )
        y += row_h
    parts += f'<line x1="{x}" y1="{y:.1f}" x2="{x + width}" y2="{y:.1f}" stroke="{_RULE}"/>'
    return parts, y + 8


def slide_svg(deck: Deck, slide: Slide, number: int = 0) -> str:
    """``slide`` as one 1280x720 SVG: the title line; an iteration's or a state's tree (left),
    board and deciding terms (right) and narration (below the tree); a text slide's body
    across. ``number`` (1-based, 0: none) is written in the corner."""
    rtl = deck.rtl
    w, m = SLIDE_W, _MARGIN
    title_lines = wrap(slide.title, 26, w - 2 * m - 60)[:2]
    title_size = 26 if len(title_lines) == 1 else 21
    title, _y = _text_lines(title_lines, m, 40 if len(title_lines) == 1 else 28, title_size,
                            rtl=rtl, right=w - m, weight=700)  # fmt: skip
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{SLIDE_H}" '
        f'viewBox="0 0 {w} {SLIDE_H}" font-family="{FONT_FAMILY}">',
        f'<rect width="{w}" height="{SLIDE_H}" fill="#ffffff"/>',
        f'<rect width="{w}" height="{_TITLE_H}" fill="#f3f4f6"/>',
        title,
    ]
    if number:
        corner = m if rtl else w - m
        anchor = "start" if rtl else "end"
        parts.append(
            f'<text x="{corner}" y="{SLIDE_H - 10}" font-size="{MIN_TEXT_PX:g}" '
            f'text-anchor="{anchor}" fill="{_MUTED}">{number}</text>'
        )
    if slide.tree_svg is None:
        body, _y = _text_lines(wrap(slide.text, 24, w - 2 * m), m, _TITLE_H + 48, 24, rtl=rtl,
                               right=w - m)  # fmt: skip
        parts.append(body)
        parts.append("</svg>")
        return "".join(parts)
    tree_w, tree_h = 760, 430
    tree_x = w - m - tree_w if rtl else m
    side_x = m if rtl else m + tree_w + 16
    side_w = w - 2 * m - tree_w - 16
    parts.append(_nested(slide.tree_svg, tree_x, _TITLE_H + 8, tree_w, tree_h))
    parts.append(
        f'<rect x="{tree_x}" y="{_TITLE_H + 8}" width="{tree_w}" height="{tree_h}" '
        f'fill="none" stroke="{_RULE}"/>'
    )
    narration, _y = _text_lines(wrap(slide.text, 17, tree_w), tree_x, _TITLE_H + tree_h + 36,
                                17, rtl=rtl, right=tree_x + tree_w)  # fmt: skip
    parts.append(narration)
    y = _TITLE_H + 8.0
    if slide.board_svg is not None:
        parts.append(_nested(slide.board_svg, side_x, y, side_w, 250))
        y += 258
    elif slide.board_text:
        board, y = _text_lines(slide.board_text.splitlines()[:12], side_x, y + 18, 15,
                               rtl=False, right=side_x + side_w)  # fmt: skip
    for table in slide.tables:
        if y > SLIDE_H - 60:
            break
        svg, y = _table(table, side_x, y, side_w, rtl, SLIDE_H - 24)
        parts.append(svg)
    parts.append("</svg>")
    return "".join(parts)


def slide_png(deck: Deck, slide: Slide, number: int = 0) -> bytes:
    """:func:`slide_svg` as a PNG (1280x720)."""
    return svg_png(slide_svg(deck, slide, number))


def animation_frame_svg(deck: Deck, slide: Slide) -> str:
    """An animation's frame: the slide's title over its tree picture (a text slide: its title
    and text)."""
    width, height = 760, 430 + _FRAME_TITLE
    rtl = deck.rtl
    title, _y = _text_lines(wrap(slide.title, 16, width - 16)[:1], 8, 26, 16, rtl=rtl,
                            right=width - 8, weight=700)  # fmt: skip
    body = (
        _nested(slide.tree_svg, 0, _FRAME_TITLE, 760, 430)
        if slide.tree_svg is not None
        else _text_lines(
            wrap(slide.text, 18, width - 16)[:18],
            8,
            _FRAME_TITLE + 26,
            18,
            rtl=rtl,
            right=width - 8,
        )[0]  # fmt: skip
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT_FAMILY}">'
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>'
        f'<rect width="{width}" height="{_FRAME_TITLE}" fill="#f3f4f6"/>{title}{body}</svg>'
    )


def write_animation(deck: Deck, fmt: str, step: Callable[[int], None]) -> bytes:
    """The tree over the deck's slides as a looping animation: ``fmt`` "gif" (a 64-colour
    palette shared by every frame: small, and a tree has few colours) or "apng" (full
    colour). Each frame shows :data:`FRAME_MS` ms, the last :data:`LAST_FRAME_MS`."""
    frames: list[Image.Image] = []
    for k, slide in enumerate(deck.slides, start=1):
        png = svg_png(animation_frame_svg(deck, slide))
        frames.append(Image.open(io.BytesIO(png)).convert("RGB"))
        step(k)
    if not frames:
        raise ValueError("nothing to animate")
    durations = [FRAME_MS] * (len(frames) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    if fmt == "gif":
        palette = frames[0].quantize(colors=64, method=Image.Quantize.MEDIANCUT)
        shown = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
        shown[0].save(out, format="GIF", save_all=True, append_images=shown[1:],
                      duration=durations, loop=0, optimize=False, disposal=1)  # fmt: skip
    else:
        frames[0].save(out, format="PNG", save_all=True, append_images=frames[1:],
                       duration=durations, loop=0)  # fmt: skip
    return out.getvalue()


def write_frames_zip(deck: Deck, step: Callable[[int], None]) -> bytes:
    """Every slide as a 1280x720 PNG (``slide-001.png``, ...) in one zip file: a folder of
    pictures for any slide program or web page, in the deck's order."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED) as archive:
        for k, slide in enumerate(deck.slides, start=1):
            archive.writestr(f"slide-{k:03d}.png", slide_png(deck, slide, k))
            step(k)
    return out.getvalue()
