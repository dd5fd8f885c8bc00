"""Open a tree or trace in the app (AppTest): upload, step, back, slider, anomalies, bad files,
and the round trip: a file of the lab's own run draws the same tree, numbers and labels as the
live run and its narration reads word for word as the live run's, at every iteration."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

from app.drawing.tree_layout import build_view
from app.tracefile.trace_view import narration_lines
from app.words.c_sensitivity import flip_c
from app.words.c_sentence import flip_sentence
from app.words.narration import narrate_iteration
from games.registry import GAME_NAMES, game_spec
from mcts_core import ChanceNode, Search
from mcts_core.config import SearchConfig
from mcts_core.game import ShortLabels
from mcts_lab import traces
from mcts_lab.cli import main
from mcts_lab.common import build_config, build_game
from mcts_lab.traces.lab import run_recorded
from mcts_lab.traces.replay import FileReplay

MAIN = str(Path(__file__).resolve().parents[3] / "app" / "main.py")


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
    """The narration's first paragraph (the flip sentence, when there is one, follows it)."""
    block = next(str(h.value) for h in at.html if 'class="lab-narration"' in str(h.value))
    first = re.search(r'<p class="lab-narration">(.*?)</p>', block)
    assert first is not None
    return html.unescape(first.group(1))


def flip_line(at: AppTest) -> str | None:
    """The narration's sentence on C (the live screen's second paragraph), if shown."""
    block = next(str(h.value) for h in at.html if 'class="lab-narration"' in str(h.value))
    found = re.search(r'<p class="lab-flip">(.*?)</p>', block)
    return html.unescape(found.group(1)) if found else None


def live_screen_words(game: str, iterations: int, seed: int) -> list[tuple[str, str | None]]:
    """What the live screen says after each Step of the same run as lab_file's: the narration
    (as app/screen/page.py shows it, on one line) and the sentence on C, if any."""
    g = build_game(game)
    search = Search(g, g.initial_state(), build_config({}), seed=seed)
    names = game_spec(game).player_names
    said = []
    for _ in range(iterations):
        trace = search.step()
        text = " ".join(narrate_iteration(trace, names, 1.4, "uct").split())
        flip = flip_c(trace.decisions[0], "uct", 1.4) if trace.decisions else None
        said.append((text, flip_sentence(flip) if flip is not None else None))
    return said


def test_open_a_trace_and_step_through_it() -> None:
    at = opened(lab_file())
    live = live_screen_words("tic_tac_toe", 40, seed=4)
    assert at.session_state["trace_iteration"] == 0
    assert "holds 40 iterations" in narration(at)
    at.button(key="trace_step").click().run()
    assert not at.exception
    assert at.session_state["trace_iteration"] == 1
    assert (narration(at), flip_line(at)) == live[0]  # the live screen's words
    assert "iteration 1 of 40" in page_text(at)
    for _ in range(3):
        at.button(key="trace_step").click().run()
    assert (narration(at), flip_line(at)) == live[3]  # the root's 9 moves are added first
    at.button(key="trace_back").click().run()
    assert (narration(at), flip_line(at)) == live[2]
    at.slider(key="trace_iteration").set_value(25).run()
    assert (narration(at), flip_line(at)) == live[24]
    assert narration(at).startswith("Select: X took") and flip_line(at)
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
    assert any('class="lab-anomaly' in str(h.value) for h in at.html)  # a row a finding


def test_bad_files_get_one_message_and_change_nothing() -> None:
    at = opened(lab_file())
    at.button(key="trace_step").click().run()
    first = narration(at)
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
        warnings = [str(h.value) for h in at.html if 'class="lab-note lab-warning"' in str(h.value)]
        assert len(warnings) == 1 and "was not opened" in warnings[0]
        assert "<b>bold</b>" not in warnings[0]  # escaped: shown as text, never HTML
        assert at.session_state["trace_iteration"] == 1  # the open file is kept as it was
        assert narration(at) == first


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


@pytest.mark.parametrize("game", GAME_NAMES)
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
            assert mine["label"] == theirs["label"]  # gridiron's too: the game's short labels
            assert mine["tooltip"] == theirs["tooltip"]
        said = narrate_iteration(trace, game_spec(game).player_names, 1.4, "uct")
        assert narration_lines(replay)[0][1] == " ".join(said.split())


@pytest.mark.parametrize(
    ("game", "iterations", "suffix"),
    [("tic_tac_toe", 150, ".jsonl"), ("connect_four", 120, ".json"), ("gridiron", 120, ".jsonl")],
)
def test_round_trip_every_iteration_reads_like_the_live_run(
    tmp_path: Path, game: str, iterations: int, suffix: str
) -> None:
    """mcts-lab search --trace FILE, opened as the app opens an upload; the run reproduced
    from the file's header and stepped live. At every iteration: the same narration word for
    word (and the same sentence on C), the same path, and every node of the tree with the same
    visits and value sums."""
    path = tmp_path / f"run{suffix}"
    args = ["search", "--game", game, "--iterations", str(iterations), "--seed", "11"]
    assert main([*args, "--trace", str(path), "--json"]) == 0
    data = path.read_bytes()
    replay = FileReplay(traces.loads(data, json_lines=suffix == ".jsonl"))  # as _on_upload
    header = replay.trace.header
    g = build_game(header["game"], (header.get("game_options") or {}).get("size"))
    live = Search(
        g,
        g.parse_state(header["position"]),
        SearchConfig.from_dict(header["settings"]),
        seed=header["seed"],
    )
    names = game_spec(game).player_names
    c, policy = header["settings"]["c"], header["settings"]["tree_policy"]
    chance_steps = 0
    for k in range(1, iterations + 1):
        trace = live.step()
        replay.goto(k)
        said = narration_lines(replay)
        assert said[0] == (
            "lab-narration",
            " ".join(narrate_iteration(trace, names, c, policy).split()),
        )
        flip = flip_c(trace.decisions[0], policy, c) if trace.decisions else None
        assert said[1:] == ([("lab-flip", flip_sentence(flip))] if flip is not None else [])
        record = replay.record()
        assert record is not None and record["path"] == [u.node_id for u in trace.updates]
        assert replay.attached == live.node_count
        stack = [replay.root]
        while stack:  # every node the file's tree holds now, against the live tree's
            node = stack.pop()
            mine = live.find_node(node.id)
            assert mine is not None
            assert isinstance(node, ChanceNode) == isinstance(mine, ChanceNode)
            assert (node.visits, node.value0, node.value1) == (
                mine.visits,
                mine.value0,
                mine.value1,
            )
            stack.extend(node.children)
        expansion = trace.expansion
        chance_steps += len(trace.chance_steps) + bool(
            expansion and expansion.chance_id is not None
        )
    assert live.iterations == iterations
    if game == "gridiron":
        assert chance_steps > 0  # the dice were rolled and narrated from the file


def test_gridiron_file_shows_the_game_s_short_labels() -> None:
    """A gridiron file's tree boxes carry the game's short labels ("H1 acts"), as the live
    tree's do ("H1 acts" is also the full label: one name); the tooltip and the narration keep
    the full labels ("to 3,2" is "H1 move to (3,2)"). A file naming no game keeps
    its own labels, cut with their siblings."""
    g = build_game("gridiron", 3)
    search = Search(g, g.initial_state(), build_config({}), seed=2)
    _, steps = run_recorded(search, 150)
    doc = traces.from_search(search, steps)
    replay = FileReplay(traces.loads(traces.dumps(doc)))
    replay.goto(replay.end)
    assert isinstance(replay.search().game, ShortLabels)
    kw = {"path_ids": set(), "new_id": None, "changed_ids": set(), "focus_id": None,
          "player_names": ("H", "A"), "max_children": 40, "max_levels": 5}  # fmt: skip
    live = build_view(search, **kw).to_dict()["nodes"]
    filed = build_view(replay.search(), **kw).to_dict()["nodes"]  # type: ignore[arg-type]
    assert [n["label"] for n in filed] == [n["label"] for n in live]
    assert [n["tooltip"] for n in filed] == [n["tooltip"] for n in live]
    short = [n for n in filed if n["label"].startswith("to ")]
    assert short, "a move drawn as the game's short label"
    assert any(" move to (" in line for line in short[0]["tooltip"])  # the full label
    doc["game"] = None
    anonymous = FileReplay(traces.loads(traces.dumps(doc)))
    anonymous.goto(anonymous.end)
    assert not isinstance(anonymous.search().game, ShortLabels)
    labels = [n["label"] for n in build_view(anonymous.search(), **kw).to_dict()["nodes"]]  # type: ignore[arg-type]
    assert not any(label.startswith("to ") for label in labels)


def test_a_record_without_the_lab_s_fields_is_told_in_generic_words() -> None:
    """A record that lacks what the live narration needs (here the leaf's raw values, as
    another writer might) is told from what it holds, in the narration's vocabulary."""
    g = build_game("tic_tac_toe")
    search = Search(g, g.initial_state(), build_config({}), seed=3)
    _, steps = run_recorded(search, 30)
    doc = traces.from_search(search, steps)
    for record in doc["trace"]:
        del record["leaf_raw"]
    replay = FileReplay(traces.parse(doc))
    replay.goto(20)
    assert replay.iteration_trace() is None
    said = narration_lines(replay)
    assert len(said) == 1 and said[0][1].startswith("Select: the path went from the root to ")
    assert " = +" in said[0][1] and "backpropagate: " in said[0][1]
    for decision in doc["trace"][19]["decisions"]:
        del decision["children"]
    replay = FileReplay(traces.parse(doc))
    replay.goto(20)
    said = narration_lines(replay)[0][1]
    assert "(the file gives no terms for its choices)" in said and " = " not in said.split(";")[0]
