"""The class's answers on the thing they predict (issue 33, part: answer on the thing itself,
predictions on the projected tree): the heat data from a known tally, the boxes and board cells
a question about a move is answered on, what a frame carries for the phones (and what a bad
frame reads as), and the board picture's counts. Pure: no Streamlit run."""

from __future__ import annotations

import re

import pytest

from app.classroom.core.frame import Frame
from app.classroom.core.moves import BoardTaps, MoveMap, move_map
from app.classroom.core.records import Poll
from app.classroom.student.taps import board_data, subject, tree_answer
from app.drawing.boards import board_svg
from app.drawing.tree_heat import heat_of, with_heat
from app.drawing.tree_layout import build_view
from app.drawing.tree_model import Heat
from app.quiz.records import Question
from games.registry import make_game
from mcts_core import Search, SearchConfig

LABELS = ("a1", "b1", "c1", "a2", "b2", "c2", "a3", "b3", "c3")


def _search(game: str = "tic_tac_toe", iterations: int = 30, position: str = "") -> Search:
    g = make_game(game)
    root = g.parse_state(position) if position else g.initial_state()
    search = Search(g, root, SearchConfig(), seed=1)
    search.run(iterations=iterations)
    return search


def _question(node_id: int, options: tuple[str, ...], kind: str = "select") -> Question:
    return Question(kind, "Which move?", options, 30, "select", "iteration", "",
                    data={"node_id": node_id})  # fmt: skip


def _poll(choices: tuple[str, ...] = LABELS, poll_id: str = "q1", round_: int = 1) -> Poll:
    return Poll(poll_id, round_, "Which move?", choices, 0.0)


def test_heat_from_a_known_tally() -> None:
    tally = {"a1": 3, "b2": 7, "c3": 0, "Yes, another move": 2}
    where = {"a1": 11, "b2": 15, "c3": 19}
    heat = heat_of(tally, where)
    assert heat == {
        11: Heat(3, 3 / 12, None),  # the share is of every answer, moves or not
        15: Heat(7, 7 / 12, None),
        19: Heat(0, 0.0, None),
    }
    revealed = heat_of(tally, where, right=("b2",))
    assert [revealed[n].right for n in (11, 15, 19)] == [False, True, False]
    assert heat_of({"a1": 0}, {"a1": 1}) == {1: Heat(0, 0.0, None)}  # nobody answered: 0
    assert heat_of({"a1": -4, "b1": 2}, {"a1": 1, "b1": 2})[1] == Heat(0, 0.0, None)


def test_the_heat_rides_on_the_tree_view_as_data() -> None:
    search = _search()
    view = build_view(search, path_ids=set(), new_id=None, changed_ids=set(), focus_id=None,
                      player_names=("X", "O"))  # fmt: skip
    where = move_map(search, _question(search.root.id, LABELS))
    assert where is not None
    heat = heat_of({"b2": 4, "a1": 1}, where.nodes, right=("b2",))
    heated = with_heat(view, heat)
    assert with_heat(view, {}) is view
    data = heated.to_dict()
    by_label = {n["label"]: n["heat"] for n in data["nodes"] if n["heat"] is not None}
    assert set(by_label) == set(LABELS)  # every root move, and only them
    assert by_label["b2"] == {"count": 4, "share": 0.8, "right": True}
    assert by_label["a1"] == {"count": 1, "share": 0.2, "right": False}
    assert by_label["c3"]["count"] == 0
    top = next(n for n in data["nodes"] if n["key"] == data["top"])
    assert top["heat"] is None
    assert "The class chose: " in heated.describe() and "b2 4 (right)" in heated.describe()
    assert all(n["heat"] is None for n in view.to_dict()["nodes"])  # the view itself unchanged


def test_a_selection_question_at_the_root_is_about_the_root_s_moves() -> None:
    search = _search()
    found = move_map(search, _question(search.root.id, LABELS), "q7")
    assert found is not None and found.at_root and found.poll == "q7"
    game, state = search.game, search.root_state
    children = {game.action_label(state, c.action): c.id for c in search.root.children}
    assert found.nodes == children and len(children) == 9
    assert found.actions == {label: LABELS.index(label) for label in LABELS}
    assert found.board == BoardTaps("tic_tac_toe", ("...", "...", "..."),
                                    {label: i for i, label in enumerate(LABELS)})  # fmt: skip
    assert MoveMap.from_dict(found.to_dict()) == found  # (actions stay on the teacher's side)
    assert "actions" not in found.to_dict()


def test_an_expansion_question_s_untried_moves_are_on_the_board_only() -> None:
    search = _search(iterations=4)  # the root has tried 4 of its 9 moves
    tried = {search.game.action_label(search.root_state, c.action) for c in search.root.children}
    untried = tuple(label for label in LABELS if label not in tried)
    found = move_map(search, _question(search.root.id, untried, "expand"))
    assert found is not None and found.nodes == {}  # no box to tap: the board has them
    assert found.board is not None and set(found.board.taps) == set(untried)


def test_a_question_that_is_not_about_a_move_has_no_map() -> None:
    search = _search()
    not_moves = ("No, still b2", "Yes, another move")
    assert move_map(search, _question(search.root.id, not_moves)) is None
    assert move_map(search, _question(99_999, LABELS)) is None  # no such node
    no_node = Question("dice", "?", LABELS, 0, "select", "iteration", "", data={})
    assert move_map(search, no_node) is None


def test_connect_four_columns_are_tapped_below_the_root_too() -> None:
    search = _search("connect_four", 40, "4453")
    child = max(search.root.children, key=lambda c: c.visits)
    state = search.state_of(child)
    labels = tuple(search.game.action_label(state, a) for a in search.game.legal_actions(state))
    found = move_map(search, _question(child.id, labels))
    assert found is not None and not found.at_root
    assert found.board is not None and found.board.view == "connect_four"
    assert len(found.board.rows) == 6 and all(len(r) == 7 for r in found.board.rows)
    assert found.board.taps == {label: i for i, label in enumerate(labels)}
    assert sum(r.count("X") + r.count("O") for r in found.board.rows) == 5  # 4453 and the move


@pytest.mark.parametrize(
    "board",
    [
        {"view": "tic_tac_toe", "rows": ["..<", "...", "..."], "taps": {}},  # not a mark
        {"view": "chess", "rows": ["...", "...", "..."], "taps": {}},
        {"view": "tic_tac_toe", "rows": ["....", "...", "..."], "taps": {}},  # ragged
        {"view": "tic_tac_toe", "rows": ["." * 13] * 3, "taps": {}},  # too wide
        {"view": "tic_tac_toe", "rows": "...", "taps": {}},
        "no board",
    ],
)
def test_a_bad_board_in_a_frame_reads_as_none(board: object) -> None:
    assert BoardTaps.from_dict(board) is None


def test_bad_moves_in_a_frame_read_as_nothing_to_tap() -> None:
    assert MoveMap.from_dict(None) is None and MoveMap.from_dict({"poll": ""}) is None
    odd = MoveMap.from_dict({"poll": "q1", "node_id": 0, "nodes": {"a1": "x", "b2": -1, "c3": 4},
                             "board": {"view": "tic_tac_toe", "rows": ["...", "...", "..."],
                                       "taps": {"a1": 9, "b1": True, "c1": 2}}})  # fmt: skip
    assert odd is not None and odd.nodes == {"c3": 4}
    assert odd.board is not None and odd.board.taps == {"c1": 2}
    # a frame from before keeps reading; its moves come back as sent
    assert Frame.from_dict({"stats": "s"}).moves is None
    assert Frame.from_dict({"moves": ["x"]}).moves is None
    sent = Frame(moves={"poll": "q1", "node_id": 0, "nodes": {"a1": 1}})
    assert Frame.from_dict(sent.to_dict()).moves == sent.moves


def test_a_phone_taps_only_the_open_round_s_moves() -> None:
    where = MoveMap("q1", 0, True, {"a1": 1, "b2": 5, "zz": 9},
                    board=BoardTaps("tic_tac_toe", ("X..", "...", "..."), {"b2": 4}))  # fmt: skip
    poll = _poll()
    found = subject(where.to_dict(), poll)
    assert found is not None
    assert tree_answer(found, poll, "b2") == {
        "poll": "q1", "round": 1, "nodes": {"1": 0, "5": 4}, "chosen": 4,
    }  # fmt: skip
    board = board_data(found, poll, None)
    assert board is not None and board["taps"] == [{"at": 4, "choice": 4, "label": "b2"}]
    assert board["rows"] == ["X..", "...", "..."] and board["chosen"] is None
    assert subject(where.to_dict(), _poll(poll_id="q2")) is None  # another question's frame
    closed = Poll("q1", 1, "?", LABELS, 0.0, revealed=True)
    assert subject(where.to_dict(), closed) is None
    assert tree_answer(None, poll, None) is None


def test_the_board_tab_draws_the_class_s_counts_and_the_right_move() -> None:
    game = make_game("tic_tac_toe")
    heat = {4: Heat(7, 0.7, True), 0: Heat(3, 0.3, False)}
    svg = board_svg(game, game.initial_state(), {0: (0.4, 0.1), 4: (0.6, 0.2)}, heat=heat)
    assert svg is not None
    counts = re.findall(r'class="class-heat-count">(\d+)<', svg)
    assert sorted(counts) == ["3", "7"]
    assert svg.count('class="class-heat-right"') == 1 and svg.count("class-heat-ring") == 1
    plain = board_svg(game, game.initial_state(), {0: (0.4, 0.1)})
    assert plain is not None and "class-heat" not in plain
    c4 = make_game("connect_four")
    svg4 = board_svg(c4, c4.initial_state(), {3: (1.0, 0.0)}, heat={3: Heat(2, 1.0, None)})
    assert svg4 is not None and re.findall(r'class="class-heat-count">(\d+)<', svg4) == ["2"]
    assert "class-heat-right" not in svg4  # not revealed: nothing marked
