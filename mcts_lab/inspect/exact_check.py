"""The exact-value check of ``mcts-lab inspect --exact`` (``exact_value``): a root value far
from the game's exact value, reported as a likely sign or view bug with the numbers.

It runs only when ``--exact`` is given and the file names a registered game whose root moves
are all solved within the budget (``mcts_lab.exact.exact_values``). The statistic is the root's
mean from the root mover's view, ``v``, against the exact root value ``V*`` (the best root
move's exact value), both scaled to [-1, 1] (``d = (v - V*) * 2 / width``), at a root of at
least ``MIN_VISITS`` visits:

- ``d > OPTIMISTIC`` (0.75): the search believes the root mover wins far more often than
  perfect play allows. A search that does not flip the sign between players lets the opponent
  play the root mover's best reply, so its root value climbs towards a win (PyPI ``mcts``
  1.0.4 reads +0.95 at a draw).
- ``d < -PESSIMISTIC`` (1.5): the root value is nearer the other player's view of ``V*`` than
  its own: values stored from the wrong view.

This is not a bound: random rollouts bias a correct search's value, optimistic at
tic-tac-toe's start (+0.43 at 5,000 iterations) and pessimistic in won positions (-1.06 at
nim's start). The thresholds sit beyond what correct searches reached in the tests (the lab's
search on every solvable test position under seven settings, 100 to 20,000 iterations, and the
textbook UCT at C in {0.5, 1.4, 2}); a report says "likely", never "certain".
"""

from __future__ import annotations

from typing import Any

from mcts_lab.inspect.anomalies import AnomalyLog, FileFacts, game_and_root, node_label
from mcts_lab.traces.values import node_players, value_range

__all__ = ["MIN_VISITS", "OPTIMISTIC", "PESSIMISTIC", "check_exact", "exact_root_values"]

#: The root's fewest visits for the check (a younger search has not settled).
MIN_VISITS = 1000
#: How far above the exact value (in [-1, 1] units) a root value is flagged.
OPTIMISTIC = 0.75
#: How far below it.
PESSIMISTIC = 1.5


def exact_root_values(facts: FileFacts) -> tuple[Any, Any, dict[Any, float | None]] | str:
    """The file's game, root state and each root move's exact value (worked out once per file,
    kept in ``facts.memo``); a sentence when there are none."""
    cached = facts.memo.get("exact")
    if cached is not None:
        return cached  # type: ignore[no-any-return]
    from mcts_lab.exact import exact_values

    trace = facts.trace
    name = trace.header.get("game")
    result: tuple[Any, Any, dict[Any, float | None]] | str
    if not isinstance(name, str):
        result = "the file names no game"
    else:
        try:
            game, state = game_and_root(trace, name)
        except (ValueError, ImportError, KeyError, TypeError) as error:
            result = f"no exact values: {error}"
        else:
            seconds = 2.0 if facts.exact_seconds is None else facts.exact_seconds
            result = (game, state, exact_values(game, state, seconds))
    facts.memo["exact"] = result
    return result


def check_exact(facts: FileFacts, r: AnomalyLog) -> None:
    """``exact_value``: the root's value far from the exact value (the module's docstring)."""
    if facts.exact_seconds is None:
        return
    trace = facts.trace
    root = trace.nodes[trace.root]
    visits = int(root["visits"])
    mover = node_players(trace)[trace.root]
    if visits < MIN_VISITS or mover < 0:
        return
    found = exact_root_values(facts)
    if isinstance(found, str):
        return
    game, state, values = found
    known = [v for v in values.values() if v is not None]
    if not known or len(known) < len(values):
        return
    total = facts.sums[trace.root][mover] if mover < len(facts.sums[trace.root]) else None
    if total is None:
        return
    low, high = value_range(trace)
    half = (high - low) / 2
    mean = (total / visits - (low + high) / 2) / half  # in [-1, 1]
    best = max(known)
    d = mean - best
    if -PESSIMISTIC <= d <= OPTIMISTIC:
        return
    from mcts_lab.common import action_index

    by_index = {action_index(game, state, a): v for a, v in values.items()}
    by_label = {game.action_label(state, a): v for a, v in values.items()}
    kids = trace.children[trace.root]
    evidence = ""
    if kids:
        top = max(kids, key=lambda k: trace.nodes[k]["visits"])
        child = trace.nodes[top]
        number = child.get("action")
        exact = by_index.get(number) if isinstance(number, int) else None
        if exact is None:
            exact = by_label.get(child.get("move", ""))
        child_total = facts.sums[top][mover] if mover < len(facts.sums[top]) else None
        if exact is not None and child_total is not None and child["visits"]:
            child_mean = (child_total / child["visits"] - (low + high) / 2) / half
            evidence = (
                f"; its most visited move {node_label(child)} reads {child_mean:+.3f} over "
                f"{child['visits']} visits, exactly {exact:+.3f}"
            )
    if d > 0:
        why = (
            "far above what perfect play allows: the opponent's choices may maximise the root "
            "player's value (no sign flip between players)"
        )
    else:
        why = (
            f"far below it, nearer the other player's view ({-best:+.3f}): values may be "
            "stored from the wrong player's view"
        )
    r.add(
        "exact_value",
        root["id"],
        f"the root's value is {mean:+.3f} over {visits} visits (player {mover}'s view, scaled "
        f"to [-1, 1]) but the exact value is {best:+.3f} (best of {len(known)} moves), "
        f"{why}{evidence}; a likely sign or view bug (thresholds +{OPTIMISTIC:g} / "
        f"-{PESSIMISTIC:g})",
    )
