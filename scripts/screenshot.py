"""Take screenshots of the running app with headless Chromium (for docs and for looking).

    python scripts/screenshot.py OUT.png "query string" [--size 1280x720] [--tab NAME]
        [--scroll-to CSS] [--lang TAG ...] [KEY ...]
    python scripts/screenshot.py --all assets      # the README's pictures, all again
    python scripts/screenshot.py --all out/languages --lang all   # ... in every language

Starts the app on a free port, opens it with the query string (``steps=N`` rebuilds a tree of N
iterations), opens a detail tab if asked, clicks the buttons with the given widget keys in order
(``step``, ``phase_step``, ...; a toggle's key clicks its label, ``KEY=TEXT`` the button in
KEY that says TEXT, e.g. ``quiz_answer=c1`` for a quiz answer, ``KEY:=VALUE`` types VALUE into
KEY's input, e.g. ``ab_c:=0.5``; waiting until the app is idle after each), scrolls the first
element matching ``--scroll-to`` into view if asked (e.g. ``".st-key-detail_panels img"``: the
board inside the detail tab's scroll box) and saves a screenshot of the viewport, as a
projector would show it.

``--lang TAG`` (repeatable, or ``all``: every offered language) takes the screenshot once per
language, with ``lang=TAG`` in the query; the file names carry the tag (``OUT-de.png``,
``app-phone-zh-Hans.png``). ``--tab`` stays the tab's English name: it is clicked by its title
in that language.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the app's words (tab titles)

from app_server import CHROMIUM, CHROMIUM_ARGS, IDLE, running_app
from playwright.sync_api import sync_playwright

from app.words import i18n

#: The README's and docs' pictures: file in assets/, query, viewport, tab, keys to click.
ASSETS: list[tuple[str, str, str, str | None, list[str]]] = [
    ("app-tic-tac-toe.png", "game=tic_tac_toe&seed=1&steps=30", "1280x720", None, []),
    ("app-connect-four.png", "game=connect_four&steps=300", "1280x720", "Why this path", []),
    ("app-connect-four-1920x1080.png", "game=connect_four&steps=300", "1920x1080", None, []),
    ("app-gridiron.png", "game=gridiron&steps=300", "1280x720", None, ["step"]),
    (
        "app-presentation.png",
        "game=tic_tac_toe&seed=1&steps=30&presentation=1",
        "1280x720",
        None,
        ["step"],
    ),
    ("app-phone.png", "game=tic_tac_toe&seed=1&steps=20", "390x844", None, ["step"]),
    ("app-exact.png", "game=tic_tac_toe&steps=100&exact=true", "1280x720", None, []),
    (
        "app-ab.png",
        "game=tic_tac_toe&c=2",
        "1280x720",
        "A/B",
        ["ab", "ab_b", "ab_c:=0.5", "step_n", "step_n"],
    ),
    ("lesson-page.png", "lesson=traps", "1280x720", None, []),
    ("quiz-question.png", "game=tic_tac_toe&seed=1&steps=20", "1280x720", None, ["quiz", "step"]),
]


def shoot(
    browser: Any,
    url: str,
    out: str,
    query: str,
    keys: list[str],
    size: str,
    tab: str | None,
    scroll_to: str | None = None,
    lang: str | None = None,
) -> None:
    """One screenshot of the app at ``url`` (see the module docstring) into ``out``; ``lang``:
    in that language (``lang=`` in the query, the tab clicked by its title there)."""
    width, height = (int(v) for v in size.lower().split("x"))
    page = browser.new_page(viewport={"width": width, "height": height})
    if lang:
        query = f"{query}&lang={lang}" if query else f"lang={lang}"
        if tab:
            with i18n.language(lang):
                tab = i18n._(tab)
    page.goto(f"{url}/?{query}")
    page.wait_for_selector("g.tv-node", timeout=600_000)
    page.wait_for_selector(IDLE, timeout=600_000)
    if tab:
        page.get_by_role("tab", name=tab, exact=True).click()
        page.wait_for_timeout(300)
        page.wait_for_selector(IDLE, timeout=60_000)
    for key in keys:
        if ":=" in key:  # ab_c:=0.5: type 0.5 into the input of widget ab_c
            key, _, value = key.partition(":=")
            field = page.locator(f".st-key-{key} input").first
            field.fill(value)
            field.press("Enter")
            page.wait_for_timeout(300)
            page.wait_for_selector(IDLE, timeout=600_000)
            continue
        key, _, text = key.partition("=")  # quiz_answer=c1: the pill (button) saying c1
        box = page.locator(f".st-key-{key}")
        if text:
            box.locator("button:visible", has_text=text).first.click()
        elif box.locator("input[type=checkbox]").count():  # a toggle: its label
            box.locator("label").first.click()
        else:  # :visible: a button with help is drawn twice (mouse / touch), one hidden
            box.locator("button:visible").first.click()
        page.wait_for_timeout(300)
        page.wait_for_selector(IDLE, timeout=600_000)
    if scroll_to:  # the element's bottom at the bottom of its scroll box
        page.locator(scroll_to).first.evaluate("e => e.scrollIntoView({block: 'end'})")
        page.wait_for_timeout(300)
    page.mouse.move(5, 5)  # no tooltip in the picture
    page.wait_for_timeout(700)  # the tree component draws after the run ends
    page.screenshot(path=out)
    page.close()


def languages(asked: list[str] | None) -> list[str | None]:
    """The languages ``--lang`` asked for, in order (``all``: every offered one); ``[None]``
    when none was: the page's own choice, the file names unchanged."""
    if not asked:
        return [None]
    tags: list[str | None] = []
    for tag in asked:
        for one in i18n.OFFERED if tag == "all" else (tag,):
            if one not in i18n.OFFERED:
                raise SystemExit(
                    f"--lang {one}: not an offered language ({', '.join(i18n.OFFERED)})"
                )
            if one not in tags:
                tags.append(one)
    return tags


def tagged(path: str, lang: str | None) -> str:
    """``path`` with the language's tag before its suffix (``app.png`` -> ``app-de.png``)."""
    if lang is None:
        return path
    p = Path(path)
    return str(p.with_name(f"{p.stem}-{lang}{p.suffix or '.png'}"))


def main(
    out: str,
    query: str,
    keys: list[str],
    size: str,
    tab: str | None,
    scroll_to: str | None = None,
    langs: list[str] | None = None,
) -> None:
    with running_app() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for lang in languages(langs):
            shoot(browser, url, tagged(out, lang), query, keys, size, tab, scroll_to, lang)
            print(tagged(out, lang))
        browser.close()


def refresh_assets(folder: Path, langs: list[str] | None = None) -> None:
    """Take every picture of :data:`ASSETS` again, into ``folder`` (per language, ``--lang``)."""
    folder.mkdir(parents=True, exist_ok=True)
    with running_app() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for lang in languages(langs):
            for name, query, size, tab, keys in ASSETS:
                out = tagged(str(folder / name), lang)
                shoot(browser, url, out, query, keys, size, tab, None, lang)
                print(out)
        browser.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", help="the picture's file; with --all, the folder (assets)")
    parser.add_argument("query", nargs="?", default="")
    parser.add_argument(
        "keys", nargs="*", help="widget keys of buttons (or toggles, or KEY=TEXT) to click"
    )
    parser.add_argument("--size", default="1280x720", help="viewport, e.g. 1920x1080")
    parser.add_argument("--tab", help="a detail tab to open first, e.g. 'Why this path'")
    parser.add_argument("--scroll-to", help="CSS selector of an element to scroll into view")
    parser.add_argument("--all", action="store_true", help="every picture of ASSETS into OUT")
    parser.add_argument(
        "--lang",
        action="append",
        metavar="TAG",
        help="a language (es, de, zh-Hans, ar, en; repeatable) or 'all': one picture each, "
        "the tag in its file name",
    )
    args = parser.parse_args()
    if args.all:
        refresh_assets(Path(args.out), args.lang)
    else:
        main(args.out, args.query, args.keys, args.size, args.tab, args.scroll_to, args.lang)
