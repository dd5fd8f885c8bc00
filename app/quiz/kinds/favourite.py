"""The ``favourite`` question: after the next click, will the root's favourite move change?"""

from __future__ import annotations

from app.quiz.reading import favourite, root_rows, visits_words
from app.quiz.records import AskContext, GradeContext, Question, QuizKind, Reveal
from app.quiz.words import M, P, Spec, count
from app.words.i18n import N_


def ask(a: AskContext) -> Question | None:
    if not a.at_select:
        return None
    fav = favourite(a.search)
    if fav is None or len(a.search.root.children) < 2:
        return None
    _action, label, visits = fav
    text = M(
        N_(
            "The favourite (the move the search would play now) is {move}, {visits}. After "
            "your next click (Step or Step N), will it change?"
        ),
        move=label,
        visits=visits_words(visits),
    )
    # TRANSLATORS: the two answers to "will the favourite change?"
    options = [M(N_("No, still {move}"), move=label), M(N_("Yes, another move"))]
    return a.question("favourite", text, options, "click", label=label, action=fav[0])


def grade(g: GradeContext) -> Reveal:
    q, search = g.question, g.search
    fav = favourite(search)
    assert fav is not None  # the root had children when asked and keeps them
    same = fav[0] == q.data["action"]
    correct = q.options[0] if same else q.options[1]
    ran = search.iterations - q.iteration
    facts: dict[str, Spec] = {"n": count(ran), "move": fav[1], "visits": visits_words(fav[2])}
    if same:
        summary = P(
            "After {n} more iteration the favourite is {move} ({visits}): unchanged.",
            "After {n} more iterations the favourite is {move} ({visits}): unchanged.",
            ran,
            **facts,
        )
    else:
        summary = P(
            "After {n} more iteration the favourite is {move} ({visits}): it changed from "
            "{before}.",
            "After {n} more iterations the favourite is {move} ({visits}): it changed from "
            "{before}.",
            ran,
            before=str(q.data["label"]),
            **facts,
        )
    rows, marked = root_rows(search, fav[0])
    return g.reveal((correct,), summary, rows, marked)


KIND = QuizKind(
    "favourite",
    why=N_(
        "The favourite is the move the search would play now (by its final-move rule, "
        "normally the most visited move). One iteration adds one visit somewhere, so the "
        "favourite changes only when two moves are close; many iterations can overturn it."
    ),
    wait_hint=N_("two or more moves tried at the root (press Step)"),
    ask=ask,
    grade=grade,
)
