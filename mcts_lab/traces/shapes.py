"""The shapes of an mcts-trace document's JSON objects (docs/trace_format.md), as TypedDicts.

The JSON Schema (``mcts_lab/schema/trace-v1.schema.json``) is what a file is checked against;
these types say the same for the code that writes or reads the objects: a field the format
lets a writer leave out is optional (``total=False``), a required one is ``Required``.
Values are as the format states them: ids are whole numbers, values are in the header's
``values.range`` from the view its ``values.view`` names.
"""

from __future__ import annotations

from typing import Required, TypedDict

__all__ = [
    "BackupRecord",
    "ChildTermsRecord",
    "DecisionRecord",
    "IterationRecord",
    "NodeRecord",
    "SchemaRule",
    "TraceDocument",
    "TraceHeader",
    "ValuesInfo",
    "WriterInfo",
]


class WriterInfo(TypedDict, total=False):
    """The header's ``writer``: the program that wrote the file."""

    name: str
    version: str


class ValuesInfo(TypedDict, total=False):
    """The header's ``values``: how to read a node's value."""

    #: ``[low, high]``, the range every mean lies in (default ``[-1, 1]``).
    range: list[float]
    #: whose view a node's single value is from: "edge", "node", "root" or a player number.
    view: str | int
    #: one player's value ``v`` is ``low + high - v`` for the other (two players).
    zero_sum: bool
    #: "mean": a node's value is the mean of the leaf values backed up through it; "other".
    backup: str


class TraceHeader(TypedDict, total=False):
    """Everything of a document but its nodes and iteration records (the first line of a
    JSON Lines file)."""

    format: Required[str]
    version: Required[int]
    #: a lab game's name or ``openspiel:<game string>``; ``None``: any game.
    game: str | None
    #: the root's position string in that game (``None`` or absent: the start).
    position: str | None
    game_options: dict[str, object]
    #: the search's settings, free form (the lab writes its whole ``SearchConfig``).
    settings: dict[str, object]
    seed: int | None
    iterations: int | None
    writer: WriterInfo
    players: int
    values: ValuesInfo
    #: "leaf_visit", "at_least", "exact" or "none".
    visit_rule: str


class NodeRecord(TypedDict, total=False):
    """One node of the tree. Values (``value_sum``, ``mean``, ``proven``) are from the view
    the header's ``values.view`` names; ``value_sums`` per player."""

    id: Required[int]
    #: the parent's id; ``None`` for the root.
    parent: Required[int | None]
    #: "action" (default) or "chance".
    kind: str
    #: the player to move (-1: the game is over); a chance node: who chose its action.
    player: int
    #: the label of the move into the node; below a chance node, the outcome's label.
    move: str
    #: the move's number in the game (the lab's ``action_index``), for the rule checks.
    action: int | str
    #: required by the format; not ``Required`` here so a writer can add the fields in the
    #: format's order (id, parent, kind, player, move, ..., visits, values)
    visits: int
    value_sum: float
    mean: float
    value_sums: list[float]
    prior: float
    #: a chance outcome's probability.
    probability: float
    proven: float | None
    num_actions: int
    position: str


class ChildTermsRecord(TypedDict, total=False):
    """One child's terms in a selection decision, as the writer computed them; ``visits``
    before this iteration, ``q`` from the deciding player's view."""

    node: Required[int]
    visits: int
    q: float
    bonus: float
    prior: float | None
    score: float
    #: "win", "draw" or "loss" for the deciding player when the child is proven.
    proof: str


class DecisionRecord(TypedDict, total=False):
    """One selection decision of an iteration: at ``node``, the child ``chosen``."""

    node: Required[int]
    chosen: Required[int]
    #: the rule that chose ("uct", "ucb1", "puct", "min_visits", ...).
    rule: str
    children: list[ChildTermsRecord]


class BackupRecord(TypedDict, total=False):
    """What one node's value sum gained in an iteration, from that node's view."""

    node: Required[int]
    add: Required[float]
    #: "win", "draw" or "loss" from the node's view once it is proven.
    proof: str


class IterationRecord(TypedDict, total=False):
    """One iteration of the search (1 for the first)."""

    iteration: Required[int]
    #: the ids of the nodes that got a visit, root first.
    path: Required[list[int]]
    decisions: list[DecisionRecord]
    expanded: list[int]
    leaf: int
    #: the leaf's value from its own view; ``leaf_values`` per player.
    leaf_value: float
    leaf_values: list[float]
    #: per player, the leaf's value before shaping (returns or heuristic, in [-1, 1]).
    leaf_raw: list[float]
    evaluation: str
    rollout_moves: int
    backup: list[BackupRecord]
    note: str


class TraceDocument(TraceHeader, total=False):
    """A whole document: the header's fields, ``nodes`` and, optionally, ``trace``."""

    nodes: Required[list[NodeRecord]]
    trace: list[IterationRecord]


#: A part of the JSON Schema, in the keywords :func:`mcts_lab.traces.format.check_value`
#: knows (``$ref`` is not an identifier, hence the call form).
SchemaRule = TypedDict(
    "SchemaRule",
    {
        "$ref": str,
        "$defs": dict[str, "SchemaRule"],
        "oneOf": list["SchemaRule"],
        "type": str | list[str],
        "enum": list[object],
        "const": object,
        "minimum": float,
        "maximum": float,
        "maxLength": int,
        "required": list[str],
        "properties": dict[str, "SchemaRule"],
        "items": "SchemaRule",
        "minItems": int,
        "maxItems": int,
    },
    total=False,
)
