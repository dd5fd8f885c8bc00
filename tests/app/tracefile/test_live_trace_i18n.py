"""The words of app/live/ (the callbacks' notices, the history's labels, the A/B note) and of
app/tracefile/ (the file view and its diff) in the pseudo-language (issue 34): every word they
put on screen went through ``_()``, and what is kept to be shown later (a history entry's label
and narration, the A/B note, the file view's kept lines) is made when shown, in the language
of that moment."""

from __future__ import annotations

import html
import json
import re
from typing import Any

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

from app.live import play, state, stepping
from app.live.session import HistoryEntry, Pair, sentences
from app.tracefile import diff_view
from app.words import i18n
from app.words.i18n import _, language
from mcts_lab import traces
from mcts_lab.compare.trace_diff import diff_traces
from tests.app.tracefile.test_app_trace import lab_file
from tests.app_helpers import fresh, notes, outside_pseudo, tab

#: Words that are not translated: terms (C, Q, UCT, N, A and B the two runs), codes.
ALLOWED = {"C", "Q", "UCT", "N", "A", "B", "MCTS"}


def leftover(text: str, *others: str) -> list[str]:
    """The words of ``text`` that skipped ``_()``: outside every ⟦ ⟧, after removing
    ``others`` (text that is not ours: a file's name, mcts_lab's English prose, move labels)."""
    rest = outside_pseudo(text)
    for other in sorted(others, key=len, reverse=True):
        if other:
            rest = rest.replace(other, " ")
    words = re.findall(r"[A-Za-z][A-Za-z'_-]*", rest)
    return [w for w in words if w not in ALLOWED and not re.fullmatch(r"[a-h][0-9]*", w)]


def test_the_check_finds_a_planted_unwrapped_string() -> None:
    with language(i18n.PSEUDO):
        planted = _("Reset: the tree is empty again.") + " Tree kept"
    assert leftover(planted) == ["Tree", "kept"]
    assert leftover(planted.removesuffix(" Tree kept")) == []


# ---------------------------------------------------------------- pure words


def test_live_words_in_the_pseudo_language() -> None:
    with language(i18n.PSEUDO):
        said = [
            stepping._stopped_at(12, "a1 leads", 11, 100),
            stepping._stopped_at(12, None),
            play._describe(_Game(), None, 3),
            state._setting_text("rollout_depth", -1),
            state._setting_text("rollout_depth", 0),
            sentences(_("Game over: draw."), _("Choose a condition to run until.")),
            Pair(None, None, None, 0, stopped="full", stopped_at=1234).note,  # type: ignore[arg-type]
            Pair(None, None, None, 0, stopped="proven", stopped_at=3).note,  # type: ignore[arg-type]
        ]
    for text in said:
        assert leftover(text, "a1 leads", "b2") == [], text
    with language("en"):
        assert Pair(None, None, None, 0, stopped="full", stopped_at=1234).note == (  # type: ignore[arg-type]
            "B stopped at iteration 1,234: its tree is full. Reset to start both again."
        )


class _Game:
    def action_label(self, state: Any, action: Any) -> str:
        return "b2"


def test_a_history_entry_is_worded_when_shown() -> None:
    """An entry written in one language reads in the language current when it is shown."""
    with language("en"):
        entry = HistoryEntry(
            number=1,
            iteration=5,
            say_what=lambda: _("step x{n}", n=5),
            trace=None,
            tell=lambda: _("Reset: the tree is empty again (same position, settings and seed)."),
        )
        assert entry.what == "step x5"
        english = entry.narration
    with language(i18n.PSEUDO):
        assert entry.what.startswith(i18n.PSEUDO_OPEN) and leftover(entry.what) == []
        assert leftover(entry.narration) == [] and entry.narration != english
    with language("en"):
        assert entry.narration == english  # made once per language, kept


def test_diff_rows_and_headers_in_the_pseudo_language() -> None:
    a, b = lab_file(seed=4), lab_file(seed=5)
    diff = diff_traces(traces.loads(a), traces.loads(b))
    with language("en"):
        english = diff_view.node_rows(diff)
        assert diff_view.shown_rows(english) == english  # English: the rows unchanged
    with language(i18n.PSEUDO):
        rows = diff_view.shown_rows(diff_view.node_rows(diff))
    assert rows
    for row in rows:
        for key in row:
            assert leftover(key) == [], key
        assert leftover(str(row[i18n.pseudo("differs")])) == [], row


# ---------------------------------------------------------------- pages


def _pseudo_page(monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv(i18n.PSEUDO_ENV, "1")
    return fresh(lang=i18n.PSEUDO)


def _main_words(at: AppTest, *others: str) -> list[str]:
    """What the file view shows in the main area that skipped ``_()``: buttons and their
    help, the slider, captions, the statistics line, kept lines, notices, table headers, the
    expander and the uploader (the narration is app/words', not checked here)."""
    main = at.main
    parts: list[str] = []
    parts += [b.label for b in main.button] + [b.help or "" for b in main.button]
    parts += [s.label for s in main.slider] + [s.help or "" for s in main.slider]
    parts += [c.value for c in main.caption]
    for h in main.get("html"):
        value = str(h.value)
        if "lab-narration" in value or "lab-flip" in value or "<style>" in value:
            continue
        parts.append(html.unescape(re.sub(r"<[^>]+>", " ", value)))
    parts += [str(col) for d in main.dataframe for col in d.value.columns]
    parts += [e.label for e in main.get("expander")]
    parts += [u.proto.label for u in main.get("file_uploader")]
    return leftover("\n".join(parts), *others)


def test_the_file_view_in_the_pseudo_language(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file with an anomaly opened, stepped, every tab, Run until and a diff, in en-XA."""
    lines = lab_file("connect_four", 30).decode().splitlines()
    doc = json.loads(lines[0])
    nodes = [json.loads(line) for line in lines[1:] if '"iteration"' not in line]
    records = [json.loads(line) for line in lines[1:] if '"iteration"' in line]
    nodes[0]["visits"] += 5
    doc["nodes"], doc["trace"] = nodes, records
    at = _pseudo_page(monkeypatch)
    at.file_uploader(key="trace_file").upload("broken.json", json.dumps(doc).encode(), "a/json")
    at.run()
    assert not at.exception and at.session_state["trace_replay"] is not None
    report = at.session_state["trace_report"]
    # the checks' names and details are mcts_lab's (inspect's English prose)
    theirs = [str(a.get(k, "")) for a in report["anomalies"] for k in ("kind", "detail")]
    theirs += [*report["anomaly_counts"], "broken.json", "connect_four", "mcts-lab", "json"]
    assert _main_words(at, *theirs) == []
    for _step in range(3):
        at.button(key="trace_step").click().run()
    for name in ("Why this path", "Anomalies", "Board", "File"):
        at.session_state["trace_tabs"] = i18n.pseudo(name)
        at.run()
        assert not at.exception
        words = _main_words(at, *theirs)
        assert words == [], (name, words)
    at.session_state["run_until"] = "visits"
    at.session_state["run_until_arg"] = "zz>=3"
    at.button(key="run_until_go").click().run()  # a condition mcts_lab refuses
    assert not at.exception
    stop = at.session_state["trace_stop"]
    assert callable(stop)  # kept as a function: worded when shown
    assert _main_words(at, *theirs, str(stop()).split(": ", 1)[-1]) == []
    at.file_uploader(key="trace_diff_file").upload(
        "b.jsonl", lab_file("connect_four", 30, seed=5), "a/json"
    )
    at.run()
    assert not at.exception
    diff = at.session_state["trace_diff_result"][1]
    prose = [
        getattr(diff.first_difference, "explanation", ""),
        getattr(diff.first_path_difference, "explanation", ""),
        diff.records_note or "",
        "b.jsonl",
    ]
    assert _main_words(at, *theirs, *prose) == []


def test_a_b_and_stepping_notices_in_the_pseudo_language(monkeypatch: pytest.MonkeyPatch) -> None:
    at = _pseudo_page(monkeypatch)
    at.button(key="step").click().run()
    tab(at, "A/B")
    at.toggle(key="ab").set_value(True).run()  # A had an iteration: both start again
    said = notes(at, "info") + notes(at, "warning") + notes(at, "success")
    assert said and not at.exception
    assert [w for line in said for w in leftover(line)] == [], said
    lab = at.session_state["lab"]
    with language(i18n.PSEUDO):
        whats = [entry.what for entry in lab.history]
    assert all(leftover(what) == [] for what in whats), whats
