"""The lesson's Export (app/lessons/lesson_view.py, issue 44): beside the sidebar page's buttons
and in Present mode's lesson strip, it sends the open lesson in the page's language and offers
its file; a failure is one translated line. (The deck itself, read back page by page and press
by press, is tests/app/export/test_export.py's.)"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("streamlit")

import app.export.api as export_api
from tests.app_helpers import fresh, notes


def _download_labels(at: Any) -> list[str]:
    found: list[str] = []

    def walk(node: Any) -> None:
        if getattr(node, "type", None) == "download_button":
            found.append(node.proto.label)
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return found


def test_the_lesson_s_export_sends_the_open_lesson_in_the_page_s_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sent: list[tuple[str, str, str]] = []

    def made(name: str, fmt: str, lang: str, on_progress: Any) -> bytes:
        sent.append((name, fmt, lang))
        on_progress(3, 6)
        return b"PK deck"

    monkeypatch.setattr(export_api, "export_lesson", made)
    for query in ({}, {"presentation": "1"}):  # the sidebar's page, then the lesson strip
        sent.clear()
        at = fresh(lang="es", lesson="traps", page="2", **query)
        at.session_state["lesson_export"] = True  # the popover open
        at.run()
        assert at.selectbox(key="lesson_export_format").value == "pptx"
        at.button(key="lesson_export_go").click().run()
        assert not at.exception
        assert sent == [("traps", "pptx", "es")]
        assert _download_labels(at) == ["Descargar mcts-lab-lesson-traps-es.pptx"]

    def broken(*_args: object) -> bytes:
        raise ValueError("unknown lesson 'traps'")

    monkeypatch.setattr(export_api, "export_lesson", broken)
    at.selectbox(key="lesson_export_format").set_value("pdf").run()
    assert _download_labels(at) == []  # the file kept is the deck's, not a handout
    at.button(key="lesson_export_go").click().run()
    assert not at.exception and at.session_state["lesson"] == "traps"
    assert notes(at, "error") == [
        "No se pudo crear el archivo: unknown lesson 'traps'. La pantalla no ha cambiado."
    ]
