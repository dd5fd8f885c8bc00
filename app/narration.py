"""Plain-text narration of MCTS iterations and phases, for a student who only knows what MCTS is.

Pure Python (no Streamlit): the view renders the sentences as plain text (``st.text`` or
``textContent``). Nothing here is Markdown or HTML; labels are passed through as they are.

One vocabulary everywhere: the phases are select, expand, simulate (the search core's
"evaluate": a rollout, or the heuristic where there is none) and backpropagate. Every Q, bonus,
score, margin and value is written one way, signed with three decimals (``+0.333``, see
:func:`fmt`); probabilities are unsigned with three decimals; values of C have two decimals
(more where two would read as the current C).

What reads what:

- :func:`narrate_iteration`: a whole iteration (``Search.step()``'s trace) in two sentences;
  also an opened trace file's record, rebuilt as that trace
  (:meth:`mcts_lab.traces.replay.FileReplay.iteration_trace`), so a lab run reads the same from
  its file as live.
- :func:`narrate_record`: a file's record that cannot be rebuilt (a writer that recorded less),
  in the same vocabulary, saying only what the record holds.
- :func:`narrate_phase`: one phase's result (``select()``, ``expand()``, ``evaluate()``,
  ``backpropagate()``). Call :func:`selection_end` after ``select()`` (any time before
  ``backpropagate()``) and pass what it returns as the context of the select, expand and
  simulate narrations: it says why the selection stopped and who moves there, which the path
  alone does not record. The backpropagate narration needs no context (pass the trace or
  ``None``).
- :func:`flip_sentence`: in words, the values of C at which a decision would change its choice
  (the sensitivity of the choice to the C slider; the arithmetic: :mod:`app.c_sensitivity`).
- :func:`explain_n_convention` and :data:`ENTROPY_TEXT`: one sentence each for the tables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from app.c_sensitivity import CFlip, exploration_coefficients, flip_points, same_c
from mcts_core.phases import Phase
from mcts_core.phases import Stop as PhaseStop
from mcts_core.trace import (
    ChanceStep,
    ChildTerms,
    Decision,
    Evaluation,
    Expansion,
    IterationTrace,
    PathStep,
)
from mcts_core.tracing import stop_note

__all__ = [
    "ENTROPY_TEXT",
    "PHASE_NAMES",
    "PhaseContext",
    "WORD_BUDGET",
    "explain_n_convention",
    "flip_sentence",
    "fmt",
    "narrate_iteration",
    "narrate_phase",
    "narrate_record",
    "selection_end",
]

#: The name a person reads for each phase, the same in the button, banner, narration and docs.
PHASE_NAMES: dict[str, str] = {phase.value: phase.label for phase in Phase}

#: What "visit entropy" means. The app's tables (``app.figures.decision_entropy``, from
#: ``mcts_core.policies.visit_entropy``) give it in nats (natural logarithm), so ln k here.
ENTROPY_TEXT = (
    "Visit entropy (in nats) says how evenly a node's visits are spread over its moves: "
    "0 means every visit went to one move, and ln k (1.10 for 3 moves, 2.20 for 9 moves) means the "
    "visits are spread evenly over k moves."
)

Stop = Literal["untried", "new_outcome", "terminal", "proven", "repeat", "full"]

_RULE_NAMES = {"min_visits": "the minimum-visits rule", "solver": "the solver"}
#: The search's own notes for a repeat and a proven leaf: the narration says these itself.
_STOP_NOTES = frozenset(stop_note(stop) for stop in (PhaseStop.REPEAT, PhaseStop.PROVEN))
#: :func:`narrate_iteration` says less (the runner-up's total only, dice counted, no priors)
#: when the full wording would pass this many words.
WORD_BUDGET = 60
_DETAILS = 4


# --------------------------------------------------------------------------- numbers


def fmt(x: float) -> str:
    """A Q, bonus, score, margin or value: signed, three decimals (``+0.333``, ``-1.000``).

    Values that round to zero are written ``+0.000`` (never ``-0.000``)."""
    if abs(x) < 0.0005:
        x = 0.0
    return f"{x:+.3f}"


def _prob(p: float) -> str:
    return f"{p:.3f}"


def _c_text(x: float, c: float) -> str:
    """A value of C with two decimals, or more where two would read as the current C."""
    for digits in (2, 3, 4, 6):
        text = f"{x:.{digits}f}"
        if text != f"{c:.{digits}f}":
            return text
    return f"{x:.6f}"


def _plural(n: int, word: str, plural: str | None = None) -> str:
    return f"{n} {word if n == 1 else plural or word + 's'}"


def _name(player_names: Sequence[str], player: int) -> str:
    if 0 <= player < len(player_names):
        return player_names[player]
    return f"player {player}"


def _result(raw: Sequence[float], player_names: Sequence[str]) -> str:
    """A game result from per-player returns: "a win for X" or "a draw"."""
    if len(raw) >= 2 and raw[0] != raw[1]:
        return f"a win for {_name(player_names, 0 if raw[0] > raw[1] else 1)}"
    return "a draw"


# ------------------------------------------------------------------- decisions


def _runner_up(decision: Decision) -> int | None:
    """The best child other than the chosen one by the score the argmax compared (first max)."""
    best: int | None = None
    for i, t in enumerate(decision.children):
        if i != decision.chosen and (best is None or t.score > decision.children[best].score):
            best = i
    return best


def _terms(t: ChildTerms, *, prior: bool = True) -> str:
    """A child's Q + bonus with the live numbers."""
    proven = f" (a proven {t.proven})" if t.proven else ""
    p = f" (prior {_prob(t.prior)})" if prior and t.prior is not None else ""
    return f"Q {fmt(t.q)}{proven} plus bonus {fmt(t.bonus)}{p} = {fmt(t.score)}"


def _decision_text(d: Decision, player_names: Sequence[str], detail: int = 0) -> str:
    """Which child the decision took and why, against the runner-up.

    ``detail`` 0 gives both children's Q, bonus (and prior); 2 gives the runner-up's total
    only; 3 drops the priors too."""
    who = _name(player_names, d.player)
    t = d.chosen_terms
    if d.rule == "min_visits":
        return (
            f"{who} took {t.label} by the minimum-visits rule: it had the fewest visits "
            f"(n = {t.visits}), and every move needs T visits before the formula counts"
        )
    if d.rule == "solver":
        proven = f"a proven {t.proven} for {who}" if t.proven else "a proven result"
        return f"{who} took {t.label}: the solver decided, it is {proven}"
    r = _runner_up(d)
    if r is None:
        return f"{who} took {t.label}, the only move there ({_terms(t, prior=detail < 3)})"
    u = d.children[r]
    margin = t.score - u.score
    chosen = f"{who} took {t.label} ({_terms(t, prior=detail < 3)})"
    other = (
        f"{u.label} ({_terms(u, prior=detail < 2)})"
        if detail < 2
        else f"{u.label} ({fmt(u.score)})"
    )
    if margin == 0.0:
        return f"{chosen}, tied with {other}: the first listed wins a tie"
    by = "by less than 0.0005" if margin < 0.0005 else f"by {fmt(margin)}"
    return f"{chosen}, over runner-up {other} {by}"


def _dice_text(steps: Sequence[ChanceStep], detail: int = 0) -> str:
    """Dice drawn on the way down (outcomes already in the tree)."""
    if len(steps) == 1 and detail < 1:
        s = steps[0]
        return (
            f"the dice drew {s.action_label}: {s.outcome_label} "
            f"(probability {_prob(s.probability)})"
        )
    return f"{_plural(len(steps), 'dice roll')} on the way" if steps else ""


def _path_text(
    path: Sequence[PathStep], player_names: Sequence[str], *, labels: bool, detail: int = 0
) -> str:
    """The selection path: the first real decision (the root's unless the root had a single
    move) against its runner-up, the rest summarised, and the dice drawn on the way.
    ``detail`` > 0 says less (see :func:`_decision_text`; from 1 the dice are counted)."""
    decisions = [s for s in path if isinstance(s, Decision)]
    main = next(
        (i for i, d in enumerate(decisions) if len(d.children) > 1 or d.rule in _RULE_NAMES), 0
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
            text = f"{_name(player_names, first.player)}'s only move was {first.chosen_terms.label}"
        else:
            text = f"after the forced {first.chosen_terms.label}"
        if before:
            text += " and " + _dice_text(before, detail)
        decided = _decision_text(decisions[main], player_names, detail)
        if detail < 1:
            parts.append(text)
            parts.append(f"at depth {main} {decided}")
        else:
            parts.append(f"{text}, at depth {main} {decided}")
    else:
        parts.append(_decision_text(decisions[0], player_names, detail))
    rest = decisions[main + 1 :]
    if rest:
        text = f"then {_plural(len(rest), 'more decision')} to depth {len(decisions)}"
        if labels and len(rest) <= 4:
            text += " (" + ", ".join(d.chosen_terms.label for d in rest) + ")"
        special = [d.rule for d in rest if d.rule in _RULE_NAMES]
        for rule in sorted(set(special)):
            text += f", {special.count(rule)} by {_RULE_NAMES[rule]}"
        parts.append(text)
    if after:
        dice = _dice_text(after, detail)
        if detail >= 1 and parts:
            parts[-1] += ", with " + dice
        else:
            parts.append(dice)
    return "; ".join(parts)


# --------------------------------------------------------------- selection end


@dataclass(frozen=True, slots=True)
class PhaseContext:
    """What the phase narrations need beyond a phase's own result.

    Build it with :func:`selection_end` right after ``Search.select()`` (before ``expand()``).

    Attributes:
        path: the selection's steps.
        stop: why the selection stopped: "untried" (a node with an untried move), "new_outcome"
            (the dice drew an outcome not in the tree yet), "terminal", "proven", "repeat" (the
            position already occurred on the path) or "full" (the node cap leaves no room).
        leaf_player: the player who moves at the node where the selection stopped (-1 when the
            game is over there); for "new_outcome", the player who chose the dice move.
        leaf_id: the ``ActionNode`` where the selection stopped (for "new_outcome", the
            ``ChanceNode``).
    """

    path: tuple[PathStep, ...]
    stop: Stop
    leaf_player: int
    leaf_id: int


def selection_end(search: Any, path: Sequence[PathStep]) -> PhaseContext:
    """Why the selection stopped where it did, read from the tree: call it after
    ``search.select()`` returned ``path`` and before ``search.backpropagate()`` (which may prove
    the node and so change the answer); the same context serves the select, expand and
    simulate narrations.

    Walks the path down from ``search.root`` by node ids (cheap on any tree) and looks at the
    node reached: terminal, proven, a repeated position (the loop guard; checked first, as the
    search does), untried moves, or the node cap.
    """
    node = search.root
    chooser = node.player
    for step in path:
        if isinstance(step, Decision):
            chooser = step.player
            node_id = step.chosen_terms.node_id
        elif step.child_id is None:
            return PhaseContext(tuple(path), "new_outcome", chooser, step.node_id)
        else:
            node_id = step.child_id
        node = next(child for child in node.children if child.id == node_id)
    # node is now an ActionNode (a chance node is always followed by its chance step)
    if path and _repeats(search, path, node):
        return PhaseContext(tuple(path), "repeat", node.player, node.id)
    if node.player < 0:
        return PhaseContext(tuple(path), "terminal", -1, node.id)
    if node.proven is not None:
        return PhaseContext(tuple(path), "proven", node.player, node.id)
    if search.tree_full and not node.children:
        return PhaseContext(tuple(path), "full", node.player, node.id)
    return PhaseContext(tuple(path), "untried", node.player, node.id)


def _repeats(search: Any, path: Sequence[PathStep], leaf: Any) -> bool:
    """True when the leaf's position occurred earlier on the path (only with the loop guard)."""
    if not search.config.detect_repeats or getattr(search.game, "states_never_repeat", False):
        return False
    state = search.state_of(leaf)
    node = leaf.decider
    while node is not None:
        if search.state_of(node) == state:
            return True
        node = node.decider
    return False


def _stop_of_trace(trace: IterationTrace) -> Stop:
    kind = trace.evaluation.kind
    exp = trace.expansion
    if exp is None:
        if kind in ("terminal", "proven", "repeat"):
            return kind  # type: ignore[return-value]
        return "full"
    return "untried" if exp.new_action else "new_outcome"


# ---------------------------------------------------------------- the phases


def _select_text(
    path: Sequence[PathStep],
    stop: Stop | None,
    player_names: Sequence[str],
    *,
    labels: bool,
    root_value: str = "",
    detail: int = 0,
) -> str:
    """The selection: the root decision and a summary of the rest (no leading phase name)."""
    decisions = [s for s in path if isinstance(s, Decision)]
    if not decisions:
        if stop == "terminal":
            return "selection stopped at the root because the game is already over there"
        if stop == "proven":
            return "selection stopped at the root because the root is already proven" + (
                f" ({root_value})" if root_value else ""
            )
        if stop == "full":
            return "selection stopped at the root: the tree is full (node cap)"
        if stop == "untried":
            return "selection stopped at the root because it has untried moves"
        return "no decision: selection stopped at the root"
    return _path_text(path, player_names, labels=labels, detail=detail)


def _expand_text(
    expansion: Expansion | None,
    stop: Stop | None,
    mover: int | None,
    player_names: Sequence[str],
    *,
    at_root: bool = False,
) -> str:
    """What was added (no leading phase name)."""
    if expansion is None:
        leaf = "root" if at_root else "leaf"
        if stop == "terminal":
            return f"nothing added, the game is over at the {leaf}"
        if stop == "proven":
            return f"nothing added, the {leaf} is proven so its value is known exactly"
        if stop == "repeat":
            return "nothing added, the leaf repeats a position on this path (a loop)"
        if stop == "full":
            return "nothing added, the tree is full (node cap)"
        return "nothing added"
    whose = "" if mover is None else f"{_name(player_names, mover)}'s "
    if not expansion.new_action:
        return (
            f"added the new dice outcome of {expansion.action_label}: "
            f"{expansion.outcome_label} (probability {_prob(expansion.probability)})"
        )
    if expansion.chance_id is not None:
        return (
            f"added {whose}move {expansion.action_label}, and the dice gave "
            f"{expansion.outcome_label} (probability {_prob(expansion.probability)})"
        )
    return f"added {whose}move {expansion.action_label}"


def _simulate_text(
    ev: Evaluation, view: int | None, player_names: Sequence[str], *, where: str, both: bool
) -> str:
    """How the leaf was valued (no leading phase name). ``view``: whose value to quote (the
    player who moved into the leaf); ``both``: quote both players' values."""

    def worth() -> str:
        if both or view is None:
            return " and ".join(
                f"{fmt(v)} for {_name(player_names, p)}" for p, v in enumerate(ev.value)
            )
        return f"{fmt(ev.value[view])} for {_name(player_names, view)}"

    kind = ev.kind
    moves = f"{len(ev.rollout)}-move"
    if kind == "terminal":
        text = f"no rollout, the {where} ends the game in {_result(ev.raw, player_names)}"
        return text + (f", worth {worth()}" if both else "")
    if kind == "rollout":
        text = f"a {moves} rollout ended in {_result(ev.raw, player_names)}"
        return text + (f", worth {worth()}" if both else "")
    if kind == "proven":
        text = f"the {where} is proven: {_result(ev.raw, player_names)}, an exact value"
        return text + (f", worth {worth()}" if both else "")
    if kind == "heuristic":
        return f"no rollout, the heuristic valued the {where} at {worth()}"
    if kind == "cutoff":
        return (
            f"a {moves} rollout stopped at its depth or turn limit, where the heuristic "
            f"gave {worth()}"
        )
    if kind == "repeat":
        return (
            f"the {where} repeats a position on this path (a loop), so the heuristic valued "
            f"it at {worth()} and it will not be expanded"
        )
    return f"the {where} was valued at {worth()}"


def _backprop_text(trace: IterationTrace, player_names: Sequence[str], *, explain: bool) -> str:
    """What each node on the path got and from whose view (no leading phase name)."""
    ups = trace.updates
    if not ups:
        return "nothing to back up"
    leaf = ups[-1]
    above = ups[:-1]
    where = (
        "the new node" if trace.expansion is not None else "the root" if not above else "the leaf"
    )
    lead = f"{fmt(leaf.added)} for {_name(player_names, leaf.view)} at {where}"
    same = [u for u in above if u.view == leaf.view]
    other = [u for u in above if u.view != leaf.view]
    if same and other:
        o = other[0]
        text = (
            f"{lead} and {_plural(len(same), 'node')} above it, {fmt(o.added)} for "
            f"{_name(player_names, o.view)} at the other {len(other)}"
        )
    elif other:
        o = other[0]
        nodes = "node" if len(other) == 1 else f"{len(other)} nodes"
        text = f"{lead}, {fmt(o.added)} for {_name(player_names, o.view)} at the {nodes} above it"
    elif len(same) == 1:
        text = f"{lead} and at the {'root' if same[0] is ups[0] else 'node above it'}"
    elif same:
        text = f"{lead} and at the {len(same)} nodes above it"
    else:
        text = lead
    if explain and above:
        text += ", each node from the view of the player who moved into it"
    root = ups[0]
    if root.proven and above:
        text += f"; the root is now proven, a {root.proven} for {_name(player_names, root.view)}"
    return text


def _leaf_view(trace: IterationTrace) -> int | None:
    return trace.updates[-1].view if trace.updates else None


def _extra_note(note: str) -> str:
    """The trace's note when it says something the narration does not already say."""
    if not note or note in _STOP_NOTES:
        return ""
    return " " + note


# ------------------------------------------------------------------ public API


def narrate_iteration(
    trace: IterationTrace, player_names: tuple[str, str], c: float, policy: str
) -> str:
    """One iteration in two plain sentences with the live numbers.

    The first says what was selected (the root decision: its Q + bonus against the runner-up's
    and the margin; the rest summarised) and what was expanded; the second how the leaf was
    simulated and what was backpropagated to each node, from whose view. ``c`` and ``policy``
    are the settings the trace was made with (the numbers themselves come from the trace).
    """
    del c, policy  # the trace carries the live numbers; kept for a uniform signature
    stop = _stop_of_trace(trace)
    leaf_view = _leaf_view(trace)
    root_value = ""
    if not trace.path and trace.evaluation.kind == "proven":
        root_value = _result(trace.evaluation.raw, player_names)
    if stop == "repeat" and trace.expansion is None:
        expand = "nothing added"  # the simulate clause says why (a loop)
    else:
        expand = _expand_text(
            trace.expansion, stop, leaf_view, player_names, at_root=not trace.path
        )
    where = "new position" if trace.expansion is not None else "leaf"
    if not trace.path and trace.expansion is None:
        where = "root"
    simulate = _simulate_text(trace.evaluation, leaf_view, player_names, where=where, both=False)
    backup = _backprop_text(trace, player_names, explain=False)
    text = ""
    for detail in range(_DETAILS):  # the most detailed wording that fits the word budget
        select = _select_text(
            trace.path, stop, player_names, labels=False, root_value=root_value, detail=detail
        )
        text = (
            f"Select: {select}; expand: {expand}. Simulate: {simulate}; backpropagate: {backup}."
            + _extra_note(trace.note)
        )
        if len(text.split()) <= WORD_BUDGET:
            break
    return text


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
            _name(player_names, view)
        )
    else:
        simulate = "the file does not say how the leaf was valued"
    backed = len(record.get("backup", ()))
    backup = (
        f"{_plural(backed, 'node')} on the path updated"
        if backed
        else "the file does not say what was backed up"
    )
    note = f" {record['note']}" if record.get("note") else ""
    return (
        f"Select: {select}; expand: {expand}. Simulate: {simulate}; backpropagate: {backup}." + note
    )


def narrate_phase(
    phase: str,
    result: Any,
    context: PhaseContext | IterationTrace | None,
    player_names: tuple[str, str],
    c: float,
    policy: str,
) -> str:
    """One phase step in one or two plain sentences, led by the phase's name.

    Args:
        phase: "select", "expand", "evaluate" (or "simulate"), "backpropagate" (a ``Phase``
            works too).
        result: what the ``Search`` phase method returned: select, a tuple of ``PathStep``;
            expand, ``Expansion | None``; evaluate, ``Evaluation``; backpropagate, the
            ``IterationTrace``.
        context: :func:`selection_end`'s answer after ``select()`` (says why the selection
            stopped and who moves there), or the finished iteration's trace (for a history
            entry), or ``None`` (the narration then says less: the path alone does not record
            why the selection stopped or who moves at its end).
        c, policy: the settings the search ran with (the numbers come from ``result``).
    """
    del c, policy
    name = str(phase)
    if name == "simulate":
        name = Phase.EVALUATE.value
    if name not in PHASE_NAMES:
        raise ValueError(f"unknown phase {phase!r}; expected one of {sorted(PHASE_NAMES)}")
    stop: Stop | None = None
    mover: int | None = None
    path: tuple[PathStep, ...] = ()
    trace = context if isinstance(context, IterationTrace) else None
    if isinstance(context, PhaseContext):
        stop, path = context.stop, context.path
        mover = context.leaf_player if context.leaf_player >= 0 else None
    elif trace is not None:
        stop, path, mover = _stop_of_trace(trace), trace.path, _leaf_view(trace)
    head = PHASE_NAMES[name].capitalize()

    if name == Phase.SELECT:
        steps = tuple(result)
        text = _select_text(steps, stop, player_names, labels=True)
        decisions = [s for s in steps if isinstance(s, Decision)]
        if decisions:
            text += _stop_clause(steps, stop, player_names)
        return f"{head}: {text}."

    if name == Phase.EXPAND:
        expansion: Expansion | None = result
        if expansion is not None and not expansion.new_action:
            last = [s for s in path if isinstance(s, Decision)]
            mover = last[-1].player if last else mover
        text = _expand_text(
            expansion, stop, mover, player_names, at_root=not path and stop is not None
        )
        if expansion is not None:
            text += f" as node {expansion.node_id}"
            if expansion.new_action:
                text += (
                    f", leaving {_plural(expansion.untried, 'untried move')} there"
                    if expansion.untried
                    else ", the last untried move there"
                )
        return f"{head}: {text}; simulate comes next."

    if name == Phase.EVALUATE:
        ev: Evaluation = result
        if trace is not None:
            where = "new position" if trace.expansion is not None else "leaf"
        else:
            where = "new position" if stop in ("untried", "new_outcome") else "leaf"
        if not path and stop in ("terminal", "proven"):
            where = "root"
        text = _simulate_text(ev, None, player_names, where=where, both=True)
        return f"{head}: {text}; backpropagate comes next."

    done: IterationTrace = result
    text = _backprop_text(done, player_names, explain=True)
    root = done.updates[0] if done.updates else None
    tail = f" The root now has {_plural(root.visits, 'visit')}." if root is not None else ""
    return f"{head}: {text}.{tail}" + _extra_note(done.note)


def _stop_clause(path: Sequence[PathStep], stop: Stop | None, player_names: Sequence[str]) -> str:
    """Where the selection stopped and why, for the select phase's narration."""
    last = path[-1]
    depth = sum(isinstance(s, Decision) for s in path)
    if isinstance(last, ChanceStep) and last.child_id is None:
        return (
            f"; at depth {depth} the dice drew an outcome not in the tree yet, "
            f"{last.action_label}: {last.outcome_label} (probability {_prob(last.probability)})"
        )
    reasons = {
        "untried": "a node with untried moves",
        "terminal": "a position where the game is over",
        "proven": "a proven node",
        "repeat": "a position already seen on this path (a loop)",
        "full": "a node that needs a new child, but the tree is full (node cap)",
    }
    if stop in reasons:
        return f"; it stopped at depth {depth}, {reasons[stop]}"
    return f"; it stopped at depth {depth}"


# ------------------------------------------------------------------ flipping C


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
        where = f"even slightly above {c:.2f}" if now else f"above {_c_text(f.c_flip, c)}"
    elif f.c_flip == 0.0:
        verb, where = ("Set C to 0" if first else "set it to 0"), ""
    else:
        verb = "Lower C" if first else "lower it"
        where = f"even slightly below {c:.2f}" if now else f"below {_c_text(f.c_flip, c)}"
    action = f"{verb} {where}".strip()
    return f"{action} and {f.runner_up_label} " + ("would be chosen instead" if first else "would")


# ------------------------------------------------------------------- the tables


def explain_n_convention() -> str:
    """How the tables count visits (the code's convention, :mod:`mcts_core.trace`)."""
    return (
        "N and n in the selection tables are visit counts before this iteration's backup, the "
        "numbers the formula used; the backup's visit counts are after it, one more on every "
        "node of the path."
    )
