"""The ``new_value`` question: will the new node's simulated value be good or bad for the
player moving there?"""

from __future__ import annotations

from app.quiz.reading import describe_node, even_point, player, predicted_path, result_words
from app.quiz.records import AskContext, GradeContext, Question, QuizKind, Reveal
from app.quiz.words import M, P, Spec, english, num
from app.words.i18n import N_
from app.words.phrases import fmt

# TRANSLATORS: the three answers to "will the result be good or bad for {player}?"
GOOD = N_("Good for {player}")
# TRANSLATORS: the three answers to "will the result be good or bad for {player}?"
EVEN = N_("Even (like a draw)")
# TRANSLATORS: the three answers to "will the result be good or bad for {player}?"
BAD = N_("Bad for {player}")


def answers(names: tuple[str, ...], mover: int) -> tuple[Spec, Spec, Spec]:
    """The three answers for player ``mover``: good, even, bad (as specs)."""
    who_moves = player(names, mover)
    return M(GOOD, player=who_moves), M(EVEN), M(BAD, player=who_moves)


def ask(a: AskContext) -> Question | None:
    if not a.at_select:
        return None
    search = a.search
    path = predicted_path(search)
    if path.end is None or path.stop != "untried":
        return None
    node = path.end
    cfg = search.config
    how = M(
        N_("the heuristic judges it")
        if cfg.rollout_depth == 0
        else N_("one random game is played from it")
        if cfg.rollout == "random"
        else N_("one game is played on from it")
    )
    text = M(
        N_(
            "Next, {player} gets a new move {where}, and {how}. Will the result be good or bad "
            "for {player}?"
        ),
        player=player(a.names, node.player),
        where=describe_node(search, path.decisions, a.names),
        how=how,
    )
    options = answers(a.names, node.player)
    return a.question("new_value", text, options, "iteration", node_id=node.id, player=node.player)


def grade(g: GradeContext) -> Reveal:
    trace = g.trace
    assert trace is not None
    expansion = trace.expansion
    if expansion is None or expansion.parent_id != g.question.data["node_id"]:
        return g.dropped(M(N_("the new node was added elsewhere")))
    mover = int(g.question.data["player"])
    evaluation = trace.evaluation
    value = evaluation.value[mover]
    even = even_point(g.search)
    good, draw, bad = answers(g.names, mover)
    answer = good if value > even + 1e-9 else bad if value < even - 1e-9 else draw
    correct = english(answer)
    how: Spec
    if evaluation.kind == "rollout":
        how = P(
            "the rollout played {n} random move to the end: {result}",
            "the rollout played {n} random moves to the end: {result}",
            len(evaluation.rollout),
            result=result_words(evaluation.raw, g.names),
        )
    elif evaluation.kind == "terminal":
        how = M(
            N_("the move ends the game: {result}"), result=result_words(evaluation.raw, g.names)
        )
    elif evaluation.kind == "cutoff":
        how = M(N_("the rollout stopped at its limit and the heuristic judged the position"))
    else:
        how = M(N_("the heuristic judged the new position"))
    summary = M(
        N_(
            "{player} played {move}; {how}. Value for {player}: {value} (a draw is worth "
            "{even}), so the answer is: {answer}."
        ),
        player=player(g.names, mover),
        move=expansion.action_label,
        how=how,
        value=num(fmt(value)),
        even=num(fmt(even)),
        answer=answer,
    )
    # TRANSLATORS: the table of a new node's value: column headers
    rows: list[list[Spec]] = [[M(N_("player")), M(N_("value brought back"))]]
    rows += [[player(g.names, p), num(fmt(evaluation.value[p]))]
             for p in range(len(evaluation.value))]  # fmt: skip
    return g.reveal((correct,), summary, rows, mover)


KIND = QuizKind(
    "new_value",
    why=N_(
        "Simulation values the new node: a rollout plays the game to the end with random "
        "moves (or the heuristic judges the position without playing on). One random game "
        "is noisy: a strong move can lose it and a weak one can win it. MCTS trusts the "
        "average of many."
    ),
    wait_hint=N_("a new node to be added on the next path (not a finished game)"),
    ask=ask,
    grade=grade,
)
