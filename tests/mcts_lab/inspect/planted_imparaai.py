"""A UCT shaped like ``imparaai-montecarlo`` 1.3.1 (issue 41), written apart from the lab as
JSON by hand: selection walks expanded nodes by ``Q + C sqrt(ln N / n)`` (Q from the mover's
view); the leaf it reaches is expanded with every legal move and **each new child is rolled out
at once**, each rollout backed up from the child to the root. One iteration therefore gives the
root as many visits as the leaf has moves; the file declares ``visits_per_iteration`` as the
game's most moves. A finished leaf reached by selection is backed up once with its result
(``stall``: left alone, as imparaai does, so that iteration gives no visit). Values in
[-1, 1] from the "edge" view (the parent's mover's)."""

from __future__ import annotations

import math
import random
from typing import Any

from mcts_lab.common import build_game

#: The most legal moves at any position of each game: the search's visits per iteration.
MOST_MOVES = {"tic_tac_toe": 9, "connect_four": 7}


def planted_imparaai(
    game_name: str,
    *,
    seed: int,
    iterations: int,
    c: float = 0.35,
    stall: bool = False,
    declare: bool = True,
) -> dict[str, Any]:
    """The search's finished tree as an mcts-trace document (no iteration records)."""
    rng = random.Random(seed)
    game = build_game(game_name)
    nodes: list[dict[str, Any]] = []

    def new(parent: int | None, state: Any, action: int | None) -> int:
        player = -1 if game.is_terminal(state) else game.current_player(state)
        node: dict[str, Any] = {"id": len(nodes), "parent": parent, "player": player}
        node |= {"visits": 0, "value_sum": 0.0, "state": state, "kids": []}
        if parent is not None and action is not None:
            node |= {"move": game.action_label(nodes[parent]["state"], action), "action": action}
        nodes.append(node)
        if parent is not None:
            nodes[parent]["kids"].append(node["id"])
        return int(node["id"])

    def back_up(at: int, returns: list[float]) -> None:
        while True:
            parent = nodes[at]["parent"]
            mover = nodes[at]["player"] if parent is None else nodes[parent]["player"]
            nodes[at]["visits"] += 1
            nodes[at]["value_sum"] += returns[mover]
            if parent is None:
                return
            at = parent

    def rollout(state: Any) -> list[float]:
        while not game.is_terminal(state):
            action = rng.choice(list(game.legal_actions(state)))
            (outcome, _), *_ = game.chance_outcomes(state, action)
            state = game.next_state(state, action, outcome)
        return [float(v) for v in game.returns(state)]

    new(None, game.initial_state(), None)
    for _ in range(iterations):
        at = 0
        while nodes[at]["kids"]:
            parent_n = nodes[at]["visits"]

            def score(k: int, parent_n: int = parent_n) -> float:
                n = nodes[k]["visits"]
                return nodes[k]["value_sum"] / n + c * math.sqrt(math.log(parent_n) / n)

            at = max(nodes[at]["kids"], key=score)
        state = nodes[at]["state"]
        if game.is_terminal(state):
            if not stall:
                back_up(at, [float(v) for v in game.returns(state)])
            continue
        for action in game.legal_actions(state):
            (outcome, _), *_ = game.chance_outcomes(state, action)
            child = new(at, game.next_state(state, action, outcome), int(action))
            back_up(child, rollout(nodes[child]["state"]))
    doc: dict[str, Any] = {"format": "mcts-trace", "version": 1, "game": game_name}
    doc |= {"settings": {"c": c}, "iterations": iterations, "writer": {"name": "imparaai-like"}}
    doc["values"] = {"range": [-1, 1], "view": "edge"}
    if declare:
        doc["visits_per_iteration"] = MOST_MOVES[game_name]
    doc["nodes"] = [{k: v for k, v in n.items() if k not in ("state", "kids")} for n in nodes]
    return doc
