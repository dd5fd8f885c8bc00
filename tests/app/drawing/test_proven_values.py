"""A proven move shows one value as its Q everywhere (issue 40): its proven value in the tree's
box, on the board, in the generic table, in the board's words and in the quiz's reveals (select
and exact_best), with the mean of its visits beside it where the two differ
(app.words.phrases.mean_beside). The position is traps page 3's: O to move on ``...O.X.X.``, the
solver on, 800 iterations of seed 0: a1, b2 and a3 proven losses (means -0.36, -0.24, -0.43)."""

from __future__ import annotations

import re

import pytest

from app.drawing.boards import proven_means, q_with_mean, stats_rows, tic_tac_toe_svg
from app.drawing.tree_layout import ACTION_H, PROVEN_MEAN_H, build_view
from app.quiz import QUIZ_KINDS, settle
from app.quiz.reading import mean_before, root_rows
from app.quiz.records import AskContext, Progress
from app.quiz.words import render
from app.words.phrases import mean_beside
from games import make_game
from mcts_core import Search, SearchConfig

LOSSES = ("a1", "b2", "a3")


def trap_search(iterations: int = 800) -> Search:
    game = make_game("tic_tac_toe")
    search = Search(game, game.parse_state("...O.X.X."), SearchConfig(solver=True), seed=0)
    search.run(iterations=iterations)
    return search


def test_the_rule_shows_a_mean_only_beside_a_proven_value_it_differs_from() -> None:
    assert mean_beside(-1.0, -0.236, proven=True) == -0.236
    assert mean_beside(-1.0, -0.996, proven=True) is None  # the same at two decimals
    assert mean_beside(-0.24, -0.236, proven=False) is None  # unproven: Q is the mean


def test_the_trap_has_three_proven_losses_whose_means_differ() -> None:
    children = {c.label: c for c in trap_search().children_summary()}
    means = proven_means(list(children.values()))
    assert {children[label].action for label in LOSSES} == set(means)
    for label in LOSSES:
        assert children[label].q == -1.0 and children[label].proven == "loss"
        assert means[children[label].action] == children[label].mean != -1.0


def test_the_tree_box_shows_the_proven_value_and_the_mean_below_it() -> None:
    search = trap_search()
    view = build_view(search, path_ids=set(), new_id=None, changed_ids=set(), focus_id=None,
                      player_names=("X", "O"))  # fmt: skip
    moves = {n.label: n for n in view.nodes if n.parent == view.nodes[0].key}
    children = {c.label: c for c in search.children_summary()}
    for label in LOSSES:
        box, mean = moves[label], children[label].mean
        assert box.proven == "loss"
        assert box.lines[1:] == ("-1.00", f"mean {mean:+.2f}")
        assert box.h == PROVEN_MEAN_H > ACTION_H
    unproven = moves["c3"]
    assert unproven.lines[1] == f"{children['c3'].q:+.2f}" and len(unproven.lines) == 2
    assert unproven.h == ACTION_H and unproven.y == moves["a1"].y  # the row's tops in line


def test_the_board_and_its_table_show_the_proven_value_with_the_mean_beside_it() -> None:
    search = trap_search()
    children = search.children_summary()
    total = sum(c.visits for c in children)
    stats = {c.action: (c.visits / total, c.q) for c in children}
    means = proven_means(children)
    svg = tic_tac_toe_svg(search.game, search.root_state, stats, means=means)
    for c in children:
        assert f">Q {c.q:+.2f}</text>" in svg
    for label in LOSSES:
        mean = next(c.mean for c in children if c.label == label)
        assert f">mean {mean:+.2f}</text>" in svg
    assert len(re.findall(r">mean ", svg)) == 3
    rows = {r["move"]: r["Q"] for r in stats_rows(search.game, search.root_state, stats,
                                                  means=means)}  # fmt: skip
    b2 = next(c for c in children if c.label == "b2")
    assert rows["b2"] == f"-1.000 (mean {b2.mean:+.3f})" == q_with_mean(-1.0, b2.mean, 3)
    assert rows["c3"] == f"{stats[8][1]:+.3f}"


def test_the_exact_best_reveal_shows_the_proven_value_with_the_mean_beside_it() -> None:
    search = trap_search()
    rows, _marked = root_rows(search, 8, {a: 0.0 for a in range(9)})
    cells = {render(row[0]): render(row[2]) for row in rows[1:]}
    for c in search.children_summary():
        if c.label in LOSSES:
            assert cells[c.label] == f"-1.000 (mean {c.mean:+.3f})"
        else:
            assert cells[c.label] == f"{c.q:+.3f}"


def test_the_select_reveal_gives_a_proven_move_its_mean_before_the_iteration() -> None:
    # the select question graded on the iteration after it: the trace's Q of a proven move is
    # its proven value, and beside it the mean its visits had before that iteration
    search = trap_search(799)
    before = {c.label: c.mean for c in search.children_summary()}
    proven = {c.label for c in search.children_summary() if c.proven}
    assert proven
    question = QUIZ_KINDS["select"].ask(_ask(search))
    assert question is not None
    trace = search.step()
    reveal = settle(question, search, ("X", "O"), answer=None, trace=trace)
    assert reveal is not None and reveal.verdict != "dropped"
    cells = {render(row[0]): render(row[2]) for row in reveal.facts["rows"][1:]}
    for label in proven:
        assert cells[label] == f"-1.000 (mean {before[label]:+.3f})"
    # the chosen move's mean before the iteration comes back from the trace's backup
    chosen = trace.decisions[0].chosen_terms
    assert mean_before(search, trace, chosen.node_id, 1) == pytest.approx(before[chosen.label])


def _ask(search: Search) -> AskContext:
    """The moment a lesson asks at: the root, the search between iterations."""
    return AskContext(search, ("X", "O"), 0, 0, Progress(), None, None)
