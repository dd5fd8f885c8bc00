"""Stepping while an older history entry is shown (issue 31, found on the way): the step
continues the newest tree and says where it went on from."""

from __future__ import annotations

from tests.app_helpers import fresh, metric, notes


def test_a_step_from_history_says_it_continues_from_the_newest_tree() -> None:
    """Steps: a tree of 100 iterations, Step, Step (102), Back (the screen shows 101), Step.
    The screen went from iteration 101 to 103 without a word; the rule (docs/app.md, History)
    is that a Step always continues the newest tree, and the step now says so."""
    at = fresh(game="tic_tac_toe", seed="1", steps="100")
    at.button(key="step").click().run()
    at.button(key="step").click().run()
    at.button(key="back").click().run()
    assert metric(at, "Iteration") == "101"
    at.button(key="step").click().run()
    assert metric(at, "Iteration") == "103"
    said = " ".join(notes(at, "info"))
    assert "iteration 101" in said and "newest tree" in said and "iteration 102" in said, said
    at.button(key="step").click().run()  # from the newest entry: nothing to say
    assert not any("newest tree" in n for n in notes(at, "info"))


def test_a_phase_and_step_n_from_history_say_so_too() -> None:
    at = fresh(game="tic_tac_toe", seed="1", steps="10")
    at.button(key="step").click().run()
    at.button(key="back").click().run()
    at.button(key="phase_step").click().run()
    assert any("newest tree" in n for n in notes(at, "info"))
    at.button(key="back").click().run()
    at.button(key="step_n").click().run()
    assert any("newest tree" in n for n in notes(at, "info"))


def test_each_phase_keeps_the_path_and_the_new_node_marked() -> None:
    """Phase by phase (issue 40): select marks its path; expand keeps it and adds the new node;
    simulate keeps both (the rollout starts at the new node); backpropagate's trace marks the
    same. The drawing marked the path only for select and the new node only for expand."""
    at = fresh(game="tic_tac_toe", seed="1", steps="12")
    marks = []
    for _ in range(4):
        at.button(key="phase_step").click().run()
        entry = at.session_state["lab"].history[-1]
        marks.append((entry.phase.name, entry.marks[0], entry.marks[1]))
        marked = {n.id for n in entry.view.nodes if n.marks.path}
        assert marked == (entry.marks[0] & {n.id for n in entry.view.nodes}), entry.phase
    (_, selected, none), (_, expand_path, new), (_, simulate_path, same), (_, backup_path, last) = (
        marks
    )
    assert none is None and len(selected) >= 2
    assert new is not None and same == new == last
    assert expand_path == simulate_path == selected | {new} == backup_path
