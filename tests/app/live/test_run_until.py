"""Run until (a breakpoint) in the app: Step N stopped at the first iteration where the chosen
condition holds (the registry ``mcts_lab.breakpoints.conditions``, as ``mcts-lab search
--until``)."""

from __future__ import annotations

import pytest

pytest.importorskip("streamlit")

from tests.app_helpers import fresh, metric, notes


def _root_visits(at: object, label: str) -> int:
    lab = at.session_state["lab"]  # type: ignore[attr-defined]
    search = lab.search
    for child in search.root.children:
        if search.game.action_label(search.root_state, child.action) == label:
            return int(child.visits)
    return 0


def test_run_until_stops_at_the_first_iteration_the_condition_holds() -> None:
    at = fresh(game="tic_tac_toe", seed="3")
    at.selectbox(key="run_until").set_value("visits")
    at.text_input(key="run_until_arg").input("b2>=12")
    at.button(key="run_until_go").click().run()
    assert not at.exception
    # visits grow by one an iteration at most: the first iteration b2 has 25 is the stop
    assert _root_visits(at, "b2") == 12
    iterations = int(metric(at, "Iteration").replace(",", ""))
    assert 12 <= iterations < 100
    said = " ".join(notes(at, "info"))
    assert f"Stopped at iteration {iterations}" in said and "b2 reached 12 visits" in said


def test_a_condition_that_does_not_hold_runs_step_n_and_says_so() -> None:
    at = fresh(game="tic_tac_toe", seed="3")
    at.selectbox(key="run_until").set_value("visits")
    at.text_input(key="run_until_arg").input("b2>=5000")
    at.button(key="run_until_go").click().run()
    assert not at.exception and metric(at, "Iteration") == "100"
    assert any("did not hold within 100 iterations" in w for w in notes(at, "info"))


@pytest.mark.parametrize("argument", ["", "z9>=3", "b2>=x"])
def test_a_bad_condition_is_one_line(argument: str) -> None:
    at = fresh(game="tic_tac_toe", seed="3")
    at.selectbox(key="run_until").set_value("visits")
    at.text_input(key="run_until_arg").input(argument)
    at.button(key="run_until_go").click().run()
    assert not at.exception and metric(at, "Iteration") == "0"
    assert any(w.startswith("Not run:") for w in notes(at, "warning"))
