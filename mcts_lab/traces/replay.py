"""A trace file replayed iteration by iteration, as a tree the lab's views can draw.

:class:`FileReplay` rebuilds the file's tree from ``mcts_core`` nodes (``ActionNode``,
``ChanceNode``) and moves through its iteration records: :meth:`FileReplay.goto` applies or
undoes records one at a time (each costs the length of its path), so Step, Back and the slider
cost what the iteration touched, not the tree's size. :meth:`FileReplay.search` is a read-only
stand-in for :class:`mcts_core.Search` (``root``, ``game``, ``node_count``, ``state_of``) that
:func:`app.drawing.tree_layout.build_view` draws like a live search; its "game" answers labels
from the file, states are node ids. :meth:`FileReplay.iteration_trace` rebuilds the record shown
as the core's ``IterationTrace`` when it carries what the lab's writer records, so the app's
narration reads it like a live step. With a registered game named in the file, the game's short
move labels (:class:`mcts_core.game.ShortLabels`) are the tree's, as in the live tree.

Without iteration records (or when they do not start at iteration 1) the file's final tree is
shown as it is. Proofs are shown only for the final tree: records do not say when a proof came.
Pure: no Streamlit.
"""

from __future__ import annotations

from typing import Any

from mcts_core import ActionNode, ChanceNode
from mcts_core.game import Action, Outcome, ShortLabels, ShortOutcomeLabels, State
from mcts_core.nodes import SolverOutcomeNode
from mcts_core.trace import (
    ChanceStep,
    ChildTerms,
    Decision,
    Evaluation,
    Expansion,
    IterationTrace,
    NodeUpdate,
    PathStep,
    RolloutStep,
)
from mcts_lab.traces.format import Trace
from mcts_lab.traces.rules import GameMoves, game_moves
from mcts_lab.traces.values import node_players, node_sums, node_views, value_range

__all__ = ["FileReplay", "FileGame", "FileSearch", "ShortLabelFileGame"]

#: The outcome of a deterministic move in the file game (a node reached without chance).
NO_OUTCOME = None
#: A rollout move the file does not name (records keep the rollout's length only).
_BLANK_STEP = RolloutStep(-1, "", "")


class FileGame:
    """The file's labels in the shape of the game questions the tree view asks. A state is a
    node id; an action is the id of the node it leads to (a chance node's id for its action);
    an outcome is the id of the outcome's node."""

    name = "file"

    def __init__(self, replay: FileReplay) -> None:
        self._replay = replay

    def action_label(self, state: State, action: Action) -> str:
        return self._replay.label(action)

    def outcome_label(self, state: State, action: Action, outcome: Outcome) -> str:
        return self._replay.label(outcome)

    def chance_outcomes(self, state: State, action: Action) -> list[tuple[Any, float]]:
        return self._replay.outcomes(action)

    def next_state(self, state: State, action: Action, outcome: Outcome) -> Any:
        return action if outcome is NO_OUTCOME else outcome

    def format_state(self, state: State) -> str:
        return self._replay.position(state)


class ShortLabelFileGame(FileGame):
    """A :class:`FileGame` of a file naming a registered game with short labels
    (:class:`mcts_core.game.ShortLabels`, gridiron's "H1 acts", "dodge 3,2"): the tree's boxes
    show the game's short label of each move and outcome, as the live tree does; a move the
    rules do not recognise keeps the file's label."""

    def __init__(self, replay: FileReplay, moves: GameMoves) -> None:
        super().__init__(replay)
        self._moves = moves

    def short_action_label(self, state: State, action: int) -> str:
        i = self._replay.trace.index.get(action)
        if i is not None:
            before, move = self._moves.state_before(i), self._moves.action(i)
            if before is not None and move is not None:
                return str(self._moves.game.short_action_label(before, move))
        return self._replay.label(action)

    def short_outcome_label(self, state: State, action: int, outcome: int) -> str:
        """The game's short label of a chance outcome (gridiron's "on 3,1", "drop 4,2"), as
        the live tree shows it; the file's label when the game has none or the rules do not
        recognise the outcome."""
        game = self._moves.game
        i = self._replay.trace.index.get(outcome)
        if i is not None and isinstance(game, ShortOutcomeLabels):
            before, move = self._moves.state_before(i), self._moves.action(i)
            if before is not None and move is not None:
                return str(game.short_outcome_label(before, move, self._moves.outcome(i)))
        return self._replay.label(outcome)


class FileSearch:
    """What the tree view reads of a search, for a replayed file (read only)."""

    def __init__(self, replay: FileReplay) -> None:
        moves = replay.game_moves
        self.game = FileGame(replay)
        if moves is not None and isinstance(moves.game, ShortLabels):
            self.game = ShortLabelFileGame(replay, moves)
        self._replay = replay

    @property
    def root(self) -> ActionNode:
        return self._replay.root

    @property
    def node_count(self) -> int:
        return self._replay.attached

    @property
    def iterations(self) -> int:
        return self._replay.position_index

    def state_of(self, node: ActionNode | ChanceNode) -> Any:
        return node.parent.id if isinstance(node, ChanceNode) else node.id


class FileReplay:
    """The file's tree at any iteration (see the module docstring).

    Attributes:
        trace: the checked file.
        steppable: True when the records start at iteration 1, so the tree can be grown from
            the root record by record.
        position_index: how many records are applied (``len(trace.records)``: the end).
        root: the root node object.
        attached: nodes in the tree at this position.
        game_moves: the file's moves in the registered game it names (``None``: it names none
            or its position cannot be used).
    """

    def __init__(self, trace: Trace) -> None:
        self.trace = trace
        nodes = trace.nodes
        self.views = node_views(trace)
        self.players = node_players(trace)
        self.low, self.high = value_range(trace)
        values = trace.header.get("values", {})
        self.zero_sum = bool(values.get("zero_sum", True))
        self.final_sums = node_sums(trace, self.views)
        self.steppable = bool(trace.records) and trace.records[0]["iteration"] == 1
        self.game_moves = game_moves(trace)
        self._objects: list[ActionNode | ChanceNode] = []
        chance = [self._is_chance(i) for i in range(len(nodes))]
        for i, node in enumerate(nodes):
            parent_i = trace.index.get(node["parent"]) if node["parent"] is not None else None
            node_id = node["id"]
            if chance[i]:
                count = len(trace.children[i])
                obj: ActionNode | ChanceNode = ChanceNode(node_id, None, node_id, max(count, 2))  # type: ignore[arg-type]
            elif parent_i is not None and chance[parent_i]:
                obj = SolverOutcomeNode(node_id, None, nodes[parent_i]["id"], node_id,
                                        self.players[i])  # fmt: skip
            else:
                # a file's nodes may hold an outcome and a proof: the node kind that keeps both
                obj = SolverOutcomeNode(node_id, None, node_id, NO_OUTCOME, self.players[i])
            self._objects.append(obj)
        for i, node in enumerate(nodes):
            if node["parent"] is not None:
                self._objects[i].parent = self._objects[trace.index[node["parent"]]]
        root = self._objects[trace.root]
        assert isinstance(root, ActionNode)  # a chance node is never the root (_is_chance)
        self.root = root
        # when each node appears: the first record naming it (expanded or on the path)
        self._appears: list[list[int]] = [[] for _ in trace.records]
        seen = {nodes[trace.root]["id"]}
        if self.steppable:
            for r, record in enumerate(trace.records):
                for node_id in [*record.get("expanded", ()), *record["path"]]:
                    if node_id not in seen:
                        seen.add(node_id)
                        self._appears[r].append(trace.index[node_id])
        self._unmentioned = [
            i for i, node in enumerate(nodes) if node["id"] not in seen and i != trace.root
        ]
        self.position_index = 0
        self.attached = 1
        self._deltas: dict[int, list[tuple[int, float, float]]] = {}
        # the last rebuilt record: (position, trace); the app asks again on every rerun
        self._rebuilt: tuple[int, IterationTrace | None] | None = None
        if self.steppable:
            self._zero(self.root)
        else:
            self._attach_all_final()
            self.position_index = len(trace.records)

    # ------------------------------------------------------------ reading

    def label(self, node_id: Any) -> str:
        """The move into the node (its ``move``; ``#id`` when the file gives none)."""
        i = self.trace.index.get(node_id)
        if i is None:
            return str(node_id)
        return str(self.trace.nodes[i].get("move", f"#{node_id}"))

    def outcomes(self, chance_id: Any) -> list[tuple[int, float]]:
        i = self.trace.index.get(chance_id)
        if i is None:
            return []
        kids = self.trace.children[i]
        return [
            (self.trace.nodes[k]["id"], float(self.trace.nodes[k].get("probability", 0.0)))
            for k in kids
        ]

    def position(self, node_id: Any) -> str:
        i = self.trace.index.get(node_id)
        if i is None:
            return ""
        return str(self.trace.nodes[i].get("position", f"node #{node_id}"))

    def search(self) -> FileSearch:
        return FileSearch(self)

    @property
    def end(self) -> int:
        """The last position: every record applied."""
        return len(self.trace.records)

    def record(self) -> dict[str, Any] | None:
        """The record of the iteration shown (the last one applied), or ``None``."""
        if not self.steppable or self.position_index == 0:
            return None
        return self.trace.records[self.position_index - 1]

    # ------------------------------------------------------------ moving

    def goto(self, target: int) -> None:
        """Apply or undo records until ``target`` of them are applied (clamped to the file)."""
        if not self.steppable:
            return
        target = max(0, min(int(target), self.end))
        if self.position_index == self.end and target < self.end:
            self._detach_unmentioned()
        while self.position_index < target:
            self._apply(self.position_index, +1)
            self.position_index += 1
        while self.position_index > target:
            self.position_index -= 1
            self._apply(self.position_index, -1)
        if self.position_index == self.end:
            self._attach_unmentioned()

    def _apply(self, r: int, sign: int) -> None:
        objects = self._objects
        appear = self._appears[r]
        if sign > 0:
            for i in appear:
                self._attach(i)
        for i, d0, d1 in self._delta(r):
            node = objects[i]
            if isinstance(node, ChanceNode):
                continue  # its statistics are its outcomes' sums
            node.visits += sign
            node.value0 += sign * d0
            node.value1 += sign * d1
        if sign < 0:
            for i in reversed(appear):
                self._detach(i)

    def _delta(self, r: int) -> list[tuple[int, float, float]]:
        """Per node on the record's path: what its two per-player sums gained."""
        cached = self._deltas.get(r)
        if cached is not None:
            return cached
        record = self.trace.records[r]
        index = self.trace.index
        adds = {item["node"]: item["add"] for item in record.get("backup", ())}
        leaf_values = record.get("leaf_values")
        leaf_vector: list[float] | None = None
        if leaf_values is not None and len(leaf_values) >= 2:
            leaf_vector = [float(leaf_values[0]), float(leaf_values[1])]
        elif "leaf_value" in record and self.zero_sum:
            leaf = record.get("leaf", record["path"][-1])
            view = self.views[index[leaf]] if leaf in index else 0
            leaf_vector = self._vector(view, float(record["leaf_value"]))
        result = []
        for node_id in record["path"]:
            i = index[node_id]
            if node_id in adds:
                view = self.views[i]
                vector = self._vector(view, float(adds[node_id]), leaf_vector)
            else:
                vector = leaf_vector or [0.0, 0.0]
            result.append((i, vector[0], vector[1]))
        self._deltas[r] = result
        return result

    def _vector(self, view: int, value: float, fallback: list[float] | None = None) -> list[float]:
        """A value from ``view``'s side as (player 0, player 1)."""
        other = (
            self.low + self.high - value
            if self.zero_sum
            else (fallback[1 - view] if fallback is not None and view in (0, 1) else 0.0)
        )
        return [value, other] if view == 0 else [other, value]

    # ------------------------------------------------------------ attaching

    def _is_chance(self, i: int) -> bool:
        """A chance node the core's types can hold: below a decision, above decisions."""
        trace = self.trace
        node = trace.nodes[i]
        if node.get("kind") != "chance" or node["parent"] is None:
            return False
        parent = trace.nodes[trace.index[node["parent"]]]
        kids = trace.children[i]
        return parent.get("kind") != "chance" and all(
            trace.nodes[k].get("kind") != "chance" for k in kids
        )

    def _attach(self, i: int) -> None:
        node = self._objects[i]
        parent = node.parent
        if parent is None:
            return
        parent.children = (*parent.children, node)
        self._zero(node)
        self.attached += 1

    def _detach(self, i: int) -> None:
        node = self._objects[i]
        parent = node.parent
        if parent is None:
            return
        parent.children = tuple(c for c in parent.children if c is not node)
        self.attached -= 1

    def _zero(self, node: ActionNode | ChanceNode) -> None:
        if isinstance(node, ActionNode):
            node.visits, node.value0, node.value1 = 0, 0.0, 0.0
        if isinstance(node, SolverOutcomeNode):  # (every node this replay makes)
            node.proven = None

    def _final_stats(self, i: int) -> None:
        """The file's own statistics on node ``i`` (the final tree)."""
        node = self._objects[i]
        if not isinstance(node, ActionNode):
            return
        node.visits = int(self.trace.nodes[i]["visits"])
        sums = self.final_sums[i]
        known = [s for s in sums if s is not None]
        first = sums[0] if sums and sums[0] is not None else None
        second = sums[1] if len(sums) > 1 and sums[1] is not None else None
        fill = known[0] if known else 0.0  # one player's sum only: shown for both
        node.value0 = float(first if first is not None else fill)
        node.value1 = float(second if second is not None else fill)

    def _set_proofs(self) -> None:
        """The file's proofs, as the core's per-player results (win +1, draw 0, loss -1)."""
        middle = (self.low + self.high) / 2
        for i, data in enumerate(self.trace.nodes):
            node = self._objects[i]
            proven = data.get("proven")
            view = self.views[i]
            if isinstance(node, SolverOutcomeNode) and proven is not None and view in (0, 1):
                sign = 1.0 if proven > middle else -1.0 if proven < middle else 0.0
                node.proven = (sign, -sign) if view == 0 else (-sign, sign)

    def _attach_all_final(self) -> None:
        trace = self.trace
        # by depth, then file order: every parent is in before its children, siblings in order
        for i in sorted(range(len(trace.nodes)), key=lambda i: trace.depth[i]):
            if i != trace.root:
                self._attach(i)
        for i in range(len(trace.nodes)):
            self._final_stats(i)
        self._set_proofs()

    def _attach_unmentioned(self) -> None:
        for i in sorted(self._unmentioned, key=lambda i: self.trace.depth[i]):
            self._attach(i)
            self._final_stats(i)
        self._set_proofs()

    def _detach_unmentioned(self) -> None:
        for i in sorted(self._unmentioned, key=lambda i: -self.trace.depth[i]):
            self._detach(i)
        for node in self._objects:
            if isinstance(node, SolverOutcomeNode):
                node.proven = None

    # ------------------------------------------------------------ the record as the core's

    def iteration_trace(self) -> IterationTrace | None:
        """The iteration shown as the core's :class:`~mcts_core.trace.IterationTrace`, rebuilt
        from its record and the tree at this position, so the app narrates it with
        :func:`app.words.narration.narrate_iteration`, word for word like the live run that wrote
        it. ``None`` before the first record, or when the record lacks what the lab's writer
        records (docs/trace_format.md, "Iteration records": every decision's terms, the
        expansion, ``leaf_values``, ``leaf_raw``, ``evaluation``, ``rollout_moves``, a backup
        item per node); the app then tells the record in generic words.

        What the file does not hold is filled plainly: an action is the id of the node it
        leads to (as in :class:`FileGame`); the rollout's steps are blank (the file records
        how many moves it played, not which); ``num_outcomes`` counts the outcomes the file
        lists under the chance node; a deterministic expansion's outcome label is ``""``.
        """
        record = self.record()
        if record is None or int(self.trace.header.get("players", 2)) != 2:
            return None
        if self._rebuilt is not None and self._rebuilt[0] == self.position_index:
            return self._rebuilt[1]
        try:
            rebuilt: IterationTrace | None = self._rebuild(record)
        except (KeyError, TypeError, ValueError, IndexError):
            rebuilt = None  # a field missing or of the wrong shape: a foreign writer's record
        self._rebuilt = (self.position_index, rebuilt)
        return rebuilt

    def _rebuild(self, record: dict[str, Any]) -> IterationTrace | None:
        nodes, index = self.trace.nodes, self.trace.index
        path = [int(n) for n in record["path"]]
        expanded = [int(n) for n in record.get("expanded", ())]
        decisions = {int(d["node"]): d for d in record["decisions"]}
        adds = {int(item["node"]): item for item in record["backup"]}
        kind = str(record["evaluation"])
        raw = tuple(float(v) for v in record["leaf_raw"])
        values = tuple(float(v) for v in record["leaf_values"])
        rollout_moves = int(record.get("rollout_moves", 0))
        if kind in ("rollout", "cutoff") and "rollout_moves" not in record:
            return None
        if len(raw) != 2 or len(values) != 2 or any(n not in adds for n in path):
            return None
        steps: list[PathStep] = []
        used = 0
        for here, there in zip(path, path[1:], strict=False):
            i = index[here]
            if nodes[i].get("kind") == "chance":
                if not isinstance(self._objects[i], ChanceNode):
                    return None  # a chance layer the core's node types cannot hold
                if here in expanded:
                    continue  # a new action with dice: the expansion drew the outcome
                steps.append(
                    ChanceStep(
                        node_id=here,
                        action_label=self.label(here),
                        outcome_label=self.label(there),
                        probability=float(nodes[index[there]].get("probability", 0.0)),
                        num_outcomes=len(self.trace.children[i]),
                        child_id=None if there in expanded else there,
                    )
                )
            elif there not in expanded:
                decision = decisions.get(here)
                if decision is None or int(decision["chosen"]) != there:
                    return None
                steps.append(self._decision(decision, i))
                used += 1
        if used != len(decisions):
            return None
        updates = []
        for node_id in path:
            i = index[node_id]
            node = self._objects[i]
            view = self.views[i]
            item = adds[node_id]
            updates.append(
                NodeUpdate(
                    node_id=node_id,
                    kind="chance" if isinstance(node, ChanceNode) else "action",
                    player=self.players[i],
                    view=view,
                    added=float(item["add"]),
                    visits=node.visits,
                    mean=node.mean(view),
                    proven=item.get("proof"),
                )
            )
        leaf = int(record.get("leaf", path[-1]))
        return IterationTrace(
            iteration=int(record["iteration"]),
            path=tuple(steps),
            expansion=self._expansion(expanded),
            leaf_id=leaf,
            evaluation=Evaluation(
                kind=kind,
                rollout=(_BLANK_STEP,) * rollout_moves,
                end_state=str(nodes[index[leaf]].get("position", "")),
                raw=raw,
                value=values,
            ),
            updates=tuple(updates),
            note=str(record.get("note", "")),
        )

    def _decision(self, decision: dict[str, Any], i: int) -> Decision:
        """A decision of the record with the writer's terms; N is the node's visits before
        this iteration's backup (the record is applied: one less than now)."""
        children = tuple(
            ChildTerms(
                node_id=int(t["node"]),
                action=int(t["node"]),
                label=self.label(t["node"]),
                visits=int(t["visits"]),
                q=float(t["q"]),
                bonus=float(t["bonus"]),
                prior=None if t.get("prior") is None else float(t["prior"]),
                score=float(t["score"]),
                proven=t.get("proof"),
            )
            for t in decision["children"]
        )
        chosen = [t.node_id for t in children].index(int(decision["chosen"]))
        node = self._objects[i]
        return Decision(
            node_id=int(decision["node"]),
            player=self.players[i],
            parent_visits=node.visits - 1,
            rule=str(decision["rule"]),
            children=children,
            chosen=chosen,
        )

    def _expansion(self, expanded: list[int]) -> Expansion | None:
        """The record's added nodes as the core's expansion: [chance, outcome] for a new move
        with dice, [outcome] for a new outcome of a known move, [node] for a deterministic
        move."""
        if not expanded:
            return None
        if len(expanded) > 2:
            raise ValueError("more than one expansion")
        nodes, index = self.trace.nodes, self.trace.index
        node_id = expanded[-1]
        data = nodes[index[node_id]]
        parent_id = int(data["parent"])
        below_chance = nodes[index[parent_id]].get("kind") == "chance"
        chance_id = parent_id if below_chance else None
        if len(expanded) == 2 and expanded[0] != chance_id:
            raise ValueError("two added nodes that are not a chance node and its outcome")
        decider_id = int(nodes[index[parent_id]]["parent"]) if below_chance else parent_id
        decider = nodes[index[decider_id]]
        moves = len(self._objects[index[decider_id]].children)
        return Expansion(
            parent_id=decider_id,
            chance_id=chance_id,
            node_id=node_id,
            new_action=len(expanded) == 2 or not below_chance,
            action_label=self.label(chance_id if chance_id is not None else node_id),
            outcome_label=self.label(node_id) if below_chance else "",
            probability=float(data.get("probability", 1.0)) if below_chance else 1.0,
            untried=int(decider["num_actions"]) - moves if "num_actions" in decider else 0,
        )

    def decision_rows(self) -> list[dict[str, Any]]:
        """The iteration's decisions as rows: the node, each child's move and terms, and which
        was chosen (the writer's numbers, not recomputed)."""
        record = self.record()
        if record is None:
            return []
        rows = []
        for decision in record.get("decisions", ()):
            for terms in decision.get("children", ()):
                rows.append(
                    {
                        "at node": decision["node"],
                        "move": self.label(terms["node"]),
                        "node": terms["node"],
                        "visits": terms.get("visits"),
                        "q": terms.get("q"),
                        "bonus": terms.get("bonus"),
                        "prior": terms.get("prior"),
                        "score": terms.get("score"),
                        "chosen": "yes" if terms["node"] == decision["chosen"] else "",
                        "rule": decision.get("rule", ""),
                    }
                )
        return rows

    def marks(self) -> tuple[set[int], int | None, set[int]]:
        """(the path's ids, the node added, the ids updated) of the iteration shown."""
        record = self.record()
        if record is None:
            return set(), None, set()
        expanded = record.get("expanded", [])
        return set(record["path"]), (expanded[-1] if expanded else None), set(record["path"])
