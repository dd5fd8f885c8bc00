"""Reading the live tree for the quiz: where the next selection goes, the root's favourite, and
the words and tables several kinds of question share (as specs, :mod:`app.quiz.words`: made
into words in the viewer's language when shown). Pure; changes nothing in the tree."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from app.quiz.words import M, P, Spec, count, join, name, num
from app.words.i18n import N_
from app.words.phrases import fmt, mean_beside
from mcts_core import ChanceNode, Decision, Search
from mcts_core.game import Action
from mcts_core.nodes import ActionNode
from mcts_core.queries import find_node
from mcts_core.trace import IterationTrace

__all__ = [
    "MAX_OPTIONS",
    "PredictedPath",
    "describe_node",
    "even_point",
    "exact_plural_words",
    "exact_words",
    "favourite",
    "mean_before",
    "player",
    "predicted_path",
    "q_cell",
    "result_words",
    "root_rows",
    "untried",
    "visits_words",
    "who",
]

#: At most this many answers to pick from (the right one always among them).
MAX_OPTIONS = 10


@dataclass(frozen=True)
class PredictedPath:
    """Where the next selection goes, as far as it is decided now.

    Attributes:
        decisions: the decisions it will take, root first (their ``chosen`` is the move).
        end: the node it stops at, when that is certain (``None`` when a die decides the way
            on, or the tree is full).
        stop: why it stops at ``end``: "untried", "terminal", "proven", "dice" or "full".
    """

    decisions: tuple[Decision, ...]
    end: ActionNode | None
    stop: str


def predicted_path(search: Search, max_depth: int = 60) -> PredictedPath:
    """The next selection's path, decided by the tree's numbers now (no change to the tree).

    Selection is deterministic at decision nodes (the first maximum of Q + bonus); a chance
    node draws its outcome at random, so the prediction ends there."""
    node = search.root
    decisions: list[Decision] = []
    for _ in range(max_depth):
        if node.player < 0:
            return PredictedPath(tuple(decisions), node, "terminal")
        if node.proven is not None:
            return PredictedPath(tuple(decisions), node, "proven")
        decision = search.preview_decision(node)
        if decision is None:
            if search.tree_full:
                return PredictedPath(tuple(decisions), None, "full")
            return PredictedPath(tuple(decisions), node, "untried")
        decisions.append(decision)
        move = node.children[decision.chosen]
        if isinstance(move, ChanceNode):
            return PredictedPath(tuple(decisions), None, "dice")
        node = move
    return PredictedPath(tuple(decisions), None, "full")


def untried(search: Search, node: ActionNode) -> list[tuple[Action, str]]:
    """The node's untried moves with labels, in the game's own order."""
    state = search.state_of(node)
    game = search.game
    tried = {move.action for move in node.children}
    return [(a, game.action_label(state, a)) for a in game.legal_actions(state) if a not in tried]


def describe_node(search: Search, path: Sequence[Decision], names: Sequence[str]) -> Spec:
    """Where ``path`` ends, in words: "at the root" or "after X a, Y b"."""
    if not path:
        return M(N_("at the root"))
    return M(N_("after {moves}"), moves=played(names, path))


def played(names: Sequence[str], path: Sequence[Decision], *, then: bool = False) -> Spec:
    """The moves of ``path`` with who played them: "X a1, O b2" (``then``: "X a1, then O
    b2")."""
    # TRANSLATORS: a player and the move they chose, in a list: "X a1"
    moves = [M(N_("{player} {move}"), player=player(names, d.player), move=d.chosen_terms.label)
             for d in path]  # fmt: skip
    if not then or not moves:
        return join(moves)
    text = moves[0]
    for move in moves[1:]:
        # TRANSLATORS: the moves selection will take, one after the other: "X a1, then O b2"
        text = M(N_("{moves}, then {move}"), moves=text, move=move)
    return text


def who(names: Sequence[str], player: int) -> str:
    """Player ``player``'s name in English ("player 2" when there is none): in option values."""
    return names[player] if 0 <= player < len(names) else f"player {player}"


def player(names: Sequence[str], who: int) -> Spec:
    """Player ``who``'s name as words ("player 2" when there is none)."""
    if 0 <= who < len(names):
        return name(names[who])
    return M(N_("player {n}"), n=str(who))


def favourite(search: Search) -> tuple[Action, str, int] | None:
    """The root's favourite (the final-move rule's pick): action, label, visits."""
    if not search.root.children:
        return None
    best = search.best_child()
    return best.action, best.label, best.visits


def visits_words(n: int) -> Spec:
    """``n`` visits in words ("1 visit", "1,200 visits")."""
    return P("{n} visit", "{n} visits", n)


def even_point(search: Search) -> float:
    """The backed-up value of a draw: above it is good for a player, below it bad."""
    return search.value_of_raw(0.0)


def result_words(raw: Sequence[float], names: Sequence[str]) -> Spec:
    """A finished game's raw returns in words: who won, or a draw."""
    if len(raw) >= 2 and raw[0] != raw[1]:
        return M(N_("a win for {player}"), player=player(names, 0 if raw[0] > raw[1] else 1))
    return M(N_("a draw"))


def root_rows(
    search: Search, marked_action: Action, exact: dict[Action, float | None] | None = None
) -> tuple[list[list[Spec]], int | None]:
    """The root's moves, most visited first: move, visits, Q (and the exact value)."""
    children = sorted(search.children_summary(), key=lambda c: -c.visits)
    # TRANSLATORS: column headers of the quiz's table of the root's moves (Q stays Q)
    header: list[Spec] = [M(N_("move")), M(N_("visits")), "Q"]
    if exact is not None:
        # TRANSLATORS: a column header: the exact value of a move with perfect play
        header.append(M(N_("perfect play")))
    rows: list[list[Spec]] = [header]
    marked = None
    for i, c in enumerate(children):
        row: list[Spec] = [c.label, count(c.visits), q_cell(c.q, c.mean, c.proven is not None)]
        if exact is not None:
            row.append(exact_words(exact.get(c.action)))
        rows.append(row)
        if c.action == marked_action:
            marked = i
    return rows, marked


def q_cell(q: float, mean: float, proven: bool) -> Spec:
    """A table's Q: a proven move's proven value, the mean of its visits beside it where they
    differ (:func:`app.words.phrases.mean_beside`, as the tree and the board show it)."""
    beside = mean_beside(q, mean, proven)
    if beside is None:
        return num(fmt(q))
    # TRANSLATORS: a proven move's Q (its proven value) and the mean of its visits beside it
    return M(N_("{q} (mean {mean})"), q=num(fmt(q)), mean=num(fmt(beside)))


def mean_before(search: Search, trace: IterationTrace, node_id: int, player: int) -> float:
    """The mean of node ``node_id``'s visits from ``player``'s view before ``trace``'s
    iteration (``search`` is the tree just after it; the trace keeps the value its backup
    added, so the mean before comes back from the mean after). 0.0 for a node not found."""
    node = find_node(search.root, node_id)
    if node is None:
        return 0.0
    visits, total = node.visits, node.mean(player) * node.visits
    update = next((u for u in trace.updates if u.node_id == node_id), None)
    if update is not None and update.view == player:
        visits, total = visits - 1, total - update.added
    return total / visits if visits > 0 else 0.0


def exact_words(value: float | None) -> Spec:
    """An exact value in words: win, loss, draw, the number, or "?" (not known)."""
    if value is None:
        return "?"
    if value >= 1 - 1e-9:
        # TRANSLATORS: the exact value of a move with perfect play (a table's cell)
        return M(N_("win"))
    if value <= -1 + 1e-9:
        # TRANSLATORS: the exact value of a move with perfect play (a table's cell)
        return M(N_("loss"))
    if abs(value) < 1e-9:
        # TRANSLATORS: the exact value of a move with perfect play (a table's cell)
        return M(N_("draw"))
    return num(fmt(value))


def exact_plural_words(value: float | None) -> Spec:
    """An exact value of several moves in words: wins, losses, draws, the number, or "?"."""
    if value is None:
        return "?"
    if value >= 1 - 1e-9:
        # TRANSLATORS: the exact value of several moves: "c1, c3 are wins"
        return M(N_("wins"))
    if value <= -1 + 1e-9:
        # TRANSLATORS: the exact value of several moves: "c1, c3 are losses"
        return M(N_("losses"))
    if abs(value) < 1e-9:
        # TRANSLATORS: the exact value of several moves: "c1, c3 are draws"
        return M(N_("draws"))
    return num(fmt(value))
