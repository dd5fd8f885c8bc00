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

from app.words.game_words import shown
from app.words.i18n import N_, _, n_
from app.words.phrases import (
    a_result_text,
    fmt,
    path_text,
    player_name,
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
    "entropy_text",
    "explain_n_convention",
    "narrate_iteration",
    "narrate_phase",
    "selection_end",
]

#: The name a person reads for each phase, the same in the button, banner, narration and docs.
PHASE_NAMES: dict[str, str] = {phase.value: phase.label for phase in Phase}

#: Each phase's narration, led by its name (``{text}``: what the phase did).
_PHASE_SENTENCES: dict[str, str] = {
    Phase.SELECT.value: N_("Select: {text}."),
    Phase.EXPAND.value: N_("Expand: {text}; simulate comes next."),
    Phase.EVALUATE.value: N_("Simulate: {text}; backpropagate comes next."),
}

#: What "visit entropy" means. The app's tables (``app.drawing.figures.decision_entropy``, from
#: ``mcts_core.policies.visit_entropy``) give it in nats (natural logarithm), so ln k here.
ENTROPY_TEXT = N_(
    "Visit entropy (in nats) says how evenly a node's visits are spread over its moves: "
    "0 means every visit went to one move, and ln k (1.10 for 3 moves, 2.20 for 9 moves) means the "
    "visits are spread evenly over k moves."
)


def entropy_text() -> str:
    """:data:`ENTROPY_TEXT` in the current language."""
    return _(ENTROPY_TEXT)


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
            return _("selection stopped at the root because the game is already over there")
        if stop == "proven":
            if root_value:
                return _(
                    "selection stopped at the root because the root is already proven ({value})",
                    value=root_value,
                )
            return _("selection stopped at the root because the root is already proven")
        if stop == "full":
            return _("selection stopped at the root: the tree is full (node cap)")
        if stop == "untried":
            return _("selection stopped at the root because it has untried moves")
        return _("no decision: selection stopped at the root")
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
        if stop == "terminal":
            if at_root:
                return _("nothing added, the game is over at the root")
            return _("nothing added, the game is over at the leaf")
        if stop == "proven":
            if at_root:
                return _("nothing added, the root is proven so its value is known exactly")
            return _("nothing added, the leaf is proven so its value is known exactly")
        if stop == "repeat":
            return _("nothing added, the leaf repeats a position on this path (a loop)")
        if stop == "full":
            return _("nothing added, the tree is full (node cap)")
        return _("nothing added")
    move = shown(expansion.action_label)
    if not expansion.new_action:
        return _(
            "added the new dice outcome of {action}: {outcome} (probability {probability})",
            action=move, outcome=shown(expansion.outcome_label),
            probability=prob(expansion.probability),
        )  # fmt: skip
    if expansion.chance_id is not None:
        if mover is None:
            return _(
                "added move {move}, and the dice gave {outcome} (probability {probability})",
                move=move, outcome=shown(expansion.outcome_label),
                probability=prob(expansion.probability),
            )  # fmt: skip
        return _(
            "added {player}'s move {move}, and the dice gave {outcome} "
            "(probability {probability})",
            player=player_name(player_names, mover), move=move,
            outcome=shown(expansion.outcome_label), probability=prob(expansion.probability),
        )  # fmt: skip
    if mover is None:
        return _("added move {move}", move=move)
    return _("added {player}'s move {move}", player=player_name(player_names, mover), move=move)


def _simulate_text(
    ev: Evaluation, view: int | None, player_names: Sequence[str], *, where: str, both: bool
) -> str:
    """How the leaf was valued (no leading phase name). ``view``: whose value to quote (the
    player who moved into the leaf); ``both``: quote both players' values."""

    def value_for(p: int, v: float) -> str:
        # TRANSLATORS: a value for a player: "+0.500 for X"
        return _("{value} for {player}", value=fmt(v), player=player_name(player_names, p))

    def worth() -> str:
        if both or view is None:
            text = ""
            for p, v in enumerate(ev.value):
                one = value_for(p, v)
                text = one if not p else _("{first} and {second}", first=text, second=one)
            return text
        return value_for(view, ev.value[view])

    def worth_too(text: str) -> str:
        return _("{text}, worth {worth}", text=text, worth=worth()) if both else text

    kind = ev.kind
    key = where if where in _WHERE else "leaf"
    if kind == "terminal":
        return worth_too(_(_TERMINAL_AT[key], result=result_text(ev.raw, player_names)))
    if kind == "rollout":
        return worth_too(
            n_(
                "a rollout of {n} move ended in {result}",
                "a rollout of {n} moves ended in {result}",
                len(ev.rollout),
                result=result_text(ev.raw, player_names),
            )  # fmt: skip
        )
    if kind == "proven":
        return worth_too(_(_PROVEN_AT[key], result=result_text(ev.raw, player_names)))
    if kind == "heuristic":
        return _(_HEURISTIC_AT[key], worth=worth())
    if kind == "cutoff":
        return n_(
            "a rollout of {n} move stopped at its depth or turn limit, where the heuristic "
            "gave {worth}",
            "a rollout of {n} moves stopped at its depth or turn limit, where the heuristic "
            "gave {worth}",
            len(ev.rollout), worth=worth(),
        )  # fmt: skip
    if kind == "repeat":
        return _(_REPEAT_AT[key], worth=worth())
    return _(_VALUED_AT[key], worth=worth())


#: Where the simulation valued: the new position, the leaf or the root (one message each,
#: so a language can agree its words with each noun).
_WHERE = ("new position", "leaf", "root")
_TERMINAL_AT = {
    "new position": N_("no rollout, the new position ends the game in {result}"),
    "leaf": N_("no rollout, the leaf ends the game in {result}"),
    "root": N_("no rollout, the root ends the game in {result}"),
}
_PROVEN_AT = {
    "new position": N_("the new position is proven: {result}, an exact value"),
    "leaf": N_("the leaf is proven: {result}, an exact value"),
    "root": N_("the root is proven: {result}, an exact value"),
}
_HEURISTIC_AT = {
    "new position": N_("no rollout, the heuristic valued the new position at {worth}"),
    "leaf": N_("no rollout, the heuristic valued the leaf at {worth}"),
    "root": N_("no rollout, the heuristic valued the root at {worth}"),
}
_REPEAT_AT = {
    "new position": N_(
        "the new position repeats a position on this path (a loop), so the heuristic valued "
        "it at {worth} and it will not be expanded"
    ),
    "leaf": N_(
        "the leaf repeats a position on this path (a loop), so the heuristic valued it at "
        "{worth} and it will not be expanded"
    ),
    "root": N_(
        "the root repeats a position on this path (a loop), so the heuristic valued it at "
        "{worth} and it will not be expanded"
    ),
}
_VALUED_AT = {
    "new position": N_("the new position was valued at {worth}"),
    "leaf": N_("the leaf was valued at {worth}"),
    "root": N_("the root was valued at {worth}"),
}


def _backprop_text(trace: IterationTrace, player_names: Sequence[str], *, explain: bool) -> str:
    """What each node on the path got and from whose view (no leading phase name)."""
    ups = trace.updates
    if not ups:
        return _("nothing to back up")
    leaf = ups[-1]
    above = ups[:-1]
    value, player = fmt(leaf.added), player_name(player_names, leaf.view)
    if trace.expansion is not None:
        lead = _("{value} for {player} at the new node", value=value, player=player)
    elif not above:
        lead = _("{value} for {player} at the root", value=value, player=player)
    else:
        lead = _("{value} for {player} at the leaf", value=value, player=player)
    same = [u for u in above if u.view == leaf.view]
    other = [u for u in above if u.view != leaf.view]
    if same and other:
        o = other[0]
        text = n_(
            "{lead} and {n} node above it, {value} for {player} at the rest of the path "
            "({others})",
            "{lead} and {n} nodes above it, {value} for {player} at the rest of the path "
            "({others})",
            len(same),
            lead=lead, value=fmt(o.added), player=player_name(player_names, o.view),
            others=len(other),
        )  # fmt: skip
    elif other:
        o = other[0]
        text = n_(
            "{lead}, {value} for {player} at the node above it",
            "{lead}, {value} for {player} at the {n} nodes above it",
            len(other),
            lead=lead, value=fmt(o.added), player=player_name(player_names, o.view),
        )  # fmt: skip
    elif len(same) == 1:
        if same[0] is ups[0]:
            text = _("{lead} and at the root", lead=lead)
        else:
            text = _("{lead} and at the node above it", lead=lead)
    elif same:
        text = n_(
            "{lead} and at the {n} node above it",
            "{lead} and at the {n} nodes above it",
            len(same),
            lead=lead,
        )
    else:
        text = lead
    if explain and above:
        text = _("{text}, each node from the view of the player who moved into it", text=text)
    root = ups[0]
    if root.proven and above:
        text = _(
            "{text}; the root is now proven, {result} for {player}",
            text=text, result=a_result_text(root.proven),
            player=player_name(player_names, root.view),
        )  # fmt: skip
    return text


def _leaf_view(trace: IterationTrace) -> int | None:
    return trace.updates[-1].view if trace.updates else None


def _with_note(text: str, note: str) -> str:
    """``text`` and the trace's note when it says something the narration does not already
    say (the search's own notes are said by the narration; another note is a file's, data)."""
    if not note or note in _STOP_NOTES:
        return text
    # TRANSLATORS: a narration, then a note a trace file gave (kept as the file wrote it)
    return _("{text} {note}", text=text, note=note)


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
        expand = _("nothing added")  # the simulate clause says why (a loop)
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
        text = _with_note(
            _(
                "Select: {select}; expand: {expand}. Simulate: {simulate}; backpropagate: "
                "{backup}.",
                select=select,
                expand=expand,
                simulate=simulate,
                backup=backup,
            ),  # fmt: skip
            trace.note,
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

    if name == Phase.SELECT:
        steps = tuple(result)
        text = _select_text(steps, stop, player_names, labels=True)
        decisions = [s for s in steps if isinstance(s, Decision)]
        if decisions:
            text = _stop_clause(text, steps, stop)
        return _(_PHASE_SENTENCES[name], text=text)

    if name == Phase.EXPAND:
        expansion: Expansion | None = result
        if expansion is not None and not expansion.new_action:
            last = [s for s in path if isinstance(s, Decision)]
            mover = last[-1].player if last else mover
        elif expansion is not None and trace is not None:
            # the player deciding at the expanded node, as the trace (a file: its players)
            # says; the leaf's value view need not be the mover's (a file's "node" view)
            deciding = [u.player for u in trace.updates if u.node_id == expansion.parent_id]
            if deciding:
                mover = deciding[0] if deciding[0] >= 0 else None
        text = _expand_text(
            expansion, stop, mover, player_names, at_root=not path and stop is not None
        )
        if expansion is not None:
            node = expansion.node_id
            if not expansion.new_action:
                text = _("{text} as node {node}", text=text, node=node)
            elif expansion.untried:
                text = n_(
                    "{text} as node {node}, leaving {n} untried move there",
                    "{text} as node {node}, leaving {n} untried moves there",
                    expansion.untried,
                    text=text,
                    node=node,
                )
            else:
                text = _("{text} as node {node}, the last untried move there", text=text, node=node)
        return _(_PHASE_SENTENCES[name], text=text)

    if name == Phase.EVALUATE:
        ev: Evaluation = result
        if trace is not None:
            where = "new position" if trace.expansion is not None else "leaf"
        else:
            where = "new position" if stop in ("untried", "new_outcome") else "leaf"
        if not path and stop in ("terminal", "proven"):
            where = "root"
        text = _simulate_text(ev, None, player_names, where=where, both=True)
        return _(_PHASE_SENTENCES[name], text=text)

    done: IterationTrace = result
    text = _backprop_text(done, player_names, explain=True)
    root = done.updates[0] if done.updates else None
    if root is None:
        said = _("Backpropagate: {text}.", text=text)
    else:
        said = n_(
            "Backpropagate: {text}. The root now has {n} visit.",
            "Backpropagate: {text}. The root now has {n} visits.",
            root.visits,
            text=text,
        )
    return _with_note(said, done.note)


#: Where the selection stopped, for the select phase's narration.
_STOP_REASONS = {
    "untried": N_("{text}; it stopped at depth {depth}, a node with untried moves"),
    "terminal": N_("{text}; it stopped at depth {depth}, a position where the game is over"),
    "proven": N_("{text}; it stopped at depth {depth}, a proven node"),
    "repeat": N_(
        "{text}; it stopped at depth {depth}, a position already seen on this path (a loop)"
    ),
    "full": N_(
        "{text}; it stopped at depth {depth}, a node that needs a new child, but the tree is "
        "full (node cap)"
    ),
}


def _stop_clause(text: str, path: Sequence[PathStep], stop: Stop | None) -> str:
    """``text`` (the selection) and where the selection stopped and why, for the select
    phase's narration."""
    last = path[-1]
    depth = sum(isinstance(s, Decision) for s in path)
    if isinstance(last, ChanceStep) and last.child_id is None:
        return _(
            "{text}; at depth {depth} the dice drew an outcome not in the tree yet, "
            "{action}: {outcome} (probability {probability})",
            text=text, depth=depth, action=shown(last.action_label),
            outcome=shown(last.outcome_label),
            probability=prob(last.probability),
        )  # fmt: skip
    if stop in _STOP_REASONS:
        return _(_STOP_REASONS[stop], text=text, depth=depth)
    return _("{text}; it stopped at depth {depth}", text=text, depth=depth)


# ------------------------------------------------------------------- the tables


def explain_n_convention() -> str:
    """How the tables count visits (the code's convention, :mod:`mcts_core.trace`)."""
    return _(
        "N and n in the selection tables are visit counts before this iteration's backup, the "
        "numbers the formula used; the backup's visit counts are after it, one more on every "
        "node of the path."
    )
