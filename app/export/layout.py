"""The layout of a 16:9 slide, in px of the projector's 1280x720: where the title, the tree,
the narration, the board and the deciding terms go (:func:`layout`), every text at
:data:`MIN_TEXT_PX` or more and inside the slide. The slide's picture
(:func:`app.export.pictures.slide_svg`) and the PowerPoint deck (``pptx_deck.py``) both place
everything by it, so the two cannot drift.

What a teacher gets when a slide is short of room:

- the title: the whole title at a smaller size (down to 20 px) before a shorter form of it (the
  four phases as "all four phases", a lesson's state without the game), then two lines; never
  a cut (:func:`fit_title`);
- the deciding terms: every table whole at 14 px when they fit; else each decision's chosen row
  and its closest rival (by Q + bonus: the comparison that decided) at least, more rows from the
  root down, "+k more" under a table short of rows, and a line counting the deepest decisions
  left out (:func:`plan_terms`). One slide a press keeps the deck in step with the lesson and
  the teacher's clicker (a continuation slide would put a table where the next press is
  expected), and a smaller type would not read from the back of a room; the speaker notes and
  the handout hold every row;
- the board: drawn at the largest zoom its column takes (at most 1:1), its small texts (the
  cells' names, Connect Four's Q line) raised to 14 px at that zoom (:func:`readable`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from app.drawing.tree_text import text_width
from app.export.records import Deck, Slide, Table
from app.export.tree_svg import MIN_TEXT_PX
from app.words import i18n

__all__ = [
    "BOARD_MAX_H",
    "HEAD_LINE",
    "MARGIN",
    "ROW_H",
    "SLIDE_H",
    "SLIDE_W",
    "TITLE_H",
    "TREE_BOX",
    "Box",
    "Layout",
    "TermsBlock",
    "TermsPlan",
    "fit_text",
    "fit_title",
    "layout",
    "plan_terms",
    "readable",
    "svg_size",
    "wrap",
]

#: A slide's size in px (16:9, the projector's 1280x720).
SLIDE_W, SLIDE_H = 1280, 720
#: The slide's margin, and its title bar's height (px).
MARGIN = 16
TITLE_H = 64
#: The tree picture's box on a slide (left to right; mirrored for a right-to-left deck).
TREE_BOX = (MARGIN, TITLE_H + 8, 760, 430)
_SIDE_W = SLIDE_W - 2 * MARGIN - TREE_BOX[2] - 16
#: The board's most height (px) in the side column: the rest is the deciding terms'.
BOARD_MAX_H = 330
#: The deciding terms end above the slide's number in the corner.
_TERMS_BOTTOM = SLIDE_H - 28
#: A row of the terms (14 px type), and a line of a column's header.
ROW_H, HEAD_LINE = 20.0, 18.0
_CELL_PAD = 8

Box = tuple[float, float, float, float]


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
        closes = token[0] in _CLOSING and pieces and not pieces[-1].endswith((" ", "\t"))
        opened = pieces and pieces[-1].endswith(tuple(_OPENING))
        if closes or opened:
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
    w, m = SLIDE_W, MARGIN
    with i18n.language(deck.lang):
        forms = (slide.title, *slide.short_titles)
        form, lines, size = fit_title(forms, w - 2 * m, TITLE_H - 6)
        if slide.tree_svg is None:
            box = (m, TITLE_H + 24, w - 2 * m, SLIDE_H - TITLE_H - 24 - 30)
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
