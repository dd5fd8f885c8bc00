"""Rehearse every lesson as a teacher with a clicker would: Present mode, Page Down alone.

    python scripts/rehearse_lessons.py --size 1280x720 [--lesson NAME ...] [--out DIR]
                                       [--strict-labels]

Starts the app, opens each lesson's first page in Present mode in headless Chromium at the given
window size, and runs it by the clicker's keys only (Page Down; once per lesson Page Up and Page
Down again): each page's text slide, its screen, its presses, the next page. For every page it
writes two screenshots (``DIR/<lesson>-<page>-text.png``, ``-screen.png``, after the page's last
press) and a row of the table it prints:

- ``text``: the text slide whole inside the window (``whole``) or by how many px it overflows,
  and its smallest type (px);
- ``screen``: the classroom screen's boxes (controls, statistics, tree, narration) inside the
  window after every key (``inside``), or the first that was not;
- ``labels``: the tree's label size after the page's last press, median of the labels' rendered
  font size (px), and the smallest such median over the page's presses;
- ``tab``: the tab the page names, and whether its first screen starts inside the window;
- ``keys``: the keys pressed on the page; ``mouse``: mouse clicks needed (always 0: the script
  has no mouse).

Exits 1 when a page fails: its text not whole or under 18 px, a screen box outside the window,
a key that changed nothing, or (``--strict-labels``) tree labels under 14 px.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from app_server import CHROMIUM, CHROMIUM_ARGS, IDLE, running_app

#: The boxes of the classroom screen that must be inside the window (as the browser tests').
SCREEN_BOXES = ("controls", "stats", "tree", "narration")
MIN_TEXT_PX = 18.0
MIN_LABEL_PX = 14.0


@dataclass
class PageRow:
    """One lesson page's rehearsal (see the module's docstring for each column)."""

    lesson: str
    page: int
    text_overflow_px: float = 0.0
    text_min_px: float = 0.0
    screen_problem: str = ""
    labels_px: float = 0.0
    labels_min_px: float = 0.0
    tab: str = ""
    tab_in_view: bool = False
    keys: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def cells(self) -> list[str]:
        text = "whole" if self.text_overflow_px <= 0 else f"+{self.text_overflow_px:.0f} px"
        tab = f"{self.tab}: {'in view' if self.tab_in_view else 'below'}" if self.tab else ""
        return [
            self.lesson,
            str(self.page),
            f"{text}, {self.text_min_px:.1f} px",
            self.screen_problem or "inside",
            f"{self.labels_px:.1f} (min {self.labels_min_px:.1f})",
            tab,
            " ".join(self.keys),
            "0",
        ]


def _idle(page: Any) -> None:
    page.wait_for_timeout(150)
    page.wait_for_selector(IDLE, timeout=60_000)
    page.wait_for_timeout(300)


def _key(page: Any, key: str, row: PageRow) -> None:
    row.keys.append({"PageDown": "PgDn", "PageUp": "PgUp"}.get(key, key))
    page.keyboard.press(key)
    _idle(page)


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


def _label_px(page: Any) -> float:
    """The median rendered font size of the tree's labels (px): their text's font size times
    the drawing's zoom (its screen CTM)."""
    sizes = page.locator(".st-key-tree .tv-label").evaluate_all(
        "els => els.map(e => parseFloat(getComputedStyle(e).fontSize)"
        " * (e.getScreenCTM() ? e.getScreenCTM().a : 1))"
    )
    return float(statistics.median(sizes)) if sizes else 0.0


def _wait_changed(page: Any, before: str) -> bool:
    """Until the clicker's button names its next action (every press moves it on)."""
    try:
        page.wait_for_function(
            "b => (document.querySelector('.st-key-clicker_next')?.innerText ?? '') !== b",
            arg=before,
            timeout=30_000,
        )
    except Exception:  # Playwright's TimeoutError: the key changed nothing
        return False
    _idle(page)
    return True


def rehearse_lesson(
    browser: Any, url: str, name: str, size: tuple[int, int], out: Path | None
) -> list[PageRow]:
    """Run lesson ``name`` by Page Down alone in a fresh page of ``browser``; one row a page."""
    width, height = size
    from app.lessons.reading import load_lessons

    found, _ = load_lessons()
    tabs = {(name, n): p.setup.tab for n, p in enumerate(found[name].pages, start=1)
            if p.setup is not None and p.setup.tab}  # fmt: skip
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(f"{url}/?lesson={name}&page=1&presentation=1")
    page.wait_for_function(  # the slide's words, not the page's loading skeleton
        "() => /page 1 of/.test(document.querySelector('.lab-slide')?.innerText ?? '')",
        timeout=90_000,
    )
    _idle(page)
    found = re.search(r"page 1 of (\d+)", page.inner_text(".st-key-lesson_page"))
    pages = int(found.group(1)) if found else 1
    rows = []
    for number in range(1, pages + 1):
        row = PageRow(name, number)
        rows.append(row)
        box = page.locator(".st-key-lesson_page").first.bounding_box()
        row.text_overflow_px = 0.0 if box is None else box["y"] + box["height"] - height
        sizes = page.locator(".st-key-lesson_text_slide p").evaluate_all(
            "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))"
        )
        row.text_min_px = min(sizes) if sizes else 0.0
        if row.text_overflow_px > 0:
            row.problems.append(f"text overflows by {row.text_overflow_px:.0f} px")
        if row.text_min_px < MIN_TEXT_PX:
            row.problems.append(f"text at {row.text_min_px:.1f} px")
        if out is not None:
            page.screenshot(path=str(out / f"{name}-{number}-text.png"))
        _key(page, "PageDown", row)  # the screen
        if number == 1:  # Page Up: back to the text; Page Down: the screen again
            _key(page, "PageUp", row)
            _key(page, "PageDown", row)
        try:
            page.wait_for_selector(".st-key-tree g.tv-node", timeout=30_000)
        except Exception:  # Playwright's TimeoutError
            row.problems.append("no tree after Page Down")
            break
        _idle(page)
        medians = [_label_px(page)]
        row.screen_problem = _screen_problem(page, width, height)
        while True:
            label = page.inner_text(".st-key-clicker_next")
            if "Next page" in label or "End of the lesson" in label:
                break
            if "Show the" in label and "tab" in label:  # the tab slide: its first screen
                row.keys.append("PgDn")
                page.keyboard.press("PageDown")
                if not _wait_changed(page, label):
                    row.problems.append("Page Down did not show the tab")
                    break
                slide = page.locator(".st-key-lesson_tab_slide").first
                top = slide.bounding_box() if slide.count() else None
                row.tab_in_view = top is not None and top["y"] + 60 <= height
                if out is not None:
                    page.screenshot(path=str(out / f"{name}-{number}-tab.png"))
                continue
            row.keys.append("PgDn")
            page.keyboard.press("PageDown")
            if not _wait_changed(page, label):
                row.problems.append(f"Page Down ({label.strip()}) changed nothing")
                break
            medians.append(_label_px(page))
            row.screen_problem = row.screen_problem or _screen_problem(page, width, height)
        row.labels_px, row.labels_min_px = medians[-1], min(medians)
        if row.screen_problem:
            row.problems.append(f"screen: {row.screen_problem}")
        if row.labels_min_px < MIN_LABEL_PX:
            row.problems.append(f"labels: {row.labels_min_px:.1f} px")
        row.tab = tabs.get((name, number), "")
        if row.tab and not row.tab_in_view:
            row.problems.append(f"the {row.tab} tab starts below the window")
        if out is not None:
            page.screenshot(path=str(out / f"{name}-{number}-screen.png"))
        if number < pages:
            row.keys.append("PgDn")
            page.keyboard.press("PageDown")
            try:
                page.wait_for_function(
                    "n => (document.querySelector('.st-key-lesson_text_slide')?.innerText ?? '')"
                    ".includes('page ' + n + ' of')", arg=number + 1, timeout=30_000,
                )  # fmt: skip
            except Exception:  # Playwright's TimeoutError
                row.problems.append("Page Down did not turn the page")
                break
            _idle(page)
    page.close()
    return rows


def lesson_names() -> list[str]:
    from app.lessons.reading import load_lessons

    found, _ = load_lessons()
    return sorted(found, key=lambda name: found[name].order)


def table(rows: list[PageRow]) -> str:
    head = ["lesson", "page", "text", "screen", "labels px", "tab", "keys", "mouse"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(row.cells()) + " |" for row in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", default="1280x720", help="the window, WIDTHxHEIGHT")
    parser.add_argument("--lesson", action="append", help="a lesson's name (default: all)")
    parser.add_argument("--out", default="out/rehearsal", help="where the screenshots go")
    parser.add_argument(
        "--strict-labels",
        action="store_true",
        help=f"fail a page whose tree labels fall under {MIN_LABEL_PX:g} px",
    )
    args = parser.parse_args(argv)
    try:
        width, height = (int(n) for n in args.size.lower().split("x"))
    except ValueError:
        parser.error("--size is WIDTHxHEIGHT, e.g. 1280x720")
    if not (320 <= width <= 4000 and 320 <= height <= 3000):
        parser.error("--size: 320 to 4000 wide, 320 to 3000 high")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    names = args.lesson or lesson_names()
    from playwright.sync_api import sync_playwright

    rows: list[PageRow] = []
    with running_app() as url, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for name in names:
            rows += rehearse_lesson(browser, url, name, (width, height), out)
        browser.close()
    print(table(rows))
    failed = [
        (row, p)
        for row in rows
        for p in row.problems
        if args.strict_labels or not p.startswith("labels")
    ]
    for row, problem in failed:
        print(f"FAIL {row.lesson} page {row.page}: {problem}", file=sys.stderr)
    print(f"{len(rows)} pages, {sum(len(r.keys) for r in rows)} keys, 0 mouse clicks; "
          f"{len(failed)} failures; screenshots in {out}", file=sys.stderr)  # fmt: skip
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
