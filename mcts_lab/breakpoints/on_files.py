"""Breakpoints on a trace file: the conditions of :mod:`mcts_lab.breakpoints.conditions`
(``--until``, the app's Run until) asked over a file's recorded iterations instead of a live search.

:func:`run_until` moves a :class:`~mcts_lab.traces.replay.FileReplay` on one record at a time,
at most N, and stops at the first position where the condition holds. Each condition is the
registry's own probe, made once and asked after every record, over :class:`FileView`, the
file's :class:`~mcts_lab.breakpoints.conditions.SearchView` (what a probe reads of the live
:class:`~mcts_core.Search`, read only): the replayed root
and its children, the game and position (the registered game the file names, so moves are
named as in the live app and ``regret-zero`` can solve the position; otherwise the file's own
labels and node ids), ``config.solver`` (the file holds proofs) and ``config.value_range``.

Where a file differs from a live run, by what the registry's record says a condition needs:

- ``needs_records`` (``anomaly``): the file's own ``inspect`` findings answer it: it holds at
  the first iteration an anomaly names (:func:`anomaly_position`), or at the file's end for a
  finding about the final tree (a tree-only check).
- ``needs_solver`` (``proven``): refused unless the file holds proofs or says the solver ran;
  then it can hold only at the file's end: records do not say when a proof came, and the
  replay shows proofs on the final tree only.
- ``needs_exact`` (``regret-zero``): refused unless the file names a registered game.

Pure: no Streamlit.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mcts_core.game import Action, State
from mcts_core.nodes import ActionNode, ChanceNode
from mcts_lab.breakpoints.conditions import (
    BreakpointError,
    Condition,
    Context,
    MovesView,
    make_probe,
    parse_condition,
)
from mcts_lab.traces.replay import FileReplay

__all__ = ["FileStop", "FileView", "anomaly_position", "run_until"]

_NAMED_ITERATION = re.compile(r"\biteration ([0-9]+)\b")


def anomaly_position(replay: FileReplay, item: dict[str, Any]) -> int | None:
    """The position (records applied) that shows anomaly ``item`` of an ``inspect`` report:
    the record of the first iteration its words name (the checks of iteration records say
    "iteration N ..."), or ``None`` for a finding about the final tree (a tree-only check) or
    a file that cannot be stepped: the end shows it."""
    if not replay.steppable:
        return None
    named = _NAMED_ITERATION.search(str(item.get("detail", "")))
    if named is None:
        return None
    number = int(named.group(1))
    records = replay.trace.records
    guess = number - 1  # records start at 1 and usually count up one by one
    if 0 <= guess < len(records) and records[guess]["iteration"] == number:
        return guess + 1
    for r, record in enumerate(records):
        if record["iteration"] == number:
            return r + 1
    return None


class _Move:
    """A root child as a probe reads it: its ``action`` in the view's game, and the replayed
    node's statistics (``visits``, ``mean(player)``, ``proven``) as they are now."""

    def __init__(self, node: ActionNode | ChanceNode, action: Action) -> None:
        self._node = node
        self.action = action

    @property
    def visits(self) -> int:
        return int(self._node.visits)

    def mean(self, player: int) -> float:
        return float(self._node.mean(player))

    @property
    def proven(self) -> tuple[float, ...] | None:
        return self._node.proven


class _Root:
    """The replayed root with its children as :class:`_Move` (one object per child, kept, so
    a probe can compare the favourite it saw with ``is``)."""

    def __init__(self, view: FileView) -> None:
        self._view = view
        self._moves: dict[int, _Move] = {}

    @property
    def _node(self) -> ActionNode:
        return self._view.replay.root

    @property
    def player(self) -> int:
        return int(self._node.player)

    @property
    def visits(self) -> int:
        return int(self._node.visits)

    @property
    def proven(self) -> tuple[float, ...] | None:
        return self._node.proven

    @property
    def children(self) -> Sequence[_Move]:
        moves = []
        for child in self._node.children:
            move = self._moves.get(child.id)
            if move is None:
                move = self._moves[child.id] = _Move(child, self._view.action_of(child.id))
            moves.append(move)
        return moves


class _FileMoves:
    """The root's moves from the file alone (no registered game): an action is the id of the
    node it leads to, its label the file's ``move``; the moves are the root's children in the
    file's final tree, in file order."""

    name = "file"

    def __init__(self, replay: FileReplay) -> None:
        trace = replay.trace
        self._replay = replay
        self._moves = [trace.nodes[k]["id"] for k in trace.children[trace.root]]

    def is_terminal(self, state: object) -> bool:
        return not self._moves

    def legal_actions(self, state: object) -> list[Action]:
        return list(self._moves)

    def action_label(self, state: object, action: Action) -> str:
        return self._replay.label(action)


@dataclass(frozen=True)
class _Config:
    solver: bool
    value_range: str


class FileView:
    """A replayed file as a :class:`~mcts_lab.breakpoints.conditions.SearchView` (read only;
    see the module docstring). ``registered``: the file names a registered game (its moves
    and exact values are the game's); ``iterations`` is the replay's position."""

    def __init__(self, replay: FileReplay) -> None:
        self.replay = replay
        moves = replay.game_moves
        self.registered = moves is not None
        self.game: MovesView = moves.game if moves is not None else _FileMoves(replay)
        self.root_state: State = moves.root_state if moves is not None else None
        proofs = any("proven" in node for node in replay.trace.nodes)
        settings = replay.trace.header.get("settings") or {}
        unit = (replay.low, replay.high) == (0.0, 1.0)
        self.config = _Config(bool(settings.get("solver")) or proofs,
                              "unit" if unit else "symmetric")  # fmt: skip
        self.root = _Root(self)

    @property
    def iterations(self) -> int:
        return self.replay.position_index

    def action_of(self, node_id: int) -> Action:
        """The root child ``node_id``'s action in :attr:`game` (its node id without a game)."""
        moves = self.replay.game_moves
        if moves is None:
            return node_id
        action = moves.action(self.replay.trace.index[node_id])
        return node_id if action is None else action


@dataclass(frozen=True)
class FileStop:
    """Where :func:`run_until` left the file: ``condition`` (the parsed one), ``position``
    (records applied now), ``reason`` (the condition's words where it held; ``None``: it did
    not hold within the run), ``already`` (it held before the first step: nothing was run),
    ``ran`` (records applied by the run)."""

    condition: Condition
    position: int
    reason: str | None
    already: bool = False
    ran: int = 0


def run_until(
    replay: FileReplay,
    text: str,
    n: int,
    anomalies: list[dict[str, Any]],
    context: Context | None = None,
) -> FileStop:
    """Move ``replay`` on record by record, at most ``n``, until condition ``text`` (the
    registry's ``NAME[:ARGUMENT]``) holds; ``anomalies`` are the file's ``inspect`` findings
    (``anomaly``). Raises :class:`~mcts_lab.breakpoints.conditions.BreakpointError` for a condition
    that cannot be used here."""
    if not replay.steppable:
        raise BreakpointError(
            "the file's iterations cannot be stepped (no records, or they do not start at 1)"
        )
    view = FileView(replay)
    condition = parse_condition(text, view.game, view.root_state)
    start = replay.position_index
    last = min(replay.end, start + max(1, int(n)))
    kind = condition.kind
    if kind.needs_records:
        return _until_anomaly(replay, condition, anomalies, start, last)
    if kind.needs_exact and not view.registered:
        raise BreakpointError(f"{kind.name} needs exact values: the file names no registered game")
    probe = make_probe(condition, view, context or Context())
    words = probe()
    if words is not None:
        return FileStop(condition, start, words, already=True)
    while replay.position_index < last:
        replay.goto(replay.position_index + 1)
        words = probe()
        if words is not None:
            return FileStop(condition, replay.position_index, words,
                            ran=replay.position_index - start)  # fmt: skip
    return FileStop(condition, replay.position_index, None, ran=replay.position_index - start)


def _until_anomaly(
    replay: FileReplay,
    condition: Condition,
    anomalies: list[dict[str, Any]],
    start: int,
    last: int,
) -> FileStop:
    """``anomaly`` over the file's own findings: the first after ``start`` (a finding about
    the final tree is at the end)."""
    first: tuple[int, dict[str, Any]] | None = None
    for item in anomalies:
        position = anomaly_position(replay, item)
        position = replay.end if position is None else position
        if position > start and (first is None or position < first[0]):
            first = (position, item)
    if first is None or first[0] > last:
        replay.goto(last)
        return FileStop(condition, replay.position_index, None, ran=last - start)
    position, item = first
    replay.goto(position)
    node = "" if item.get("node") is None else f" at node {item['node']}"
    return FileStop(
        condition,
        position,
        f"inspect's {item['kind']} check fired{node}: {item['detail']}",
        ran=position - start,
    )
