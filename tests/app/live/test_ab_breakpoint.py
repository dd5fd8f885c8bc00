"""The breakpoint seam of Step N (``app.live.ab.run``'s ``should_stop``): asked as the run goes,
in A's own run, in the lockstep with B and in the fast loop after it; True ends the run there
with ``RunStop.CANCELLED``, B as far as A."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

pytest.importorskip("streamlit")

from app.live import ab
from app.live.session import Pair
from games import make_game
from mcts_core import Search, SearchConfig
from mcts_core.phases import RunStop
from mcts_lab.compare.lockstep import Lockstep


def _session_with(monkeypatch: pytest.MonkeyPatch, pair: Pair | None) -> None:
    monkeypatch.setattr(ab.session, "session", lambda: SimpleNamespace(ab=pair))


def _pair(c_b: float) -> Pair:
    game = make_game("tic_tac_toe")
    root = game.initial_state()
    lockstep = Lockstep(game, root, SearchConfig(c=0.5), SearchConfig(c=c_b), seed=1)
    return Pair(lockstep, lockstep.a.config, root, ab.LOCKSTEP_LIMIT)


def test_a_breakpoint_ends_a_run_without_b(monkeypatch: pytest.MonkeyPatch) -> None:
    _session_with(monkeypatch, None)
    game = make_game("tic_tac_toe")
    a = Search(game, game.initial_state(), SearchConfig(c=0.5), seed=1)
    result = ab.run(a, 1000, 60.0, None, 10, should_stop=lambda: a.iterations >= 50)
    assert result.stopped is RunStop.CANCELLED
    assert result.iterations == a.iterations == 50  # asked every 10 iterations


def test_a_breakpoint_ends_the_lockstep_with_b_beside_a(monkeypatch: pytest.MonkeyPatch) -> None:
    pair = _pair(c_b=2.0)  # c 0.5 and 2.0 part at iteration 14
    _session_with(monkeypatch, pair)
    a = pair.lockstep.a
    result = ab.run(a, 1000, 60.0, None, 10, should_stop=lambda: a.iterations >= 7)
    assert result.stopped is RunStop.CANCELLED
    assert result.iterations == a.iterations == pair.b.iterations == 7  # asked every iteration
    assert pair.lockstep.first_divergence is None  # stopped before the paths parted


def test_a_breakpoint_ends_the_fast_loop_after_the_divergence(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pair = _pair(c_b=2.0)
    _session_with(monkeypatch, pair)
    a = pair.lockstep.a
    result = ab.run(a, 1000, 60.0, None, 10, should_stop=lambda: a.iterations >= 30)
    divergence = pair.lockstep.first_divergence
    assert divergence is not None and divergence.iteration == 14
    # the fast loop after 14 lockstep iterations asks every 10 of its own: at 24, then 34
    assert result.stopped is RunStop.CANCELLED
    assert result.iterations == a.iterations == pair.b.iterations == 34


def test_without_a_breakpoint_the_run_goes_to_its_count(monkeypatch: pytest.MonkeyPatch) -> None:
    pair = _pair(c_b=2.0)
    _session_with(monkeypatch, pair)
    result = ab.run(pair.lockstep.a, 100, 60.0, None, 10)
    assert result.stopped is RunStop.ITERATIONS and result.iterations == 100
