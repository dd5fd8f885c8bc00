"""Rehearse every lesson as a teacher with a clicker would: Present mode, Page Down alone.

    python scripts/rehearse_lessons.py --size 1280x720 [--size 1024x768 ...] [--lesson NAME ...]
                                       [--out DIR] [--strict-labels] [--class N] [--lang TAG ...]

Starts the app, opens each lesson's first page in Present mode in headless Chromium at each
window size given (one browser for all), and runs it by the clicker's keys only (Page Down;
once per lesson, after its first press, Page Up and Page Down again): each page's text slide,
its screen, its presses, the next page. For every page it writes two screenshots
(``DIR/<lesson>-<page>-text.png``, ``-screen.png``, after the page's last press; under
``DIR/<width>x<height>/`` when several sizes are given) and a row of the table it prints:

- ``size``: the window;
- ``text``: the text slide whole inside the window (``whole``) or by how many px it overflows,
  and its smallest type (px);
- ``screen``: the classroom screen's boxes (controls, statistics, tree, narration) inside the
  window after every key (``inside``), or the first that was not;
- ``root and moves``: the tree's top box and every one of its moves inside the tree's view
  (the part of its box inside the window) on the screen and after every press (``in view``),
  or the first time they were not;
- ``tree text px``: the smallest rendered size of the tree's texts in view (move names, N, Q,
  badges, dice odds: font size times the drawing's zoom) on the screen and after every press;
- ``round trip``: after the lesson's first press, Page Up to the text slide and Page Down back:
  the screen's history entry (``newest``, as it must be, or the entry it came back at);
- ``tab``: the tab the page names, and whether its first screen starts inside the window;
- ``keys``: the keys pressed on the page; ``mouse``: mouse clicks needed (always 0: the script
  has no mouse).

Exits 1 when a page fails: its text not whole or under 18 px, a screen box outside the window,
the tree's top or one of its moves outside the tree's view, the screen not at its newest entry
after the round trip, a key that changed nothing, or (``--strict-labels``) a tree text in view
under 14 px.

``--lang TAG`` (repeatable; ``all``: every language the app offers, app.words.i18n.OFFERED)
rehearses the lessons in that language (``?lang=TAG``: the app's words and the lesson's
translation, lessons/TAG/). English by default, its screenshots and rows named as they always
were; another language's screenshots are ``DIR/<TAG>-<lesson>-<page>-...png`` and its rows'
lesson ``<lesson> [TAG]``. The script reads no word of the page: the clicker's state (what Page
Down does next, the page and the count, the slide, the presses done) is in ``data-clicker-*``
attributes on the text slide and on the strip above the screen (app.lessons.clicker.state).

``--class N`` rehearses the lessons with a class instead: the teacher's page starts a class (the
one mouse click, before the lesson), N phones (390x844) join by its code, and the lesson runs by
Page Down alone; before each press a phone answers the open question (phone k takes answer k,
so the class splits), the press reveals it. After each reveal the table has a row: the press,
the answers the projector counted against those the phones gave, whether the projector shows
the reveal's table and the next question whole inside the window (and the narration's top), and
on every phone the question with its answers and the tree it asks about on one screen.
Screenshots: ``DIR/class-<lesson>-<page>-<press>.png`` (projector) and ``-phone<k>.png``.
Exits 1 when a reveal or a question is outside the window, a phone's answers and tree are not
on one screen, or the counts differ. (In English only: it reads the class's count line.)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from app_server import CHROMIUM, CHROMIUM_ARGS, IDLE, running_app

from app.words.i18n import OFFERED

#: The boxes of the classroom screen that must be inside the window (as the browser tests').
SCREEN_BOXES = ("controls", "stats", "tree", "narration")
MIN_TEXT_PX = 18.0
MIN_LABEL_PX = 14.0


@dataclass
class PageRow:
    """One lesson page's rehearsal (see the module's docstring for each column)."""

    lesson: str
    page: int
    lang: str = "en"
    text_overflow_px: float = 0.0
    text_min_px: float = 0.0
    size: str = "1280x720"
    screen_problem: str = ""
    tree_problem: str = ""
    labels_min_px: float = 0.0
    round_trip: str = ""
    tab: str = ""
    tab_in_view: bool = False
    keys: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def cells(self) -> list[str]:
        text = "whole" if self.text_overflow_px <= 0 else f"+{self.text_overflow_px:.0f} px"
        tab = f"{self.tab}: {'in view' if self.tab_in_view else 'below'}" if self.tab else ""
        return [
            where(self.lesson, self.lang),
            self.size,
            str(self.page),
            f"{text}, {self.text_min_px:.1f} px",
            self.screen_problem or "inside",
            self.tree_problem or "in view",
            f"{self.labels_min_px:.1f}",
            self.round_trip,
            tab,
            " ".join(self.keys),
            "0",
        ]


def where(lesson: str, lang: str) -> str:
    """A row's lesson, with its language when not English: "exploration [de]"."""
    return lesson if lang == "en" else f"{lesson} [{lang}]"


def _idle(page: Any) -> None:
    page.wait_for_timeout(150)
    page.wait_for_selector(IDLE, timeout=60_000)
    page.wait_for_timeout(300)


def clicker_key(page: Any, key: str) -> None:
    """Press the clicker's ``key`` (Page Down or Page Up) once its button is on the page: the
    key belongs to the button (``clicker_next``, ``clicker_prev``), bound when the button is
    drawn, and under load the page can be idle with the slide before the strip is drawn (a key
    pressed then does nothing: seen once in CI)."""
    button = "clicker_prev" if key == "PageUp" else "clicker_next"
    page.locator(f".st-key-{button} button").first.wait_for(timeout=60_000)
    page.keyboard.press(key)


def _key(page: Any, key: str, row: PageRow) -> None:
    row.keys.append({"PageDown": "PgDn", "PageUp": "PgUp"}.get(key, key))
    clicker_key(page, key)
    _idle(page)


def _check_tree(page: Any, row: PageRow, when: str) -> None:
    """The tree as the class sees it ``when``: the top and its moves inside the tree's view
    (the first miss kept in ``row.tree_problem``), its smallest text in view."""
    seen = tree_seen(page)
    row.labels_min_px = min(row.labels_min_px, float(seen["minPx"]))
    if seen["outside"] and not row.tree_problem:
        top, view = seen["top"], seen["view"]
        where_top = f"top at y {top[1]:.0f}" if top else "no top"
        row.tree_problem = (f"{when}: {len(seen['outside'])} of the top and its moves outside "
                            f"({where_top}, the view y {view[1]:.0f}-{view[3]:.0f})")  # fmt: skip


def _round_trip(page: Any, keys: list[str], fail: Callable[[str], None]) -> str:
    """Page Up to the text slide, Page Down back: the screen must show its newest entry (the
    keys pressed added to ``keys``, a failure told to ``fail``)."""
    for key in ("PageUp", "PageDown"):
        before = page.evaluate(STATE_JS)
        keys.append({"PageDown": "PgDn", "PageUp": "PgUp"}[key])
        clicker_key(page, key)
        if not _wait_changed(page, before):
            fail(f"{key} in the round trip changed nothing")
            return "stuck"
    page.wait_for_selector(".st-key-tree g.tv-node", timeout=90_000)
    _idle(page)
    if entry_newest(page):
        return "newest"
    shown = str(page.evaluate(ENTRY_JS)).replace(" ", " of ")
    fail(f"after the round trip the screen shows entry {shown}")
    return f"entry {shown}"


def _screen_problem(page: Any, width: int, height: int) -> str:
    if page.evaluate("window.scrollY") != 0:
        return "scrolled"
    for key in SCREEN_BOXES:
        box = page.locator(f".st-key-{key}").first.bounding_box()
        if box is None:
            return f"{key} not drawn"
        if box["y"] < 0 or box["x"] + box["width"] > width or box["y"] + box["height"] > height:
            return f"{key} ends at y {box['y'] + box['height']:.0f}"
    return ""


#: What a class sees of the tree, given its scroll box (``.tv-scroll``): the box's part inside
#: the window (``view``: left, top, right, bottom), whether the top box and every one of its
#: moves are inside it (``outside``: the keys of those that are not), and the smallest rendered
#: size (font size times the drawing's zoom, px) of the tree's texts in view (names, N, Q,
#: badges, odds), with that text (``smallest``).
TREE_SEEN_JS = """(scroll) => {
  const doc = scroll.getRootNode();
  const r = scroll.getBoundingClientRect();
  const view = [Math.max(r.left, 0), Math.max(r.top, 0),
                Math.min(r.right, innerWidth), Math.min(r.bottom, innerHeight)];
  const rect = (e) => { const b = e.getBoundingClientRect();
                        return [b.left, b.top, b.right, b.bottom]; };
  const inside = (a) => a[0] >= view[0] - 1 && a[1] >= view[1] - 1
                        && a[2] <= view[2] + 1 && a[3] <= view[3] + 1;
  const meets = (a) => a[0] < view[2] && a[2] > view[0] && a[1] < view[3] && a[3] > view[1];
  const top = doc.querySelector("g.tv-node");  // the top box is drawn first
  if (!top) return {view, outside: ["no tree"], minPx: 0, smallest: "", top: null};
  const key = top.getAttribute("data-key");
  const box = (g) => rect(g.querySelector(".tv-box, polygon") || g);
  const wanted = [top].concat([...doc.querySelectorAll("g.tv-node")]
    .filter((g) => g.getAttribute("data-parent") === key));
  const outside = wanted.filter((g) => !inside(box(g))).map((g) => g.getAttribute("data-key"));
  let minPx = 1e9, smallest = "";
  for (const t of doc.querySelectorAll("svg text")) {
    if (!t.textContent || !meets(rect(t))) continue;
    const ctm = t.getScreenCTM();
    const px = parseFloat(getComputedStyle(t).fontSize) * (ctm ? ctm.a : 1);
    if (px < minPx) { minPx = px; smallest = t.textContent; }
  }
  return {view, outside, minPx: minPx === 1e9 ? 0 : minPx, smallest, top: box(top)};
}"""


def tree_seen(page: Any) -> dict[str, Any]:
    """What a class sees of the screen's tree now (:data:`TREE_SEEN_JS`)."""
    return dict(page.locator(".st-key-tree .tv-scroll").first.evaluate(TREE_SEEN_JS))


#: The history scrubber's position: "<entry shown> <newest entry>" (its range input's value and
#: maximum), or "" when there is no scrubber (one entry).
ENTRY_JS = """() => {
  const s = document.querySelector('.st-key-history_index input[type="range"]');
  return s ? [s.value, s.max].join(' ') : '';
}"""


def entry_newest(page: Any) -> bool:
    """Whether the screen shows its newest history entry (no scrubber: one entry, the newest)."""
    found = str(page.evaluate(ENTRY_JS)).split()
    return len(found) != 2 or found[0] == found[1]


#: The clicker's state on the page, in no language (``data-clicker-*`` on the text slide or the
#: strip above the screen: app.lessons.clicker.state), as one string: "next page slide done".
STATE_JS = """() => {
  const d = document.querySelector('[data-clicker-next]')?.dataset;
  return d ? [d.clickerNext, d.clickerPage, d.clickerSlide, d.clickerDone].join(' ') : '';
}"""


def _state(page: Any) -> dict[str, str]:
    """The clicker's state: ``next`` (what Page Down does: screen, press, tab, page, end),
    ``page``, ``pages``, ``slide``, ``done`` (app.lessons.clicker.state); {} when not drawn."""
    found = page.evaluate(
        "() => Object.assign({}, document.querySelector('[data-clicker-next]')?.dataset ?? {})"
    )
    return {key.removeprefix("clicker").lower(): value for key, value in found.items()}


def _wait_changed(page: Any, before: str) -> bool:
    """Until the clicker's state (``STATE_JS``) is no longer ``before``: every press moves it
    on (within 60 s: Run arena's 20 games took over 30 s on a loaded machine); then until the
    page holds still (:data:`STILL_JS`)."""
    try:
        page.wait_for_function(
            f"b => ({STATE_JS})() !== b", arg=before, polling=100, timeout=60_000
        )
    except Exception:  # Playwright's TimeoutError: the key changed nothing
        return False
    _still(page)
    return True


#: True once the app has been idle with the same clicker state for ``quiet`` ms on end. A press
#: can end in two runs (the screen's fragment, then the whole page for a widget outside it),
#: idle for a moment between them: a state read in that moment is a passing one, and taking it
#: for the next step once counted a class's page 1 twice. Polled in the page (every 50 ms), so
#: a still page costs ``quiet`` ms and no round trips; ``window.__labStill`` holds since when.
STILL_JS = f"""(quiet) => {{
  const state = ({STATE_JS})();
  const idle = document.querySelector("{IDLE.replace('"', "'")}") !== null;
  const now = performance.now();
  const seen = window.__labStill;
  if (!idle || !seen || seen.state !== state) {{
    window.__labStill = {{state, since: now}};
    return false;
  }}
  return now - seen.since >= quiet;
}}"""


def _still(page: Any, quiet_ms: int = 800) -> None:
    """Until the page has held still for ``quiet_ms`` (:data:`STILL_JS`), within 60 s."""
    page.evaluate("() => { window.__labStill = null; }")
    page.wait_for_function(STILL_JS, arg=quiet_ms, polling=50, timeout=60_000)


def _button(page: Any) -> str:
    """The clicker's forward button's words (for the report only: the script reads none)."""
    words = page.inner_text(".st-key-clicker_next").strip().removeprefix("▶").strip()
    return words.splitlines()[0].strip() if words else ""  # (not its key's kbd, "PageDown")


def lang_query(lang: str) -> str:
    """The link's language parameter: none for English (the links as they always were)."""
    return "" if lang == "en" else f"&lang={lang}"


def shot(out: Path, lang: str, name: str) -> str:
    """A screenshot's path: ``name`` as ever for English, ``<lang>-name`` for another."""
    return str(out / (name if lang == "en" else f"{lang}-{name}"))


def rehearse_lesson(
    browser: Any,
    url: str,
    name: str,
    size: tuple[int, int],
    out: Path | None,
    lang: str = "en",
    also: Sequence[tuple[int, int]] = (),
) -> list[PageRow]:
    """Run lesson ``name`` by Page Down alone in a fresh page of ``browser``, in the language
    ``lang`` (``?lang=``); one row a page and window. The clicker's state is read from its
    ``data-clicker-*`` attributes, never from its words.

    ``also``: further windows, each measured at every point of the same walk (the page resized
    to it and back: the server never sees the window, so one walk shows what each window would
    have shown), with rows of their own; their screenshots go to ``out/<width>x<height>/``."""
    from app.lessons.reading import load_lessons

    found, _ = load_lessons()
    tabs = {n: p.setup.tab for n, p in enumerate(found[name].pages, start=1)
            if p.setup is not None and p.setup.tab}  # fmt: skip
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(f"{url}/?lesson={name}&page=1&presentation=1{lang_query(lang)}")
    page.wait_for_selector(  # the slide, not the page's loading skeleton
        ".lab-slide[data-clicker-page='1']", timeout=90_000
    )
    _idle(page)
    pages = int(_state(page).get("pages", "1"))
    walk = _Walk(page, name, lang, [size, *also], out)
    rows: list[PageRow] = []
    tripped = False  # the lesson's slide round trip done
    for number in range(1, pages + 1):
        walk.turn(number)
        rows += walk.rows.values()
        walk.each(walk.text_slide)
        _key(page, "PageDown", walk.rows[size])  # the screen
        try:
            page.wait_for_selector(".st-key-tree g.tv-node", timeout=90_000)
        except Exception:  # Playwright's TimeoutError
            walk.fail("no tree after Page Down")
            break
        _idle(page)
        walk.each(walk.screen, "the screen")
        while True:
            kind, before = _state(page).get("next", ""), page.evaluate(STATE_JS)
            if not kind:
                walk.fail("the clicker's state (data-clicker-next) not on the page")
                break
            if kind in ("page", "lesson", "end"):
                break
            if kind == "tab":  # the tab slide: its first screen
                walk.keys.append("PgDn")
                clicker_key(page, "PageDown")
                if not _wait_changed(page, before):
                    walk.fail("Page Down did not show the tab")
                    break
                walk.each(walk.tab_slide)
                continue
            label = _button(page)
            walk.keys.append("PgDn")
            clicker_key(page, "PageDown")
            if not _wait_changed(page, before):
                walk.fail(f"Page Down ({label}) changed nothing")
                break
            walk.each(walk.screen, f"after {label}")
            if not tripped:  # once a lesson, mid-presses: to the text slide and back
                tripped = True
                trip = _round_trip(page, walk.keys, walk.fail)
                for row in walk.rows.values():
                    row.round_trip = trip
                walk.each(walk.screen, "after the round trip")
        walk.each(walk.summary, tabs.get(number, ""))
        if number < pages:
            walk.keys.append("PgDn")
            clicker_key(page, "PageDown")
            try:
                page.wait_for_selector(
                    f".lab-slide[data-clicker-page='{number + 1}']", timeout=90_000
                )
            except Exception:  # Playwright's TimeoutError
                walk.fail("Page Down did not turn the page")
                break
            _idle(page)
    page.close()
    return rows


class _Walk:
    """One lesson's walk, measured at several windows: the page's row for each window (the
    same keys for all), the window the page has now, and the checks made at each window
    (:meth:`each` runs one at every window, starting with the current one: a resize fewer)."""

    def __init__(
        self, page: Any, name: str, lang: str, windows: list[tuple[int, int]], out: Path | None
    ) -> None:
        self.page, self.name, self.lang, self.windows = page, name, lang, windows
        self.now = windows[0]
        # screenshots: ``out`` itself for one window, ``out/<width>x<height>/`` for several
        self.folders = {w: out if out is None or len(windows) == 1 else out / f"{w[0]}x{w[1]}"
                        for w in windows}  # fmt: skip
        for folder in self.folders.values():
            if folder is not None:
                folder.mkdir(parents=True, exist_ok=True)
        self.number = 0
        self.keys: list[str] = []
        self.rows: dict[tuple[int, int], PageRow] = {}

    def turn(self, number: int) -> None:
        """Page ``number`` begins: a row for each window, sharing its keys."""
        self.number, self.keys = number, []
        self.rows = {w: PageRow(self.name, number, self.lang, size=f"{w[0]}x{w[1]}",
                                keys=self.keys) for w in self.windows}  # fmt: skip

    def fail(self, problem: str) -> None:
        """A failure of the walk itself (a key that changed nothing): every window's."""
        for row in self.rows.values():
            row.problems.append(problem)

    def each(self, check: Callable[[PageRow, int, int, str], None], when: str = "") -> None:
        """``check(row, width, height, when)`` at every window."""
        for window in [self.now] + [w for w in self.windows if w != self.now]:
            if window != self.now:
                self.page.set_viewport_size({"width": window[0], "height": window[1]})
                self.now = window
                # the page reflows and the tree reframes in the browser alone (the server
                # never sees the window): two frames for the resize observer's new layout
                self.page.evaluate(RESIZED_JS)
            check(self.rows[window], *window, when)

    def _shot(self, width: int, height: int, what: str) -> None:
        folder = self.folders[(width, height)]
        if folder is not None:
            name = f"{self.name}-{self.number}-{what}.png"
            self.page.screenshot(path=shot(folder, self.lang, name))

    def text_slide(self, row: PageRow, width: int, height: int, _: str) -> None:
        """The page's text slide whole inside the window, its type at 18 px or more."""
        box = self.page.locator(".st-key-lesson_page").first.bounding_box()
        row.text_overflow_px = 0.0 if box is None else box["y"] + box["height"] - height
        sizes = self.page.locator(".st-key-lesson_text_slide p").evaluate_all(
            "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
        )
        row.text_min_px = min(sizes) if sizes else 0.0
        if row.text_overflow_px > 0:
            row.problems.append(f"text overflows by {row.text_overflow_px:.0f} px")
        if row.text_min_px < MIN_TEXT_PX:
            row.problems.append(f"text at {row.text_min_px:.1f} px")
        self._shot(width, height, "text")

    def screen(self, row: PageRow, width: int, height: int, when: str) -> None:
        """The tree's top and moves in view, the screen's boxes inside the window, ``when``."""
        if when == "the screen":
            row.labels_min_px = 1e9
        _check_tree(self.page, row, when)
        row.screen_problem = row.screen_problem or _screen_problem(self.page, width, height)

    def tab_slide(self, row: PageRow, width: int, height: int, _: str) -> None:
        """The tab slide's first screen starting inside the window, its result table whole."""
        slide = self.page.locator(".st-key-lesson_tab_slide").first
        top = slide.bounding_box() if slide.count() else None
        row.tab_in_view = top is not None and top["y"] + 60 <= height
        # the arena's result table (after its Run) whole beside its settings
        result = _bottom(self.page, ".st-key-lesson_tab_slide [data-testid='stCode']")
        if result is not None and result > height:
            row.problems.append(f"the tab's result table ends at y {result:.0f}")
        self._shot(width, height, "tab")

    def summary(self, row: PageRow, width: int, height: int, tab: str) -> None:
        """The page's findings as problems (``tab``: the tab the page names, or "")."""
        if row.screen_problem:
            row.problems.append(f"screen: {row.screen_problem}")
        if row.tree_problem:
            row.problems.append(f"tree: {row.tree_problem}")
        if row.labels_min_px < MIN_LABEL_PX:
            row.problems.append(f"labels: {row.labels_min_px:.1f} px")
        row.tab = tab
        if row.tab and not row.tab_in_view:
            row.problems.append(f"the {row.tab} tab starts below the window")
        self._shot(width, height, "screen")


#: Resolves after the browser has laid out and painted twice since a resize, and the tree
#: component's resize observer (a layout, a frame) has run.
RESIZED_JS = """() => new Promise((done) =>
  requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(done, 50))))"""


@dataclass
class RevealRow:
    """One reveal of a class rehearsal (``--class``): see the module's docstring."""

    lesson: str
    page: int
    press: str
    given: int = 0
    counted: str = ""
    projector: str = ""
    narration_top: float = 0.0
    phones: str = ""
    problems: list[str] = field(default_factory=list)

    def cells(self) -> list[str]:
        return [self.lesson, str(self.page), self.press, str(self.given), self.counted,
                self.projector, f"{self.narration_top:.0f}", self.phones]  # fmt: skip


def _bottom(page: Any, selector: str) -> float | None:
    loc = page.locator(selector)
    box = loc.last.bounding_box() if loc.count() else None
    return None if box is None else box["y"] + box["height"]


def _phone_problem(phone: Any, height: int) -> str:
    """Whether the phone shows its open question's answers and the tree on one screen."""
    phone.wait_for_selector(".st-key-class_tree g.tv-node", timeout=30_000)
    card = phone.locator(".st-key-class_question").first.bounding_box()
    tree = phone.locator(".st-key-class_tree").first.bounding_box()
    if card is None or tree is None:
        return "no question or no tree"
    if card["y"] + card["height"] > height:
        return f"answers end at y {card['y'] + card['height']:.0f}"
    if tree["y"] + 120 > height:  # the root and its moves (120 px) on the same screen
        return f"tree starts at y {tree['y']:.0f}"
    return ""


def rehearse_class(
    browser: Any, url: str, name: str, size: tuple[int, int], phones: int, out: Path | None
) -> list[RevealRow]:
    """Run lesson ``name`` by Page Down with a class of ``phones`` phones; a row per reveal."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.class_pages import answer, join, student_page, wait_text

    width, height = size
    teacher = browser.new_page(viewport={"width": width, "height": height})
    teacher.goto(f"{url}/?lesson={name}&page=1&presentation=1")
    teacher.wait_for_selector(".st-key-class_start button", timeout=90_000)
    _idle(teacher)
    teacher.locator(".st-key-class_start button").first.click()  # (before the lesson)
    _idle(teacher)
    clicker_key(teacher, "PageDown")  # the screen, with the join box
    _idle(teacher)
    code = teacher.locator(".lab-class-code").first.inner_text().strip()
    pages = [student_page(browser, f"{url}/?class={code}", 390, 844) for _ in range(phones)]
    for k, phone in enumerate(pages):
        join(phone, code, f"Phone {k + 1}")
    wait_text(teacher, ".lab-class-count", f"{phones} connected", timeout=30_000)
    rows: list[RevealRow] = []
    number = 1
    while True:
        label = _button(teacher).removesuffix("PageDown").strip()  # (the report's words)
        kind = _state(teacher).get("next", "")
        if kind in ("end", "lesson", ""):
            break
        count = teacher.locator(".lab-class-count")  # (not on a text or tab slide)
        asked = count.first.inner_text() if count.count() else ""
        row = None
        if "answered" in asked and kind == "press":
            row = RevealRow(name, number, label, given=phones)
            for k, phone in enumerate(pages):
                wait_text(phone, ".st-key-class_question", "Question", timeout=30_000)
                problem = _phone_problem(phone, 844)
                if problem:
                    row.problems.append(f"phone {k + 1}: {problem}")
                if out is not None:
                    phone.screenshot(path=str(out / f"class-{name}-{number}-phone{k + 1}.png"))
                choices = phone.locator(".st-key-class_answer [role='radiogroup'] label").count()
                answer(phone, k % max(1, choices))
            wait_text(teacher, ".lab-class-count", f"{phones} of {phones} answered",
                      timeout=30_000)  # fmt: skip
        before = teacher.evaluate(STATE_JS)
        clicker_key(teacher, "PageDown")
        if not _wait_changed(teacher, before):
            rows.append(row or RevealRow(name, number, label))
            rows[-1].problems.append(f"Page Down ({label}) changed nothing")
            break
        if kind == "page":
            number += 1
            continue
        if row is None:
            continue
        rows.append(row)
        _idle(teacher)
        teacher.wait_for_timeout(800)  # the count line's next second
        # the reveal: alone in Present mode with a lesson (its next question on the next Page
        # Down, app.quiz.quiz_view.reveal_alone), else above the next question
        alone = teacher.locator(".lab-reveal-alone").count() > 0
        reveal = ".lab-reveal-alone" if alone else ".lab-quiz-numbers"
        table = teacher.locator(f"{reveal} .lab-class-cell")
        row.counted = str(
            sum(int(t.split()[-1]) for t in table.all_inner_texts()) if table.count() else "bars"
        )
        if row.counted not in (str(phones), "bars"):
            row.problems.append(f"the projector counted {row.counted} of {phones} answers")
        reveal_end = _bottom(teacher, f"{reveal} table")
        ask_end = _bottom(teacher, ".lab-quiz .lab-ask")
        parts = []
        for what, end in (("reveal", reveal_end), ("question", ask_end)):
            if end is None and what == "question" and alone:
                continue  # (not drawn with the reveal alone)
            if end is None:
                parts.append(f"{what}: none")
            elif end > height:
                parts.append(f"{what} ends at y {end:.0f}")
                row.problems.append(f"the {what} ends at y {end:.0f}")
        row.projector = "; ".join(parts) or (
            "reveal alone in view" if alone else "reveal and question in view"
        )
        narration = teacher.locator(".st-key-narration").first.bounding_box()
        row.narration_top = narration["y"] if narration else 0.0
        if out is not None:
            teacher.screenshot(path=str(out / f"class-{name}-{number}-{len(rows)}.png"))
        shown = []
        for k, phone in enumerate(pages):
            try:
                wait_text(phone, "[data-testid='stMain']", "Last question: ",
                          timeout=30_000)  # fmt: skip
                shown.append("reveal")
            except AssertionError:
                row.problems.append(f"phone {k + 1} did not show the reveal")
        row.phones = f"{len(shown)} of {phones} saw the reveal"
    for phone in pages:
        phone.close()
    teacher.close()
    return rows


def languages(asked: list[str]) -> list[str] | None:
    """The languages ``--lang`` names, in the order given, ``all`` for every one the app offers
    (app.words.i18n.OFFERED), each once; ``None`` when one is not offered."""
    found: list[str] = []
    for tag in asked:
        for one in OFFERED if tag == "all" else (tag,):
            if one not in OFFERED:
                return None
            if one not in found:
                found.append(one)
    return found


def lesson_names() -> list[str]:
    from app.lessons.reading import load_lessons

    found, _ = load_lessons()
    return sorted(found, key=lambda name: found[name].order)


def table(rows: list[PageRow] | list[RevealRow]) -> str:
    head = ["lesson", "size", "page", "text", "screen", "root and moves", "tree text px",
            "round trip", "tab", "keys", "mouse"]  # fmt: skip
    if rows and isinstance(rows[0], RevealRow):
        head = ["lesson", "page", "press", "answers given", "counted", "projector",
                "narration top", "phones"]  # fmt: skip
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row.cells()) + " |" for row in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--size",
        action="append",
        help="the window, WIDTHxHEIGHT, in every --lang, or WIDTHxHEIGHT=TAG,... in those: "
        "repeatable, one browser for all (default: 1280x720)",
    )
    parser.add_argument("--lesson", action="append", help="a lesson's name (default: all)")
    parser.add_argument("--out", default="out/rehearsal", help="where the screenshots go")
    parser.add_argument(
        "--strict-labels",
        action="store_true",
        help=f"fail a page whose tree texts in view fall under {MIN_LABEL_PX:g} px",
    )
    parser.add_argument(
        "--class",
        dest="phones",
        type=int,
        default=0,
        help="rehearse with a class of N phones (1-8): default lesson: exploration",
    )
    parser.add_argument(
        "--lang",
        action="append",
        metavar="TAG",
        help="a language the app offers (?lang=TAG), or 'all': repeatable (default: en); "
        "screenshots and rows other than English's are named with the tag",
    )
    args = parser.parse_args(argv)
    if not 0 <= args.phones <= 8:
        parser.error("--class: 1 to 8 phones")
    langs = languages(args.lang or ["en"])
    if langs is None:
        parser.error(f"--lang: one of {', '.join(OFFERED)} or all")
    if args.phones and langs != ["en"]:  # (the phones' words are read: "3 of 3 answered")
        parser.error("--class rehearses in English only")
    sizes: list[tuple[tuple[int, int], list[str]]] = []  # each window and its languages
    for size in args.size or ["1280x720"]:
        window, _, only = size.partition("=")
        try:
            width, height = (int(n) for n in window.lower().split("x"))
        except ValueError:
            parser.error("--size is WIDTHxHEIGHT[=TAG,...], e.g. 1280x720 or 1024x768=en")
        if not (320 <= width <= 4000 and 320 <= height <= 3000):
            parser.error("--size: 320 to 4000 wide, 320 to 3000 high")
        these = languages(only.split(",")) if only else langs
        if not these or not set(these) <= set(langs):
            parser.error(f"--size {size}: its languages must be among --lang's")
        sizes.append(((width, height), these))
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    names = args.lesson or (["exploration"] if args.phones else lesson_names())
    from playwright.sync_api import sync_playwright

    rows: list[Any] = []
    store = {"MCTS_LAB_STORE": f"sqlite:///{(out / 'class.db').resolve()}"}
    (out / "class.db").unlink(missing_ok=True)
    with running_app(env=store) as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for lang in langs:
            # a language's windows in one walk; screenshots per size when there are several:
            # DIR/<width>x<height>/...
            windows = [size for size, these in sizes if lang in these]
            if not windows:
                continue
            first = windows[0]
            into = out / f"{first[0]}x{first[1]}" if len(sizes) > 1 and len(windows) == 1 else out
            into.mkdir(parents=True, exist_ok=True)
            for name in names:
                if args.phones:
                    for size in windows:
                        where_to = out / f"{size[0]}x{size[1]}" if len(sizes) > 1 else out
                        where_to.mkdir(parents=True, exist_ok=True)
                        rows += rehearse_class(browser, url, name, size, args.phones, where_to)
                else:
                    rows += rehearse_lesson(browser, url, name, first, into, lang, windows[1:])
        browser.close()
    print(table(rows))
    failed = [
        (row, p)
        for row in rows
        for p in row.problems
        if args.strict_labels or not p.startswith("labels")
    ]
    for row, problem in failed:
        lesson = where(row.lesson, getattr(row, "lang", "en"))
        print(f"FAIL {lesson} page {row.page}: {problem}", file=sys.stderr)
    if args.phones:
        print(f"{len(rows)} reveals, {args.phones} phones, 1 mouse click (Start a class); "
              f"{len(failed)} failures; screenshots in {out}", file=sys.stderr)  # fmt: skip
    else:
        print(f"{len(rows)} pages, {sum(len(r.keys) for r in rows)} keys, 0 mouse clicks; "
              f"{len(failed)} failures; screenshots in {out}", file=sys.stderr)  # fmt: skip
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
