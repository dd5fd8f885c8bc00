"""Watch expressions: numbers over the root's statistics, worked out at every iteration of a
trace file or at any moment of a live search (``mcts-lab inspect FILE --watch EXPR``, the
app's Charts tab).

The grammar (a small parser of its own: nothing of the text is ever given to ``eval``)::

    expression := term (("+" | "-") term)*
    term       := factor (("*" | "/") factor)*
    factor     := "-" factor | NUMBER | "(" expression ")" | FUNCTION "(" MOVE ")"
    FUNCTION   := "N" | "Q" | "U"
    MOVE       := "root" | a root move's label (case ignored when unambiguous) | its index

``NUMBER`` is decimal (``2``, ``0.5``, ``1e-3``). A move's label may hold spaces and balanced
parentheses (``N(col 4)``, ``Q(take 1 from heap 2)``); its index is the lab's documented number
(``mcts_lab.common.action_index``: the cell, the 0-based column). Moves are the root's, found
by :func:`mcts_lab.breakpoints.conditions.find_move`, the breakpoints' rule.

The functions, at one moment of the search (after an iteration's backup):

- ``N(move)``: the move's visits (0 before it is tried); ``N(root)``: the root's visits (the
  iteration count of a search from the root).
- ``Q(move)``: the move's mean value **from the view of the player to move at the root**, in
  the run's value range (``[-1, 1]`` or ``[0, 1]``, not rescaled); ``Q(root)``: the root's
  mean, from the same view. A trace file's values are read in its ``values.view``
  (docs/trace_format.md) and turned to that player's view.
- ``U(move)``: the score the root's selection would give the move now, ``Q + bonus`` with the
  run's tree policy and C (``uct``: ``Q + C sqrt(ln N / n)``). A live search: the score of
  :meth:`mcts_core.Search.preview_decision` (with the solver, a proven move's Q is its proven
  value, as the selection has it); before every root move is tried, the same formula for UCT
  and UCB1 (PUCT: empty). A trace file: recomputed from the replayed statistics with the
  file's ``settings`` (``c``; ``tree_policy``, default ``uct``; PUCT takes the nodes'
  ``prior``); empty without a ``c``.

A value that does not exist at that moment is ``None`` (a blank CSV cell, a gap in the app's
chart): Q or U of a move not yet visited, U without a C, a division by zero, an overflow, a
file whose records do not say what was backed up. A bad expression raises :class:`WatchError`
with the column (1-based) of the problem. At most :data:`MAX_CHARS` characters an expression
and :data:`MAX_WATCHES` expressions at once.
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mcts_core import Search
from mcts_core.policies import TREE_POLICY_REGISTRY
from mcts_core.queries import move_value
from mcts_lab.breakpoints.conditions import RootMove, find_move, moves_listed, root_moves
from mcts_lab.traces.format import Trace
from mcts_lab.traces.replay import FileReplay
from mcts_lab.traces.rules import game_moves
from mcts_lab.traces.values import node_players, node_sums, node_views

__all__ = [
    "MAX_CHARS",
    "MAX_DEPTH",
    "MAX_WATCHES",
    "MoveStats",
    "RootStats",
    "Watch",
    "WatchError",
    "WatchTable",
    "evaluate",
    "format_value",
    "parse_watch",
    "parse_watches",
    "search_moves",
    "search_stats",
    "split_watches",
    "trace_moves",
    "trace_rows",
    "watch_table",
]

#: The longest expression, in characters.
MAX_CHARS = 200
#: The most expressions watched at once.
MAX_WATCHES = 10
#: The deepest nesting of parentheses and unary minus in one expression.
MAX_DEPTH = 32

ROOT = "root"
FUNCTIONS = ("N", "Q", "U")


class WatchError(ValueError):
    """An expression that cannot be used; its message is one line, with the column."""


# ------------------------------------------------------------------ statistics


@dataclass(frozen=True, slots=True)
class MoveStats:
    """One root move at one moment: ``visits`` (n), ``q`` (its mean from the root mover's
    view, ``None`` before its first visit) and ``u`` (its selection score, ``None`` where the
    module docstring says)."""

    visits: int
    q: float | None
    u: float | None


@dataclass(frozen=True, slots=True)
class RootStats:
    """The root at one moment: ``iteration`` (the search's count), the root's ``visits`` and
    ``q`` (its mean from its own mover's view; ``None`` before a visit), and ``moves``, each
    root child's :class:`MoveStats` by its move's label (a move not in ``moves`` has not been
    tried)."""

    iteration: int
    visits: int
    q: float | None
    moves: Mapping[str, MoveStats]


# ------------------------------------------------------------------ the grammar


@dataclass(frozen=True, slots=True)
class _Number:
    value: float


@dataclass(frozen=True, slots=True)
class _Call:
    function: str  # "N", "Q" or "U"
    move: str | None  # the move's label; None: the root


@dataclass(frozen=True, slots=True)
class _Negate:
    operand: _Node


@dataclass(frozen=True, slots=True)
class _Binary:
    operator: str
    left: _Node
    right: _Node


_Node = _Number | _Call | _Negate | _Binary


@dataclass(frozen=True)
class Watch:
    """A parsed expression: ``text`` as given (stripped), the labels of the moves it reads."""

    text: str
    tree: _Node
    moves: tuple[str, ...]

    def value(self, stats: RootStats) -> float | None:
        """The expression at ``stats``'s moment (``None``: undefined then)."""
        return evaluate(self.tree, stats)


_NUMBER = re.compile(r"[0-9]+(\.[0-9]*)?([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Parser:
    """Recursive descent over the text, one position at a time (columns are 1-based)."""

    def __init__(self, text: str, moves: Sequence[RootMove]) -> None:
        self.text = text
        self.at = 0
        self.depth = 0
        self.moves = moves
        self.used: list[str] = []

    def fail(self, what: str, at: int | None = None, then: str = "") -> WatchError:
        column = (self.at if at is None else at) + 1
        return WatchError(f"{what} at column {column}" + (f" ({then})" if then else ""))

    def skip(self) -> None:
        while self.at < len(self.text) and self.text[self.at].isspace():
            self.at += 1

    def peek(self) -> str:
        self.skip()
        return self.text[self.at] if self.at < len(self.text) else ""

    def expect(self, char: str) -> None:
        if self.peek() != char:
            found = self.peek()
            raise self.fail(f"expected {char!r}" + (f", found {found!r}" if found else ""))
        self.at += 1

    def parse(self) -> _Node:
        if not self.text.strip():
            raise WatchError("the expression is empty")
        tree = self.expression()
        if self.peek():
            raise self.fail(f"unexpected {self.peek()!r}")
        return tree

    def expression(self) -> _Node:
        tree = self.term()
        while self.peek() in ("+", "-"):
            operator = self.peek()
            self.at += 1
            tree = _Binary(operator, tree, self.term())
        return tree

    def term(self) -> _Node:
        tree = self.factor()
        while self.peek() in ("*", "/"):
            operator = self.peek()
            self.at += 1
            tree = _Binary(operator, tree, self.factor())
        return tree

    def nested(self, start: int) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail(f"nested more than {MAX_DEPTH} deep", start)

    def factor(self) -> _Node:
        char = self.peek()
        start = self.at
        if not char:
            raise self.fail("expected a number, N(move), Q(move), U(move) or '('")
        if char == "-":
            self.at += 1
            self.nested(start)
            operand = self.factor()
            self.depth -= 1
            return _Negate(operand)
        if char == "(":
            self.at += 1
            self.nested(start)
            tree = self.expression()
            self.expect(")")
            self.depth -= 1
            return tree
        number = _NUMBER.match(self.text, self.at)
        if number:
            value = float(number.group())
            if not math.isfinite(value):
                raise self.fail(f"number {number.group()!r} too large", start)
            self.at = number.end()
            return _Number(value)
        name = _NAME.match(self.text, self.at)
        if name is None:
            raise self.fail(f"unexpected {char!r}")
        if name.group() not in FUNCTIONS:
            raise self.fail(
                f"unknown name {name.group()!r}", start, "the functions: N(move), Q(move), U(move)"
            )
        self.at = name.end()
        self.expect("(")
        move = self.move()
        if move is None and name.group() == "U":
            raise self.fail("U takes a move, not root", start, "the root has no selection score")
        return _Call(name.group(), move)

    def move(self) -> str | None:
        """The text up to the ')' that closes the call (balanced parentheses inside)."""
        self.skip()
        start = self.at
        depth = 0
        while self.at < len(self.text):
            char = self.text[self.at]
            if char == "(":
                depth += 1
            elif char == ")":
                if depth == 0:
                    break
                depth -= 1
            self.at += 1
        else:
            raise self.fail("expected ')'")
        text = self.text[start : self.at].strip()
        self.at += 1  # the ')'
        if not text:
            raise self.fail("a move is missing (a label, an index or root)", start)
        if text == ROOT:
            return None
        found = find_move(text, self.moves)
        if found is None:
            listed = moves_listed(self.moves, 10) if self.moves else "none: the game is over"
            raise self.fail(f"unknown move {text!r}", start, f"the root's moves: {listed}")
        if found.label not in self.used:
            self.used.append(found.label)
        return found.label


def parse_watch(text: str, moves: Sequence[RootMove]) -> Watch:
    """``text`` as a :class:`Watch` over the root moves ``moves`` (:func:`search_moves`,
    :func:`trace_moves`); a bad expression raises :class:`WatchError`."""
    if len(text) > MAX_CHARS:
        raise WatchError(f"the expression is {len(text):,} characters long (at most {MAX_CHARS})")
    parser = _Parser(text, moves)
    tree = parser.parse()
    return Watch(text.strip(), tree, tuple(parser.used))


def parse_watches(texts: Sequence[str], moves: Sequence[RootMove]) -> list[Watch]:
    """Every expression of ``texts`` parsed (at most :data:`MAX_WATCHES`); the first bad one
    raises :class:`WatchError` naming it when there are several."""
    if len(texts) > MAX_WATCHES:
        raise WatchError(f"{len(texts)} watch expressions (at most {MAX_WATCHES})")
    watches = []
    for i, text in enumerate(texts):
        try:
            watches.append(parse_watch(text, moves))
        except WatchError as error:
            if len(texts) == 1:
                raise
            raise WatchError(f"watch expression {i + 1}: {error}") from None
    return watches


def split_watches(text: str) -> list[str]:
    """The expressions of one text box: separated by ``;`` or new lines, blanks dropped."""
    return [part.strip() for part in re.split(r"[;\n]", text) if part.strip()]


def evaluate(tree: _Node, stats: RootStats) -> float | None:
    """The value of a parsed expression at ``stats`` (``None``: undefined)."""
    if isinstance(tree, _Number):
        return tree.value
    if isinstance(tree, _Call):
        value: float | None
        if tree.move is None:
            value = {"N": float(stats.visits), "Q": stats.q, "U": None}[tree.function]
        else:
            move = stats.moves.get(tree.move)
            if move is None:  # not tried yet
                value = 0.0 if tree.function == "N" else None
            else:
                value = {"N": float(move.visits), "Q": move.q, "U": move.u}[tree.function]
        return value
    if isinstance(tree, _Negate):
        operand = evaluate(tree.operand, stats)
        return None if operand is None else -operand
    left = evaluate(tree.left, stats)
    right = evaluate(tree.right, stats)
    if left is None or right is None:
        return None
    if tree.operator == "+":
        result = left + right
    elif tree.operator == "-":
        result = left - right
    elif tree.operator == "*":
        result = left * right
    else:
        if right == 0:
            return None
        result = left / right
    return result if math.isfinite(result) else None


def format_value(value: float | None) -> str:
    """A value in a CSV cell: blank for ``None``, else up to 10 significant digits (whole
    numbers without a point, short scientific form from 1e10)."""
    return "" if value is None else f"{value:.10g}"


# ------------------------------------------------------------------ a live search


def search_moves(search: Search) -> list[RootMove]:
    """The legal moves at the search's root, the names an expression may use."""
    return root_moves(search.game, search.root_state)


def search_stats(search: Search) -> RootStats:
    """The root's statistics now (see the module docstring for U)."""
    root = search.root
    player = max(root.player, 0)
    state = search.root_state
    children = root.children
    scores: dict[int, float] = {}
    decision = search.preview_decision() if children else None
    if decision is not None:
        scores = {t.node_id: t.score for t in decision.children}
    elif children and root.visits >= 1:
        config = search.config
        policy = TREE_POLICY_REGISTRY.get(config.tree_policy)
        if policy is not None and not policy.needs_priors and all(c.visits for c in children):
            bonuses = policy.bonus(root.visits, [c.visits for c in children], [], c=config.c)
            scores = {
                c.id: move_value(search, c, player) + bonus
                for c, bonus in zip(children, bonuses, strict=True)
            }
    label = search.game.action_label
    moves = {
        label(state, c.action): MoveStats(
            c.visits, c.mean(player) if c.visits else None, scores.get(c.id)
        )
        for c in children
    }
    q = root.mean(player) if root.visits else None
    return RootStats(search.iterations, root.visits, q, moves)


# ------------------------------------------------------------------ a trace file


def trace_moves(trace: Trace) -> tuple[list[RootMove], dict[int, str]]:
    """The root moves an expression over ``trace`` may name, and each root child's (by node
    index) label among them. With a registered game named in the file, the game's legal moves
    (a move the file's tree never tried reads N 0); otherwise the file's root children by
    their ``move`` label (``#id`` without one) and ``action`` number (else their order)."""
    kids = trace.children[trace.root]
    names: dict[int, str] = {}
    moves: list[RootMove] = []
    found = game_moves(trace)
    if found is not None:
        moves = root_moves(found.game, found.root_state)
        by_action = {m.action: m for m in moves}
        for k in kids:
            move = by_action.get(found.action(k)) if found.action(k) is not None else None
            if move is not None:
                names[k] = move.label
    taken = {m.label for m in moves}
    for order, k in enumerate(kids):
        if k in names:
            continue
        node = trace.nodes[k]
        label = str(node.get("move", f"#{node['id']}"))
        if label in taken:  # a second child with one label: tell them apart by id
            label = f"#{node['id']}"
        number = node.get("action")
        index = number if isinstance(number, int) and not isinstance(number, bool) else order
        moves.append(RootMove(node["id"], label, index))
        taken.add(label)
        names[k] = label
    return moves, names


@dataclass(frozen=True)
class _Scoring:
    """How a file's root selection scores a child: the bonus function and C (``None``: the
    file does not say)."""

    policy: Any
    c: float

    @staticmethod
    def of(trace: Trace) -> _Scoring | None:
        settings = trace.header.get("settings")
        if not isinstance(settings, dict):
            return None
        c = settings.get("c")
        name = settings.get("tree_policy", "uct")
        policy = TREE_POLICY_REGISTRY.get(name) if isinstance(name, str) else None
        if isinstance(c, bool) or not isinstance(c, int | float) or policy is None:
            return None
        return _Scoring(policy, float(c))

    def scores(
        self, visits: int, kids: list[tuple[int, int, float | None, float | None]]
    ) -> list[float | None]:
        """Per child (index, visits, q, prior): its score, ``None`` where it has none."""
        if visits < 1 or not kids or any(n < 1 for _, n, _, _ in kids):
            # an unvisited child scores infinity in most searches: no number to show
            return [None] * len(kids)
        priors = [p for _, _, _, p in kids]
        if self.policy.needs_priors and any(p is None for p in priors):
            return [None] * len(kids)
        bonuses = self.policy.bonus(visits, [n for _, n, _, _ in kids], priors, c=self.c)
        return [None if q is None else q + b for (_, _, q, _), b in zip(kids, bonuses, strict=True)]


def _final_stats(trace: Trace, names: dict[int, str], scoring: _Scoring | None) -> RootStats:
    """The file's own final tree (a tree-only document, or records not from iteration 1)."""
    players = node_players(trace)
    mover = max(players[trace.root], 0)
    sums = node_sums(trace, node_views(trace))

    def mean(i: int) -> float | None:
        total = sums[i][mover] if mover < len(sums[i]) else None
        visits = int(trace.nodes[i]["visits"])
        return None if total is None or not visits else total / visits

    kids = [
        (k, int(trace.nodes[k]["visits"]), mean(k), trace.nodes[k].get("prior"))
        for k in trace.children[trace.root]
    ]
    root_visits = int(trace.nodes[trace.root]["visits"])
    scores = scoring.scores(root_visits, kids) if scoring else [None] * len(kids)
    moves = {names[k]: MoveStats(n, q, u) for (k, n, q, _), u in zip(kids, scores, strict=True)}
    iterations = trace.header.get("iterations")
    count = iterations if isinstance(iterations, int) else root_visits
    return RootStats(count, root_visits, mean(trace.root), moves)


def _record_unknowns(replay: FileReplay, record: dict[str, Any], mover: int) -> set[int]:
    """The ids on the record's path whose value, from ``mover``'s view, the record does not
    say (no backup item, no leaf value to stand in): their Q is unknown from then on."""
    leaf_values = record.get("leaf_values")
    if leaf_values is not None and len(leaf_values) >= 2:
        return set()
    if "leaf_value" in record and replay.zero_sum:
        return set()
    adds = {item["node"] for item in record.get("backup", ())}
    index = replay.trace.index
    return {
        node_id
        for node_id in record["path"]
        if node_id not in adds or not (replay.zero_sum or replay.views[index[node_id]] == mover)
    }


def trace_rows(trace: Trace, watches: Sequence[Watch]) -> Iterator[tuple[int, list[float | None]]]:
    """``(iteration, [each watch's value])`` after every iteration record of ``trace``,
    replayed from the root (:class:`~mcts_lab.traces.replay.FileReplay`, the app's replay); a
    file without records from iteration 1 (a tree-only document) gives one row, its final
    tree, at the header's ``iterations`` (else the root's visits)."""
    _, names = trace_moves(trace)
    scoring = _Scoring.of(trace)
    replay = FileReplay(trace)
    if not replay.steppable:
        stats = _final_stats(trace, names, scoring)
        yield stats.iteration, [w.value(stats) for w in watches]
        return
    mover = max(replay.players[trace.root], 0)
    root = replay.root
    root_id = trace.nodes[trace.root]["id"]
    label_of = {trace.nodes[k]["id"]: label for k, label in names.items()}
    prior_of = {trace.nodes[k]["id"]: trace.nodes[k].get("prior") for k in names}
    unknown: set[int] = set()
    for position in range(1, replay.end + 1):
        replay.goto(position)
        record = trace.records[position - 1]
        unknown |= _record_unknowns(replay, record, mover)
        kids = []
        for child in root.children:
            visits = child.visits
            known = visits and child.id not in unknown
            q = _mean(child, mover) if known else None
            kids.append((child.id, visits, q, prior_of.get(child.id)))
        scores = scoring.scores(root.visits, kids) if scoring else [None] * len(kids)
        moves = {
            label_of[i]: MoveStats(n, q, u)
            for (i, n, q, _), u in zip(kids, scores, strict=True)
            if i in label_of
        }
        q_root = _mean(root, mover) if root.visits and root_id not in unknown else None
        stats = RootStats(int(record["iteration"]), root.visits, q_root, moves)
        yield stats.iteration, [w.value(stats) for w in watches]


def _mean(node: Any, player: int) -> float:
    """A replayed node's mean for ``player`` (a chance node's: its outcomes' sums)."""
    return float(node.mean(player))


# ------------------------------------------------------------------ the command line


@dataclass(frozen=True)
class WatchTable:
    """Every watch's value after every iteration of a file: ``expressions`` (as given,
    stripped) and ``rows``, each ``[iteration, value, ...]`` (``None``: undefined)."""

    expressions: list[str]
    rows: list[list[Any]]

    def csv(self) -> str:
        """The table as CSV: ``iteration,<expression>,...`` then one row per iteration, an
        undefined value a blank cell (:func:`format_value`)."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["iteration", *self.expressions])
        for iteration, *values in self.rows:
            writer.writerow([iteration, *(format_value(v) for v in values)])
        return out.getvalue().rstrip("\n")

    def json(self) -> dict[str, Any]:
        """The ``inspect --json`` field ``watch``: ``{"expressions", "rows"}``."""
        return {"expressions": self.expressions, "rows": self.rows}


def watch_table(trace: Trace, texts: Sequence[str]) -> WatchTable:
    """``texts`` parsed over the file's root moves and evaluated after every iteration
    (:func:`trace_rows`); a bad expression raises :class:`WatchError`."""
    moves, _ = trace_moves(trace)
    watches = parse_watches(texts, moves)
    rows = [[iteration, *values] for iteration, values in trace_rows(trace, watches)]
    return WatchTable([w.text for w in watches], rows)
