"""Plain-text narration of MCTS iterations and phases, for a student who only knows what MCTS is.

Pure Python (no Streamlit): the view renders the sentences as plain text (``st.text`` or
``textContent``). Nothing here is Markdown or HTML; labels are passed through as they are.

One vocabulary everywhere: the phases are select, expand, simulate (the search core's
"evaluate": a rollout, or the heuristic where there is none) and backpropagate. Every Q, bonus,
score, margin and value is written one way, signed with three decimals (``+0.333``, see
:func:`app.words.phrases.fmt`); probabilities are unsigned with three decimals; values of C have
two decimals (more where two would read as the current C).

What reads what:

- :func:`narrate_iteration`: a whole iteration (``Search.step()``'s trace) in two sentences;
  also an opened trace file's record, rebuilt as that trace
  (:meth:`mcts_lab.traces.replay.FileReplay.iteration_trace`), so a lab run reads the same from
  its file as live.
- :func:`app.words.record_words.narrate_record`: a file's record that cannot be rebuilt (a
  writer that recorded less), in the same vocabulary, saying only what the record holds.
- :func:`narrate_phase`: one phase's result (``select()``, ``expand()``, ``evaluate()``,
  ``backpropagate()``). Call :func:`selection_end` after ``select()`` (any time before
  ``backpropagate()``) and pass what it returns as the context of the select, expand and
  simulate narrations: it says why the selection stopped and who moves there, which the path
  alone does not record. The backpropagate narration needs no context (pass the trace or
  ``None``).
- :func:`app.words.c_sentence.flip_sentence`: in words, the values of C at which a decision
  would change its choice (the sensitivity of the choice to the C slider).
- :func:`explain_n_convention` and :data:`ENTROPY_TEXT`: one sentence each for the tables.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from app.words.phrases import (
    fmt,
    path_text,
    player_name,
    plural,
    prob,
    result_text,
)
from mcts_core.phases import Phase
from mcts_core.phases import Stop as PhaseStop
from mcts_core.trace import (
    ChanceStep,
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
    "narrate_iteration",
    "narrate_phase",
    "selection_end",
]

#: The name a person reads for each phase, the same in the button, banner, narration and docs.
PHASE_NAMES: dict[str, str] = {phase.value: phase.label for phase in Phase}

#: What "visit entropy" means. The app's tables (``app.drawing.figures.decision_entropy``, from
#: ``mcts_core.policies.visit_entropy``) give it in nats (natural logarithm), so ln k here.
ENTROPY_TEXT = (
    "Visit entropy (in nats) says how evenly a node's visits are spread over its moves: "
    "0 means every visit went to one move, and ln k (1.10 for 3 moves, 2.20 for 9 moves) means the "
    "visits are spread evenly over k moves."
)

Stop = Literal["untried", "new_outcome", "terminal", "proven", "repeat", "full"]

#: The search's own notes for a repeat and a proven leaf: the narration says these itself.
_STOP_NOTES = frozenset(stop_note(stop) for stop in (PhaseStop.REPEAT, PhaseStop.PROVEN))
#: :func:`narrate_iteration` says less (the runner-up's total only, dice counted, no priors)
#: when the full wording would pass this many words.
WORD_BUDGET = 60
_DETAILS = 4


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
    return path_text(path, player_names, labels=labels, detail=detail)


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
    whose = "" if mover is None else f"{player_name(player_names, mover)}'s "
    if not expansion.new_action:
        return (
            f"added the new dice outcome of {expansion.action_label}: "
            f"{expansion.outcome_label} (probability {prob(expansion.probability)})"
        )
    if expansion.chance_id is not None:
        return (
            f"added {whose}move {expansion.action_label}, and the dice gave "
            f"{expansion.outcome_label} (probability {prob(expansion.probability)})"
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
                f"{fmt(v)} for {player_name(player_names, p)}" for p, v in enumerate(ev.value)
            )
        return f"{fmt(ev.value[view])} for {player_name(player_names, view)}"

    kind = ev.kind
    moves = f"{len(ev.rollout)}-move"
    if kind == "terminal":
        text = f"no rollout, the {where} ends the game in {result_text(ev.raw, player_names)}"
        return text + (f", worth {worth()}" if both else "")
    if kind == "rollout":
        text = f"a {moves} rollout ended in {result_text(ev.raw, player_names)}"
        return text + (f", worth {worth()}" if both else "")
    if kind == "proven":
        text = f"the {where} is proven: {result_text(ev.raw, player_names)}, an exact value"
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
    lead = f"{fmt(leaf.added)} for {player_name(player_names, leaf.view)} at {where}"
    same = [u for u in above if u.view == leaf.view]
    other = [u for u in above if u.view != leaf.view]
    if same and other:
        o = other[0]
        text = (
            f"{lead} and {plural(len(same), 'node')} above it, {fmt(o.added)} for "
            f"{player_name(player_names, o.view)} at the other {len(other)}"
        )
    elif other:
        o = other[0]
        nodes = "node" if len(other) == 1 else f"{len(other)} nodes"
        whose = player_name(player_names, o.view)
        text = f"{lead}, {fmt(o.added)} for {whose} at the {nodes} above it"
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
        whose = player_name(player_names, root.view)
        text += f"; the root is now proven, a {root.proven} for {whose}"
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
        root_value = result_text(trace.evaluation.raw, player_names)
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
                    f", leaving {plural(expansion.untried, 'untried move')} there"
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
    tail = f" The root now has {plural(root.visits, 'visit')}." if root is not None else ""
    return f"{head}: {text}.{tail}" + _extra_note(done.note)


def _stop_clause(path: Sequence[PathStep], stop: Stop | None, player_names: Sequence[str]) -> str:
    """Where the selection stopped and why, for the select phase's narration."""
    last = path[-1]
    depth = sum(isinstance(s, Decision) for s in path)
    if isinstance(last, ChanceStep) and last.child_id is None:
        return (
            f"; at depth {depth} the dice drew an outcome not in the tree yet, "
            f"{last.action_label}: {last.outcome_label} (probability {prob(last.probability)})"
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


# ------------------------------------------------------------------- the tables


def explain_n_convention() -> str:
    """How the tables count visits (the code's convention, :mod:`mcts_core.trace`)."""
    return (
        "N and n in the selection tables are visit counts before this iteration's backup, the "
        "numbers the formula used; the backup's visit counts are after it, one more on every "
        "node of the path."
    )
