"""A small textbook UCT (not the lab's search) that writes mcts-trace documents, with the bugs
developers plant in their own: the selection checks' tests run it correct and broken.

Each node keeps its value sums per player (``value_sums``), so the file says honestly what the
search stored; the bugs are in what it stores and how it chooses:

- ``"none"``: correct UCT, ``Q + C sqrt(ln N / n)``, Q from the view of the player to move.
- ``"no_sign_flip"``: every node's choice maximises player 0's value (PyPI ``mcts`` 1.0.4's bug:
  the opponent plays the root player's best reply).
- ``"log_child"``: the bonus takes the log of the child's visits, ``C sqrt(ln n / n)``.
- ``"first_child"``: the selection always takes the first child.
- ``"terminal_wrong"``: a finished game is scored from the wrong side (a win backed up as a
  loss).

Children are added in a seeded random order, as most hand-written searches pop a random
untried move.
"""

from __future__ import annotations

import math
import random
from typing import Any

from mcts_lab.common import action_index, build_game

BUGS = ("none", "no_sign_flip", "log_child", "first_child", "terminal_wrong")


def textbook_uct(
    game_name: str,
    position: str | None,
    *,
    seed: int,
    iterations: int,
    c: float = 1.4,
    bug: str = "none",
    records: bool = False,
    terms: bool = True,
    proven: bool = True,
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The search as an mcts-trace document (``records``: with iteration records, their
    decisions with each child's terms when ``terms``; ``proven``: finished games carry their
    value as ``proven``)."""
    assert bug in BUGS, bug
    rng = random.Random(seed)
    game = build_game(game_name)
    start = game.initial_state() if position is None else game.parse_state(position)
    # per node: state, parent, move label, action number, player to move, children,
    # untried actions, visits, value sums per player
    nodes: list[dict[str, Any]] = []

    def new_node(state: Any, parent: int | None, before: Any, action: Any) -> int:
        terminal = game.is_terminal(state)
        untried = [] if terminal else list(game.legal_actions(state))
        rng.shuffle(untried)
        nodes.append(
            {
                "state": state,
                "parent": parent,
                "move": None if before is None else game.action_label(before, action),
                "action": None if before is None else action_index(game, before, action),
                "player": -1 if terminal else game.current_player(state),
                "kids": [],
                "untried": untried,
                "visits": 0,
                "sums": [0.0, 0.0],
            }
        )
        return len(nodes) - 1

    root = new_node(start, None, None, None)
    trace: list[dict[str, Any]] = []
    for iteration in range(1, iterations + 1):
        node, path, decisions, expanded = root, [root], [], []
        while not nodes[node]["untried"] and nodes[node]["kids"]:
            here = nodes[node]
            mover = 0 if bug == "no_sign_flip" else here["player"]
            scored = []
            for k in here["kids"]:
                child = nodes[k]
                q = child["sums"][mover] / child["visits"]
                log_of = child["visits"] if bug == "log_child" else here["visits"]
                bonus = c * math.sqrt(math.log(log_of) / child["visits"])
                n = child["visits"]
                scored.append({"node": k, "visits": n, "q": q, "bonus": bonus, "score": q + bonus})
            chosen = scored[0] if bug == "first_child" else max(scored, key=lambda t: t["score"])
            decision: dict[str, Any] = {"node": node, "chosen": chosen["node"], "rule": "uct"}
            decision["children"] = scored if terms else [{"node": t["node"]} for t in scored]
            decisions.append(decision)
            node = chosen["node"]
            path.append(node)
        here = nodes[node]
        if here["untried"]:
            action = here["untried"].pop()
            state = here["state"]
            after = game.next_state(state, action, game.chance_outcomes(state, action)[0][0])
            child = new_node(after, node, state, action)
            here["kids"].append(child)
            expanded.append(child)
            node = child
            path.append(node)
        state = nodes[node]["state"]
        finished = game.is_terminal(state)
        while not game.is_terminal(state):
            action = rng.choice(list(game.legal_actions(state)))
            state = game.next_state(state, action, game.chance_outcomes(state, action)[0][0])
        returns = [float(v) for v in game.returns(state)]
        if finished and bug == "terminal_wrong":
            returns = [-returns[0], -returns[1]]
        adds = []
        for n in path:
            nodes[n]["visits"] += 1
            for p in (0, 1):
                nodes[n]["sums"][p] += returns[p]
            adds.append(n)
        if records:
            trace.append(
                {
                    "iteration": iteration,
                    "path": path,
                    "decisions": decisions,
                    "expanded": expanded,
                    "leaf": node,
                    "leaf_values": returns,
                    "evaluation": "terminal" if finished else "rollout",
                    "backup": [{"node": n, "add": returns[_edge(nodes, n, root)]} for n in adds],
                }
            )
    out_nodes = []
    for i, item in enumerate(nodes):
        entry: dict[str, Any] = {
            "id": i,
            "parent": item["parent"],
            "player": item["player"],
            "visits": item["visits"],
            "value_sums": list(item["sums"]),
        }
        if item["move"] is not None:
            entry["move"] = item["move"]
            entry["action"] = item["action"]
        if item["player"] < 0 and proven:
            entry["proven"] = float(game.returns(item["state"])[_edge(nodes, i, root)])
        out_nodes.append(entry)
    doc: dict[str, Any] = {
        "format": "mcts-trace",
        "version": 1,
        "game": game_name,
        "settings": {"c": c, "tree_policy": "uct", "solver": False, **(settings or {})},
        "seed": seed,
        "iterations": iterations,
        "writer": {"name": "textbook-uct", "version": bug},
        "players": 2,
        "values": {"range": [-1, 1], "view": "edge", "zero_sum": True, "backup": "mean"},
        "visit_rule": "leaf_visit",
        "nodes": out_nodes,
    }
    if position is not None:
        doc["position"] = position
    if trace:
        doc["trace"] = trace
    return doc


def _edge(nodes: list[dict[str, Any]], i: int, root: int) -> int:
    """The player who chose the move into node ``i`` (the root: its own player)."""
    parent = nodes[i]["parent"]
    return max(nodes[root]["player"], 0) if parent is None else nodes[parent]["player"]
