"""The sentence on C: in words, the values of C at which a decision would change its choice
(the sensitivity of the choice to the C slider; the arithmetic is :mod:`app.words.c_sensitivity`).
Pure; plain text, in the current language (every sentence through :func:`app.words.i18n._`,
numbers with the language's symbols)."""

from __future__ import annotations

from app.words.c_sensitivity import CFlip, exploration_coefficients, flip_points, same_c
from app.words.game_words import shown
from app.words.i18n import _, fixed, number_text
from app.words.phrases import c_text
from mcts_core.trace import Decision


def flip_sentence(
    subject: CFlip | Decision | None, policy: str | None = None, c: float | None = None
) -> str:
    """One plain sentence on how a choice depends on C.

    Given a :class:`CFlip` (from :func:`flip_c`): "Raise C above 2.31 and c3 would be chosen
    instead." Given a ``Decision`` with ``policy`` and ``c``: every flip, the nearest first
    ("Raise C above 2.31 and c3 would be chosen instead; lower it below 0.52 and a1 would."),
    or why no value of C changes the choice. ``None`` gives "".
    """
    if subject is None:
        return ""
    if isinstance(subject, CFlip):
        return _("{clause}.", clause=_flip_clause(subject, first=True))
    if policy is None or c is None:
        raise TypeError("flip_sentence(decision, policy, c): give the policy and C")
    decision = subject
    t = decision.chosen_terms
    if decision.rule == "min_visits":
        return _("C did not matter here: the minimum-visits rule took the least visited move.")
    if decision.rule == "solver":
        return _("C did not matter here: a proven result decided.")
    if len(decision.children) < 2:
        return _(
            "{move} is the only move here, so no value of C changes the choice.",
            move=shown(t.label),
        )
    flips = sorted(
        flip_points(decision, policy, c),
        key=lambda f: (abs(f.c_flip - c), f.direction != "raise"),
    )
    if not flips:
        if exploration_coefficients(decision, policy) is None:
            return _("No value of C can be worked out for this choice.")
        return _(
            "No value of C changes this choice: {move} has the best Q and no other move has a "
            "bigger bonus.",
            move=shown(t.label),
        )
    clauses = _flip_clause(flips[0], first=True)
    for f in flips[1:]:  # a list of clauses: the separator is the language's
        clauses = _("{clauses}; {clause}", clauses=clauses, clause=_flip_clause(f, first=False))
    return _("{clause}.", clause=clauses)


def _flip_clause(f: CFlip, *, first: bool) -> str:
    """One flip as a clause: the first of a sentence ("Raise C above 2.31 and c3 would be
    chosen instead") or a later one ("lower it below 0.52 and a1 would")."""
    c = f.current_c
    now = same_c(f.c_flip, c)
    move = shown(f.runner_up_label)  # a game's label in the page's language ("H1 actúa")
    here = fixed(c, 2)  # C now, two decimals
    there = number_text(c_text(f.c_flip, c))  # the flip's C, as many decimals as it needs
    if f.direction == "raise":
        if now:
            if first:
                return _(
                    "Raise C even slightly above {c} and {move} would be chosen instead",
                    c=here,
                    move=move,
                )
            return _("raise it even slightly above {c} and {move} would", c=here, move=move)
        if first:
            return _("Raise C above {c} and {move} would be chosen instead", c=there, move=move)
        return _("raise it above {c} and {move} would", c=there, move=move)
    if f.c_flip == 0.0:
        if first:
            return _("Set C to 0 and {move} would be chosen instead", move=move)
        return _("set it to 0 and {move} would", move=move)
    if now:
        if first:
            return _(
                "Lower C even slightly below {c} and {move} would be chosen instead",
                c=here,
                move=move,
            )
        return _("lower it even slightly below {c} and {move} would", c=here, move=move)
    if first:
        return _("Lower C below {c} and {move} would be chosen instead", c=there, move=move)
    return _("lower it below {c} and {move} would", c=there, move=move)
