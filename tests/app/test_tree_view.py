"""The browser tree's model and layout (app/drawing/tree_layout.py), without a browser: what is
drawn,
where, with which marks, and that labels stay data."""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from functools import cache
from typing import Any

import pytest

from app.components import tree_view
from app.drawing import tree_layout
from app.drawing.tree_dot import path_ids
from app.drawing.tree_layout import GAP_X, build_view, isotonic
from app.drawing.tree_model import TreeView, ViewNode
from app.drawing.tree_text import short_label, sibling_labels
from games import make_game
from games.registry import game_spec
from mcts_core import ActionNode, ChanceNode, Decision, IterationTrace, Search, SearchConfig
from mcts_core.solver import proof_label
from tests.toy_games import Take

CASES = [
    ("tic_tac_toe", 10),
    ("tic_tac_toe", 100),
    ("connect_four", 30),
    ("connect_four", 1000),
    ("gridiron", 200),
]


@cache
def searched(game: str, iterations: int) -> tuple[Search, IterationTrace]:
    """A search after ``iterations`` iterations, the last one stepped (so it has a trace)."""
    search = Search(make_game(game), seed=1)
    if iterations > 1:
        search.run(iterations=iterations - 1)
    return search, search.step()


def view_of(search: Search, trace: IterationTrace | None, game: str, **kw: Any) -> TreeView:
    return build_view(
        search,
        path_ids=path_ids(trace),
        new_id=trace.expansion.node_id if trace is not None and trace.expansion else None,
        changed_ids={u.node_id for u in trace.updates} if trace is not None else set(),
        focus_id=kw.pop("focus_id", None),
        player_names=game_spec(game).player_names,
        **kw,
    )


@cache
def case_view(game: str, iterations: int) -> TreeView:
    search, trace = searched(game, iterations)
    return view_of(search, trace, game)


def by_level(view: TreeView) -> dict[int, list[ViewNode]]:
    levels: dict[int, list[ViewNode]] = defaultdict(list)
    for node in view.nodes:
        levels[node.level].append(node)
    return levels


def depth_in_rows(node: Any) -> int:
    """Rows below the root (a chance node takes a row of its own)."""
    rows = 0
    while node.parent is not None:
        node, rows = node.parent, rows + 1
    return rows


def tree_node(search: Search, node_id: int | None) -> Any:
    assert node_id is not None
    node = search.find_node(node_id)
    assert node is not None, node_id
    return node


# ------------------------------------------------------------------ structure and layout


@pytest.mark.parametrize(("game", "iterations"), CASES)
def test_every_drawn_node_hangs_from_a_drawn_parent(game: str, iterations: int) -> None:
    search, _ = searched(game, iterations)
    view = case_view(game, iterations)
    boxes = {n.key: n for n in view.nodes}
    assert len(boxes) == len(view.nodes), "keys are unique"
    top = boxes[f"n{view.top_id}"]
    assert top.parent is None and top.level == 0
    incoming: dict[str, list[str]] = defaultdict(list)
    for edge in view.edges:
        assert edge.source in boxes and edge.target in boxes
        incoming[edge.target].append(edge.source)
    for node in view.nodes:
        if node is top or node.kind == "up":
            assert node.parent is None
            continue
        assert node.parent in boxes, f"{node.key}'s parent {node.parent} is not drawn"
        parent = boxes[node.parent]
        assert incoming[node.key] == [node.parent]
        assert node.level == parent.level + 1
        if node.id is not None:  # the real tree agrees
            assert tree_node(search, node.id).parent.id == parent.id
        else:  # a "+n" box: the children of an expanded node that are not drawn
            assert node.kind == "more"
            assert node.click == (None if parent is top else parent.id)
            real = tree_node(search, parent.id)
            drawn = {n.id for n in view.nodes if n.parent == parent.key and n.id is not None}
            assert node.label == f"+{len(real.children) - len(drawn)}"


@pytest.mark.parametrize(("game", "iterations"), CASES)
def test_no_two_boxes_overlap_on_a_level(game: str, iterations: int) -> None:
    view = case_view(game, iterations)
    for level, nodes in by_level(view).items():
        nodes = sorted(nodes, key=lambda n: n.x)
        for a, b in zip(nodes, nodes[1:], strict=False):
            assert a.x + a.w + GAP_X <= b.x + 1e-6, f"level {level}: {a.key} overlaps {b.key}"
    for node in view.nodes:
        assert node.x >= 0 and node.x + node.w <= view.width + 1e-6
        assert node.y >= 0 and node.y + node.h <= view.height + 1e-6
    assert min(n.x for n in view.nodes) == pytest.approx(tree_layout.MARGIN)
    # levels are stacked top-down without overlapping either
    levels = by_level(view)
    order = sorted(levels)
    for upper, lower in zip(order, order[1:], strict=False):
        assert max(n.y + n.h for n in levels[upper]) < min(n.y for n in levels[lower])


@pytest.mark.parametrize(("game", "iterations"), CASES)
def test_what_is_drawn_is_bounded(game: str, iterations: int) -> None:
    search, trace = searched(game, iterations)
    view = case_view(game, iterations)
    assert max(n.level for n in view.nodes) <= 5  # max_levels = 6 rows
    assert len(view.nodes) <= 80
    boxes = {n.key: n for n in view.nodes}
    # the PV: its badges, and the outcomes below its chance nodes (expanded, without a badge)
    expanded = path_ids(trace) | {n.id for n in search.principal_variation()}
    for key, node in boxes.items():
        children = [n for n in view.nodes if n.parent == key and n.kind != "more"]
        if not children or node.level == 0:
            continue
        assert node.id in expanded, "below the top, only path and PV nodes are expanded"
        extra = sum(1 for c in children if c.marks.path or c.marks.pv is not None)
        assert len(children) <= 3 + extra
        shown = {c.id for c in children}
        real = tree_node(search, node.id).children
        top_visits = sorted((c.visits for c in real), reverse=True)[: min(3, len(real))]
        assert all(c.visits >= top_visits[-1] or c.id in expanded for c in real if c.id in shown)
    assert view.drawn == sum(1 for n in view.nodes if n.kind in ("action", "chance"))
    assert view.total == search.node_count


def test_all_nine_tic_tac_toe_root_children_are_drawn_after_10_steps() -> None:
    search, _ = searched("tic_tac_toe", 10)
    view = case_view("tic_tac_toe", 10)
    level1 = by_level(view)[1]
    assert [n.kind for n in level1] == ["action"] * 9
    assert [n.id for n in level1] == [c.id for c in search.root.children]
    assert [n.label for n in level1] == ["a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3"]


def test_the_top_folds_children_beyond_root_children() -> None:
    search, trace = searched("connect_four", 1000)
    view = view_of(search, trace, "connect_four", root_children=3)
    level1 = by_level(view)[1]
    more = [n for n in level1 if n.kind == "more"]
    shown = [n for n in level1 if n.kind == "action"]
    assert len(more) == 1 and more[0].label == f"+{7 - len(shown)}"
    assert more[0].click is None  # focusing on the top again would change nothing
    assert 3 <= len(shown) <= 5  # the 3 most visited, plus the path's and the PV's move


@pytest.mark.parametrize(("game", "iterations"), [("tic_tac_toe", 10), ("connect_four", 30)])
def test_the_drawing_fits_560_px_at_1_to_1(game: str, iterations: int) -> None:
    view = case_view(game, iterations)
    print(f"\n{game} after {iterations} steps: {view.width:.0f} x {view.height:.0f} px")
    assert view.width <= 560


def test_an_rtl_language_draws_the_boxes_no_wider_than_german() -> None:
    """Arabic writes a signed Q isolated left to right ("\u2066+1.00\u2069", i18n.fixed): format
    characters of no width; and its root's name (الجذر) is estimated at 0.7 em a letter, not a
    Chinese character's 1 em. The boxes were at their widest (76 px), and tic-tac-toe's nine
    moves after 10 steps overflowed the projector's tree box (scripts/rehearse_lessons.py)."""
    from app.drawing.tree_text import text_width
    from app.words import i18n

    assert text_width("\u2066+1.00\u2069", 12) == text_width("+1.00", 12)
    search, trace = searched("tic_tac_toe", 10)
    with i18n.language("ar"):
        arabic = view_of(search, trace, "tic_tac_toe")
    with i18n.language("de"):
        german = view_of(search, trace, "tic_tac_toe")
    assert any(i18n.LRI in line for n in arabic.nodes for line in n.lines)
    assert arabic.width <= german.width, (arabic.width, german.width)
    assert arabic.nodes[0].w < tree_layout.MAX_W


def test_children_are_centred_under_their_parent_when_there_is_room() -> None:
    view = case_view("tic_tac_toe", 10)
    boxes = {n.key: n for n in view.nodes}
    top = boxes[f"n{view.top_id}"]
    level1 = by_level(view)[1]
    centre = (level1[0].x + level1[-1].x + level1[-1].w) / 2
    assert centre == pytest.approx(top.x + top.w / 2)
    (child,) = by_level(view)[2]  # the new node, alone under its parent
    parent = boxes[child.parent or ""]
    assert child.x + child.w / 2 == pytest.approx(parent.x + parent.w / 2)


def test_isotonic_is_the_least_squares_non_decreasing_fit() -> None:
    assert isotonic([1, 2, 3]) == [1, 2, 3]
    assert isotonic([3, 1, 2]) == [2, 2, 2]
    assert isotonic([1, 3, 2, 4]) == [1, 2.5, 2.5, 4]
    rng = random.Random(0)
    for _ in range(200):
        values = [rng.uniform(-5, 5) for _ in range(rng.randint(1, 8))]
        fit = isotonic(values)
        assert all(a <= b + 1e-12 for a, b in zip(fit, fit[1:], strict=False))
        assert sum(fit) == pytest.approx(sum(values))  # each pooled block keeps its mean
        # no small non-decreasing change does better
        best = sum((f - v) ** 2 for f, v in zip(fit, values, strict=True))
        for _ in range(20):
            trial = sorted(f + rng.uniform(-0.3, 0.3) for f in fit)
            assert best <= sum((t - v) ** 2 for t, v in zip(trial, values, strict=True)) + 1e-9


# ------------------------------------------------------------------ marks, numbers, text


@pytest.mark.parametrize(("game", "iterations"), CASES)
def test_marks_land_on_the_right_ids(game: str, iterations: int) -> None:
    search, trace = searched(game, iterations)
    view = case_view(game, iterations)
    drawn = view.drawn_ids
    path = path_ids(trace)
    assert {n.id for n in view.nodes if n.marks.path} == path & drawn
    rows_down = {i: depth_in_rows(tree_node(search, i)) for i in path}
    assert {i for i in path if rows_down[i] < 6} <= drawn, "the path is drawn down to 6 rows"
    assert trace.expansion is not None
    assert [n.id for n in view.nodes if n.marks.new] == [trace.expansion.node_id]
    assert {n.id for n in view.nodes if n.marks.changed} == {u.node_id for u in trace.updates}
    assert not any(n.marks.focus for n in view.nodes)
    # the principal variation from the root: move numbers, one per move (an outcome below its
    # chance node carries none: one badge per move)
    expected: dict[int, int] = {}
    rank = 0
    for node in search.principal_variation()[1:]:
        if not (isinstance(node, ActionNode) and isinstance(node.parent, ChanceNode)):
            rank += 1
            expected[node.id] = rank
    got = {n.id: n.marks.pv for n in view.nodes if n.marks.pv is not None}
    assert got == {i: r for i, r in expected.items() if i in drawn}
    assert got, "the PV's first move is always drawn"
    for edge in view.edges:
        ids = {edge.source[1:], edge.target[1:]}
        on_path = all(i.isdigit() and int(i) in path for i in ids)
        assert (edge.style == "path") == (on_path and not edge.source.startswith("more"))


def test_marks_on_a_phase_step_path_without_a_backup() -> None:
    search = Search(make_game("tic_tac_toe"), seed=3)
    search.run(iterations=20)
    steps = search.select()
    chosen = {s.chosen_terms.node_id for s in steps if isinstance(s, Decision)}
    ids = {0} | {s.node_id for s in steps} | chosen
    view = build_view(search, path_ids=ids, new_id=None, changed_ids=set(), focus_id=None,
                      player_names=("X", "O"))  # fmt: skip
    assert {n.id for n in view.nodes if n.marks.path} == ids & view.drawn_ids
    assert not any(n.marks.changed or n.marks.new for n in view.nodes)


@pytest.mark.parametrize(("game", "iterations"), CASES)
def test_the_faint_rule(game: str, iterations: int) -> None:
    search, _ = searched(game, iterations)
    view = case_view(game, iterations)
    for node in view.nodes:
        if node.id is None:
            assert not node.faint
            continue
        real = tree_node(search, node.id)
        parent_n = real.parent.visits if real.parent is not None else 0
        rare = real.visits < 3 or real.visits < 0.02 * parent_n
        assert node.faint == (rare and not node.marks.new), node.key  # the new node: never
    if iterations >= 100:
        assert any(n.faint for n in view.nodes) and any(not n.faint for n in view.nodes)


def test_the_new_node_is_never_faint() -> None:
    search = Search(make_game("tic_tac_toe"), seed=3)
    search.run(iterations=30)
    trace = search.step()
    assert trace.expansion is not None
    view = view_of(search, trace, "tic_tac_toe")
    box = view.node(trace.expansion.node_id)
    assert box is not None and box.marks.new and not box.faint  # N 1, yet drawn in full


def test_the_tree_says_itself_in_words() -> None:
    search = Search(make_game("tic_tac_toe"), seed=3)
    search.run(iterations=40)
    trace = search.step()
    view = view_of(search, trace, "tic_tac_toe")
    words = view.describe()
    best = max(search.root.children, key=lambda child: child.visits)
    assert words.startswith(f"Search tree, {search.node_count:,} nodes. Top: root, N 41")
    box = view.node(best.id)
    assert box is not None
    assert f"Most visited moves: {box.label} {' '.join(box.lines)}" in words
    assert "Last path: " in words and view.to_dict()["summary"] == words


def test_a_child_under_2_percent_of_its_parent_is_faint() -> None:
    search = Search(make_game("connect_four"), config=SearchConfig(c=0.5), seed=1)
    search.run(iterations=1000)  # the root's moves: N 4, 8, 4, 945, 31, 4, 4
    view = view_of(search, None, "connect_four")
    shares = [
        (n, tree_node(search, n.id))
        for n in view.nodes
        if n.id is not None and n.level > 0 and tree_node(search, n.id).visits >= 3
    ]
    rare = [n for n, real in shares if real.visits < 0.02 * real.parent.visits]
    common = [n for n, real in shares if real.visits >= 0.02 * real.parent.visits]
    assert rare and all(n.faint for n in rare)
    assert common and not any(n.faint for n in common)


@pytest.mark.parametrize(("game", "iterations"), CASES)
def test_q_is_from_the_mover_into_the_box(game: str, iterations: int) -> None:
    search, _ = searched(game, iterations)
    view = case_view(game, iterations)
    names = game_spec(game).player_names
    for node in view.nodes:
        if node.kind != "action" or node.id is None:
            continue
        real = tree_node(search, node.id)
        decider = real.decider
        mover = max(search.root.player, 0) if decider is None else decider.player
        n_line, q_line = node.lines
        assert n_line == f"N {real.visits}"
        if real.visits:
            assert q_line == f"{real.mean(mover):+.2f}"
            assert f"from {names[mover]}'s view" in " ".join(node.tooltip)
        assert f"node #{real.id}" in " ".join(node.tooltip)
        role = "end" if real.player < 0 else f"p{mover}"  # the colour of whose move it was
        assert node.role == role and node.mover == mover


def test_proven_results_are_from_the_same_view_as_q() -> None:
    search = Search(make_game("tic_tac_toe"), config=SearchConfig(solver=True), seed=0)
    search.run(iterations=3000)
    view = view_of(search, None, "tic_tac_toe")
    proven = [n for n in view.nodes if n.proven is not None]
    assert proven
    for node in proven:
        real = tree_node(search, node.id)
        mover = real.decider.player
        assert node.proven == proof_label(real.proven, mover)
        said = f"proven: {node.proven} for {'XO'[mover]} (the mean of its visits: "
        assert any(line.startswith(said) for line in node.tooltip)
        # a proven node's box shows the proven value, as the board does, or, when the mean
        # of its visits is another number, that mean (labelled) beside the W / L / D badge
        exact = real.proven[mover]
        mean = real.mean(mover)
        shown = f"{exact:+.2f}" if f"{mean:+.2f}" == f"{exact:+.2f}" else f"mean {mean:+.2f}"
        assert node.lines[1] == shown
        assert f"Q = {exact:+.3f} from {'XO'[mover]}'s view" in " ".join(node.tooltip)


def test_tooltips_give_full_labels_ids_and_a_click_hint() -> None:
    search, _ = searched("gridiron", 200)
    view = case_view("gridiron", 200)
    chance = [n for n in view.nodes if n.kind == "chance"]
    assert chance and chance[0].label == "kick-off"
    assert chance[0].tooltip[0] == "Away tries kick-off"
    outcomes = [n for n in view.nodes if n.parent == chance[0].key and n.kind == "action"]
    assert outcomes
    for n in outcomes:
        assert n.tooltip[0].startswith("kick-off → ball lands on (")
        # the game's short outcome label, whole: "on 2,1" for "ball lands on (2,1)"
        x, y = n.tooltip[0].removeprefix("kick-off → ball lands on (").rstrip(")").split(",")
        assert n.label == f"on {x},{y}"
        assert "probability 9.1%" in n.tooltip
        assert n.tooltip[-1] == "click to focus" and n.click == n.id
    edges = [e for e in view.edges if e.source == chance[0].key and e.target.startswith("n")]
    assert edges and all(e.label == "9.1%" for e in edges)
    top = view.nodes[0]
    assert top.label == "root" and top.tooltip[-1] == "the top of the drawing"
    # tic-tac-toe: no chance layer anywhere
    assert not any(n.kind == "chance" for n in case_view("tic_tac_toe", 100).nodes)


def test_focus_draws_from_the_node_with_a_way_up() -> None:
    search, trace = searched("connect_four", 1000)
    first = case_view("connect_four", 1000)
    target = next(n for n in first.nodes if n.level == 2 and n.kind == "action")
    assert target.id is not None
    view = view_of(search, trace, "connect_four", focus_id=target.id)
    assert view.top_id == target.id and view.focus_found
    top, up = view.nodes[0], view.nodes[1]
    assert top.id == target.id and top.marks.focus and top.level == 0
    real = tree_node(search, target.id)
    assert up.kind == "up" and up.click == real.parent.id and up.label == "▲ up"
    assert up.y + up.h < top.y
    assert any(e.source == "up" and e.target == top.key for e in view.edges)
    # every child of the focused node is drawn (at most 12)
    assert {n.id for n in view.nodes if n.parent == top.key} == {c.id for c in real.children}
    # a chance node can be the top: all its outcomes are drawn
    g_search, g_trace = searched("gridiron", 200)
    chance = g_search.root.children[0]
    assert isinstance(chance, ChanceNode)
    g_view = view_of(g_search, g_trace, "gridiron", focus_id=chance.id)
    assert g_view.nodes[0].kind == "chance"
    assert {n.id for n in g_view.nodes if n.level == 1} == {c.id for c in chance.children}
    # a focus that is not in the tree: the root, and the view says so
    lost = view_of(search, trace, "connect_four", focus_id=10**9)
    assert not lost.focus_found and lost.top_id == search.root.id


def test_a_focus_from_a_dropped_subtree_is_not_found_after_a_move() -> None:
    search = Search(make_game("tic_tac_toe"), seed=2)
    search.run(iterations=50)
    deep = max(search.root.children, key=lambda c: c.visits)
    view = build_view(search, path_ids=set(), new_id=None, changed_ids=set(), focus_id=deep.id,
                      player_names=("X", "O"))  # fmt: skip
    assert view.top_id == deep.id and view.focus_found
    other = next(c for c in search.root.children if c is not deep)
    search.advance(other.action)  # the tree below every other move is dropped
    again = build_view(search, path_ids=set(), new_id=None, changed_ids=set(), focus_id=deep.id,
                       player_names=("X", "O"))  # fmt: skip
    assert not again.focus_found and again.top_id == search.root.id == other.id
    assert again.nodes[0].label == "root"


@pytest.mark.parametrize(("game", "iterations"), CASES)
def test_to_dict_is_json(game: str, iterations: int) -> None:
    view = case_view(game, iterations)
    data = view.to_dict()
    text = json.dumps(data, allow_nan=False)
    assert json.loads(text) == data
    assert set(data) >= {"width", "height", "top", "nodes", "edges", "palette", "player_names"}
    node = data["nodes"][0]
    assert set(node) >= {"key", "id", "x", "y", "w", "h", "kind", "role", "label", "lines",
                         "tooltip", "faint", "marks", "click"}  # fmt: skip
    assert set(node["marks"]) == {"path", "new", "changed", "pv", "focus"}
    assert set(data["edges"][0]) == {"from", "to", "label", "style"}
    # the players' colours are the board's: Connect Four's X yellow, elsewhere blue
    first = "#fef9c3" if game == "connect_four" else "#dbeafe"
    assert data["palette"]["p0"] == first and data["palette"]["path"] == "#f59e0b"
    assert node["mover"] in (0, 1)


def test_views_are_frozen() -> None:
    view = case_view("tic_tac_toe", 10)
    with pytest.raises(AttributeError):
        view.width = 1  # type: ignore[misc]
    with pytest.raises(AttributeError):
        view.nodes[0].label = "x"  # type: ignore[misc]


# ------------------------------------------------------------------ hostile labels

HOSTILE = ("<img src=x onerror=alert(1)>", "**bold**")


class HostileTake(Take):
    def action_label(self, s: Any, a: int) -> str:
        return HOSTILE[a - 1]


def test_hostile_labels_are_carried_verbatim_as_data() -> None:
    search = Search(HostileTake(7), seed=0)  # type: ignore[arg-type]
    search.run(iterations=60)
    view = build_view(search, path_ids=set(), new_id=None, changed_ids=set(), focus_id=None,
                      player_names=("<b>P0</b>", "P1"))  # fmt: skip
    level1 = by_level(view)[1]
    assert [n.label for n in level1] == ["<img src…", "**bold**"]
    assert level1[0].tooltip[0] == "<b>P0</b> plays <img src=x onerror=alert(1)>"
    assert level1[1].tooltip[0] == "<b>P0</b> plays **bold**"
    text = json.dumps(view.to_dict())
    assert "<img src=x onerror=alert(1)>" in text and "**bold**" in text
    assert "&lt;" not in text and "&amp;" not in text  # never escaped into HTML on the way


def test_the_browser_script_builds_dom_with_text_content_only() -> None:
    js = tree_view._JS
    forbidden_calls = (
        "innerHTML",
        "outerHTML",
        "insertAdjacentHTML",
        "document.write",
        "createContextualFragment",
        "eval(",
        "new Function",
        "DOMParser",
    )
    for forbidden in forbidden_calls:
        assert forbidden not in js, forbidden
    assert "createElementNS" in js and "textContent" in js
    # every data string reaches the page through textContent (labels, lines, tooltips, legend)
    assert re.search(r"t\.textContent = String\(str\)", js)
    assert "export default function" in js


def test_short_labels() -> None:
    assert short_label("a1") == "a1"
    assert short_label("col 4") == "col 4"
    assert short_label("end turn") == "end turn"  # 8 characters: kept whole
    assert short_label("kick-off!") == "kick-off!"  # 9 characters: kept whole
    assert short_label("kick-off!!") == "kick-off…"
    assert short_label("two\nlines\there") == "two line…"
    assert sibling_labels(["ball lands on (1,1)", "ball lands on (3,2)"]) == ["…(1,1)", "…(3,2)"]
    assert sibling_labels(["H1 move to (1,0)", "H1 move to (2,0)", "end turn"]) == [
        "H1…(1,0)",
        "H1…(2,0)",
        "end turn",
    ]
    assert sibling_labels(["a1", "b1"]) == ["a1", "b1"]


def test_the_component_is_registered_once_at_import() -> None:
    assert callable(tree_view._COMPONENT)
    assert tree_view._as_id(12) == 12 and tree_view._as_id(12.0) == 12
    assert tree_view._as_id(None) is None and tree_view._as_id(True) is None
    assert tree_view._as_id("12") is None and tree_view._as_id(1.5) is None


@pytest.mark.slow
def test_render_tree_runs_in_an_app() -> None:
    from streamlit.testing.v1 import AppTest

    def page() -> None:
        import streamlit as st

        from app.components.tree_view import render_tree
        from app.drawing.tree_layout import build_view
        from games import make_game
        from mcts_core import Search

        search = Search(make_game("tic_tac_toe"), seed=1)
        search.run(iterations=10)
        view = build_view(search, path_ids=set(), new_id=None, changed_ids=set(),
                          focus_id=None, player_names=("X", "O"))  # fmt: skip
        st.write(f"clicked: {render_tree(view, key='tree', height=300)}")

    at = AppTest.from_function(page).run()
    assert not at.exception
    assert at.markdown[0].value == "clicked: None"


def test_a_projector_row_keeps_the_top_moves_within_its_width() -> None:
    """Present mode (``row_width``): the top's row of moves at most that wide, so that at 14 px
    type it fits the tree's column at 1024x768: tic-tac-toe's nine moves all drawn (445 px),
    Nim's twelve (967 px) folded into its most visited, the path's and "+n"; without it, all."""
    for game, everything in (("tic_tac_toe", 9), ("nim", 12)):
        search, trace = searched(game, 200)
        wide = view_of(search, trace, game)
        narrow = view_of(search, trace, game, row_width=tree_layout.PROJECTOR_ROW)
        top = wide.nodes[0].key
        moves = [n for n in wide.nodes if n.parent == top and n.id is not None]
        assert len(moves) == everything
        row = [n for n in narrow.nodes if n.parent == narrow.nodes[0].key]
        assert max(n.x + n.w for n in row) - min(n.x for n in row) <= tree_layout.PROJECTOR_ROW
        drawn = {n.id for n in row if n.id is not None}
        if game == "tic_tac_toe":
            assert len(drawn) == 9 and all(n.id is not None for n in row)
        else:  # the most visited kept, the path's child kept, the rest behind "+n"
            assert 2 <= len(drawn) < 12 and row[-1].label == f"+{12 - len(drawn)}"
            by_visits = sorted(moves, key=lambda n: -int(n.lines[0].split()[-1]))
            assert by_visits[0].id in drawn
            assert {n.id for n in wide.nodes if n.marks.path} & {m.id for m in moves} <= drawn
