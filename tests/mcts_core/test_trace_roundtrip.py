"""IterationTrace.from_dict reads back what to_dict wrote (a class's frame carries traces to
the phones as JSON): every iteration of every game, chance nodes and priors included."""

from __future__ import annotations

import json

import pytest

from games import make_game
from mcts_core import Search, SearchConfig
from mcts_core.trace import IterationTrace


@pytest.mark.parametrize(
    ("game", "policy"),
    [("tic_tac_toe", "uct"), ("connect_four", "puct"), ("gridiron", "uct"), ("nim", "uct")],
)
def test_a_trace_reads_back_from_its_json(game: str, policy: str) -> None:
    search = Search(make_game(game), None, SearchConfig(c=1.4, tree_policy=policy), seed=3)
    for _ in range(60):
        trace = search.step()
        back = IterationTrace.from_dict(json.loads(json.dumps(trace.to_dict())))
        assert back.to_dict() == trace.to_dict()


def test_a_damaged_trace_is_refused() -> None:
    trace = Search(make_game("nim"), None, SearchConfig(), seed=1).step().to_dict()
    for key, bad in (("iteration", "3"), ("leaf_id", True), ("note", 5)):
        with pytest.raises(ValueError):
            IterationTrace.from_dict({**trace, key: bad})
    with pytest.raises(KeyError):
        IterationTrace.from_dict({k: v for k, v in trace.items() if k != "path"})
