"""The ``expand`` question: which untried move will the expansion add?"""

from __future__ import annotations

from app.quiz.reading import MAX_OPTIONS, describe_node, player, predicted_path, untried
from app.quiz.records import AskContext, GradeContext, Question, QuizKind, Reveal
from app.quiz.words import M, P, count, name
from app.words.i18n import N_


def ask(a: AskContext) -> Question | None:
    if not a.at_select:
        return None
    path = predicted_path(a.search)
    if path.end is None or path.stop != "untried":
        return None
    moves = untried(a.search, path.end)
    if len(moves) > MAX_OPTIONS:
        return None
    text = M(
        N_(
            "Selection will stop {where}, where {player} has untried moves. Which one will the "
            "expansion add ('{order}' order)?"
        ),
        where=describe_node(a.search, path.decisions, a.names),
        player=player(a.names, path.end.player),
        order=name(a.search.config.expansion_order),
    )
    return a.question(
        "expand", text, [label for _action, label in moves], "iteration", node_id=path.end.id
    )


def grade(g: GradeContext) -> Reveal:
    assert g.trace is not None
    expansion = g.trace.expansion
    if expansion is None or expansion.parent_id != g.question.data["node_id"]:
        return g.dropped(M(N_("the expansion happened elsewhere")))
    label = expansion.action_label
    summary = P(
        "It added {move} (node #{node}), by the '{order}' expansion order; {n} move there "
        "still untried.",
        "It added {move} (node #{node}), by the '{order}' expansion order; {n} moves there "
        "still untried.",
        expansion.untried,
        move=label,
        node=str(expansion.node_id),
        order=name(g.search.config.expansion_order),
        n=count(expansion.untried),
    )
    return g.reveal((label,), summary)


KIND = QuizKind(
    "expand",
    why=N_(
        "Selection stops at a node with a move never tried; expansion adds one such move "
        "as a new node. Which one depends on the expansion order: 'listed' takes the moves "
        "in the game's own order, 'random' in a shuffled order, 'heuristic' the most "
        "promising first."
    ),
    wait_hint=N_("a node with untried moves on the next path (at most {n} of them)"),
    ask=ask,
    grade=grade,
)
