"""Fixtures the test modules share: the running app and a headless Chromium.

A module may still define its own (tests/test_browser.py does); these serve the ones that ask
for ``app_url`` or ``browser`` without defining them.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from app_server import CHROMIUM, CHROMIUM_ARGS, running_app  # noqa: E402


@pytest.fixture(scope="session")
def app_url() -> Iterator[str]:
    """The app, started once for the whole run on a free loopback port."""
    with running_app() as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium (Debian's) for the whole run: a Playwright ``Browser``."""
    playwright = pytest.importorskip("playwright.sync_api")
    with playwright.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
