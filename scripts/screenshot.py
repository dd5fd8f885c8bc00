"""Take screenshots of the running app with headless Chromium (for docs and for looking).

    python scripts/screenshot.py OUT.png "query string" [clicks...]

Starts the app on a free port, opens it with the query string, clicks the named buttons in order
(waiting until the app is idle after each) and saves a screenshot of the whole page.
"""

from __future__ import annotations

import sys

from app_server import CHROMIUM, CHROMIUM_ARGS, IDLE, running_app
from playwright.sync_api import sync_playwright


def main(out: str, query: str, clicks: list[str], height: int = 2600) -> None:
    with running_app() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": height})
        page.goto(f"{url}/?{query}")
        page.wait_for_selector(IDLE, timeout=60_000)
        for name in clicks:
            page.get_by_role("button", name=name, exact=True).first.click()
            page.wait_for_timeout(300)
            page.wait_for_selector(IDLE, timeout=600_000)
        page.mouse.move(5, 5)  # no tooltip in the picture
        page.wait_for_timeout(500)
        page.screenshot(path=out)
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
