"""Defects of the classroom screen found on the way (issue 31, point 6), in headless Chromium:
each needs a real browser (a fragment's rerun and the page's full rerun after it, a popover's
widgets mounted when it opens, what the drawing shows). Screenshots go to out/issue31/."""

from __future__ import annotations

from typing import Any

from tests.browser_helpers import BROWSER_TEST, OUT, click, open_page, wait_idle

pytestmark = BROWSER_TEST

SHOTS = OUT / "issue31"


def _shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _notes(page: Any) -> list[str]:
    return [str(n.inner_text()) for n in page.locator(".lab-note").all()]


def _narration(page: Any) -> str:
    return str(page.locator(".lab-narration").first.inner_text())


def test_the_played_move_stays_said_until_the_next_click(app_url: str, browser: Any) -> None:
    """Steps: open tic-tac-toe with a tree of 1,200 iterations, Play best. The "MCTS played
    ..." message was gone within 100 ms (the page's full rerun after the move dropped it) and
    the narration went back to "Press Step"; both now stay until the next click."""
    page = open_page(browser, f"{app_url}/?game=tic_tac_toe&seed=1&steps=1200")
    click(page, "play_best")
    page.wait_for_timeout(1500)  # long after the page's full rerun
    wait_idle(page)
    _shot(page, "played_move_said")
    assert any("MCTS played" in n for n in _notes(page)), _notes(page)
    said = _narration(page)
    assert "MCTS played" in said and "Press Step" not in said, said
    click(page, "step")  # the next click: the message goes, the step is narrated
    assert not any("MCTS played" in n for n in _notes(page))
    assert "MCTS played" not in _narration(page)
    page.close()
