"""``mcts-lab inspect``'s output can be trusted by a script: valid JSON always, an exit status
that does not depend on the reader (``| head``), a truncated list that says so, and numbers
printed short however large."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from mcts_lab import traces
from mcts_lab.cli import main
from tests.mcts_lab.traces.test_traces import add, small_tree


def _wide_tree(children: int) -> dict[str, Any]:
    """A root with ``children`` moves of one visit each, and the root's visits off by 5 (one
    ``visit_count`` anomaly): the report prints a row a move."""
    doc = small_tree(visits=children + 6, value_sum=0.0)
    for i in range(1, children + 1):
        add(doc, id=i, parent=0, player=1, move=f"m{i}", visits=1, value_sum=0.0)
    return doc


def test_a_number_no_float_holds_is_refused_in_one_line(tmp_path: Path, capsys) -> None:
    doc = small_tree(visits=2, value_sum=0.0)
    add(doc, id=1, parent=0, player=1, move="a", visits=1, value_sum=0.125)
    text = json.dumps(doc).replace("0.125", "-1e400")  # minus infinity once read as a float
    path = tmp_path / "huge.json"
    path.write_text(text)
    assert main(["inspect", str(path), "--json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "-1e400 is beyond what a float holds" in captured.err
    assert captured.err.count("\n") == 1
    lines = tmp_path / "huge.jsonl"  # the same in JSON Lines
    lines.write_text(text + "\n" + text + "\n")
    assert main(["inspect", str(lines)]) == 2


def test_the_json_says_when_the_list_is_cut(tmp_path: Path, capsys) -> None:
    doc = small_tree(visits=1, value_sum=0.0)
    for i in range(1, 13):  # twelve children, each with visits its (absent) children lack
        add(doc, id=i, parent=0, player=1, move=f"m{i}", visits=3, value_sum=0.0)
        add(doc, id=100 + i, parent=i, player=0, move="x", visits=1, value_sum=0.0)
    path = tmp_path / "many.json"
    traces.write(doc, path)
    assert main(["inspect", str(path), "--json"]) == 1
    whole = json.loads(capsys.readouterr().out)
    total = sum(whole["anomaly_counts"].values())
    assert total >= 12 and len(whole["anomalies"]) == total and whole["truncated"] is False
    assert main(["inspect", str(path), "--json", "--max-anomalies", "3"]) == 1
    cut = json.loads(capsys.readouterr().out)
    assert len(cut["anomalies"]) == 3 and cut["truncated"] is True
    assert cut["anomaly_counts"] == whole["anomaly_counts"]  # every one still counted
    assert cut["anomalies"] == whole["anomalies"][:3]
    assert main(["inspect", str(path), "--max-anomalies", "3"]) == 1
    assert f"... {total - 3:,} more not listed" in capsys.readouterr().out
    assert main(["inspect", str(path), "--max-anomalies", "-1"]) == 2


def test_big_and_tiny_numbers_print_short(tmp_path: Path, capsys) -> None:
    doc = small_tree(visits=3, value_sum=0.0)
    add(doc, id=1, parent=0, player=1, move="a", visits=1, value_sum=0.0, prior=1e-7)
    add(doc, id=2, parent=0, player=1, move="b", visits=1, value_sum=0.0, prior=0.5)
    path = tmp_path / "small.json"
    traces.write(doc, path)
    main(["inspect", str(path)])
    out = capsys.readouterr().out
    assert "+1.000e-07" in out and "+0.5000" in out
    big = small_tree(visits=2, value_sum=1e308)
    add(big, id=1, parent=0, player=1, move="a", visits=1, value_sum=1e308)
    traces.write(big, path)
    main(["inspect", str(path)])
    out = capsys.readouterr().out
    assert "e+308" in out and max(len(word) for word in out.split()) < 40


def test_the_exit_status_does_not_depend_on_the_reader(tmp_path: Path) -> None:
    """``inspect FILE | head -1``: the reader leaves after one line, the rest of a 100 kB report
    has nowhere to go, and the status is still 1 (anomalies), every time."""
    path = tmp_path / "wide.json"
    traces.write(_wide_tree(3000), path)
    command = [sys.executable, "-m", "mcts_lab.cli", "inspect", str(path)]
    for _ in range(10):
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert process.stdout is not None and process.stderr is not None
        first = process.stdout.readline()
        process.stdout.close()  # the reader leaves
        error = process.stderr.read()
        assert process.wait(timeout=60) == 1, error
        assert first.startswith(b"mcts-trace") or first, first
        assert b"Traceback" not in error
