"""The ``dice_count`` question: how often should a chance node's likeliest outcome have come up
by now?"""

from __future__ import annotations

from app.quiz.kinds.dice import DICE_WHY, chance_node, dice_facts, dice_rows
from app.quiz.records import AskContext, GradeContext, Question, QuizKind, Reveal


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
    text = (
        f"The dice of {action} (node #{chance.id}) were rolled {n} times so far. About how "
        f"often should '{label}' have come up?"
    )
    return a.question(
        "dice_count",
        text,
        [f"about {guess}" for guess in options],
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
    rows, rolls, _ = dice_rows(g.search, q.data["node_id"])
    if not rows:
        return g.dropped("that chance node left the tree")
    row = next(r for r in rows[1:] if r[0] == q.data["outcome"])
    summary = (
        f"'{q.data['outcome']}' has probability {p:.3f}, so {n:,} rolls x {p:.3f} = "
        f"{n * p:.1f} expected. Now, after {rolls:,} rolls, it has come up {row[3]} times "
        f"(expected {row[2]})."
    )
    marked = next(i for i, r in enumerate(rows[1:]) if r[0] == q.data["outcome"])
    return g.reveal(correct, summary, rows, marked)


KIND = QuizKind(
    "dice_count",
    why=DICE_WHY,
    wait_hint="a chance node rolled at least 4 times",
    ask=ask,
    grade=grade,
)
