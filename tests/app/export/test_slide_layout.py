"""Slides laid out for the projector (issue 44): the UCT tables' numbers as the app's own table
writes them in the slide's language, every table whole inside the 16:9 slide, the title on its
bar without a cut, every text at 14 px or more at 1280x720 measured on the slide's SVG (the
board's small captions too), Arabic ordered right to left by the renderer, Chinese lines never
opening on closing punctuation, and pictures drawn in helper processes equal to those drawn
here. Measured on the slide model and its SVG, one tiny picture drawn."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser

import pytest
import resvg_py
from PIL import Image

from app.drawing.figures import column_name, uct_table_html
from app.drawing.tree_text import text_width
from app.export import Deck, RunSpec, Slide, Table, lesson_deck, pictures, run_deck
from app.export.layout import SLIDE_H, SLIDE_W, fit_title, layout, plan_terms, wrap
from app.export.pictures import slide_svg, svg_png
from app.export.tree_svg import MIN_TEXT_PX
from app.words import i18n
from games.registry import game_spec, make_game
from mcts_core import Search

SPEC = RunSpec(game="connect_four", position="44", seed=3, iterations=12, at=(8,))
#: The columns of the slide's UCT table (the app's column keys).
KEYS = ("move", "n (before backup)", "Q", "bonus", "Q + bonus")


@pytest.fixture(scope="module")
def traps() -> Deck:
    """The lesson the teacher looked at (issue 44: its Spanish slide 7, a Step N press)."""
    return lesson_deck("traps", "es")


@pytest.fixture(scope="module")
def deep() -> Deck:
    """Connect Four with a long path: four decisions and more on one slide."""
    return run_deck(RunSpec(game="connect_four", iterations=1000, at=(1000,)), "en")


class _Cells(HTMLParser):
    """The header and the rows of the app's HTML tables, as their text."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: list[list[list[str]]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: object) -> None:
        if tag == "table":
            self.tables.append([])
        elif tag == "tr":
            self.tables[-1].append([])
        elif tag in ("td", "th"):
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.cell is not None:
            self.tables[-1][-1].append("".join(self.cell))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def test_table_numbers_are_the_apps_in_the_slides_language() -> None:
    deck = run_deck(SPEC, "es")
    tables = deck.slides[0].tables
    game = make_game(SPEC.game)
    search = Search(game, game.parse_state(SPEC.position), SPEC.config, seed=SPEC.seed)
    for _ in range(8):
        trace = search.step()
    with i18n.language("es"):
        names = [i18n._(n) for n in game_spec(SPEC.game).player_names]
        parser = _Cells()
        parser.feed(uct_table_html(trace.decisions, names))
        # the app's headers, without the page's soft hyphens (a slide breaks its own words)
        assert tables[0].header == tuple(column_name(k).replace("\u00ad", "") for k in KEYS)
    assert len(parser.tables) == len(tables) >= 1
    for shown, (header, *rows) in zip(tables, parser.tables, strict=True):
        bare = [h.replace("\u00ad", "") for h in header]
        at = [bare.index(h) for h in shown.header]  # the app's column of each slide column
        assert shown.rows == tuple(tuple(row[i] for i in at) for row in rows)
    numbers = [cell for t in tables for row in t.rows for cell in row[1:]]
    assert numbers and all(re.fullmatch(r"[+-]?\d+(,\d{3})?", n) for n in numbers)
    assert any("," in n for n in numbers)


def _plan_ok(slide: Slide, deck: Deck) -> None:
    """The slide's terms fit their box whole: each header line and cell in its column, each
    shown table's chosen row among its rows, every row and decision counted."""
    at = layout(deck, slide)
    plan, box = at.terms, at.terms_box
    if not slide.tables:
        assert plan is None
        return
    assert plan is not None and box is not None
    assert box[1] + plan.height() <= SLIDE_H - 24
    assert abs(sum(plan.widths) - box[2]) < 0.01
    for head, lines, width in zip(slide.tables[0].header, plan.header, plan.widths, strict=True):
        assert " ".join(lines) == " ".join(head.split())  # the whole header, no word cut or broken
        assert all(text_width(line, MIN_TEXT_PX, True) <= width for line in lines)
    for block in plan.blocks:
        table = block.table
        assert table.chosen in block.rows
        assert list(block.rows) == sorted(block.rows)
        left = len(table.rows) - len(block.rows)
        assert block.more == (f"+{left} más" if deck.lang == "es" else f"+{left} more") * bool(left)
        for r in block.rows:
            for cell, width in zip(table.rows[r], plan.widths, strict=True):
                assert text_width(cell, MIN_TEXT_PX, True) <= width
    hidden = len(slide.tables) - len(plan.blocks)
    assert bool(plan.hidden) == bool(hidden) and (
        not hidden or plan.hidden.startswith(f"+{hidden}")
    )


def test_every_table_is_whole_inside_the_slide(traps: Deck, deep: Deck) -> None:
    for deck in (traps, deep):
        for slide in deck.slides:
            _plan_ok(slide, deck)
    step_n = traps.slides[6]  # slide 7: the Step N press, four decisions on its path
    plan = layout(traps, step_n).terms
    assert plan is not None and len(step_n.tables) == 4
    assert plan.header[1] == ("n (antes de la", "retropropagación)")
    assert len(plan.blocks) == 3 and plan.hidden == "+1 decisión más profunda"
    assert [len(b.rows) for b in plan.blocks] == [4, 2, 2]
    # the deeper decisions too, each its chosen row and closest rival at least
    slide = deep.slides[0]
    shown = layout(deep, slide).terms
    assert shown is not None and len(slide.tables) >= 4 and len(shown.blocks) >= 2


def test_headers_fit_their_columns_in_every_language() -> None:
    for lang in i18n.offered():
        with i18n.language(lang):
            header = tuple(column_name(k) for k in (*KEYS[:3], "prior P", *KEYS[3:]))
            rows = tuple((f"c{r}", "1234", "-0,333", "0,125", "+1,474", "+1,141") for r in range(7))
            table = Table(
                caption="Depth 0 · node #0 · X decides", header=header, rows=rows, chosen=3
            )
            plan = plan_terms((table, table), 472, 360)
        assert plan is not None and len(plan.blocks) == 2, lang
        assert max(len(h) for h in plan.header) <= 3, lang
        for head, lines, width in zip(header, plan.header, plan.widths, strict=True):
            # the whole header: a long word may be broken with a hyphen, never cut
            assert "".join(lines).replace(" ", "").replace("-", "") == head.replace(" ", ""), lang
            assert all(text_width(line, MIN_TEXT_PX, True) <= width for line in lines), lang


def test_title_fits_its_bar_without_a_cut(traps: Deck) -> None:
    arabic = lesson_deck("phases", "ar")
    for deck in (traps, arabic):
        for slide in deck.slides:
            at = layout(deck, slide)
            assert at.title in (slide.title, *slide.short_titles)
            assert "".join(at.title_lines).replace(" ", "") == at.title.replace(" ", "")
            assert len(at.title_lines) * at.title_size * 1.2 <= 64 and at.title_size >= MIN_TEXT_PX
            assert all(
                text_width(line, at.title_size, True) <= SLIDE_W - 32 for line in at.title_lines
            )
    seven = layout(traps, traps.slides[6])
    assert seven.title_lines == (
        "Más iteraciones · Paso N · Tres en raya · iteración 800 · las cuatro fases",
    )
    assert seven.title_size == 26
    # the whole title on one line at 20 px rather than a shorter one at 26
    form, lines, size = fit_title(("a" * 90, "short"), 1248, 58)
    assert (form, size) == ("a" * 90, 20) and lines == [form]


class _Scale:
    """A 2D transform of translations and scales: (x, y) -> (s * x + dx, s * y + dy)."""

    def __init__(self, s: float = 1.0, dx: float = 0.0, dy: float = 0.0) -> None:
        self.s, self.dx, self.dy = s, dx, dy

    def then(self, s: float = 1.0, dx: float = 0.0, dy: float = 0.0) -> _Scale:
        """This transform applied after an inner one (an element's own, inside its parent)."""
        return _Scale(self.s * s, self.dx + self.s * dx, self.dy + self.s * dy)


def _inner(element: ET.Element, outer: _Scale) -> _Scale:
    """The transform of ``element``'s content: its ``transform`` (translate and scale) and, a
    nested ``<svg>``, its place and viewBox."""
    found = outer
    for kind, args in re.findall(r"(translate|scale)\(([^)]*)\)", element.get("transform", "")):
        values = [float(v) for v in re.split(r"[ ,]+", args.strip())]
        found = found.then(dx=values[0], dy=values[1]) if kind == "translate" else found.then(
            s=values[0])  # fmt: skip
    if element.tag.endswith("svg") and element.get("viewBox"):
        box = [float(v) for v in element.get("viewBox", "").split()]
        x, y = float(element.get("x", 0)), float(element.get("y", 0))
        found = found.then(dx=x, dy=y).then(s=float(element.get("width", box[2])) / box[2])
    return found


def texts_on_slide(svg: str) -> list[tuple[str, float, float, float]]:
    """Every text of a slide's SVG with its size in px of the 1280x720 slide and its anchor's
    place there: the transforms and nested viewBoxes on its way applied."""
    found = []

    def walk(element: ET.Element, outer: _Scale, size: float) -> None:
        here = _inner(element, outer) if element is not root else outer
        size = float(element.get("font-size", size))
        if element.tag.endswith("text"):
            x, y = float(element.get("x", 0)), float(element.get("y", 0))
            found.append(("".join(element.itertext()), size * here.s, here.s * x + here.dx,
                          here.s * y + here.dy))  # fmt: skip
        for child in element:
            walk(child, here, size)

    root = ET.fromstring(svg)
    walk(root, _Scale(), 16.0)
    return found


def test_every_text_is_at_least_14_px_inside_the_slide(traps: Deck) -> None:
    decks = [
        run_deck(RunSpec(game="connect_four", iterations=30, at=(30,)), "de"),
        run_deck(RunSpec(game="gridiron", iterations=20, at=(20,)), "en"),
        traps,
    ]
    slides = [(d, s) for d in decks[:2] for s in d.slides]
    slides += [(traps, traps.slides[k]) for k in (0, 6)]  # a page's text and the Step N press
    for deck, slide in slides:
        texts = texts_on_slide(slide_svg(deck, slide, 7))
        assert len(texts) >= 3
        small = [(t, round(size, 2)) for t, size, _x, _y in texts if size < MIN_TEXT_PX - 1e-6]
        assert small == [], slide.title
        outside = [t for t, size, x, y in texts if not (0 <= x <= SLIDE_W and size <= y <= SLIDE_H)]
        assert outside == [], slide.title
    # measured with the boards' own small texts: the cell names, Connect Four's Q line
    for _deck, slide in slides:
        if slide.board_svg is not None:
            sizes = [float(v) for v in re.findall(r'font-size="([0-9.]+)"', slide.board_svg)]
            assert min(sizes) < MIN_TEXT_PX


def test_arabic_text_is_ordered_right_to_left() -> None:
    # "Q" first in the text: right to left it is drawn at the right of the Arabic word
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40">'
        '<text x="190" y="28" font-size="24" text-anchor="end" direction="rtl">'
        '<tspan fill="#ff0000">Q</tspan> عند</text></svg>'
    )
    for drawn, red_right in ((svg_png(svg), True),
                             (bytes(resvg_py.svg_to_bytes(svg_string=svg)), False)):  # fmt: skip
        with Image.open(io.BytesIO(drawn)) as picture:
            rgba = picture.convert("RGBA")
            red = [
                x for x in range(200) for y in range(40) if rgba.getpixel((x, y))[:3] == (255, 0, 0)
            ]
            dark = [
                x for x in range(200) for y in range(40)
                if rgba.getpixel((x, y))[3] > 200 and rgba.getpixel((x, y))[0] < 60
            ]  # fmt: skip
        assert red and dark
        assert (min(red) > max(dark)) is red_right


def test_chinese_lines_never_open_on_closing_punctuation() -> None:
    text = "它对每个走法把两个数相加。这里每个探索项都相同：那么由什么来决定呢？"
    for width in range(60, 400, 7):
        lines = wrap(text, 18, width)
        assert "".join(lines) == text
        assert not any(line[0] in "。，：？）」" for line in lines), width


def test_pictures_drawn_in_helpers_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pictures, "PARALLEL_FROM", 2)
    monkeypatch.setattr(pictures, "_DRAWN", type(pictures._DRAWN)())
    svgs = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="60" height="30"><text x="4" y="20" '
        f'font-size="{size}" direction="rtl">عند {size}</text></svg>'
        for size in (14, 15, 16)
    ]
    pictures.draw_all([(svg, 1.0) for svg in svgs])
    assert len(pictures._DRAWN) == 3
    drawn = [pictures._DRAWN[(svg, 1.0)] for svg in svgs]
    pictures._DRAWN.clear()
    assert drawn == [svg_png(svg) for svg in svgs]
