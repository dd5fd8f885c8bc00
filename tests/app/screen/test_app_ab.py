"""The A/B tab (app/live/ab.py: search B in lockstep with A on every Step / Step N click) and
the arena tab's sweep (mcts_lab.sweep.sweeps, serial in the app), driven through AppTest; the sweep
chart's figure builder without Streamlit."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

import app.live.ab
from app.drawing.figures import sweep_figure
from games import make_game
from mcts_core import SearchConfig
from mcts_lab.compare.searches import compare_searches
from mcts_lab.sweep.sweeps import run_sweep
from tests.app_helpers import fresh, metric, notes, tab, texts

#: AppTest runs of the whole page: seconds each.
pytestmark = pytest.mark.slow


def lab(at: AppTest) -> Any:
    return at.session_state["lab"]


def ab_on(at: AppTest, b_c: float | None = None) -> AppTest:
    tab(at, "A/B")
    at.toggle(key="ab").set_value(True).run()
    if b_c is not None:
        at.number_input(key="ab_c").set_value(b_c).run()
    assert not at.exception
    return at


def step_n(at: AppTest, n: int) -> AppTest:
    at.number_input(key="iterations_per_click").set_value(n).run()
    at.button(key="step_n").click().run()
    assert not at.exception
    return at


def expected(c_a: float, c_b: float, iterations: int, seed: int) -> Any:
    """What ``mcts-lab compare`` finds for the same settings (the app's node cap included)."""
    game = make_game("tic_tac_toe")
    config = SearchConfig(c=c_a, max_nodes=200_000)
    return compare_searches(
        game, game.initial_state(), config, SearchConfig(c=c_b, max_nodes=200_000),
        iterations=iterations, seed=seed,
    )  # fmt: skip


def test_b_follows_every_click_and_shows_the_compare_divergence() -> None:
    at = fresh(game="tic_tac_toe", seed="1")
    at.slider(key="c").set_value(0.5).run()
    ab_on(at, b_c=2.0)
    assert at.session_state["ab_policy"] == "uct"  # B's other settings are A's
    step_n(at, 200)
    a, b = lab(at).search, lab(at).ab.b
    assert a.iterations == b.iterations == 200 and metric(at, "Iteration") == "200"
    assert (a.config.c, b.config.c) == (0.5, 2.0) and b.seed == a.seed == 1
    at.button(key="step").click().run()
    assert a.iterations == b.iterations == 201
    body = texts(at)
    found = expected(0.5, 2.0, 201, 1).first_divergence
    assert found is not None and found.iteration == 14
    assert f"First divergence: iteration {found.iteration}, depth {found.depth}" in body
    assert found.explanation in body  # mcts_lab.compare.searches's own explanation
    assert "A / B differ in: c 0.5 / 2" in body and "201 iterations each" in body
    # B is the same tree mcts-lab compare builds: the same root statistics
    twin = expected(0.5, 2.0, 201, 1).search_b
    assert [(c.action, c.visits) for c in b.children_summary()] == [
        (c.action, c.visits) for c in twin.children_summary()
    ]


def test_b_follows_from_any_tab_and_the_tab_keeps_its_settings() -> None:
    at = ab_on(fresh(game="tic_tac_toe"), b_c=0.5)
    tab(at, "Board")  # Streamlit drops a closed tab's widget values: the session keeps them
    step_n(at, 50)
    at.button(key="step").click().run()
    assert lab(at).search.iterations == lab(at).ab.b.iterations == 51
    tab(at, "A/B")
    assert at.session_state["ab"] is True and at.session_state["ab_c"] == 0.5
    assert "51 iterations each" in texts(at)


def test_identical_settings_never_diverge() -> None:
    at = ab_on(fresh(game="tic_tac_toe"))
    step_n(at, 150)
    assert lab(at).search.iterations == lab(at).ab.b.iterations == 150
    body = texts(at)
    assert "No divergence yet after 150 iterations." in body
    assert "same settings: their paths must never part" in body


def test_the_lockstep_stops_looking_after_its_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.live.ab, "LOCKSTEP_LIMIT", 5)  # c 0.5 / 2 part at iteration 14
    at = fresh(game="tic_tac_toe", seed="1")
    at.slider(key="c").set_value(0.5).run()
    step_n(ab_on(at, b_c=2.0), 20)
    pair = lab(at).ab
    assert pair.lockstep.first_divergence is None and not pair.looking
    assert lab(at).search.iterations == pair.b.iterations == 20
    assert "No divergence in the first 5 iterations: the lockstep stopped looking" in texts(at)


def test_a_reset_rebuilds_b_and_a_tree_with_iterations_starts_again() -> None:
    at = step_n(fresh(game="tic_tac_toe"), 30)
    ab_on(at)  # A had 30 iterations: both start empty, and the screen says so
    assert any("both trees start empty" in n for n in notes(at, "info"))
    at.number_input(key="ab_c").set_value(0.3).run()
    assert lab(at).search.iterations == 0 and lab(at).ab.b.iterations == 0
    step_n(at, 40)
    first_b = lab(at).ab.b
    at.button(key="reset").click().run()
    at.button(key="step").click().run()
    assert lab(at).ab.b is not first_b  # rebuilt with A
    assert lab(at).search.iterations == lab(at).ab.b.iterations == 1


def test_with_ab_off_b_is_never_built(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []
    real = app.live.ab.Lockstep

    class Counted(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            built.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(app.live.ab, "Lockstep", Counted)
    at = fresh(game="tic_tac_toe")
    tab(at, "A/B")
    step_n(at, 100)
    at.button(key="step").click().run()
    assert built == [] and lab(at).ab is None
    assert "ab_c" not in [w.key for w in at.number_input]  # B's form shows only while on
    at.toggle(key="ab").set_value(True).run()
    assert len(built) == 2  # A had iterations: one look, then both started again
    at.toggle(key="ab").set_value(False).run()
    step_n(at, 50)
    assert lab(at).ab is None and len(built) == 2


# ------------------------------------------------------------------ the sweep


def sweep_panel(at: AppTest) -> AppTest:
    tab(at, "Arena")
    at.toggle(key="show_arena").set_value(True).run()
    at.number_input(key="arena_iterations").set_value(20).run()
    at.selectbox(key="arena_rollout").set_value("game").run()
    return at


def test_a_tiny_sweep_shows_the_chart_and_the_table() -> None:
    at = sweep_panel(fresh(game="tic_tac_toe"))
    at.text_input(key="sweep_values").set_value("0.5, 2").run()
    at.number_input(key="sweep_games").set_value(1).run()
    at.button(key="sweep_run").click().run()
    assert not at.exception
    assert len(at.get("plotly_chart")) == 1
    table = next(c.value for c in at.code if c.value.startswith("sweep of c on tic_tac_toe"))
    assert "1 games per side per value" in table and "\n0.5  " in table and "\n2    " in table
    result = lab(at).sweep
    assert [r.total.games for r in result.results] == [2, 2] and result.stopped == ""


def test_a_sweep_past_its_time_keeps_the_games_played(monkeypatch: pytest.MonkeyPatch) -> None:
    import app.live.jobs

    monkeypatch.setattr(app.live.jobs, "ARENA_SECONDS", 1e-9)  # no new task after the first
    at = sweep_panel(fresh(game="tic_tac_toe"))
    at.text_input(key="sweep_values").set_value("0.5,2").run()
    at.button(key="sweep_run").click().run()
    assert not at.exception
    result = lab(at).sweep
    assert result.stopped == "time" and [r.total.games for r in result.results] == [2, 0]
    assert any("The sweep stopped early (time)" in n for n in notes(at, "info"))
    assert len(at.get("plotly_chart")) == 1  # the value played is drawn; the other is left out


@pytest.mark.parametrize(
    ("param", "values", "message"),
    [
        ("c", "0.5,,2", "has an empty item"),
        ("c", "half", "'half' is not a number"),
        ("depth", "1.5", "'1.5' is not a whole number or none"),
        ("c", "1,1.0", "c 1 is given twice"),
    ],
)
def test_bad_sweep_values_are_a_warning(param: str, values: str, message: str) -> None:
    at = sweep_panel(fresh(game="tic_tac_toe"))
    at.selectbox(key="sweep_param").set_value(param).run()
    at.text_input(key="sweep_values").set_value(values).run()
    at.button(key="sweep_run").click().run()
    assert not at.exception
    warned = notes(at, "warning")
    assert any(w.startswith("Sweep values:") and message in w for w in warned), warned
    assert lab(at).sweep is None and not at.get("plotly_chart")


def test_sweep_figure_has_home_and_away_with_wilson_bars() -> None:
    result = run_sweep(
        "tic_tac_toe", param="c", values=(0.5, 2.0), games=2, iterations=20, backend="serial"
    )
    fig = sweep_figure(result)
    assert [t.name for t in fig.data] == ["MCTS as home", "MCTS as away"]
    home = fig.data[0]
    assert list(home.x) == ["0.5", "2"]
    assert list(home.y) == [r.home.win_rate for r in result.results]
    for rate, up, down in zip(home.y, home.error_y.array, home.error_y.arrayminus, strict=True):
        assert 0 <= rate - down <= rate <= rate + up <= 1 and up + down > 0
