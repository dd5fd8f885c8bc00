"""A mixed class in headless Chromium (issue 34's done-when for a class): the teacher's page in
English at 1280x720 and two phones at 390x844, each its own browser context, one in Spanish
chosen by ``?lang=es`` in its join link, one in Simplified Chinese chosen by the browser's
``Accept-Language`` (a context with locale ``zh-CN``). The teacher opens lesson 1's page 2
(tic-tac-toe seed 0 after 9 iterations; the class's question: which move selection takes), the
phones answer, the teacher reveals (the reveal runs the iteration the question is about).

Each phone then shows the teacher's narration and statistics made from the published frame's
facts in its own language (the expected text is computed here from the frame the class store
keeps, with ``i18n.language(tag)`` and the narration's own functions), the same iteration as
the projector, the question and verdict in its language, the lesson page from the lesson's own
translation with the translated "Next on the projector" line; and no English sentence of the
catalogue anywhere on it; the reveal's table of deciding numbers (folded under the class's
bars, opened) cell for cell and its why in the phone's language, and the tree's box labels and
the top box's tooltip from the frame's ``tree_words`` in the phone's language on the teacher's
geometry. Screenshots go to out/class_lang_*.png.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from app.classroom.core import said
from app.classroom.core.frame import Frame
from app.classroom.core.records import Poll
from app.classroom.core.room import Room
from app.classroom.core.store import SQLiteStore
from app.words import i18n
from tests.browser_helpers import BROWSER_TEST, OUT, click, open_page, stat, wait_idle
from tests.class_pages import wait_text

pytestmark = BROWSER_TEST

PHONE = {"width": 390, "height": 844}
POT = i18n.LOCALE_DIR / "mcts_lab.pot"


@pytest.fixture(scope="module")
def class_store(class_server: tuple[str, str]) -> Path:
    return Path(class_server[1].removeprefix("sqlite:///"))  # (tests/conftest.py's class server)


@pytest.fixture(scope="module")
def class_url(class_server: tuple[str, str]) -> str:
    return class_server[0]


def _phone(browser: Any, url: str, code: str, name: str, **context: Any) -> Any:
    """A phone of its own (a new browser context) that joined class ``code`` at ``url``."""
    page = browser.new_context(viewport=PHONE, **context).new_page()
    page.goto(url)
    page.wait_for_selector(".st-key-class_code input", timeout=60_000)
    wait_idle(page)
    page.locator(".st-key-class_name input").fill(name)
    # the Join button's text is in the phone's language: found by its place, not its words
    page.locator("[data-testid='stFormSubmitButton'] button").first.click()
    wait_idle(page)
    page.locator(".st-key-class_follow").first.wait_for(timeout=15_000)
    return page


def _text(page: Any, selector: str) -> str:
    return " ".join(
        " ".join(str(e.inner_text()).split()) for e in page.locator(selector).all()
    ).strip()


def _shot(page: Any, name: str) -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / name), full_page=True)


def _frame(store: Path, code: str) -> tuple[int, Frame]:
    room = Room(SQLiteStore(str(store)))
    try:
        version, data = room.follow(code, 0)
    finally:
        room.store.close()
    return version, Frame.from_dict(data)


def _english_sentences() -> list[str]:
    """The catalogue's English words a screen would show: the fixed text of each message
    between its placeholders and punctuation, where it holds at least three words (shorter
    pieces, "Q", "N", "UCT", a move label, may stand in any language)."""
    text = POT.read_text(encoding="utf-8")
    ids = []
    for block in re.findall(r'^msgid ((?:".*"\n)+)', text, flags=re.M):
        message = "".join(re.findall(r'"(.*)"', block)).replace('\\"', '"').replace("\\n", " ")
        ids.append(message)
    pieces = set()
    for message in ids:
        for piece in re.split(r"\{[^{}]*\}|[<>.:;!?·()\"]", message):
            words = re.findall(r"[A-Za-z]{2,}", piece)
            if len(words) >= 3:
                pieces.add(" ".join(piece.split()).strip(" ,'"))
    return sorted(pieces)


def _all_text(page: Any) -> str:
    """The page's text and its components' (the board and the tree are iframes)."""
    texts = [_text(page, "body")]
    for frame in page.frames[1:]:
        try:
            texts.append(str(frame.locator("body").inner_text(timeout=2_000)))
        except Exception:  # (a component frame gone or not loaded: nothing to read)
            continue
    return " ".join(texts)


def _english_left(page_text: str, sentences: list[str]) -> list[str]:
    flat = " ".join(page_text.split())
    return [s for s in sentences if s and s in flat]


def test_phones_in_spanish_and_chinese_follow_an_english_teacher(
    class_url: str, class_store: Path, browser: Any
) -> None:
    teacher = open_page(browser, f"{class_url}/?lesson=phases&page=2&lang=en")
    teacher.locator(".st-key-class_start button").first.click()
    wait_idle(teacher)
    code = teacher.locator(".lab-class-code").first.inner_text().strip()
    phones = {
        "es": _phone(browser, f"{class_url}/?class={code}&lang=es", code, "Ana"),
        "zh-Hans": _phone(browser, f"{class_url}/?class={code}", code, "Li", locale="zh-CN"),
    }
    # the question, in each phone's language (its facts from the frame)
    _version, frame = _frame(class_store, code)
    assert frame.poll is not None and frame.question is not None, frame
    room = Room(SQLiteStore(str(class_store)))
    poll = room.store.current_poll(code)
    room.store.close()
    assert poll is not None and poll.id == frame.poll
    for tag, phone in phones.items():
        with i18n.language(tag):
            asked = said.question_text(frame.question, poll)
        assert asked != poll.text, (tag, asked)  # made from the facts, not the English text
        wait_text(phone, ".st-key-class_question", re.escape(asked[:40]))
    for phone in phones.values():  # each answers the first choice
        phone.locator(".st-key-class_answer [role='radiogroup'] label").first.click()
        wait_idle(phone)
    wait_text(teacher, ".lab-class-count", r"round 1: 2 of 2 answered")
    wait_idle(teacher, 600)  # (the count line's own rerun ends before the Reveal)
    _shot(phones["es"], "class_lang_es_question_390x844.png")
    _shot(phones["zh-Hans"], "class_lang_zh_question_390x844.png")
    sentences = _english_sentences()
    for tag, phone in phones.items():  # the question, its answers and the board: no English
        left = _english_left(_all_text(phone), sentences)
        assert not left, (tag, left)

    click(teacher, "class_reveal")  # the iteration the question is about runs, then the reveal
    wait_text(teacher, ".lab-quiz", r"Class: \d of 2 right")
    iteration = stat(teacher, "Iteration")
    version, frame = _frame(class_store, code)
    assert frame.numbers is not None and frame.numbers["iteration"] == iteration, frame.numbers
    teacher_lines = [line for line in frame.narration if line]
    shown_teacher = _text(teacher, ".st-key-narration")
    assert teacher_lines and teacher_lines[0][:60] in shown_teacher
    _shot(teacher, "class_lang_teacher_1280x720.png")

    room = Room(SQLiteStore(str(class_store)))
    try:
        revealed = [p for p in room.rounds(code, str(frame.last_reveal)) if p.revealed][-1]
    finally:
        room.store.close()
    for tag, phone in phones.items():
        with i18n.language(tag):
            expected_stats = said.render_numbers(frame.numbers)
            expected_lines = [
                said.render_line(facts, frame.said) if facts is not None else None
                for facts in frame.said
            ]
        assert expected_stats is not None and all(expected_lines), (tag, frame.said)
        with i18n.language(tag):  # the history entry's label too ("step"), in the language
            label = i18n._("step")
        assert frame.numbers.get("what_in", {}).get(tag) == label, frame.numbers
        assert expected_stats.endswith(label), expected_stats
        # in step: the statistics of the teacher's iteration, in the phone's words
        wait_text(phone, ".lab-stats", re.escape(expected_stats), timeout=20_000)
        assert str(iteration) in expected_stats
        narration = [
            " ".join(p.inner_text().split()) for p in phone.locator(".lab-narration").all()
        ]
        wanted = [" ".join(str(line).split()) for line in expected_lines]
        assert narration == wanted, (tag, narration, wanted)
        assert narration != [" ".join(line.split()) for line in teacher_lines]
        lesson = _text(phone, ".lab-lesson")
        with i18n.language(tag):
            next_line = i18n._("Next on the projector: {presses}.", presses="")[:8]
        assert next_line in lesson, (tag, lesson)
        assert "The teacher presses" not in lesson and "Press Phase" not in lesson, lesson
        _reveal_table(phone, tag, frame, revealed)
        _tree_words(phone, tag, frame)
        phone.locator(".lab-narration").first.scroll_into_view_if_needed()
        _shot(phone, f"class_lang_{tag}_reveal_390x844.png")
        left = _english_left(_all_text(phone), sentences)
        assert not left, (tag, left)
    assert version >= 1


def _reveal_table(phone: Any, tag: str, frame: Frame, revealed: Poll) -> None:
    """The reveal's table of deciding numbers and its why, folded under the class's bars:
    opened, each cell is the frame's facts rendered in the phone's language."""
    with i18n.language(tag):
        rows = said.reveal_rows(frame.reveal, revealed)
        why = said.why_text(frame.reveal, revealed)
    assert len(rows) >= 2 and why, (tag, frame.reveal)
    phone.locator(".lab-reveal-more summary").first.click()
    cells = phone.locator(".lab-reveal-rows tr").evaluate_all(
        "rs => rs.map(r => [...r.children].map(c => c.textContent.trim()))"
    )
    assert [tuple(row) for row in cells] == [tuple(r) for r in rows], (tag, cells, rows)
    assert any(rows[0][n] != english for n, english in enumerate(_english_rows(frame)[0]))
    assert " ".join(why.split())[:40] in _text(phone, ".lab-reveal-more"), (tag, why)
    phone.locator(".lab-reveal-more").first.scroll_into_view_if_needed()
    _shot(phone, f"class_lang_{tag}_reveal_table_390x844.png")


def _english_rows(frame: Frame) -> tuple[tuple[str, ...], ...]:
    from app.quiz.records import rows_words

    with i18n.language("en"):
        return rows_words(frame.reveal, ())


def _tree_words(phone: Any, tag: str, frame: Frame) -> None:
    """The phone's tree: the teacher's boxes with their labels and tooltips in the phone's
    language (the frame's ``tree_words``), never the teacher's English."""
    assert frame.tree is not None and frame.tree_words is not None, frame.tree_words
    with i18n.language(tag):
        tree = said.tree_in_language(frame.tree, frame.tree_words)
    labels = {n["key"]: n["label"] for n in tree["nodes"]}
    english = {n["key"]: n["label"] for n in frame.tree["nodes"]}
    top = str(frame.tree["top"])
    assert labels[top] != english[top] == "root", (tag, labels[top])
    box = phone.locator(f".st-key-class_follow g.tv-node[data-key='{top}']").first
    box.wait_for(timeout=15_000)
    shown = phone.locator(".st-key-class_follow g.tv-node").evaluate_all(
        "gs => gs.map(g => [g.dataset.key, (g.querySelector('.tv-label') || {}).textContent])"
    )
    drawn = {str(k): str(v) for k, v in shown if v is not None}
    assert top in drawn and len(drawn) == len(labels), (tag, drawn)
    for key, label in drawn.items():  # each label the phone's, cut (…) where the teacher's
        wanted = labels[key]  # box is narrower than it: the geometry stays the teacher's
        assert label == wanted or (label.endswith("…") and wanted.startswith(label[:-1])), (
            tag,
            key,
            label,
            wanted,
        )
    assert drawn[top] != "root", tag
    box.hover()
    tip = phone.locator(".st-key-class_follow .tv-tip").first
    tip.wait_for(timeout=5_000)
    wanted = next(n["tooltip"] for n in tree["nodes"] if n["key"] == top)
    teachers = next(n["tooltip"] for n in frame.tree["nodes"] if n["key"] == top)
    assert " ".join(tip.inner_text().split()) == " ".join(" ".join(wanted).split()), tag
    assert wanted != teachers
    phone.mouse.move(1, 1)  # (the tooltip goes: the screenshot shows the page)
