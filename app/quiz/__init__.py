"""Quiz mode: predict, then reveal. One question about what the next click will do, answered
before the click, revealed after it with the numbers that decided it.

Pure Python (no Streamlit) but for the view: :func:`ask` builds a question from the live
search, :func:`settle` grades it once its moment has come, and :class:`QuizState` keeps the
session's score. ``app/quiz/quiz_view.py`` draws them (it may import the session, ``live``; the
core imports only the words and ``mcts_lab``, ``games``, ``mcts_core``). Every answer comes
from what really happened: the selection question is graded by the step's own trace (the
tree's UCT numbers decide it, and :meth:`mcts_core.search.Search.preview_decision` is only used
to know which node's children to offer), the dice question by the game's exact probabilities,
the "is it best?" question by :func:`mcts_lab.exact.exact_values`, the arena question by the
arena's games.

Texts are plain strings for a student who knows only what MCTS is; the view escapes them.

The package: the records (``records.py``: question, reveal, score, :class:`QuizKind` and what
its ``ask`` and ``grade`` receive), reading the tree (``reading.py``), and one module per kind
under ``kinds/`` (:data:`QUIZ_KINDS`, one :class:`QuizKind` record each: name, why text, wait
hint, ask, grade; the names are what lesson files use):

- ``select``: which move will selection take at the root (or at depth d)?
- ``expand``: which untried move will the expansion add?
- ``new_value``: will the new node's simulated value be good or bad for the player moving there?
- ``backup``: what will backpropagation add to the root's move on the path (sign flips)?
- ``favourite``: after the next click, will the root's favourite move change?
- ``exact_best``: after the next click, is the search's favourite really a best move?
- ``dice``: which outcome of a chance node is the most likely?
- ``dice_count``: how often should that outcome have come up by now?
- ``arena``: will MCTS win more arena games at home or away?

Each kind's wrong answers name the misconception they show, where the question's facts make
them that mistake (``misconceptions.py``: the misconceptions, their lesson pages, one detector
per kind); the reveal carries them.

The words (issue 34): a question and a reveal keep the facts of their sentences
(``Question.facts``, ``Reveal.facts``: JSON-friendly, ``words.py``) and are put into words when
shown, in the viewer's language: :meth:`Question.words`, :meth:`Question.option_words`,
:meth:`Reveal.summary_words`, :meth:`Reveal.rows_words`, :meth:`Reveal.why_words` (or, from facts
a class's store kept, :func:`question_words`, :func:`choice_words`, :func:`summary_words`,
:func:`rows_words`). The options stay stable English values (what is picked, stored and
compared); ``text``, ``summary`` and ``rows`` are the English words, kept for what compares or
files them.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from dataclasses import replace

from app.quiz.kinds import QUIZ_KINDS
from app.quiz.kinds.exact_best import QUIZ_EXACT_SECONDS
from app.quiz.misconceptions import MISCONCEPTIONS, Misconception, classify
from app.quiz.reading import MAX_OPTIONS, predicted_path
from app.quiz.records import (
    ArenaSetup,
    AskContext,
    ClassCounts,
    GradeContext,
    Progress,
    Question,
    QuizKind,
    QuizState,
    Reveal,
    choice_words,
    dropped,
    question_words,
    rows_words,
    summary_words,
)
from app.quiz.words import M, P, count
from app.words import i18n
from app.words.i18n import N_, _
from mcts_core import IterationTrace, Search
from mcts_core.game import Action
from mcts_lab.arena import ArenaResult

__all__ = [
    "FREE_KINDS",
    "KINDS",
    "MISCONCEPTIONS",
    "QUIZ_EXACT_SECONDS",
    "QUIZ_KINDS",
    "WAIT_HINTS",
    "ArenaSetup",
    "ClassCounts",
    "Misconception",
    "Progress",
    "Question",
    "QuizKind",
    "QuizState",
    "Reveal",
    "ask",
    "choice_words",
    "predicted_path",
    "question_words",
    "rows_words",
    "summary_words",
    "wait_hint_words",
    "remember_search",
    "same_search",
    "settle",
]

KINDS: tuple[str, ...] = tuple(QUIZ_KINDS)
#: The kinds free quiz mode asks (the arena question only comes with a lesson page).
FREE_KINDS: tuple[str, ...] = tuple(k for k in KINDS if k != "arena")
#: What a lesson page's question waits for, by kind (English messages: shown through
#: :func:`wait_hint_words`).
WAIT_HINTS: dict[str, str] = {kind.name: kind.wait_hint for kind in QUIZ_KINDS.values()}


def wait_hint_words(kind: str) -> str:
    """What a lesson page's question of ``kind`` waits for, in the current language."""
    hint = WAIT_HINTS.get(kind)
    return "" if hint is None else _(hint, n=i18n.decimal(MAX_OPTIONS))


def ask(
    search: Search,
    names: Sequence[str],
    *,
    kinds: Sequence[str] | None = None,
    counter: int = 0,
    depth: int | None = None,
    progress: Progress | None = None,
    arena: ArenaSetup | None = None,
    exact: Callable[[], dict[Action, float | None] | None] | None = None,
) -> Question | None:
    """A question about what the next click will do, or ``None`` when none fits now.

    Args:
        search: the live search.
        names: the players' names.
        kinds: the kinds allowed (default :data:`FREE_KINDS`); the first that fits, starting
            at ``counter`` and taking turns, is asked.
        counter: questions asked so far (free mode takes turns with the kinds by it).
        depth: the selection question's depth (default: 0, or 1 on every other turn).
        progress: the half-done iteration's phases so far (asking mid-iteration).
        arena: the arena's settings and last result (the arena question).
        exact: returns the root's exact values (or ``None``: not known in time), called only
            for the ``exact_best`` question.
    """
    wanted = tuple(kinds) if kinds is not None else FREE_KINDS
    if not wanted:
        return None
    if search.game.is_terminal(search.root_state):
        return None
    context = AskContext(search, tuple(names), counter, depth, progress or Progress(), arena, exact)
    start = counter % len(wanted)
    for i in range(len(wanted)):
        kind = wanted[(start + i) % len(wanted)]
        if kind not in QUIZ_KINDS:
            continue
        question = QUIZ_KINDS[kind].ask(context)
        if question is not None:
            return question
    return None


def settle(
    question: Question,
    search: Search,
    names: Sequence[str],
    *,
    answer: str | None,
    trace: IterationTrace | None,
    arena_result: ArenaResult | None = None,
) -> Reveal | None:
    """Grade ``question`` if its moment has come, else ``None`` (still open).

    Args:
        question: the open question.
        search: the live search (the same one the question was asked on: the caller checks).
        names: the players' names.
        answer: the student's pick (``None``: none).
        trace: the newest history entry's trace (the iteration just finished, if any).
        arena_result: the session's last arena result (the arena question).
    """
    if search.game.format_state(search.root_state) != question.root:
        return dropped(question, answer, M(N_("a move was played, so the tree has a new root")))
    if search.iterations < question.iteration:
        return dropped(question, answer, M(N_("the tree was rebuilt")))
    if question.trigger == "arena":
        if id(arena_result) == question.data["result_id"] or arena_result is None:
            return None
    elif search.iterations == question.iteration:
        return None  # the click has not come yet (or the iteration is half done)
    elif question.trigger == "iteration":
        target = question.iteration + 1
        if search.iterations != target or trace is None or trace.iteration != target:
            ran = search.iterations - question.iteration
            reason = P(
                "{n} iteration ran at once (Step N), and the question was about one",
                "{n} iterations ran at once (Step N), and the question was about one",
                ran,
                n=count(ran),
            )
            return dropped(question, answer, reason)
    kind = QUIZ_KINDS[question.kind]
    context = GradeContext(question, search, tuple(names), answer, trace, arena_result)
    reveal = kind.grade(context)
    if reveal.verdict == "dropped":
        return reveal
    reveal = replace(reveal, why=kind.why)
    return replace(reveal, misconceptions=classify(context, reveal))


def same_search(state: QuizState, search: Search) -> bool:
    """True when the open question was asked on this very search object."""
    ref = state.search_ref
    return ref is not None and ref() is search


def remember_search(state: QuizState, search: Search) -> None:
    """Remember the search the open question is asked on (weakly: a new search forgets it)."""
    state.search_ref = weakref.ref(search)
