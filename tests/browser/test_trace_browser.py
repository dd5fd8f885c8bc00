"""The sidebar's "Open a tree or trace" uploader in headless Chromium: a real file chosen in
the browser's file input is drawn, stepped and closed; a bad file gets one line. Skipped when
Debian's chromium is missing. Screenshots go to out/ (git-ignored)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from app.words.narration import narrate_iteration
from games.registry import game_spec
from mcts_core import Search
from mcts_lab import traces
from mcts_lab.common import build_game
from mcts_lab.traces.lab import write_run
from tests.browser_helpers import BROWSER_TEST, OUT, wait_idle

pytestmark = BROWSER_TEST


def _idle(page: Any) -> None:
    wait_idle(page, settle_ms=300)


def _narration(page: Any) -> str:
    return page.locator(".st-key-trace_narration").first.inner_text().strip()


def _narration_starting(page: Any, text: str, seconds: float = 30.0) -> str:
    """The narration once it starts with ``text`` (a loaded machine can draw a click's rerun
    after wait_idle's settle time); what it says at the deadline otherwise."""
    deadline = time.monotonic() + seconds
    said = _narration(page)
    while not said.startswith(text) and time.monotonic() < deadline:
        page.wait_for_timeout(200)
        said = _narration(page)
    return said


def test_upload_step_and_close(app_url: str, browser: Any, tmp_path: Path) -> None:
    game = build_game("connect_four")
    search = Search(game, game.initial_state(), seed=2)
    path = tmp_path / "connect-four.jsonl"
    write_run(search, str(path), iterations=60)
    live = Search(game, game.initial_state(), seed=2)  # the same run, narrated as the live screen
    names = game_spec("connect_four").player_names
    told = [narrate_iteration(live.step(), names, 1.4, "uct") for _ in range(9)]
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(app_url)
    page.wait_for_selector("g.tv-node", timeout=60_000)
    _idle(page)
    page.locator(".st-key-trace_file input[type=file]").set_input_files(str(path))
    page.wait_for_selector(".st-key-trace_narration", timeout=60_000)
    _idle(page)
    assert "holds 60 iterations" in _narration(page)
    assert page.locator(".st-key-trace_tree g.tv-node").count() == 1  # the root alone
    for _ in range(9):
        page.locator(".st-key-trace_step button").first.click()
        _idle(page)
    said = _narration_starting(page, told[8])
    assert said.startswith(told[8]), said
    assert page.locator(".st-key-trace_tree g.tv-node").count() >= 8
    page.locator(".st-key-trace_back button").first.click()
    _idle(page)
    said = _narration_starting(page, told[7])
    assert said.startswith(told[7]), said
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "trace-open.png"))
    page.locator(".st-key-trace_close button").first.click()
    _idle(page)
    assert page.locator(".st-key-trace_narration").count() == 0
    assert page.locator(".st-key-step button").first.is_visible()  # the live screen is back
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "mcts-trace", "version": 1, "nodes": [{"id": 0}]}')
    page.locator(".st-key-trace_file input[type=file]").set_input_files(str(bad))
    _idle(page)
    warning = page.locator(".lab-warning").first.inner_text()
    assert "bad.json was not opened" in warning and "parent" in warning
    page.close()


def test_a_tree_file_is_drawn_with_its_labels(app_url: str, browser: Any, tmp_path: Path) -> None:
    doc = traces.from_mctx(
        {
            "node_visits": [[3, 1, 1]],
            "node_values": [[0.0, 0.5, -0.5]],
            "parents": [[-1, 0, 0]],
            "action_from_parent": [[-1, 0, 1]],
            "children_index": [[[1, 2], [-1, -1], [-1, -1]]],
            "children_visits": [[[1, 1], [0, 0], [0, 0]]],
            "children_values": [[[0.5, -0.5], [0, 0], [0, 0]]],
            "children_prior_logits": [[[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]],
        },
        action_labels=["<b>left</b>", "right"],
    )
    path = tmp_path / "mctx.json"
    traces.write(doc, path)
    page = browser.new_page(viewport={"width": 1280, "height": 720})
    page.goto(app_url)
    page.wait_for_selector("g.tv-node", timeout=60_000)
    _idle(page)
    page.locator(".st-key-trace_file input[type=file]").set_input_files(str(path))
    page.wait_for_selector(".st-key-trace_tree g.tv-node", timeout=60_000)
    _idle(page)
    text = " ".join(page.locator(".st-key-trace_tree g.tv-node").all_text_contents())
    assert "<b>left" in text  # a label is data, drawn as text (shortened), never HTML
    assert page.locator(".st-key-trace_tree g.tv-node").count() == 3
    page.close()
