"""The exact answer beside Q in the app (the ``exact`` toggle): the board, the UCT table, the
regret chart and the narration, on a tic-tac-toe trap and on Connect Four; nothing computed while
the toggle is off; the pure helpers of app/words/exact.py and the board views with exact values."""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

import mcts_lab.exact
from app.drawing.boards import board_legend, gridiron_svg, stats_rows, tic_tac_toe_svg
from app.drawing.figures import history_figure, series_point
from app.live.state import opening_state
from app.words import exact as app_exact
from app.words.exact import ExactAnswer, kept_sentence, regret_points, verdict
from games import make_game
from mcts_core import Search, SearchConfig
from tests.app_helpers import MAIN, blocks, board_pictures, narration, notes, tab, texts

#: AppTest runs of the whole page: seconds each.
pytestmark = pytest.mark.slow

#: O to move; only c1 and c3 hold the draw. Plain UCT (C 1.4, random rollouts) with seed 0
#: prefers a1, a loss, after 100 iterations and a best move after 800 (lessons/traps.toml).
TRAP = {"game": "tic_tac_toe", "position": "...O.X.X.", "seed": "0", "steps": "100"}
TRAP_VERDICT = "The exact answer: c1 and c3 draw; the search's favourite a1 loses (regret 1)."
#: Connect Four, 24 stones down (18 empty cells): solved in milliseconds; cols 2, 5 and 7 win.
C4_LATE = "667723667173521441123454"


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Every call of the exact solver (it still runs: the values are real)."""
    seen: list[Any] = []
    real = mcts_lab.exact.exact_values

    def counted(game: Any, state: Any, seconds: float = 2.0) -> dict[Any, float | None]:
        seen.append(game.format_state(state))
        return real(game, state, seconds)

    monkeypatch.setattr(mcts_lab.exact, "exact_values", counted)
    return seen


def opened(query: dict[str, str], exact: bool) -> AppTest:
    at = AppTest.from_file(MAIN, default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    if exact:
        at.toggle(key="exact").set_value(True).run()
        assert not at.exception
    return at


def board(at: AppTest) -> str:
    pictures = board_pictures(at)
    assert len(pictures) == 1
    return pictures[0]


def verdicts(at: AppTest) -> list[str]:
    """The exact answer's sentence under the narration (none when the favourite is right)."""
    import html
    import re

    return [
        html.unescape(found)
        for b in blocks(at)
        for found in re.findall(r'<p class="lab-exact">([^<]*)</p>', b)
    ]


def regret_trace(at: AppTest) -> dict[str, Any] | None:
    charts = at.get("plotly_chart")
    assert charts, "no chart drawn"
    data = json.loads(charts[0].proto.spec)["data"]
    return next((t for t in data if t.get("name") == "regret"), None)


def uct_tables(at: AppTest) -> str:
    return next(b for b in blocks(at) if "Depth 0 · node #" in b)


def test_the_trap_is_real() -> None:
    """The position and seed the app tests use: a short plain search prefers a losing move."""
    game = make_game("tic_tac_toe")
    state = game.parse_state(TRAP["position"])
    values = mcts_lab.exact.exact_values(game, state, 2.0)
    assert values == {0: -1.0, 1: -1.0, 2: 0.0, 4: -1.0, 6: -1.0, 8: 0.0}
    search = Search(game, state, SearchConfig(), seed=0)
    search.run(iterations=100)
    assert search.best_action() == 0 and values[0] == -1.0  # a1 loses, c1 / c3 draw
    search.run(iterations=700)
    assert values[search.best_action()] == 0.0


def test_exact_on_shows_the_answer_and_the_wrong_favourite(calls: list[Any]) -> None:
    at = opened(TRAP, exact=True)
    assert at.session_state["lab"].search.best_action() == 0  # the app's favourite: a1
    assert calls == ["...O.X.X."]  # once for the board and the narration together
    svg = board(at)
    assert svg.count("= loss") == 4 and svg.count("= draw") == 2  # every legal cell
    assert svg.count('class="exact-wrong"') == 1
    assert '<rect x="4" y="4" width="82" height="82" fill="none" rx="3" class="exact-wrong"' in svg
    assert "Red outline: the search's favourite" in texts(at)
    assert verdicts(at) == [TRAP_VERDICT]
    assert TRAP_VERDICT in narration(at)

    at.button(key="step").click().run()  # a trace whose path starts at the root
    tab(at, "Why this path")
    tables = uct_tables(at)
    assert tables.count("<th>exact</th>") == 1  # the root's table only
    assert "Depth 1 · node #" in tables  # a deeper decision without the column
    first = tables.split("Depth 1 · node #")[0]
    assert first.count("<td>loss</td>") == 4 and first.count("<td>draw</td>") == 2

    at.session_state["iterations_per_click"] = 700
    tab(at, "Charts")
    at.button(key="step_n").click().run()
    assert not at.exception
    trace = regret_trace(at)
    assert trace is not None
    assert trace["y"][0] == 1.0 and trace["y"][-1] == 0.0 and trace["x"][0] == 100
    kept = trace["x"][trace["y"].index(0.0)]
    assert all(r == 0.0 for r in trace["y"][trace["y"].index(0.0) :])  # found and kept
    assert f"found a best move at iteration {kept:,} and kept it from then on" in texts(at)
    assert verdicts(at) == []  # the favourite is right now: nothing said
    tab(at, "Board")
    assert 'class="exact-wrong"' not in board(at)
    assert "is a best move under perfect play" in texts(at)
    assert calls == ["...O.X.X."]  # every later click and view read the session's cache


def test_exact_off_computes_nothing_and_shows_nothing(calls: list[Any]) -> None:
    at = opened(TRAP, exact=False)
    svg = board(at)
    assert "= " not in svg and "exact-wrong" not in svg
    assert "Red outline" not in texts(at) and verdicts(at) == []
    at.button(key="step").click().run()
    tab(at, "Why this path")
    assert "<th>exact</th>" not in uct_tables(at)
    tab(at, "Charts")
    at.button(key="step").click().run()
    assert regret_trace(at) is None
    assert "Regret" not in texts(at)
    assert calls == []
    at.toggle(key="exact").set_value(True).run()  # on: the charts tab draws the line
    assert regret_trace(at) is not None and len(calls) == 1
    at.toggle(key="exact").set_value(False).run()  # off again: gone, nothing more computed
    assert regret_trace(at) is None and len(calls) == 1


def test_a_link_turns_exact_on(calls: list[Any]) -> None:
    at = opened(TRAP | {"exact": "1"}, exact=False)
    assert at.session_state["exact"] is True
    assert "= draw" in board(at) and verdicts(at) == [TRAP_VERDICT]
    at.toggle(key="exact").set_value(False).run()
    assert "exact" not in at.query_params  # the URL follows the toggle
    at.toggle(key="exact").set_value(True).run()
    assert at.query_params["exact"] == "1"  # and so does the Link
    bad = opened(TRAP | {"exact": "yes"}, exact=False)
    assert bad.session_state["exact"] is False
    assert "ignored exact='yes' from the link: use 1 or 0" in notes(bad, "warning")
    assert calls == ["...O.X.X."]


def test_connect_four_late_position_solves(calls: list[Any]) -> None:
    at = opened({"game": "connect_four", "position": C4_LATE, "steps": "50"}, exact=True)
    svg = board(at)
    assert svg.count("= win") == 3 and svg.count("= loss") == 4 and "= ?" not in svg
    assert not [n for n in notes(at, "warning") if "budget" in n]
    assert calls == [C4_LATE]


def test_connect_four_early_position_runs_out_of_time(
    calls: list[Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_exact, "EXACT_SECONDS", 0.05)
    at = opened({"game": "connect_four", "position": "4453", "steps": "50"}, exact=True)
    svg = board(at)
    assert svg.count("= ?") == 7
    assert (
        "The exact values of 7 of 7 moves are unknown (?): the 0.05 s budget ran out"
        in " ".join(notes(at, "warning"))
    )
    assert verdicts(at) == []  # nothing is claimed without the values
    tab(at, "Charts")
    at.button(key="step").click().run()
    assert "The regret is not known" in texts(at)
    assert calls == ["4453"]


# ---------------------------------------------------------------- pure helpers


def test_answer_words_numbers_and_verdicts() -> None:
    labels = {0: "a", 1: "b", 2: "c", 3: "d", 4: "e"}
    answer = ExactAnswer({0: 1.0, 1: 0.0, 2: -1.0, 3: None}, labels, 2.0)
    assert [answer.text(a) for a in range(4)] == ["win", "draw", "loss", "?"]
    assert answer.best == 1.0 and answer.regret(1) == 1.0 and answer.regret(3) is None
    assert answer.wrong(2) and not answer.wrong(0) and not answer.wrong(3)
    assert verdict(answer, 1) == (
        "The exact answer: a wins; the search's favourite b only draws (regret 1)."
    )
    assert verdict(answer, 0) is None and verdict(answer, 3) is None
    assert "1 of 4 moves" in str(answer.budget_note())
    assert ExactAnswer({0: 1.0}, labels).budget_note() is None
    # an unknown move may be better than a draw: no best value, no verdict
    unsure = ExactAnswer({0: 0.0, 1: -1.0, 2: None}, labels)
    assert unsure.best is None and verdict(unsure, 1) is None
    many = ExactAnswer({a: 0.0 for a in range(4)} | {4: -1.0}, labels)
    assert verdict(many, 4) == (
        "The exact answer: a, b, c and 1 more draw; the search's favourite e loses (regret 1)."
    )
    dice = ExactAnswer({0: 0.5, 1: 0.0, 2: -0.25}, labels)
    assert [dice.text(a) for a in range(3)] == ["+0.50", "+0.00", "-0.25"]
    assert verdict(dice, 2) == (
        "The exact answer: a is worth +0.50; the search's favourite c only -0.25 (regret 0.75)."
    )


def test_regret_points_and_when_the_search_kept_a_best_move() -> None:
    answer = ExactAnswer({0: 0.0, 1: -1.0}, {0: "a", 1: "b"})
    series = [
        {"iteration": 10, "best_action": 1},
        {"iteration": 20, "best_action": None},  # no favourite yet: left out
        {"iteration": 30, "best_action": 0},
        {"iteration": 40},  # a point from before the field existed: left out
    ]
    assert regret_points(series, answer) == [(10, 1.0), (30, 0.0)]
    assert kept_sentence([]) == "No favourite yet: step a few times."
    assert kept_sentence([(10, 0.0), (20, 0.0)]) == (
        "The favourite was a best move at every point from iteration 10 on."
    )
    assert kept_sentence([(10, 1.0), (20, 0.0), (30, 0.0)]) == (
        "The search found a best move at iteration 20 and kept it from then on."
    )
    assert kept_sentence([(10, 0.0), (20, 2.0), (30, 0.0), (40, 0.0)]) == (
        "The search first found a best move at iteration 10, lost it again, and kept one "
        "from iteration 30 on."
    )
    assert kept_sentence([(10, 0.0), (20, 1.0)]).startswith("At iteration 20 the favourite still")
    assert kept_sentence([(10, 0.0), (20, None)]).startswith("The regret is not known")


def test_history_figure_with_regret() -> None:
    game = make_game("tic_tac_toe")
    state = game.parse_state(TRAP["position"])
    search = Search(game, state, SearchConfig(), seed=0)
    series = []
    for _ in range(4):
        search.run(iterations=50)
        series.append(series_point(search))
    labels = {a: game.action_label(state, a) for a in game.legal_actions(state)}
    answer = ExactAnswer(mcts_lab.exact.exact_values(game, state, 2.0), labels)
    points = regret_points(series, answer)
    assert [i for i, _ in points] == [50, 100, 150, 200] and points[1] == (100, 1.0)
    fig = history_figure(series, points)
    regret = next(t for t in fig.data if t.name == "regret")
    assert regret.yaxis == "y" and list(regret.y) == [r for _, r in points]
    assert {t.yaxis for t in fig.data} == {"y", "y2", "y3", "y4"}
    assert fig.layout.yaxis.title.text == "regret" and fig.layout.yaxis4.title.text == "visits"
    assert {t.yaxis for t in history_figure(series).data} == {"y", "y2", "y3"}  # unchanged


def test_board_views_with_exact_values() -> None:
    ttt = make_game("tic_tac_toe")
    state = ttt.parse_state(TRAP["position"])
    labels = {a: ttt.action_label(state, a) for a in ttt.legal_actions(state)}
    answer = ExactAnswer(mcts_lab.exact.exact_values(ttt, state, 2.0), labels)
    plain = tic_tac_toe_svg(ttt, state, {0: (0.5, 0.1)})
    assert "= " not in plain and "exact-wrong" not in plain
    right = tic_tac_toe_svg(ttt, state, {2: (0.5, 0.1)}, exact=answer, favourite=2)
    assert "= draw" in right and "exact-wrong" not in right
    assert "Red outline" in board_legend(ttt, exact=True) and "Red" not in board_legend(ttt)

    grid = make_game("gridiron")
    start = opening_state(grid, 0)
    activate = ("activate", 0)
    after = grid.next_state(start, activate, grid.chance_outcomes(start, activate)[0][0])
    moves = [a for a in grid.legal_actions(after) if a[0] == "move"][:2]
    end = ("end_turn",)
    values = {moves[0]: 1.0, moves[1]: -0.5, end: None}  # a sure win is known: best is 1
    answer = ExactAnswer(values, {a: grid.action_label(after, a) for a in values})
    stats = {moves[0]: (0.2, 0.1), moves[1]: (0.7, 0.3), end: (0.1, 0.0)}
    svg = gridiron_svg(grid, after, stats, exact=answer, favourite=moves[1])
    assert ">+1.00<" in svg and ">-0.50<" in svg and "exact ?" in svg  # numbers: dice decide
    assert svg.count('class="exact-wrong"') == 1
    svg = gridiron_svg(
        grid,
        after,
        {end: (1.0, 0.0)},
        exact=ExactAnswer({end: -1.0, moves[0]: 0.0}, {}),
        favourite=end,
    )
    assert "✗ end turn" in svg and "exact loss" in svg

    nim = make_game("nim")
    state = nim.initial_state()
    values = mcts_lab.exact.exact_values(nim, state, 2.0)
    labels = {a: nim.action_label(state, a) for a in values}
    answer = ExactAnswer(values, labels)
    losing = next(a for a, v in values.items() if v == -1.0)
    rows = stats_rows(nim, state, {losing: (1.0, 0.2)}, exact=answer, favourite=losing)
    assert len(rows) == len(values) and rows[0]["move"] == labels[losing]
    assert rows[0]["exact"] == "loss" and rows[0]["mark"].startswith("✗ the favourite")
    assert sorted(r["exact"] for r in rows).count("win") == sum(v == 1.0 for v in values.values())
    assert "exact" not in stats_rows(nim, state, {losing: (1.0, 0.2)})[0]
