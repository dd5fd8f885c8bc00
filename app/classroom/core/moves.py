"""A question about a move, and where its answers are drawn: the boxes of the teacher's tree and
the cells of the board a phone taps to answer, and where the class's answers are shaded
(``class_heat``).

Pure (no Streamlit). A quiz question is *about a move* when it names the tree node it asks
about (``question.data["node_id"]``: the selection question's node, the expansion question's)
and its answers are labels of that node's legal moves ("b2", "col 4"); "Yes, another move" is
no move. :func:`move_map` finds, for each answer, the node of that move when the tree has one
(a tap on its box answers it) and, for tic-tac-toe and Connect Four, the cell or column on the
board of the node's position (a tap there answers it). :meth:`MoveMap.to_dict` is what the
teacher's frame carries for the phones (``Frame.moves``); :meth:`MoveMap.from_dict` reads it
back and never fails (a key missing or of the wrong kind reads as nothing to tap).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from mcts_core.game import Action, State
from mcts_core.search import Search

__all__ = ["BoardTaps", "MoveMap", "move_map"]

#: Board views a phone draws for a move question (``GameSpec.board_view``): a grid of cells
#: where a move is a cell (tic-tac-toe) or a column (Connect Four).
TAP_VIEWS = ("tic_tac_toe", "connect_four")
#: A board a phone draws has at most this many rows and columns (bad data draws nothing).
MAX_SIDE = 12


@dataclass(frozen=True)
class BoardTaps:
    """The position a move question asks about, as a phone draws it to be tapped.

    Attributes:
        view: "tic_tac_toe" (a move is a cell, numbered row by row from the top left) or
            "connect_four" (a move is a column, numbered from the left).
        rows: the board's rows, top first, one character per cell: "X", "O" or "." (empty).
        taps: answer -> the cell (tic-tac-toe) or column (Connect Four) that answers it.
    """

    view: str
    rows: tuple[str, ...]
    taps: dict[str, int]

    def to_dict(self) -> dict[str, Any]:
        return {"view": self.view, "rows": list(self.rows), "taps": dict(self.taps)}

    @classmethod
    def from_dict(cls, data: object) -> BoardTaps | None:
        """Read back; ``None`` for anything that is not a board this version draws."""
        if not isinstance(data, dict) or data.get("view") not in TAP_VIEWS:
            return None
        rows, taps = data.get("rows"), data.get("taps")
        if not isinstance(rows, list) or not rows or not isinstance(taps, dict):
            return None
        if len(rows) > MAX_SIDE or not all(isinstance(r, str) for r in rows):
            return None
        width = len(rows[0])
        if not 0 < width <= MAX_SIDE or any(len(r) != width for r in rows):
            return None
        if any(set(r) - {"X", "O", "."} for r in rows):
            return None
        cells = len(rows) * width if data["view"] == "tic_tac_toe" else width
        kept = {str(k): v for k, v in taps.items() if _whole(v) and 0 <= v < cells}
        return cls(str(data["view"]), tuple(rows), kept)


@dataclass(frozen=True)
class MoveMap:
    """Where a move question's answers are drawn.

    Attributes:
        poll: the class's poll id the question was opened as ("" before it is known).
        node_id: the tree node the question asks about (whose moves the answers are).
        at_root: whether that node is the search's root (the board tab shows the root).
        nodes: answer -> the tree node id of that move (moves the tree has tried).
        actions: answer -> the game's action (for the teacher's board; not sent to phones).
        board: the board a phone taps, or ``None`` (a game without such a board).
    """

    poll: str
    node_id: int
    at_root: bool
    nodes: dict[str, int]
    actions: dict[str, Action] = field(default_factory=dict, compare=False)
    board: BoardTaps | None = None

    def to_dict(self) -> dict[str, Any]:
        """What the phones get (``Frame.moves``): plain JSON data, no actions."""
        return {
            "poll": self.poll,
            "node_id": self.node_id,
            "at_root": self.at_root,
            "nodes": dict(self.nodes),
            "board": None if self.board is None else self.board.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: object) -> MoveMap | None:
        """Read back from a frame; ``None`` unless it is an object naming a poll."""
        if not isinstance(data, dict):
            return None
        poll, node_id, nodes = data.get("poll"), data.get("node_id"), data.get("nodes")
        if not isinstance(poll, str) or not poll or not _whole(node_id):
            return None
        if not isinstance(node_id, int):  # (for the type checker: _whole said so)
            return None
        kept = (
            {str(k): v for k, v in nodes.items() if _whole(v) and v >= 0}
            if isinstance(nodes, dict)
            else {}
        )
        return cls(
            poll=poll,
            node_id=node_id,
            at_root=data.get("at_root") is True,
            nodes=kept,
            board=BoardTaps.from_dict(data.get("board")),
        )


def move_map(search: Search, question: Any, poll: str = "") -> MoveMap | None:
    """Where ``question``'s answers are drawn in ``search``'s tree and board, or ``None`` when
    it is not about a move (no node named, the node gone, or fewer than two of its answers are
    moves there)."""
    node_id = question.data.get("node_id") if isinstance(question.data, dict) else None
    if not isinstance(node_id, int) or isinstance(node_id, bool):
        return None
    node = search.find_node(node_id)
    if node is None or getattr(node, "player", -1) < 0 or not hasattr(node, "outcome"):
        return None  # (no such node, a finished game, or a chance node: no moves to tap)
    game = search.game
    state = search.state_of(node)
    options = {str(o) for o in question.options}
    actions: dict[str, Action] = {}
    for action in game.legal_actions(state):
        label = str(game.action_label(state, action))
        if label in options and label not in actions:
            actions[label] = action
    if len(actions) < 2:
        return None
    nodes = {}
    for child in node.children:
        label = str(game.action_label(state, child.action))
        if label in actions:
            nodes[label] = child.id
    return MoveMap(
        poll=poll,
        node_id=node_id,
        at_root=node is search.root,
        nodes=nodes,
        actions=actions,
        board=_board(game, state, actions),
    )


def _board(game: Any, state: State, actions: dict[str, Action]) -> BoardTaps | None:
    """The board of ``state`` for tic-tac-toe and Connect Four, each answer on its cell or
    column; ``None`` for another game."""
    try:
        from games.registry import game_spec

        view = game_spec(game.name).board_view
    except (ValueError, AttributeError):
        return None
    if view == "tic_tac_toe":
        text = str(game.format_state(state))
        if len(text) != 9:
            return None
        rows: tuple[str, ...] = (text[0:3], text[3:6], text[6:9])
    elif view == "connect_four":
        rows = tuple("".join(line.split()) for line in str(game.render(state)).splitlines())
    else:
        return None
    taps = {label: a for label, a in actions.items() if _whole(a)}
    return BoardTaps.from_dict({"view": view, "rows": list(rows), "taps": taps})


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
