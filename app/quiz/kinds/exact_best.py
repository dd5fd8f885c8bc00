"""The ``exact_best`` question: after the next click, is the search's favourite really a best
move? Graded by exact minimax values (``mcts_lab.exact.exact_values``, through the caller's
``exact``)."""

from __future__ import annotations

from app.quiz.reading import exact_plural_words, exact_words, favourite, root_rows, visits_words
from app.quiz.records import AskContext, GradeContext, Question, QuizKind, Reveal
from app.quiz.words import M, P, Spec, count, join
from app.words.i18n import N_
from mcts_core.game import Action

#: Exact values are looked for at most this long per root position (then cached).
QUIZ_EXACT_SECONDS = 0.5


def ask(a: AskContext) -> Question | None:
    if not a.at_select or a.exact is None or len(a.search.root.children) < 2:
        return None
    values = a.exact()
    if not values or any(v is None for v in values.values()):
        return None
    known = [v for v in values.values() if v is not None]
    if max(known) - min(known) < 1e-9:
        return None  # every move is as good: the question would be empty
    text = M(
        N_(
            "After your next click (Step or Step N), will the search's favourite be a truly "
            "best move, as perfect play (exact minimax) says?"
        )
    )
    # TRANSLATORS: the two answers to "will the favourite be a truly best move?"
    options = [M(N_("Yes, a best move")), M(N_("No, a worse move"))]
    return a.question("exact_best", text, options, "click", values=dict(values))


def grade(g: GradeContext) -> Reveal:
    q, search = g.question, g.search
    values: dict[Action, float | None] = q.data["values"]
    fav = favourite(search)
    assert fav is not None
    known = [v for v in values.values() if v is not None]
    best = max(known)
    mine = values.get(fav[0])
    is_best = mine is not None and mine >= best - 1e-9
    correct = q.options[0] if is_best else q.options[1]
    best_moves = [
        c.label
        for c in search.children_summary()
        if (value := values.get(c.action)) is not None and value >= best - 1e-9
    ]
    facts: dict[str, Spec] = {
        "iterations": count(search.iterations),
        "move": fav[1],
        "visits": visits_words(fav[2]),
        "value": exact_words(mine),
    }
    summary: Spec
    if is_best:
        summary = P(
            "After {n} iteration the favourite is {move} ({visits}); perfect play "
            "says it is a {value}, as good as any move.",
            "After {n} iterations the favourite is {move} ({visits}); perfect play "
            "says it is a {value}, as good as any move.",
            search.iterations,
            **facts,
        )
    else:
        many = len(best_moves) != 1
        # TRANSLATORS: {value} and {best} are "win", "loss", "draw" or a number ({best} in the
        # plural, "wins", for two moves or more); {moves} the best moves ("c1, c3")
        summary = P(
            "After {iterations} iterations the favourite is {move} ({visits}); perfect play "
            "says it is a {value}, while {moves} is a {best}.",
            "After {iterations} iterations the favourite is {move} ({visits}); perfect play "
            "says it is a {value}, while {moves} are {best}.",
            len(best_moves),
            moves=join(best_moves),
            best=exact_plural_words(best) if many else exact_words(best),
            **facts,
        )
    rows, marked = root_rows(search, fav[0], values)
    return g.reveal((correct,), summary, rows, marked)


KIND = QuizKind(
    "exact_best",
    why=N_(
        "MCTS estimates each move by sampling games. With few iterations, a move whose "
        "refutation is one precise reply can look good, because random games rarely find "
        "that reply. Exact minimax checks every reply, so it knows which moves are truly "
        "best; more iterations (or the solver, which proves wins and losses) bring MCTS to "
        "the same answer."
    ),
    wait_hint=N_("exact values of every root move, found within half a second"),
    ask=ask,
    grade=grade,
)
