"""The ``anomaly`` breakpoint's incremental check (mcts_lab/inspect/incremental.py) against the
oracle it replaced, the whole tree re-checked after every iteration: the same first iteration
and the same words, on clean searches (never) and on searches with bugs planted in the
lab's own search (greedy selection, the new node's value for the other player, the root's
value never added)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from games import GAME_NAMES
from mcts_core import Search
from mcts_core.trace import IterationTrace
from mcts_lab.common import build_config, build_game
from mcts_lab.inspect.checks import ANOMALY_CHECKS, Need
from mcts_lab.inspect.incremental import AnomalyWatch, first_anomaly
from mcts_lab.traces.lab import from_search

Plant = Callable[[Search, IterationTrace], None]


def _node(search: Search, node_id: int) -> Any:
    stack: list[Any] = [search.root]
    while stack:
        node = stack.pop()
        if node.id == node_id:
            return node
        stack.extend(node.children)
    raise KeyError(node_id)


def no_bug(search: Search, trace: IterationTrace) -> None:
    """A correct search."""


def leaf_view(search: Search, trace: IterationTrace) -> None:
    """From iteration 40, every 7th node added gets its value stored for the other player."""
    if trace.expansion is not None and trace.iteration >= 40 and trace.iteration % 7 == 0:
        leaf = _node(search, trace.leaf_id)
        leaf.value0, leaf.value1 = leaf.value1, leaf.value0


class RootUnadded:
    """From iteration 40 the backup stops below the root: its visits are counted, the values
    are not added (the root keeps its sums of iteration 39)."""

    def __init__(self) -> None:
        self.kept: tuple[float, float] = (0.0, 0.0)

    def __call__(self, search: Search, trace: IterationTrace) -> None:
        root = search.root
        if trace.iteration >= 40:
            root.value0, root.value1 = self.kept
        self.kept = (root.value0, root.value1)


def stops(
    game_name: str, options: dict[str, Any], seed: int, plant: Plant, iterations: int
) -> tuple[tuple[int, str] | None, tuple[int, str] | None, AnomalyWatch]:
    """The first iteration (and its words) where the whole re-check fires and where the
    watch does, both asked after every iteration of the same search."""
    game = build_game(game_name)
    search = Search(game, game.initial_state(), build_config(options), seed=seed)
    watch = AnomalyWatch(search)
    whole: tuple[int, str] | None = None
    watched: tuple[int, str] | None = None
    for _ in range(iterations):
        trace = search.step()
        plant(search, trace)
        if watched is None:
            words = watch()
            watched = None if words is None else (search.iterations, words)
        if whole is None:
            words = first_anomaly(from_search(search))  # the oracle: the old probe's check
            whole = None if words is None else (search.iterations, words)
        if whole is not None and watched is not None:
            break
    return whole, watched, watch


#: Options that keep a game's run short: gridiron's rollouts end at the first evaluation.
QUICK = {"gridiron": {"depth": 0}}


@pytest.mark.parametrize("plant", [lambda: leaf_view, RootUnadded], ids=["leaf_view", "root"])
@pytest.mark.parametrize("game", GAME_NAMES)
def test_the_watch_stops_where_the_whole_check_does(game: str, plant: Callable[[], Plant]) -> None:
    """Every registered game, seeds 0-2, a bug planted: the watch, running only the checks
    whose record says ``local``, stops at the whole check's iteration with its words (a check
    flagged local that is not would be missed here, or found later)."""
    shown = 0
    for seed in range(3):
        whole, watched, _ = stops(game, QUICK.get(game, {}), seed, plant(), 150)
        assert watched == whole, seed
        if whole is not None:
            shown += 1
            assert whole[0] > 10, whole  # deep enough that the tree has grown
    assert shown, "the planted bug must show in one seed at least"


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("tic_tac_toe", {"c": 0.0}),  # greedy: a winning move starved (uct_bound, sign)
        ("nim", {"solver": True}),  # proofs
    ],
)
def test_the_watch_stops_where_the_whole_check_does_without_a_planted_bug(
    game: str, options: dict[str, Any]
) -> None:
    for seed in range(3):
        whole, watched, _ = stops(game, options, seed, no_bug, 150)
        if game == "tic_tac_toe":
            assert whole is not None, (seed, "greedy starves a move")
        assert watched == whole, seed


def test_the_checks_not_local_are_those_a_live_tree_cannot_run() -> None:
    """The watch leaves out the checks that are not local; that loses nothing only because
    each needs iteration records, which a live search's document never has."""
    assert all(Need.RECORDS in check.needs for check in ANOMALY_CHECKS if not check.local)
    assert any(check.local for check in ANOMALY_CHECKS)


@pytest.mark.parametrize("game", GAME_NAMES)
def test_a_clean_search_never_stops_and_is_checked_whole_once(game: str) -> None:
    whole, watched, watch = stops(game, QUICK.get(game, {}), 1, no_bug, 150)
    assert whole is None and watched is None
    assert watch.full_checks == 1  # the first look; then only what each iteration changed


def test_a_new_root_is_checked_whole() -> None:
    """A move played (the tree reused below it): the watch checks the new root's tree whole
    once, then goes on with what changes."""
    game = build_game("tic_tac_toe")
    search = Search(game, game.initial_state(), build_config({}), seed=3)
    watch = AnomalyWatch(search)
    search.run(iterations=60)
    assert watch() is None and watch.full_checks == 1
    search.advance(search.root.children[0].action)
    search.run(iterations=5)
    assert watch() is None and watch.full_checks == 2
    search.run(iterations=5)
    assert watch() is None and watch.full_checks == 2
