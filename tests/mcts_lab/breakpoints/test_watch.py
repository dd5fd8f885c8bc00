"""Watch expressions (``mcts_lab.breakpoints.watch``, ``mcts-lab inspect FILE --watch EXPR``): known
answers against a seeded search's own tree and its trace's records, worked out here from the
records alone; the live search and its replayed trace agree at every iteration; U is the
selection's own score; the grammar's errors name the column; nothing is ever evaluated by
Python; foreign files (the textbook UCT with records and tree-only, a real mctx search)."""

from __future__ import annotations

import builtins
import json
import math
from pathlib import Path
from typing import Any

import pytest

from mcts_core import Search, SearchConfig
from mcts_lab import traces
from mcts_lab.breakpoints import watch
from mcts_lab.common import build_game, parse_position
from mcts_lab.traces.lab import from_search
from tests.conftest import CliRunner
from tests.mcts_lab.textbook_uct import textbook_uct

EXPRESSIONS = ["N(a1)", "Q(b2)", "U(c3)", "N(a1)/N(root)", "Q(a1)-Q(c3)", "N(root)", "Q(root)"]


def _search(iterations: int, seed: int = 7, **config: Any) -> tuple[Search, list[Any]]:
    game = build_game("tic_tac_toe")
    search = Search(game, game.initial_state(), SearchConfig(**config), seed=seed)
    return search, [search.step() for _ in range(iterations)]


def _close(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)


# ------------------------------------------------------------------ known answers


def test_trace_rows_match_the_records_and_the_live_search_at_every_iteration() -> None:
    """A seeded 60-iteration search: each row of its trace equals (1) what the records say up
    to that iteration (visits: paths through the move; Q: its backup adds over its visits) and
    (2) the live search's values after the same number of steps."""
    game = build_game("tic_tac_toe")
    search = Search(game, game.initial_state(), SearchConfig(c=1.4), seed=7)
    moves = watch.search_moves(search)
    live_watches = watch.parse_watches(EXPRESSIONS, moves)
    live, steps = [], []
    for _ in range(60):
        steps.append(search.step())
        live.append([w.value(watch.search_stats(search)) for w in live_watches])
    doc = from_search(search, steps)
    trace = traces.parse(doc)
    table = watch.watch_table(trace, EXPRESSIONS)
    assert table.expressions == EXPRESSIONS
    assert [row[0] for row in table.rows] == list(range(1, 61))
    ids = {n["move"]: n["id"] for n in doc["nodes"] if n["parent"] == doc["nodes"][0]["id"]}
    visits = {label: 0 for label in ids}
    sums = {label: 0.0 for label in ids}
    for k, (record, row, now) in enumerate(zip(doc["trace"], table.rows, live, strict=True), 1):
        adds = {item["node"]: item["add"] for item in record["backup"]}
        for label, node_id in ids.items():
            if node_id in record["path"]:
                visits[label] += 1
                sums[label] += adds[node_id]
        n_a1, q_b2, _, share, diff, n_root, _ = row[1:]
        assert n_a1 == visits["a1"] and n_root == k  # N(root): the iteration count
        assert _close(q_b2, sums["b2"] / visits["b2"] if visits["b2"] else None)
        assert _close(share, visits["a1"] / k)
        q = {m: sums[m] / visits[m] if visits[m] else None for m in ("a1", "c3")}
        expected = None if None in q.values() else q["a1"] - q["c3"]  # type: ignore[operator]
        assert _close(diff, expected)
        assert all(_close(a, b) for a, b in zip(row[1:], now, strict=True)), (k, row, now)
    # the last row is the file's own final tree
    final = {n["move"]: n["visits"] for n in doc["nodes"] if n["id"] in ids.values()}
    assert table.rows[-1][1] == final["a1"] == search.root.children[0].visits


def test_u_is_the_selections_own_score() -> None:
    """U(move) is the score Search.preview_decision gives that root child (the selection's own
    code), and by hand Q + C sqrt(ln N / n); a move not yet visited has none."""
    search, _ = _search(50, c=0.9)
    stats = watch.search_stats(search)
    decision = search.preview_decision()
    assert decision is not None
    root = search.root
    for terms in decision.children:
        child = next(c for c in root.children if c.id == terms.node_id)
        by_hand = child.mean(root.player) + 0.9 * math.sqrt(math.log(root.visits) / child.visits)
        assert stats.moves[terms.label].u == terms.score
        assert math.isclose(terms.score, by_hand, rel_tol=1e-12)
    early, _ = _search(3)  # three of nine moves tried: no decision at the root yet
    assert early.preview_decision() is None
    moves = watch.search_moves(early)
    stats = watch.search_stats(early)
    values = {m.label: watch.parse_watch(f"U({m.label})", moves).value(stats) for m in moves}
    tried = {c.id: c for c in early.root.children}
    assert sum(v is not None for v in values.values()) == len(tried) == 3
    for child in tried.values():  # the same formula, every tried child with one visit
        label = early.game.action_label(early.root_state, child.action)
        assert values[label] == child.mean(0) + 1.4 * math.sqrt(math.log(3))


def test_undefined_values_are_none_never_an_error() -> None:
    search, _ = _search(4)
    moves = watch.search_moves(search)
    stats = watch.search_stats(search)
    untried = next(m.label for m in moves if m.label not in stats.moves)
    values = {
        text: watch.parse_watch(text, moves).value(stats)
        for text in (
            f"N({untried})",
            f"Q({untried})",
            f"U({untried})",
            f"1/N({untried})",
            "N(root)/(N(root)-N(root))",
            "1e300*1e300",
            f"Q({untried})+1",
            f"-Q({untried})",
        )
    }
    assert values[f"N({untried})"] == 0.0  # not tried: no visits
    assert all(v is None for k, v in values.items() if k != f"N({untried})"), values
    assert watch.format_value(None) == ""
    assert watch.format_value(12.0) == "12" and watch.format_value(0.5) == "0.5"


def test_moves_by_label_with_spaces_by_index_and_case() -> None:
    game = build_game("connect_four")
    search = Search(game, game.initial_state(), SearchConfig(), seed=1)
    for _ in range(30):
        search.step()
    moves = watch.search_moves(search)
    stats = watch.search_stats(search)
    by_label = watch.parse_watch("N(col 4)", moves).value(stats)
    assert by_label == watch.parse_watch("N(3)", moves).value(stats)  # index 3: the 4th column
    assert by_label == watch.parse_watch("N( COL 4 )", moves).value(stats)
    assert by_label == stats.moves["col 4"].visits
    nim = build_game("nim")
    nim_moves = watch.search_moves(Search(nim, nim.initial_state(), SearchConfig(), seed=0))
    parsed = watch.parse_watch("Q(take 2 from heap 2) - Q(take 1 from heap 1)", nim_moves)
    assert parsed.moves == ("take 2 from heap 2", "take 1 from heap 1")


# ------------------------------------------------------------------ the grammar


MOVES = watch.search_moves(_search(0)[0])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("N(z9)", "unknown move 'z9' at column 3 (the root's moves: a1 (0), b1 (1),"),
        ("N(a1)+(2", "expected ')' at column 9"),
        ("N(a1", "expected ')' at column 5"),
        ("N(a1)+", "expected a number, N(move), Q(move), U(move) or '(' at column 7"),
        ("N(a1))", "unexpected ')' at column 6"),
        ("2 3", "unexpected '3' at column 3"),
        ("N()", "a move is missing (a label, an index or root) at column 3"),
        ("X(a1)", "unknown name 'X' at column 1 (the functions: N(move), Q(move), U(move))"),
        ("n(a1)", "unknown name 'n' at column 1"),
        ("N a1", "expected '(', found 'a' at column 3"),
        ("U(root)", "U takes a move, not root at column 1"),
        ("1e999", "number '1e999' too large at column 1"),
        ("", "the expression is empty"),
        ("  ", "the expression is empty"),
        ("N(a1) % 2", "unexpected '%' at column 7"),
        ("N(a1) ** 2", "unexpected '*' at column 8"),
        ("N(a1),N(b1)", "unexpected ',' at column 6"),
        ("(" * 40 + "1" + ")" * 40, "nested more than 32 deep at column 33"),
        ("N(a1)+" * 40 + "1", "the expression is 241 characters long (at most 200)"),
    ],
)
def test_grammar_errors_name_the_column(text: str, message: str) -> None:
    with pytest.raises(watch.WatchError) as error:
        watch.parse_watch(text, MOVES)
    assert str(error.value).startswith(message), str(error.value)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize(
    "text",
    [
        "__import__('os')",
        "__import__('os').system('true')",
        "().__class__",
        "eval('1')",
        "N(a1).real",
        "lambda: 1",
        "[1]",
        "'a1'",
        "N(a1) if 1 else 2",
        "1 == 1",
    ],
)
def test_python_is_refused_as_a_grammar_error(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing of the text reaches Python: eval, exec and compile are made to fail and every
    expression is still refused by the grammar (and a valid one still evaluates)."""

    def forbidden(*_: Any, **__: Any) -> Any:
        raise AssertionError("Python was asked to evaluate a watch expression")

    monkeypatch.setattr(builtins, "eval", forbidden)
    monkeypatch.setattr(builtins, "exec", forbidden)
    monkeypatch.setattr(builtins, "compile", forbidden)
    with pytest.raises(watch.WatchError):
        watch.parse_watch(text, MOVES)
    search, _ = _search(12)
    good = watch.parse_watch("-(N(a1) + 2) * 3 / (N(root) - 2) - -Q(root)", MOVES)
    stats = watch.search_stats(search)
    assert stats.q is not None
    expected = -(stats.moves["a1"].visits + 2) * 3 / (12 - 2) + stats.q
    assert math.isclose(good.value(stats) or 0.0, expected)


def test_caps_and_splitting() -> None:
    assert watch.split_watches("N(a1); Q(b2)\nU(c3);;\n ") == ["N(a1)", "Q(b2)", "U(c3)"]
    with pytest.raises(watch.WatchError, match=r"^11 watch expressions \(at most 10\)$"):
        watch.parse_watches(["N(a1)"] * 11, MOVES)
    with pytest.raises(watch.WatchError, match=r"^watch expression 2: unknown move 'q' at"):
        watch.parse_watches(["N(a1)", "N(q)"], MOVES)
    assert len(watch.parse_watches(["N(a1)"] * 10, MOVES)) == 10
    assert len(watch.parse_watch("1+" * 99 + "1", MOVES).text) == 199


# ------------------------------------------------------------------ the command line


@pytest.fixture(scope="module")
def lab_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    search, steps = _search(40, seed=3)
    path = tmp_path_factory.mktemp("watch") / "lab.jsonl"
    traces.write(from_search(search, steps), path)
    return path


def test_cli_prints_csv_one_row_per_iteration(cli: CliRunner, lab_file: Path) -> None:
    status, out, err = cli("inspect", str(lab_file), "--watch", "N(a1)", "--watch", "N(root)",
                           "--watch", "Q(a1) - Q(c3)")  # fmt: skip
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "iteration,N(a1),N(root),Q(a1) - Q(c3)"
    assert len(lines) == 41
    cells = [line.split(",") for line in lines[1:]]
    assert [int(c[0]) for c in cells] == list(range(1, 41))
    assert [c[2] for c in cells] == [str(k) for k in range(1, 41)]
    assert cells[0][3] == ""  # c3 not yet tried at iteration 1: a blank cell
    table = watch.watch_table(traces.load(lab_file), ["N(a1)", "N(root)", "Q(a1) - Q(c3)"])
    assert out.rstrip("\n") == table.csv()


def test_cli_json_has_the_watch_field(cli: CliRunner, lab_file: Path) -> None:
    status, out, _ = cli("inspect", str(lab_file), "--json", "--watch", "N(b2)/N(root)")
    data = json.loads(out)
    assert status == 0 and data["anomaly_counts"] == {}
    assert data["watch"]["expressions"] == ["N(b2)/N(root)"]
    rows = data["watch"]["rows"]
    assert len(rows) == 40 and rows[0][0] == 1 and rows[-1][0] == 40
    b2 = next(r for r in data["root_children"] if r["action"] == "b2")
    assert math.isclose(rows[-1][1], b2["visits"] / 40)
    status, out, _ = cli("inspect", str(lab_file), "--json")
    assert "watch" not in json.loads(out)  # only when asked


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--watch", "N(z9)"], "mcts-lab: error: unknown move 'z9' at column 3 (the root's"),
        (["--watch", "__import__('os')"], "mcts-lab: error: unknown name '__import__' at column 1"),
        (["--watch", "N(a1)", "--watch", "Q(b2"], "mcts-lab: error: watch expression 2: expected"),
        (["--watch", "N(a1)"] * 11, "mcts-lab: error: 11 watch expressions (at most 10)"),
    ],
)
def test_cli_bad_expression_is_one_line_and_status_2(
    cli: CliRunner, lab_file: Path, args: list[str], line: str
) -> None:
    status, out, err = cli("inspect", str(lab_file), *args)
    assert status == 2 and out == ""
    assert err.startswith(line) and err.count("\n") == 1, err


def test_foreign_files_textbook_with_records_and_tree_only(cli: CliRunner, tmp_path: Path) -> None:
    """The textbook UCT (not the lab's search): with records, one row per iteration whose last
    equals its final tree (U by the file's c); tree-only, one row at the header's iterations."""
    doc = textbook_uct("tic_tac_toe", "X...O....", seed=2, iterations=120, c=1.4, records=True)
    path = tmp_path / "textbook.json"
    path.write_text(json.dumps(doc))
    status, out, _ = cli("inspect", str(path), "--watch", "N(b1)", "--watch", "Q(b1)",
                         "--watch", "U(b1)", "--watch", "N(root)")  # fmt: skip
    assert status == 0
    lines = out.splitlines()
    assert len(lines) == 121 and lines[-1].startswith("120,")
    root = doc["nodes"][0]
    b1 = next(n for n in doc["nodes"] if n["parent"] == root["id"] and n["move"] == "b1")
    q = b1["value_sums"][0] / b1["visits"]  # X to move at the root: player 0's sum
    u = q + 1.4 * math.sqrt(math.log(root["visits"]) / b1["visits"])
    assert lines[-1] == f"120,{b1['visits']},{q:.10g},{u:.10g},120"
    tree_only = textbook_uct("tic_tac_toe", "X...O....", seed=2, iterations=120, records=False)
    path.write_text(json.dumps(tree_only))
    status, out, _ = cli("inspect", str(path), "--watch", "N(b1)", "--watch", "Q(b1)")
    assert status == 0
    assert out.splitlines() == ["iteration,N(b1),Q(b1)", f"120,{b1['visits']},{q:.10g}"]


def test_foreign_file_without_a_game_names_the_files_labels(tmp_path: Path) -> None:
    """No registered game: the moves are the file's root labels; a node-view file's values
    are turned to the root mover's view; no c: U is blank."""
    doc = {
        "format": "mcts-trace",
        "version": 1,
        "values": {"range": [-1, 1], "view": "node"},
        "nodes": [
            {"id": 0, "parent": None, "visits": 5, "mean": 0.2},
            {"id": 1, "parent": 0, "move": "left", "visits": 3, "mean": -0.5},
            {"id": 2, "parent": 0, "move": "right", "visits": 1, "mean": 0.75},
        ],
    }
    trace = traces.parse(doc)
    table = watch.watch_table(trace, ["N(left)", "Q(left)", "Q(RIGHT)", "U(left)", "N(0)"])
    assert table.rows == [[5, 3.0, 0.5, -0.75, None, 3.0]]  # N(0): the first child, by order


def test_foreign_file_from_a_real_mctx_search(tmp_path: Path) -> None:
    pytest.importorskip("mctx", reason="mctx (and jax) not installed: pip install mctx")
    from tests.mcts_lab import mctx_tictactoe

    out = mctx_tictactoe.search("X...O....", simulations=64, seed=0)
    doc = traces.from_mctx(out.search_tree, 0, game="tic_tac_toe", position="X...O....",
                           terminal=mctx_tictactoe.finished_flags(out))  # fmt: skip
    trace = traces.parse(doc)
    table = watch.watch_table(trace, ["N(root)", "N(b1)", "Q(b1)", "U(b1)"])
    assert len(table.rows) == 1 and table.rows[0][0] == 64  # tree-only: the final tree
    root = doc["nodes"][0]
    b1 = next(n for n in doc["nodes"] if n["parent"] == root["id"] and n["move"] == "b1")
    # mctx's node view: b1's mean is O's; the root mover (X) reads its negation
    assert table.rows[0][1:] == [float(root["visits"]), float(b1["visits"]), -b1["mean"], None]


def test_a_position_where_the_game_is_over_has_no_moves() -> None:
    game = build_game("tic_tac_toe")
    state = parse_position(game, "XXXOO....")
    moves = watch.search_moves(Search(game, state, SearchConfig(), seed=0))
    assert moves == []
    with pytest.raises(watch.WatchError, match="none: the game is over"):
        watch.parse_watch("N(a1)", moves)
    assert watch.parse_watch("N(root)", moves).moves == ()


def test_records_that_do_not_say_what_was_backed_up_leave_q_blank() -> None:
    """Records with paths only: the visits are counted, the values are not made up (a
    replay would add 0 and show a Q of 0)."""
    doc = {
        "format": "mcts-trace",
        "version": 1,
        "settings": {"c": 1.0},
        "nodes": [
            {"id": 0, "parent": None, "visits": 3, "value_sum": 1.0},
            {"id": 1, "parent": 0, "move": "x", "visits": 2, "value_sum": 1.0},
            {"id": 2, "parent": 0, "move": "y", "visits": 1, "value_sum": -1.0},
        ],
        "trace": [
            {"iteration": 1, "path": [0, 1], "expanded": [1]},
            {"iteration": 2, "path": [0, 2], "expanded": [2]},
            {"iteration": 3, "path": [0, 1]},
        ],
    }
    table = watch.watch_table(traces.parse(doc), ["N(x)", "N(root)", "Q(x)", "Q(y)", "U(y)"])
    assert table.rows == [
        [1, 1.0, 1.0, None, None, None],
        [2, 1.0, 2.0, None, None, None],
        [3, 2.0, 3.0, None, None, None],
    ]
    doc["trace"][1]["leaf_value"] = -1.0  # now iteration 2 says it (y: -1 for the root mover)
    table = watch.watch_table(traces.parse(doc), ["Q(y)", "U(y)"])
    # U needs only y's own numbers and N: y's Q is known, x's and the root's are not
    assert table.rows[1:] == [
        [2, -1.0, -1.0 + math.sqrt(math.log(2))],
        [3, -1.0, -1.0 + math.sqrt(math.log(3))],
    ]
