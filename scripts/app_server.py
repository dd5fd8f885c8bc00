"""Start the app on a free loopback port (for the scripts and the browser test), and the
Chromium flags this machine needs.

with running_app() as url:
    ...
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
IDLE = "[data-testid='stApp'][data-test-script-state='notRunning']"
# Debian's headless shell (Chromium's "old headless": the same Blink without the browser's
# window machinery) when installed: a page load of the app cost it 2.1 CPU-s against 3.3 for
# `chromium --headless`, a Step 0.20 against 0.25, and the suite is mostly such loads and clicks
# (measured side by side, 2 cores); `chromium` otherwise. MCTS_LAB_CHROMIUM names another.
_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = os.environ.get(
    "MCTS_LAB_CHROMIUM", _SHELL if os.access(_SHELL, os.X_OK) else "/usr/bin/chromium"
)
# --font-render-hinting=none: the shell's text at fractional widths as the full browser draws it
# (with its default full hinting each glyph rounds to a pixel and a phone's question card wrapped
# one line more: 393 px tall, not 364, and the layout tests measure real text)
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--font-render-hinting=none"]  # fmt: skip


@contextmanager
def running_app(
    script: Path = ROOT / "app" / "main.py", env: dict[str, str] | None = None
) -> Iterator[str]:
    """Run ``streamlit run SCRIPT`` (the app by default) headless on a free port, with ``env``
    added to the environment (e.g. ``MCTS_LAB_STORE``); yields its URL once it answers
    (RuntimeError if it does not within 60 s)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(script),
         "--server.headless", "true", "--server.port", str(port), "--server.address",
         "127.0.0.1", "--browser.gatherUsageStats", "false"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, **(env or {})},
    )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(url + "/_stcore/health", timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        else:
            raise RuntimeError("the app did not start within 60 s")
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)
