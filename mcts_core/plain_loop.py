"""The benchmark's hot loop: ``Search.run`` on plain UCT, in one function.

Plain UCT, random rollouts to the end, no solver, no loop guard, on a game without chance
(``deterministic``) whose ``random_returns`` plays a random game to its end: the search's
default settings on tic-tac-toe and Connect Four, which ``mcts-lab bench`` times. Here the four
phases of :mod:`mcts_core.search` are inlined into one loop with no scratch record; the same
arithmetic, the same draws, the same tree (the tests compare it with ``step()``'s).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any, Protocol

from mcts_core.config import SearchConfig
from mcts_core.game import Game
from mcts_core.nodes import ActionNode, Move
from mcts_core.phases import RunStop
from mcts_core.policies import INVERSE_SQRT
from mcts_core.state_cache import CACHE_VISITS

__all__ = ["PlainLoopSearch", "plain_loop_applies", "run_plain"]


def plain_loop_applies(game: Game[Any], config: SearchConfig, detect_repeats: bool) -> bool:
    """Whether ``run()`` of a search of ``game`` under ``config`` runs here: plain UCT, random
    rollouts to the end, no solver, no loop guard (``detect_repeats``: the guard is on for this
    game), a game without chance that plays random games itself (``random_returns``)."""
    return (
        config.tree_policy == "uct"
        and config.min_visits <= 1
        and not config.solver
        and config.rollout == "random"
        and config.rollout_depth is None
        and config.rollout_horizon == "game"
        and not detect_repeats
        and getattr(game, "deterministic", False)
        and getattr(game, "random_returns", None) is not None
    )


class PlainLoopSearch(Protocol):
    """The parts of :class:`mcts_core.search.Search` the loop reads and writes (a protocol rather
    than an import: the search imports this module)."""

    game: Game[Any]
    config: SearchConfig
    rng: random.Random
    root: ActionNode
    root_state: Any
    iterations: int
    node_count: int
    max_depth: int
    _next_id: int
    _random_returns: Callable[[Any, Any], tuple[float, ...]] | None
    _terminal_values: dict[tuple[float, ...], tuple[float, float]]
    _value: Callable[[float], float]

    def _choose(self, node: ActionNode, state: Any, steps: None) -> Move: ...

    def _init_actions(self, node: ActionNode, state: Any) -> tuple[Any, ...]: ...


def run_plain(
    search: PlainLoopSearch,
    done: int,
    limit: int,
    deadline: float | None,
    progress: Callable[[int], None] | None,
    progress_every: int,
    should_stop: Callable[[], bool] | None,
) -> tuple[int, RunStop | None]:
    """Iterations ``done`` .. ``limit - 1`` of ``search.run()`` in one loop (the module's
    settings). ``limit`` must leave room for one new node per iteration. Returns the iterations
    done and why it stopped early (``None``: it reached ``limit``)."""
    game = search.game
    next_state = game.next_state
    is_terminal = game.is_terminal
    current_player = game.current_player
    returns = game.returns
    random_returns = search._random_returns
    assert random_returns is not None
    terminal_values = search._terminal_values
    value = search._value
    rng = search.rng
    root = search.root
    root_state = search.root_state
    c = search.config.c
    log = math.log
    sqrt = math.sqrt
    rsqrt = INVERSE_SQRT
    table_size = len(rsqrt)
    perf_counter = time.perf_counter
    cache_visits = CACHE_VISITS
    choose = search._choose
    init_actions = search._init_actions
    max_depth = search.max_depth
    next_id = search._next_id
    while done < limit:
        if deadline is not None and perf_counter() >= deadline:
            return done, RunStop.SECONDS
        # select: UCT's first maximum at every fully expanded node
        node = root
        state = root_state
        path = [node]
        while node.player >= 0:
            actions = node.actions
            if actions is None:
                actions = init_actions(node, state)
            children = node.children
            if len(children) < len(actions):
                # expand: the next untried action, a new leaf
                action = actions[len(children)]
                state = next_state(state, action)
                player = -1 if is_terminal(state) else current_player(state)
                leaf = ActionNode(next_id, node, action, player)
                next_id += 1
                search._next_id = next_id
                search.node_count += 1
                node.children = children + (leaf,)
                node = leaf
                path.append(leaf)
                break
            move: Any  # an ActionNode: a game without chance has no chance nodes
            if node.visits < table_size:
                scale = c * sqrt(log(node.visits))
                best_score = -math.inf
                move = children[0]
                if node.player:
                    for other in children:
                        n = other.visits
                        score = other.value1 / n + scale * rsqrt[n]
                        if score > best_score:
                            best_score = score
                            move = other
                else:
                    for other in children:
                        n = other.visits
                        score = other.value0 / n + scale * rsqrt[n]
                        if score > best_score:
                            best_score = score
                            move = other
            else:  # visited beyond the table: the general choice, same arithmetic
                move = choose(node, state, None)
            cached = move.state
            if cached is None:
                cached = next_state(state, move.action)
                if move.visits >= cache_visits:
                    move.state = cached
            state = cached
            node = move
            path.append(node)
        # evaluate: the returns of the terminal leaf, or of a random game from the new one
        raw = returns(state) if node.player < 0 else random_returns(state, rng)
        values = terminal_values.get(raw)
        if values is None:
            values = terminal_values[raw] = (value(raw[0]), value(raw[1]))
        v0, v1 = values
        # backpropagate
        for node in path:
            if node.visits:
                node.value0 += v0
                node.value1 += v1
            else:  # first visit: store the shared floats themselves (no new objects)
                node.value0 = v0
                node.value1 = v1
            node.visits += 1
        if len(path) - 1 > max_depth:
            max_depth = search.max_depth = len(path) - 1
        search.iterations += 1
        done += 1
        if done % progress_every == 0:
            if progress is not None:
                progress(done)
            if should_stop is not None and should_stop():
                return done, RunStop.CANCELLED
    return done, None
