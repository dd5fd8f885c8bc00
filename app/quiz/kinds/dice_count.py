"""The ``dice_count`` question: how often should a chance node's likeliest outcome have come up
by now?"""

from __future__ import annotations

from app.quiz.kinds.dice import DICE_WHY, chance_node, dice_facts, dice_rows
from app.quiz.records import AskContext, GradeContext, Question, QuizKind, Reveal
from app.quiz.words import M, P, count, num, plain
from app.words.i18n import N_

# TRANSLATORS: an answer to "how often should it have come up?": about {n} times
ABOUT = N_("about {n}")


def ask(a: AskContext) -> Question | None:
    if not a.at_select:
        return None
    chance = chance_node(a.search)
    if chance is None or chance.visits < 4:
        return None
    action, outcomes = dice_facts(a.search, chance)
    label, p = max(outcomes, key=lambda item: item[1])
    n = chance.visits
    expected = n * p
    guesses = [round(expected), round(n / len(outcomes)), n, round(expected / 2), 0]
    options: list[int] = []
    for guess in guesses:
        if guess not in options:
            options.append(guess)
    options = sorted(options[:4])
    nearest = min(options, key=lambda guess: abs(guess - expected))
    text = P(
        "The dice of {move} (node #{node}) were rolled {n} time so far. About how often "
        "should '{outcome}' have come up?",
        "The dice of {move} (node #{node}) were rolled {n} times so far. About how often "
        "should '{outcome}' have come up?",
        n,
        move=action,
        node=str(chance.id),
        n=plain(n),
        outcome=label,
    )
    return a.question(
        "dice_count",
        text,
        [M(ABOUT, n=plain(guess)) for guess in options],
        "click",
        node_id=chance.id,
        outcome=label,
        probability=p,
        rolls=n,
        correct=f"about {nearest}",
    )


def grade(g: GradeContext) -> Reveal:
    q = g.question
    correct = (str(q.data["correct"]),)
    p, n = float(q.data["probability"]), int(q.data["rolls"])
    rows, rolls, _action = dice_rows(g.search, q.data["node_id"])
    if not rows:
        return g.dropped(M(N_("that chance node left the tree")))
    row = next(r for r in rows[1:] if r[0] == q.data["outcome"])
    came_up = row[3]  # count(times): {"int": times}
    assert isinstance(came_up, dict)
    # three counts: the times it came up decide the grammar (the one most often 0, 1 or 2;
    # the rolls are the question's n, at least a few, and the chance node's visits)
    summary = P(
        "'{outcome}' has probability {p}, so {asked} rolls x {p} = {expected} expected. Now, "
        "after {rolls} rolls, it has come up {n} time (expected {expected_now}).",
        "'{outcome}' has probability {p}, so {asked} rolls x {p} = {expected} expected. Now, "
        "after {rolls} rolls, it has come up {n} times (expected {expected_now}).",
        int(str(came_up["int"])),
        outcome=str(q.data["outcome"]),
        p=num(f"{p:.3f}"),
        asked=count(n),
        expected=num(f"{n * p:.1f}"),
        rolls=count(rolls),
        n=came_up,
        expected_now=row[2],
    )
    marked = next(i for i, r in enumerate(rows[1:]) if r[0] == q.data["outcome"])
    return g.reveal(correct, summary, rows, marked)


KIND = QuizKind(
    "dice_count",
    why=DICE_WHY,
    wait_hint=N_("a chance node rolled at least 4 times"),
    ask=ask,
    grade=grade,
)
