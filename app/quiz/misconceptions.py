"""Misconceptions: what a wrong answer to a quiz question reveals, for every kind in one place.

:data:`MISCONCEPTIONS` names each mistake a student makes about MCTS that a wrong answer can
show (its name, a short explanation, and the lesson page about it); :data:`DETECTORS` holds, per
quiz kind, a function that looks at one wrong option of a graded question and says which
misconception choosing it shows, or ``None``. A wrong answer is attributed only when the
question's own facts make it that mistake: the ``select`` question's wrong move is "the
exploration bonus ignored" only when it is the move with the highest Q and the move taken has a
lower Q (the bonus decided); a guess that matches no mistake is no misconception. Pure Python
(no Streamlit): :func:`classify` runs after the grading (``app.quiz.settle``) and the reveal
carries the result for every wrong option (the class's poll keeps it with the question).

The lesson pages are named by lesson (the file's name in ``lessons/``) and page number (1-based:
``?lesson=NAME&page=N`` opens it); tests/app/quiz/test_misconceptions.py checks that each
exists with the titles written here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.quiz.kinds import dice_count, new_value
from app.quiz.reading import favourite
from app.quiz.records import GradeContext, Reveal
from app.quiz.words import M, english, plain
from app.words.i18n import N_, _
from app.words.phrases import fmt
from mcts_core import ChanceNode
from mcts_core.nodes import ActionNode

__all__ = [
    "DETECTORS",
    "MISCONCEPTIONS",
    "LessonPointer",
    "Misconception",
    "Detector",
    "classify",
]

#: Two values closer than this are equal (the tree's numbers are floats).
EPS = 1e-9


@dataclass(frozen=True)
class LessonPointer:
    """A lesson page: ``lesson`` is the lesson's name (its file in ``lessons/`` without
    ``.toml``), ``page`` the page's number (1-based), ``lesson_title`` and ``page_title`` as
    the file writes them (for the words; a test checks them against the file)."""

    lesson: str
    page: int
    lesson_title: str
    page_title: str

    @property
    def query(self) -> str:
        """The link's query that opens the page: ``?lesson=NAME&page=N``."""
        return f"?lesson={self.lesson}&page={self.page}"

    @property
    def words(self) -> str:
        """The page in words, in the current language: "3. Whose view? Values and sign flips,
        page 1" (the lesson's title is an ``N_``-marked message)."""
        # TRANSLATORS: a lesson page named in words: "3. Whose view? Values and sign flips, page 1"
        return _("{lesson}, page {page}", lesson=_(self.lesson_title), page=self.page)


@dataclass(frozen=True)
class Misconception:
    """One mistake about MCTS a wrong answer can show.

    Attributes:
        id: the stable id (kept with a class's answers in the store; never renamed).
        name_message: the mistake in a few words, as a student would think it (an
            ``N_``-marked English message; :attr:`name` is it in the current language).
        explanation_message: what is true instead, in one or two sentences (the same:
            :attr:`explanation`).
        pointer: the lesson page about it.
    """

    id: str
    name_message: str
    explanation_message: str
    pointer: LessonPointer

    @property
    def name(self) -> str:
        """The mistake in a few words, in the current language (read it where it is shown)."""
        return _(self.name_message)

    @property
    def explanation(self) -> str:
        """What is true instead, in the current language (read it where it is shown)."""
        return _(self.explanation_message)


# The lessons' titles as their files write them (a test checks them), and their pages' titles.
# TRANSLATORS: a lesson's title: as the lesson's translated file writes it
_PHASES = N_("1. The four phases")
# TRANSLATORS: a lesson's title: as the lesson's translated file writes it
_VIEW = N_("3. Whose view? Values and sign flips")
# TRANSLATORS: a lesson's title: as the lesson's translated file writes it
_CHANCE = N_("4. Chance nodes: dice")
# TRANSLATORS: a lesson's title: as the lesson's translated file writes it
_TRAPS = N_("5. Where MCTS goes wrong: a trap")
# TRANSLATORS: a lesson's title: as the lesson's translated file writes it
_ORDER = N_("6. Expansion order and the home/away asymmetry")

#: Every misconception by id, in the order a summary lists them when counts tie.
MISCONCEPTIONS: dict[str, Misconception] = {
    m.id: m
    for m in (
        Misconception(
            "bonus_ignored",
            N_("the exploration bonus ignored"),
            N_(
                "Selection takes the largest Q + bonus, not the largest Q: a move tried rarely "
                "gets a large bonus and can win with a lower Q."
            ),
            LessonPointer("phases", 2, _PHASES, "Selection: Q plus a bonus"),
        ),
        Misconception(
            "most_visited_highest_q",
            N_("the most visited move has the highest Q"),
            N_(
                "Visits follow Q + bonus, so the most visited move (the favourite) need not have "
                "the highest Q: a move with few visits can have a higher Q, and the favourite does "
                "not change for it at once."
            ),
            LessonPointer("phases", 4, _PHASES, "Many iterations"),
        ),
        Misconception(
            "forgot_sign_flip",
            N_("forgot the sign flip between players"),
            N_(
                "One result is + for one player and - for the other: each node counts it from the "
                "view of the player who chose the move into it."
            ),
            LessonPointer("whose_view", 1, _VIEW, "One result, two views"),
        ),
        Misconception(
            "opponent_view",
            N_("the opponent chooses what is best for you"),
            N_(
                "At the opponent's node the Q values are from the opponent's view, and selection "
                "takes what looks best for the opponent: the worst for you."
            ),
            LessonPointer("whose_view", 2, _VIEW, "O chooses for O"),
        ),
        Misconception(
            "chance_best_outcome",
            N_("a chance node takes the best outcome, not the average"),
            N_(
                "Nobody chooses the dice: a chance node draws each outcome with its exact "
                "probability, and the move is worth the average over its outcomes, failures too."
            ),
            LessonPointer("chance", 1, _CHANCE, "A move with dice"),
        ),
        Misconception(
            "equal_odds",
            N_("every outcome of the dice is equally likely"),
            N_(
                "An outcome of probability p comes up about n x p times in n rolls, not n divided "
                "by the number of outcomes."
            ),
            LessonPointer("chance", 2, _CHANCE, "Odds against what was drawn"),
        ),
        Misconception(
            "likeliest_always",
            N_("the likeliest outcome comes up every time"),
            N_("The likeliest outcome is drawn most often, not always: about n x p of n rolls."),
            LessonPointer("chance", 2, _CHANCE, "Odds against what was drawn"),
        ),
        Misconception(
            "expand_best_first",
            N_("the expansion adds the most promising move first"),
            N_(
                "The expansion order decides which untried move is added: 'listed' takes the "
                "game's own order and 'random' a shuffled one; only 'heuristic' tries the most "
                "promising first."
            ),
            LessonPointer("expansion_order", 1, _ORDER, "Which move is tried first?"),
        ),
        Misconception(
            "favourite_is_best",
            N_("the search's favourite is always a best move"),
            N_(
                "With few iterations random games can miss the one reply that refutes a move, so "
                "the favourite can be a losing move; more iterations or the solver set it right."
            ),
            LessonPointer("traps", 1, _TRAPS, "A trap for O"),
        ),
    )
}

#: A kind's detector: the graded question (its facts through the grade's context), its reveal,
#: and one wrong option; returns the id of the misconception choosing it shows, or ``None``.
Detector = Callable[[GradeContext, Reveal, str], str | None]


def classify(g: GradeContext, reveal: Reveal) -> tuple[tuple[str, str], ...]:
    """(option, misconception id) for every wrong option of a graded question that shows one,
    in the options' order; ``()`` for a dropped or ungraded question or a kind without a
    detector."""
    detector = DETECTORS.get(reveal.question.kind)
    if detector is None or reveal.verdict == "dropped" or not reveal.correct:
        return ()
    found = []
    for option in reveal.question.options:
        if option in reveal.correct:
            continue
        mistake = detector(g, reveal, option)
        if mistake is not None:
            assert mistake in MISCONCEPTIONS, mistake
            found.append((option, mistake))
    return tuple(found)


# ------------------------------------------------------------------------ the detectors


def _select(g: GradeContext, reveal: Reveal, option: str) -> str | None:
    """The move with the highest Q when the bonus decided; the move of the lowest Q at the
    opponent's node (read from the wrong view); the most visited move."""
    trace = g.trace
    if trace is None:
        return None
    node_id = g.question.data["node_id"]
    decision = next((d for d in trace.decisions if d.node_id == node_id), None)
    if decision is None or decision.rule == "min_visits":
        return None  # (the minimum-visits rule decided, not Q and the bonus)
    chosen = decision.chosen_terms
    mine = next((t for t in decision.children if t.label == option), None)
    if mine is None or chosen.proven or mine.proven:
        return None  # (the solver's proofs decide)
    qs = [t.q for t in decision.children]
    if mine.q >= max(qs) - EPS and mine.q > chosen.q + EPS:
        return "bonus_ignored"  # the highest Q, and the move taken had a lower Q
    if (
        decision.player != trace.decisions[0].player
        and mine.q <= min(qs) + EPS
        and min(qs) < max(qs) - EPS
    ):
        return "opponent_view"  # the best for the root's player is the worst for the chooser
    most = max(t.visits for t in decision.children)
    if mine.visits == most and mine.visits > chosen.visits:
        return "most_visited_highest_q"
    return None


def _favourite(g: GradeContext, reveal: Reveal, option: str) -> str | None:
    """ "Yes, another move" when the favourite stayed while another move has a higher Q."""
    if option != g.question.options[-1]:
        return None
    fav = favourite(g.search)
    if fav is None:
        return None
    children = g.search.children_summary()
    fav_q = next((c.q for c in children if c.action == fav[0]), None)
    if fav_q is None:
        return None
    if any(c.visits and c.q > fav_q + EPS for c in children if c.action != fav[0]):
        return "most_visited_highest_q"
    return None


def _exact_best(g: GradeContext, reveal: Reveal, option: str) -> str | None:
    """ "Yes, a best move" when the favourite is worse than the best move."""
    return "favourite_is_best" if option == g.question.options[0] else None


def _backup(g: GradeContext, reveal: Reveal, option: str) -> str | None:
    """The other player's value: the sign flip forgotten."""
    trace = g.trace
    if trace is None:
        return None
    update = next((u for u in trace.updates if u.node_id == g.question.data["node_id"]), None)
    if update is None or update.view not in (0, 1):
        return None
    values = trace.evaluation.value
    other = fmt(values[1 - update.view])
    return "forgot_sign_flip" if option == other and other != fmt(update.added) else None


def _new_value(g: GradeContext, reveal: Reveal, option: str) -> str | None:
    """Good for the mover when a finished game was bad for them, or the other way round: the
    result read from the other player's view. Only when the new move ends the game (a result
    the board shows): one random game's result is noise, not a mistake to name."""
    trace = g.trace
    if trace is None or trace.evaluation.kind not in ("terminal", "proven"):
        return None
    good, _even, bad = new_value.answers(g.names, int(g.question.data["player"]))
    sides = {english(good), english(bad)}
    return "forgot_sign_flip" if {option, reveal.correct[0]} == sides else None


def _dice(g: GradeContext, reveal: Reveal, option: str) -> str | None:
    """The outcome best for the player whose move it is (by the tree's values of the outcomes
    drawn) when it is not the likeliest."""
    chance = g.search.find_node(int(g.question.data["node_id"]))
    if not isinstance(chance, ChanceNode):
        return None
    state = g.search.state_of(chance)
    game = g.search.game
    mover = chance.player
    means = {
        game.outcome_label(state, chance.action, child.outcome) or str(child.outcome): child.mean(
            mover
        )
        for child in chance.children
        if child.visits
    }
    if option not in means or len(means) < 2:
        return None
    best = max(means.values())
    beaten = all(means[option] > means[c] + EPS for c in reveal.correct if c in means)
    return "chance_best_outcome" if means[option] >= best - EPS and beaten else None


def _dice_count(g: GradeContext, reveal: Reveal, option: str) -> str | None:
    """n / (number of outcomes): every outcome as likely; n: the likeliest always."""
    chance = g.search.find_node(int(g.question.data["node_id"]))
    if not isinstance(chance, ChanceNode):
        return None
    n, p = int(g.question.data["rolls"]), float(g.question.data["probability"])
    even = round(n / chance.num_outcomes)
    if option == english(M(dice_count.ABOUT, n=plain(even))) and even != round(n * p):
        return "equal_odds"
    if option == english(M(dice_count.ABOUT, n=plain(n))):
        return "likeliest_always"
    return None


def _expand(g: GradeContext, reveal: Reveal, option: str) -> str | None:
    """The untried move the heuristic likes best (alone), when the order is not the
    heuristic's: the mover's expected heuristic right after each offered move."""
    search = g.search
    if search.config.expansion_order == "heuristic":
        return None
    node = search.find_node(int(g.question.data["node_id"]))
    if not isinstance(node, ActionNode) or node.player < 0:
        return None
    state = search.state_of(node)
    game = search.game
    offered = set(g.question.options)
    scores: dict[str, float] = {}
    for action in game.legal_actions(state):
        label = game.action_label(state, action)
        if label in offered:
            scores[label] = sum(
                p * game.heuristic(game.next_state(state, action, outcome))[node.player]
                for outcome, p in game.chance_outcomes(state, action)
            )
    if option not in scores:
        return None
    top = max(scores.values())
    alone = sum(1 for v in scores.values() if v >= top - EPS) == 1
    return "expand_best_first" if scores[option] >= top - EPS and alone else None


#: Per quiz kind, its detector (a kind without one names no misconception: ``arena``, whose
#: wrong answers are mostly luck with few games).
DETECTORS: dict[str, Detector] = {
    "select": _select,
    "favourite": _favourite,
    "exact_best": _exact_best,
    "backup": _backup,
    "new_value": _new_value,
    "dice": _dice,
    "dice_count": _dice_count,
    "expand": _expand,
}
