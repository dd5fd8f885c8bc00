"""Pictures: an SVG drawn as a PNG (resvg; :func:`draw_all` two at a time), a whole slide as
one 1280x720 picture drawn by :func:`app.export.layout.layout`, the animation of the tree over the
chosen iterations (GIF or APNG) and every slide as PNG frames in a zip.

The renderer is resvg (``resvg-py``, a wheel with no system library): it draws the SVGs the app
builds as a browser does, shapes Arabic (joined letters) and falls back from DejaVu Sans to Noto
Sans CJK for Chinese glyphs, where CairoSVG's text has neither shaping nor fallback (docs/cli.md,
"Why resvg"). It lays every text out from a left-to-right paragraph (it reads no ``direction``),
so :func:`svg_png` isolates a right-to-left text's words (U+2067 ... U+2069) to order them as a
browser orders them under ``direction="rtl"``.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import struct
import subprocess
import sys
import threading
import zipfile
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar
from xml.sax.saxutils import escape

import resvg_py
from PIL import Image

from app.drawing.tree_text import text_width
from app.export.layout import (
    HEAD_LINE,
    MARGIN,
    ROW_H,
    SLIDE_H,
    SLIDE_W,
    TITLE_H,
    TREE_BOX,
    Box,
    TermsPlan,
    fit_text,
    fit_title,
    layout,
)
from app.export.records import Deck, Slide
from app.export.tree_svg import CJK_FONT_FAMILY, FONT_FAMILY, MIN_TEXT_PX
from app.words import i18n

__all__ = [
    "BATCH",
    "PARALLEL_FROM",
    "animation_frame_svg",
    "draw_all",
    "drawn_in_batches",
    "slide_png",
    "slide_svg",
    "svg_png",
    "write_animation",
    "write_frames_zip",
]

_TEXT = "#111827"
_MUTED = "#374151"
_RULE = "#e5e7eb"
_CHOSEN = "#fef3c7"
_CAPTION_FILL = "#f3f4f6"
#: An animation frame: a title bar over the tree picture (px).
_FRAME_TITLE = 40
#: How long each animation frame shows (ms), and the last one (a pause before the loop).
FRAME_MS, LAST_FRAME_MS = 1200, 3000
#: Right-to-left isolate and its end: a text's words ordered right to left by a renderer that
#: starts every paragraph left to right.
_RLI, _PDI = "\u2067", "\u2069"
_RTL_TEXT = re.compile(r'(<text\b[^>]*\bdirection="rtl"[^>]*>)(.*?)(</text>)', re.S)
_CJK = re.compile(r"[\u2e80-\u9fff\uff00-\uffef]")

# ----------------------------------------------------------------------------- drawing


#: PNGs already drawn, by their SVG and zoom: a picture drawn once per export however many
#: slides or formats show it (a lesson's Back and Forward, a board unchanged between phases).
_DRAWN: OrderedDict[tuple[str, float], bytes] = OrderedDict()
_DRAWN_MAX = 128
#: The app's sessions export in threads of one process: one at a time changes the pictures kept.
_LOCK = threading.Lock()


def _prepared(svg: str) -> str:
    """``svg`` as resvg is given it: a picture with Chinese in it set in Noto Sans CJK first
    (the tree's and the board's faces alike), a text marked ``direction="rtl"`` isolated right
    to left."""
    if _CJK.search(svg):
        svg = re.sub(r'font-family="DejaVu Sans[^"]*"', f'font-family="{CJK_FONT_FAMILY}"', svg)
    if 'direction="rtl"' in svg:
        svg = _RTL_TEXT.sub(lambda m: m[1] + _RLI + m[2] + _PDI + m[3], svg)
    return svg


def _keep(key: tuple[str, float], png: bytes) -> bytes:
    with _LOCK:
        _DRAWN[key] = png
        _DRAWN.move_to_end(key)
        while len(_DRAWN) > _DRAWN_MAX:
            _DRAWN.popitem(last=False)
    return png


def _drawn(key: tuple[str, float]) -> bytes | None:
    """The PNG drawn for ``key`` before, or ``None``."""
    with _LOCK:
        png = _DRAWN.get(key)
        if png is not None:
            _DRAWN.move_to_end(key)
        return png


def svg_png(svg: str, zoom: float = 1.0) -> bytes:
    """``svg`` drawn as PNG bytes at ``zoom`` x its size (the system's fonts: DejaVu Sans,
    Noto Sans CJK; :func:`_prepared`). The same SVG and zoom are drawn once."""
    png = _drawn((svg, zoom))
    if png is not None:
        return png
    drawn = resvg_py.svg_to_bytes(
        svg_string=_prepared(svg), zoom=zoom, font_family="DejaVu Sans", background="#ffffff"
    )
    return _keep((svg, zoom), bytes(drawn))


#: A drawing helper: a Python without its site packages' start-up (``-S``: 10 ms, not 50) that
#: reads (length, zoom, SVG) requests on stdin and writes (length, PNG) answers on stdout.
_WORKER = """
import struct, sys
sys.path.insert(0, sys.argv[1])
import resvg_py
read, write = sys.stdin.buffer.read, sys.stdout.buffer.write
while True:
    head = read(12)
    if len(head) < 12:
        break
    size, zoom = struct.unpack("<Id", head)
    try:
        png = bytes(resvg_py.svg_to_bytes(svg_string=read(size).decode(), zoom=zoom,
                                          font_family="DejaVu Sans", background="#ffffff"))
    except Exception:
        png = b""
    write(struct.pack("<I", len(png)) + png)
    sys.stdout.buffer.flush()
"""
#: Fewer pictures than this are drawn here, one by one: two helpers' start costs about one.
PARALLEL_FROM = 6


def _helper(jobs: Sequence[tuple[str, float]], found: dict[int, bytes]) -> None:
    """Draw ``jobs`` (prepared SVGs and zooms) in a helper process, each answer in ``found``
    by its index; a helper that fails leaves its jobs unanswered (drawn here after). The
    requests are written, and the answers read, in large pieces: the pipes never wait on
    Python's lock between two pictures."""
    try:
        worker = subprocess.Popen(
            [sys.executable, "-S", "-c", _WORKER, str(Path(resvg_py.__file__).parents[1])],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        )  # fmt: skip
    except OSError:
        return
    assert worker.stdin is not None and worker.stdout is not None
    requests = b"".join(
        struct.pack("<Id", len(data), zoom) + data
        for data, zoom in ((svg.encode(), zoom) for svg, zoom in jobs)
    )
    stdin, stdout = worker.stdin, worker.stdout

    def send() -> None:
        with contextlib.suppress(OSError):
            view = memoryview(requests)
            while view:
                view = view[os.write(stdin.fileno(), view) :]
        stdin.close()

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    answers = bytearray()
    k = 0
    try:
        while k < len(jobs):
            piece = os.read(stdout.fileno(), 1 << 20)
            if not piece:
                break
            answers += piece
            while len(answers) >= 4:
                (size,) = struct.unpack_from("<I", answers)
                if len(answers) < 4 + size:
                    break
                if size:
                    found[k] = bytes(answers[4 : 4 + size])
                del answers[: 4 + size]
                k += 1
    finally:
        sender.join()
        stdout.close()
        worker.wait()


def draw_all(pictures: Sequence[tuple[str, float]]) -> None:
    """Draw the ``(svg, zoom)`` pictures :func:`svg_png` has not drawn yet, two at a time where
    the machine has two cores: in two helper processes (resvg holds Python's lock while it
    draws, so threads would draw one at a time), about half a deck's drawing time. Each is
    then :func:`svg_png`'s at once; one a helper could not draw is drawn here."""
    todo = [p for p in dict.fromkeys(pictures) if _drawn(p) is None]
    if len(todo) < PARALLEL_FROM or (os.cpu_count() or 1) < 2:
        for svg, zoom in todo:
            svg_png(svg, zoom)
        return
    shares = [todo[0::2], todo[1::2]]
    found: list[dict[int, bytes]] = [{}, {}]
    helpers = [
        threading.Thread(
            target=_helper, args=([(_prepared(s), z) for s, z in share], got), daemon=True
        )  # fmt: skip
        for share, got in zip(shares, found, strict=True)
    ]
    for helper in helpers:
        helper.start()
    for helper in helpers:
        helper.join()
    for share, got in zip(shares, found, strict=True):
        for k, (svg, zoom) in enumerate(share):
            if k in got:
                _keep((svg, zoom), got[k])
            else:
                svg_png(svg, zoom)


def _inner(svg: str) -> str:
    """An SVG's content without its outer ``<svg>`` element."""
    start = svg.find(">", svg.find("<svg")) + 1
    return svg[start : svg.rfind("</svg>")]


def _placed(svg: str, x: float, y: float, zoom: float = 1.0, clip: Box | None = None) -> str:
    """``svg``'s content drawn at (``x``, ``y``) scaled by ``zoom`` (its fonts kept), inside
    ``clip`` when given (a picture whose edge cuts what reaches past it)."""
    family = re.search(r'font-family="([^"]*)"', svg[: svg.find(">", svg.find("<svg"))])
    face = f' font-family="{family[1]}"' if family else ""
    body = f'<g transform="translate({x:.1f},{y:.1f}) scale({zoom:.4f})"{face}>{_inner(svg)}</g>'
    if clip is None:
        return body
    cx, cy, cw, ch = clip
    key = f"c{int(cx)}_{int(cy)}"
    return (
        f'<clipPath id="{key}"><rect x="{cx:.1f}" y="{cy:.1f}" width="{cw:.1f}" '
        f'height="{ch:.1f}"/></clipPath><g clip-path="url(#{key})">{body}</g>'
    )


#: Slides whose pictures are drawn together before they are written: the progress bar moves
#: between batches.
BATCH = 16
_T = TypeVar("_T")


def drawn_in_batches(
    items: Sequence[_T], wanted: Callable[[_T], Iterable[tuple[str, float]]]
) -> Iterator[_T]:
    """``items`` in order, each after the ``(svg, zoom)`` pictures ``wanted(item)`` names are
    drawn (:func:`draw_all`, :data:`BATCH` items' at a time): a writer's :func:`svg_png` then
    finds them drawn."""
    for start in range(0, len(items), BATCH):
        batch = items[start : start + BATCH]
        draw_all([picture for item in batch for picture in wanted(item)])
        yield from batch


def _line(text: str, x: float, y: float, size: float, *, rtl: bool, anchor: str = "start",
          weight: int = 400, fill: str = _TEXT) -> str:  # fmt: skip
    """One ``<text>``: ``anchor`` "start" is the line's reading start (the right edge when
    ``rtl``), "middle" its middle, "end" its reading end."""
    if rtl and anchor != "middle":
        anchor = "end" if anchor == "start" else "start"
    direction = ' direction="rtl"' if rtl else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" font-weight="{weight}" '
        f'text-anchor="{anchor}" fill="{fill}"{direction}>{escape(text)}</text>'
    )


def _text_lines(lines: Sequence[str], box: Box, size: float, *, rtl: bool, weight: int = 400,
                gap: float = 1.35) -> str:  # fmt: skip
    """``lines`` from ``box``'s top, at its left (its right when ``rtl``)."""
    x, y, w, _h = box
    at = x + w if rtl else x
    return "".join(
        _line(line, at, y + size + i * size * gap, size, rtl=rtl, weight=weight)
        for i, line in enumerate(lines)
        if line
    )


def _terms_svg(plan: TermsPlan, box: Box, rtl: bool) -> str:
    """The deciding terms as :func:`plan_terms` laid them out, from ``box``'s top."""
    x, y, width, _h = box
    size = MIN_TEXT_PX
    edges = [x]
    for w in plan.widths[::-1] if rtl else plan.widths:
        edges.append(edges[-1] + w)
    count = len(plan.widths)

    def cell(c: int) -> tuple[float, float]:
        at = (count - 1 - c) if rtl else c
        return edges[at], edges[at + 1]

    start = x + width if rtl else x + 4
    parts = []
    for b, block in enumerate(plan.blocks):
        for line in block.caption:
            parts.append(
                f'<rect x="{x}" y="{y:.1f}" width="{width}" height="{ROW_H}" '
                f'fill="{_CAPTION_FILL}"/>'
            )
            parts.append(_line(line, start - (4 if rtl else 0), y + 15, size, rtl=rtl,
                               weight=700))  # fmt: skip
            y += ROW_H
        if b == 0:
            for c, lines in enumerate(plan.header):
                left, right = cell(c)
                for i, text in enumerate(lines):
                    parts.append(_line(text, (left + right) / 2, y + 14 + i * HEAD_LINE, size,
                                       rtl=rtl, anchor="middle", weight=700))  # fmt: skip
            y += plan.head_h
            parts.append(f'<line x1="{x}" y1="{y - 2:.1f}" x2="{x + width}" y2="{y - 2:.1f}" '
                         f'stroke="{_RULE}"/>')  # fmt: skip
        for r in block.rows:
            chosen = r == block.table.chosen
            if chosen:
                parts.append(
                    f'<rect x="{x}" y="{y:.1f}" width="{width}" height="{ROW_H}" fill="{_CHOSEN}"/>'
                )
            for c, text in enumerate(block.table.rows[r]):
                left, right = cell(c)
                shown = text
                while len(shown) > 1 and text_width(shown, size, chosen) > right - left - 2:
                    shown = shown[:-2] + "…"
                parts.append(_line(shown, (left + right) / 2, y + 15, size, rtl=rtl,
                                   anchor="middle", weight=700 if chosen else 400))  # fmt: skip
            y += ROW_H
        if block.more:
            parts.append(_line(block.more, start - (4 if rtl else 0), y + 15, size, rtl=rtl,
                               fill=_MUTED))  # fmt: skip
            y += ROW_H
    if plan.hidden:
        parts.append(_line(plan.hidden, start - (4 if rtl else 0), y + 15, size, rtl=rtl,
                           fill=_MUTED))  # fmt: skip
        y += ROW_H
    parts.append(f'<line x1="{x}" y1="{y:.1f}" x2="{x + width}" y2="{y:.1f}" stroke="{_RULE}"/>')
    return "".join(parts)


def _title_svg(lines: Sequence[str], size: float, width: float, bar: float, rtl: bool,
               inset: float = MARGIN) -> str:  # fmt: skip
    """The title's lines centred down a ``bar`` px high band, from the reading start
    (``inset`` px from the edge)."""
    step = size * 1.2
    first = bar / 2 - step * (len(lines) - 1) / 2 + size * 0.36
    at = width - inset if rtl else inset
    return "".join(
        _line(line, at, first + i * step, size, rtl=rtl, weight=700) for i, line in enumerate(lines)
    )


def slide_svg(deck: Deck, slide: Slide, number: int = 0) -> str:
    """``slide`` as one 1280x720 SVG laid out by :func:`layout`: the title; an iteration's
    or a state's tree (left; right in a right-to-left deck), its narration under it, the board
    and the deciding terms beside it; a text slide's body across. ``number`` (1-based, 0: none)
    is written in the bottom corner."""
    rtl = deck.rtl
    at = layout(deck, slide)
    w = SLIDE_W
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{SLIDE_H}" '
        f'viewBox="0 0 {w} {SLIDE_H}" font-family="{FONT_FAMILY}">',
        f'<rect width="{w}" height="{SLIDE_H}" fill="#ffffff"/>',
        f'<rect width="{w}" height="{TITLE_H}" fill="{_CAPTION_FILL}"/>',
        _title_svg(at.title_lines, at.title_size, w, TITLE_H, rtl),
    ]
    if number:
        parts.append(_line(str(number), MARGIN if rtl else w - MARGIN, SLIDE_H - 10,
                           MIN_TEXT_PX, rtl=False, anchor="start" if rtl else "end",
                           fill=_MUTED))  # fmt: skip
    parts.append(_text_lines(at.body, at.body_box, at.body_size, rtl=rtl))
    if at.tree_box is not None and slide.tree_svg is not None:
        x, y, tw, th = at.tree_box
        parts.append(_placed(slide.tree_svg, x, y, clip=at.tree_box))
        parts.append(f'<rect x="{x}" y="{y}" width="{tw}" height="{th}" fill="none" '
                     f'stroke="{_RULE}"/>')  # fmt: skip
    if at.board is not None and at.board_box is not None:
        parts.append(_placed(at.board, at.board_box[0], at.board_box[1], at.board_zoom))
    if at.board_text and at.board_text_box is not None:
        parts.append(_text_lines(at.board_text, at.board_text_box, 15, rtl=False))
    if at.terms is not None and at.terms_box is not None:
        parts.append(_terms_svg(at.terms, at.terms_box, rtl))
    parts.append("</svg>")
    return "".join(parts)


def slide_png(deck: Deck, slide: Slide, number: int = 0) -> bytes:
    """:func:`slide_svg` as a PNG (1280x720)."""
    return svg_png(slide_svg(deck, slide, number))


# ----------------------------------------------------------------------------- animation


def animation_frame_svg(deck: Deck, slide: Slide) -> str:
    """An animation's frame: the slide's title over its tree picture (a text slide: its title
    and text), every text at :data:`MIN_TEXT_PX` or more."""
    tw, th = TREE_BOX[2], TREE_BOX[3]
    width, height = tw, th + _FRAME_TITLE
    rtl = deck.rtl
    with i18n.language(deck.lang):
        _form, lines, size = fit_title((slide.title, *slide.short_titles), width - 16,
                                       _FRAME_TITLE - 4, sizes=(18, 16, 15, 14))  # fmt: skip
    title = _title_svg(lines, size, width, _FRAME_TITLE, rtl, inset=8)
    if slide.tree_svg is not None:
        body = _placed(slide.tree_svg, 0, _FRAME_TITLE)
    else:
        box = (8.0, _FRAME_TITLE + 8.0, width - 16.0, th - 16.0)
        text, text_size = fit_text(slide.text, box[2], box[3], (18, 16, 15, 14))
        body = _text_lines(text, box, text_size, rtl=rtl)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT_FAMILY}">'
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>{body}'
        f'<rect width="{width}" height="{_FRAME_TITLE}" fill="{_CAPTION_FILL}"/>{title}</svg>'
    )


def write_animation(deck: Deck, fmt: str, step: Callable[[int], None]) -> bytes:
    """The tree over the deck's slides as a looping animation: ``fmt`` "gif" (a 64-colour
    palette shared by every frame: small, and a tree has few colours) or "apng" (full
    colour). Each frame shows :data:`FRAME_MS` ms, the last :data:`LAST_FRAME_MS`."""
    frames: list[Image.Image] = []
    svgs = [animation_frame_svg(deck, slide) for slide in deck.slides]
    for k, svg in enumerate(drawn_in_batches(svgs, lambda svg: [(svg, 1.0)]), start=1):
        frames.append(Image.open(io.BytesIO(svg_png(svg))).convert("RGB"))
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
    svgs = [slide_svg(deck, slide, k) for k, slide in enumerate(deck.slides, start=1)]
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_STORED) as archive:
        for k, svg in enumerate(drawn_in_batches(svgs, lambda svg: [(svg, 1.0)]), start=1):
            archive.writestr(f"slide-{k:03d}.png", svg_png(svg))
            step(k)
    return out.getvalue()
