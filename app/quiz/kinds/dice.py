"""The ``dice`` question: which outcome of a chance node is the most likely? Graded by the
game's exact probabilities. Also the chance-node facts the ``dice_count`` question shares."""

from __future__ import annotations

from collections import deque

from app.quiz.reading import MAX_OPTIONS
from app.quiz.records import AskContext, GradeContext, Question, QuizKind, Reveal
from app.quiz.words import M, P, Spec, count, num, plain
from app.words.i18n import N_
from mcts_core import ChanceNode, Search
from mcts_core.nodes import Move

#: Nodes looked at when looking for a chance node to ask about.
DICE_SEARCH_NODES = 5_000

#: Both dice questions explain the same thing.
DICE_WHY = N_(
    "A chance node stands for dice. Each time the search passes through it, it draws an outcome "
    "with its exact probability, so after n rolls an outcome of probability p should have come up "
    "about n x p times. The counts wander around that, less and less as n grows."
)


def chance_node(search: Search) -> ChanceNode | None:
    """The most visited chance node with two or more outcomes (breadth first, bounded)."""
    best: ChanceNode | None = None
    queue: deque[Move] = deque([search.root])
    seen = 0
    while queue and seen < DICE_SEARCH_NODES:
        node = queue.popleft()
        seen += 1
        if (
            isinstance(node, ChanceNode)
            and node.visits
            and (best is None or node.visits > best.visits)
        ):
            best = node
        queue.extend(node.children)
    return best


def dice_facts(search: Search, chance: ChanceNode) -> tuple[str, list[tuple[str, float]]]:
    """The chance node's action label and its outcomes: (label, probability) each."""
    state = search.state_of(chance)
    game = search.game
    outcomes = [
        (game.outcome_label(state, chance.action, o) or str(o), p)
        for o, p in game.chance_outcomes(state, chance.action)
    ]
    return game.action_label(state, chance.action), outcomes


def dice_rows(search: Search, node_id: int) -> tuple[list[list[Spec]], int, str]:
    """Every outcome of the chance node now: probability, expected count, times drawn (as
    specs, :mod:`app.quiz.words`; the numbers' ASCII text is ``cell["num"]``)."""
    chance = search.find_node(node_id)
    if not isinstance(chance, ChanceNode):
        return [], 0, ""
    state = search.state_of(chance)
    game = search.game
    drawn = {child.outcome: child.visits for child in chance.children}
    # TRANSLATORS: the dice's table: column headers (an outcome of the dice, its probability,
    # how often it was expected to come up, how often it came up)
    rows: list[list[Spec]] = [
        [M(N_("outcome")), M(N_("probability")), M(N_("expected")), M(N_("came up"))]
    ]
    for outcome, p in game.chance_outcomes(state, chance.action):
        label = game.outcome_label(state, chance.action, outcome) or str(outcome)
        rows.append([label, num(f"{p:.3f}"), num(f"{p * chance.visits:.1f}"),
                     count(drawn.get(outcome, 0))])  # fmt: skip
    return rows, chance.visits, game.action_label(state, chance.action)


def ask(a: AskContext) -> Question | None:
    if not a.at_select:
        return None
    chance = chance_node(a.search)
    if chance is None:
        return None
    action, outcomes = dice_facts(a.search, chance)
    top = max(p for _, p in outcomes)
    likely = [label for label, p in outcomes if p >= top - 1e-12]
    others = [label for label, p in outcomes if p < top - 1e-12]
    if not others:
        return None  # all equally likely: nothing to find
    shown = set(likely[:MAX_OPTIONS] + others[: max(0, 4 - len(likely))])
    options = [label for label, _ in outcomes if label in shown]
    text = P(
        "{move} (node #{node}) needs dice: {n} outcome. Which of these is the most likely?",
        "{move} (node #{node}) needs dice: {n} outcomes. Which of these is the most likely?",
        len(outcomes),
        move=action,
        node=str(chance.id),
        n=plain(len(outcomes)),
    )
    return a.question("dice", text, options, "click", node_id=chance.id, correct=likely)


def grade(g: GradeContext) -> Reveal:
    q = g.question
    correct = tuple(q.data["correct"])
    rows, rolls, action = dice_rows(g.search, q.data["node_id"])
    if not rows:
        return g.dropped(M(N_("that chance node left the tree")))
    top = next(r for r in rows[1:] if r[0] == correct[0])
    # the rolls decide the grammar: "about {expected} times" is a decimal, "about 1.7 times"
    summary = P(
        "'{outcome}' has probability {p}: after {n} roll of {move} it should have come "
        "up about {expected} times, and it came up {drawn}.",
        "'{outcome}' has probability {p}: after {n} rolls of {move} it should have come "
        "up about {expected} times, and it came up {drawn}.",
        rolls,
        outcome=correct[0],
        p=top[1],
        move=action,
        expected=top[2],
        drawn=top[3],
    )
    marked = next(i for i, r in enumerate(rows[1:]) if r[0] == correct[0])
    return g.reveal(correct, summary, rows, marked)


KIND = QuizKind(
    "dice",
    why=DICE_WHY,
    wait_hint=N_("a chance node in the tree (a move with dice)"),
    ask=ask,
    grade=grade,
)
