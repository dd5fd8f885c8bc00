"""Play best and the played move's message (issue 31, found on the way): Play best searches
before it plays from a small kept tree, and says so; what was played stays on screen."""

from __future__ import annotations

from app.live.play import PLAY_BEST_VISITS
from tests.app_helpers import fresh, narration, notes


def test_play_best_searches_a_small_tree_before_it_plays() -> None:
    """From a root of 2 visits Play best played b1 at once, a blunder (X won with a3). It now
    tops the root up to PLAY_BEST_VISITS visits first, and the message says how many it ran."""
    at = fresh(game="tic_tac_toe", seed="1", steps="2")
    lab = at.session_state["lab"]
    assert lab.search.root.visits == 2
    at.button(key="play_best").click().run()
    assert not at.exception
    lab = at.session_state["lab"]
    assert lab.search.iterations >= PLAY_BEST_VISITS  # before the fix: 2
    played = [s for s in notes(at, "success") if "MCTS played" in s]
    assert played, notes(at, "success")
    assert "It searched first: 998 iterations, from 2 to 1,000 root visits" in played[0]
    # the narration tells the move (it said "Press Step to run one iteration ..." before)
    said = narration(at)
    assert "MCTS played" in said and "searched first" in said and "Press Step" not in said


def test_play_best_does_not_search_a_tree_that_is_big_enough() -> None:
    at = fresh(game="tic_tac_toe", seed="1", steps=str(PLAY_BEST_VISITS + 5))
    at.button(key="play_best").click().run()
    played = [s for s in notes(at, "success") if "MCTS played" in s]
    assert played and "searched first" not in played[0]
    assert at.session_state["lab"].search.iterations == PLAY_BEST_VISITS + 5
