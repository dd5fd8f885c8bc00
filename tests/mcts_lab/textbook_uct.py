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
- ``"root_unbacked"``: the root's value is never added: visits are counted on the way down
  (every node of the path, the root too), values in a backup loop ``while node.parent is not
  None`` that stops below the root (the root keeps its visits and a value sum of 0).
- ``"leaf_wrong_view"``: the new node's value is stored for the wrong player: in the iteration
  that adds a node, the node itself gets the leaf's value from the other player's view (its
  parent and the rest of the path get theirs right); later visits store it right.
- ``"solver_no_negation"`` (with ``solver=True``): the solver copies a proven child's value to
  its parent without the sign flip: a node whose mover has a proven win is stored as proven
  +1 in the view of the player who moved into it, who in fact loses.

``solver=True`` adds a small MCTS-Solver (Winands et al. 2008): a node whose mover has a child
proven a win is proven a win for them; a node whose moves are all tried and proven is proven
the best of them; selection stops at a proven node and backs up its proven value, and the run
stops when the root is proven. Values and proofs are stored in the "edge" view (the player who
chose the move into the node; the root: its own player), so a proof passes to the parent
negated when the parent's mover is the other player.

Children are added in a seeded random order, as most hand-written searches pop a random
untried move.
"""

from __future__ import annotations

import math
import random
from typing import Any

from mcts_lab.common import action_index, build_game

BUGS = (
    "none",
    "no_sign_flip",
    "log_child",
    "first_child",
    "terminal_wrong",
    "root_unbacked",
    "leaf_wrong_view",
    "solver_no_negation",
)


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
    solver: bool = False,
    settings: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The search as an mcts-trace document (``records``: with iteration records, their
    decisions with each child's terms when ``terms``; ``proven``: finished games carry their
    value as ``proven``; ``solver``: the module's MCTS-Solver, its proofs in the file)."""
    assert bug in BUGS, bug
    assert solver or bug != "solver_no_negation", "the solver's bug needs solver=True"
    rng = random.Random(seed)
    game = build_game(game_name)
    start = game.initial_state() if position is None else game.parse_state(position)
    # per node: state, parent, move label, action number, player to move, children,
    # untried actions, number of legal moves, visits, value sums per player, proven value
    # (the edge view: the player who chose the move into it; None: unproven)
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
                "actions": len(untried),
                "visits": 0,
                "sums": [0.0, 0.0],
                "proven": None,
            }
        )
        i = len(nodes) - 1
        if solver and terminal:
            nodes[i]["proven"] = float(game.returns(state)[_edge(nodes, i, 0)])
        return i

    root = new_node(start, None, None, None)
    trace: list[dict[str, Any]] = []
    done = 0
    for iteration in range(1, iterations + 1):
        if nodes[root]["proven"] is not None:
            break  # a proven root: more iterations could not change it
        done = iteration
        node, path, decisions, expanded = root, [root], [], []
        if bug == "root_unbacked":
            nodes[root]["visits"] += 1  # counted on the way down
        while not nodes[node]["untried"] and nodes[node]["kids"] and not _stops(nodes, node):
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
            if bug == "root_unbacked":
                nodes[node]["visits"] += 1
        here = nodes[node]
        if here["untried"] and not _stops(nodes, node):
            action = here["untried"].pop()
            state = here["state"]
            after = game.next_state(state, action, game.chance_outcomes(state, action)[0][0])
            child = new_node(after, node, state, action)
            here["kids"].append(child)
            expanded.append(child)
            node = child
            path.append(node)
            if bug == "root_unbacked":
                nodes[node]["visits"] += 1
        state = nodes[node]["state"]
        finished = game.is_terminal(state)
        proof = nodes[node]["proven"]
        if proof is not None:  # a proven node (a finished game under the solver): its value
            edge = _edge(nodes, node, root)
            returns = [proof if p == edge else -proof for p in (0, 1)]
        else:
            while not game.is_terminal(state):
                action = rng.choice(list(game.legal_actions(state)))
                state = game.next_state(state, action, game.chance_outcomes(state, action)[0][0])
            returns = [float(v) for v in game.returns(state)]
        if finished and bug == "terminal_wrong":
            returns = [-returns[0], -returns[1]]
        backup = []
        for n in path:
            if bug == "root_unbacked" and n == root:
                continue  # the backup loop stops below the root (its visit was counted)
            if bug != "root_unbacked":
                nodes[n]["visits"] += 1
            values = returns
            if bug == "leaf_wrong_view" and n in expanded:
                values = [returns[1], returns[0]]  # stored for the other player
            for p in (0, 1):
                nodes[n]["sums"][p] += values[p]
            backup.append({"node": n, "add": values[_edge(nodes, n, root)]})
        if solver:
            _prove(nodes, path, root, bug)
        if records:
            trace.append(
                {
                    "iteration": iteration,
                    "path": path,
                    "decisions": decisions,
                    "expanded": expanded,
                    "leaf": node,
                    "leaf_values": returns,
                    "evaluation": "terminal"
                    if finished
                    else ("proven" if proof is not None else "rollout"),
                    "backup": backup,
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
        if item["player"] >= 0:
            entry["num_actions"] = item["actions"]
        if item["proven"] is not None:
            entry["proven"] = item["proven"]
        elif item["player"] < 0 and proven:
            entry["proven"] = float(game.returns(item["state"])[_edge(nodes, i, root)])
        out_nodes.append(entry)
    doc: dict[str, Any] = {
        "format": "mcts-trace",
        "version": 1,
        "game": game_name,
        "settings": {"c": c, "tree_policy": "uct", "solver": solver, **(settings or {})},
        "seed": seed,
        "iterations": done,
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


def _stops(nodes: list[dict[str, Any]], i: int) -> bool:
    """Selection stops at a proven node (the solver's; a finished game has no moves anyway)."""
    return nodes[i]["proven"] is not None


def _prove(nodes: list[dict[str, Any]], path: list[int], root: int, bug: str) -> None:
    """MCTS-Solver's backup of proofs, from the leaf up the path: a node is proven a win for
    its mover when a child is proven a win for them, or proven the best of its children when
    every move was tried and is proven; it stops at the first node that stays unproven."""
    for n in reversed(path):
        here = nodes[n]
        if here["proven"] is not None:
            continue
        if here["player"] < 0:
            return
        # a child's proven value is in the edge view: the view of this node's mover
        values = [nodes[k]["proven"] for k in here["kids"]]
        known = [v for v in values if v is not None]
        if known and max(known) >= 1.0:
            best = 1.0
        elif not here["untried"] and len(known) == len(values) and known:
            best = max(known)
        else:
            return
        edge = _edge(nodes, n, root)
        if bug == "solver_no_negation" or edge == here["player"]:
            here["proven"] = best  # the bug copies it whoever's view the node's value is in
        else:
            here["proven"] = -best


def _edge(nodes: list[dict[str, Any]], i: int, root: int) -> int:
    """The player who chose the move into node ``i`` (the root: its own player)."""
    parent = nodes[i]["parent"]
    return max(nodes[root]["player"], 0) if parent is None else nodes[parent]["player"]
