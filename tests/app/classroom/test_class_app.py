"""A class's pages through AppTest: the teacher's (start, join box, room box, publishing, end)
and a student's (join by code, follow, answer, explore on their own and come back), over a
real SQLite class store. AppTest has no fragments' timers and no runtime, so no watcher: what
crosses pages in time is tested in Chromium (tests/browser/test_class_browser.py)."""

from __future__ import annotations

import html
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

import app.classroom.shared as class_view
import app.classroom.student.me as student_me
from app.classroom import ClassError
from app.classroom.core import codes
from tests.app_helpers import MAIN, blocks, fresh, metric, notes
from tests.class_fixtures import own_class_store


@pytest.fixture(autouse=True)
def class_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every test its own store file."""
    yield from own_class_store(tmp_path, monkeypatch)


def _text(at: AppTest) -> str:
    return "\n".join(blocks(at))


def _image_captions(at: AppTest) -> list[str]:
    found: list[str] = []

    def walk(node: object) -> None:
        if getattr(node, "type", None) == "image":
            found.extend(img.caption for img in node.proto.imgs)  # type: ignore[attr-defined]
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return found


def _labels(radio: object) -> list[str]:
    """The answer radio's choices as shown, without each round's invisible tag
    (``app.classroom.student.answer.round_tag``)."""
    return [str(o).rstrip("\u200b\u200c") for o in radio.options]  # type: ignore[attr-defined]


def _teacher() -> tuple[AppTest, str]:
    at = fresh(game="tic_tac_toe", seed="1")
    at.button(key="class_start").click().run()
    assert not at.exception
    found = re.search(r'class="lab-class-code"[^>]*>([A-Z2-9]{6})<', _text(at))
    assert found is not None
    return at, found.group(1)


def _student(code: str, name: str = "") -> AppTest:
    at = AppTest.from_file(MAIN, default_timeout=60)
    at.query_params["class"] = code
    at.run()
    assert not at.exception
    assert at.text_input(key="class_code").value == code  # the code from the QR's address
    if name:
        at.text_input(key="class_name").input(name)
    next(b for b in at.button if b.label == "Join").click().run()
    assert not at.exception
    return at


def test_the_teacher_starts_a_class_publishes_and_ends_it() -> None:
    at, code = _teacher()
    text = _text(at)
    assert f"?class={code}" in text and "localhost" not in text
    assert "Scan to join" in _image_captions(at)  # the QR code
    assert "0 connected" in text
    secret = at.session_state["class_teacher"].secret
    assert all(secret not in str(v) for v in at.query_params.values())  # never in the address
    assert at.session_state["quiz"] is True  # the class answers the quiz

    at.button(key="class_join_toggle").click().run()  # hide the join box, then show it again
    assert "Scan to join" not in _image_captions(at)
    at.button(key="class_join_toggle").click().run()
    assert "Scan to join" in _image_captions(at)

    at.button(key="step").click().run()
    version, frame = class_view.room().follow(code, -1)
    assert frame is not None and "Iteration 1" in " ".join(frame["stats"].split())
    assert frame["tree"]["nodes"] and frame["link"]["steps"] == "1"
    assert class_view.room().store.current_poll(code) is not None  # the quiz's question

    at.button(key="class_end").click().run()  # End asks first; Keep going keeps the class
    assert class_view.room().info(code) and at.button(key="class_end_confirm")
    at.button(key="class_end_cancel").click().run()
    assert not [b for b in at.button if b.key == "class_end_confirm"]
    assert class_view.room().info(code).code == code
    at.button(key="class_end").click().run()
    at.button(key="class_end_confirm").click().run()
    assert not at.exception and at.button(key="class_start")  # a new class may start
    assert class_view.room().version(code) == version + 1  # the students' pages are told
    with pytest.raises(ClassError, match="No class with that code"):
        class_view.room().info(code)


def test_a_student_joins_follows_and_answers() -> None:
    teacher, code = _teacher()
    teacher.button(key="step").click().run()
    hostile = "<b>Bo</b>"
    student = _student(code, hostile)
    text = _text(student)
    you = f"You are <b><bdi>{html.escape(hostile)}</bdi></b> in class <bdi>{code}</bdi>"
    assert you in text  # escaped; the name and the code isolated from the text's direction
    assert "Iteration 1" in " ".join(text.split())  # the teacher's screen, as published
    answer = student.radio(key="class_answer")
    answer.set_value(_labels(answer)[0]).run()
    assert not student.exception
    me = student.session_state["class_me"]
    poll = class_view.room().store.current_poll(code)
    assert poll is not None
    assert class_view.room().my_answer(code, me.id, poll) == _labels(answer)[0]
    teacher.run()
    assert "round 1: 1 of 1 answered" in _text(teacher)
    # no distribution of the open question before the reveal (the last question's is shown)
    assert teacher.session_state["class_last_reveal"] != poll.id


def test_a_wrong_code_and_a_forged_link_only_reach_the_join_form() -> None:
    _teacher()
    wrong = _student("ZZZZZZ")
    assert any("No class with that code" in e.value for e in wrong.error)
    assert wrong.text_input(key="class_code") is not None
    forged = AppTest.from_file(MAIN, default_timeout=60)
    forged.query_params.update({"class": "ZZZZZZ", "me": "forged", "step": "1"})
    forged.run()
    assert not forged.exception
    assert forged.text_input(key="class_code") is not None
    assert not [b for b in forged.button if b.key == "step"]


def test_a_student_explores_on_their_own_and_comes_back() -> None:
    teacher, code = _teacher()
    for _ in range(3):
        teacher.button(key="step").click().run()
    student = _student(code, "Explorer")
    student.button(key="class_explore").click().run()
    assert not student.exception
    assert metric(student, "Iteration") == "3"  # the teacher's tree, replayed from its seed
    assert "exploring on your own" in _text(student)
    assert code in str(student.query_params["class"])  # a reload finds the class again
    assert not [b for b in student.button if b.key == "class_start"]
    student.button(key="step").click().run()
    assert metric(student, "Iteration") == "4"
    _, frame = class_view.room().follow(code, -1)
    assert frame is not None and "Iteration 3" in " ".join(frame["stats"].split())  # untouched

    student.button(key="class_back").click().run()
    assert not student.exception
    assert "You are <b><bdi>Explorer</bdi></b> in class" in _text(student)
    assert not [b for b in student.button if b.key == "step"]


def test_a_store_that_does_not_answer_gets_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Redis server that is not there: the teacher's Start and a student's page each say
    so in a line, and nothing raises."""
    with socket.socket() as free:  # a port nobody listens on
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    monkeypatch.setenv("MCTS_LAB_STORE", f"redis://127.0.0.1:{port}/0")
    class_view.room.clear()
    teacher = fresh(game="tic_tac_toe", seed="1")
    teacher.button(key="class_start").click().run()
    assert not teacher.exception
    said = notes(teacher, "error")
    assert any("No class started: the class store did not answer" in w for w in said), said
    student = AppTest.from_file(MAIN, default_timeout=60)
    student.query_params["class"] = "ABCDEF"
    student.run()
    assert not student.exception
    assert any("the class store did not answer" in w.value for w in student.warning)
    spanish = AppTest.from_file(MAIN, default_timeout=60)  # a Spanish phone: its words, one line
    spanish.query_params.update({"class": "ABCDEF", "lang": "es"})
    spanish.run()
    assert not spanish.exception
    [line] = [w.value for w in spanish.warning]
    assert "el almacén de la clase no respondió" in line and "\n" not in line, line
    assert not re.search(r"[A-Z][a-z]+Error|Exception|127\.0\.0\.1", line), line


def test_a_failing_class_callback_is_a_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The class's callbacks are guarded like the app's: a bug in one (here the room raising
    what no one expects) is a short line on the page that clicked, and the page goes on."""
    from app.classroom.core.room import Room

    _, code = _teacher()

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Room, "join", broken)
    student = _student(code)  # the Join click reaches the broken room
    assert not student.exception
    assert any(e.value == "That did not work. Try again." for e in student.error)
    teacher, _ = _teacher()
    monkeypatch.setattr(Room, "end", broken)
    teacher.button(key="class_end").click().run()
    teacher.button(key="class_end_confirm").click().run()
    assert not teacher.exception
    assert any("That did not work (RuntimeError: a bug)" in e for e in notes(teacher, "error"))


def test_a_long_pasted_name_is_refused_with_its_length_and_names_are_isolated() -> None:
    """A 28-character name pasted into the join form reaches the room, which says how long it
    is (the box used to drop the paste: a generated name instead, silently); the teacher's list
    isolates each name for the bidi algorithm, so a right-to-left name keeps the list's order."""
    teacher, code = _teacher()
    student = AppTest.from_file(MAIN, default_timeout=60)
    student.query_params["class"] = code
    student.run()
    student.text_input(key="class_name").input("x" * 28)
    next(b for b in student.button if b.label == "Join").click().run()
    assert not student.exception
    assert any("this one has 28" in e.value for e in student.error)
    assert student.text_input(key="class_code").value == code  # still at the join form
    _student(code, name="שרה")  # Sarah, right to left
    _student(code, name="Ada")
    teacher.button(key="step").click().run()  # the names box is drawn by the screen's run
    assert "<bdi>שרה</bdi>, <bdi>Ada</bdi>" in _text(teacher)


def test_a_student_is_told_the_class_ended_and_keeps_the_last_reveal() -> None:
    """End reaches a student's page as "The class has ended", with the last question they
    answered and the class's bars still there (it used to say they typed a wrong code, and the
    reveal vanished); a code typed by anyone else still gets the one message."""
    teacher, code = _teacher()
    teacher.button(key="step").click().run()  # the quiz asks: the class's first question
    student = _student(code, "Ada")
    answer = student.radio(key="class_answer")
    answer.set_value(_labels(answer)[0]).run()
    teacher.button(key="step").click().run()  # the click the question was about: revealed
    student.run()
    assert "Last question:" in _text(student)
    teacher.button(key="class_end").click().run()
    teacher.button(key="class_end_confirm").click().run()
    student.run()
    assert not student.exception
    text = _text(student)
    assert "The class has ended. Thank you!" in text and "No class with that code" not in text
    assert "Last question:" in text and "lab-bars" in text  # the verdict and the bars
    assert student.text_input(key="class_code")  # the join form, for another class
    stranger = _student_form(code)
    assert any("No class with that code" in e.value for e in stranger.error)


def _student_form(code: str) -> AppTest:
    """A page that types ``code`` into the join form and presses Join."""
    at = AppTest.from_file(MAIN, default_timeout=60)
    at.query_params["class"] = code
    at.run()
    next(b for b in at.button if b.label == "Join").click().run()
    assert not at.exception
    return at


def test_a_refused_answer_is_said_and_the_radio_shows_what_was_kept(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The radio never shows a choice the room refused: past the answer limit it goes back to
    the kept answer and says why; an answer to a question that closed while the page was away
    is not stored as the new question's (it used to be: same choices), and the page says so."""
    import app.classroom.core.room as room_rules

    teacher, code = _teacher()
    teacher.button(key="step").click().run()
    student = _student(code, "Ada")
    me = student.session_state["class_me"]
    first = class_view.room().store.current_poll(code)
    assert first is not None
    options = first.choices  # (the radio's options are its labels, escaped for Markdown)
    student.radio(key="class_answer").set_value(options[0]).run()
    monkeypatch.setattr(room_rules, "ANSWER_LIMIT", (1, 10.0))  # the next is one too many
    student.radio(key="class_answer").set_value(options[1]).run()
    assert not student.exception
    assert any("Not sent: Too many answers" in w.value for w in student.warning)
    assert student.radio(key="class_answer").value == options[0]  # what the store kept
    assert class_view.room().my_answer(code, me.id, first) == options[0]
    monkeypatch.setattr(room_rules, "ANSWER_LIMIT", (12, 10.0))

    teacher.button(key="step").click().run()  # reveals; the quiz asks the next question
    second = class_view.room().store.current_poll(code)
    assert second is not None and second.id != first.id and not second.revealed
    # the student's page did not hear of it (offline): its radio is the first question's
    student.radio(key="class_answer").set_value(first.choices[-1]).run()
    assert not student.exception
    assert any("That question has closed" in w.value for w in student.warning)
    assert class_view.room().my_answer(code, me.id, second) is None  # not stored as the new one
    assert student.radio(key="class_answer").value is None  # the open question, unanswered


def test_a_store_outage_at_a_reveal_is_one_line_and_the_reveal_comes_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The store away when the teacher's Step reveals: one line on the projector (no
    traceback, no server address), and the reveal is made at the next click once the store
    answers (the question used to stay open for ever)."""
    from app.classroom.core.room import Room
    from app.classroom.core.store import StoreError

    teacher, code = _teacher()
    teacher.button(key="step").click().run()  # the quiz asks
    asked = class_view.room().store.current_poll(code)
    assert asked is not None and not asked.revealed
    real = Room.reveal

    def away(*args: object, **kwargs: object) -> None:
        raise StoreError("the class store did not answer (ConnectionError)")

    monkeypatch.setattr(Room, "reveal", away)
    teacher.button(key="step").click().run()  # the click the question was about
    assert not teacher.exception
    said = [c.value for c in teacher.caption]
    line = "Not sent to the class: the class store did not answer. It is sent again when the"
    assert said.count(f"{line} store answers.") == 1, said  # one line, no exception's name
    assert "ConnectionError" not in _text(teacher) + " ".join(said)
    assert "127.0.0.1" not in _text(teacher) + " ".join(said)
    assert not class_view.room().rounds(code, asked.id)[-1].revealed
    monkeypatch.setattr(Room, "reveal", real)
    teacher.run()  # the next run: the store answers again
    assert class_view.room().rounds(code, asked.id)[-1].revealed


def test_the_verdict_counts_any_round_and_a_late_joiner_is_not_blamed() -> None:
    """A student who answered round 1 and not round 2 answered; one who joined after the
    question was asked is told so (both used to read "you did not answer")."""
    teacher, code = _teacher()
    teacher.button(key="step").click().run()  # the quiz asks
    asked = class_view.room().store.current_poll(code)
    assert asked is not None
    early = _student(code, "Early")
    early.radio(key="class_answer").set_value(asked.choices[0]).run()
    teacher.button(key="class_again").click().run()  # round 2: Early does not vote again
    late = _student(code, "Late")  # joins during round 2, does not answer
    teacher.button(key="step").click().run()  # revealed
    early.run()
    late.run()
    early_text = _text(early)
    assert "you did not answer" not in early_text
    assert f"you said {asked.choices[0]} in round 1" in early_text or (
        f"right in round 1, {asked.choices[0]}" in early_text
    )
    assert "Last question: asked before you joined." in _text(late)


def test_a_removed_student_cannot_join_again_from_the_same_page() -> None:
    teacher, code = _teacher()
    student = _student(code, "Bob")
    me = student.session_state["class_me"]
    class_view.room().remove_student(code, teacher.session_state["class_teacher"].secret, me.id)
    student.run()
    assert any("The teacher removed your name" in e.value for e in student.error)
    student.text_input(key="class_name").input("Totally New")
    next(b for b in student.button if b.label == "Join").click().run()
    assert any("ask the teacher to join again" in e.value for e in student.error)
    assert "class_me" not in student.session_state


def test_a_garbled_or_damaged_frame_does_not_fail_a_phone() -> None:
    """A frame from a replica of another version, every key of the wrong kind, or a damaged
    record: the student's page draws what it can read (app/classroom/core/frame.py's defaults), and
    Explore on my own says there is no tree instead of failing."""
    teacher, code = _teacher()
    secret = teacher.session_state["class_teacher"].secret
    hostile = "<img src=x onerror=alert(1)>"
    garbled = {
        "stats": hostile, "tree": {"nodes": "x"}, "narration": "not a list", "lesson": ["x"],
        "link": [1], "poll": {}, "last_reveal": ["q"], "at": "now",
    }  # fmt: skip
    class_view.room().publish(code, secret, garbled)
    student = _student(code)
    assert not student.exception
    assert html.escape(hostile) in _text(student) and hostile not in _text(student)
    student.button(key="class_explore").click().run()
    assert not student.exception
    assert any("no tree yet" in w.value for w in student.warning)
    class_view.room().store.publish(code, '{"stats": "Iter', time.time())  # damaged text
    student.run()
    assert not student.exception
    assert any("Waiting for the teacher's screen" in i.value for i in student.info)


def test_another_browser_takes_the_class_back_by_pin() -> None:
    """The teacher's page is gone mid-question; a new browser types the code and the PIN the
    sidebar showed: the room box comes back with the same question open (the student's answer
    still counted), the quiz asks it again and the Step grades it for the class."""
    teacher, code = _teacher()
    pin = teacher.session_state["class_teacher"].pin
    assert "Teacher PIN (not for the projector)" in [e.label for e in teacher.sidebar.expander]
    student = _student(code, "Ada")
    answer = student.radio(key="class_answer")
    answer.set_value(_labels(answer)[0]).run()
    poll = class_view.room().store.current_poll(code)
    assert poll is not None and not poll.revealed

    other = fresh(game="tic_tac_toe", seed="1")  # the same screen (the address keeps it)
    other.text_input(key="class_resume_code").input(code.lower())
    other.text_input(key="class_resume_pin").input("AAAAA-AAAAA")
    other.button(key="class_resume").click().run()
    assert not other.exception
    assert (
        other.session_state["class_teacher"] is None
        if "class_teacher" in other.session_state
        else True
    )
    assert any("not the PIN of a class" in w for w in notes(other, "warning"))
    other.text_input(key="class_resume_code").input(code)
    other.text_input(key="class_resume_pin").input(codes.format_pin(pin))
    other.button(key="class_resume").click().run()
    assert not other.exception
    assert other.session_state["class_teacher"].code == code
    assert other.session_state["class_resume_pin"] == ""  # never kept
    assert "round 1: 1 of 1 answered" in _text(other)  # the same round, its answer kept
    assert other.session_state["class_poll"][1] == poll.id  # matched with the quiz's question
    assert other.session_state["class_poll"][0] != 0
    other.button(key="step").click().run()
    [shown] = class_view.room().rounds(code, poll.id)
    assert shown.revealed and shown.right  # graded, as the first page would have
    assert class_view.room().tally(code, shown)[_labels(answer)[0]] == 1
    assert other.session_state["class_last_reveal"] == poll.id
    assert not other.exception and other.button(key="class_end")


def test_a_question_the_page_does_not_ask_again_is_revealed_ungraded() -> None:
    """Taken back with a screen that asks another question: the class keeps its open one
    (no new question replaces it), and Reveal shows its answers, ungraded."""
    teacher, code = _teacher()
    pin = teacher.session_state["class_teacher"].pin
    poll = class_view.room().store.current_poll(code)
    assert poll is not None
    other = fresh(game="nim", seed="3")  # another game: another question
    other.text_input(key="class_resume_code").input(code)
    other.text_input(key="class_resume_pin").input(pin)
    other.button(key="class_resume").click().run()
    assert not other.exception and other.session_state["class_poll"] == (0, poll.id)
    other.run()
    assert class_view.room().store.current_poll(code) == poll  # not replaced
    other.button(key="class_reveal").click().run()
    [shown] = class_view.room().rounds(code, poll.id)
    assert shown.revealed and not shown.right and "Not graded" in shown.summary
    # then the page's own question goes to the class
    following = class_view.room().store.current_poll(code)
    assert following is not None and following.id != poll.id and not following.revealed


def test_each_round_s_answer_labels_are_its_own() -> None:
    """Two rounds with the same choices show them alike but label them apart (an invisible
    tag), so a tap made on the old round's radio matches no label of the new one."""
    from app.classroom.core.records import Poll
    from app.classroom.student.answer import round_tag

    rounds = [Poll(id=f"q{n}-1-ab", round=r, text="?", choices=("Yes", "No"), opened=0.0)
              for n in range(40) for r in (1, 2)]  # fmt: skip
    tags = [round_tag(p) for p in rounds]
    assert all(len(t) == 16 and not t.strip("\u200b\u200c") for t in tags)
    assert len(set(tags)) == len(tags)  # 80 rounds, 80 tags
    assert round_tag(rounds[0]) == round_tag(rounds[0])  # the same round, the same labels


def _same_browser(monkeypatch: pytest.MonkeyPatch, me: object) -> None:
    """The pages opened from now on carry the student cookie ``me``'s browser was given."""
    value = f"{me.code}:{me.id}:{me.key}"  # type: ignore[attr-defined]
    monkeypatch.setattr(student_me, "read_cookie", lambda name: value)


def test_two_tabs_of_one_student_show_what_the_store_holds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A student's second tab (the same page address in the same browser, so the same
    student) shows the answer the first tab gave at its next run, and a change in it shows in
    the first."""
    teacher, code = _teacher()
    first = _student(code, "Tab")
    me = first.session_state["class_me"]
    _same_browser(monkeypatch, me)
    second = AppTest.from_file(MAIN, default_timeout=60)
    second.query_params.update({"class": code, "me": me.id})
    second.run()
    assert not second.exception and second.radio(key="class_answer").value is None
    asked = class_view.room().store.current_poll(code)
    assert asked is not None
    labels = asked.choices
    first.radio(key="class_answer").set_value(labels[0]).run()
    second.run()
    assert second.radio(key="class_answer").value == labels[0]
    second.radio(key="class_answer").set_value(labels[1]).run()
    first.run()
    assert first.radio(key="class_answer").value == labels[1]
    poll = class_view.room().store.current_poll(code)
    assert poll is not None and class_view.room().my_answer(code, me.id, poll) == labels[1]


def test_the_reveal_table_carries_the_class_s_counts_and_folds_what_nobody_chose() -> None:
    """After a reveal the teacher's quiz table has a class column (one list of the answers,
    not a table and a chart of bars below the room's buttons), whole: every answer a student
    gave and the right one are rows, the answers nobody chose are named in one line; the
    verdict is the class's share right. On the phone the open question comes before the tree
    it asks about and the last reveal after it, its bars folded the same way."""
    teacher = fresh(lesson="exploration", page="1")  # "which move will selection take?"
    teacher.button(key="class_start").click().run()
    code = teacher.session_state["class_teacher"].code
    poll = class_view.room().store.current_poll(code)
    assert poll is not None and len(poll.choices) > 5
    ada, bob = _student(code, "Ada"), _student(code, "Bob")
    picked = [_labels(ada.radio(key="class_answer"))[n] for n in (0, 1)]
    for page, label in zip((ada, bob), picked, strict=True):
        page.radio(key="class_answer").set_value(label).run()
    teacher.button(key="step").click().run()
    assert not teacher.exception
    text = _text(teacher)
    [revealed] = class_view.room().rounds(code, poll.id)
    right = revealed.right[0]
    n_right = sum(1 for p in picked if p == right)
    share = f"{100 * n_right / 2:.0f}%"
    assert f"Class: {n_right} of 2 right ({share}); the answer was {right}." in text
    table = re.search(r'lab-quiz-numbers">(.*?)</table>', text, re.S)
    assert table is not None
    cells = re.findall(r'<tr[^>]*><td>([^<]*)</td>.*?lab-class-cell">.*? (\d+)</td>', table[1])
    counted = {label: int(n) for label, n in cells}
    assert all(counted[p] >= 1 for p in picked) and right in counted
    assert sum(counted.values()) == 2
    folded = re.search(r"Nobody chose ([^<]*)</td>", table[1])
    assert folded is not None
    assert set(folded[1].split(", ")) == set(poll.choices) - set(counted)
    assert "lab-rows-whole" in text  # no scroll box that could hide a row
    assert "Class answers:" not in text  # the room box leaves its bars out
    # the phone: the next question, then its tree, then the last reveal (folded bars)
    ada.run()
    phone = _text(ada)
    assert phone.index("Question") < phone.index("Last question:")
    assert "Nobody chose" in phone


def test_in_present_mode_the_room_box_is_one_row_and_projects_no_names() -> None:
    """On a projector the room box is the count line and one row of buttons: the names of
    the class are not projected (the expander is left out), the CSV button is short, the
    join box has the key J; the teacher's own answer pills are left out (the class answers)."""
    teacher, code = _teacher()
    _student(code, "Ada")
    teacher.toggle(key="quiz").set_value(True).run()
    assert "Names (1)" in [e.label for e in teacher.expander]
    assert teacher.session_state["quiz_answer"] is None
    teacher.toggle(key="presentation").set_value(True).run()
    assert not teacher.exception
    assert not any(e.label.startswith("Names") for e in teacher.expander)
    assert "CSV" in [b.label for b in teacher.get("download_button")]
    assert not [p for p in teacher.get("button_group") if getattr(p, "key", "") == "quiz_answer"]


def test_a_copied_student_address_is_nobody_s_identity(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ann's address (``?class=CODE&me=ID``) opened on another device asks it to join as
    itself; it never answers as Ann, whose answer stays hers. Ann's own browser (its student
    cookie) finds her place again, even from the class's bare address; a student of a store
    written before browser keys is still found by the id alone (issue 42)."""
    teacher, code = _teacher()
    ann = _student(code, "Ann")
    me = ann.session_state["class_me"]
    assert me.key and class_view.room().store.student(code, me.id).key != me.key  # a hash
    poll = class_view.room().store.current_poll(code)
    assert poll is not None
    ann.radio(key="class_answer").set_value(poll.choices[0]).run()

    other = AppTest.from_file(MAIN, default_timeout=60)  # another device: no cookie
    other.query_params.update({"class": code, "me": me.id})
    other.run()
    assert not other.exception
    assert "class_me" not in other.session_state
    assert other.text_input(key="class_code").value == code  # the join form, code filled in
    assert any("another student's place" in e.value for e in other.error)
    assert "me" not in other.query_params
    next(b for b in other.button if b.label == "Join").click().run()
    theirs = other.session_state["class_me"]
    assert theirs.id != me.id
    other.radio(key="class_answer").set_value(poll.choices[1]).run()
    assert class_view.room().my_answer(code, me.id, poll) == poll.choices[0]  # Ann's kept

    _same_browser(monkeypatch, me)  # Ann's own browser, reloaded at the class's address
    again = AppTest.from_file(MAIN, default_timeout=60)
    again.query_params["class"] = code
    again.run()
    assert not again.exception and again.session_state["class_me"].id == me.id
    assert again.radio(key="class_answer").value == poll.choices[0]

    monkeypatch.setattr(student_me, "read_cookie", lambda name: None)
    _, legacy = class_view.room().join(code, "10.0.0.9", name="Old")  # (no browser key)
    old = AppTest.from_file(MAIN, default_timeout=60)
    old.query_params.update({"class": code, "me": legacy.id})
    old.run()
    assert not old.exception and old.session_state["class_me"].id == legacy.id


def test_the_teacher_cookie_keeps_one_class() -> None:
    """Issue 42 item 7: the teacher cookie (script-readable) holds the class taught, with the
    PIN its sidebar shows again after a reload, else the newest past class without its PIN;
    never the keys of every past class. A cookie of several entries written before is read."""
    from app.classroom import Teacher
    from app.classroom.teacher import start

    now = Teacher("ABCDEF", "s" * 32, "PIN123")
    older = [Teacher("GHJKMN", "t" * 32, "PIN456"), Teacher("NPQRST", "u" * 32, "PIN789")]
    assert start.teacher_cookie(now, older) == f"ABCDEF:{'s' * 32}:PIN123"
    assert start.teacher_cookie(None, older) == f"GHJKMN:{'t' * 32}:"
    assert start.teacher_cookie(None, []) is None
    for value in (start.teacher_cookie(now, older), start.teacher_cookie(None, older)):
        assert value is not None and "|" not in value and "PIN456" not in value
    assert [t.code for t in start._keys_of(f"ABCDEF:{'s' * 32}:PIN123|GHJKMN:{'t' * 32}:")] == [
        "ABCDEF",
        "GHJKMN",
    ]


def test_one_remove_click_takes_one_name_even_when_its_run_is_repeated() -> None:
    """Remove this name: no name chosen at first (the button disabled), the chosen one removed,
    and the select empty again with the button disabled, so a click whose run is cut short and
    run again (Streamlit keeps the trigger through an interrupted run, with the arguments the
    cut run drew: the select's value) takes no second name: it took the next one off the class
    under load."""
    teacher, code = _teacher()
    ada, _bea = _student(code, "Ada"), _student(code, "Bea")
    teacher.run()
    select = teacher.selectbox(key="class_remove_name")
    assert select.value is None and teacher.button(key="class_remove").disabled
    select.set_value(ada.session_state["class_me"].id).run()
    assert not teacher.button(key="class_remove").disabled
    teacher.button(key="class_remove").click().run()
    assert not teacher.exception
    left = [s.name for s in class_view.room().store.students(code) if not s.removed]
    assert left == ["Bea"]
    assert teacher.selectbox(key="class_remove_name").value is None  # nothing chosen again
    assert teacher.button(key="class_remove").disabled
    teacher.run()  # a run after it (the repeated one) takes no name
    left = [s.name for s in class_view.room().store.students(code) if not s.removed]
    assert left == ["Bea"]
