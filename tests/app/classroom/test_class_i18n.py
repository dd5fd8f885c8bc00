"""A class in two languages (issue 34): the frame carries facts beside the teacher's words, and
a phone renders them in its own language while the teacher's page stays in the teacher's."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.classroom.core import said
from app.classroom.core.frame import Frame, LessonPage, LessonRef
from app.classroom.core.records import Poll
from app.quiz.words import M, count, num
from app.words import i18n
from app.words.i18n import N_
from app.words.narration import narrate_iteration, narrate_phase, selection_end
from games import make_game
from mcts_core import Search
from mcts_core.config import SearchConfig
from tests.app_helpers import outside_pseudo

NAMES = ("X", "O")


def _search() -> Search:
    return Search(make_game("tic_tac_toe"), None, SearchConfig(), seed=3)


def _wire(data: object) -> object:
    return json.loads(json.dumps(data))


# ------------------------------------------------------------------ the frame's new keys


def _frame() -> Frame:
    search = _search()
    trace = search.step()
    first = _wire(said.narration_facts(trace, None, None, None, NAMES, 1.4, "uct"))
    assert isinstance(first, dict)
    return Frame(
        stats="Iteration 1",
        narration=("Select: ...", "Raise C ..."),
        lesson=LessonPage("Exploration · page 1: UCT", "Watch."),
        said=(first, said.flip_facts(1.4, "uct", 0)),
        numbers=said.stats_facts(1, 2, 1, 0.0, 1, 1, "step"),
        lesson_ref=LessonRef("exploration", 1),
        question={"poll": "q1", "options": ["a1", "b2"], "text": "Which?"},
        reveal={"poll": "q0", "options": ["a1"], "summary": "a1 won."},
    )


def test_the_facts_go_through_json_and_back_unchanged() -> None:
    frame = _frame()
    data = _wire(frame.to_dict())
    assert isinstance(data, dict)
    assert {"said", "numbers", "lesson_ref", "question", "reveal"} <= set(data)
    assert Frame.from_dict(data) == frame
    # the teacher's words stay in the wire format for a replica of an older version
    assert data["narration"] == ["Select: ...", "Raise C ..."] and data["stats"] == "Iteration 1"


def test_an_old_frame_without_facts_reads_as_before() -> None:
    old = {"stats": "Iteration 3", "tree": None, "narration": ["Select: X took a1."],
           "lesson": None, "link": {}, "poll": None, "last_reveal": None, "at": 1.0}  # fmt: skip
    frame = Frame.from_dict(old)
    assert frame.said == () and frame.numbers is None and frame.lesson_ref is None
    assert frame.question is None and frame.reveal is None
    assert "said" not in Frame().to_dict() and set(Frame().to_dict()) == set(old)


def test_garbled_facts_read_as_none_and_the_teacher_s_words_stand() -> None:
    garbled = {"narration": ["Select: X took a1."], "said": [{"kind": "iteration"}, 3],
               "numbers": [1], "lesson_ref": {"name": "", "page": 1}, "question": "q"}  # fmt: skip
    frame = Frame.from_dict(garbled)
    assert frame.said == ({"kind": "iteration"}, None)
    assert frame.numbers is None and frame.lesson_ref is None and frame.question is None
    assert said.render_line(frame.said[0]) is None  # (the phone shows the teacher's line)
    for ref in ({"name": "x", "page": 0}, {"name": "x", "page": True}, {"name": 3, "page": 1}):
        assert Frame.from_dict({"lesson_ref": ref}).lesson_ref is None


# ------------------------------------------------------------------ the words from facts


def test_an_iteration_s_facts_say_what_the_teacher_s_narration_says() -> None:
    search = _search()
    for _step in range(12):
        trace = search.step()
        facts = _wire(said.narration_facts(trace, None, None, None, NAMES, 1.4, "uct"))
        assert said.render_line(facts) == narrate_iteration(trace, NAMES, 1.4, "uct")


def test_each_phase_s_facts_say_what_the_teacher_s_narration_says() -> None:
    search = _search()
    for _step in range(4):
        search.step()
    path = search.select()
    context = selection_end(search, path)
    steps = [("select", path), ("expand", search.expand()), ("evaluate", search.evaluate())]
    for phase, result in steps:
        facts = _wire(said.narration_facts(None, phase, result, context, NAMES, 1.4, "uct"))
        assert said.render_line(facts) == narrate_phase(phase, result, context, NAMES, 1.4, "uct")
    trace = search.backpropagate()
    facts = _wire(said.narration_facts(trace, "backpropagate", trace, trace, NAMES, 1.4, "uct"))
    expected = narrate_phase("backpropagate", trace, trace, NAMES, 1.4, "uct")
    assert said.render_line(facts) == expected


def test_the_phone_s_words_are_in_its_language() -> None:
    """In the pseudo-language every word made from the facts went through ``_()``: the
    narration, the sentence on C, the statistics and the start; and a planted English line
    is found (the check can fail)."""
    frame = Frame.from_dict(_wire(_frame().to_dict()))
    with i18n.language(i18n.PSEUDO):
        lines = [said.render_line(f, frame.said) for f in frame.said]
        stats = said.render_numbers(frame.numbers)
        start = said.render_line({"kind": "start"})
    shown = [line for line in [*lines, stats, start] if line]
    assert len(shown) >= 3 and stats and start
    for line in shown:
        assert i18n.PSEUDO_OPEN in line
    assert not re.search(r"[A-Za-z]{3,}", outside_pseudo(str(stats) + str(start)))
    assert re.search(r"[A-Za-z]{3,}", outside_pseudo(str(stats) + " planted English"))


def test_player_names_go_in_english_and_each_phone_translates_them() -> None:
    """The facts carry the game's own names ("Home", "Away"); a phone says them in its
    language with ``_()`` (a frame of an older version with other names: as they are)."""
    search = Search(make_game("gridiron"), None, SearchConfig(), seed=1)
    trace = search.step()
    facts = _wire(said.narration_facts(trace, None, None, None, ("Home", "Away"), 1.4, "uct"))
    assert isinstance(facts, dict) and facts["names"] == ["Home", "Away"]
    assert said.render_line(facts) == narrate_iteration(trace, ("Home", "Away"), 1.4, "uct")
    with i18n.language(i18n.PSEUDO):
        shown = str(said.render_line(facts))
        wanted = narrate_iteration(trace, (i18n._("Home"), i18n._("Away")), 1.4, "uct")
    assert shown == wanted and "Home" not in outside_pseudo(shown)


def _poll(poll_id: str = "q1") -> Poll:
    return Poll(poll_id, 1, "Which move does selection take?", ("a1", "b2"), 0.0, True,
                ("a1",), "a1 won.")  # fmt: skip


def _reveal_facts() -> dict[str, object]:
    rows = [
        [M(N_("move")), M(N_("N")), M(N_("Q"))],
        ["a1", count(3), num("+0.333")],
        ["b2", count(1), num("-1.000")],
    ]
    why = "Selection adds an exploration bonus to each move's Q."
    return _wire({"poll": "q1", "options": ["a1", "b2"], "rows": rows, "marked": 0, "why": why})


def test_the_reveal_s_table_and_why_are_in_the_phone_s_language() -> None:
    facts = _reveal_facts()
    assert said.reveal_rows(facts, _poll()) == (("move", "N", "Q"), ("a1", "3", "+0.333"),
                                                ("b2", "1", "-1.000"))  # fmt: skip
    with i18n.language(i18n.PSEUDO):
        rows = said.reveal_rows(facts, _poll())
        why = said.why_text(facts, _poll())
    assert rows[0][0].startswith(i18n.PSEUDO_OPEN) and why.startswith(i18n.PSEUDO_OPEN)
    cells = " ".join(c for row in rows for c in row)
    assert _english_left([cells, why]) == []
    assert _english_left([cells + " planted"]) == ["planted"]  # (the check can fail)
    with i18n.language("de"):  # numbers the language's way
        assert said.reveal_rows(facts, _poll())[1][2] == "+0,333"
    # another question's facts, none, or garbled: nothing (the phone shows its bars alone)
    assert said.reveal_rows(facts, _poll("q2")) == () and said.why_text(facts, _poll("q2")) == ""
    assert said.reveal_rows(None, _poll()) == () and said.why_text({}, _poll()) == ""
    assert said.reveal_rows({**facts, "rows": "x"}, _poll()) == ()
    assert said.reveal_rows({**facts, "rows": [["a"], ["b", "c"]]}, _poll()) == ()


def _tree() -> dict[str, object]:
    from app.drawing.tree_layout import build_view

    search = _search()
    for _step in range(6):
        search.step()
    view = build_view(search, path_ids=set(), new_id=None, changed_ids=set(), focus_id=None,
                      player_names=NAMES)  # fmt: skip
    return view.to_dict()


def test_the_tree_s_words_come_in_the_phone_s_language_on_the_teacher_s_geometry() -> None:
    from app.drawing.tree_layout import build_view

    tree = _tree()
    search = _search()
    for _step in range(6):
        search.step()
    with i18n.language(i18n.PSEUDO):
        pseudo = build_view(search, path_ids=set(), new_id=None, changed_ids=set(),
                            focus_id=None, player_names=NAMES).to_dict()  # fmt: skip
    words = _wire({"lang": "en", "in": {i18n.PSEUDO: said.tree_words_of(pseudo)}})
    frame = Frame.from_dict(_wire({"tree": tree, "tree_words": words}))
    assert frame.tree_words == words
    with i18n.language(i18n.PSEUDO):
        shown = said.tree_in_language(tree, frame.tree_words)
    nodes = shown["nodes"]
    assert isinstance(nodes, list) and len(nodes) == len(tree["nodes"])  # type: ignore[arg-type]
    for mine, teachers in zip(nodes, tree["nodes"], strict=True):  # type: ignore[call-overload]
        assert {k: v for k, v in mine.items() if k not in ("label", "lines", "tooltip")} == {
            k: v for k, v in teachers.items() if k not in ("label", "lines", "tooltip")
        }  # the teacher's geometry, marks and heat
        assert _english_left(mine["tooltip"]) == [], mine["tooltip"]
    assert nodes[0]["label"].startswith(i18n.PSEUDO_OPEN)  # "root"
    assert _english_left([str(shown["summary"])]) == []
    assert _english_left(list(tree["nodes"][0]["tooltip"])) != []  # type: ignore[index]
    # a language the frame has no words for, an old frame, garbled words: the teacher's
    with i18n.language("de"):
        assert said.tree_in_language(tree, words) == tree
    assert said.tree_in_language(tree, None) == tree
    for bad in ({"in": 3}, {"in": {i18n.PSEUDO: {"nodes": [1]}}}, "x"):
        with i18n.language(i18n.PSEUDO):
            assert said.tree_in_language(tree, bad) == tree
    with i18n.language(i18n.PSEUDO):
        odd = said.tree_in_language(tree, {"in": {i18n.PSEUDO: {"nodes": {"n0": [1, 2, 3]}}}})
    assert odd["nodes"] == tree["nodes"]
    assert Frame.from_dict({"tree_words": [1]}).tree_words is None
    assert "tree_words" not in Frame().to_dict()


# ------------------------------------------------------------ a class in two languages

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

import app.classroom.shared as class_view  # noqa: E402
from tests.app_helpers import MAIN, blocks, fresh  # noqa: E402
from tests.class_fixtures import own_class_store  # noqa: E402


@pytest.fixture
def class_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    yield from own_class_store(tmp_path, monkeypatch)


def _phone(code: str, lang: str) -> AppTest:
    """A student's page with ``?lang=`` that joined class ``code`` (the Join button found by
    its place: its label is in the page's language)."""
    at = AppTest.from_file(MAIN, default_timeout=60)
    at.query_params["class"] = code
    at.query_params["lang"] = lang
    at.run()
    at.text_input(key="class_name").input("Ada")
    [join] = [b for b in at.button if b.proto.is_form_submitter]
    join.click().run()
    assert not at.exception
    return at


def _parts(at: AppTest, css: str) -> list[str]:
    """The text of every element of class ``css`` on the page (tags dropped)."""
    found = re.findall(rf'class="{css}"[^>]*>(.*?)</(?:p|div)>', " ".join(blocks(at)), re.S)
    return [re.sub(r"<[^>]+>", " ", html_text) for html_text in found]


def _english_left(texts: list[str]) -> list[str]:
    """Words of three letters or more outside ⟦ ⟧ (moves, digits and player names pass)."""
    return [w for t in texts for w in re.findall(r"[A-Za-z]{3,}", outside_pseudo(t))]


def test_the_phone_speaks_its_language_and_the_projector_the_teacher_s(
    class_store: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(i18n.PSEUDO_ENV, "1")
    teacher = fresh(lesson="exploration", page="1")  # a question at once: which move?
    teacher.button(key="class_start").click().run()
    code = teacher.session_state["class_teacher"].code
    phone = _phone(code, i18n.PSEUDO)
    teacher.button(key="step").click().run()  # the reveal, a narrated iteration, a new question
    assert not teacher.exception
    phone.run()
    assert not phone.exception
    narration = _parts(phone, "lab-narration")
    question = _parts(phone, "lab-student-q")
    lesson = _parts(phone, "lab-lesson")
    stats = _parts(phone, "lab-stats")
    assert narration and question and lesson and stats
    for texts in (narration, question, lesson, stats):
        assert all(i18n.PSEUDO_OPEN in t for t in texts), texts
        assert _english_left(texts) == [], texts
    assert _english_left(["Select: X took a1."]) == ["Select", "took"]  # (the check can fail)
    # the reveal's table of deciding numbers and its why, folded under the class's bars
    page = " ".join(blocks(phone))
    table = re.search(r'class="lab-reveal-rows".*?</table>', page, re.S)
    why = re.search(r"<summary>(.*?)</summary>(.*?)</details>", page, re.S)
    assert table is not None and why is not None, page[-2000:]
    cells = re.findall(r"<t[hd]>(.*?)</t[hd]>", table.group(0))
    folded = html.unescape(re.sub(r"<style>.*?</style>|<[^>]+>", " ", why.group(2), flags=re.S))
    assert len(cells) >= 4 and _english_left([*cells, why.group(1), folded]) == [], folded
    # the tree: the teacher's words in English, each phone's in its language (en-XA here)
    version, data = class_view.room().follow(code, -1)
    frame = Frame.from_dict(data)
    assert frame.tree is not None and frame.tree_words is not None
    assert frame.tree_words["lang"] == "en" and set(frame.tree_words["in"]) == set(
        i18n.offered()
    ) - {"en"}
    with i18n.language(i18n.PSEUDO):
        tree = said.tree_in_language(frame.tree, frame.tree_words)
    assert [n["x"] for n in tree["nodes"]] == [n["x"] for n in frame.tree["nodes"]]
    assert tree["nodes"][0]["label"] == "⟦ŕööţ⟧" or tree["nodes"][0]["label"].startswith("⟦")
    tips = [t for n in tree["nodes"] for t in n["tooltip"]]
    assert tips and _english_left(tips) == [], tips
    assert _english_left([tree["summary"]]) == [], tree["summary"]
    assert _english_left([t for n in frame.tree["nodes"] for t in n["tooltip"]]) != []
    # the projector: the teacher's English, never the pseudo-language
    teacher_text = " ".join(blocks(teacher))
    assert i18n.PSEUDO_OPEN not in teacher_text
    assert "Select" in teacher_text or "select" in teacher_text


def test_the_projector_speaks_the_teacher_s_language(
    class_store: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 43: a teacher in another language (en-XA here) projects nothing in English: the
    join box is one message with the address and the code in their places, the count line and
    "Class on tree" go through the catalogue, and the class's bars (drawn by the room box
    when the class's answers are not the quiz table's rows) ask the question from its facts."""
    from app.quiz import ClassCounts

    monkeypatch.setenv(i18n.PSEUDO_ENV, "1")
    monkeypatch.setattr(ClassCounts, "fit", lambda self, reveal: False)  # the room box's bars
    teacher = fresh(lesson="exploration", page="1", lang=i18n.PSEUDO)
    teacher.button(key="class_start").click().run()
    code = teacher.session_state["class_teacher"].code  # (the join box shown at the start)
    join = [b for b in blocks(teacher) if '<p class="lab-class-code"' in b]
    assert len(join) == 1, blocks(teacher)
    words = re.sub(r"<style>.*?</style>|<[^>]+>", " ", join[0], flags=re.S)
    assert _english_left([words.replace(code, "")]) == [] and code in words
    # the address and the code sit inside the one message, each on its own line
    box = re.sub(r"<style>.*?</style>", "", join[0], flags=re.S)
    assert box.index(i18n.PSEUDO_OPEN) < box.index('"lab-class-url"')
    assert box.index('"lab-class-code"') < box.rindex(i18n.PSEUDO_CLOSE)
    assert [w.label for w in teacher.toggle if w.key == "class_heat"] == ["⟦Çļášš óñ ţŕéé⟧"]
    teacher.button(key="step").click().run()  # the reveal
    assert not teacher.exception
    count = _parts(teacher, "lab-class-line lab-class-count")
    assert count and _english_left([c.replace(code, "") for c in count]) == [], count
    bars = [b for b in blocks(teacher) if 'class="lab-bars"' in b]
    assert len(bars) == 1, [b[:200] for b in blocks(teacher)]
    asked = re.sub(r"<style>.*?</style>|<table.*?</table>|<[^>]+>", "", bars[0], flags=re.S)
    assert i18n.PSEUDO_OPEN in asked and _english_left([html.unescape(asked)]) == [], asked


def test_counts_with_a_noun_are_plural_messages() -> None:
    """The room line's counts in each language's plural forms (Arabic has six)."""
    from app.words.i18n import n_

    def connected(n: int) -> str:
        return n_("Class {code} · {n} connected", "Class {code} · {n} connected", n,
                  code="AB12", n=i18n.decimal(n))  # fmt: skip

    with i18n.language("es"):
        assert connected(1).endswith("1 conectado") and connected(2).endswith("2 conectados")
    with i18n.language("ar"):
        said_for = [connected(n) for n in (0, 1, 2, 3, 11, 100)]
    assert len(set(said_for)) == 6, said_for
    assert "AB12" in said_for[0] and "\u2068" not in said_for[0]  # (isolated by the caller)
    with i18n.language("ar"):
        assert i18n.isolate("5RDYT3") == "\u20685RDYT3\u2069"
    assert i18n.isolate("5RDYT3") == "5RDYT3"
