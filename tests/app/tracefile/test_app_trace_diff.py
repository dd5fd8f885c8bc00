"""The file view's diff (AppTest): a second file B uploaded beside the open file A shows the
first difference with its numbers and the final trees' node differences as a table; a run of
another game is one sentence; the same run is identical."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

from mcts_core import Search
from mcts_lab import traces
from mcts_lab.common import build_config, build_game
from mcts_lab.compare.trace_diff import diff_traces
from mcts_lab.traces.lab import run_recorded
from tests.app.tracefile.test_app_trace import page_text

MAIN = str(Path(__file__).resolve().parents[3] / "app" / "main.py")


def run_file(seed: int, game: str = "tic_tac_toe", iterations: int = 40) -> bytes:
    g = build_game(game)
    search = Search(g, g.initial_state(), build_config({}), seed=seed)
    _, steps = run_recorded(search, iterations)
    return traces.dumps(traces.from_search(search, steps), json_lines=True).encode()


def notes(at: AppTest) -> str:
    return page_text(at)


def diff_tables(at: AppTest) -> list:
    """The node-difference tables on the page (the data frames with a "differs" column)."""
    return [d.value for d in at.dataframe if "differs" in d.value.columns]


def test_a_second_file_shows_the_first_difference_and_the_nodes() -> None:
    a, b = run_file(4), run_file(5)
    expected = diff_traces(traces.loads(a), traces.loads(b))
    assert expected.first_difference is not None and expected.first_path_difference is not None
    at = AppTest.from_file(MAIN, default_timeout=60)
    at.run()
    at.file_uploader(key="trace_file").upload("a.jsonl", a, "application/json")
    at.run()
    at.file_uploader(key="trace_diff_file").upload("b.jsonl", b, "application/json")
    at.run()
    assert not at.exception
    text = notes(at)
    assert "The runs differ beyond 1e-09." in text
    assert f"First difference: {expected.first_difference.explanation}." in text
    assert f"First path difference: {expected.first_path_difference.explanation}." in text
    (table,) = diff_tables(at)
    assert len(table) == len(expected.node_differences)
    assert list(table["node"])[0] == "(root)"
    # every cell is words or a number as text: a node one run lacks, a move not proven
    cells = [str(v) for column in table.columns for v in table[column]]
    assert "None" not in cells and "nan" not in cells
    assert "not in this file" in cells and "not proven" in cells
    # the same run as B: identical, no table
    at.file_uploader(key="trace_diff_file").upload("a2.jsonl", a, "application/json")
    at.run()
    assert not at.exception
    assert "Identical within 1e-09." in notes(at)
    assert diff_tables(at) == []
    # a run of another game: one sentence, no traceback
    at.file_uploader(key="trace_diff_file").upload(
        "c4.jsonl", run_file(1, "connect_four", 10), "application/json"
    )
    at.run()
    assert not at.exception
    assert "c4.jsonl was not compared: A is a game of tic_tac_toe, B of connect_four" in notes(at)
