"""Open a tree or trace in the app (AppTest): upload, step, back, slider, anomalies, bad files,
and the round trip: a file of the lab's own run draws the same tree as the live run."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

from app.tree_layout import build_view
from mcts_core import Search
from mcts_lab import traces
from mcts_lab.common import build_config, build_game
from mcts_lab.traces.lab import run_recorded
from mcts_lab.traces.replay import FileReplay

MAIN = str(Path(__file__).resolve().parents[1] / "app" / "main.py")


def lab_file(game: str = "tic_tac_toe", iterations: int = 40, seed: int = 4) -> bytes:
    g = build_game(game)
    search = Search(g, g.initial_state(), build_config({}), seed=seed)
    _, steps = run_recorded(search, iterations)
    return traces.dumps(traces.from_search(search, steps), json_lines=True).encode()


def opened(data: bytes, name: str = "run.jsonl") -> AppTest:
    at = AppTest.from_file(MAIN, default_timeout=60)
    at.run()
    at.file_uploader(key="trace_file").upload(name, data, "application/json")
    at.run()
    assert not at.exception
    return at


def page_text(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [str(h.value) for h in at.html]
    parts += [c.value for c in at.caption]
    return html.unescape(re.sub(r"<[^>]+>", " ", "\n".join(parts)))


def narration(at: AppTest) -> str:
    block = next(str(h.value) for h in at.html if 'class="lab-narration"' in str(h.value))
    return html.unescape(re.sub(r"<[^>]+>", " ", block)).strip()


def test_open_a_trace_and_step_through_it() -> None:
    at = opened(lab_file())
    assert at.session_state["trace_iteration"] == 0
    assert "holds 40 iterations" in narration(at)
    at.button(key="trace_step").click().run()
    assert not at.exception
    assert at.session_state["trace_iteration"] == 1
    assert narration(at).startswith("Iteration 1:")
    assert "iteration 1 of 40" in page_text(at)
    for _ in range(3):
        at.button(key="trace_step").click().run()
    assert narration(at).startswith("Iteration 4:")  # the root's 9 moves are added first
    at.button(key="trace_back").click().run()
    assert narration(at).startswith("Iteration 3:")
    at.slider(key="trace_iteration").set_value(25).run()
    assert narration(at).startswith("Iteration 25:") and "uct score" in narration(at)
    at.button(key="trace_forward").click().run()
    assert at.session_state["trace_iteration"] == 40
    at.session_state["trace_tabs"] = "Why this path"
    at.run()
    assert at.dataframe, "the decision terms of the last iteration"
    at.session_state["trace_tabs"] = "Anomalies"
    at.run()
    assert "found no anomaly" in page_text(at)
    at.button(key="trace_close").click().run()
    assert not at.exception
    assert at.button(key="step") is not None  # the live classroom screen is back


def test_a_file_with_anomalies_lists_and_marks_them() -> None:
    doc = json.loads(lab_file("connect_four", 30).decode().splitlines()[0])
    lines = lab_file("connect_four", 30).decode().splitlines()
    nodes = [json.loads(line) for line in lines[1:] if '"iteration"' not in line]
    records = [json.loads(line) for line in lines[1:] if '"iteration"' in line]
    nodes[0]["visits"] += 5
    doc["nodes"], doc["trace"] = nodes, records
    at = opened(json.dumps(doc).encode(), "broken.json")
    at.session_state["trace_tabs"] = "Anomalies"
    at.run()
    assert "visit_count" in page_text(at)
    assert at.dataframe


def test_bad_files_get_one_message_and_change_nothing() -> None:
    at = opened(lab_file())
    at.button(key="trace_step").click().run()
    for name, data in (
        ("bad.json", b'{"format": "mcts-trace", "version": 1, "nodes": [}'),
        (
            "cycle.json",
            json.dumps(
                {
                    "format": "mcts-trace",
                    "version": 1,
                    "nodes": [
                        {"id": 0, "parent": None, "visits": 1},
                        {"id": 1, "parent": 2, "visits": 1},
                        {"id": 2, "parent": 1, "visits": 1},
                    ],
                }
            ).encode(),
        ),  # fmt: skip
        ("html.json", b'{"format": "<b>bold</b> **md**", "version": 1, "nodes": []}'),
    ):
        at.file_uploader(key="trace_file").upload(name, data, "application/json")
        at.run()
        assert not at.exception
        warnings = [str(h.value) for h in at.html if "lab-warning" in str(h.value)]
        assert len(warnings) == 1 and "was not opened" in warnings[0]
        assert "<b>bold</b>" not in warnings[0]  # escaped: shown as text, never HTML
        assert at.session_state["trace_iteration"] == 1  # the open file is kept as it was
        assert narration(at).startswith("Iteration 1:")


def test_a_tree_without_records_is_drawn_whole() -> None:
    g = build_game("gridiron")
    search = Search(g, g.initial_state(), seed=1)
    search.run(iterations=80)
    at = opened(traces.dumps(traces.from_search(search)).encode(), "tree.json")
    assert "without iteration records" in narration(at)
    assert at.button(key="trace_step").disabled
    at.session_state["trace_tabs"] = "Board"
    at.run()
    assert not at.exception


@pytest.mark.parametrize("game", ["tic_tac_toe", "connect_four", "gridiron"])
def test_round_trip_the_file_draws_the_live_tree(game: str) -> None:
    g = build_game(game)
    live = Search(g, g.initial_state(), build_config({}), seed=6)
    recorded = Search(g, g.initial_state(), build_config({}), seed=6)
    _, steps = run_recorded(recorded, 90)
    replay = FileReplay(traces.loads(traces.dumps(traces.from_search(recorded, steps))))
    names = ("A", "B")
    for target in (1, 17, 60, 90, 30):
        while live.iterations < target:
            trace = live.step()
        if live.iterations > target:  # going back: rebuild the live search to compare
            live = Search(g, g.initial_state(), build_config({}), seed=6)
            for _ in range(target):
                trace = live.step()
        replay.goto(target)
        marks = {u.node_id for u in trace.updates}
        assert replay.marks()[0] == marks
        kw = {"path_ids": marks, "new_id": None, "changed_ids": marks, "focus_id": None}
        a = build_view(live, player_names=names, **kw).to_dict()
        b = build_view(replay.search(), player_names=names, **kw).to_dict()  # type: ignore[arg-type]
        assert len(a["nodes"]) == len(b["nodes"])
        for mine, theirs in zip(a["nodes"], b["nodes"], strict=True):
            assert mine["id"] == theirs["id"] and mine["lines"] == theirs["lines"]
            assert mine["marks"] == theirs["marks"] and mine["role"] == theirs["role"]
            if game != "gridiron":  # gridiron's short labels are its own, the file has the full
                assert mine["label"] == theirs["label"]
                assert mine["tooltip"] == theirs["tooltip"]
        # the narration tells the same path with the same numbers as the live trace
        said = replay.narration()
        for decision in trace.decisions:
            chosen = decision.chosen_terms
            assert f"score {chosen.score:.3f}" in said
