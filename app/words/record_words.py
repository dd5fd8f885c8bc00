"""The narration of an opened file's record that cannot be rebuilt as the core's trace (a writer
that recorded less than the lab does): the same phases and vocabulary as
:func:`app.words.narration.narrate_iteration`, saying only what the record holds. Pure; plain
text."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from app.words.phrases import fmt, player_name, plural


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
        text = label(there)
        decision = decisions.get(here)
        terms = None
        if decision is not None and decision.get("chosen") == there:
            terms = next((t for t in decision.get("children", ()) if t["node"] == there), None)
        if terms is not None and "score" in terms:
            named = (("q", "Q"), ("bonus", "bonus"))
            parts = [f"{name} {fmt(terms[key])}" for key, name in named if key in terms]
            rule = f"by {decision['rule']}, " if decision and decision.get("rule") else ""
            total = " plus ".join(parts) + " = " if parts else "score "
            text += f" ({rule}{total}{fmt(terms['score'])})"
            terms_given = True
        moves.append(text)
    expanded = list(record.get("expanded", ()))
    if moves:
        select = "the path went from the root to " + " → ".join(moves)
        if not terms_given and any(there not in expanded for there in path[1:]):
            select += " (the file gives no terms for its choices)"
    else:
        select = "selection stopped at the root"
    expand = "added " + ", ".join(label(n) for n in expanded) if expanded else "nothing added"
    leaf = record.get("leaf", path[-1])
    if "leaf_value" in record:
        how = f" by {record['evaluation']}" if "evaluation" in record else ""
        view = view_of(leaf)
        simulate = f"the leaf was valued{how} at {fmt(float(record['leaf_value']))} for " + (
            player_name(player_names, view)
        )
    else:
        simulate = "the file does not say how the leaf was valued"
    backed = len(record.get("backup", ()))
    backup = (
        f"{plural(backed, 'node')} on the path updated"
        if backed
        else "the file does not say what was backed up"
    )
    note = f" {record['note']}" if record.get("note") else ""
    return (
        f"Select: {select}; expand: {expand}. Simulate: {simulate}; backpropagate: {backup}." + note
    )
