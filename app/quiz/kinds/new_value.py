"""The ``new_value`` question: will the new node's simulated value be good or bad for the
player moving there?"""

from __future__ import annotations

from app.quiz.reading import describe_node, even_point, predicted_path, result_words, who
from app.quiz.records import AskContext, GradeContext, Question, QuizKind, Reveal
from app.words.phrases import fmt


def ask(a: AskContext) -> Question | None:
    if not a.at_select:
        return None
    search = a.search
    path = predicted_path(search)
    if path.end is None or path.stop != "untried":
        return None
    node = path.end
    mover = who(a.names, node.player)
    where = describe_node(search, path.decisions, a.names)
    cfg = search.config
    how = (
        "the heuristic judges it"
        if cfg.rollout_depth == 0
        else "one random game is played from it"
        if cfg.rollout == "random"
        else "one game is played on from it"
    )
    text = (
        f"Next, {mover} gets a new move {where}, and {how}. "
        f"Will the result be good or bad for {mover}?"
    )
    options = [f"Good for {mover}", "Even (like a draw)", f"Bad for {mover}"]
    return a.question("new_value", text, options, "iteration", node_id=node.id, player=node.player)


def grade(g: GradeContext) -> Reveal:
    trace = g.trace
    assert trace is not None
    expansion = trace.expansion
    if expansion is None or expansion.parent_id != g.question.data["node_id"]:
        return g.dropped("the new node was added elsewhere")
    player = int(g.question.data["player"])
    mover = who(g.names, player)
    evaluation = trace.evaluation
    value = evaluation.value[player]
    even = even_point(g.search)
    if value > even + 1e-9:
        correct = f"Good for {mover}"
    elif value < even - 1e-9:
        correct = f"Bad for {mover}"
    else:
        correct = "Even (like a draw)"
    if evaluation.kind == "rollout":
        how = (
            f"the rollout played {len(evaluation.rollout)} random move"
            f"{'' if len(evaluation.rollout) == 1 else 's'} to the end: "
            + result_words(evaluation.raw, g.names)
        )
    elif evaluation.kind == "terminal":
        how = f"the move ends the game: {result_words(evaluation.raw, g.names)}"
    elif evaluation.kind == "cutoff":
        how = "the rollout stopped at its limit and the heuristic judged the position"
    else:
        how = "the heuristic judged the new position"
    summary = (
        f"{mover} played {expansion.action_label}; {how}. Value for {mover}: {fmt(value)} "
        f"(a draw is worth {fmt(even)}), so the answer is: {correct}."
    )
    rows = (("player", "value brought back"),) + tuple(
        (who(g.names, p), fmt(evaluation.value[p])) for p in range(len(evaluation.value))
    )
    return g.reveal((correct,), summary, rows, player)


KIND = QuizKind(
    "new_value",
    why=(
        "Simulation values the new node: a rollout plays the game to the end with random "
        "moves (or the heuristic judges the position without playing on). One random game "
        "is noisy: a strong move can lose it and a weak one can win it. MCTS trusts the "
        "average of many."
    ),
    wait_hint="a new node to be added on the next path (not a finished game)",
    ask=ask,
    grade=grade,
)
