"""``mcts-lab inspect`` on searches of real MCTS packages from PyPI (issue 41): the two with real
bugs are flagged with messages that name them, and the correct ones raise no anomaly.

The files were recorded by ``scripts/record_pypi_traces.py`` (its docstring says how each
package was run) and are committed gzipped, so the packages need not be installed here."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from mcts_lab import traces
from mcts_lab.cli import main
from mcts_lab.inspect.inspection import inspect_trace

FILES = Path(__file__).parent / "pypi_traces"


def _load(name: str) -> dict[str, Any]:
    with gzip.open(FILES / f"{name}.json.gz") as source:
        doc: dict[str, Any] = json.loads(source.read())
    return doc


def _names(prefix: str) -> list[str]:
    found = sorted(p.name.removesuffix(".json.gz") for p in FILES.glob(f"{prefix}-*.json.gz"))
    assert found, f"no {prefix} files in {FILES}"
    return found


#: The packages whose searches are correct, and the version each file says wrote it.
CLEAN = {
    "fastmcts-players01": ("fastmcts", "0.3.0"),
    "mctspy": ("mctspy", "0.1.1"),
    "mcts-simple": ("mcts-simple", "1.1.0"),
    "monte-carlo-tree-search": ("monte-carlo-tree-search", "2.1.0"),
}


@pytest.mark.parametrize("prefix", sorted(CLEAN))
def test_the_correct_packages_raise_no_anomaly(prefix: str) -> None:
    for name in _names(prefix):
        doc = _load(name)
        assert (doc["writer"]["name"], doc["writer"]["version"]) == CLEAN[prefix]
        report = inspect_trace(traces.parse(doc))
        assert report["anomaly_counts"] == {}, (name, report["anomalies"][:2])
        if "trace" in doc:  # the tree alone raises none either
            doc.pop("trace")
            assert inspect_trace(traces.parse(doc))["anomaly_counts"] == {}, name


def test_fastmcts_as_its_readme_starts_it_is_flagged_for_the_view() -> None:
    """fastmcts 0.3.0 with players 1 and -1 (its README's tic-tac-toe and Connect Four): its
    node reads the wins of player -1 at every node, so the Q X's selection used is O's view
    of the backups. The first anomaly is the recorded Q, named as the other player's view, at
    a node where player 0 (X) moves; none at player 1's."""
    names = _names("fastmcts-readme")
    assert len(names) >= 4
    for name in names:
        doc = _load(name)
        assert doc["writer"] == {"name": "fastmcts", "version": "0.3.0"}
        report = inspect_trace(traces.parse(doc))
        first = report["anomalies"][0]
        assert first["kind"] == "term", (name, first)
        assert "is the other player's view" in first["detail"]
        assert "from the mover's (player 0's) view" in first["detail"]
        terms = [a for a in report["anomalies"] if a["kind"] == "term"]
        players = {n["id"]: n["player"] for n in doc["nodes"]}
        assert {players[a["node"]] for a in terms} == {0}, name
        doc.pop("trace")  # the finished tree alone: X's visits break UCT's bound
        kinds = set(inspect_trace(traces.parse(doc))["anomaly_counts"])
        assert kinds and kinds <= {"uct_starved", "sign"}, (name, kinds)


def test_imparaai_is_flagged_for_its_stall_and_its_expansion_rollouts_are_not() -> None:
    """imparaai-montecarlo 1.3.1: selection that reaches a finished game does nothing, so the
    root ends with fewer visits than the iterations; the only anomaly is the stall, whose
    detail names the finished game UCT keeps selecting. Its rollouts of every new child,
    declared as ``visits_per_iteration``, raise nothing."""
    for name in _names("imparaai"):
        doc = _load(name)
        assert doc["writer"] == {"name": "imparaai-montecarlo", "version": "1.3.1"}
        assert doc["visits_per_iteration"] > 1
        report = inspect_trace(traces.parse(doc))
        assert report["anomaly_counts"] == {"stall": 1}, (name, report["anomalies"][:2])
        detail = report["anomalies"][0]["detail"]
        assert f"after {doc['iterations']:,} iterations" in detail
        assert "a finished game: a search that selects it again and again" in detail


def test_inspect_names_the_bugs_first_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, words in (
        ("fastmcts-readme-ttt-0", "term node 0: iteration"),
        ("imparaai-ttt-0", "stall node 0: the root has"),
    ):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(_load(name)))
        assert main(["inspect", str(path)]) == 1
        listed = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
        assert listed[0].startswith(f"  {words}"), listed[:2]
