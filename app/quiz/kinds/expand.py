"""The ``expand`` question: which untried move will the expansion add?"""

from __future__ import annotations

from app.quiz.reading import MAX_OPTIONS, describe_node, predicted_path, untried, who
from app.quiz.records import AskContext, GradeContext, Question, QuizKind, Reveal


def ask(a: AskContext) -> Question | None:
    if not a.at_select:
        return None
    path = predicted_path(a.search)
    if path.end is None or path.stop != "untried":
        return None
    moves = untried(a.search, path.end)
    if len(moves) > MAX_OPTIONS:
        return None
    chooser = who(a.names, path.end.player)
    where = describe_node(a.search, path.decisions, a.names)
    text = (
        f"Selection will stop {where}, where {chooser} has untried moves. Which one will the "
        f"expansion add ('{a.search.config.expansion_order}' order)?"
    )
    return a.question(
        "expand", text, [label for _, label in moves], "iteration", node_id=path.end.id
    )


def grade(g: GradeContext) -> Reveal:
    assert g.trace is not None
    expansion = g.trace.expansion
    if expansion is None or expansion.parent_id != g.question.data["node_id"]:
        return g.dropped("the expansion happened elsewhere")
    label = expansion.action_label
    order = g.search.config.expansion_order
    summary = (
        f"It added {label} (node #{expansion.node_id}), by the '{order}' expansion order; "
        f"{expansion.untried} move{'' if expansion.untried == 1 else 's'} there still untried."
    )
    return g.reveal((label,), summary)


KIND = QuizKind(
    "expand",
    why=(
        "Selection stops at a node with a move never tried; expansion adds one such move "
        "as a new node. Which one depends on the expansion order: 'listed' takes the moves "
        "in the game's own order, 'random' in a shuffled order, 'heuristic' the most "
        "promising first."
    ),
    wait_hint=f"a node with untried moves on the next path (at most {MAX_OPTIONS} of them)",
    ask=ask,
    grade=grade,
)
