"""Pictures: an SVG drawn as a PNG (resvg), the layout of a 16:9 slide (:func:`layout`: where
the title, the tree, the narration, the board and the deciding terms go, every text at
:data:`MIN_TEXT_PX` or more and inside the slide), a whole slide as one 1280x720 picture, the
animation of the tree over the chosen iterations (GIF or APNG) and every slide as PNG frames in
a zip. The PowerPoint deck (``pptx_deck.py``) places its shapes by the same :func:`layout`.

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
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar
from xml.sax.saxutils import escape

import resvg_py
from PIL import Image

from app.drawing.tree_text import text_width
from app.export.records import Deck, Slide, Table
from app.export.tree_svg import CJK_FONT_FAMILY, FONT_FAMILY, MIN_TEXT_PX
from app.words import i18n

__all__ = [
    "BOARD_MAX_H",
    "HEAD_LINE",
    "ROW_H",
    "SLIDE_H",
    "SLIDE_W",
    "TREE_BOX",
    "Layout",
    "TermsPlan",
    "animation_frame_svg",
    "draw_all",
    "drawn_in_batches",
    "fit_text",
    "fit_title",
    "layout",
    "plan_terms",
    "readable",
    "slide_png",
    "slide_svg",
    "svg_png",
    "svg_size",
    "wrap",
    "write_animation",
    "write_frames_zip",
]

_CJK = re.compile(r"[\u2e80-\u9fff\uff00-\uffef]")
#: A slide's size in px (16:9, the projector's 1280x720).
SLIDE_W, SLIDE_H = 1280, 720
_MARGIN = 16
_TITLE_H = 64
#: The tree picture's box on a slide (left to right; mirrored for a right-to-left deck).
TREE_BOX = (_MARGIN, _TITLE_H + 8, 760, 430)
_SIDE_W = SLIDE_W - 2 * _MARGIN - TREE_BOX[2] - 16
#: The board's most height (px) in the side column: the rest is the deciding terms'.
BOARD_MAX_H = 330
#: The deciding terms end above the slide's number in the corner.
_TERMS_BOTTOM = SLIDE_H - 28
#: A row of the terms (14 px type), and a line of a column's header.
ROW_H, HEAD_LINE = 20.0, 18.0
_CELL_PAD = 8
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

Box = tuple[float, float, float, float]

# ----------------------------------------------------------------------------- drawing


#: PNGs already drawn, by their SVG and zoom: a picture drawn once per export however many
#: slides or formats show it (a lesson's Back and Forward, a board unchanged between phases).
_DRAWN: OrderedDict[tuple[str, float], bytes] = OrderedDict()
_DRAWN_MAX = 256


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
    _DRAWN[key] = png
    _DRAWN.move_to_end(key)
    while len(_DRAWN) > _DRAWN_MAX:
        _DRAWN.popitem(last=False)
    return png


def svg_png(svg: str, zoom: float = 1.0) -> bytes:
    """``svg`` drawn as PNG bytes at ``zoom`` x its size (the system's fonts: DejaVu Sans,
    Noto Sans CJK; :func:`_prepared`). The same SVG and zoom are drawn once."""
    key = (svg, zoom)
    if key in _DRAWN:
        _DRAWN.move_to_end(key)
        return _DRAWN[key]
    drawn = resvg_py.svg_to_bytes(
        svg_string=_prepared(svg), zoom=zoom, font_family="DejaVu Sans", background="#ffffff"
    )
    return _keep(key, bytes(drawn))


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
    todo = list(dict.fromkeys(p for p in pictures if p not in _DRAWN))
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


def svg_size(svg: str) -> tuple[float, float]:
    """The outer ``<svg>``'s width and height in px."""
    head = svg[svg.find("<svg") : svg.find(">", svg.find("<svg"))]
    found = dict(re.findall(r'\s(width|height)="([0-9.]+)"', head))
    return float(found["width"]), float(found["height"])


def readable(svg: str, zoom: float, least: float = MIN_TEXT_PX) -> str:
    """``svg`` with every text smaller than ``least`` px once drawn at ``zoom`` raised to it
    (a board's cell names and small captions, drawn for the app's page, read on a projector)."""
    floor = least / zoom

    def raised(m: re.Match[str]) -> str:
        return f'font-size="{max(float(m[1]), floor):.4g}"'

    return re.sub(r'font-size="([0-9.]+)"', raised, svg)


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


# ----------------------------------------------------------------------------- words


#: Punctuation that never starts a line (it closes what comes before: Chinese 。，、 and
#: closing brackets) and that never ends one (an opening bracket).
_CLOSING = set("。，、；：！？）」』】〉》’”…％・,.;:!?)]}")
_OPENING = set("（「『【〈《‘“([{")


def _tokens(paragraph: str) -> list[str]:
    """The pieces a line may break between: a word with its trailing space, a Chinese
    character; closing punctuation kept with what it follows, an opening bracket with what
    it opens (Chinese line-breaking rules: no line starts with "。" or "，")."""
    raw = re.findall(r"[\u2e80-\u9fff\uff00-\uffef]|[^\s\u2e80-\u9fff\uff00-\uffef]+\s*",
                     paragraph.strip())  # fmt: skip
    pieces: list[str] = []
    for token in raw:
        if (
            pieces
            and token[0] in _CLOSING
            and (pieces[-1][-1:] not in " \t")
            or pieces
            and pieces[-1]
            and pieces[-1][-1] in _OPENING
        ):
            pieces[-1] += token
        else:
            pieces.append(token)
    return pieces


_VOWELS = set("aeiouyáéíóúàèìòùâêîôûäöüAEIOUÄÖÜ")


def _hyphenated(word: str, size: float, width: float, bold: bool) -> list[str]:
    """A word wider than ``width`` in pieces that fit, each but the last ending in "-": broken
    before a consonant between two vowels where one fits ("retropro-pagación", "bonifica-ción":
    the syllables of Spanish and German, near enough), else where it must."""
    pieces = []
    rest = word
    while text_width(rest, size, bold) > width and len(rest) > 1:
        fits = 1
        while fits < len(rest) and text_width(rest[: fits + 1] + "-", size, bold) <= width:
            fits += 1
        syllables = [
            i for i in range(2, fits + 1)
            if i + 1 < len(rest) and rest[i - 1] in _VOWELS and rest[i] not in _VOWELS
            and rest[i].isalpha() and rest[i + 1] in _VOWELS
        ]  # fmt: skip
        cut = syllables[-1] if syllables else fits
        pieces.append(rest[:cut] + "-")
        rest = rest[cut:]
    return [*pieces, rest]


def wrap(text: str, size: float, width: float, bold: bool = False,
         hyphens: bool = False) -> list[str]:  # fmt: skip
    """``text`` broken into lines no wider than ``width`` px at font size ``size`` (the
    layout's upper width estimate): at spaces, and between any two characters of a script
    written without spaces (Chinese), never before closing punctuation. A blank line
    separates paragraphs (kept as ""). A word wider than ``width`` has a line of its own, or
    with ``hyphens`` is broken with a hyphen where it must."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        words = _tokens(paragraph)
        if hyphens:
            words = [piece for word in words for piece in (
                _hyphenated(word, size, width, bold)
                if text_width(word.strip(), size, bold) > width else [word])]  # fmt: skip
        for word in words:
            candidate = line + word
            if line and (text_width(candidate.rstrip(), size, bold) > width
                         or line.endswith("-") and hyphens):  # fmt: skip
                lines.append(line.rstrip())
                line = word.lstrip()
            else:
                line = candidate
        lines.append(line.rstrip())
    while lines and not lines[-1]:
        lines.pop()
    return lines


def fit_title(
    forms: Sequence[str], width: float, height: float, sizes: Sequence[float] = (26, 24, 22, 20)
) -> tuple[str, list[str], float]:
    """A title that fits ``width`` x ``height`` px, never cut: the first of ``forms`` (the
    title, then its shorter forms) that fits one line at the largest of ``sizes`` (the whole
    title at 20 px before a shorter one at 26: a teacher loses no words while they read
    well); else the shortest form on the fewest lines the height takes, down to
    :data:`MIN_TEXT_PX`. Returns the form, its lines and the size."""
    for form in forms:
        for size in sizes:
            if text_width(form, size, True) <= width:
                return form, [form], size
    shortest = forms[-1]
    size = float(sizes[-1])
    while True:
        lines = wrap(shortest, size, width, bold=True)
        if len(lines) * size * 1.2 <= height or size <= MIN_TEXT_PX:
            return shortest, lines, size
        size -= 1


def fit_text(text: str, width: float, height: float, sizes: Sequence[float],
             gap: float = 1.35) -> tuple[list[str], float]:  # fmt: skip
    """``text`` wrapped to ``width`` at the largest of ``sizes`` whose lines fit ``height``
    (``gap``: a line's height in sizes); at the last size, the lines that fit, the last one
    ending in "…" (the speaker notes and the handout keep the whole)."""
    for size in sizes:
        lines = wrap(text, size, width)
        if len(lines) * size * gap <= height:
            return lines, size
    size = sizes[-1]
    room = max(1, int(height // (size * gap)))
    lines = wrap(text, size, width)
    if len(lines) > room:
        lines = lines[:room]
        last = lines[-1]
        while last and text_width(last + " …", size) > width:
            last = last[:-1]
        lines[-1] = last.rstrip() + " …"
    return lines, size


# ----------------------------------------------------------------------------- the terms


@dataclass(frozen=True)
class TermsBlock:
    """One decision's part of the terms: its caption's lines, the rows shown (in the table's
    order: the chosen one and its closest rivals when not all fit) and the rows left out."""

    table: Table
    caption: tuple[str, ...]
    rows: tuple[int, ...]
    more: str  # "+3 more" ("" when every row is shown)


@dataclass(frozen=True)
class TermsPlan:
    """The deciding terms laid out in a column: the columns' widths (in the header's order)
    and each header's lines (drawn once, under the first decision's caption), a block per
    decision shown, and a line for the deeper decisions left out ("" when none is)."""

    widths: tuple[float, ...]
    header: tuple[tuple[str, ...], ...]
    blocks: tuple[TermsBlock, ...]
    hidden: str

    @property
    def head_h(self) -> float:
        return HEAD_LINE * max((len(h) for h in self.header), default=1) + 4

    def height(self) -> float:
        """The plan's height in px."""
        h = self.head_h if self.blocks else 0.0
        for b in self.blocks:
            h += ROW_H * (len(b.caption) + len(b.rows) + (1 if b.more else 0))
        return h + (ROW_H if self.hidden else 0.0)


def _least_width(header: str, lines: int, floor: float, hyphens: bool) -> float:
    """The least column width (>= ``floor``) that wraps ``header`` into ``lines`` lines."""
    full = text_width(header, MIN_TEXT_PX, True) + _CELL_PAD
    w = floor
    while w < full and len(wrap(header, MIN_TEXT_PX, w - 2, True, hyphens)) > lines:
        w += 2
    return min(w, full)


def _columns(tables: Sequence[Table], width: float) -> tuple[list[float], list[list[str]]]:
    """Each column's width: room for its widest cell (bold, as the chosen row is) and its
    header's longest word with :data:`_CELL_PAD` around them (a tight table: 2 px; tighter
    still: a header's long word broken with a hyphen), the rest shared so the headers take as
    few lines as they can."""
    header = tables[0].header
    cells, words = [], []
    for c, head in enumerate(header):
        cells.append(max(text_width(row[c], MIN_TEXT_PX, True) for t in tables for row in t.rows))
        words.append(max(text_width(w.strip(), MIN_TEXT_PX, True) for w in _tokens(head) or [""]))
    hyphens = False
    need = [max(c, w) + _CELL_PAD for c, w in zip(cells, words, strict=True)]
    if sum(need) > width:
        need = [max(c, w) + 2 for c, w in zip(cells, words, strict=True)]
    if sum(need) > width:
        hyphens = True
        need = [max(c, min(w, 4 * MIN_TEXT_PX)) + 2 for c, w in zip(cells, words, strict=True)]
    widths = need
    if sum(need) > width:  # too many columns: each its share (a cell too wide is cut with …)
        widths = [width * n / sum(need) for n in need]
    else:
        for lines in (1, 2, 3):
            want = [max(n, _least_width(h, lines, n, hyphens))
                    for n, h in zip(need, header, strict=True)]  # fmt: skip
            if sum(want) <= width:
                widths = want
                break
        spare = width - sum(widths)
        widths = [w + spare * w / sum(widths) for w in widths]
    heads = [wrap(h, MIN_TEXT_PX, w - 2, bold=True, hyphens=hyphens) or [""] for h, w in
             zip(header, widths, strict=True)]  # fmt: skip
    return widths, heads


def plan_terms(tables: Sequence[Table], width: float, height: float) -> TermsPlan | None:
    """The deciding terms in a ``width`` x ``height`` px column at :data:`MIN_TEXT_PX`, whole:
    every decision with every row when they fit; else each decision's chosen row and its
    closest rival at least (the comparison that decided), then more rows from the root down
    (the root's decision is the board's), with "+k more" under a table short of rows; the
    deepest decisions that do not fit even so are left out, a line says how many. Never a
    smaller type, never a cut row. ``None`` when there are no tables."""
    if not tables:
        return None
    widths, heads = _columns(tables, width)
    captions = [tuple(wrap(t.caption, MIN_TEXT_PX, width, bold=True)) for t in tables]
    head_h = HEAD_LINE * max(len(h) for h in heads) + 4
    count = len(tables)

    def need(i: int, shown: int) -> float:
        more = 1 if shown < len(tables[i].rows) else 0
        return ROW_H * (len(captions[i]) + shown + more) + (head_h if i == 0 else 0.0)

    least = [min(2, len(t.rows)) for t in tables]
    kept = count
    while (
        kept > 0
        and sum(need(i, least[i]) for i in range(kept)) + (ROW_H if kept < count else 0) > height
    ):
        kept -= 1
    if kept == 0 and need(0, min(1, len(tables[0].rows))) <= height - ROW_H * (count > 1):
        kept, least = 1, [min(1, len(tables[0].rows))]
    shown = least[:kept]
    spare = height - sum(need(i, shown[i]) for i in range(kept)) - (ROW_H if kept < count else 0)
    for i in range(kept):
        rows = len(tables[i].rows)
        while shown[i] < rows:
            cost = ROW_H if shown[i] + 1 < rows else 0.0  # the last row takes "+k more"'s line
            if cost > spare:
                break
            shown[i] += 1
            spare -= cost
    blocks = []
    for i in range(kept):
        table = tables[i]
        picked = tuple(sorted(table.telling()[: shown[i]]))
        left = len(table.rows) - len(picked)
        # the tree's dashed box for the children it does not draw says the same ("+6 more")
        more = i18n._("+{n} more", n=i18n.decimal(left)) if left else ""
        blocks.append(TermsBlock(table, captions[i], picked, more))
    hidden = ""
    if kept < count:
        # TRANSLATORS: under an exported slide's UCT tables: the decisions further down the
        # path it has no room for (the speaker notes and the handout hold them)
        hidden = i18n.n_("+{n} deeper decision", "+{n} deeper decisions", count - kept,
                         n=i18n.decimal(count - kept))  # fmt: skip
    return TermsPlan(tuple(widths), tuple(tuple(h) for h in heads), tuple(blocks), hidden)


# ----------------------------------------------------------------------------- a slide


@dataclass(frozen=True)
class Layout:
    """Where everything of one slide goes, in px of the 1280x720 slide (boxes are ``(x, y,
    width, height)``; a right-to-left deck's columns are mirrored).

    Attributes:
        title: the title's form shown (the slide's title or a shorter form of it).
        title_lines: its lines (one, unless no form fits one line) and ``title_size``.
        body: the narration's (or a text slide's) lines at ``body_size`` in ``body_box``.
        tree_box: the tree picture's box, ``None`` on a text slide.
        board: the board's SVG with its small texts raised (:func:`readable`), drawn at
            ``board_zoom`` in ``board_box``; ``None`` without a board picture.
        board_text: a board written as text (a game without a picture), its lines.
        terms: the deciding terms' plan, drawn from ``terms_box``'s top.
    """

    title: str
    title_lines: tuple[str, ...]
    title_size: float
    body: tuple[str, ...]
    body_size: float
    body_box: Box
    tree_box: Box | None = None
    board: str | None = None
    board_zoom: float = 1.0
    board_box: Box | None = None
    board_text: tuple[str, ...] = ()
    board_text_box: Box | None = None
    terms: TermsPlan | None = None
    terms_box: Box | None = None


def layout(deck: Deck, slide: Slide) -> Layout:
    """The slide's :class:`Layout`: every text at :data:`MIN_TEXT_PX` or more, every one
    inside the slide (the title never cut: :func:`fit_title`; the terms whole:
    :func:`plan_terms`)."""
    w, m = SLIDE_W, _MARGIN
    with i18n.language(deck.lang):
        forms = (slide.title, *slide.short_titles)
        form, lines, size = fit_title(forms, w - 2 * m, _TITLE_H - 6)
        if slide.tree_svg is None:
            box = (m, _TITLE_H + 24, w - 2 * m, SLIDE_H - _TITLE_H - 24 - 30)
            body, body_size = fit_text(slide.text, box[2], box[3], (24, 22, 20, 18, 16))
            return Layout(form, tuple(lines), size, tuple(body), body_size, box)
        tx, ty, tw, th = TREE_BOX
        tree_x = w - m - tw if deck.rtl else tx
        side_x = m if deck.rtl else m + tw + 16
        narration_box = (tree_x, ty + th + 10, tw, SLIDE_H - ty - th - 10 - 8)
        body, body_size = fit_text(slide.text, tw, narration_box[3], (17, 16, 15, 14))
        y = float(ty)
        board = board_box = text_box = None
        zoom = 1.0
        board_lines: tuple[str, ...] = ()
        if slide.board_svg is not None:
            bw, bh = svg_size(slide.board_svg)
            zoom = min(1.0, _SIDE_W / bw, BOARD_MAX_H / bh)
            board = readable(slide.board_svg, zoom)
            board_box = (side_x + (_SIDE_W - bw * zoom) / 2, y, bw * zoom, bh * zoom)
            y += bh * zoom + 10
        elif slide.board_text:
            board_lines = tuple(slide.board_text.splitlines()[:12])
            text_box = (side_x, y, _SIDE_W, len(board_lines) * 15 * 1.35 + 8)
            y += text_box[3] + 6
        terms = plan_terms(slide.tables, _SIDE_W, _TERMS_BOTTOM - y)
        return Layout(
            form, tuple(lines), size, tuple(body), body_size, narration_box,
            tree_box=(tree_x, ty, tw, th), board=board, board_zoom=zoom, board_box=board_box,
            board_text=board_lines, board_text_box=text_box, terms=terms,
            terms_box=(side_x, y, _SIDE_W, _TERMS_BOTTOM - y),
        )  # fmt: skip


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
               inset: float = _MARGIN) -> str:  # fmt: skip
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
        f'<rect width="{w}" height="{_TITLE_H}" fill="{_CAPTION_FILL}"/>',
        _title_svg(at.title_lines, at.title_size, w, _TITLE_H, rtl),
    ]
    if number:
        parts.append(_line(str(number), _MARGIN if rtl else w - _MARGIN, SLIDE_H - 10,
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
