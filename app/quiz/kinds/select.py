"""The ``select`` question: which move will selection take at the root (or at depth d)?
Graded by the step's own trace: the tree's Q + bonus numbers decide it."""

from __future__ import annotations

from app.quiz.reading import predicted_path, who
from app.quiz.records import AskContext, GradeContext, Question, QuizKind, Reveal
from app.words.phrases import fmt


def ask(a: AskContext) -> Question | None:
    if not a.at_select:
        return None
    path = predicted_path(a.search)
    if not path.decisions:
        return None
    if a.depth is not None:
        depth = a.depth
    else:  # free mode: the root, and on every other turn one level deeper when possible
        depth = 1 if a.counter % 2 and len(path.decisions) > 1 else 0
    if depth >= len(path.decisions):
        return None
    decision = path.decisions[depth]
    chooser = who(a.names, decision.player)
    if depth == 0:
        text = f"Selection starts at the root ({chooser} to move). Which move will it take next?"
    else:
        before = ", then ".join(
            f"{who(a.names, d.player)} {d.chosen_terms.label}" for d in path.decisions[:depth]
        )
        text = f"Selection will go {before}. Then {chooser} chooses at depth {depth}: which move?"
    return a.question(
        "select",
        text,
        [t.label for t in decision.children],
        "iteration",
        node_id=decision.node_id,
        depth=depth,
    )


def grade(g: GradeContext) -> Reveal:
    assert g.trace is not None
    decision = next((d for d in g.trace.decisions if d.node_id == g.question.data["node_id"]), None)
    if decision is None:
        return g.dropped("the selection did not pass that node")
    chosen = decision.chosen_terms
    chooser = who(g.names, decision.player)
    rows: list[tuple[str, ...]] = [("move", "n before", "Q", "bonus", "Q + bonus")]
    rows += [(t.label, str(t.visits), fmt(t.q), fmt(t.bonus), fmt(t.score))
             for t in decision.children]  # fmt: skip
    if decision.rule == "min_visits":
        summary = (
            f"Selection took {chosen.label}: it had the fewest visits ({chosen.visits}), and "
            "the minimum-visits rule gives every move its visits before the formula counts."
        )
    elif decision.rule == "solver" or chosen.proven:
        summary = f"Selection took {chosen.label}: the solver proved it a {chosen.proven}."
    else:
        others = [t for i, t in enumerate(decision.children) if i != decision.chosen]
        runner = max(others, key=lambda t: t.score) if others else None
        summary = (
            f"{chooser} took {chosen.label}: Q {fmt(chosen.q)} + bonus {fmt(chosen.bonus)} = "
            f"{fmt(chosen.score)}, the largest"
        )
        if runner is not None:
            tie = " (a tie: the first listed wins)" if runner.score == chosen.score else ""
            summary += f"; next was {runner.label} with {fmt(runner.score)}{tie}"
        summary += "."
    return g.reveal((chosen.label,), summary, tuple(rows), decision.chosen)


KIND = QuizKind(
    "select",
    why=(
        "At every node, selection adds two numbers for each move: Q, the average result of "
        "the simulations through it so far (from the view of the player choosing there), "
        "and an exploration bonus that is large for moves tried rarely and shrinks with "
        "every visit. It takes the move with the largest sum, so a move wins by looking "
        "good or by being unexplored. C sets how much the bonus counts."
    ),
    wait_hint="a node whose moves were all tried (press Step until the root has tried them all)",
    ask=ask,
    grade=grade,
)
