"""The ``select`` question: which move will selection take at the root (or at depth d)?
Graded by the step's own trace: the tree's Q + bonus numbers decide it."""

from __future__ import annotations

from app.quiz.reading import mean_before, played, player, predicted_path, q_cell
from app.quiz.records import AskContext, GradeContext, Question, QuizKind, Reveal
from app.quiz.words import M, Spec, num, plain
from app.words.i18n import N_
from app.words.phrases import fmt
from mcts_core.trace import ChildTerms


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
    chooser = player(a.names, decision.player)
    text: Spec
    if depth == 0:
        text = M(
            N_("Selection starts at the root ({player} to move). Which move will it take next?"),
            player=chooser,
        )
    else:
        text = M(
            N_("Selection will go {moves}. Then {player} chooses at depth {depth}: which move?"),
            moves=played(a.names, path.decisions[:depth], then=True),
            player=chooser,
            depth=plain(depth),
        )
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
        return g.dropped(M(N_("the selection did not pass that node")))
    chosen = decision.chosen_terms
    chooser = player(g.names, decision.player)
    # TRANSLATORS: the selection's table: column headers (a move, its visits before this
    # selection, Q, the exploration bonus, their sum); Q stays Q
    rows: list[list[Spec]] = [[M(N_("move")), M(N_("n before")), "Q", M(N_("bonus")),
                               M(N_("Q + bonus"))]]  # fmt: skip
    # a proven move's Q is its proven value (what the formula added), its mean beside it
    rows += [[t.label, plain(t.visits), _q(g, t, decision.player), num(fmt(t.bonus)),
              num(fmt(t.score))] for t in decision.children]  # fmt: skip
    summary: Spec
    if decision.rule == "min_visits":
        summary = M(
            N_(
                "Selection took {move}: it had the fewest visits ({visits}), and the "
                "minimum-visits rule gives every move its visits before the formula counts."
            ),
            move=chosen.label,
            visits=plain(chosen.visits),
        )
    elif decision.rule == "solver" or chosen.proven:
        summary = M(
            N_("Selection took {move}: the solver proved it a {result}."),
            move=chosen.label,
            result=_proven(chosen.proven),
        )
    else:
        others = [t for i, t in enumerate(decision.children) if i != decision.chosen]
        runner = max(others, key=lambda t: t.score) if others else None
        facts: dict[str, Spec] = {
            "player": chooser,
            "move": chosen.label,
            "q": num(fmt(chosen.q)),
            "bonus": num(fmt(chosen.bonus)),
            "score": num(fmt(chosen.score)),
        }
        if runner is None:
            summary = M(
                N_("{player} took {move}: Q {q} + bonus {bonus} = {score}, the largest."),
                **facts,
            )
        elif runner.score == chosen.score:
            summary = M(
                N_(
                    "{player} took {move}: Q {q} + bonus {bonus} = {score}, the largest; next "
                    "was {next} with {next_score} (a tie: the first listed wins)."
                ),
                next=runner.label,
                next_score=num(fmt(runner.score)),
                **facts,
            )
        else:
            summary = M(
                N_(
                    "{player} took {move}: Q {q} + bonus {bonus} = {score}, the largest; next "
                    "was {next} with {next_score}."
                ),
                next=runner.label,
                next_score=num(fmt(runner.score)),
                **facts,
            )
    return g.reveal((chosen.label,), summary, tuple(rows), decision.chosen)


def _q(g: GradeContext, terms: ChildTerms, player: int) -> Spec:
    """A move's Q in the table: the trace's (a proven move's proven value), and a proven
    move's mean of its visits before this iteration beside it where they differ."""
    if terms.proven is None or g.trace is None:
        return num(fmt(terms.q))
    return q_cell(terms.q, mean_before(g.search, g.trace, terms.node_id, player), True)


def _proven(result: str | None) -> Spec:
    """A proven result ("win", "draw", "loss") in words."""
    # TRANSLATORS: what the solver proved a move to be: "the solver proved it a win"
    words = {"win": N_("win"), "draw": N_("draw"), "loss": N_("loss")}
    return M(words[result]) if result in words else str(result)


KIND = QuizKind(
    "select",
    why=N_(
        "At every node, selection adds two numbers for each move: Q, the average result of "
        "the simulations through it so far (from the view of the player choosing there), "
        "and an exploration bonus that is large for moves tried rarely and shrinks with "
        "every visit. It takes the move with the largest sum, so a move wins by looking "
        "good or by being unexplored. C sets how much the bonus counts."
    ),
    wait_hint=N_(
        "a node whose moves were all tried (press Step until the root has tried them all)"
    ),
    ask=ask,
    grade=grade,
)
