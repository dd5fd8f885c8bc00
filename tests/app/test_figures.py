"""Figure builders without Streamlit: tree -> DOT, trace -> tables, history -> figures."""

from __future__ import annotations

import re

import pytest

from app.drawing.boards import board_svg, connect_four_svg, tic_tac_toe_svg
from app.drawing.figures import (
    chance_rows,
    chi_square_p,
    formula_latex,
    formulas_latex,
    history_figure,
    html_table,
    series_point,
    uct_rows,
    uct_table_html,
    update_rows,
)
from app.drawing.tree_dot import TreeBounds, path_ids, tree_dot
from app.words import i18n
from games import make_game
from mcts_core import Search, SearchConfig
from tests.toy_games import CoinFlip, Take


def drawn_action_nodes(dot: str) -> set[int]:
    return {int(n) for n in re.findall(r"^\s+a(\d+) \[shape=box", dot, re.MULTILINE)}


def test_tree_dot_is_bounded_and_counts_hidden_nodes() -> None:
    search = Search(make_game("connect_four"), seed=0)
    search.run(iterations=3000)
    drawing = tree_dot(search, TreeBounds(max_nodes=40, top_k=3))
    assert drawing.drawn <= 40
    assert drawing.hidden == search.node_count - drawing.drawn
    assert "+4 more" in drawing.dot  # the root's 4 least visited moves are summarised
    assert 0 in drawn_action_nodes(drawing.dot)


def test_tree_dot_highlights_the_path_and_the_new_node() -> None:
    search = Search(make_game("connect_four"), seed=0)
    search.run(iterations=2000)
    trace = search.step()
    ids = path_ids(trace)
    drawing = tree_dot(search, TreeBounds(max_nodes=10, top_k=1), ids, trace.expansion.node_id)
    # the path is drawn even when its nodes are not among the most visited
    assert trace.expansion.node_id in drawn_action_nodes(drawing.dot)
    assert f"a{trace.expansion.node_id} [" in drawing.dot and "#16a34a" in drawing.dot
    assert drawing.dot.count("#f59e0b") >= len(trace.decisions)


def test_tree_dot_draws_chance_nodes_with_probabilities() -> None:
    search = Search(CoinFlip(), config=SearchConfig(c=50.0), seed=0)
    search.run(iterations=300)
    dot = tree_dot(search).dot
    assert "shape=diamond" in dot
    assert "p=0.250" in dot and "p=0.750" in dot and "p=0.500" in dot


def test_tree_dot_focus() -> None:
    search = Search(Take(12), seed=0)
    search.run(iterations=200)
    child = search.root.children[0].children[0]
    drawing = tree_dot(search, TreeBounds(focus=child.id))
    assert drawing.focus_found and 0 not in drawing.drawn_ids
    assert child.id in drawn_action_nodes(drawing.dot)
    assert not tree_dot(search, TreeBounds(focus=10**9)).focus_found


@pytest.mark.slow
def test_tree_dot_cost_does_not_grow_with_the_tree() -> None:
    """The builder visits only what it draws: count the nodes it touches via ids drawn."""
    search = Search(make_game("connect_four"), seed=0)
    search.run(iterations=20000)
    drawing = tree_dot(search, TreeBounds(max_nodes=50))
    assert drawing.drawn <= 50 and drawing.hidden > 15000  # 20,000 nodes: one per iteration


def test_uct_rows_and_formula_use_the_trace_numbers() -> None:
    search = Search(Take(12), config=SearchConfig(c=0.8), seed=0)
    search.run(iterations=30)
    decision = search.step().decisions[0]
    rows = uct_rows(decision)
    assert [r["chosen"] for r in rows].count("◀ chosen") == 1
    chosen = rows[decision.chosen]
    assert chosen["Q + bonus"] == f"{decision.chosen_terms.score:+.3f}"  # one format
    latex = formula_latex(decision, "uct", 0.8)
    assert f"\\ln {decision.parent_visits}" in latex
    assert f"{{{decision.chosen_terms.visits}}}" in latex
    assert latex.endswith(f"= {decision.chosen_terms.score:+.3f}")
    both = formulas_latex([decision, decision], "uct", 0.8)
    assert both.count("depth") == 2 and both.startswith(r"\begin{aligned}")
    assert r"\text{depth 0:}" in both and "\t" not in both
    html = uct_table_html([decision], ("X", "O"))
    assert "Depth 0" in html and "background:#fef3c7" in html


@pytest.mark.parametrize("tag", ["es", "de"])
def test_the_formula_writes_numbers_as_its_table_does(tag: str) -> None:
    """A decimal comma in es and de, as the table beside it (issue 43: "1.4 / +1.000" read as
    thousands), braced so that LaTeX sets no space after it; the words in the language."""
    search = Search(Take(12), config=SearchConfig(c=1.4), seed=0)
    search.run(iterations=30)
    decision = search.step().decisions[0]
    with i18n.language(tag):
        latex = formulas_latex([decision], "uct", 1.4)
        score = i18n.number_text(uct_rows(decision)[decision.chosen]["Q + bonus"])  # its cell
    assert "1{,}4" in latex and "." not in latex.split(r"\;=\;")[1]
    assert "," in score and latex.endswith(score.replace(",", "{,}") + r"\end{aligned}")
    assert r"\text{Tiefe 0:}" in latex or r"\text{profundidad 0:}" in latex


def test_html_table_drops_empty_columns_and_escapes() -> None:
    html = html_table([{"a": "<b>", "empty": None}, {"a": "x & y", "empty": ""}])
    assert "empty" not in html and "&lt;b&gt;" in html and "x &amp; y" in html
    assert html_table([]) == ""


def test_update_rows_show_the_sign_flip() -> None:
    search = Search(Take(8), seed=0)
    search.run(iterations=40)
    trace = search.step()
    rows = update_rows(trace, ("X", "O"))
    views = {row["view of"] for row in rows}
    assert views == {"X", "O"}
    for row, update in zip(rows, trace.updates, strict=True):
        assert row["value added"] == round(trace.evaluation.value[update.view], 4)


def test_chance_rows_and_chi_square() -> None:
    search = Search(CoinFlip(), config=SearchConfig(c=50.0), seed=0)
    search.run(iterations=600)
    bad = next(c for c in search.root.children if c.action == "bad")
    rows = chance_rows(search, bad)
    assert [r["outcome"] for r in rows] == ["heads", "tails"]
    assert [r["probability"] for r in rows] == [0.25, 0.75]
    assert sum(r["drawn"] for r in rows) == bad.visits
    p = chi_square_p([r["drawn"] for r in rows], [0.25, 0.75])
    assert p is not None and p > 0.001
    assert chi_square_p([10, 20], [0.5, 0.5]) == pytest.approx(0.0679, abs=1e-3)
    assert chi_square_p([90, 10], [0.5, 0.5]) < 1e-10
    assert chi_square_p([0, 0], [0.5, 0.5]) is None
    assert chi_square_p([3, 4, 5, 2, 6, 4], [1 / 6] * 6) == pytest.approx(0.7765, abs=1e-3)


def test_history_figure() -> None:
    search = Search(make_game("tic_tac_toe"), seed=0)
    series = []
    for _ in range(5):
        search.run(iterations=20)
        series.append(series_point(search))
    fig = history_figure(series)
    names = {trace.name for trace in fig.data}
    assert "b2" in names and "chosen" in names
    visits_b2 = next(t for t in fig.data if t.name == "b2" and t.showlegend is not False)
    assert list(visits_b2.x) == [20, 40, 60, 80, 100]


def test_boards_overlay_visit_shares() -> None:
    ttt = make_game("tic_tac_toe")
    svg = tic_tac_toe_svg(ttt, ttt.parse_state("X.O.X...."), {8: (0.6, 0.25)})
    assert svg.startswith("<svg") and "60%" in svg and "Q +0.25" in svg and ">X<" in svg
    c4 = make_game("connect_four")
    svg = connect_four_svg(c4, c4.parse_state("4453"), {2: (0.5, -0.1)})
    assert "50%" in svg and "-0.10" in svg and svg.count("<circle") == 42
    assert board_svg(Take(), (3, 0), {}) is None
