"""The sentence pieces every narration shares: numbers, players, results, a decision against its
runner-up, the dice drawn and the selection path (pure; plain text, never Markdown or HTML).

One way to write each number: a Q, bonus, score, margin or value signed with three decimals
(:func:`fmt`), a probability unsigned with three (:func:`prob`), a value of C with two, more
where two would read as the current C (:func:`c_text`).
"""

from __future__ import annotations

from collections.abc import Sequence

from mcts_core.trace import ChanceStep, ChildTerms, Decision, PathStep

#: The rules that take a move without the formula, as the narration names them.
RULE_NAMES = {"min_visits": "the minimum-visits rule", "solver": "the solver"}


# --------------------------------------------------------------------------- numbers


def fmt(x: float) -> str:
    """A Q, bonus, score, margin or value: signed, three decimals (``+0.333``, ``-1.000``).

    Values that round to zero are written ``+0.000`` (never ``-0.000``)."""
    if abs(x) < 0.0005:
        x = 0.0
    return f"{x:+.3f}"


def prob(p: float) -> str:
    return f"{p:.3f}"


def c_text(x: float, c: float) -> str:
    """A value of C with two decimals, or more where two would read as the current C."""
    for digits in (2, 3, 4, 6):
        text = f"{x:.{digits}f}"
        if text != f"{c:.{digits}f}":
            return text
    return f"{x:.6f}"


def plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def player_name(player_names: Sequence[str], player: int) -> str:
    if 0 <= player < len(player_names):
        return player_names[player]
    return f"player {player}"


def result_text(raw: Sequence[float], player_names: Sequence[str]) -> str:
    """A game result from per-player returns: "a win for X" or "a draw"."""
    if len(raw) >= 2 and raw[0] != raw[1]:
        return f"a win for {player_name(player_names, 0 if raw[0] > raw[1] else 1)}"
    return "a draw"


# ------------------------------------------------------------------- decisions


def runner_up(decision: Decision) -> int | None:
    """The best child other than the chosen one by the score the argmax compared (first max)."""
    best: int | None = None
    for i, t in enumerate(decision.children):
        if i != decision.chosen and (best is None or t.score > decision.children[best].score):
            best = i
    return best


def terms_text(t: ChildTerms, *, prior: bool = True) -> str:
    """A child's Q + bonus with the live numbers."""
    proven = f" (a proven {t.proven})" if t.proven else ""
    p = f" (prior {prob(t.prior)})" if prior and t.prior is not None else ""
    return f"Q {fmt(t.q)}{proven} plus bonus {fmt(t.bonus)}{p} = {fmt(t.score)}"


def decision_text(d: Decision, player_names: Sequence[str], detail: int = 0) -> str:
    """Which child the decision took and why, against the runner-up.

    ``detail`` 0 gives both children's Q, bonus (and prior); 2 gives the runner-up's total
    only; 3 drops the priors too."""
    who = player_name(player_names, d.player)
    t = d.chosen_terms
    if d.rule == "min_visits":
        return (
            f"{who} took {t.label} by the minimum-visits rule: it had the fewest visits "
            f"(n = {t.visits}), and every move needs T visits before the formula counts"
        )
    if d.rule == "solver":
        proven = f"a proven {t.proven} for {who}" if t.proven else "a proven result"
        return f"{who} took {t.label}: the solver decided, it is {proven}"
    r = runner_up(d)
    if r is None:
        return f"{who} took {t.label}, the only move there ({terms_text(t, prior=detail < 3)})"
    u = d.children[r]
    margin = t.score - u.score
    chosen = f"{who} took {t.label} ({terms_text(t, prior=detail < 3)})"
    other = (
        f"{u.label} ({terms_text(u, prior=detail < 2)})"
        if detail < 2
        else f"{u.label} ({fmt(u.score)})"
    )
    if margin == 0.0:
        return f"{chosen}, tied with {other}: the first listed wins a tie"
    by = "by less than 0.0005" if margin < 0.0005 else f"by {fmt(margin)}"
    return f"{chosen}, over runner-up {other} {by}"


def dice_text(steps: Sequence[ChanceStep], detail: int = 0) -> str:
    """Dice drawn on the way down (outcomes already in the tree)."""
    if len(steps) == 1 and detail < 1:
        s = steps[0]
        return (
            f"the dice drew {s.action_label}: {s.outcome_label} (probability {prob(s.probability)})"
        )
    return f"{plural(len(steps), 'dice roll')} on the way" if steps else ""


def path_text(
    path: Sequence[PathStep], player_names: Sequence[str], *, labels: bool, detail: int = 0
) -> str:
    """The selection path: the first real decision (the root's unless the root had a single
    move) against its runner-up, the rest summarised, and the dice drawn on the way.
    ``detail`` > 0 says less (see :func:`decision_text`; from 1 the dice are counted)."""
    decisions = [s for s in path if isinstance(s, Decision)]
    main = next(
        (i for i, d in enumerate(decisions) if len(d.children) > 1 or d.rule in RULE_NAMES), 0
    )
    where = next(i for i, s in enumerate(path) if s is decisions[main])
    drawn = [
        (i, s) for i, s in enumerate(path) if isinstance(s, ChanceStep) and s.child_id is not None
    ]
    parts: list[str] = []
    before = [s for i, s in drawn if i < where]
    after = [s for i, s in drawn if i > where]
    if detail >= 1:  # every die counted once, at the end
        after = before + after
        before = []
    if main:
        forced = decisions[:main]
        first = forced[0]
        if len(forced) > 1:
            text = f"{len(forced)} moves were forced"
        elif detail < 1:
            mover = player_name(player_names, first.player)
            text = f"{mover}'s only move was {first.chosen_terms.label}"
        else:
            text = f"after the forced {first.chosen_terms.label}"
        if before:
            text += " and " + dice_text(before, detail)
        decided = decision_text(decisions[main], player_names, detail)
        if detail < 1:
            parts.append(text)
            parts.append(f"at depth {main} {decided}")
        else:
            parts.append(f"{text}, at depth {main} {decided}")
    else:
        parts.append(decision_text(decisions[0], player_names, detail))
    rest = decisions[main + 1 :]
    if rest:
        text = f"then {plural(len(rest), 'more decision')} to depth {len(decisions)}"
        if labels and len(rest) <= 4:
            text += " (" + ", ".join(d.chosen_terms.label for d in rest) + ")"
        special = [d.rule for d in rest if d.rule in RULE_NAMES]
        for rule in sorted(set(special)):
            text += f", {special.count(rule)} by {RULE_NAMES[rule]}"
        parts.append(text)
    if after:
        dice = dice_text(after, detail)
        if detail >= 1 and parts:
            parts[-1] += ", with " + dice
        else:
            parts.append(dice)
    return "; ".join(parts)
