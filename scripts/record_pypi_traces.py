"""Record small trace files of real MCTS packages from PyPI, for ``mcts-lab inspect``'s tests.

    python scripts/record_pypi_traces.py --install      # pip install each into build/pypi_mcts/
    python scripts/record_pypi_traces.py                # write tests/mcts_lab/inspect/pypi_traces/
    python scripts/record_pypi_traces.py --measure 25   # inspect 25 seeds of each, write nothing

The files are the same bytes on every run (seeded searches, gzip without a time stamp).

Each package is run as its README or its documented interface has a developer run it, and its
search is written as an mcts-trace file: through ``mcts_lab.traces.Recorder`` where the package's
loop can be followed (every selection decision with the terms the package computed, every
expansion and backup: ``fastmcts``, ``mctspy``, ``monte-carlo-tree-search``), as its finished
tree otherwise (``imparaai-montecarlo``, ``mcts-simple``). The packages are never imported by
the tests: the files are committed, so CI needs none of them.

The packages and what inspect must say (tests/mcts_lab/inspect/test_pypi_traces.py):

- ``fastmcts`` 0.3.0 as its README starts it (players 1 and -1): a node's ``q`` reads the
  results of the player whose index is 0 when the parent's ``next_to_move == 0``, else player
  -1's: with players 1 and -1 every node takes player -1's view, so X's choices follow O's
  values. Flagged. With the players 0 and 1 its abstract state documents: clean.
- ``imparaai-montecarlo`` 1.3.1: selection that reaches a finished game expands nothing and
  backs nothing up, so every later iteration does nothing (the stall). Flagged. Every new child
  is rolled out at expansion: declared as ``visits_per_iteration``, no false alarm.
- ``mctspy`` 0.1.1, ``mcts-simple`` 1.1.0, ``monte-carlo-tree-search`` 2.1.0: clean.

Each package is installed into its own folder (``--install``; ``pip install --no-deps
--target``): ``monte-carlo-tree-search`` is imported as ``mcts``, the name of another package,
and ``fastmcts`` asks for NumPy below 2 (it runs on NumPy 2 as well). The games are the lab's
tic-tac-toe and Connect Four behind each package's state interface (``fastmcts``'s README game
is its own 3 x 3 board, the lab's tic-tac-toe cell for cell, and its own Connect Four on a
7 x 7 board, which no lab game is: that file names no game).
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import json
import math
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mcts_lab.common import build_game  # noqa: E402
from mcts_lab.traces import Recorder  # noqa: E402

#: Each package and the version the files record.
PACKAGES = {
    "fastmcts": "0.3.0",
    "imparaai-montecarlo": "1.3.1",
    "mctspy": "0.1.1",
    "mcts-simple": "1.1.0",
    "monte-carlo-tree-search": "2.1.0",
}
#: What a package needs beside itself (``--no-deps`` leaves NumPy to the lab's own).
EXTRAS = {"mcts-simple": ["tqdm", "msgpack"]}
SITE = ROOT / "build" / "pypi_mcts"
OUT = ROOT / "tests" / "mcts_lab" / "inspect" / "pypi_traces"
#: The most legal moves in each game: imparaai's visits per iteration.
MOST_MOVES = {"tic_tac_toe": 9, "connect_four": 7}


# ------------------------------------------------------------------ the games, as packages ask


class LabState:
    """A lab game's state behind the methods the packages call (each package's names are
    added by its adapter below); ``sign`` maps the lab's player 0/1 to the package's numbers."""

    def __init__(self, game: Any, state: Any, players: tuple[int, int]) -> None:
        self.game, self.state, self.players = game, state, players

    @property
    def over(self) -> bool:
        return bool(self.game.is_terminal(self.state))

    @property
    def player(self) -> int:
        """The lab's player to move (0 or 1)."""
        return int(self.game.current_player(self.state))

    def after(self, action: int) -> LabState:
        (outcome, _), *_ = self.game.chance_outcomes(self.state, action)
        return type(self)(
            self.game, self.game.next_state(self.state, action, outcome), self.players
        )

    def result(self) -> float | None:
        """1 when the lab's player 0 won, -1 when player 1 won, 0 a draw, ``None`` not over."""
        if not self.over:
            return None
        returns = self.game.returns(self.state)
        return float((returns[0] > returns[1]) - (returns[0] < returns[1]))

    def label(self, action: int) -> str:
        return str(self.game.action_label(self.state, action))


# ------------------------------------------------------------------ fastmcts and mctspy


class _LabMove:
    """A move in fastmcts's and mctspy's interface: the lab action, hashable."""

    def __init__(self, action: int) -> None:
        self.action = action

    def __repr__(self) -> str:
        return f"action {self.action}"


def _two_player_state(base: type) -> type:
    """A lab game in fastmcts's / mctspy's ``TwoPlayersAbstractGameState`` (``next_to_move``
    the package's player number, ``game_result`` 1 when the first player won)."""

    class State(LabState, base):  # type: ignore[misc, valid-type]
        def __init__(self, game: Any, state: Any, players: tuple[int, int]) -> None:
            LabState.__init__(self, game, state, players)

        @property
        def next_to_move(self) -> int:
            return self.players[self.player]

        @property
        def game_result(self) -> float | None:
            return self.result()

        def is_game_over(self) -> bool:
            return self.over

        def move(self, move: _LabMove) -> State:
            return self.after(move.action)  # type: ignore[return-value]

        def get_legal_actions(self) -> list[_LabMove]:
            return [_LabMove(int(a)) for a in self.game.legal_actions(self.state)]

    return State


def _readme_tic_tac_toe_cell(move: Any) -> int:
    """fastmcts's / mctspy's own tic-tac-toe move (board[x, y]) as the lab's cell (row x)."""
    return int(move.x_coordinate) * 3 + int(move.y_coordinate)


def record_int8_style(
    package: str,
    *,
    game: str,
    seed: int,
    iterations: int,
    own_board: bool,
    players: tuple[int, int] = (1, -1),
) -> dict[str, Any]:
    """One search of ``fastmcts`` or ``mctspy`` (both from the int8.io guide: the same node
    API), recorded call by call through the package's own loop (``_tree_policy``, ``rollout``,
    ``backpropagate``). ``own_board``: the package's own example game as its README starts it
    (players 1 and -1) instead of the lab's game behind its abstract state."""
    import numpy as np

    nodes_module = importlib.import_module(f"{package}.tree.nodes")
    search_module = importlib.import_module(f"{package}.tree.search")
    common = importlib.import_module(f"{package}.games.common")
    node_class = nodes_module.TwoPlayersGameMonteCarloTreeSearchNode
    random.seed(seed)
    np.random.seed(seed)
    c_param = 1.4  # both packages' default
    if own_board:
        if game == "tic_tac_toe":
            where = "games.tictactoe" if package == "fastmcts" else "games.examples.tictactoe"
            module = importlib.import_module(f"{package}.{where}")
            start: Any = module.TicTacToeGameState(np.zeros((3, 3)), next_to_move=1)
        else:  # fastmcts's README Connect Four: a 7 x 7 board, four in a row
            module = importlib.import_module("fastmcts.games.connect4")
            start = module.Connect4GameState(np.zeros((7, 7)), next_to_move=1, win=4)
        lab_game = game if game == "tic_tac_toe" else None
        index = {1: 0, -1: 1}  # the package's players 1 and -1 are the lab's 0 and 1

        def label(parent: Any, move: Any) -> tuple[str, int]:
            if lab_game == "tic_tac_toe":
                cell = _readme_tic_tac_toe_cell(move)
                return "abc"[cell % 3] + str(cell // 3 + 1), cell
            return f"col {int(move.x_coordinate) + 1}", int(move.x_coordinate)

        def player_of(state: Any) -> int:
            return -1 if state.is_game_over() else index[int(state.next_to_move)]
    else:
        lab = build_game(game)
        state_class = _two_player_state(common.TwoPlayersAbstractGameState)
        start = state_class(lab, lab.initial_state(), players)
        lab_game = game
        index = {players[0]: 0, players[1]: 1}

        def label(parent: Any, move: Any) -> tuple[str, int]:
            return parent.label(move.action), move.action

        def player_of(state: Any) -> int:
            return -1 if state.is_game_over() else state.player

    root_node = node_class(state=start)
    mcts = search_module.MonteCarloTreeSearch(root_node, **_serial(package))
    rec = Recorder(
        game=lab_game,
        settings={"tree_policy": "uct", "c": c_param * math.sqrt(2), "c_param": c_param},
        seed=seed,
        writer=package,
        writer_version=PACKAGES[package],
    )
    ids = {id(root_node): rec.root(player=player_of(start))}
    rollout_moves = [0]
    leaf: list[Any] = []

    def value(node: Any, reward: float) -> float:
        """The leaf's result from the edge view: the player who moved into the node."""
        mover = player_of(node.state) if node.parent is None else player_of(node.parent.state)
        return float(reward) if mover == 0 else -float(reward)

    def best_child(self: Any, c_param: float = c_param) -> Any:
        chosen = original["best_child"](self, c_param)
        terms = []
        for child in self.children:
            q = round(child.q / child.n, 6)  # as the package reads it
            bonus = round(c_param * math.sqrt(2 * math.log(self.n) / child.n), 6)
            terms.append({"node": ids[id(child)], "visits": int(child.n), "q": q, "bonus": bonus})
        rec.select(ids[id(self)], ids[id(chosen)], terms=terms, rule="uct")
        return chosen

    def expand(self: Any) -> Any:
        child = original["expand"](self)
        move = child.parent_action if hasattr(child, "parent_action") else _last_move(self, child)
        text, action = label(self.state, move)
        ids[id(child)] = rec.expand(
            ids[id(self)], move=text, action=action, player=player_of(child.state)
        )
        return child

    def rollout(self: Any) -> Any:
        leaf[:] = [self]
        rollout_moves[0] = 0
        return original["rollout"](self)

    def rollout_policy(*args: Any) -> Any:
        rollout_moves[0] += 1
        return original["rollout_policy"](*args)

    def backpropagate(self: Any, reward: Any) -> None:
        rec.backup(ids[id(self)], value(self, reward))
        original["backpropagate"](self, reward)
        if self.parent is None:
            node = leaf[0]
            finished = node.state.is_game_over()
            rec.finish(
                leaf=ids[id(node)],
                leaf_value=value(node, reward),
                evaluation="terminal" if finished else "rollout",
                rollout_moves=rollout_moves[0],
            )

    original: dict[str, Callable[..., Any]] = {}
    patches = {
        "best_child": best_child,
        "expand": expand,
        "rollout": rollout,
        "backpropagate": backpropagate,
    }
    with _patched(node_class, patches, original):
        base = nodes_module.MonteCarloTreeSearchNode
        original["rollout_policy"] = base.__dict__["rollout_policy"]
        policy = original["rollout_policy"]
        if isinstance(policy, staticmethod):  # fastmcts's; mctspy's is a method
            original["rollout_policy"] = policy.__func__
            base.rollout_policy = staticmethod(rollout_policy)
        else:
            base.rollout_policy = rollout_policy
        try:
            for _ in range(iterations):  # the package's serial loop, one iteration at a time
                node = mcts._tree_policy()
                node.backpropagate(node.rollout())
        finally:
            base.rollout_policy = policy
    for node, node_id in _walk(root_node, ids):
        wins_first = node._results.get(1, 0.0) - node._results.get(-1, 0.0)
        sums = [wins_first, -wins_first]
        rec.set_stats(node_id, visits=int(node.n), value_sums=sums)
    return rec.document()


def _serial(package: str) -> dict[str, Any]:
    return {"num_processes": 1} if package == "fastmcts" else {}


def _last_move(parent: Any, child: Any) -> Any:
    """mctspy keeps no move on a child: the move is the one whose state the child holds."""
    for move in parent.state.get_legal_actions():
        after = parent.state.move(move)
        if _same_state(after, child.state):
            return move
    raise ValueError("no move leads to the new child")


def _same_state(a: Any, b: Any) -> bool:
    if hasattr(a, "board"):
        import numpy as np

        return bool(np.array_equal(a.board, b.board))
    return bool(a.state == b.state)


def _walk(root: Any, ids: dict[int, int]) -> Iterator[tuple[Any, int]]:
    stack = [root]
    while stack:
        node = stack.pop()
        yield node, ids[id(node)]
        stack.extend(node.children)


@contextmanager
def _patched(cls: type, patches: dict[str, Callable[..., Any]], original: dict[str, Any]):
    for name, function in patches.items():
        original[name] = getattr(cls, name)
        setattr(cls, name, function)
    try:
        yield
    finally:
        for name in patches:
            setattr(cls, name, original[name])


# ------------------------------------------------------------------ monte-carlo-tree-search


def record_monte_carlo_tree_search(*, game: str, seed: int, iterations: int) -> dict[str, Any]:
    """``monte-carlo-tree-search`` 2.1.0 (imported as ``mcts``): rewards from the view of the
    player ``get_current_player`` calls 1 (the lab's player 0), ``player * totalReward / n``
    chosen with ``C sqrt(ln N / n)``; recorded through its own round (``execute_round``)."""
    searcher_module = importlib.import_module("mcts.searcher.mcts")
    base = importlib.import_module("mcts.base.base")

    class State(LabState, base.BaseState):  # type: ignore[misc]
        def get_current_player(self) -> int:
            return 1 if self.player == 0 else -1

        def get_possible_actions(self) -> list[int]:
            return [int(a) for a in self.game.legal_actions(self.state)]

        def take_action(self, action: int) -> State:
            return self.after(action)  # type: ignore[return-value]

        def is_terminal(self) -> bool:
            return self.over

        def get_reward(self) -> float:
            return float(self.result() or 0.0)

    random.seed(seed)
    lab = build_game(game)
    c = math.sqrt(2)  # the package's default exploration constant
    searcher = searcher_module.MCTS(iteration_limit=iterations, exploration_constant=c)
    searcher.root = searcher_module.TreeNode(State(lab, lab.initial_state(), (0, 1)), None)
    rec = Recorder(
        game=game,
        settings={"tree_policy": "uct", "c": c},
        seed=seed,
        writer="monte-carlo-tree-search",
        writer_version=PACKAGES["monte-carlo-tree-search"],
    )

    def player(node: Any) -> int:
        return -1 if node.is_terminal else node.state.player

    ids = {id(searcher.root): rec.root(player=player(searcher.root))}
    original: dict[str, Callable[..., Any]] = {}

    def get_best_child(self: Any, node: Any, exploration: float) -> Any:
        chosen = original["get_best_child"](self, node, exploration)
        sign = node.state.get_current_player()
        terms = []
        for child in node.children.values():
            q = round(sign * child.totalReward / child.numVisits, 6)
            bonus = round(exploration * math.sqrt(math.log(node.numVisits) / child.numVisits), 6)
            terms.append(
                {"node": ids[id(child)], "visits": child.numVisits, "q": q, "bonus": bonus}
            )
        rec.select(ids[id(node)], ids[id(chosen)], terms=terms, rule="uct")
        return chosen

    def expand(self: Any, node: Any) -> Any:
        child = original["expand"](self, node)
        action = next(a for a, k in node.children.items() if k is child)
        ids[id(child)] = rec.expand(
            ids[id(node)], move=node.state.label(action), action=action, player=player(child)
        )
        return child

    def backpropagate(self: Any, node: Any, reward: float) -> None:
        leaf = node
        at = node
        while at is not None:
            mover = player(at) if at.parent is None else player(at.parent)
            rec.backup(ids[id(at)], reward if mover == 0 else -reward)
            at = at.parent
        original["backpropagate"](self, node, reward)
        mover = player(leaf) if leaf.parent is None else player(leaf.parent)
        rec.finish(
            leaf=ids[id(leaf)],
            leaf_value=reward if mover == 0 else -reward,
            evaluation="terminal" if leaf.is_terminal else "rollout",
        )

    patches = {"get_best_child": get_best_child, "expand": expand, "backpropagate": backpropagate}
    with _patched(searcher_module.MCTS, patches, original):
        for _ in range(iterations):
            searcher.execute_round()
    stack = [searcher.root]
    while stack:
        node = stack.pop()
        mover = player(node) if node.parent is None else player(node.parent)
        total = float(node.totalReward)
        rec.set_stats(
            ids[id(node)], visits=node.numVisits, value_sum=total if mover == 0 else -total
        )
        stack.extend(node.children.values())
    return rec.document()


# ------------------------------------------------------------------ mcts-simple


def record_mcts_simple(*, game: str, seed: int, iterations: int) -> dict[str, Any]:
    """``mcts-simple`` 1.1.0's ``UCT`` (no transpositions: the format holds a tree): ``w`` is
    the wins of the player who moved into a node (a draw half a win each), in [0, 1], chosen by
    ``w / n + c sqrt(ln N / n)``. Its tree keeps every rollout's nodes, and its expansion takes
    a random child among all (one a rollout already visited, too): the file states that first
    play. Written as its finished tree (``Recorder(tree_only=True)``)."""
    simple = importlib.import_module("mcts_simple")
    lab = build_game(game)

    class Game(simple.Game):  # type: ignore[misc]
        def __init__(self) -> None:
            self.state = lab.initial_state()

        def get_state(self) -> str:
            return str(lab.format_state(self.state))

        def number_of_players(self) -> int:
            return 2

        def current_player(self) -> int:
            return 0 if lab.is_terminal(self.state) else int(lab.current_player(self.state))

        def possible_actions(self) -> list[int]:
            return [int(a) for a in lab.legal_actions(self.state)]

        def take_action(self, action: int) -> None:
            (outcome, _), *_ = lab.chance_outcomes(self.state, action)
            self.state = lab.next_state(self.state, action, outcome)

        def has_outcome(self) -> bool:
            return bool(lab.is_terminal(self.state))

        def winner(self) -> list[int]:
            returns = lab.returns(self.state)
            best = max(returns)
            return [p for p in range(2) if returns[p] == best]

        def render(self) -> None:
            pass

    c = math.sqrt(2)  # the package's default
    search = simple.UCT(Game(), allow_transpositions=False, seed=seed, c=c)
    for _ in range(iterations):
        search.step()
    rec = Recorder(
        game=game,
        settings={"tree_policy": "uct", "c": c, "first_play": "a random child at expansion"},
        seed=seed,
        value_range=(0.0, 1.0),
        tree_only=True,
        iterations=iterations,
        writer="mcts-simple",
        writer_version=PACKAGES["mcts-simple"],
    )
    root = rec.root(player=int(lab.current_player(lab.initial_state())))
    rec.set_stats(root, visits=search.root.n)  # it keeps no value at its root
    stack = [(search.root, root, lab.initial_state())]
    while stack:
        node, node_id, state = stack.pop()
        for action, child in node.children.items():
            (outcome, _), *_ = lab.chance_outcomes(state, action)
            after = lab.next_state(state, action, outcome)
            player = -1 if lab.is_terminal(after) else int(lab.current_player(after))
            child_id = rec.expand(
                node_id, move=lab.action_label(state, action), action=int(action), player=player
            )
            rec.set_stats(child_id, visits=child.n, value_sum=child.w)
            stack.append((child, child_id, after))
    return rec.document()


# ------------------------------------------------------------------ imparaai-montecarlo


def record_imparaai(*, game: str, seed: int, iterations: int) -> dict[str, Any]:
    """``imparaai-montecarlo`` 1.3.1 as its README has it: a ``child_finder`` that adds every
    move (``player_number`` the player to move there) and a ``node_evaluator`` that scores a
    finished game for the root's player (1, -1; 0 a draw: the README's ``None`` would send its
    rollout into a finished game). ``win_value`` is from the root player's view ("root"),
    chosen by ``Q + 0.35 sqrt(ln N / n)``; every new child is rolled out at once, so one
    iteration gives a node up to the game's most moves in visits (declared). Written as its
    finished tree, ``iterations`` the ``simulate`` count."""
    node_module = importlib.import_module("montecarlo.node")
    montecarlo_module = importlib.import_module("montecarlo.montecarlo")
    lab = build_game(game)
    random.seed(seed)
    start = LabState(lab, lab.initial_state(), (0, 1))
    root = node_module.Node(start)
    root.player_number = start.player

    def child_finder(node: Any, montecarlo: Any) -> None:
        if node.state.over:
            return
        for action in lab.legal_actions(node.state.state):
            child = node_module.Node(node.state.after(int(action)))
            child.player_number = -1 if child.state.over else child.state.player
            child.action = int(action)
            node.add_child(child)

    def node_evaluator(node: Any, montecarlo: Any) -> float | None:
        result = node.state.result()
        if result is None:
            return None
        return result if root.player_number == 0 else -result

    montecarlo = montecarlo_module.MonteCarlo(root)
    montecarlo.child_finder = child_finder
    montecarlo.node_evaluator = node_evaluator
    montecarlo.simulate(iterations)
    rec = Recorder(
        game=game,
        settings={"tree_policy": "uct", "c": root.discovery_factor},
        seed=seed,
        view="root",
        tree_only=True,
        iterations=iterations,
        writer="imparaai-montecarlo",
        writer_version=PACKAGES["imparaai-montecarlo"],
    )
    root_id = rec.root(player=root.player_number)
    rec.set_stats(root_id, visits=root.visits, value_sum=float(root.win_value))
    stack = [(root, root_id)]
    while stack:
        node, node_id = stack.pop()
        for child in node.children:
            child_id = rec.expand(
                node_id,
                move=node.state.label(child.action),
                action=child.action,
                player=child.player_number,
            )
            rec.set_stats(child_id, visits=child.visits, value_sum=float(child.win_value))
            stack.append((child, child_id))
    doc = rec.document()
    doc["visits_per_iteration"] = MOST_MOVES[game]
    return doc


# ------------------------------------------------------------------ the runs


#: Each kind of run: its name, package, recorder and keyword arguments, and how many seeds'
#: files are committed (the test reads those; ``--measure`` runs more).
KINDS: list[tuple[str, str, Callable[..., dict[str, Any]], dict[str, Any], int]] = [
    ("fastmcts-readme", "fastmcts", record_int8_style, {"own_board": True}, 2),
    ("fastmcts-players01", "fastmcts", record_int8_style, {"players": (0, 1)}, 1),
    ("mctspy", "mctspy", record_int8_style, {}, 1),
    ("monte-carlo-tree-search", "monte-carlo-tree-search", record_monte_carlo_tree_search, {}, 1),
    ("mcts-simple", "mcts-simple", record_mcts_simple, {}, 1),
    ("imparaai", "imparaai-montecarlo", record_imparaai, {}, 1),
]
#: Iterations per game.
ITERATIONS = {"tic_tac_toe": 200, "connect_four": 150}
#: imparaai's: its stall shows once the root has fewer visits than the iterations, and its
#: Connect Four stalls with up to 6,000 root visits (an iteration gives up to 7).
IMPARAAI_ITERATIONS = {"tic_tac_toe": 3000, "connect_four": 10000}


def runs(
    seeds: int | None = None,
) -> Iterator[tuple[str, str, Callable[..., dict[str, Any]], dict]]:
    """Each file's name, package, recorder and keyword arguments: the committed seeds, or
    ``seeds`` of every kind."""
    for name, package, record, extra, committed in KINDS:
        for seed in range(committed if seeds is None else seeds):
            for game in ("tic_tac_toe", "connect_four"):
                short = "ttt" if game == "tic_tac_toe" else "c4"
                iterations = (IMPARAAI_ITERATIONS if name == "imparaai" else ITERATIONS)[game]
                kwargs = {"game": game, "seed": seed, "iterations": iterations} | extra
                if record is record_int8_style:
                    kwargs |= {"package": package}
                    kwargs.setdefault("own_board", package == "mctspy" and game == "tic_tac_toe")
                yield f"{name}-{short}-{seed}", package, record, kwargs


def install(site: Path) -> None:
    """Each package into its own folder under ``site`` (``pip install --no-deps --target``)."""
    for package, version in PACKAGES.items():
        target = site / package
        wanted = [f"{package}=={version}", *EXTRAS.get(package, [])]
        command = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"]
        subprocess.run([*command, "--target", str(target), *wanted], check=True)


def record_one(
    site: Path, package: str, record: Callable[..., dict[str, Any]], kwargs: dict
) -> dict:
    """One run with ``package`` importable from its folder under ``site``."""
    folder = site / package
    if not folder.is_dir():
        raise SystemExit(f"{package} is not installed in {folder}: run with --install")
    sys.path.insert(0, str(folder))
    try:
        return record(**kwargs)
    finally:
        sys.path.remove(str(folder))


def measure(site: Path, seeds: int, only: str = "") -> None:
    """Every kind over ``seeds`` seeds and both games, inspected (nothing written): per kind
    and game, the kinds of the first anomalies (``clean``: none), of the file with its records
    and of its tree alone."""
    from mcts_lab.inspect.inspection import inspect_trace
    from mcts_lab.traces import parse

    def first(doc: dict[str, Any]) -> str:
        anomalies = inspect_trace(parse(doc))["anomalies"]
        return str(anomalies[0]["kind"]) if anomalies else "clean"

    tally: dict[str, list[tuple[str, str]]] = {}
    for name, package, record, kwargs in runs(seeds):
        if only not in name:
            continue
        doc = record_one(site, package, record, kwargs)
        with_records = first(doc)
        doc.pop("trace", None)
        tally.setdefault(name.rsplit("-", 1)[0], []).append((with_records, first(doc)))
    for kind, found in tally.items():
        records = {k: [a for a, _ in found].count(k) for k in sorted({a for a, _ in found})}
        tree = {k: [b for _, b in found].count(k) for k in sorted({b for _, b in found})}
        print(f"{kind}: {len(found)} runs; first anomaly {records}; tree alone {tree}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--install", action="store_true", help="pip install the packages first")
    parser.add_argument("--site", type=Path, default=SITE, help="the packages' folders")
    parser.add_argument("--out", type=Path, default=OUT, help="where the files go")
    parser.add_argument("--only", default="", help="only the files whose name has this text")
    parser.add_argument(
        "--measure", type=int, metavar="SEEDS", help="inspect SEEDS runs of each kind instead"
    )
    args = parser.parse_args(argv)
    if args.install:
        install(args.site)
    if args.measure:
        measure(args.site, args.measure, args.only)
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, package, record, kwargs in runs():
        if args.only not in name:
            continue
        doc = record_one(args.site, package, record, kwargs)
        path = args.out / f"{name}.json.gz"
        text = json.dumps(doc, separators=(",", ":")) + "\n"
        # mtime 0: the same run gives the same bytes
        with gzip.GzipFile(path, "wb", mtime=0) as out:
            out.write(text.encode("utf-8"))
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"{shown}: {len(doc['nodes'])} nodes, {len(doc.get('trace', []))} records")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
