"""The quiz's records: a question, its reveal, the session's score, and the record of one kind
of question (:class:`QuizKind`) with what its ``ask`` and ``grade`` receive.

Pure Python (no Streamlit). A kind lives in its own module under ``app/quiz/kinds/``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from weakref import ReferenceType

from app.quiz.words import M, QuestionFacts, RevealFacts, Spec, english, render
from app.words import i18n
from app.words.game_words import shown
from app.words.i18n import N_, _, n_
from mcts_core import Evaluation, Expansion, IterationTrace, Search
from mcts_core.game import Action
from mcts_core.trace import PathStep
from mcts_lab.arena import ArenaResult

__all__ = [
    "ArenaSetup",
    "AskContext",
    "ClassCounts",
    "GradeContext",
    "Progress",
    "Question",
    "QuizKind",
    "QuizState",
    "Reveal",
    "Trigger",
    "Verdict",
    "choice_words",
    "dropped",
    "question_words",
    "rows_words",
    "summary_words",
    "verdict",
]

Trigger = Literal["iteration", "click", "arena"]
Verdict = Literal["right", "wrong", "unanswered", "dropped"]


@dataclass(frozen=True)
class ClassCounts:
    """A class's answers to one revealed question, for the teacher's reveal table.

    Attributes:
        rounds: the rounds' numbers, first first (``(1,)``, or ``(1, 2)`` after Vote again).
        counts: per answer (the question's options), how many chose it in each round, in the
            order of ``rounds``.
    """

    rounds: tuple[int, ...]
    counts: dict[str, tuple[int, ...]]

    def fit(self, reveal: Reveal) -> bool:
        """Whether these counts go in ``reveal``'s table: every answer the class could give is
        a row of it (the moves of a selection question); otherwise they are drawn as bars of
        their own."""
        if not reveal.rows or reveal.verdict == "dropped" or not self.counts:
            return False
        labels = {row[0] for row in reveal.rows[1:]}
        return all(choice in labels for choice in self.counts)

    def right(self, correct: Sequence[str]) -> tuple[int, int]:
        """(how many chose a right answer, how many answered) in the last round."""
        last = [n[-1] for n in self.counts.values()]
        return sum(self.counts[c][-1] for c in correct if c in self.counts), sum(last)


@dataclass(frozen=True)
class Question:
    """One question, asked about the search as it was at ``iteration``.

    Attributes:
        kind: one of ``app.quiz.KINDS``.
        text: the question, plain text in English (kept for what compares or files it; a
            screen shows :meth:`words`, made from ``facts`` in the current language).
        options: the answers to pick from (labels, unique): stable values in English (a move's
            label, "Good for X"); a screen shows :meth:`option_words` of each.
        iteration: the search's iteration count when asked.
        phase: the search's next phase when asked: the answer locks once it moves on.
        trigger: "iteration" (graded by the trace of iteration ``iteration + 1``), "click" (by
            the tree after the next click that grows it) or "arena" (by the next arena run).
        root: the root position when asked (a move played makes the question void).
        data: what grading needs (node ids, the favourite, probabilities, ...).
        facts: the words' facts (JSON-friendly, :mod:`app.quiz.words`): ``"text"``, the
            question's spec, and ``"choices"``, one spec per option (in the options' order).
    """

    kind: str
    text: str
    options: tuple[str, ...]
    iteration: int
    phase: str
    trigger: Trigger
    root: str
    data: dict[str, Any] = field(default_factory=dict, compare=False)
    facts: QuestionFacts = field(default_factory=lambda: QuestionFacts(), compare=False)

    def words(self) -> str:
        """The question in the current language (from its facts; a record without them: its
        text)."""
        return question_words(self.facts, self.text)

    def option_words(self, option: str) -> str:
        """How ``option`` (one of :attr:`options`, a stable value) reads in the current
        language."""
        return choice_words(self.facts, self.options, option)


def question_words(facts: Mapping[str, object] | None, text: str = "") -> str:
    """A question's words in the current language from its facts (``Question.facts``, as a
    class's store may keep them); ``text`` when there are none."""
    spec = (facts or {}).get("text")
    return text if spec is None else render(spec)


def choice_words(facts: Mapping[str, object] | None, options: Sequence[str], option: str) -> str:
    """How ``option`` reads in the current language: the spec at its place among ``options`` in
    ``facts["choices"]``, or the option itself (a move's label, an unknown value)."""
    choices = (facts or {}).get("choices")
    if not isinstance(choices, Sequence) or not choices:
        return shown(option)
    try:
        spec = choices[list(options).index(option)]
    except (ValueError, IndexError):
        return shown(option)
    return render(spec)


@dataclass(frozen=True)
class Reveal:
    """A graded question.

    Attributes:
        question: what was asked.
        answer: the student's answer (``None``: not answered).
        correct: the right option(s).
        verdict: "right", "wrong", "unanswered" or "dropped" (the question no longer applied:
            ``summary`` says why; it does not count).
        summary: what happened, with the numbers that decided it (one or two sentences).
        why: the explanation for a student who knows only what MCTS is (the kind's
            :attr:`QuizKind.why`, filled in by ``app.quiz.settle``; empty when dropped).
        rows: a small table of the deciding numbers: a header row, then one row per item.
        marked: the index of the row to highlight (the move taken, ...), or ``None``.
        misconceptions: (option, misconception id) for each wrong option that shows a known
            mistake (``app.quiz.misconceptions``, filled in by ``app.quiz.settle``).
        facts: the words' facts (JSON-friendly, :mod:`app.quiz.words`): ``"summary"``, a spec,
            and ``"rows"``, the table with a spec per cell. ``summary`` and ``rows`` are their
            English text; a screen shows :meth:`summary_words` and :meth:`rows_words`.
    """

    question: Question
    answer: str | None
    correct: tuple[str, ...]
    verdict: Verdict
    summary: str
    why: str = ""
    rows: tuple[tuple[str, ...], ...] = ()
    marked: int | None = None
    misconceptions: tuple[tuple[str, str], ...] = ()
    facts: RevealFacts = field(default_factory=lambda: RevealFacts(), compare=False)

    def summary_words(self) -> str:
        """What happened, in the current language."""
        return summary_words(self.facts, self.summary)

    def rows_words(self) -> tuple[tuple[str, ...], ...]:
        """The table of deciding numbers in the current language (same shape as ``rows``)."""
        return rows_words(self.facts, self.rows)

    def why_words(self) -> str:
        """The explanation in the current language (``why`` is its English message)."""
        return _(self.why) if self.why else ""

    def misconception_of(self, option: str | None) -> str | None:
        """The id of the misconception choosing ``option`` shows (``None``: none, or right)."""
        return next((m for o, m in self.misconceptions if o == option), None)


def summary_words(facts: Mapping[str, object] | None, summary: str = "") -> str:
    """A reveal's summary in the current language from its facts (``Reveal.facts``, as a
    class's store may keep them); ``summary`` when there are none."""
    spec = (facts or {}).get("summary")
    return summary if spec is None else render(spec)


def rows_words(
    facts: Mapping[str, object] | None, rows: tuple[tuple[str, ...], ...] = ()
) -> tuple[tuple[str, ...], ...]:
    """A reveal's table in the current language from its facts; ``rows`` when there are
    none."""
    specs = (facts or {}).get("rows")
    if specs is None:
        return rows
    if not isinstance(specs, Iterable):  # (a store's record of another version)
        raise TypeError(specs)
    return tuple(tuple(render(cell) for cell in row) for row in specs)


@dataclass
class QuizState:
    """The quiz of one session: the open question, the last reveal and the score."""

    pending: Question | None = None
    reveal: Reveal | None = None
    right: int = 0
    answered: int = 0
    unanswered: int = 0
    counter: int = 0  # questions asked: free mode takes turns with the kinds by it
    kinds: tuple[str, ...] | None = None  # a lesson page's kinds (None: free mode)
    depth: int | None = None  # a lesson page's selection depth
    search_ref: ReferenceType[Search] | None = None  # the Search the pending question was asked on

    def record(self, reveal: Reveal) -> None:
        """Count a graded question and keep it as the last reveal."""
        self.reveal = reveal
        self.pending = None
        if reveal.verdict == "right":
            self.right += 1
            self.answered += 1
        elif reveal.verdict == "wrong":
            self.answered += 1
        elif reveal.verdict == "unanswered":
            self.unanswered += 1

    @property
    def score_text(self) -> str:
        """The score in the current language ("Score 2 of 3 (1 not answered)")."""
        right, answered = i18n.decimal(self.right), i18n.decimal(self.answered)
        if self.unanswered:
            return n_(
                "Score {right} of {answered} ({count} not answered)",
                "Score {right} of {answered} ({count} not answered)",
                self.unanswered,
                right=right,
                answered=answered,
                count=i18n.decimal(self.unanswered),
            )
        return _("Score {right} of {answered}", right=right, answered=answered)


@dataclass(frozen=True)
class Progress:
    """The half-done iteration's phases so far (from the history): what a question asked in
    the middle of an iteration may build on."""

    path: tuple[PathStep, ...] | None = None
    expansion: Expansion | None = None
    evaluation: Evaluation | None = None


@dataclass(frozen=True)
class ArenaSetup:
    """The arena as it would run now, and the last result (any object; a new object is a new
    run)."""

    games: int
    iterations: int
    opponent: str
    expansion: str
    result: ArenaResult | None = None


@dataclass(frozen=True)
class AskContext:
    """What a kind's ``ask`` reads: the live search and the moment it is asked in.

    Attributes:
        search: the live search.
        names: the players' names.
        counter: questions asked so far (free mode takes turns by it).
        depth: the selection question's depth (``None``: free mode picks).
        progress: the half-done iteration's phases so far.
        arena: the arena's settings and last result (``None``: no arena question).
        exact: returns the root's exact values (or ``None``: not known in time).
    """

    search: Search
    names: tuple[str, ...]
    counter: int
    depth: int | None
    progress: Progress
    arena: ArenaSetup | None
    exact: Callable[[], dict[Action, float | None] | None] | None

    @property
    def at_select(self) -> bool:
        """True when the next click starts an iteration (selection comes next)."""
        return str(self.search.next_phase) == "select"

    def question(self, kind: str, text: Spec, options: Sequence[Spec], trigger: Trigger,
                 **data: Any) -> Question | None:  # fmt: skip
        """The question, or ``None`` when fewer than two different answers are left.

        ``text`` and each of ``options`` are specs (:mod:`app.quiz.words`; a move's label is a
        plain string): the record keeps them as its facts and their English as its text and
        option values."""
        choices: dict[str, Spec] = {}
        for spec in options:
            choices.setdefault(english(spec), spec)
        unique = tuple(choices)
        if len(unique) < 2:
            return None  # nothing to choose: not a question
        search = self.search
        return Question(
            kind=kind,
            text=english(text),
            options=unique,
            iteration=search.iterations,
            phase=str(search.next_phase),
            trigger=trigger,
            root=search.game.format_state(search.root_state),
            data=data,
            facts=QuestionFacts(text=text, choices=list(choices.values())),
        )


@dataclass(frozen=True)
class GradeContext:
    """What a kind's ``grade`` reads once the question's moment has come.

    Attributes:
        question: the open question.
        search: the live search (the one it was asked on).
        names: the players' names.
        answer: the student's pick (``None``: none).
        trace: the newest history entry's trace (for an "iteration" question: the trace of
            the iteration it asked about).
        arena_result: the session's last arena result (the arena question).
    """

    question: Question
    search: Search
    names: tuple[str, ...]
    answer: str | None
    trace: IterationTrace | None
    arena_result: ArenaResult | None = None

    def reveal(
        self,
        correct: Sequence[str],
        summary: Spec,
        rows: Sequence[Sequence[Spec]] = (),
        marked: int | None = None,
    ) -> Reveal:
        """The reveal of a graded answer: right, wrong or unanswered by ``correct`` (option
        values). ``summary`` and each cell of ``rows`` are specs (:mod:`app.quiz.words`)."""
        right = tuple(correct)
        facts = RevealFacts(summary=summary, rows=[list(row) for row in rows])
        table = tuple(tuple(english(cell) for cell in row) for row in rows)
        return Reveal(self.question, self.answer, right, verdict(self.answer, right),
                      english(summary), "", table, marked, facts=facts)  # fmt: skip

    def dropped(self, reason: Spec) -> Reveal:
        """The question no longer applies, for ``reason``."""
        return dropped(self.question, self.answer, reason)


def verdict(answer: str | None, correct: Sequence[str]) -> Verdict:
    """Right when ``answer`` is among ``correct``; unanswered when there is none."""
    if answer is None:
        return "unanswered"
    return "right" if answer in correct else "wrong"


def dropped(question: Question, answer: str | None, reason: Spec) -> Reveal:
    """A reveal that does not count: the question no longer applies, for ``reason`` (a spec,
    :mod:`app.quiz.words`)."""
    summary = M(N_("That question no longer applies: {reason}."), reason=reason)
    facts = RevealFacts(summary=summary)
    return Reveal(question, answer, (), "dropped", english(summary), facts=facts)


@dataclass(frozen=True)
class QuizKind:
    """One kind of question: a new kind is one module under ``app/quiz/kinds/`` with its
    record, listed in ``app.quiz.kinds.QUIZ_KINDS``.

    Attributes:
        name: what lesson files call it (``questions = [...]``).
        why: the paragraph shown with the answer: why MCTS does what the question asked about
            (an ``N_``-marked English message: shown as ``_(why)``).
        wait_hint: what a lesson page's question waits for when it cannot be asked yet (the
            same: ``_(wait_hint)``).
        ask: the question now, or ``None`` when none fits the search.
        grade: the answer once its moment has come (``app.quiz.settle`` decides when).
    """

    name: str
    why: str
    wait_hint: str
    ask: Callable[[AskContext], Question | None]
    grade: Callable[[GradeContext], Reveal]
