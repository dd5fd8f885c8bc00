"""The sentence pieces every narration shares: numbers, players, results, a decision against its
runner-up, the dice drawn and the selection path (pure; plain text, never Markdown or HTML).

One way to write each number: a Q, bonus, score, margin or value signed with three decimals
(:func:`fmt`), a probability unsigned with three (:func:`prob`), a value of C with two, more
where two would read as the current C (:func:`c_text`).
"""

from __future__ import annotations

from collections.abc import Sequence

from app.words.game_words import shown
from app.words.i18n import N_, _, n_, number_text
from mcts_core.trace import ChanceStep, ChildTerms, Decision, PathStep

#: The rules that take a move without the formula, as the narration names them.
RULE_NAMES = {"min_visits": N_("the minimum-visits rule"), "solver": N_("the solver")}

#: A proven result ("win", "draw", "loss": the core's words) as the narration says it.
PROVEN_RESULT = {
    "win": N_("a proven win"),
    "draw": N_("a proven draw"),
    "loss": N_("a proven loss"),
}
#: A result ("win", "draw", "loss") with its article: "the root is now proven, a win for X".
A_RESULT = {"win": N_("a win"), "draw": N_("a draw"), "loss": N_("a loss")}
#: A result in one word, as a table cell or a tooltip shows it ("proven: win").
RESULT_WORD = {"win": N_("win"), "draw": N_("draw"), "loss": N_("loss")}


def proven_text(result: str) -> str:
    """A proven result ("a proven win") in the current language (an unknown word passes through)."""
    return _(PROVEN_RESULT[result]) if result in PROVEN_RESULT else result


def a_result_text(result: str) -> str:
    """A result with its article ("a win"), translated (an unknown word passes through)."""
    return _(A_RESULT[result]) if result in A_RESULT else result


def result_word(result: str) -> str:
    """A result in one word ("win", "draw", "loss"), translated (others pass through)."""
    return _(RESULT_WORD[result]) if result in RESULT_WORD else result


# --------------------------------------------------------------------------- numbers


def mean_beside(q: float, mean: float, proven: bool) -> float | None:
    """The one rule for a proven move's numbers wherever a Q is shown (the tree, the board, the
    quiz's tables): its Q is its proven value, and the mean of its visits is shown beside it
    ("mean -0.24") when the two differ at two decimals. The mean to show, else ``None``
    (unproven, or no difference to show)."""
    if not proven or f"{mean:+.2f}" == f"{q:+.2f}":
        return None
    return mean


def fmt(x: float) -> str:
    """A Q, bonus, score, margin or value: signed, three decimals (``+0.333``, ``-1.000``),
    with the current language's symbols ("+0,333" in Spanish).

    Values that round to zero are written ``+0.000`` (never ``-0.000``)."""
    if abs(x) < 0.0005:
        x = 0.0
    return number_text(f"{x:+.3f}")


def prob(p: float) -> str:
    """A probability: unsigned, three decimals, the current language's symbols."""
    return number_text(f"{p:.3f}")


def c_text(x: float, c: float) -> str:
    """A value of C with two decimals, or more where two would read as the current C (ASCII:
    :func:`app.words.i18n.number_text` writes it the language's way)."""
    for digits in (2, 3, 4, 6):
        text = f"{x:.{digits}f}"
        if text != f"{c:.{digits}f}":
            return text
    return f"{x:.6f}"


def comma_list(items: Sequence[str]) -> str:
    """Items joined the language's way ("a1, b2, c3"): the separator is a message."""
    text = ""
    for i, item in enumerate(items):
        # TRANSLATORS: a list of items (move labels), one more added after a comma
        text = item if i == 0 else _("{items}, {item}", items=text, item=item)
    return text


def clauses_text(clauses: Sequence[str]) -> str:
    """Clauses of one sentence joined the language's way ("...; ...")."""
    text = ""
    for i, clause in enumerate(clauses):
        text = clause if i == 0 else _("{clauses}; {clause}", clauses=text, clause=clause)
    return text


def player_name(player_names: Sequence[str], player: int) -> str:
    if 0 <= player < len(player_names):
        return player_names[player]
    return _("player {n}", n=player)


def result_text(raw: Sequence[float], player_names: Sequence[str]) -> str:
    """A game result from per-player returns: "a win for X" or "a draw"."""
    if len(raw) >= 2 and raw[0] != raw[1]:
        winner = player_name(player_names, 0 if raw[0] > raw[1] else 1)
        return _("a win for {player}", player=winner)
    return _("a draw")


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
    q, bonus, score = fmt(t.q), fmt(t.bonus), fmt(t.score)
    with_prior = prior and t.prior is not None
    p = prob(t.prior) if t.prior is not None else ""
    if t.proven:
        proven = proven_text(t.proven)
        if with_prior:
            return _(
                "Q {q} ({proven}) plus bonus {bonus} (prior {prior}) = {score}",
                q=q, proven=proven, bonus=bonus, prior=p, score=score,
            )  # fmt: skip
        return _(
            "Q {q} ({proven}) plus bonus {bonus} = {score}",
            q=q, proven=proven, bonus=bonus, score=score,
        )  # fmt: skip
    if with_prior:
        return _(
            "Q {q} plus bonus {bonus} (prior {prior}) = {score}",
            q=q, bonus=bonus, prior=p, score=score,
        )  # fmt: skip
    return _("Q {q} plus bonus {bonus} = {score}", q=q, bonus=bonus, score=score)


def decision_text(d: Decision, player_names: Sequence[str], detail: int = 0) -> str:
    """Which child the decision took and why, against the runner-up.

    ``detail`` 0 gives both children's Q, bonus (and prior); 2 gives the runner-up's total
    only; 3 drops the priors too."""
    who = player_name(player_names, d.player)
    t = d.chosen_terms
    if d.rule == "min_visits":
        return _(
            "{player} took {move} by the minimum-visits rule: it had the fewest visits "
            "(n = {visits}), and every move needs T visits before the formula counts",
            player=who, move=shown(t.label), visits=t.visits,
        )  # fmt: skip
    if d.rule == "solver":
        if t.proven:
            return _(
                "{player} took {move}: the solver decided, it is {proven} for {player}",
                player=who, move=shown(t.label), proven=proven_text(t.proven),
            )  # fmt: skip
        return _(
            "{player} took {move}: the solver decided, it is a proven result",
            player=who, move=shown(t.label),
        )  # fmt: skip
    r = runner_up(d)
    if r is None:
        return _(
            "{player} took {move}, the only move there ({terms})",
            player=who, move=shown(t.label), terms=terms_text(t, prior=detail < 3),
        )  # fmt: skip
    u = d.children[r]
    margin = t.score - u.score
    chosen = _(
        "{player} took {move} ({terms})",
        player=who, move=shown(t.label), terms=terms_text(t, prior=detail < 3),
    )  # fmt: skip
    if detail < 2:
        # TRANSLATORS: a move and its terms: "c3 (Q +0.500 plus bonus +0.300 = +0.800)"
        other = _("{move} ({terms})", move=shown(u.label), terms=terms_text(u, prior=detail < 2))
    else:
        # TRANSLATORS: a move and its total: "c3 (+0.800)"
        other = _("{move} ({score})", move=shown(u.label), score=fmt(u.score))
    if margin == 0.0:
        return _(
            "{chosen}, tied with {other}: the first listed wins a tie", chosen=chosen, other=other
        )
    if margin < 0.0005:
        return _(
            "{chosen}, over runner-up {other} by less than {margin}",
            chosen=chosen, other=other, margin=number_text("0.0005"),
        )  # fmt: skip
    return _(
        "{chosen}, over runner-up {other} by {margin}",
        chosen=chosen, other=other, margin=fmt(margin),
    )  # fmt: skip


def dice_text(steps: Sequence[ChanceStep], detail: int = 0) -> str:
    """Dice drawn on the way down (outcomes already in the tree)."""
    if len(steps) == 1 and detail < 1:
        s = steps[0]
        return _(
            "the dice of {action} gave {outcome} (probability {probability})",
            action=shown(s.action_label), outcome=shown(s.outcome_label),
            probability=prob(s.probability),
        )  # fmt: skip
    if not steps:
        return ""
    return n_("{n} dice roll on the way", "{n} dice rolls on the way", len(steps))


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
            text = n_("{n} move was forced", "{n} moves were forced", len(forced))
        elif detail < 1:
            mover = player_name(player_names, first.player)
            text = _(
                "{player}'s only move was {move}",
                player=mover,
                move=shown(first.chosen_terms.label),
            )
        else:
            text = _("after the forced {move}", move=shown(first.chosen_terms.label))
        if before:
            text = _("{forced} and {dice}", forced=text, dice=dice_text(before, detail))
        decided = decision_text(decisions[main], player_names, detail)
        if detail < 1:
            parts.append(text)
            parts.append(_("at depth {depth} {decision}", depth=main, decision=decided))
        else:
            parts.append(
                _(
                    "{forced}, at depth {depth} {decision}",
                    forced=text,
                    depth=main,
                    decision=decided,
                )
            )
    else:
        parts.append(decision_text(decisions[0], player_names, detail))
    rest = decisions[main + 1 :]
    if rest:
        text = n_(
            "then {n} more decision to depth {depth}",
            "then {n} more decisions to depth {depth}",
            len(rest),
            depth=len(decisions),
        )
        if labels and len(rest) <= 4:
            # TRANSLATORS: a clause and the moves it names in brackets
            text = _(
                "{text} ({moves})",
                text=text,
                moves=comma_list([shown(d.chosen_terms.label) for d in rest]),
            )
        special = [d.rule for d in rest if d.rule in RULE_NAMES]
        for rule in sorted(set(special)):
            count = special.count(rule)
            if rule == "min_visits":
                # TRANSLATORS: {n} moves of those listed were taken by that rule
                text = n_("{text}, {n} by the minimum-visits rule",
                          "{text}, {n} by the minimum-visits rule", count, text=text)  # fmt: skip
            else:
                # TRANSLATORS: {n} moves of those listed were decided by the solver
                text = n_("{text}, {n} by the solver", "{text}, {n} by the solver", count,
                          text=text)  # fmt: skip
        parts.append(text)
    if after:
        dice = dice_text(after, detail)
        if detail >= 1 and parts:
            parts[-1] = _("{text}, with {dice}", text=parts[-1], dice=dice)
        else:
            parts.append(dice)
    return clauses_text(parts)
