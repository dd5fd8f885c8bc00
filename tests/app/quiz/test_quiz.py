"""Quiz mode: questions asked from the live search and graded by what the next click really
did (app/quiz/), and quiz rounds on the screen through AppTest (right and wrong answers, the
score, locked answers, a question dropped by Step N)."""

from __future__ import annotations

import html
import re
from types import SimpleNamespace
from typing import Any

import pytest

from app.live.state import opening_state
from app.quiz import (
    FREE_KINDS,
    KINDS,
    ArenaSetup,
    Progress,
    Question,
    QuizState,
    Reveal,
    ask,
    predicted_path,
    settle,
)
from games import GAME_NAMES, make_game
from mcts_core import Decision, Search, SearchConfig
from mcts_lab.exact import exact_values

NAMES = ("X", "O")
TRAP = "...O.X.X."  # O to move; only c1 and c3 draw (lesson 5)


def search_of(game: str = "tic_tac_toe", position: str = "", steps: int = 0, seed: int = 0,
              **config: Any) -> Search:  # fmt: skip
    options = {"size": 1} if game == "gridiron" else {}
    rules = make_game(game, **options)
    state = rules.parse_state(position) if position else opening_state(rules, seed)
    search = Search(rules, state, SearchConfig(**config), seed=seed)
    if steps:
        search.run(iterations=steps)
    return search


def asked(search: Search, kind: str, **kwargs: Any) -> Question:
    question = ask(search, NAMES, kinds=(kind,), **kwargs)
    assert question is not None, f"no {kind} question fits"
    assert question.kind == kind
    return question


# ------------------------------------------------------------------ the selection


@pytest.mark.parametrize(
    ("game", "config"),
    [
        ("tic_tac_toe", {}),
        ("tic_tac_toe", {"tree_policy": "ucb1", "solver": True}),
        ("connect_four", {"tree_policy": "puct", "prior": "heuristic"}),
        ("connect_four", {"min_visits": 3}),
        ("gridiron", {"rollout_depth": 0, "expansion_order": "random"}),
    ],
)
def test_the_preview_is_what_the_next_step_does(game: str, config: dict[str, Any]) -> None:
    """Search.preview_decision (the quiz's view of the next selection) takes the same child
    with the same terms as the step that follows, and changes nothing."""
    search = search_of(game, seed=2, **config)
    compared = 0
    for _ in range(250):
        before = (search.node_count, search.iterations, search.root.visits)
        preview = search.preview_decision()
        assert (search.node_count, search.iterations, search.root.visits) == before
        trace = search.step()
        first = trace.path[0] if trace.path else None
        if preview is None:
            assert not (isinstance(first, Decision) and first.node_id == search.root.id)
            continue
        assert isinstance(first, Decision)
        assert first.chosen == preview.chosen and first.children == preview.children
        compared += 1
    assert compared > 100


def test_the_predicted_path_stops_at_dice() -> None:
    search = search_of("gridiron", steps=300, seed=1, rollout_depth=0)
    path = predicted_path(search)
    assert path.decisions
    assert path.stop in ("dice", "untried", "terminal")
    if path.stop == "dice":
        assert path.end is None  # a die decides the way on: no certain end


def test_select_right_and_wrong() -> None:
    search = search_of(steps=20)
    question = asked(search, "select", depth=0)
    assert question.options == tuple(c.label for c in search.children_summary())
    right = search.preview_decision().chosen_terms.label
    wrong = next(o for o in question.options if o != right)
    trace = search.step()
    assert trace.decisions[0].chosen_terms.label == right
    good = settle(question, search, NAMES, answer=right, trace=trace)
    bad = settle(question, search, NAMES, answer=wrong, trace=trace)
    none = settle(question, search, NAMES, answer=None, trace=trace)
    assert good is not None and good.verdict == "right" and good.correct == (right,)
    assert bad is not None and bad.verdict == "wrong"
    assert none is not None and none.verdict == "unanswered"
    # the reveal shows Q + bonus for every child, the taken one marked
    header, *rows = good.rows
    assert header == ("move", "n before", "Q", "bonus", "Q + bonus")
    assert len(rows) == len(question.options) and rows[good.marked][0] == right
    for row in rows:
        q, bonus, total = (float(x) for x in row[2:])
        assert abs(q + bonus - total) < 0.0015
    assert good.summary.startswith(f"X took {right}: Q ")


def test_select_at_depth_one_names_the_way_there() -> None:
    search = search_of(steps=60)
    question = asked(search, "select", depth=1)
    path = predicted_path(search)
    assert f"X {path.decisions[0].chosen_terms.label}" in question.text
    assert "Then O chooses at depth 1" in question.text
    trace = search.step()
    reveal = settle(question, search, NAMES, answer=question.options[0], trace=trace)
    assert reveal is not None and reveal.verdict in ("right", "wrong")
    assert reveal.correct == (trace.decisions[1].chosen_terms.label,)


def test_expand_and_new_value() -> None:
    search = search_of()
    question = asked(search, "expand")
    assert question.options[0] == "a1" and len(question.options) == 9
    trace = search.step()
    reveal = settle(question, search, NAMES, answer="a1", trace=trace)
    assert reveal is not None and reveal.verdict == "right"  # listed order: a1 first
    value_question = asked(search, "new_value")
    assert value_question.options == ("Good for X", "Even (like a draw)", "Bad for X")
    trace = search.step()
    value = trace.evaluation.value[0]
    expected = "Good for X" if value > 0 else "Bad for X" if value < 0 else "Even (like a draw)"
    reveal = settle(value_question, search, NAMES, answer="Bad for X", trace=trace)
    assert reveal is not None and reveal.correct == (expected,)
    assert reveal.verdict == ("right" if expected == "Bad for X" else "wrong")


def test_backup_is_asked_before_the_backpropagate_phase() -> None:
    search = search_of(steps=30)
    assert ask(search, NAMES, kinds=("backup",)) is None  # not before the simulation
    path = search.select()
    expansion = search.expand()
    evaluation = search.evaluate()
    progress = Progress(path, expansion, evaluation)
    question = ask(search, NAMES, kinds=("backup",), progress=progress)
    if question is None:  # a draw: + and - are the same number; nothing to ask
        assert evaluation.value[0] == evaluation.value[1]
        return
    trace = search.backpropagate()
    first = next(u for u in trace.updates if u.node_id == question.data["node_id"])
    reveal = settle(question, search, NAMES, answer=question.options[0], trace=trace)
    assert reveal is not None and reveal.correct == (f"{first.added:+.3f}",)
    assert first.view == question.data["chooser"] == search.root.player


def test_favourite_after_one_step_and_after_step_n() -> None:
    search = search_of(steps=10)
    question = asked(search, "favourite")
    before = search.best_child().label
    assert question.options == (f"No, still {before}", "Yes, another move")
    search.run(iterations=200)  # Step N: a click question is graded after any growth
    reveal = settle(question, search, NAMES, answer=question.options[0], trace=None)
    assert reveal is not None
    changed = search.best_child().label != before
    assert reveal.correct == (question.options[1 if changed else 0],)


def test_exact_best_on_the_trap() -> None:
    """Lesson 5's trap: after 100 iterations the favourite a1 loses; after 800 it is c3."""
    search = search_of(position=TRAP, steps=100)
    rules = search.game
    values = exact_values(rules, search.root_state, 5.0)
    question = asked(search, "exact_best", exact=lambda: values)
    search.step()
    reveal = settle(question, search, NAMES, answer="Yes, a best move", trace=None)
    assert reveal is not None and reveal.verdict == "wrong"
    assert reveal.correct == ("No, a worse move",)
    assert "a1" in reveal.summary and "loss" in reveal.summary and "c1, c3" in reveal.summary
    assert [r[3] for r in reveal.rows[1:]].count("draw") == 2
    question = asked(search, "exact_best", exact=lambda: values)
    search.run(iterations=699)
    reveal = settle(question, search, NAMES, answer="Yes, a best move", trace=None)
    assert reveal is not None and reveal.verdict == "right"
    # no question when exact values are not known, or every move is as good
    assert ask(search, NAMES, kinds=("exact_best",), exact=lambda: None) is None
    start = search_of(steps=50)
    draws = exact_values(start.game, start.root_state, 5.0)
    assert ask(start, NAMES, kinds=("exact_best",), exact=lambda: draws) is None


def test_dice_questions_on_gridiron() -> None:
    search = search_of("gridiron", steps=200, seed=1, rollout_depth=0, c=0.5,
                       expansion_order="heuristic")  # fmt: skip
    names = ("Home", "Away")
    dice = ask(search, names, kinds=("dice",))
    assert dice is not None and "pickup ok" in dice.options and len(dice.options) == 4
    count = ask(search, names, kinds=("dice_count",))
    assert count is not None
    rolls = int(count.data["rolls"])
    assert f"were rolled {rolls} times" in count.text
    search.step()
    reveal = settle(dice, search, names, answer="pickup ok", trace=None)
    assert reveal is not None and reveal.verdict == "right"
    assert reveal.rows[0] == ("outcome", "probability", "expected", "came up")
    expected = round(rolls * 2 / 3)
    reveal = settle(count, search, names, answer=f"about {expected}", trace=None)
    assert reveal is not None and reveal.verdict == "right", reveal.correct
    # no dice in tic-tac-toe: no dice question
    assert ask(search_of(steps=50), NAMES, kinds=("dice", "dice_count")) is None


def test_arena_question_is_graded_by_the_next_run() -> None:
    search = search_of()
    setup = ArenaSetup(games=5, iterations=50, opponent="random", expansion="listed")
    question = asked(search, "arena", arena=setup)
    assert settle(question, search, NAMES, answer="Home", trace=None, arena_result=None) is None
    result = SimpleNamespace(home_wins=4, away_wins=2, home_draws=1, away_draws=3,
                             home_losses=0, away_losses=0, games_per_side=5)  # fmt: skip
    reveal = settle(question, search, NAMES, answer="Away", trace=None, arena_result=result)
    assert reveal is not None and reveal.verdict == "wrong" and reveal.correct == ("Home",)


def test_step_n_drops_a_question_about_one_iteration() -> None:
    search = search_of(steps=20)
    question = asked(search, "select")
    search.run(iterations=50)
    reveal = settle(question, search, NAMES, answer=question.options[0], trace=None)
    assert reveal is not None and reveal.verdict == "dropped"
    assert "50 iterations ran at once" in reveal.summary


def test_a_move_played_drops_the_question() -> None:
    search = search_of(steps=20)
    question = asked(search, "favourite")
    search.advance(search.best_action())
    reveal = settle(question, search, NAMES, answer=None, trace=None)
    assert reveal is not None and reveal.verdict == "dropped"


def test_the_score_counts_right_wrong_and_unanswered() -> None:
    box = QuizState()
    q = Question("select", "?", ("a", "b"), 0, "select", "iteration", "")
    for verdict in ("right", "wrong", "right", "unanswered", "dropped"):
        box.record(Reveal(q, "a", ("a",), verdict, ""))  # type: ignore[arg-type]
    assert (box.right, box.answered, box.unanswered) == (2, 3, 1)
    assert box.score_text == "Score 2 of 3 (1 not answered)"


def test_free_mode_takes_turns_and_every_kind_is_known() -> None:
    assert set(FREE_KINDS) < set(KINDS) and "arena" not in FREE_KINDS
    search = search_of(steps=40)
    kinds = {ask(search, NAMES, counter=i).kind for i in range(len(FREE_KINDS))}  # type: ignore[union-attr]
    assert {"select", "new_value", "favourite"} <= kinds
    over = search_of(position="XXXOO....")  # X has won: nothing to ask
    assert ask(over, NAMES) is None


# ------------------------------------------------------------------- on the screen

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest  # noqa: E402

from app.quiz.quiz_view import plain_label  # noqa: E402
from tests.app_helpers import fresh  # noqa: E402


def quiz_text(at: AppTest) -> str:
    found = [str(h.value) for h in at.html if 'class="lab-quiz' in str(h.value)]
    assert 1 <= len(found) <= 2  # the verdict and question; the numbers of the last answer
    block = re.sub(r"<style>.*?</style>", "", "\n".join(found), flags=re.S)
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", block)).split())


def pending(at: AppTest) -> Question:
    question = at.session_state["lab"].quiz.pending
    assert question is not None
    return question


def right_answer(at: AppTest) -> str:
    """What the next Step will do at the root (the test's own reading of the tree)."""
    decision = at.session_state["lab"].search.preview_decision()
    return decision.chosen_terms.label


@pytest.mark.slow
def test_quiz_rounds_right_wrong_unanswered_and_the_score() -> None:
    at = fresh(game="tic_tac_toe", seed="3", steps="20")
    assert not [h for h in at.html if "lab-quiz" in str(h.value)]  # off by default
    at.toggle(key="quiz").set_value(True).run()
    lab = at.session_state["lab"]
    lab.quiz.kinds = ("select",)  # (a lesson page does this; here: one kind, known answers)
    lab.quiz.pending = None
    at.run()
    assert pending(at).kind == "select"
    assert "Question: Selection starts at the root (X to move)" in quiz_text(at)
    assert tuple(at.pills[0].options) == tuple(plain_label(o) for o in pending(at).options)
    # right
    at.pills[0].set_value(right_answer(at)).run()
    at.button(key="step").click().run()
    text = quiz_text(at)
    assert "✓ Right:" in text and "Score 1 of 1" in text and "Q + bonus" in text
    # wrong
    wrong = next(o for o in pending(at).options if o != right_answer(at))
    at.pills[0].set_value(wrong).run()
    at.button(key="step").click().run()
    text = quiz_text(at)
    assert f"✗ Not this time: you said {wrong}, the answer was" in text
    assert "Score 1 of 2" in text
    # not answered
    assert at.pills[0].value is None  # a new question starts unanswered
    at.button(key="step").click().run()
    text = quiz_text(at)
    assert "No answer given" in text and "Score 1 of 2 (1 not answered)" in text


@pytest.mark.slow
def test_the_answer_locks_once_the_iteration_begins_and_step_n_drops_it() -> None:
    at = fresh(game="tic_tac_toe", seed="1", steps="30")
    at.toggle(key="quiz").set_value(True).run()
    lab = at.session_state["lab"]
    lab.quiz.kinds = ("select",)
    lab.quiz.pending = None
    at.run()
    at.pills[0].set_value(right_answer(at)).run()
    at.button(key="phase_step").click().run()  # select: the path is on screen now
    assert at.pills[0].disabled
    for _ in range(3):
        at.button(key="phase_step").click().run()
    assert "✓ Right:" in quiz_text(at) and "Score 1 of 1" in quiz_text(at)
    at.pills[0].set_value(pending(at).options[0]).run()
    at.button(key="step_n").click().run()  # 100 iterations: the question was about one
    text = quiz_text(at)
    assert "That question no longer applies: 100 iterations ran at once" in text
    assert "Score 1 of 1" in text  # a dropped question does not count


@pytest.mark.slow
def test_free_quiz_mode_asks_and_reveals_on_every_game() -> None:
    for game in GAME_NAMES:
        at = fresh(game=game, seed="1", steps="40")
        at.toggle(key="quiz").set_value(True).run()
        for turn in range(6):
            box = at.session_state["lab"].quiz
            if at.pills and not at.pills[0].disabled and box.pending is not None:
                options = box.pending.options
                at.pills[0].set_value(options[turn % len(options)]).run()
            at.button(key="step").click().run()
            assert not at.exception, (game, turn)
        box = at.session_state["lab"].quiz
        assert box.answered + box.unanswered >= 4, (game, box)
        assert box.score_text in quiz_text(at)


def test_answers_are_shown_as_typed_never_as_markdown() -> None:
    assert plain_label("*x* [a](b) :red[z] `c`") == r"\*x\* \[a\]\(b\) \:red\[z\] \`c\`"
    assert plain_label("H1 move to (1,0)") == r"H1 move to \(1,0\)"


@pytest.mark.slow
def test_the_quiz_waits_while_autoplay_runs_and_forgets_when_off() -> None:
    at = fresh(game="tic_tac_toe", seed="1", steps="30")
    at.toggle(key="quiz").set_value(True).run()
    assert at.session_state["lab"].quiz.pending is not None
    at.toggle(key="autoplay").set_value(True).run()
    assert "The quiz waits while autoplay runs" in quiz_text(at)
    assert at.session_state["lab"].quiz.pending is None and not at.pills
    at.toggle(key="autoplay").set_value(False).run()
    assert at.session_state["lab"].quiz.pending is not None
    at.toggle(key="quiz").set_value(False).run()
    assert at.session_state["lab"].quiz.pending is None
    assert at.session_state["lab"].quiz.answered + at.session_state["lab"].quiz.unanswered == 0
