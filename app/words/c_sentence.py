"""The sentence on C: in words, the values of C at which a decision would change its choice
(the sensitivity of the choice to the C slider; the arithmetic is :mod:`app.words.c_sensitivity`).
Pure; plain text."""

from __future__ import annotations

from app.words.c_sensitivity import CFlip, exploration_coefficients, flip_points, same_c
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
        return _flip_clause(subject, first=True) + "."
    if policy is None or c is None:
        raise TypeError("flip_sentence(decision, policy, c): give the policy and C")
    decision = subject
    t = decision.chosen_terms
    if decision.rule == "min_visits":
        return "C did not matter here: the minimum-visits rule took the least visited move."
    if decision.rule == "solver":
        return "C did not matter here: a proven result decided."
    if len(decision.children) < 2:
        return f"{t.label} is the only move here, so no value of C changes the choice."
    flips = sorted(
        flip_points(decision, policy, c),
        key=lambda f: (abs(f.c_flip - c), f.direction != "raise"),
    )
    if not flips:
        if exploration_coefficients(decision, policy) is None:
            return "No value of C can be worked out for this choice."
        return (
            f"No value of C changes this choice: {t.label} has the best Q and no other move "
            "has a bigger bonus."
        )
    return "; ".join(_flip_clause(f, first=i == 0) for i, f in enumerate(flips)) + "."


def _flip_clause(f: CFlip, *, first: bool) -> str:
    c = f.current_c
    now = same_c(f.c_flip, c)
    if f.direction == "raise":
        verb = "Raise C" if first else "raise it"
        where = f"even slightly above {c:.2f}" if now else f"above {c_text(f.c_flip, c)}"
    elif f.c_flip == 0.0:
        verb, where = ("Set C to 0" if first else "set it to 0"), ""
    else:
        verb = "Lower C" if first else "lower it"
        where = f"even slightly below {c:.2f}" if now else f"below {c_text(f.c_flip, c)}"
    action = f"{verb} {where}".strip()
    return f"{action} and {f.runner_up_label} " + ("would be chosen instead" if first else "would")
