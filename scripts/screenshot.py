"""Take screenshots of the running app with headless Chromium (for docs and for looking).

    python scripts/screenshot.py OUT.png "query string" [--size 1280x720] [--tab NAME]
        [--scroll-to CSS] [KEY ...]

Starts the app on a free port, opens it with the query string (``steps=N`` rebuilds a tree of N
iterations), opens a detail tab if asked, clicks the buttons with the given widget keys in order
(``step``, ``phase_step``, ...; a toggle's key clicks its label, ``KEY=TEXT`` the button in
KEY that says TEXT, e.g. ``quiz_answer=c1`` for a quiz answer; waiting until the app is idle
after each), scrolls the first element matching ``--scroll-to`` into view if asked (e.g.
``".st-key-detail_panels img"``: the board inside the detail tab's scroll box) and saves a
screenshot of the viewport, as a projector would show it.
"""

from __future__ import annotations

import argparse

from app_server import CHROMIUM, CHROMIUM_ARGS, IDLE, running_app
from playwright.sync_api import sync_playwright


def main(
    out: str, query: str, keys: list[str], size: str, tab: str | None, scroll_to: str | None = None
) -> None:
    width, height = (int(v) for v in size.lower().split("x"))
    with running_app() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(f"{url}/?{query}")
        page.wait_for_selector("g.tv-node", timeout=600_000)
        page.wait_for_selector(IDLE, timeout=600_000)
        if tab:
            page.get_by_role("tab", name=tab, exact=True).click()
            page.wait_for_timeout(300)
            page.wait_for_selector(IDLE, timeout=60_000)
        for key in keys:
            key, _, text = key.partition("=")  # quiz_answer=c1: the pill (button) saying c1
            box = page.locator(f".st-key-{key}")
            if text:
                box.locator("button", has_text=text).first.click()
            elif box.locator("input[type=checkbox]").count():  # a toggle: its label
                box.locator("label").first.click()
            else:
                box.locator("button").first.click()
            page.wait_for_timeout(300)
            page.wait_for_selector(IDLE, timeout=600_000)
        if scroll_to:  # the element's bottom at the bottom of its scroll box
            page.locator(scroll_to).first.evaluate("e => e.scrollIntoView({block: 'end'})")
            page.wait_for_timeout(300)
        page.mouse.move(5, 5)  # no tooltip in the picture
        page.wait_for_timeout(700)  # the tree component draws after the run ends
        page.screenshot(path=out)
        browser.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("query")
    parser.add_argument(
        "keys", nargs="*", help="widget keys of buttons (or toggles, or KEY=TEXT) to click"
    )
    parser.add_argument("--size", default="1280x720", help="viewport, e.g. 1920x1080")
    parser.add_argument("--tab", help="a detail tab to open first, e.g. 'Why this path'")
    parser.add_argument("--scroll-to", help="CSS selector of an element to scroll into view")
    args = parser.parse_args()
    main(args.out, args.query, args.keys, args.size, args.tab, args.scroll_to)
