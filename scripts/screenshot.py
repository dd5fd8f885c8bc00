"""Take screenshots of the running app with headless Chromium (for docs and for looking).

    python scripts/screenshot.py OUT.png "query string" [clicks...]

Starts the app on a free port, opens it with the query string, clicks the named buttons in order
(waiting until the app is idle after each) and saves a screenshot of the whole page.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip


def main(out: str, query: str, clicks: list[str], height: int = 2600) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "app" / "main.py"),
         "--server.headless", "true", "--server.port", str(port), "--server.address",
         "127.0.0.1"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            page = browser.new_page(viewport={"width": 1400, "height": height})
            page.goto(f"http://127.0.0.1:{port}/?{query}")
            page.wait_for_selector(IDLE, timeout=60_000)
            for name in clicks:
                page.get_by_role("button", name=name, exact=True).first.click()
                page.wait_for_timeout(300)
                page.wait_for_selector(IDLE, timeout=600_000)
            page.mouse.move(5, 5)  # no tooltip in the picture
            page.wait_for_timeout(500)
            page.screenshot(path=out)
            browser.close()
    finally:
        server.terminate()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3:])
