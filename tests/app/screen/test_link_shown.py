"""The tree a link rebuilds is the one on screen (issue 31, point 6): after Back, the entry
shown, not the newest; after a played move (the tree kept), as many iterations as the new
root has had, not the count since the game's start. Read through the class's published frame,
whose link is a student's "Explore on my own" (the Link popover's text is the same
``state.replay_params``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("streamlit")

import app.classroom.shared as class_view
from tests.app_helpers import fresh, notes
from tests.class_fixtures import own_class_store


@pytest.fixture(autouse=True)
def class_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from own_class_store(tmp_path, monkeypatch)


def _link(at: object, code: str) -> dict[str, str]:
    _, frame = class_view.room().follow(code, -1)
    assert frame is not None
    return dict(frame["link"])


def test_the_link_rebuilds_the_entry_on_screen() -> None:
    at = fresh(game="tic_tac_toe", seed="1")
    at.button(key="class_start").click().run()
    code = at.session_state["class_teacher"].code
    for _ in range(3):
        at.button(key="step").click().run()
    assert _link(at, code)["steps"] == "3"
    at.button(key="back").click().run()  # the screen shows iteration 2
    assert _link(at, code)["steps"] == "2"  # (it said 3 before)
    at.button(key="forward").click().run()
    assert _link(at, code)["steps"] == "3"


def test_after_a_played_move_the_link_rebuilds_the_new_root_s_visits() -> None:
    at = fresh(game="tic_tac_toe", seed="1", steps="60")
    at.button(key="class_start").click().run()
    code = at.session_state["class_teacher"].code
    at.button(key="play_best").click().run()
    search = at.session_state["lab"].search
    visits = search.root.visits
    assert search.iterations > visits  # the kept tree: fewer visits than the count
    link = _link(at, code)
    assert link["steps"] == str(visits) and link["position"] != "........."


def test_in_the_middle_of_an_iteration_the_link_names_the_phases_run() -> None:
    """Phase pressed once and twice: the link says the finished iterations and the phases run
    of the next one (phase=select, then expand), and a page opened from it shows the same
    half-done iteration (it showed the last finished one: the sender's selected path and new
    node were missing). A finished iteration needs no phase."""
    at = fresh(game="tic_tac_toe", seed="1", steps="10")
    at.button(key="class_start").click().run()
    code = at.session_state["class_teacher"].code
    for phase in ("select", "expand"):
        at.button(key="phase_step").click().run()
        link = _link(at, code)
        assert link["steps"] == "10" and link["phase"] == phase
        other = fresh(**link)
        assert not other.exception
        theirs, mine = other.session_state["lab"], at.session_state["lab"]
        assert theirs.search.next_phase == mine.search.next_phase
        assert theirs.history[-1].phase == mine.history[-1].phase
        assert theirs.history[-1].view.to_dict() == mine.history[-1].view.to_dict()
    at.button(key="phase_step").click().run()
    at.button(key="phase_step").click().run()  # backpropagate: iteration 11 done
    link = _link(at, code)
    assert link["steps"] == "11" and "phase" not in link
    refused = notes(fresh(game="tic_tac_toe", phase="sideways"), "warning")
    assert any("ignored phase='sideways'" in w for w in refused), refused


def test_an_entry_from_before_a_played_move_links_to_its_own_root() -> None:
    """Back to the entry before a played move: the link rebuilds that entry's tree (its
    position and its 60 iterations), not the new root's position with the old entry's
    arithmetic."""
    at = fresh(game="tic_tac_toe", seed="1", steps="60")
    at.button(key="class_start").click().run()
    code = at.session_state["class_teacher"].code
    at.button(key="play_best").click().run()
    assert _link(at, code)["position"] != "........."
    at.button(key="back").click().run()  # the entry of the 60 iterations at the start
    link = _link(at, code)
    assert link["position"] == "........." and link["steps"] == "60"
    other = fresh(**link)
    assert other.session_state["lab"].search.root.visits == 60
