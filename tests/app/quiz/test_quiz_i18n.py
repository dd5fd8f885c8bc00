"""The quiz in the pseudo-language (issue 34): every kind's question, answers, reveal (summary,
table, why), verdicts, score, hints and misconceptions go through ``_()`` (no English outside
⟦ ⟧ but the game's own labels), the words are made from the records' facts in the language of
the moment they are shown (a phone's, not the asker's), and the answers' values stay English."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from app.quiz import (
    KINDS,
    MISCONCEPTIONS,
    ArenaSetup,
    ClassCounts,
    Progress,
    Question,
    QuizState,
    Reveal,
    ask,
    choice_words,
    question_words,
    rows_words,
    settle,
    summary_words,
    wait_hint_words,
)
from app.quiz.quiz_view import _class_verdict_html, _numbers_html, _verdict_html, mistake_html
from app.words import i18n
from mcts_lab.exact import exact_values
from tests.app.quiz.test_quiz import NAMES, TRAP, asked, search_of
from tests.app_helpers import outside_pseudo

#: Terms that are not words of a language (kept as they are in every language).
NOT_WORDS = {"Q", "C", "N", "UCT"}


def game_labels(spec: Any, found: set[str] | None = None) -> set[str]:
    """The words of the game's own labels in a record's facts (the plain strings: moves,
    outcomes), which no catalogue translates."""
    found = set() if found is None else found
    if isinstance(spec, str):
        found.update(re.findall(r"[A-Za-z]+", spec))
    elif isinstance(spec, dict):
        for key, value in spec.items():
            if key not in ("msg", "plural", "name"):
                game_labels(value, found)
    elif isinstance(spec, list):
        for item in spec:
            game_labels(item, found)
    return found


def english_left(text: str, allowed: set[str] = frozenset()) -> set[str]:  # type: ignore[assignment]
    """The words outside ⟦ ⟧ that are neither a game's label nor a term."""
    words = set(re.findall(r"[A-Za-z]{2,}", re.sub(r"<[^>]+>", " ", outside_pseudo(text))))
    return words - allowed - NOT_WORDS


def test_the_check_finds_a_planted_unwrapped_string() -> None:
    with i18n.language("en-XA"):
        wrapped = i18n._("Selection took {move}", move="a1")
    assert not english_left(wrapped)
    assert english_left(wrapped + " but this was glued on") == {"but", "this", "was", "glued", "on"}
    assert english_left("⟦x⟧ pickup ok", {"pickup", "ok"}) == set()


# ------------------------------------------------------------ every kind, graded


def graded() -> Iterator[tuple[Question, Reveal, tuple[str, ...]]]:
    """A question of every kind with its reveal (right, wrong, unanswered and dropped among
    them), and the names they were asked with."""
    # select: at the root, one level deeper, with the solver and the minimum-visits rule
    for config, depth, steps in (
        ({}, 0, 23),
        ({}, 1, 60),
        ({"solver": True}, 0, 23),
        ({"min_visits": 3}, 0, 12),
    ):
        search = search_of(steps=steps, **config)
        question = asked(search, "select", depth=depth)
        trace = search.step()
        for answer in (*question.options[:3], None):
            reveal = settle(question, search, NAMES, answer=answer, trace=trace)
            assert reveal is not None
            yield question, reveal, NAMES
    # expand, new_value (a rollout, the heuristic)
    for depth_of_rollout in (None, 0):
        search = search_of(rollout_depth=depth_of_rollout) if depth_of_rollout == 0 else search_of()
        question = asked(search, "expand")
        trace = search.step()
        reveal = settle(question, search, NAMES, answer="b2", trace=trace)
        assert reveal is not None
        yield question, reveal, NAMES
        question = asked(search, "new_value")
        trace = search.step()
        reveal = settle(question, search, NAMES, answer=question.options[0], trace=trace)
        assert reveal is not None
        yield question, reveal, NAMES
    # new_value on a move that ends the game
    search = search_of(position="XX.OO....", steps=0)
    ending = ask(search, NAMES, kinds=("new_value",))
    if ending is not None:
        trace = search.step()
        reveal = settle(ending, search, NAMES, answer=ending.options[2], trace=trace)
        assert reveal is not None
        yield ending, reveal, NAMES
    # backup
    for seed in range(6):
        search = search_of(steps=30, seed=seed)
        path = search.select()
        expansion = search.expand()
        evaluation = search.evaluate()
        backing = ask(search, NAMES, kinds=("backup",),
                      progress=Progress(path, expansion, evaluation))  # fmt: skip
        trace = search.backpropagate()
        if backing is not None:
            reveal = settle(backing, search, NAMES, answer=backing.options[1], trace=trace)
            assert reveal is not None
            yield backing, reveal, NAMES
            break
    else:
        raise AssertionError("no backup question in six seeds")
    # favourite: unchanged after one, perhaps changed after many
    for steps in (1, 300):
        search = search_of(steps=10)
        question = asked(search, "favourite")
        search.run(iterations=steps)
        reveal = settle(question, search, NAMES, answer=question.options[1], trace=None)
        assert reveal is not None
        yield question, reveal, NAMES
    # exact_best on the trap: wrong after 1, right after 700
    search = search_of(position=TRAP, steps=100)
    values = exact_values(search.game, search.root_state, 5.0)
    for steps in (1, 700):
        question = asked(search, "exact_best", exact=lambda: values)
        search.run(iterations=steps)
        reveal = settle(question, search, NAMES, answer=question.options[0], trace=None)
        assert reveal is not None
        yield question, reveal, NAMES
    # the dice
    names = ("Home", "Away")
    search = search_of("gridiron", steps=200, seed=1, rollout_depth=0, c=0.5,
                       expansion_order="heuristic")  # fmt: skip
    dice = ask(search, names, kinds=("dice",))
    count = ask(search, names, kinds=("dice_count",))
    assert dice is not None and count is not None
    search.step()
    for question in (dice, count):
        for answer in question.options[:2]:
            reveal = settle(question, search, names, answer=answer, trace=None)
            assert reveal is not None
            yield question, reveal, names
    # the arena
    search = search_of()
    setup = ArenaSetup(games=5, iterations=50, opponent="random", expansion="listed")
    question = asked(search, "arena", arena=setup)
    result = SimpleNamespace(home_wins=4, away_wins=2, home_draws=1, away_draws=3,
                             home_losses=0, away_losses=0, games_per_side=5)  # fmt: skip
    reveal = settle(question, search, NAMES, answer="Away", trace=None, arena_result=result)
    assert reveal is not None
    yield question, reveal, NAMES
    # dropped: Step N, a move played
    search = search_of(steps=20)
    question = asked(search, "select")
    search.run(iterations=50)
    reveal = settle(question, search, NAMES, answer=question.options[0], trace=None)
    assert reveal is not None and reveal.verdict == "dropped"
    yield question, reveal, NAMES
    question = asked(search, "favourite")
    search.advance(search.best_action())
    reveal = settle(question, search, NAMES, answer=None, trace=None)
    assert reveal is not None and reveal.verdict == "dropped"
    yield question, reveal, NAMES


@pytest.fixture(scope="module")
def every_reveal() -> list[tuple[Question, Reveal, tuple[str, ...]]]:
    found = list(graded())
    assert {q.kind for q, _r, _n in found} == set(KINDS)
    assert {r.verdict for _q, r, _n in found} == {"right", "wrong", "unanswered", "dropped"}
    assert any(r.misconceptions for _q, r, _n in found)
    return found


def test_every_kind_in_the_pseudo_language(every_reveal: Any) -> None:
    for question, reveal, _names in every_reveal:
        allowed = game_labels(question.facts) | game_labels(reveal.facts)
        with i18n.language("en-XA"):
            shown = [
                question.words(),
                *(question.option_words(o) for o in question.options),
                reveal.summary_words(),
                *(cell for row in reveal.rows_words() for cell in row),
                reveal.why_words(),
                _verdict_html(reveal),
                _numbers_html(reveal),
            ]
            for option, _mistake in reveal.misconceptions:
                shown.append(mistake_html(reveal.misconception_of(option)))
        for text in shown:
            assert not english_left(text, allowed), (question.kind, text)
        # the English is what it was: the values, the text and the table
        assert question.text == question_words(question.facts)
        assert reveal.summary == summary_words(reveal.facts)
        assert reveal.rows == rows_words(reveal.facts)
        for option in question.options:
            assert question.option_words(option) == option


def test_a_class_reveal_in_the_pseudo_language(every_reveal: Any) -> None:
    question, reveal, _names = next(
        (q, r, n) for q, r, n in every_reveal if q.kind == "select" and len(r.rows) > 6
    )
    counts = ClassCounts((1, 2), {question.options[0]: (2, 1), question.options[1]: (0, 3)})
    assert counts.fit(reveal)
    allowed = game_labels(question.facts) | game_labels(reveal.facts)
    with i18n.language("en-XA"):
        for text in (_class_verdict_html(reveal, counts), _numbers_html(reveal, counts)):
            assert not english_left(text, allowed), text
        assert "⟦" in _numbers_html(reveal, counts)


def test_the_words_come_from_the_facts_in_the_language_of_the_moment(every_reveal: Any) -> None:
    """Asked in English, shown in the pseudo-language: the facts, kept as JSON (a class's
    store), make the question, its answers and the summary in the reader's language."""
    for question, reveal, _names in every_reveal:
        facts = json.loads(json.dumps(question.facts))
        said = json.loads(json.dumps(reveal.facts))
        with i18n.language("en-XA"):
            assert question_words(facts, question.text).startswith("⟦")
            assert summary_words(said, reveal.summary).startswith("⟦")
            for option in question.options:
                words = choice_words(facts, question.options, option)
                assert words == question.option_words(option)
        with i18n.language("en"):
            assert question_words(facts, "") == question.text


def test_score_hints_and_misconceptions_in_the_pseudo_language() -> None:
    box = QuizState(right=2, answered=3, unanswered=1)
    with i18n.language("en-XA"):
        texts = [box.score_text, QuizState(right=1, answered=1).score_text]
        texts += [wait_hint_words(kind) for kind in KINDS]
        for mistake in MISCONCEPTIONS.values():
            texts += [mistake.name, mistake.explanation, mistake.pointer.words]
    for text in texts:
        assert text and not english_left(text), text
    assert box.score_text == "Score 2 of 3 (1 not answered)"  # English outside the block


# ------------------------------------------------------------------- on the page

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from app.quiz.quiz_view import plain_label  # noqa: E402
from app.words import game_words  # noqa: E402
from tests.app.quiz.test_quiz import quiz_text  # noqa: E402
from tests.app_helpers import fresh  # noqa: E402


@pytest.mark.slow
def test_the_quiz_on_the_page_in_the_pseudo_language(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(i18n.PSEUDO_ENV, "1")
    with i18n.language(i18n.PSEUDO):  # (AppTest formats a widget's value in this thread)
        _quiz_rounds()


def _quiz_rounds() -> None:
    for game in ("tic_tac_toe", "gridiron"):
        at: AppTest = fresh(game=game, seed="1", steps="40", lang="en-XA")
        at.toggle(key="quiz").set_value(True).run()
        seen = 0
        for turn in range(6):
            box = at.session_state["lab"].quiz
            question = box.pending
            if question is not None:
                allowed = game_labels(question.facts)
                if box.reveal is not None:
                    allowed |= game_labels(box.reveal.facts) | game_labels(
                        box.reveal.question.facts
                    )
                text = quiz_text(at)
                assert not english_left(text, allowed), (game, turn, text)
                pills = at.pills[0]
                assert pills.options and all(not english_left(o, allowed) for o in pills.options)
                assert pills.help and not english_left(pills.help)
                # the values stay English (the game's labels as they are); words are translated,
                # a move's label by its shape (game_words)
                for value, spec, shown in zip(question.options, question.facts["choices"],
                                              pills.options, strict=True):  # fmt: skip
                    assert (
                        (shown != value)
                        if isinstance(spec, dict)
                        else (shown == plain_label(game_words.shown(value)))
                    )
                seen += 1
                if not pills.disabled:
                    pills.set_value(question.options[turn % len(question.options)]).run()
            at.button(key="step").click().run()
            assert not at.exception, (game, turn)
        assert seen >= 3, game
        box = at.session_state["lab"].quiz
        assert box.answered + box.unanswered >= 3


def test_a_plural_fact_is_one_plural_entry_of_the_catalogue() -> None:
    """``P("{n} visit", "{n} visits", n)`` reaches the template as one entry with its plural
    (the extraction keyword ``P:1,2``), so a language's forms are found for it: two entries of
    one form each would leave every language's screen in English."""
    from babel.messages.pofile import read_po

    from app.words.i18n import LOCALE_DIR

    with (LOCALE_DIR / "mcts_lab.pot").open("rb") as f:
        template = read_po(f)
    entry = template.get(("{n} visit", "{n} visits"))
    assert entry is not None and entry.pluralizable
    assert template.get("{n} visits") is None  # not a lone message


def test_a_reveal_s_count_takes_the_language_s_plural_form(every_reveal: Any) -> None:
    """The dice's reveal counts the times an outcome came up with ``P``: English says "1 time"
    or "n times", Arabic the form of its six for that count (issue 43)."""
    arabic = {0: "لم تظهر ولا مرة", 1: "ظهرت مرة واحدة", 2: "ظهرت مرتين"}
    seen = 0
    for question, reveal, _names in every_reveal:
        if question.kind != "dice_count":
            continue
        spec = json.loads(json.dumps(reveal.facts))["summary"]
        n = spec["n"]
        english = "1 time (" if n == 1 else f"{n:,} times ("
        assert english in summary_words({"summary": spec}), spec
        with i18n.language("ar"):
            shown = summary_words({"summary": spec})
        few, many = n % 100 in range(3, 11), n % 100 >= 11
        word = arabic.get(n) or f"ظهرت {n} " + ("مرات" if few else "مرةً" if many else "مرة")
        assert word + " (" in shown, shown
        seen += 1
    assert seen
