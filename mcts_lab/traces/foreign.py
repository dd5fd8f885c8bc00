"""Other people's search trees in the mcts-trace format: OpenSpiel's and mctx's.

Neither library is imported here: :func:`from_openspiel` reads the attributes of OpenSpiel's
``SearchNode`` and calls the methods of the ``pyspiel`` state it is given; :func:`from_mctx`
reads an ``mctx.Tree``'s arrays with NumPy, so no JAX is needed to convert one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Protocol

import numpy as np

from mcts_core.game import Action, State
from mcts_lab.common import AnyGame
from mcts_lab.traces.format import FORMAT, VERSION
from mcts_lab.traces.shapes import NodeRecord, TraceDocument, TraceHeader

__all__ = ["from_openspiel", "from_mctx"]

# OpenSpiel's pyspiel.PlayerId values (kept here so this module needs no pyspiel import)
_OPENSPIEL_TERMINAL = -4
_OPENSPIEL_CHANCE = -1
# mctx arrays are float32: a reward of 0 or a discount of -1 within this is taken as exact
_CLOSE = 1e-6


class _SpielGameType(Protocol):
    """What :func:`from_openspiel` reads of ``pyspiel.GameType``."""

    utility: object


class _SpielGame(Protocol):
    """What :func:`from_openspiel` calls of a ``pyspiel.Game``."""

    def num_players(self) -> int: ...
    def get_type(self) -> _SpielGameType: ...
    def min_utility(self) -> float: ...
    def max_utility(self) -> float: ...


class _SpielState(Protocol):
    """What :func:`from_openspiel` calls of a ``pyspiel.State``."""

    def get_game(self) -> _SpielGame: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def current_player(self) -> int: ...
    def action_to_string(self, player: int, action: int) -> str: ...
    def history(self) -> list[int]: ...
    def child(self, action: int) -> _SpielState: ...


class _SpielNode(Protocol):
    """What :func:`from_openspiel` reads of OpenSpiel's ``mcts.SearchNode``."""

    action: int
    prior: float
    explore_count: int
    total_reward: float
    outcome: Sequence[float] | None
    children: Sequence[_SpielNode]


def _player(state: _SpielState) -> int:
    """The player to move (-1 at a terminal state; a chance state: see the caller)."""
    return -1 if state.is_terminal() else int(state.current_player())


def from_openspiel(
    root: _SpielNode,
    state: _SpielState,
    *,
    settings: Mapping[str, object] | None = None,
    seed: int | None = None,
) -> TraceDocument:
    """The tree OpenSpiel's ``MCTSBot.mcts_search(state)`` returns, with the state it searched.

    OpenSpiel's ``SearchNode`` keeps ``explore_count`` and ``total_reward`` "from the parent
    node's perspective": the player who chose the move into the node (past chance nodes, the
    decision maker above them), which is the format's "edge" view. A chance state becomes a
    ``chance`` node whose children carry their ``probability``; ``outcome`` (a solved node's
    returns) becomes ``proven``. The game is named ``openspiel:<game string>`` and positions
    are the action histories the lab's OpenSpiel adapter reads, so ``mcts-lab inspect`` can
    check every move against the rules.
    """
    game = state.get_game()
    players = int(game.num_players())
    utility = game.get_type().utility
    zero_sum = getattr(utility, "name", str(utility)).endswith("ZERO_SUM")
    root_player = int(state.current_player()) if not state.is_terminal() else 0
    nodes: list[NodeRecord] = []
    # (search node, parent id, the parent's state, this node's state, view of this node)
    stack: list[tuple[_SpielNode, int | None, _SpielState | None, _SpielState, int]] = [
        (root, None, None, state, root_player)
    ]
    next_id = 0
    while stack:
        node, parent_id, before, here, view = stack.pop()
        node_id = next_id
        next_id += 1
        item: NodeRecord = {"id": node_id, "parent": parent_id}
        chance = here.is_chance_node()
        if chance:
            item["kind"] = "chance"
            item["player"] = view
        else:
            item["player"] = _player(here)
        if before is not None:
            item["move"] = str(before.action_to_string(before.current_player(), node.action))
            item["action"] = int(node.action)
            if before.is_chance_node():
                item["probability"] = float(node.prior)
            else:
                item["prior"] = float(node.prior)
        item["visits"] = int(node.explore_count)
        item["value_sum"] = float(node.total_reward)
        if node.outcome is not None:
            item["proven"] = float(node.outcome[view])
        if node.children:
            item["num_actions"] = len(node.children)
        item["position"] = ",".join(str(a) for a in here.history())
        nodes.append(item)
        child_view = view if chance else max(int(here.current_player()), 0)
        if here.is_terminal():
            continue
        for child in reversed(node.children):
            after = here.child(child.action)
            stack.append((child, node_id, here, after, child_view))
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": f"openspiel:{game}",
        "position": ",".join(str(a) for a in state.history()),
        "settings": dict(settings or {}),
        "seed": seed,
        "iterations": int(root.explore_count),
        "writer": {"name": "open_spiel MCTSBot", "version": ""},
        "players": players,
        "values": {
            "range": [float(game.min_utility()), float(game.max_utility())],
            "view": "edge",
            "zero_sum": zero_sum,
            "backup": "mean",
        },
        "visit_rule": "leaf_visit",
        "nodes": nodes,
    }


def _field(tree: object, name: str) -> np.ndarray:
    value = tree[name] if isinstance(tree, dict) else getattr(tree, name)
    return np.asarray(value)


def _softmax(logits: np.ndarray) -> np.ndarray:
    finite = np.where(np.isfinite(logits), logits, -np.inf)
    top = np.max(finite)
    if not np.isfinite(top):
        return np.zeros_like(logits, dtype=float)
    weights = np.exp(finite - top)
    result: np.ndarray = weights / weights.sum()
    return result


def from_mctx(
    tree: object,
    batch_index: int = 0,
    *,
    two_player: bool = True,
    value_range: tuple[float, float] = (-1.0, 1.0),
    action_labels: Sequence[str] | Callable[[int], str] | None = None,
    settings: Mapping[str, object] | None = None,
    seed: int | None = None,
    game: str | None = None,
    position: str | None = None,
    game_options: Mapping[str, object] | None = None,
    terminal: object = None,
    finished_values: bool = True,
) -> TraceDocument:
    """One batch entry of an ``mctx.Tree`` (or anything with its array fields, a dict too).

    Reads ``node_visits`` and ``node_values`` [B, N], ``parents`` and ``action_from_parent``
    [B, N] (-1 for the root and unused slots), ``children_index`` [B, N, A] (-1: unvisited),
    ``children_visits``, ``children_values`` and ``children_prior_logits`` [B, N, A], and,
    when present, ``children_rewards`` and ``children_discounts``.

    mctx values are "node" values: from the view of the agent acting at the node. With
    ``two_player`` (mctx's two-player convention, discount -1) the players alternate by depth
    from the root's player (player 0 unless ``game`` says otherwise); otherwise one player
    acts everywhere. The backup is a plain mean (``values.backup = "mean"``, so sums must add
    up) only when every reward is 0 and every discount is -1 (two players) or 1 (one player),
    edges into finished games aside (below); otherwise "other". A child's ``prior`` is the
    softmax of its parent's prior logits; its visits and value are the parent's edge
    statistics (``children_visits``, ``children_values``), the root's are ``node_visits`` and
    ``node_values``. Unvisited actions are not listed.

    ``game`` and ``position`` name the searched game (a registered one or
    ``openspiel:<game string>``, with ``game_options``) and the root's position (``None``: the
    start); the file's header says them, so ``mcts-lab inspect`` checks every move against the
    rules. The mctx actions are the game's action numbers (the cell, the column, the
    OpenSpiel id); moves are labelled by the game unless ``action_labels`` is given.

    **Finished games.** mctx searches past the end of a game (its tree has no terminal
    states: the ``recurrent_fn`` is called below a finished game as anywhere else). A node is
    a finished game when ``terminal`` (a bool array [B, N] or [N], e.g. your embeddings'
    ``terminated``) says so, when the edge into it has discount 0 (mctx's end of an
    episode), or when ``game`` is named and its rules say the game is over there. A finished
    game is written as the format's end of a game: ``player`` -1, no children (the nodes mctx
    expanded below it are left out; their visits stay in its own, which the format allows a
    finished game), its mean the edge's ``reward + discount * value`` (turned to its node
    view) so a reward paid on the last move counts, and, with ``game`` named and
    ``finished_values``, ``proven`` its result from the view of the player who did not make
    the last move (a win the range's high, a draw its middle, a loss its low), so
    ``inspect`` flags a finished game scored wrong (``terminal``).

    An mctx tree at ``XX.OO....`` (X to move): c1, action 2, wins (node 1), and mctx searched
    once more below it (node 2); c2 is action 5 (node 3). Values from each node's mover:

    >>> import numpy as np
    >>> from mcts_lab.inspect.inspection import inspect_trace
    >>> from mcts_lab.traces import from_mctx, parse
    >>> tree = {"node_visits": np.array([[4, 2, 1, 1]]),
    ...         "node_values": np.array([[0.5, -1.0, 1.0, 0.0]]),
    ...         "parents": np.array([[-1, 0, 1, 0]]),
    ...         "action_from_parent": np.array([[-1, 2, 0, 5]]),
    ...         "children_index": np.full((1, 4, 9), -1),
    ...         "children_visits": np.zeros((1, 4, 9), dtype=int),
    ...         "children_values": np.zeros((1, 4, 9)),
    ...         "children_prior_logits": np.zeros((1, 4, 9))}
    >>> for node in (1, 2, 3):
    ...     parent, action = tree["parents"][0, node], tree["action_from_parent"][0, node]
    ...     tree["children_index"][0, parent, action] = node
    ...     tree["children_visits"][0, parent, action] = tree["node_visits"][0, node]
    ...     tree["children_values"][0, parent, action] = tree["node_values"][0, node]
    >>> doc = from_mctx(tree, game="tic_tac_toe", position="XX.OO....")
    >>> [(n["id"], n.get("move"), n["player"], n["visits"], n.get("proven"))
    ...  for n in doc["nodes"]]
    [(0, None, 0, 4, None), (1, 'c1', -1, 2, -1.0), (3, 'c2', 1, 1, None)]
    >>> inspect_trace(parse(doc))["anomaly_counts"]
    {}

    Without ``game``, nothing says node 1 is finished; naming the game afterwards shows what
    the rules make of the moves mctx played below it:

    >>> unmarked = from_mctx(tree)
    >>> unmarked["game"], unmarked["position"] = "tic_tac_toe", "XX.OO...."
    >>> inspect_trace(parse(unmarked))["anomaly_counts"]
    {'illegal_move': 2}
    """
    visits = _field(tree, "node_visits")[batch_index]
    values = _field(tree, "node_values")[batch_index]
    parents = _field(tree, "parents")[batch_index]
    action_from_parent = _field(tree, "action_from_parent")[batch_index]
    children_index = _field(tree, "children_index")[batch_index]
    children_visits = _field(tree, "children_visits")[batch_index]
    children_values = _field(tree, "children_values")[batch_index]
    logits = _field(tree, "children_prior_logits")[batch_index]
    low, high = float(value_range[0]), float(value_range[1])
    discount = -1.0 if two_player else 1.0
    edges: dict[str, np.ndarray] = {}
    for name in ("children_rewards", "children_discounts"):
        try:
            edges[name] = _field(tree, name)[batch_index]
        except (AttributeError, KeyError):
            continue
    rewards = edges.get("children_rewards", np.zeros(children_index.shape))
    discounts = edges.get("children_discounts", np.full(children_index.shape, discount))
    ended = _terminal_flags(terminal, batch_index, len(visits))
    rules = _MctxRules(game, position, game_options) if game is not None else None

    def label(action: int, state: State | None) -> str:
        if action_labels is None:
            if rules is not None and state is not None:
                return rules.label(state, action)
            return str(action)
        if callable(action_labels):
            return str(action_labels(action))
        return str(action_labels[action])

    root_state = rules.root if rules is not None else None
    root_player = rules.player(root_state) if rules is not None else 0
    root_ended = bool(ended is not None and ended[0]) or (
        rules is not None and rules.is_terminal(root_state)
    )
    root: NodeRecord = {
        "id": 0,
        "parent": None,
        "player": -1 if root_ended else root_player,
        "visits": int(visits[0]),
        "mean": float(values[0]),
        "num_actions": int(logits.shape[-1]),
    }
    if rules is not None and not root_ended:
        root["num_actions"] = rules.num_actions(root_state)
    if root_ended:
        root["num_actions"] = 0
    nodes: list[NodeRecord] = [root]
    plain = True
    # (node, its depth, its state: None when unknown); a finished game is not entered
    stack: list[tuple[int, int, State | None]] = [] if root_ended else [(0, 0, root_state)]
    while stack:
        parent, depth, state = stack.pop()
        priors = _softmax(logits[parent])
        for action in range(children_index.shape[-1]):
            child = int(children_index[parent, action])
            if child < 0:
                continue
            if int(parents[child]) != parent or int(action_from_parent[child]) != action:
                raise ValueError(
                    f"mctx tree: children_index[{parent}, {action}] = {child}, but node {child}'s "
                    f"parent is {int(parents[child])} and action {int(action_from_parent[child])}"
                )
            after = rules.step(state, action) if rules is not None and state is not None else None
            reward, edge_discount = float(rewards[parent, action]), float(discounts[parent, action])
            finished = (
                bool(ended is not None and ended[child])
                or ("children_discounts" in edges and edge_discount == 0.0)
                or (rules is not None and after is not None and rules.is_terminal(after))
            )
            mean = float(children_values[parent, action])
            plain_edge = abs(reward) <= _CLOSE and abs(edge_discount - discount) <= _CLOSE
            if finished and not plain_edge:
                # the parent's Q of the move, from the parent's mover's view, to the node view
                q = reward + edge_discount * mean
                mean = low + high - q if two_player else q
            elif not plain_edge:
                plain = False
            item: NodeRecord = {
                "id": child,
                "parent": parent,
                "player": -1 if finished else (root_player + depth + 1) % 2 if two_player else 0,
                "move": label(action, state),
                "action": action,
                "prior": float(priors[action]),
                "visits": int(children_visits[parent, action]),
                "mean": mean,
            }
            if finished and finished_values and rules is not None and after is not None:
                mover = rules.player(state)  # who made the last move
                view = 1 - mover if two_player else 0
                result = rules.result(after, view)
                item["proven"] = low + (result + 1.0) / 2.0 * (high - low)
            nodes.append(item)
            if not finished:
                stack.append((child, depth + 1, after))
    header: TraceHeader = {
        "format": FORMAT,
        "version": VERSION,
        "game": game,
        "position": position,
    }
    if game_options is not None:
        header["game_options"] = dict(game_options)
    # ignore: a tree alone has no "trace", which mypy wants spelled out when ** builds one
    return {
        **header,  # type: ignore[typeddict-item]
        "settings": dict(settings or {}),
        "seed": seed,
        "iterations": max(int(visits[0]) - 1, 0),
        "writer": {"name": "mctx", "version": ""},
        "players": 2 if two_player else 1,
        "values": {
            "range": [low, high],
            "view": "node",
            "zero_sum": two_player,
            "backup": "mean" if plain else "other",
        },
        "visit_rule": "leaf_visit",
        "nodes": nodes,
    }


def _terminal_flags(terminal: object, batch_index: int, count: int) -> np.ndarray | None:
    """``from_mctx``'s ``terminal`` as one bool per node of the batch entry (``None``: not
    given)."""
    if terminal is None:
        return None
    flags = np.asarray(terminal, dtype=bool)
    if flags.ndim == 2:
        flags = flags[batch_index]
    if flags.shape != (count,):
        raise ValueError(
            f"terminal: one flag per node ([B, {count}] or [{count}]), got shape {flags.shape}"
        )
    return flags


class _MctxRules:
    """The game ``from_mctx`` is told of: its root state and its moves by action number."""

    def __init__(
        self, name: str, position: str | None, options: Mapping[str, object] | None
    ) -> None:
        from games.registry import game_spec
        from mcts_lab.common import build_game

        size = (options or {}).get("size")
        self.game: AnyGame = build_game(name, size if isinstance(size, int) else None)
        self.indexed = bool(game_spec(name).indexed_by_action)
        self.root = (
            self.game.initial_state() if position is None else self.game.parse_state(position)
        )

    def is_terminal(self, state: State) -> bool:
        return bool(self.game.is_terminal(state))

    def player(self, state: State) -> int:
        return -1 if self.is_terminal(state) else int(self.game.current_player(state))

    def num_actions(self, state: State) -> int:
        return len(list(self.game.legal_actions(state)))

    def _action(self, state: State, number: int) -> Action | None:
        """The game's action numbered ``number`` at ``state`` (``None``: not a legal move)."""
        if self.is_terminal(state):
            return None
        legal = list(self.game.legal_actions(state))
        if self.indexed:
            return next((a for a in legal if int(a) == number), None)
        return legal[number] if 0 <= number < len(legal) else None

    def label(self, state: State, number: int) -> str:
        action = self._action(state, number)
        return str(number) if action is None else str(self.game.action_label(state, action))

    def step(self, state: State, number: int) -> State | None:
        """The state after move ``number`` (``None``: not legal there, or it has dice)."""
        action = self._action(state, number)
        if action is None:
            return None
        outcomes = self.game.chance_outcomes(state, action)
        if len(outcomes) != 1:
            return None
        after: State = self.game.next_state(state, action, outcomes[0][0])
        return after

    def result(self, state: State, player: int) -> float:
        """A finished game's result for ``player``: 1 win, 0 draw, -1 loss."""
        return float(self.game.returns(state)[player])
