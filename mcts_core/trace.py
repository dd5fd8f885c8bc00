"""What one MCTS iteration did: frozen records, the contract between the search and the views.

Every value is already in the search's normalised range (see :mod:`mcts_core.config`). Where a
record holds a single value it says from whose view; per-player tuples are (player 0, player 1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

__all__ = [
    "ChildTerms",
    "Decision",
    "ChanceStep",
    "Expansion",
    "RolloutStep",
    "Evaluation",
    "NodeUpdate",
    "IterationTrace",
    "PathStep",
    "evaluation_from_dict",
    "expansion_from_dict",
    "json_float",
    "json_int",
    "json_str",
    "step_from_dict",
]


@dataclass(frozen=True, slots=True)
class ChildTerms:
    """One child's terms in a selection decision.

    Attributes:
        node_id: id of the move's node: the next ``ActionNode`` for a deterministic action,
            the ``ChanceNode`` for an action with chance.
        action: the action.
        label: the action's label.
        visits: n, the child's visits before this iteration.
        q: the child's mean value from the view of the deciding player.
        bonus: the exploration bonus the tree policy gave it.
        prior: its PUCT prior (``None`` for UCT and UCB1).
        score: ``q + bonus``, what the argmax compared.
        proven: with the solver, "win", "draw" or "loss" for the deciding player when proven.
    """

    node_id: int
    action: Any
    label: str
    visits: int
    q: float
    bonus: float
    prior: float | None
    score: float
    proven: str | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    """A selection step at an ``ActionNode``.

    Attributes:
        node_id: the deciding node.
        player: the deciding player; every ``q`` below is from this player's view.
        parent_visits: N, the node's visits before this iteration.
        rule: why the child was chosen: "uct", "ucb1", "puct" (the formula) or "min_visits" (a
            child had fewer than T visits). With the solver on, a proven child's ``q`` is its
            proven value, but the formula still decides (the rule stays the formula's name).
        children: every child's terms, in expansion order.
        chosen: index into ``children`` of the child taken.
    """

    node_id: int
    player: int
    parent_visits: int
    rule: str
    children: tuple[ChildTerms, ...]
    chosen: int

    @property
    def chosen_terms(self) -> ChildTerms:
        return self.children[self.chosen]


@dataclass(frozen=True, slots=True)
class ChanceStep:
    """A chance outcome sampled while descending the existing tree (only at a ``ChanceNode``:
    a deterministic move has no chance step).

    Attributes:
        node_id: the ``ChanceNode``.
        action_label: the action whose outcome was drawn.
        outcome_label: the outcome drawn.
        probability: its exact probability.
        num_outcomes: how many outcomes the action has.
        child_id: the outcome's ``ActionNode`` (``None`` when the outcome is new: the expansion
            creates it).
    """

    node_id: int
    action_label: str
    outcome_label: str
    probability: float
    num_outcomes: int
    child_id: int | None


PathStep = Decision | ChanceStep


@dataclass(frozen=True, slots=True)
class Expansion:
    """The node added to the tree by this iteration.

    Attributes:
        parent_id: the ``ActionNode`` expanded from.
        chance_id: the ``ChanceNode`` of the action (new unless only a new outcome was added);
            ``None`` for a deterministic action, whose new node hangs from the parent directly.
        node_id: the new ``ActionNode``.
        new_action: True when a new action was tried; False when a known action met a new outcome.
        action_label, outcome_label, probability: what was tried and drawn.
        untried: actions at the parent still untried after this expansion.
    """

    parent_id: int
    chance_id: int | None
    node_id: int
    new_action: bool
    action_label: str
    outcome_label: str
    probability: float
    untried: int


@dataclass(frozen=True, slots=True)
class RolloutStep:
    """One action of the rollout: who played it, what, and the chance outcome."""

    player: int
    action_label: str
    outcome_label: str


@dataclass(frozen=True, slots=True)
class Evaluation:
    """How the leaf was valued.

    Attributes:
        kind: "terminal" (the leaf ends the game), "rollout" (played out to the end),
            "heuristic" (depth 0: the heuristic valued the leaf), "cutoff" (the rollout stopped
            early at its depth or turn limit and the heuristic valued where it stopped),
            "proven" (a solved node's exact value) or "repeat" (the leaf's state repeats one on
            the path; valued by the heuristic, not expanded).
        rollout: the rollout's actions (empty without rollout).
        end_state: the position string where the evaluation happened.
        raw: per-player raw values there: returns or heuristic, in [-1, 1].
        value: per-player values backed up (shaped and normalised).
    """

    kind: str
    rollout: tuple[RolloutStep, ...]
    end_state: str
    raw: tuple[float, ...]
    value: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class NodeUpdate:
    """A node's statistics after the backpropagation.

    Attributes:
        node_id: the node (``ActionNode`` or ``ChanceNode``).
        kind: "action" or "chance".
        player: for an action node the player deciding there (-1 if terminal); for a chance node
            the player who chose the action.
        view: the player whose view ``added`` and ``mean`` are from: the player who chose the
            edge into this node (the root: its own deciding player). This is where the sign
            flips between players show.
        added: the value added from ``view``'s side.
        visits: visits after the update.
        mean: the mean value from ``view``'s side after the update.
        proven: with the solver, "win", "draw" or "loss" for ``view`` once proven.
    """

    node_id: int
    kind: str
    player: int
    view: int
    added: float
    visits: int
    mean: float
    proven: str | None = None


@dataclass(frozen=True, slots=True)
class IterationTrace:
    """Everything one iteration did, in order.

    Attributes:
        iteration: 1 for the search's first iteration, counting on across tree reuse.
        path: the selection: decisions and chance steps from the root to the leaf.
        expansion: the node added, or ``None`` (terminal or proven leaf, repeated state, or the
            node cap reached).
        leaf_id: the ``ActionNode`` that was evaluated.
        evaluation: how the leaf was valued.
        updates: the nodes whose statistics changed, root first.
        note: a sentence for a person when something unusual happened ("" otherwise).
    """

    iteration: int
    path: tuple[PathStep, ...]
    expansion: Expansion | None
    leaf_id: int
    evaluation: Evaluation
    updates: tuple[NodeUpdate, ...]
    note: str = ""

    @property
    def decisions(self) -> tuple[Decision, ...]:
        return tuple(step for step in self.path if isinstance(step, Decision))

    @property
    def chance_steps(self) -> tuple[ChanceStep, ...]:
        return tuple(step for step in self.path if isinstance(step, ChanceStep))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (actions and outcomes are given by their labels only)."""
        data = asdict(self)
        for step, raw in zip(self.path, data["path"], strict=True):
            raw["type"] = "decision" if isinstance(step, Decision) else "chance"
            for child in raw.get("children", ()):
                child["action"] = child["label"]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> IterationTrace:
        """The trace :meth:`to_dict` wrote (a class's frame carries it to the phones), each
        value checked: ``ValueError``, ``KeyError`` or ``TypeError`` on anything else. An
        action reads back as its label (``to_dict`` keeps labels only)."""
        return _read_trace(data)


# ------------------------------------------------------------------ reading to_dict back


def json_int(value: Any) -> int:
    """``value`` if it is a whole number (not a bool) read from JSON, else ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(value)
    return value


def json_float(value: Any) -> float:
    """``value`` as a float if it is a number (not a bool) read from JSON, else ``ValueError``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(value)
    return float(value)


def _opt_float(value: Any) -> float | None:
    return None if value is None else json_float(value)


def json_str(value: Any) -> str:
    """``value`` if it is text, else ``ValueError``."""
    if not isinstance(value, str):
        raise ValueError(value)
    return value


def _opt_str(value: Any) -> str | None:
    return None if value is None else json_str(value)


def _child(d: Mapping[str, Any]) -> ChildTerms:
    return ChildTerms(
        node_id=json_int(d["node_id"]),
        action=json_str(d["label"]),
        label=json_str(d["label"]),
        visits=json_int(d["visits"]),
        q=json_float(d["q"]),
        bonus=json_float(d["bonus"]),
        prior=_opt_float(d.get("prior")),
        score=json_float(d["score"]),
        proven=_opt_str(d.get("proven")),
    )


def step_from_dict(d: Mapping[str, Any]) -> PathStep:
    """A path step as :meth:`IterationTrace.to_dict` wrote it (``type`` decision or chance)."""
    if d.get("type") == "chance":
        return ChanceStep(
            node_id=json_int(d["node_id"]),
            action_label=json_str(d["action_label"]),
            outcome_label=json_str(d["outcome_label"]),
            probability=json_float(d["probability"]),
            num_outcomes=json_int(d["num_outcomes"]),
            child_id=None if d.get("child_id") is None else json_int(d["child_id"]),
        )
    children = tuple(_child(c) for c in d["children"])
    chosen = json_int(d["chosen"])
    if not 0 <= chosen < len(children):
        raise ValueError(chosen)
    return Decision(
        node_id=json_int(d["node_id"]),
        player=json_int(d["player"]),
        parent_visits=json_int(d["parent_visits"]),
        rule=json_str(d["rule"]),
        children=children,
        chosen=chosen,
    )


def expansion_from_dict(d: Any) -> Expansion | None:
    """An expansion as :meth:`IterationTrace.to_dict` wrote it (``None`` stays ``None``)."""
    if d is None:
        return None
    return Expansion(
        parent_id=json_int(d["parent_id"]),
        chance_id=None if d.get("chance_id") is None else json_int(d["chance_id"]),
        node_id=json_int(d["node_id"]),
        new_action=bool(d["new_action"]),
        action_label=json_str(d["action_label"]),
        outcome_label=json_str(d["outcome_label"]),
        probability=json_float(d["probability"]),
        untried=json_int(d["untried"]),
    )


def evaluation_from_dict(d: Mapping[str, Any]) -> Evaluation:
    """An evaluation as :meth:`IterationTrace.to_dict` wrote it."""
    return Evaluation(
        kind=json_str(d["kind"]),
        rollout=tuple(
            RolloutStep(
                json_int(r["player"]), json_str(r["action_label"]), json_str(r["outcome_label"])
            )
            for r in d["rollout"]
        ),
        end_state=json_str(d["end_state"]),
        raw=tuple(json_float(x) for x in d["raw"]),
        value=tuple(json_float(x) for x in d["value"]),
    )


def _read_trace(d: Mapping[str, Any]) -> IterationTrace:
    return IterationTrace(
        iteration=json_int(d["iteration"]),
        path=tuple(step_from_dict(s) for s in d["path"]),
        expansion=expansion_from_dict(d.get("expansion")),
        leaf_id=json_int(d["leaf_id"]),
        evaluation=evaluation_from_dict(d["evaluation"]),
        updates=tuple(
            NodeUpdate(
                node_id=json_int(u["node_id"]),
                kind=json_str(u["kind"]),
                player=json_int(u["player"]),
                view=json_int(u["view"]),
                added=json_float(u["added"]),
                visits=json_int(u["visits"]),
                mean=json_float(u["mean"]),
                proven=_opt_str(u.get("proven")),
            )
            for u in d["updates"]
        ),
        note=json_str(d.get("note", "")),
    )
