"""A trace file's moves read with the rules of the registered game it names.

:func:`game_moves` gives a :class:`GameMoves` when the file's header names a registered game
(``game``, ``game_options``, ``position``): each node's move as that game's action (or chance
outcome) and the game state where it was chosen, so views can ask the game what it says about
a move: its short label in a tree box, the board at the root. A node's move is found by the
action number the file gives (``action``: the documented number, ``mcts_lab.common.
action_index``), else by its label (``move`` equal to the game's ``action_label``); an outcome
by its label (the game's ``outcome_label``). A move the rules do not recognise is ``None``
(``mcts-lab inspect`` reports it as ``illegal_move``).

States are worked out on demand, walking down from the nearest known ancestor, so a large
file costs only the nodes asked about. Pure: no Streamlit.
"""

from __future__ import annotations

from typing import Any

from mcts_core.game import Action, State
from mcts_lab.traces.format import Trace

__all__ = ["GameMoves", "game_moves"]

_UNKNOWN = object()  # a node whose move the rules do not recognise


class GameMoves:
    """The registered game a file names, and its nodes' moves in that game.

    Attributes:
        game: the game, built with the file's ``game_options``.
        root_state: the state at the file's root (its ``position``; absent: the start).
    """

    def __init__(self, trace: Trace, game: Any, root_state: State) -> None:
        self.trace = trace
        self.game = game
        self.root_state = root_state
        self._indexed = _indexed_by_action(game.name)
        # node index -> (the action into it, its outcome, the state at it); chance nodes hold
        # their action and the state where it is chosen; _UNKNOWN where the rules disagree
        self._known: dict[int, Any] = {trace.root: (None, None, root_state)}

    def action(self, i: int) -> Any | None:
        """The game's action of the move into node ``i`` (a chance node's own action, an
        outcome node's chance action); ``None`` for the root or an unrecognised move."""
        found = self._resolve(i)
        return None if found is _UNKNOWN else found[0]

    def outcome(self, i: int) -> Any | None:
        """The game's chance outcome into node ``i`` (an outcome node of a chance node; its
        single outcome for a deterministic move); ``None`` for the root or an unrecognised
        move."""
        found = self._resolve(i)
        return None if found is _UNKNOWN else found[1]

    def state_before(self, i: int) -> Any | None:
        """The state where the move into node ``i`` was chosen (``None``: the root, or a move
        the rules do not recognise)."""
        parent = self.trace.nodes[i]["parent"]
        if parent is None:
            return None
        # the parent's state: for an outcome, its chance node's (where the action was chosen)
        found = self._resolve(self.trace.index[parent])
        return None if found is _UNKNOWN else found[2]

    def state(self, i: int) -> Any | None:
        """The state at node ``i`` (a chance node: where its action is chosen)."""
        found = self._resolve(i)
        return None if found is _UNKNOWN else found[2]

    def _resolve(self, i: int) -> Any:
        known = self._known
        chain = []
        at = i
        while at not in known:  # up to the nearest node already worked out
            chain.append(at)
            at = self.trace.index[self.trace.nodes[at]["parent"]]
        for j in reversed(chain):
            parent = self.trace.index[self.trace.nodes[j]["parent"]]
            above = known[parent]
            known[j] = _UNKNOWN if above is _UNKNOWN else self._step(parent, above, j)
        return known[i]

    def _step(self, parent: int, above: tuple[Any, Any, Any], j: int) -> Any:
        """Node ``j``'s (action, outcome, state) from its parent's."""
        game, nodes = self.game, self.trace.nodes
        node = nodes[j]
        if nodes[parent].get("kind") == "chance":  # j is an outcome of the parent's action
            chance_action, _, where = above
            labels = {game.outcome_label(where, chance_action, o): o for o, _ in
                      game.chance_outcomes(where, chance_action)}  # fmt: skip
            outcome = labels.get(node.get("move", ""), _UNKNOWN)
            if outcome is _UNKNOWN:
                return _UNKNOWN
            return chance_action, outcome, game.next_state(where, chance_action, outcome)
        state = above[2]
        if game.is_terminal(state):
            return _UNKNOWN
        legal = list(game.legal_actions(state))
        number = node.get("action")
        action: Action = _UNKNOWN
        if isinstance(number, int):
            by_number = {int(a): a for a in legal} if self._indexed else dict(enumerate(legal))
            action = by_number.get(number, _UNKNOWN)
        if action is _UNKNOWN:
            by_label = {game.action_label(state, a): a for a in legal}
            action = by_label.get(node.get("move", ""), _UNKNOWN)
        if action is _UNKNOWN:
            return _UNKNOWN
        if node.get("kind") == "chance":
            return action, None, state
        outcomes = game.chance_outcomes(state, action)
        if len(outcomes) != 1:
            return _UNKNOWN  # dice without a chance node: not a move of this game's tree
        outcome = outcomes[0][0]
        return action, outcome, game.next_state(state, action, outcome)


def game_moves(trace: Trace) -> GameMoves | None:
    """The file's moves in the registered game its header names; ``None`` when it names none,
    or its game options or root position cannot be used."""
    from games.registry import game_spec
    from mcts_lab.common import build_game, parse_position

    name = trace.header.get("game")
    if not isinstance(name, str):
        return None
    try:
        game_spec(name)
        size = (trace.header.get("game_options") or {}).get("size")
        game = build_game(name, size if isinstance(size, int) else None)
        position = trace.header.get("position")
        root = game.initial_state() if position is None else parse_position(game, position)
    except (ValueError, ImportError, KeyError, TypeError):
        return None
    return GameMoves(trace, game, root)


def _indexed_by_action(name: str) -> bool:
    """True when the game's actions are their own documented numbers (``GameSpec``)."""
    from games.registry import game_spec

    return bool(game_spec(name).indexed_by_action)
