"""Nim (``games/nim.py``, the example of docs/adding_a_game.md): the shared battery, its rules
written as positions, and the search against Bouton's theorem."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from games import make_game
from games.nim import Nim, NimState
from mcts_core import Search, SearchConfig
from mcts_lab.exact import exact_values
from tests.battery import CHECKS


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
def test_nim_passes_the_battery(check: Callable[[Any, range], None]) -> None:
    check(make_game("nim"), range(20))


def test_rules() -> None:
    game = Nim()
    start = game.initial_state()
    assert start == NimState((3, 4, 5), 0) and game.format_state(start) == "3-4-5/0"
    assert game.legal_actions(game.parse_state("2-0-1/1")) == [(0, 1), (0, 2), (2, 1)]
    after = game.next_state(start, (1, 4))
    assert after == NimState((3, 0, 5), 1) and game.action_label(start, (1, 4)) == (
        "take 4 from heap 2"
    )
    assert game.short_action_label(start, (1, 4)) == "4 from h2"  # the drawn tree's boxes
    last = game.parse_state("0-0-1/1")
    end = game.next_state(last, (2, 1))
    assert game.is_terminal(end) and game.returns(end) == (-1.0, 1.0)  # player 1 took the last


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("3-4-5", "heaps/player"),
        ("3-4-5/2", "player to move must be 0 or 1"),
        ("3-x-5/0", "heap 2 must be a whole number"),
        ("3-04-5/0", "without leading zeros"),
        ("3-²-5/0", "heap 2 must be a whole number"),
        ("21/0", "heap 1 holds 21"),
        ("1-1-1-1-1-1-1-1-1/0", "1 to 8 heaps"),
    ],
)
def test_bad_positions(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Nim().parse_state(text)


def test_heuristic_is_bouton_at_half_strength() -> None:
    game = Nim()
    assert game.heuristic(game.parse_state("1-2-3/0")) == (-0.5, 0.5)  # nim-sum 0: mover loses
    assert game.heuristic(game.parse_state("1-2-3/1")) == (0.5, -0.5)
    assert game.heuristic(game.parse_state("3-4-5/0")) == (0.5, -0.5)  # nim-sum 2: mover wins


def test_exact_values_follow_bouton() -> None:
    """A move is won exactly when it leaves a nim-sum of 0 (Bouton's theorem)."""
    game = Nim()
    state = game.initial_state()
    values = exact_values(game, state, seconds=10)
    for action in game.legal_actions(state):
        heaps = game.next_state(state, action).heaps
        expected = 1.0 if heaps[0] ^ heaps[1] ^ heaps[2] == 0 else -1.0
        assert values[action] == expected, (action, values[action])


def test_the_solver_proves_the_winning_move() -> None:
    game = make_game("nim")
    state = game.parse_state("2-3-4/0")
    search = Search(game, state, SearchConfig(solver=True), seed=0)
    result = search.run(iterations=5000)
    assert result.stopped == "solved" and search.root.proven == (1.0, -1.0)
    assert search.best_child().action == (2, 3)  # to 2-3-1, the one move to a nim-sum of 0


def test_the_guide_shows_the_real_code() -> None:
    """Every code block of docs/adding_a_game.md that names a file on its first line
    (``# games/nim.py``) is copied from that file as it is."""
    root = Path(__file__).resolve().parents[2]
    guide = (root / "docs" / "adding_a_game.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n# (\S+\.py)\n(.*?)```", guide, flags=re.DOTALL)
    assert {path for path, _ in blocks} == {
        "games/nim.py",
        "games/registry.py",
        "tests/games/test_nim.py",
    }
    for path, code in blocks:
        assert code in (root / path).read_text(encoding="utf-8"), f"{path}: {code[:80]!r}"


@pytest.mark.slow
def test_the_app_plays_nim_with_the_generic_board() -> None:
    """A game without a board picture: the app shows its text, a table of moves and a list to
    play from."""
    pytest.importorskip("streamlit")
    from tests.app_helpers import fresh, tab, texts

    at = fresh(game="nim", position="2-3-4/0", seed="0", iterations="200")
    assert at.session_state["game"] == "nim" and "Nim" in at.selectbox(key="game").options
    at.button(key="step_n").click().run()
    tab(at, "Board")
    assert any("heap 3: ||||" in code.value for code in at.code)
    assert "take 3 from heap 3" in texts(at) and "First to move" in texts(at)
    at.selectbox(key="move_pick").set_value(7).run()  # take 3 from heap 3
    at.button(key="play_move").click().run()
    assert not at.exception and at.session_state["position"] == "2-3-1/1"
