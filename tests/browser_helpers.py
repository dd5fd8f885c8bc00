"""What the browser tests share: the skip when Chromium is missing, the window, and the steps
of driving the app's page (open it, wait until it is idle, click a control, read a statistic).

The fixtures (``app_url``, ``browser``) are in tests/conftest.py.
"""

from __future__ import annotations

import contextlib
import os
import re
import time
from typing import Any

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

from tests.conftest import CHROMIUM, IDLE, ROOT

OUT = ROOT / "out"
WIDTH, HEIGHT = 1280, 720  # the classroom screen
ON_SCREEN = ("controls", "stats", "tree", "narration")  # the containers that must fit

#: The marks of every real-browser test module: ``pytestmark = BROWSER_TEST``.
BROWSER_TEST = [
    pytest.mark.browser,
    pytest.mark.slow,
    pytest.mark.skipif(
        not (os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK)),
        reason=f"no Chromium at {CHROMIUM} (apt-get install chromium) - real-browser test skipped",
    ),
]


def wait_idle(page: Any, settle_ms: int = 250) -> None:
    """Wait until the app's script run has ended, then ``settle_ms`` for the tree component,
    which draws after the run ends."""
    page.wait_for_timeout(150)  # let the click reach the server before waiting for idle
    page.wait_for_selector(IDLE, timeout=60_000)
    page.wait_for_timeout(settle_ms)


def open_page(browser: Any, url: str, width: int = WIDTH, height: int = HEIGHT) -> Any:
    """A new page at ``url``, once its tree is drawn and the app is idle."""
    page = browser.new_page(viewport={"width": width, "height": height})
    page.goto(url)
    page.wait_for_selector("g.tv-node", timeout=60_000)
    wait_idle(page)
    return page


#: True once the window has the size asked for and the page has held still for ``quiet`` ms: the
#: document's height and, given the tree's scroll box, its rectangle, scroll offsets and drawing
#: size the same at every poll. A resize reflows the page, the tree takes the window's height
#: (Present mode measures again every 400 ms, hence a longer ``quiet``) and its resize observer
#: reframes; ``window.__labResized`` holds the last signature and since when.
RESIZED_JS = """([w, h, quiet, scroll]) => {
  if (innerWidth !== w || innerHeight !== h) return false;
  const parts = [document.documentElement.scrollHeight];
  if (scroll) {
    const r = scroll.getBoundingClientRect();
    const svg = scroll.querySelector("svg");
    const d = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
    parts.push(r.left, r.top, r.width, r.height, scroll.scrollLeft, scroll.scrollTop,
               d.width, d.height);
  }
  const sig = parts.join(" ");
  const now = performance.now();
  const seen = window.__labResized;
  if (!seen || seen.sig !== sig) { window.__labResized = {sig, since: now}; return false; }
  return now - seen.since >= quiet;
}"""


def resize(page: Any, width: int, height: int, quiet_ms: int = 450) -> None:
    """The window resized to ``width`` x ``height``, once the page (and its tree, if drawn) has
    settled there. The server never sees the window: the page is the one a fresh load at that
    size shows, for a fraction of a load's cost (~0.17 CPU-s of Chromium against ~1)."""
    tree = page.locator(".st-key-tree .tv-scroll")
    scroll = tree.first.element_handle() if tree.count() else None
    page.evaluate("() => { window.__labResized = null; }")  # no signature from an older size
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(
        RESIZED_JS, arg=[width, height, quiet_ms, scroll], polling=50, timeout=30_000
    )


def click(page: Any, key: str) -> None:
    """Click the button with widget key ``key`` and wait for the click's rerun."""
    stats = page.locator(".lab-stats").first
    before = stats.inner_text() if stats.count() else ""
    # :visible: a button with help text is drawn twice, with its tooltip for a mouse and
    # without for a touch screen, and a media query hides one (on a phone, the first)
    page.locator(f".st-key-{key} button:visible").first.click()
    # On a busy machine the page can look idle before the click's rerun starts; every click
    # that does something writes a new history entry into the statistics row, so wait for it
    # (a click that changes nothing, e.g. forward at the newest entry, just waits it out).
    # Every wait_for_function of the suite polls every 100 ms: Playwright's default polls at
    # each animation frame, which kept 5-6% of a core busy per waiting page (the suite's
    # browser tests share two cores).
    with contextlib.suppress(Exception):  # Playwright's TimeoutError: the click changed nothing
        page.wait_for_function(
            "([before]) => { const s = document.querySelector('.lab-stats');"
            " return s !== null && s.innerText !== before; }",
            arg=[before],
            polling=100,
            timeout=5_000,
        )
    wait_idle(page)


def stat(page: Any, name: str) -> int:
    """A number of the statistics row (``Iteration``, ``Nodes``, ...)."""
    text = page.locator(".lab-stats").first.inner_text()
    found = re.search(rf"{re.escape(name)}\s+([\d,]+)", text)
    assert found is not None, text
    return int(found.group(1).replace(",", ""))


def assert_on_screen(page: Any, when: str) -> None:
    """The classroom screen's containers and buttons fit the window, without scrolling."""
    assert page.evaluate("window.scrollY") == 0, when
    for key in ON_SCREEN:
        box = page.locator(f".st-key-{key}").first.bounding_box()
        assert box is not None, f"{key} not drawn ({when})"
        right, bottom = box["x"] + box["width"], box["y"] + box["height"]
        inside = box["x"] >= 0 and box["y"] >= 0 and right <= WIDTH and bottom <= HEIGHT
        assert inside, f"{key} at {box} is not inside {WIDTH}x{HEIGHT} ({when})"
    for key in ("step", "step_n", "phase_step", "back", "forward", "reset", "play_best"):
        assert page.locator(f".st-key-{key} button").first.is_visible(), key


class Runs:
    """Counts the app's finished script runs on a page, read from its WebSocket: each run (a
    whole page's or a fragment's, e.g. a detail tab's) ends with a ``script_finished``
    message. A run too short to show the page's running state (a tab's fragment, ~0.3 s) is
    counted all the same, where :func:`wait_idle` has to sleep first and guess. Make it
    before the page's ``goto``: it listens for the page's sockets."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.done = 0  #: every run's (the page's and its fragments')
        self.whole = 0  #: the whole page's only (a fragment on a timer never counts here)
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload: Any) -> None:
        if isinstance(payload, str):
            return
        try:
            message = ForwardMsg.FromString(payload)
        except Exception:  # another message than Streamlit's (never, in practice)
            return
        # 0: a run finished; 3: a fragment's run finished (1: compile error, 2: cut short by
        # a newer run, which ends with its own message)
        if message.WhichOneof("type") == "script_finished" and message.script_finished in (0, 3):
            self.done += 1
            self.whole += message.script_finished == 0

    def wait(self, before: int, timeout_s: float = 60.0, *, whole: bool = False) -> None:
        """Wait until a run has finished since the count (:attr:`done`, or :attr:`whole` with
        ``whole``) was ``before``."""
        end = time.monotonic() + timeout_s
        while (self.whole if whole else self.done) <= before:
            # (Playwright hands the frames over while it waits; every 100 ms, not 20: each
            # wait is a round trip to the page, and at 20 ms a waiting lane kept 6% of a core)
            self.page.wait_for_timeout(100)
            if time.monotonic() > end:
                raise TimeoutError(f"no script run finished within {timeout_s} s")
