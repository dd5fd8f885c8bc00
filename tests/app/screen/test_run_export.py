"""The header's Export box (app/screen/run_export.py, issue 44): it sends the run on the screen
(the tree the Link rebuilds, one slide per iteration the history shows up to the entry shown)
in the page's language, shows a download for that request only, and says in one translated
line why there is nothing to export or why the file could not be made, the screen unchanged."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

import app.export.api as export_api
from app.export import run_deck
from app.export.records import MAX_SLIDES
from app.live.session import HistoryEntry
from app.screen.run_export import history_iterations
from mcts_core.phases import Phase
from tests.app_helpers import fresh, narration, notes


def _entry(
    number: int, visits: int, phase: Phase | None = None, position: str = ""
) -> HistoryEntry:
    return HistoryEntry(number=number, iteration=visits, say_what=lambda: "", trace=None,
                        phase=phase, position=position, root_visits=visits)  # fmt: skip


def test_the_history_s_iterations_up_to_the_entry_shown_from_its_root() -> None:
    entries = [
        _entry(1, 1),
        _entry(2, 2),
        _entry(3, 2, Phase.SELECT),  # half an iteration: its tree is iteration 2's
        _entry(4, 2, Phase.EXPAND),
        _entry(5, 3, Phase.BACKPROPAGATE),
        _entry(6, 103),  # Step 100
        _entry(7, 40, position="X........"),  # a played move: the kept tree's visits
        _entry(8, 41, position="X........"),
    ]
    assert history_iterations(entries, entries[5], 103) == (1, 2, 3, 103)
    assert history_iterations(entries, entries[4], 3) == (1, 2, 3)  # Back: not the newer ones
    assert history_iterations(entries, entries[3], 2) == (1, 2)
    assert history_iterations(entries, entries[7], 41) == (40, 41)  # the new root's only
    assert history_iterations([], None, 20) == (20,)  # a lesson page's tree: no entry yet
    assert history_iterations([], None, 0) == ()
    many = [_entry(n, n) for n in range(1, 251)]
    assert history_iterations(many, many[-1], 250) == tuple(range(251 - MAX_SLIDES, 251))


def _open(at: AppTest) -> AppTest:
    at.session_state["export"] = True  # the popover open (its content is drawn only then)
    at.run()
    assert not at.exception
    return at


def _downloads(at: AppTest) -> list[Any]:
    found: list[Any] = []

    def walk(node: Any) -> None:
        if getattr(node, "type", None) == "download_button":
            found.append(node)
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return found


def test_the_box_exports_the_run_on_the_screen_in_the_page_s_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent: list[tuple[Any, str, str]] = []

    real = export_api.export_run

    def recorded(spec: Any, fmt: str, lang: str, on_progress: Any) -> bytes:
        sent.append((spec, fmt, lang))
        return real(spec, fmt, lang, on_progress)

    monkeypatch.setattr(export_api, "export_run", recorded)
    at = fresh(game="tic_tac_toe", seed="1", iterations="5", lang="es")
    for key in ("step", "step", "step", "step_n", "back"):  # 1, 2, 3, 8; Back to 3
        at.button(key=key).click().run()
    said = narration(at)
    _open(at)
    assert at.selectbox(key="export_format").value == "pptx"
    assert "3 diapositivas" in at.caption[0].value, at.caption[0].value
    at.selectbox(key="export_format").set_value("gif").run()
    at.button(key="export_go").click().run()
    assert not at.exception and notes(at, "error") == []
    (spec, fmt, lang), = sent  # fmt: skip
    assert (spec.game, spec.seed, spec.iterations, spec.at, fmt, lang) == (
        "tic_tac_toe", 1, 3, (1, 2, 3), "gif", "es")  # fmt: skip
    deck = run_deck(spec, lang)
    assert [s.iteration for s in deck.slides] == [1, 2, 3]
    assert " ".join(deck.slides[-1].narration.split()) in " ".join(said.split())
    (download,) = _downloads(at)
    assert download.proto.label == "Descargar mcts-lab-tic_tac_toe-3-es.gif"
    at.button(key="forward").click().run()  # another entry on screen: the file is not its run
    assert _downloads(at) == [] and at.button(key="export_go").disabled is False


def test_nothing_to_export_and_a_failure_are_one_line_the_screen_unchanged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    at = _open(fresh(game="tic_tac_toe", lang="de"))
    assert notes(at, "info") == ["Noch nichts zu exportieren: Drücke zuerst auf Schritt, um "
                                 "eine Iteration auszuführen."]  # fmt: skip
    assert at.button(key="export_go").disabled

    def broken(*_args: object) -> bytes:
        raise OSError("disk full")

    monkeypatch.setattr(export_api, "export_run", broken)
    at = fresh(game="tic_tac_toe", seed="2", steps="250")
    entries = len(at.session_state["lab"].history)
    _open(at)
    at.radio(key="export_iterations").set_value("every").run()  # 250 slides: too many
    assert any("250 slides" in line for line in notes(at, "info")), notes(at, "info")
    assert at.button(key="export_go").disabled
    at.radio(key="export_iterations").set_value("history").run()
    at.button(key="export_go").click().run()
    assert not at.exception
    assert notes(at, "error") == ["The file could not be made: disk full. The screen is unchanged."]
    assert at.session_state["lab"].search.iterations == 250
    assert len(at.session_state["lab"].history) == entries and _downloads(at) == []
