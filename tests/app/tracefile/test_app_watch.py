"""The Charts tab's watch expressions (text input ``watch``, ``mcts_lab.breakpoints.watch``): one
line per expression over the points the charts keep, with the same numbers as a seeded search
stepped alone; a bad expression is one sentence, never Markdown of what was typed."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

pytest.importorskip("streamlit")

from mcts_core import Search
from tests.app_helpers import blocks, fresh, notes, tab


def _watch_lines(at: Any) -> dict[str, tuple[list[int], list[float | None]]]:
    """The watch chart's lines by name (empty: no watch chart on the page)."""
    for chart in at.get("plotly_chart"):
        data = json.loads(chart.proto.spec)["data"]
        if data and all(t.get("yaxis", "y") == "y" and "legendgroup" not in t for t in data):
            return {t["name"]: (t["x"], t["y"]) for t in data}
    return {}


def test_watch_lines_follow_the_search_step_by_step() -> None:
    at = fresh(game="tic_tac_toe", seed="5")
    tab(at, "Charts")
    for _ in range(12):
        at.button(key="step").click().run()
    assert not at.exception
    at.text_input(key="watch").input("N(a1); N(root);Q(b2) - Q(a1) ; U(c3)").run()
    assert not at.exception
    lines = _watch_lines(at)
    assert list(lines) == ["N(a1)", "N(root)", "Q(b2) - Q(a1)", "U(c3)"]
    xs, n_root = lines["N(root)"]
    assert xs == list(range(1, 13)) and n_root == [float(k) for k in xs]  # every Step a point
    # the same seed and settings stepped alone: the same numbers at every iteration
    lab = at.session_state["lab"]
    game = lab.search.game
    alone = Search(game, game.initial_state(), lab.search.config, seed=5)
    for k in range(12):
        alone.step()
        children = {game.action_label(alone.root_state, c.action): c for c in alone.root.children}
        a1, b2, c3 = (children.get(m) for m in ("a1", "b2", "c3"))
        assert lines["N(a1)"][1][k] == (a1.visits if a1 else 0)
        diff = lines["Q(b2) - Q(a1)"][1][k]
        if a1 is None or b2 is None:
            assert diff is None  # undefined: a gap in the line
        else:
            assert math.isclose(diff, b2.mean(0) - a1.mean(0), abs_tol=1e-12)
        assert (lines["U(c3)"][1][k] is None) == (c3 is None)
    decision = alone.preview_decision()
    assert decision is not None
    u_c3 = next(t.score for t in decision.children if t.label == "c3")
    assert lines["U(c3)"][1][-1] == u_c3  # the selection's own score


def test_a_bad_expression_is_one_sentence_and_no_chart() -> None:
    at = fresh(game="tic_tac_toe", seed="5")
    tab(at, "Charts")
    at.button(key="step").click().run()
    at.button(key="step").click().run()
    at.text_input(key="watch").input("N(a1); N(z9)").run()
    assert not at.exception
    assert _watch_lines(at) == {}
    said = notes(at, "error")
    assert len(said) == 1
    assert said[0].startswith(
        "The watch cannot be drawn: watch expression 2: unknown move 'z9' at column 3 "
        "(the root's moves: a1 (0),"
    )
    at.text_input(key="watch").input("__import__('os')").run()
    assert not at.exception and _watch_lines(at) == {}
    assert notes(at, "error") == [
        "The watch cannot be drawn: unknown name '__import__' at column 1 (the functions: "
        "N(move), Q(move), U(move))."
    ]
    # shown as text: the underscores are not Markdown's bold
    assert any("unknown name &#x27;__import__&#x27;" in b for b in blocks(at))
    at.text_input(key="watch").input("N(a1)").run()
    assert notes(at, "error") == [] and list(_watch_lines(at)) == ["N(a1)"]
