"""Every lesson by a clicker's Page Down alone in Present mode (scripts/rehearse_lessons.py, in
this process, on the run's app and this module's Chromium): each page's text whole at 18 px or
more, each screen inside the window, after every press the tree's top and its moves in the
tree's view and its texts in view at 14 px or more, the newest entry after a slide round trip.
At 1280x720 and 1024x768: every lesson in German, the longest text of the five languages
(its phases page 1 was the one to overflow), and the first lesson in English, the lessons'
source (English's pages are shorter; its exploration pages are also walked by
tests/browser/test_projector_browser.py; a walk is about 12 CPU-seconds of the suite's budget).
es, zh-Hans, ar, English's other lessons and 1920x1080 are rehearsed by hand (``--lang all``,
docs/lessons.md). One walk a lesson and language measures both windows at
every point (the page resized between them: the server never sees the window), so the presses
are not repeated for the second window. Each lesson is an xdist group of its own, so the
lessons spread over the workers beside the rest of the suite. Screenshots (up to three a page
and window, none by default: each costs Chromium's CPU) go to out/rehearsal/<width>x<height>/ when
``MCTS_LAB_SHOTS`` is set; the script takes them by hand."""

from __future__ import annotations

import os
import sys
from typing import Any

import pytest

from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import rehearse_lessons as rl

pytestmark = pytest.mark.browser

WINDOWS = [(1280, 720), (1024, 768)]
#: (lesson, language): every lesson in German, the first in English too (see the docstring)
CASES = [(name, "de") for name in rl.lesson_names()] + [(rl.lesson_names()[0], "en")]
OUT = ROOT / "out" / "rehearsal" if os.environ.get("MCTS_LAB_SHOTS") else None


@pytest.mark.parametrize(
    ("name", "lang"),
    [
        pytest.param(name, lang, marks=pytest.mark.xdist_group(f"rehearsal:{name}-{lang}"))
        for name, lang in CASES
    ],
)
def test_a_lesson_by_page_down_alone(browser: Any, app_url: str, name: str, lang: str) -> None:
    rows = rl.rehearse_lesson(browser, app_url, name, WINDOWS[0], OUT, lang, also=WINDOWS[1:])
    assert {row.size for row in rows} == {f"{w}x{h}" for w, h in WINDOWS}, rows
    # once a lesson, after its first press: Page Up to the text slide, Page Down back, newest
    assert any(row.keys.count("PgUp") == 1 for row in rows), rows
    assert {row.round_trip for row in rows} - {""} == {"newest"}, rows
    problems = [f"{row.size} page {row.page}: {p}" for row in rows for p in row.problems]
    assert problems == [], f"{rl.where(name, lang)}: {problems}"
