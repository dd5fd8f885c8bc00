"""Guided lessons: every lesson followed end to end through AppTest (its pages, set-ups, presses
and questions are what the screen shows), the lesson file format and its error messages, and
lesson links."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

from app.lessons.reading import (
    LESSONS_ENV,
    PRESSES,
    LessonError,
    Page,
    load_lesson,
    load_lessons,
    press_text,
)
from app.quiz.quiz_view import plain_label

MAIN = str(Path(__file__).resolve().parents[2] / "app" / "main.py")
LESSONS, LESSON_ERRORS = load_lessons()


def fresh(**query: str) -> AppTest:
    at = AppTest.from_file(MAIN, default_timeout=120)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at


def blocks(at: AppTest) -> list[str]:
    return [m.value for m in at.markdown] + [str(h.value) for h in at.html]


def plain(block: str) -> str:
    block = re.sub(r"<style>.*?</style>", "", block, flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", block)).split())


def lesson_text(at: AppTest) -> str:
    found = [b for b in blocks(at) if 'class="lab-lesson"' in b]
    assert len(found) == 1, "one lesson page in the sidebar"
    return plain(found[0])


def quiz_block(at: AppTest) -> str:
    """The quiz under the narration: the verdict and question, then the numbers."""
    found = [b for b in blocks(at) if 'class="lab-quiz' in b]
    assert 1 <= len(found) <= 2, "the quiz's blocks under the narration"
    return "\n".join(found)


def shown_kind(at: AppTest) -> str | None:
    found = re.search(r'class="lab-ask" data-kind="([a-z_]+)"', quiz_block(at))
    return found.group(1) if found else None


def metric(at: AppTest, label: str) -> str:
    stats = next(b for b in blocks(at) if '<div class="lab-stats">' in b)
    found = re.search(rf"<small>{re.escape(label)}</small> <b>([^<]*)</b>", stats)
    assert found is not None
    return found.group(1)


def lab(at: AppTest) -> Any:
    return at.session_state["lab"]


def check_setup(at: AppTest, page: Page, where: str) -> None:
    """The screen shows the page's set-up: game, position, settings, tree size, tab."""
    setup = page.setup
    assert setup is not None
    s = at.session_state
    assert s["game"] == setup.game, where
    if setup.position:
        assert s["position"] == setup.position, where
        assert lab(at).position == setup.position, where
    for key, value in setup.settings.items():
        assert s[key] == value, f"{where}: {key} is {s[key]!r}, the page says {value!r}"
    config = lab(at).search.config
    assert config.c == s["c"] and config.solver == s["solver"], where  # the search uses them
    assert config.expansion_order == s["expansion"], where
    assert metric(at, "Iteration") == f"{setup.steps:,}", where
    if setup.tab is not None:
        assert s["details"] == setup.tab, where


def check_expectations_after_setup(at: AppTest, page: Page, where: str) -> None:
    search = lab(at).search
    if "favourite" in page.expect:
        assert search.best_child().label == page.expect["favourite"], where
        if at.session_state["details"] == "Board":  # the Board tab's most visited line
            line = next(c.value for c in at.caption if c.value.startswith("Most visited line"))
            assert f"1. {lab_player(at)} {page.expect['favourite']}" in line, (where, line)
    if "proven" in page.expect:
        proven = [c.label for c in search.children_summary() if c.proven]
        assert proven == [p.strip() for p in page.expect["proven"].split(",")], where


def lab_player(at: AppTest) -> str:
    search = lab(at).search
    names = ("X", "O") if search.game.name != "gridiron" else ("Home", "Away")
    return names[search.game.current_player(search.root_state)]


def answer_open_question(at: AppTest, page: Page, turn: int) -> str | None:
    """Answer the quiz's open question, if one is shown and open: the page's promised answer
    when it has one, else (to see both verdicts) the first option or the last, by turn."""
    if not at.pills:
        return None
    pills = at.pills[0]
    if pills.disabled or pills.value is not None:
        return None
    options = list(lab(at).quiz.pending.options)  # the raw labels (the pills escape Markdown)
    wanted = page.expect.get("answer")
    pick = wanted if wanted in options else options[0] if turn % 2 == 0 else options[-1]
    pills.set_value(pick).run()
    assert not at.exception, at.exception
    return pick


def check_question_matches_tree(at: AppTest, page: Page, where: str) -> None:
    """The question shown is one the page asks, and its options are what the tree offers."""
    kind = shown_kind(at)
    if kind is None or at.pills[0].disabled:
        return  # no question, or one asked before the iteration began (the tree moved on)
    assert kind in page.questions, where
    question = lab(at).quiz.pending
    options = question.options
    assert tuple(at.pills[0].options) == tuple(plain_label(o) for o in options), where
    search = lab(at).search
    if kind == "select" and (page.depth or 0) == 0:
        assert options == tuple(c.label for c in search.children_summary()), where
    if kind == "expand":
        node = search.find_node(question.data["node_id"])
        state = search.state_of(node)
        tried = {m.action for m in node.children}
        labels = [
            search.game.action_label(state, a)
            for a in search.game.legal_actions(state)
            if a not in tried
        ]
        assert list(options) == labels, where


def follow(name: str) -> None:
    lesson = LESSONS[name]
    at = fresh(lesson=name, page="1")
    score_before = 0
    for number, page in enumerate(lesson.pages, start=1):
        where = f"{name} page {number}"
        text = lesson_text(at)
        assert f"page {number} of {len(lesson.pages)}" in text, where
        assert page.title in text, where
        assert at.session_state["lesson"] == name and at.session_state["lesson_page"] == number
        if page.press:
            assert press_text(page.press) in text, where
        if page.setup is not None:
            check_setup(at, page, where)
            check_expectations_after_setup(at, page, where)
        assert at.session_state["quiz"] == bool(page.questions), where
        picked: list[str] = []
        for turn, press in enumerate(page.press):
            if page.questions:
                check_question_matches_tree(at, page, f"{where}, before press {turn + 1}")
                pick = answer_open_question(at, page, number + turn)
                if pick is not None:
                    picked.append(pick)
            at.button(key=PRESSES[press]).click().run()
            assert not at.exception, (where, at.exception)
        if page.questions:
            quiz = lab(at).quiz
            reveal = quiz.reveal
            assert reveal is not None and reveal.verdict != "dropped", (where, reveal)
            assert reveal.question.kind in page.questions, where
            assert picked and reveal.answer == picked[-1], where
            shown = plain(quiz_block(at))
            if reveal.verdict == "right":
                assert f"✓ Right: {reveal.answer}." in shown, where
            else:
                assert reveal.verdict == "wrong", where
                assert f"you said {reveal.answer}, the answer was" in shown, where
            assert " ".join(reveal.summary.split()) in shown, where
            if "answer" in page.expect:
                assert page.expect["answer"] in reveal.correct, (where, reveal.correct)
            assert quiz.answered == score_before + 1, where
            score_before = quiz.answered
            assert quiz.score_text in shown, where
        if number < len(lesson.pages):
            assert not at.button(key="lesson_next").disabled
            at.button(key="lesson_next").click().run()
            assert not at.exception, (where, at.exception)
    assert at.button(key="lesson_next").disabled  # the last page


def test_the_lessons_that_come_with_the_app_load() -> None:
    assert not LESSON_ERRORS
    assert len(LESSONS) >= 5
    assert list(LESSONS)[:6] == [
        "phases",
        "exploration",
        "whose_view",
        "chance",
        "traps",
        "expansion_order",
    ]


@pytest.mark.parametrize("name", list(LESSONS))
@pytest.mark.slow
def test_every_lesson_end_to_end(name: str) -> None:
    follow(name)


# ----------------------------------------------------------------------- the format


GOOD = """
title = "A test lesson"

[[page]]
title = "First"
text = "Read this."
press = ["Step"]
questions = ["select"]

[page.setup]
game = "tic_tac_toe"
steps = 9
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_file_loads(tmp_path: Path) -> None:
    lesson = load_lesson(write(tmp_path, "mine", GOOD))
    assert lesson.name == "mine" and lesson.title == "A test lesson"
    page = lesson.pages[0]
    assert page.setup is not None and page.setup.steps == 9 and page.press == ("Step",)


@pytest.mark.parametrize(
    ("text", "line", "says"),
    [
        (GOOD.replace('title = "First"', 'title = "First'), 5, "line 5"),  # TOML syntax
        (GOOD.replace("steps = 9", "steps = 9\nc = 7"), 13, "c = 7: use a number 0..5"),
        (GOOD.replace('press = ["Step"]', 'press = ["Jump"]'), 7, "'Jump' is not one of"),
        (GOOD.replace('["select"]', '["guess"]'), 8, "'guess' is not one of"),
        (GOOD.replace('game = "tic_tac_toe"', 'game = "chess"'), 11, "game must be one of"),
        (GOOD.replace("steps = 9", 'position = "XXXX"'), 12, "not a tic_tac_toe position"),
        (GOOD.replace('text = "Read this."', 'txt = "Read this."'), 6, "unknown key 'txt'"),
        (GOOD.replace("steps = 9", "steps = -1"), 12, "steps: use a whole number"),
        (GOOD + '\n[page.expect]\nfavourit = "a1"\n', 15, "unknown expect key"),
    ],
)
def test_a_malformed_file_names_the_line(tmp_path: Path, text: str, line: int, says: str) -> None:
    with pytest.raises(LessonError) as caught:
        load_lesson(write(tmp_path, "broken", text))
    message = str(caught.value)
    assert message.startswith(f"{tmp_path / 'broken.toml'}, line {line}: "), message
    assert says in message, message


def test_a_file_name_that_is_no_link_name_is_refused(tmp_path: Path) -> None:
    with pytest.raises(LessonError, match="file name"):
        load_lesson(write(tmp_path, "My Lesson", GOOD))


@pytest.mark.slow
def test_a_malformed_lesson_file_is_named_on_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, "mine", GOOD)
    write(tmp_path, "broken", GOOD.replace("steps = 9", "steps = 9\nc = 7"))
    write(tmp_path, "markup", GOOD.replace('"Read this."', '"<b>bold</b> **strong** [x](y)"'))
    monkeypatch.setenv(LESSONS_ENV, str(tmp_path))
    at = fresh()
    warnings = [plain(b) for b in blocks(at) if "lab-warning" in b]
    assert any("broken.toml, line 13: page 1: setup: c = 7" in w for w in warnings), warnings
    titles = at.selectbox(key="lesson").options  # mine and markup; broken is left out
    assert titles.count("A test lesson") == 2 and len(titles) == 1 + len(LESSONS) + 2
    at = fresh(lesson="markup")
    page = next(b for b in blocks(at) if 'class="lab-lesson"' in b)
    assert "&lt;b&gt;bold&lt;/b&gt; **strong** [x](y)" in page  # plain text, escaped
    assert not any("<b>bold</b>" in m.value for m in at.markdown)


# ------------------------------------------------------------------------- links


@pytest.mark.slow
def test_a_link_opens_a_lesson_at_a_page() -> None:
    at = fresh(lesson="traps", page="2")
    assert at.session_state["lesson"] == "traps" and at.session_state["lesson_page"] == 2
    assert "page 2 of 3" in lesson_text(at)
    assert at.session_state["iterations_per_click"] == 700
    assert at.query_params["lesson"] == "traps" and at.query_params["page"] == "2"


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ({"lesson": "nonsense", "page": "999"}, "ignored lesson='nonsense' from the link"),
        ({"lesson": "traps", "page": "999"}, "ignored page='999' from the link: use a whole"),
        ({"lesson": "**bold**" * 50}, "ignored lesson="),
        ({"lesson": "traps", "page": "²"}, "ignored page='²'"),
    ],
)
@pytest.mark.slow
def test_bad_lesson_links_warn_and_the_screen_works(query: dict[str, str], says: str) -> None:
    at = fresh(**query)
    warnings = [plain(b) for b in blocks(at) if "lab-warning" in b]
    assert any(says in w for w in warnings), warnings
    at.button(key="step").click().run()
    assert not at.exception and metric(at, "Iteration") != "0"
    if query["lesson"] == "traps":
        assert at.session_state["lesson_page"] == 1  # a bad page opens the first


def test_what_a_student_reads_speaks_to_a_student() -> None:
    """A lesson page on a student's phone says what the teacher presses, never "press Step"
    or "open the Board tab" (a student's page has no buttons or tabs), and no page sends
    anyone to the sidebar (Present mode hides it)."""
    import re

    from app.lessons.reading import load_lessons, student_text

    found, _ = load_lessons()
    pages = [p for lesson in found.values() for p in lesson.pages]
    assert len(pages) >= 19
    for page in pages:
        assert "sidebar" not in page.text.lower(), page.title
        said = student_text(" ".join(page.text.split()))
        assert not re.search(r"(?<!teacher )\b[Pp]ress (Step|Phase|Run)", said), said
        assert not re.search(r"\bOpen the \w+ tab", said), said
        for tab in re.finditer(r"\btab\b[^.:]*", said):  # a tab is the projector's
            assert "on the projector" in said[max(0, tab.start() - 40) : tab.end() + 20], said
