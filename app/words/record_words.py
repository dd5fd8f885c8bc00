"""The narration of an opened file's record that cannot be rebuilt as the core's trace (a writer
that recorded less than the lab does): the same phases and vocabulary as
:func:`app.words.narration.narrate_iteration`, saying only what the record holds. Pure; plain
text."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.words.game_words import shown
from app.words.i18n import _, n_
from app.words.phrases import comma_list, fmt, player_name


def narrate_record(
    record: Mapping[str, Any],
    label: Callable[[Any], str],
    view_of: Callable[[Any], int],
    player_names: tuple[str, str],
) -> str:
    """An iteration record of a trace file (docs/trace_format.md) whose writer did not record
    everything :func:`narrate_iteration` needs: the same phases, told from what the record
    holds (the path's moves, the chosen children's terms where given, the nodes added, the
    leaf's value, the backup) and saying what it does not.

    ``label(node_id)``: the move into a node; ``view_of(node_id)``: the player whose view the
    file's values at that node are from."""
    path = list(record["path"])
    decisions = {d["node"]: d for d in record.get("decisions", ())}
    moves = []
    terms_given = False
    for here, there in zip(path, path[1:], strict=False):
        text = shown(label(there))
        decision = decisions.get(here)
        terms = None
        if decision is not None and decision.get("chosen") == there:
            terms = next((t for t in decision.get("children", ()) if t["node"] == there), None)
        if terms is not None and "score" in terms:
            text = _terms(text, terms, decision)
            terms_given = True
        moves.append(text)
    expanded = list(record.get("expanded", ()))
    if moves:
        select = _("the path went from the root to {moves}", moves=" → ".join(moves))
        if not terms_given and any(there not in expanded for there in path[1:]):
            select = _("{text} (the file gives no terms for its choices)", text=select)
    else:
        select = _("selection stopped at the root")
    if expanded:
        expand = _("added {moves}", moves=comma_list([shown(label(n)) for n in expanded]))
    else:
        expand = _("nothing added")
    leaf = record.get("leaf", path[-1])
    if "leaf_value" in record:
        value = fmt(float(record["leaf_value"]))
        player = player_name(player_names, view_of(leaf))
        if "evaluation" in record:
            # TRANSLATORS: {how} is the file's own word for the evaluation ("rollout")
            simulate = _(
                "the leaf was valued by {how} at {value} for {player}",
                how=record["evaluation"], value=value, player=player,
            )  # fmt: skip
        else:
            simulate = _("the leaf was valued at {value} for {player}", value=value, player=player)
    else:
        simulate = _("the file does not say how the leaf was valued")
    backed = len(record.get("backup", ()))
    if backed:
        backup = n_("{n} node on the path updated", "{n} nodes on the path updated", backed)
    else:
        backup = _("the file does not say what was backed up")
    text = _(
        "Select: {select}; expand: {expand}. Simulate: {simulate}; backpropagate: {backup}.",
        select=select, expand=expand, simulate=simulate, backup=backup,
    )  # fmt: skip
    if record.get("note"):
        # TRANSLATORS: a narration, then a note a trace file gave (kept as the file wrote it)
        return _("{text} {note}", text=text, note=record["note"])
    return text


def _terms(move: str, terms: Mapping[str, Any], decision: Mapping[str, Any] | None) -> str:
    """A move and the terms the file gives for it: "a1 (by solver, Q +0.500 = +0.500)"."""
    score = fmt(terms["score"])
    q = fmt(terms["q"]) if "q" in terms else None
    bonus = fmt(terms["bonus"]) if "bonus" in terms else None
    if q is not None and bonus is not None:
        total = _("Q {q} plus bonus {bonus} = {score}", q=q, bonus=bonus, score=score)
    elif q is not None:
        total = _("Q {q} = {score}", q=q, score=score)
    elif bonus is not None:
        total = _("bonus {bonus} = {score}", bonus=bonus, score=score)
    else:
        total = _("score {score}", score=score)
    if decision and decision.get("rule"):
        # TRANSLATORS: {rule} is the file's name of the rule that chose ("min_visits")
        return _("{move} (by {rule}, {terms})", move=move, rule=decision["rule"], terms=total)
    return _("{move} ({terms})", move=move, terms=total)
