"""The exact answer beside Q: what perfect play says about the root's moves, in words.

Pure Python (no Streamlit): :class:`ExactAnswer` holds every legal root move's game-theoretic
value (:func:`mcts_lab.exact.exact_values`, from the view of the player to move at the root)
and says it as the app shows it: "win", "draw", "loss" (a number where dice decide: the
expected value), "?" where the time budget ran out first. :func:`verdict` is the sentence the
screen adds under the narration when the search's favourite is worse than a best move;
:func:`regret_points` and :func:`kept_sentence` are the charts' regret line and its summary.

The app computes an answer once per root position, and only while the ``exact`` toggle is on
and a view that shows it is drawn (``app.live.exact_cache.exact_answer``, cached in the session).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from app.words.i18n import N_, _, decimal, n_, number_text
from app.words.phrases import comma_list
from games.base import AnyGame
from mcts_core.game import Action
from mcts_lab import exact as minimax

__all__ = [
    "EXACT_SECONDS",
    "ExactAnswer",
    "solve",
    "verdict",
    "regret_points",
    "kept_sentence",
    "number",
]

#: The time budget for one root position's exact values (the CLI's ``--exact-seconds``
#: default). Tests lower it.
EXACT_SECONDS = 2.0

_TOLERANCE = minimax.VALUE_TOLERANCE
_WORDS = {1.0: "win", 0.0: "draw", -1.0: "loss"}
#: The exact value in one word, as the table and the board show it.
_SHOWN = {"win": N_("win"), "draw": N_("draw"), "loss": N_("loss")}
_LISTED = 3  # best moves named in a sentence; more are counted


@dataclass(frozen=True)
class ExactAnswer:
    """Every legal move's exact value at one root position.

    Attributes:
        values: ``{action: value}`` for every legal move at the root, in the game's order:
            the value a perfect player gets after playing it, from the view of the player to
            move at the root, in [-1, 1] (1 a win, 0 a draw, -1 a loss; the expected value
            where dice decide), or ``None`` where the budget ran out first.
        labels: ``{action: label}`` of the same moves.
        seconds: the budget the values were looked for within.
    """

    values: Mapping[Action, float | None]
    labels: Mapping[Action, str]
    seconds: float = EXACT_SECONDS

    @property
    def numeric(self) -> bool:
        """True when some value is not a plain win, draw or loss (dice decide): the values are
        then written as numbers."""
        return any(_word(v) is None for v in self.values.values() if v is not None)

    def text(self, action: Action) -> str:
        """The move's exact value as the app writes it: win / draw / loss, a signed number
        where dice decide (``+0.33``), ``?`` when not known."""
        value = self.values.get(action)
        if value is None:
            return "?"
        word = _word(value)
        if word is not None and not self.numeric:
            # TRANSLATORS: a move's exact value under perfect play (table cell, board: "= win")
            return _(_SHOWN[word])
        return number_text(f"{value:+.2f}")

    @property
    def best(self) -> float | None:
        """The best value any move gets, or ``None`` when not known."""
        return minimax.best_value(self.values)

    def is_best(self, action: Action) -> bool:
        """True when the move keeps the position's value (its regret is 0)."""
        return self.regret(action) == 0.0

    def regret(self, action: Action) -> float | None:
        """The best value minus this move's (>= 0), ``None`` when either is unknown."""
        return minimax.regret(self.values, action)

    def wrong(self, action: Action) -> bool:
        """True when perfect play says the move is worse than a best move."""
        regret = self.regret(action)
        return regret is not None and regret > 0

    @property
    def unknown(self) -> int:
        """How many moves have no value (the budget ran out before they were solved)."""
        return sum(v is None for v in self.values.values())

    def budget_note(self) -> str | None:
        """One sentence when some values are unknown, ``None`` when all are known."""
        if not self.unknown:
            return None
        return n_(
            "The exact value of {n} of {total} moves is unknown (?): the {seconds} s budget "
            "ran out before perfect play was worked out. Later positions, with fewer moves left, "
            "solve faster.",
            "The exact values of {n} of {total} moves are unknown (?): the {seconds} s budget "
            "ran out before perfect play was worked out. Later positions, with fewer moves left, "
            "solve faster.",
            self.unknown,
            total=len(self.values),
            seconds=number_text(f"{self.seconds:g}"),
        )


def solve(
    game: AnyGame, state: object, labels: Mapping[Action, str], seconds: float
) -> ExactAnswer:
    """The exact answer at ``state`` within ``seconds`` (:func:`mcts_lab.exact.exact_values`)."""
    return ExactAnswer(minimax.exact_values(game, state, seconds), dict(labels), seconds)


def number(value: float) -> str:
    """A regret or value difference: a whole number as one (``1``, ``2``), else two decimals
    (the current language's symbols)."""
    return number_text(f"{value:.0f}" if abs(value - round(value)) < 1e-9 else f"{value:.2f}")


def _word(value: float) -> str | None:
    for exact, word in _WORDS.items():
        if abs(value - exact) < _TOLERANCE:
            return word
    return None


def verdict(answer: ExactAnswer, favourite: Action) -> str | None:
    """The sentence for a wrong favourite, e.g. "The exact answer: col 4 wins; the search's
    favourite col 3 only draws (regret 1)." ``None`` when the favourite is a best move or its
    regret is not known."""
    if favourite is None or not answer.wrong(favourite):
        return None
    best = answer.best
    mine = answer.values.get(favourite)
    regret = answer.regret(favourite)
    assert best is not None and mine is not None and regret is not None
    moves = [answer.labels.get(a, str(a)) for a in answer.values if answer.is_best(a)]
    named = moves[:_LISTED]
    if len(moves) > _LISTED:
        named.append(n_("{n} more", "{n} more", len(moves) - _LISTED))
    if len(named) == 1:
        who = named[0]
    else:
        # TRANSLATORS: the last of a list of moves: "a1, b2 and c3"
        who = _("{moves} and {move}", moves=comma_list(named[:-1]), move=named[-1])
    many = len(moves)
    best_word = None if answer.numeric else _word(best)
    if best_word == "win":
        does = n_("{moves} wins", "{moves} win", many, moves=who)
    elif best_word == "draw":
        does = n_("{moves} draws", "{moves} draw", many, moves=who)
    elif best_word == "loss":
        does = n_("{moves} loses", "{moves} lose", many, moves=who)
    else:
        does = n_(
            "{moves} is worth {value}", "{moves} are worth {value}", many,
            moves=who, value=number_text(f"{best:+.2f}"),
        )  # fmt: skip
    word = _word(mine)
    label = answer.labels.get(favourite, str(favourite))
    if word is None or answer.numeric:
        worse = _(
            "the search's favourite {move} only {value}",
            move=label, value=number_text(f"{mine:+.2f}"),
        )  # fmt: skip
    elif word == "draw":
        worse = _("the search's favourite {move} only draws", move=label)
    else:
        worse = _("the search's favourite {move} loses", move=label)
    return _(
        "The exact answer: {best}; {favourite} (regret {regret}).",
        best=does, favourite=worse, regret=number(regret),
    )  # fmt: skip


def regret_points(
    series: Sequence[Mapping[str, Any]], answer: ExactAnswer
) -> list[tuple[int, float | None]]:
    """(iteration, regret of the favourite then) for every chart point: the best exact value
    minus that of the move the search would have played (``None`` where unknown). A point
    records its favourite as ``best_action`` (:func:`app.drawing.figures.series_point`)."""
    return [
        (int(point["iteration"]), answer.regret(point.get("best_action")))
        for point in series
        if point.get("best_action") is not None
    ]


def kept_sentence(points: Sequence[tuple[int, float | None]]) -> str:
    """When the search first found a best move and from which iteration it kept one (the last
    time the regret went from above 0 to 0 and stayed there), in one sentence."""
    if not points:
        return _("No favourite yet: step a few times.")
    last_iteration, last = points[-1]
    if last is None:
        return _("The regret is not known: the favourite's exact value or the best one is missing.")
    if last > 0:
        return _(
            "At iteration {iteration} the favourite still gives away {regret}: the search has "
            "not settled on a best move yet.",
            iteration=decimal(last_iteration), regret=number(last),
        )  # fmt: skip
    first = next(i for i, r in points if r == 0.0)
    kept = points[0][0]
    for (_unused, before), (iteration, now) in zip(points, points[1:], strict=False):
        if now == 0.0 and before != 0.0:
            kept = iteration
    if kept == points[0][0]:
        return _(
            "The favourite was a best move at every point from iteration {iteration} on.",
            iteration=decimal(kept),
        )
    if first == kept:
        return _(
            "The search found a best move at iteration {iteration} and kept it from then on.",
            iteration=decimal(kept),
        )
    return _(
        "The search first found a best move at iteration {first}, lost it again, and kept one "
        "from iteration {kept} on.",
        first=decimal(first), kept=decimal(kept),
    )  # fmt: skip
