"""The ``favourite`` question: after the next click, will the root's favourite move change?"""

from __future__ import annotations

from app.quiz.reading import favourite, root_rows, visits_words
from app.quiz.records import AskContext, GradeContext, Question, QuizKind, Reveal


def ask(a: AskContext) -> Question | None:
    if not a.at_select:
        return None
    fav = favourite(a.search)
    if fav is None or len(a.search.root.children) < 2:
        return None
    _, label, visits = fav
    text = (
        f"The favourite (the move the search would play now) is {label}, "
        f"{visits_words(visits)}. After your next click (Step or Step N), will it change?"
    )
    options = [f"No, still {label}", "Yes, another move"]
    return a.question("favourite", text, options, "click", label=label, action=fav[0])


def grade(g: GradeContext) -> Reveal:
    q, search = g.question, g.search
    fav = favourite(search)
    assert fav is not None  # the root had children when asked and keeps them
    same = fav[0] == q.data["action"]
    correct = q.options[0] if same else q.options[1]
    ran = search.iterations - q.iteration
    summary = (
        f"After {ran:,} more iteration{'' if ran == 1 else 's'} the favourite is {fav[1]} "
        f"({visits_words(fav[2])}): "
        f"{'unchanged' if same else 'it changed from ' + q.data['label']}."
    )
    rows, marked = root_rows(search, fav[0])
    return g.reveal((correct,), summary, rows, marked)


KIND = QuizKind(
    "favourite",
    why=(
        "The favourite is the move the search would play now (by its final-move rule, "
        "normally the most visited move). One iteration adds one visit somewhere, so the "
        "favourite changes only when two moves are close; many iterations can overturn it."
    ),
    wait_hint="two or more moves tried at the root (press Step)",
    ask=ask,
    grade=grade,
)
