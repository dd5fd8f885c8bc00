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

import app.classroom.teacher as class_view
from tests.app_helpers import fresh
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
