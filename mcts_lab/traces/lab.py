"""The lab's own search written in the mcts-trace format.

:func:`header` is the part every JSON output of a run shares (game, position, settings, seed,
iterations, the writer), so a run can be reproduced from its file; :func:`from_search` adds the
whole tree and, given the :class:`~mcts_core.trace.IterationTrace` of each iteration,
one record per iteration (:func:`iteration_record`).

Values: each node carries ``value_sums`` (per player, the search's sums) and ``mean`` from the
"edge" view, the view of the player who chose the move into the node (the root: its own
player), which is the Q the search compares. ``proven`` is the proven value in the same view and
range. Visits follow the "leaf_visit" rule: a node's visits are its children's sum, plus one for
the iteration that created it (proven, terminal and repeated-state nodes keep counting visits
without children).
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable
from importlib import metadata
from typing import Any

from mcts_core import ActionNode, ChanceNode, Search
from mcts_core.phases import RunStop
from mcts_core.search import NodeCapReached, RunResult
from mcts_core.trace import ChanceStep, ChildTerms, Decision, IterationTrace, NodeUpdate
from mcts_lab.common import action_index, game_size
from mcts_lab.traces.format import FORMAT, VERSION, dumps

__all__ = [
    "WRITER",
    "header",
    "from_search",
    "node_item",
    "iteration_record",
    "run_fields",
    "run_recorded",
    "write_run",
    "writer_version",
]

WRITER = "mcts-lab"


def writer_version() -> str:
    """The installed mcts-lab version ("unknown" when run from a bare checkout)."""
    try:
        return metadata.version("mcts-lab")
    except metadata.PackageNotFoundError:
        return "unknown"


def header(search: Search) -> dict[str, Any]:
    """The header of a run: what is needed to reproduce it and to read its values."""
    config = search.config
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "game": search.game.name,
        "position": search.game.format_state(search.root_state),
        "settings": config.to_dict(),
        "seed": search.seed,
        # the iterations that built this tree: a tree reused below a played move kept only
        # the visits below it (inspect's ``stall`` compares the root's visits with this)
        "iterations": min(search.iterations, search.root.visits),
        "writer": {"name": WRITER, "version": writer_version()},
        "players": 2,
        "values": {
            "range": [-1.0, 1.0] if config.value_range == "symmetric" else [0.0, 1.0],
            "view": "edge",
            # a proven value (a game result) of one player is the other's mirror image when
            # a draw is shaped to the middle of win and loss; sums are given per player
            "zero_sum": 2 * config.draw_value == config.win_value + config.loss_value,
            "backup": "mean",
        },
        "visit_rule": "leaf_visit",
    }
    size = game_size(search.game)
    if size is not None:
        data["game_options"] = {"size": size}
    return data


def run_fields(search: Search) -> dict[str, Any]:
    """The header's fields that reproduce a run (game, position, game options, settings,
    seed, iterations, writer), added to the app's other JSON downloads."""
    keep = ("game", "position", "game_options", "settings", "seed", "iterations", "writer")
    return {k: v for k, v in header(search).items() if k in keep}


def _view(node: ActionNode | ChanceNode, root_player: int) -> int:
    """The player who chose the move into ``node`` (the root: its own player)."""
    if isinstance(node, ChanceNode):
        return node.player
    decider = node.decider
    return root_player if decider is None else decider.player


def node_item(
    search: Search,
    node: ActionNode | ChanceNode,
    parent_id: int | None,
    before: Any,
    state: Any,
    root_player: int,
    *,
    positions: bool = False,
) -> dict[str, Any]:
    """One node of the search as a node of the document: ``parent_id`` its parent's id (the
    root: ``None``), ``before`` the state where the move into it was chosen (the root: any),
    ``state`` the state at it (read only for ``positions``), ``root_player`` the root's player
    (``max(search.root.player, 0)``). Values in the "edge" view (the module's docstring)."""
    game = search.game
    view = _view(node, root_player)
    sums = node.value_sums
    item: dict[str, Any] = {"id": node.id, "parent": parent_id}
    if isinstance(node, ChanceNode):
        item["kind"] = "chance"
        item["player"] = node.player
        item["move"] = game.action_label(before, node.action)
        item["action"] = action_index(game, before, node.action)
    else:
        item["player"] = node.player
        if parent_id is not None:
            if isinstance(node.parent, ChanceNode):
                chance = node.parent
                item["move"] = game.outcome_label(before, chance.action, node.outcome)
                item["probability"] = dict(game.chance_outcomes(before, chance.action))[
                    node.outcome
                ]
            else:
                item["move"] = game.action_label(before, node.action)
                item["action"] = action_index(game, before, node.action)
        if node.actions is not None:
            item["num_actions"] = len(node.actions)
        if positions:
            item["position"] = game.format_state(state)
    visits = node.visits
    item["visits"] = visits
    item["value_sums"] = [sums[0], sums[1]]
    item["mean"] = sums[view] / visits if visits else 0.0
    proven = node.proven
    if proven is not None:
        item["proven"] = search.value_of_raw(proven[view])
    return item


def from_search(
    search: Search, traces: Iterable[IterationTrace] = (), *, positions: bool = False
) -> dict[str, Any]:
    """The search's tree (and, given them, its iteration traces) as an mcts-trace document.

    ``positions=True`` adds each action node's position string (larger files; the root's
    position is in the header either way).
    """
    game = search.game
    root_player = max(search.root.player, 0)
    nodes: list[dict[str, Any]] = []
    # (node, parent id, state where the move into it was chosen, state at the node)
    stack: list[tuple[Any, int | None, Any, Any]] = [(search.root, None, None, search.root_state)]
    while stack:
        node, parent_id, before, state = stack.pop()
        item = node_item(search, node, parent_id, before, state, root_player, positions=positions)
        nodes.append(item)
        if isinstance(node, ChanceNode):
            for child in reversed(node.children):
                stack.append(
                    (child, node.id, before, game.next_state(before, node.action, child.outcome))
                )
        else:
            for move in reversed(node.children):
                if isinstance(move, ChanceNode):
                    stack.append((move, node.id, state, state))
                else:
                    stack.append(
                        (move, node.id, state, game.next_state(state, move.action, move.outcome))
                    )
    doc = header(search)
    doc["nodes"] = nodes
    records = [iteration_record(trace, search, root_player) for trace in traces]
    if records:
        doc["trace"] = records
    return doc


def iteration_record(
    trace: IterationTrace, search: Search, root_player: int | None = None
) -> dict[str, Any]:
    """One iteration as a record: the nodes that got a visit (root first), each decision's
    terms (with the solver, each proven child's ``proof`` for the decider), the nodes added,
    the leaf's value (per player, and from the leaf's edge view), its raw value per player
    (``leaf_raw``: returns or heuristic before shaping), how it was valued and how many moves
    the rollout played, and what each node's sum gained, from its edge view (with ``proof``
    once the node is proven). :meth:`mcts_lab.traces.replay.FileReplay.iteration_trace`
    rebuilds the iteration's :class:`~mcts_core.trace.IterationTrace` from these fields, so an
    opened file is narrated word for word like the live run."""
    if root_player is None:
        root_player = max(search.root.player, 0)
    decisions = []
    for step in trace.path:
        if isinstance(step, ChanceStep):
            continue
        assert isinstance(step, Decision)
        decisions.append(
            {
                "node": step.node_id,
                "chosen": step.chosen_terms.node_id,
                "rule": step.rule,
                "children": [_terms(t) for t in step.children],
            }
        )
    expanded: list[int] = []
    if trace.expansion is not None:
        if trace.expansion.chance_id is not None and trace.expansion.new_action:
            expanded.append(trace.expansion.chance_id)
        expanded.append(trace.expansion.node_id)
    leaf = trace.updates[-1]
    evaluation = trace.evaluation
    values = evaluation.value
    record: dict[str, Any] = {
        "iteration": trace.iteration,
        "path": [update.node_id for update in trace.updates],
        "decisions": decisions,
        "expanded": expanded,
        "leaf": trace.leaf_id,
        "leaf_values": list(values),
        "leaf_value": values[leaf.view],
        "leaf_raw": list(evaluation.raw),
        "evaluation": evaluation.kind,
        "rollout_moves": len(evaluation.rollout),
        "backup": [_backup(u) for u in trace.updates],
    }
    if trace.note:
        record["note"] = trace.note
    return record


def _terms(t: ChildTerms) -> dict[str, Any]:
    item: dict[str, Any] = {
        "node": t.node_id,
        "visits": t.visits,
        "q": t.q,
        "bonus": t.bonus,
        "prior": t.prior,
        "score": t.score,
    }
    if t.proven is not None:
        item["proof"] = t.proven
    return item


def _backup(update: NodeUpdate) -> dict[str, Any]:
    item: dict[str, Any] = {"node": update.node_id, "add": update.added}
    if update.proven is not None:
        item["proof"] = update.proven
    return item


def run_recorded(
    search: Search,
    iterations: int | None = None,
    seconds: float | None = None,
    on_step: Callable[[IterationTrace], None] | None = None,
) -> tuple[RunResult, list[IterationTrace]]:
    """:meth:`Search.run` with every iteration's trace: the same stopping rules (iterations,
    seconds, a proven root, the node cap) and the same tree as ``run``. The traces are
    returned, or, given ``on_step``, handed to it one by one and not kept (a long run's
    traces take tens of kilobytes each)."""
    limit = iterations if iterations is not None else 10_000_000
    kept: list[IterationTrace] = []
    done = 0
    stopped = RunStop.ITERATIONS
    start = time.perf_counter()
    deadline = None if seconds is None else start + seconds
    try:
        while done < limit:
            if deadline is not None and time.perf_counter() >= deadline:
                stopped = RunStop.SECONDS
                break
            if search.root.proven is not None:
                stopped = RunStop.SOLVED
                break
            trace = search.step()
            done += 1
            if on_step is None:
                kept.append(trace)
            else:
                on_step(trace)
    except NodeCapReached:
        stopped = RunStop.NODE_CAP
    message = search.node_cap_message if stopped is RunStop.NODE_CAP else ""
    return RunResult(done, time.perf_counter() - start, stopped, message), kept


def write_run(
    search: Search, path: str, iterations: int | None = None, seconds: float | None = None
) -> RunResult:
    """Run the search like :func:`run_recorded` and write its tree and every iteration to
    ``path`` (``.jsonl``: JSON Lines). The records are spooled to a temporary file as the
    search runs, so memory holds one iteration's record at a time, not the whole trace."""
    root_player = max(search.root.player, 0)
    with tempfile.TemporaryFile("w+", encoding="utf-8") as spool:

        def keep(trace: IterationTrace) -> None:
            record = iteration_record(trace, search, root_player)
            spool.write(json.dumps(record, allow_nan=False) + "\n")

        result, _ = run_recorded(search, iterations, seconds, on_step=keep)
        spool.seek(0)
        doc = from_search(search)
        with open(path, "w", encoding="utf-8") as out:
            if path.endswith(".jsonl"):
                out.write(dumps(doc, json_lines=True))
                shutil.copyfileobj(spool, out)
                return result
            text = dumps(doc).rstrip()
            out.write(text[:-1] + ',"trace":[')  # the object stays open for the records
            for i, line in enumerate(spool):
                out.write(("," if i else "") + line.rstrip("\n"))
            out.write("]}\n")
    return result
