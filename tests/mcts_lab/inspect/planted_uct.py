"""A plain UCT written apart from the lab (issue 41), with the bugs developers make that the
lab's checks were never told about, written both through ``Recorder`` and as JSON by hand.

Expansion adds every legal move at once (0 visits) and UCT takes an unvisited child first
(the first in list order), else ``Q + C sqrt(ln N / n)`` with Q from the mover's view; values
in [-1, 1] from the format's "edge" view. Bugs (``bug``):

- ``duplicate``: the first legal move is added twice at every expansion;
- ``unvisited_zero``: an unvisited child scores 0 (not infinity), so it waits behind any
  visited sibling scoring more;
- ``n_parent``: the bonus is ``C sqrt(N / n)``;
- ``virtual_loss``: selection adds a virtual loss (-1) to the chosen child's sum that the backup
  never removes, and the recorded Q reads it;
- ``draw_as_loss``: a finished draw is scored -1 for both players;
- ``below_finished``: expansion does not check whether the game is over;
- ``partial_backup``: the backup updates the leaf and its parent only;
- ``rollout_finished``: a finished leaf is valued by a rollout from its parent's position;
- ``mean_off_by_one``: each node keeps a running ``mean`` updated as
  ``mean += (v - mean) / (n + 1)`` after counting the visit (``/ n`` is right); the file gives
  that ``mean`` (no sum) and the recorded Q reads it.

``rule="puct"``: every new child gets a prior (random weights summing to 1, the node's
``prior``), an unvisited child's Q is 0 and the score ``Q + c P sqrt(N) / (1 + n)``; its bugs:

- ``puct_parentheses``: ``c * P * sqrt(N) / 1 + n`` (the parentheses of ``1 + n`` left out);
- ``prior_misaligned``: a child's bonus uses the prior of the next child in the list (a
  policy vector in another order than the children); the decision records the prior it used.
"""

from __future__ import annotations

import math
import random
from typing import Any

from mcts_lab.common import build_game
from mcts_lab.traces import Recorder

BUGS = (
    "duplicate",
    "unvisited_zero",
    "n_parent",
    "virtual_loss",
    "draw_as_loss",
    "below_finished",
    "partial_backup",
    "rollout_finished",
    "mean_off_by_one",
)
PUCT_BUGS = ("puct_parentheses", "prior_misaligned")


def planted_uct(
    game_name: str,
    *,
    seed: int,
    iterations: int,
    c: float = 1.4,
    bug: str = "none",
    recorder: bool = True,
    position: str | None = None,
    rule: str = "uct",
) -> dict[str, Any]:
    """The search as an mcts-trace document, through ``Recorder`` or built by hand."""
    rng = random.Random(seed)
    game = build_game(game_name)
    start = game.initial_state() if position is None else game.parse_state(position)
    nodes: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = []

    def new(parent: int | None, state: Any, move: str | None, action: int | None) -> int:
        player = -1 if game.is_terminal(state) else game.current_player(state)
        node = {"id": len(nodes), "parent": parent, "player": player, "visits": 0}
        node |= {"value_sum": 0.0, "mean": 0.0, "state": state, "kids": []}
        if move is not None:
            node |= {"move": move, "action": action}
        nodes.append(node)
        if parent is not None:
            nodes[parent]["kids"].append(node["id"])
        return node["id"]

    def view(i: int) -> int:  # the edge view: who chose the move into the node
        parent = nodes[i]["parent"]
        return nodes[0]["player"] if parent is None else nodes[parent]["player"]

    new(None, start, None, None)
    for it in range(1, iterations + 1):
        record: dict[str, Any] = {"iteration": it, "decisions": [], "expanded": []}
        at, path = 0, [0]
        while nodes[at]["kids"]:
            kids = nodes[at]["kids"]
            big_n = nodes[at]["visits"]
            terms, best, best_score = [], kids[0], -math.inf
            for j, k in enumerate(kids):
                n = nodes[k]["visits"]
                t: dict[str, Any] = {"node": k, "visits": n}
                q = nodes[k]["mean" if bug == "mean_off_by_one" else "value_sum"] / (
                    1 if bug == "mean_off_by_one" else max(n, 1)
                )
                if rule == "puct":
                    used = kids[(j + 1) % len(kids)] if bug == "prior_misaligned" else k
                    prior = nodes[used]["prior"]
                    if bug == "puct_parentheses":
                        bonus = c * prior * math.sqrt(big_n) / 1 + n
                    else:
                        bonus = c * prior * math.sqrt(big_n) / (1 + n)
                    score = q + bonus
                    t |= {"q": round(q, 6)} if n else {}
                    t |= {"prior": prior, "bonus": round(bonus, 6), "score": round(score, 6)}
                elif n == 0:
                    score = 0.0 if bug == "unvisited_zero" else math.inf
                else:
                    log_n = big_n if bug == "n_parent" else math.log(big_n)
                    bonus = c * math.sqrt(log_n / n)
                    score = q + bonus
                    t |= {"q": round(q, 6), "bonus": round(bonus, 6), "score": round(score, 6)}
                terms.append(t)
                if score > best_score:
                    best, best_score = k, score
            record["decisions"].append(
                {"node": at, "chosen": best, "rule": rule, "children": terms}
            )
            if bug == "virtual_loss":
                nodes[best]["value_sum"] -= 1.0
            at = best
            path.append(at)
        state = nodes[at]["state"]
        over = game.is_terminal(state)
        if (not over or bug == "below_finished") and (nodes[at]["visits"] > 0 or at == 0):
            legal = list(game.legal_actions(state))
            if bug == "below_finished" and over:
                legal = (
                    [a for a in range(9) if state.board[a] == "."]
                    if hasattr(state, "board")
                    else []
                )
            if bug == "duplicate" and legal:
                legal = [legal[0], *legal]
            weights = [rng.random() + 0.05 for _ in legal]
            for a, weight in zip(legal, weights, strict=True):
                label = game.action_label(state, a)
                (outcome, _), *_ = game.chance_outcomes(state, a) if not over else [(None, 1.0)]
                child_state = _next(game, state, a, outcome) if not over else state
                record["expanded"].append(new(at, child_state, label, int(a)))
                if rule == "puct":
                    nodes[-1]["prior"] = round(weight / sum(weights), 6)
            if nodes[at]["kids"]:
                first = nodes[at]["kids"][0]
                record["decisions"].append({"node": at, "chosen": first, "rule": rule})
                at = first
                path.append(at)
        state = nodes[at]["state"]
        moves = 0
        if game.is_terminal(state) and bug == "rollout_finished" and len(path) > 1:
            state = nodes[path[-2]]["state"]
        while not game.is_terminal(state):
            actions = list(game.legal_actions(state))
            a = rng.choice(actions)
            (outcome, _), *_ = game.chance_outcomes(state, a)
            state = game.next_state(state, a, outcome)
            moves += 1
        returns = list(game.returns(state))
        if bug == "draw_as_loss" and moves == 0 and returns == [0.0, 0.0]:
            returns = [-1.0, -1.0]
        record |= {"path": path, "leaf": at, "evaluation": "rollout" if moves else "terminal"}
        record |= {"rollout_moves": moves, "backup": []}
        up = path[-2:] if bug == "partial_backup" else path
        for i in up:
            add = returns[view(i)]
            nodes[i]["visits"] += 1
            nodes[i]["value_sum"] += add
            # the running mean; the bug divides by one visit too many
            count = nodes[i]["visits"] + (1 if bug == "mean_off_by_one" else 0)
            nodes[i]["mean"] += (add - nodes[i]["mean"]) / count
            record["backup"].append({"node": i, "add": add})
        record["leaf_value"] = returns[view(at)]
        records.append(record)
    header = {
        "game": game_name,
        "position": game.format_state(start),
        "settings": {"c": c} | ({"tree_policy": "puct"} if rule == "puct" else {}),
        "seed": seed,
    }
    # the search keeps a sum, or (the running-mean bug) a mean alone
    kept = "mean" if bug == "mean_off_by_one" else "value_sum"
    for node in nodes:
        node.pop("value_sum" if kept == "mean" else "mean")
        if kept == "mean":
            node["mean"] = round(node["mean"], 9)
    if recorder:
        return _through_recorder(header, nodes, records)
    doc = {"format": "mcts-trace", "version": 1, **header, "iterations": iterations}
    doc["nodes"] = [{k: v for k, v in node.items() if k not in ("state", "kids")} for node in nodes]
    doc["trace"] = records
    return doc


def _next(game: Any, state: Any, action: Any, outcome: Any) -> Any:
    return game.next_state(state, action, outcome)


def _through_recorder(
    header: dict[str, Any], nodes: list[dict[str, Any]], records: list[dict[str, Any]]
) -> dict[str, Any]:
    """Replays the run through ``Recorder`` as a search calling it would (the path is left to
    the recorder: the selection's walk)."""
    rec = Recorder(**header, writer="planted_uct")
    rec.root(player=nodes[0]["player"])
    for record in records:
        for node_id in record["expanded"]:
            node = nodes[node_id]
            rec.expand(
                node["parent"],
                move=node["move"],
                action=node["action"],
                player=node["player"],
                prior=node.get("prior"),
            )
        for d in record["decisions"]:
            rec.select(d["node"], d["chosen"], rule=d["rule"], terms=d.get("children"))
        for item in record["backup"]:
            rec.backup(item["node"], item["add"])
        rec.finish(
            leaf=record["leaf"],
            leaf_value=record["leaf_value"],
            evaluation=record["evaluation"],
            rollout_moves=record["rollout_moves"],
        )
    for node in nodes:  # the search's own statistics (a virtual loss stays in its sums)
        sum_, mean = node.get("value_sum"), node.get("mean")
        rec.set_stats(node["id"], visits=node["visits"], value_sum=sum_, mean=mean)
    return rec.document()
