"""Misconceptions named (app/quiz/misconceptions.py): a wrong answer names the mistake it
shows only when the question's facts make it that mistake, and every misconception's lesson
page exists. Known answers from real, seeded searches graded by ``app.quiz.settle``."""

from __future__ import annotations

import pytest

from app.lessons.reading import load_lessons
from app.quiz import QUIZ_KINDS, Progress, ask, settle
from app.quiz.misconceptions import DETECTORS, MISCONCEPTIONS
from mcts_lab.exact import exact_values
from tests.app.quiz.test_quiz import NAMES, TRAP, asked, search_of


def test_every_misconception_points_at_a_lesson_page_that_exists() -> None:
    lessons, problems = load_lessons()
    assert not problems
    for mistake in MISCONCEPTIONS.values():
        pointer = mistake.pointer
        lesson = lessons[pointer.lesson]
        assert 1 <= pointer.page <= len(lesson.pages), mistake.id
        assert lesson.title == pointer.lesson_title, mistake.id
        assert lesson.pages[pointer.page - 1].title == pointer.page_title, mistake.id
        assert pointer.query == f"?lesson={pointer.lesson}&page={pointer.page}"
        assert mistake.name and mistake.explanation.endswith(".")
    assert set(DETECTORS) <= set(QUIZ_KINDS)  # a detector per kind, by the kind's name


def test_select_the_max_q_move_when_the_bonus_decided_is_the_bonus_ignored() -> None:
    """Tic-tac-toe, seed 0, 23 iterations: selection takes c3 (Q + bonus), c2 has the highest
    Q and a1 the most visits; b1 is neither."""
    search = search_of(steps=23)
    decision = search.preview_decision()
    assert decision is not None
    terms = {t.label: t for t in decision.children}
    assert decision.chosen_terms.label == "c3"
    assert max(terms.values(), key=lambda t: t.q).label == "c2"
    assert terms["c2"].q > terms["c3"].q  # the bonus decided
    assert max(terms.values(), key=lambda t: t.visits).label == "a1"
    question = asked(search, "select", depth=0)
    trace = search.step()
    said = {}
    for option in ("c2", "a1", "b1", "c3"):
        reveal = settle(question, search, NAMES, answer=option, trace=trace)
        assert reveal is not None
        said[option] = reveal.misconception_of(option)
    assert said == {
        "c2": "bonus_ignored",
        "a1": "most_visited_highest_q",
        "b1": None,  # a wrong move that matches no mistake names none
        "c3": None,  # the right answer names none
    }


def test_select_when_the_max_q_move_is_taken_names_no_bonus_mistake() -> None:
    """Seed 3, 40 iterations: the move selection takes has the highest Q, so no wrong answer
    there is the bonus ignored."""
    search = search_of(steps=40, seed=3)
    decision = search.preview_decision()
    assert decision is not None
    top = max(decision.children, key=lambda t: t.q)
    assert decision.chosen_terms.label == top.label
    question = asked(search, "select", depth=0)
    trace = search.step()
    reveal = settle(question, search, NAMES, answer=question.options[0], trace=trace)
    assert reveal is not None
    assert all(m != "bonus_ignored" for _, m in reveal.misconceptions)


def test_the_backup_s_other_value_is_the_sign_flip_forgotten() -> None:
    search = search_of(steps=30)
    progress = Progress(search.select(), search.expand(), search.evaluate())
    question = ask(search, NAMES, kinds=("backup",), progress=progress)
    assert question is not None  # (seed 0, 30 iterations: a win or a loss, not a draw)
    trace = search.backpropagate()
    right = next(u for u in trace.updates if u.node_id == question.data["node_id"])
    wrong = next(o for o in question.options if o != f"{right.added:+.3f}")
    reveal = settle(question, search, NAMES, answer=wrong, trace=trace)
    assert reveal is not None and reveal.verdict == "wrong"
    assert reveal.misconception_of(wrong) == "forgot_sign_flip"
    assert reveal.misconceptions == ((wrong, "forgot_sign_flip"),)


def test_the_trap_s_losing_favourite_called_best() -> None:
    search = search_of(position=TRAP, steps=100)
    values = exact_values(search.game, search.root_state, 5.0)
    question = asked(search, "exact_best", exact=lambda: values)
    search.step()
    reveal = settle(question, search, NAMES, answer="Yes, a best move", trace=None)
    assert reveal is not None and reveal.verdict == "wrong"
    assert reveal.misconception_of("Yes, a best move") == "favourite_is_best"


def test_dice_count_n_over_outcomes_is_equal_odds_and_n_is_always() -> None:
    search = search_of("gridiron", steps=200, seed=1, rollout_depth=0, c=0.5,
                       expansion_order="heuristic")  # fmt: skip
    names = ("Home", "Away")
    question = ask(search, names, kinds=("dice_count",))
    assert question is not None
    n = int(question.data["rolls"])
    chance = search.find_node(int(question.data["node_id"]))
    even = f"about {round(n / chance.num_outcomes)}"  # type: ignore[union-attr]
    search.step()
    reveal = settle(question, search, names, answer=even, trace=None)
    assert reveal is not None and reveal.verdict == "wrong", (even, reveal.correct)
    assert reveal.misconception_of(even) == "equal_odds"
    assert reveal.misconception_of(f"about {n}") == "likeliest_always"
    assert reveal.misconception_of("about 0") is None


@pytest.mark.parametrize(("kind", "steps"), [("select", 23), ("expand", 0), ("new_value", 0),
                                            ("favourite", 23)])  # fmt: skip
def test_only_wrong_options_name_a_misconception(kind: str, steps: int) -> None:
    """Whatever the kind, a right option never carries a misconception and every id named is
    a known one."""
    search = search_of(steps=steps)
    question = asked(search, kind)
    trace = search.step()
    reveal = settle(question, search, NAMES, answer=question.options[0], trace=trace)
    assert reveal is not None and reveal.verdict != "dropped"
    for option, mistake in reveal.misconceptions:
        assert option not in reveal.correct and mistake in MISCONCEPTIONS


def test_the_reveal_names_a_wrong_answer_s_misconception_in_one_line() -> None:
    """The quiz's verdict line (single-user quiz mode and the teacher's) for a wrong answer
    that shows a mistake: its name and lesson page, escaped; nothing for one that shows none."""
    from app.quiz.quiz_view import _verdict_html, mistake_html

    search = search_of(steps=23)
    question = asked(search, "select", depth=0)
    trace = search.step()
    shown = _verdict_html(settle(question, search, NAMES, answer="c2", trace=trace))  # type: ignore[arg-type]
    assert "✗ Not this time: you said c2" in shown
    assert (
        "A common mistake: the exploration bonus ignored (lesson 1. The four phases, page 2)"
        in shown
    )
    plain = _verdict_html(settle(question, search, NAMES, answer="b1", trace=trace))  # type: ignore[arg-type]
    assert "common mistake" not in plain
    assert mistake_html(None) == "" and mistake_html("no_such") == ""


def test_expand_the_heuristic_s_favourite_under_listed_order() -> None:
    """The empty board, listed order: a1 is added; b2 (the centre) is the one move the
    heuristic likes best, so choosing it is 'the most promising first'; a2 is nothing."""
    search = search_of()
    question = asked(search, "expand")
    trace = search.step()
    reveal = settle(question, search, NAMES, answer="b2", trace=trace)
    assert reveal is not None and reveal.correct == ("a1",)
    assert reveal.misconception_of("b2") == "expand_best_first"
    assert reveal.misconception_of("a2") is None
    heuristic = search_of(expansion_order="heuristic")  # that order does take it first
    question = asked(heuristic, "expand")
    trace = heuristic.step()
    reveal = settle(question, heuristic, NAMES, answer="a1", trace=trace)
    assert reveal is not None and "expand_best_first" not in dict(reveal.misconceptions).values()


def test_favourite_said_to_change_while_another_move_has_a_higher_q() -> None:
    """22 iterations: the favourite stays after one Step while another tried move has a
    higher Q than it."""
    search = search_of(steps=22)
    question = asked(search, "favourite")
    search.step()
    reveal = settle(question, search, NAMES, answer=question.options[1], trace=None)
    assert reveal is not None and reveal.verdict == "wrong"
    fav = search.best_child()
    assert any(c.q > fav.q for c in search.children_summary() if c.label != fav.label)
    assert reveal.misconception_of(question.options[1]) == "most_visited_highest_q"
