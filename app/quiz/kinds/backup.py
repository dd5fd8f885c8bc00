"""The ``backup`` question: what will backpropagation add to the root's move on the path (the
sign flips with the player)?"""

from __future__ import annotations

from app.quiz.reading import player, result_words
from app.quiz.records import AskContext, GradeContext, Progress, Question, QuizKind, Reveal
from app.quiz.words import M, P, Spec, num, plain
from app.words.i18n import N_
from app.words.phrases import fmt
from mcts_core import Decision, Search


def ask(a: AskContext) -> Question | None:
    search = a.search
    if str(search.next_phase) != "backpropagate":
        return None
    evaluation = a.progress.evaluation
    if evaluation is None:
        return None
    first = _first_move(a.progress, search)
    if first is None:
        return None
    node_id, label, chooser = first
    values = evaluation.value
    other = 1 - chooser
    if abs(values[chooser] - values[other]) < 1e-9:
        return None  # the same number either way: nothing to predict
    result: Spec = (
        result_words(evaluation.raw, a.names)
        if evaluation.kind in ("terminal", "rollout", "proven")
        else M(N_("the heuristic's value"))
    )
    text = M(
        N_(
            "Simulated: {result}, {value_0} for {player_0}, {value_1} for {player_1}. What "
            "will the backup add to {move}, {chooser}'s move at the root?"
        ),
        result=result,
        value_0=num(fmt(values[0])),
        player_0=player(a.names, 0),
        value_1=num(fmt(values[1])),
        player_1=player(a.names, 1),
        move=label,
        chooser=player(a.names, chooser),
    )
    options = sorted({fmt(values[chooser]), fmt(values[other])}, reverse=True)
    return a.question("backup", text, [num(o) for o in options], "iteration", node_id=node_id,
                      label=label, chooser=chooser)  # fmt: skip


def _first_move(progress: Progress, search: Search) -> tuple[int, str, int] | None:
    """The root's move on the half-done iteration's path: node id, label, who chose it."""
    path = progress.path or ()
    if path and isinstance(path[0], Decision):
        terms = path[0].chosen_terms
        return terms.node_id, terms.label, path[0].player
    expansion = progress.expansion
    if expansion is not None and expansion.parent_id == search.root.id:
        node_id = expansion.chance_id if expansion.chance_id is not None else expansion.node_id
        return node_id, expansion.action_label, search.root.player
    return None


def grade(g: GradeContext) -> Reveal:
    trace = g.trace
    assert trace is not None
    q = g.question
    update = next((u for u in trace.updates if u.node_id == q.data["node_id"]), None)
    if update is None:
        return g.dropped(M(N_("that node was not on the path")))
    correct = fmt(update.added)
    summary = P(
        "It added {added} to {move}: that node counts for {player}, who chose it. Its Q is "
        "now {q} after {visits} visit.",
        "It added {added} to {move}: that node counts for {player}, who chose it. Its Q is "
        "now {q} after {visits} visits.",
        update.visits,
        added=num(correct),
        move=str(q.data["label"]),
        player=player(g.names, update.view),
        q=num(fmt(update.mean)),
        visits=plain(update.visits),
    )
    # TRANSLATORS: the backup's table: column headers (a node, the player it counts for, the
    # value added, its Q now)
    rows: list[list[Spec]] = [[M(N_("node")), M(N_("counted for")), M(N_("added")),
                               M(N_("Q now"))]]  # fmt: skip
    marked = None
    for i, u in enumerate(trace.updates):
        if u.node_id == update.node_id:
            marked = i
        rows.append([f"#{u.node_id}", player(g.names, u.view), num(fmt(u.added)),
                     num(fmt(u.mean))])  # fmt: skip
    return g.reveal((correct,), summary, rows, marked)


KIND = QuizKind(
    "backup",
    why=N_(
        "Backpropagation adds the simulation's value to every node on the path. Each node "
        "counts it from the view of the player who chose the move into it, so one result "
        "is + for one player and - for the other: the sign flips wherever the player to "
        "move changes. That is how one tree serves both players, each picking what is best "
        "for itself."
    ),
    wait_hint=N_("the backpropagate phase (press Phase until the button says backpropagate)"),
    ask=ask,
    grade=grade,
)
