"""A tap lost as a replica dies (issue 42): the answer a reconnected page's browser still holds
is read from the run's widget states before the widgets are drawn, and sent, or said as not
sent; the confidence picked under it likewise. Pure and fast: the browser's states are
protobufs, the room a stand-in."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest
import streamlit as st
from streamlit.proto.WidgetStates_pb2 import WidgetState

from app.classroom.core import peer
from app.classroom.core.records import Poll
from app.classroom.core.store import StoreError
from app.classroom.student import answer, taps
from app.classroom.student.me import Me

POLL = Poll("q7", 2, "Which move?", ("a1", "b2", "c3"), 0.0)
OLD = Poll("q6", 1, "Which move?", ("a1", "b2", "c3"), 0.0)


def _label(poll: Poll, choice: str) -> str:
    """A choice as the radio draws it: with its round's tag."""
    return answer._choice_label(choice, tag=answer.round_tag(poll))


def _tap(poll: Poll, choice: int, at: float) -> str:
    return json.dumps({"answer": {"poll": poll.id, "round": poll.round, "choice": choice,
                                  "at": at}, "focus": None})  # fmt: skip


def _browser(monkeypatch: pytest.MonkeyPatch, **sent: str) -> None:
    """The widget states the browser sent with this run: ``key=value`` (a string value for
    the radio, JSON for the components), with ids as Streamlit makes them."""
    states = []
    for key, value in sent.items():
        state = WidgetState(id=f"$$ID-0123abcd-{key}")
        if key in (taps.ANSWER_KEY, taps.CONFIDENCE_KEY):  # (radios: their label)
            state.string_value = value
        else:
            state.json_value = value
        states.append(state)
    states.append(WidgetState(id="$$ID-feed-class_lost", trigger_value=True))  # (not read)

    class Session:
        def get_widget_states(self) -> list[WidgetState]:
            return states

    class Ctx:
        session_state = Session()

    monkeypatch.setattr(taps, "get_script_run_ctx", lambda: Ctx())


def test_the_held_answers_of_this_round_newest_tap_first(monkeypatch: pytest.MonkeyPatch) -> None:
    _browser(monkeypatch, class_tree=_tap(POLL, 2, 2000.0), class_board=_tap(POLL, 0, 3000.0),
             class_answer=_label(POLL, "b2"))  # fmt: skip
    label = functools.partial(_label, POLL)
    assert taps.held(POLL, label) == [
        taps.Held("a1", 3000.0),
        taps.Held("c3", 2000.0),
        taps.Held("b2"),
    ]


def test_another_round_s_tap_or_pick_and_garbage_are_not_held(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    label = functools.partial(_label, POLL)
    # the last round's (its id, its tag): a page away across a reveal holds those
    _browser(monkeypatch, class_tree=_tap(OLD, 1, 5.0), class_answer=_label(OLD, "b2"))
    assert taps.held(POLL, label) == []
    # not JSON; an index past the choices; a label without the round's tag
    _browser(monkeypatch, class_tree="{not json", class_board=_tap(POLL, 9, 5.0),
             class_answer="b2")  # fmt: skip
    assert taps.held(POLL, label) == []
    untimed = {"answer": {"poll": POLL.id, "round": 2, "choice": 1, "at": "soon"}}
    _browser(monkeypatch, class_tree=json.dumps(untimed))
    assert taps.held(POLL, label) == [taps.Held("b2", None)]  # (a tap without a good time)

    monkeypatch.setattr(taps, "get_script_run_ctx", lambda: None)  # no run: nothing held
    assert taps.held(POLL, label) == []


class _Room:
    """The room's answer, as the store takes it or not."""

    def __init__(self, outcome: bool | Exception) -> None:
        self.outcome = outcome
        self.sent: list[tuple[str, str, str, int, str]] = []

    def answer(self, code: str, student: str, poll_id: str, round_: int, choice: str) -> bool:
        self.sent.append((code, student, poll_id, round_, choice))
        if isinstance(self.outcome, Exception):
            raise self.outcome
        return self.outcome


ME = Me("ABC123", "s1", "k")


def _send(room: _Room, mine: str | None) -> Any:
    for key in ("class_notice", taps.SEEN):
        st.session_state.pop(key, None)
    return answer._send_held(room, ME, POLL, mine, None)  # type: ignore[arg-type]


def test_a_held_tap_the_store_lacks_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    _browser(monkeypatch, class_tree=_tap(POLL, 2, 4242.0))
    room = _Room(True)
    assert _send(room, None) == "c3"
    assert room.sent == [("ABC123", "s1", "q7", 2, "c3")]
    assert st.session_state[taps.SEEN] == 4242.0  # (the tree and board drawn again)
    assert "class_notice" not in st.session_state
    # a change of answer lost on its way is sent too; the store's own is not sent again
    _browser(monkeypatch, class_answer=_label(POLL, "a1"))
    assert _send(room, "c3") == "a1"
    _browser(monkeypatch, class_answer=_label(POLL, "a1"))
    assert _send(room, "a1") == "a1"
    assert len(room.sent) == 2


def test_a_held_tap_not_taken_is_said_with_the_way_to_send_it_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _browser(monkeypatch, class_tree=_tap(POLL, 1, 7.0))
    assert _send(_Room(False), None) is None  # the vote closed meanwhile
    assert st.session_state["class_notice"] == (
        "Your answer b2 did not reach the class before the vote closed."
    )
    assert st.session_state[taps.SEEN] == 7.0  # (its ring goes)
    assert _send(_Room(StoreError("ConnectionError: refused")), "a1") == "a1"
    notice = st.session_state["class_notice"]
    assert notice == "Your answer b2 was not sent: the class store did not answer. Choose it again."


def _level(poll: Poll, level: str) -> str:
    """A confidence level as its radio draws it: with its round's tag."""
    return answer._choice_label(level, tag=answer.round_tag(poll), words=answer._level_words)


class _SureRoom:
    """The room's confidence: what the store holds, and the levels sent."""

    def __init__(self, stored: str | None, outcome: bool | Exception = True) -> None:
        self.stored, self.outcome = stored, outcome
        self.sent: list[tuple[str, str, str, int, str | None]] = []

    def my_confidence(self, code: str, student: str, poll: Poll) -> str | None:
        return self.stored

    def confidence(self, code: str, student: str, poll_id: str, round_: int, level: str | None
                   ) -> bool:  # fmt: skip
        self.sent.append((code, student, poll_id, round_, level))
        if isinstance(self.outcome, Exception):
            raise self.outcome
        return self.outcome


def test_a_held_confidence_the_store_lacks_is_sent(monkeypatch: pytest.MonkeyPatch) -> None:
    """A phone picked "guessing" as its replica died: the page's first run on the replica that
    took over sends it (the radio then shows the store's); the store's own is not sent again,
    another round's pick is not this round's, and a refusal is said in one line."""
    sure, guessing = peer.CONFIDENCE[0], peer.CONFIDENCE[-1]
    st.session_state.pop("class_notice", None)
    _browser(monkeypatch, class_confidence=_level(POLL, guessing))
    label = functools.partial(_level, POLL)
    assert taps.held_confidence(peer.CONFIDENCE, label) == guessing
    room = _SureRoom(None)
    answer._send_held_confidence(room, ME, POLL)  # type: ignore[arg-type]
    assert room.sent == [("ABC123", "s1", "q7", 2, guessing)]
    kept = _SureRoom(guessing)  # the store has it: nothing sent
    answer._send_held_confidence(kept, ME, POLL)  # type: ignore[arg-type]
    assert kept.sent == []

    _browser(monkeypatch, class_confidence=_level(OLD, sure))  # the last round's pick
    assert taps.held_confidence(peer.CONFIDENCE, label) is None
    _browser(monkeypatch, class_confidence=sure)  # a label without the round's tag
    assert taps.held_confidence(peer.CONFIDENCE, label) is None

    _browser(monkeypatch, class_confidence=_level(POLL, sure))
    away = _SureRoom(None, StoreError("ConnectionError: refused"))
    answer._send_held_confidence(away, ME, POLL)  # type: ignore[arg-type]
    assert st.session_state["class_notice"] == (
        "How sure you are was not sent: the class store did not answer. Choose it again."
    )
