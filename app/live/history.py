"""The history of clicks: an entry written for every click that changes the tree or the root,
what it shows (trace, DOT, browser view, narration), and moving back and forth in it."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.drawing.figures import series_point
from app.drawing.tree_dot import TreeDrawing, path_ids, phase_path, tree_dot
from app.drawing.tree_layout import PROJECTOR_ROW, build_view
from app.drawing.tree_model import TreeView
from app.inputs.widget_values import bounds_from_widgets
from app.live.session import (
    SERIES_LIMIT,
    HistoryEntry,
    Words,
    multi_action,
    player_names,
    safe,
    session,
)
from app.words.i18n import _
from app.words.narration import narrate_iteration, narrate_phase, selection_end
from mcts_core import IterationTrace, Search
from mcts_core.game import Action
from mcts_core.nodes import ActionNode
from mcts_core.phases import Phase
from mcts_core.queries import principal_variation


def draw_tree(highlight: set[int] | None = None, expanded: int | None = None) -> TreeDrawing:
    """The bounded drawing of the current tree with the sidebar's bounds."""
    search = session().search
    return tree_dot(
        search,
        bounds_from_widgets(),
        highlight or set(),
        expanded,
        player_names(),
        mark_turn_ends=multi_action(search.game),
    )


def record_entry(
    what: Words,
    trace: IterationTrace | None,
    phase: Phase | None = None,
    result: Any = None,
    narration: Words | None = None,
) -> None:
    """Write a history entry: the trace, the tree as drawn now, the numbers and the narration.

    ``what`` and ``narration`` are functions that make the words when the entry is shown, in
    the language current then (``lambda: _("step")``). ``narration`` is used for entries
    without a trace (a move played); steps and phases are narrated from their trace or phase
    result, also when shown."""
    lab = session()
    search = lab.search
    names = player_names()
    c, policy = float(st.session_state["c"]), str(st.session_state["policy"])
    highlight = path_ids(trace) if trace is not None else set()
    if phase is Phase.SELECT and result is not None:
        highlight = phase_path(result)
    new_id = None
    if trace is not None and trace.expansion is not None:
        new_id = trace.expansion.node_id
    elif phase is Phase.EXPAND and result is not None:
        new_id = result.node_id
    if phase in (Phase.EXPAND, Phase.EVALUATE) and lab.history:
        # the iteration's earlier phases stay marked: the path its selection took, the node
        # its expansion added (the rollout starts there), until the backup's trace marks both
        before = lab.history[-1]
        if before.phase in (Phase.SELECT, Phase.EXPAND):
            highlight = highlight | before.marks[0]
            new_id = new_id if new_id is not None else before.marks[1]
        if new_id is not None:  # the path goes on to it, as the backup's trace draws it
            highlight = highlight | {new_id}
    changed = {u.node_id for u in trace.updates} if trace is not None else set()
    tell = narration
    if phase is not None:
        context: Any = trace if trace is not None else lab.phase_context
        tell = _phase_words(phase, result, context, names, c, policy)
    elif trace is not None:
        tell = _iteration_words(trace, names, c, policy)
    lab.entries_written += 1
    children = bool(search.root.children)
    lab.history.append(
        HistoryEntry(
            number=lab.entries_written,
            iteration=search.iterations,
            say_what=what,
            trace=trace,
            phase=phase,
            phase_result=result,
            position=lab.position,
            root_visits=min(search.iterations, search.root.visits),
            nodes=search.node_count,
            depth=search.max_depth,
            rate=lab.last_rate,
            view=tree_view_now(highlight, new_id, changed),
            marks=(highlight, new_id, changed),
            drawn_with=drawing_settings(),
            tell=tell or (lambda: ""),
            root_stats=root_stats(search),
            favourite=search.best_action() if st.session_state["exact"] and children else None,
        )
    )
    show_entry(lab.entries_written)
    if search.root.children:
        lab.series.append(series_point(search))
        if len(lab.series) > SERIES_LIMIT:  # keep every other old point: bounded, still spans
            lab.series[:] = lab.series[: SERIES_LIMIT // 2 : 2] + lab.series[SERIES_LIMIT // 2 :]


def _phase_words(
    phase: Phase, result: Any, context: Any, names: tuple[str, str], c: float, policy: str
) -> Words:
    """The narration of a phase step, made when shown (from the entry's data)."""
    return lambda: narrate_phase(phase, result, context, names, c, policy)


def _iteration_words(trace: IterationTrace, names: tuple[str, str], c: float, policy: str) -> Words:
    """The narration of an iteration, made when shown (from its trace)."""
    return lambda: narrate_iteration(trace, names, c, policy)


def run_phase() -> None:
    """Run the search's next phase and write its history entry (the Phase button, and a
    link that was sent in the middle of an iteration)."""
    lab = session()
    search = lab.search
    phase = search.next_phase
    if phase is Phase.SELECT:
        path = search.select()
        lab.phase_context = selection_end(search, path)
        # TRANSLATORS: a history entry's label: the Phase button ran the selection
        record_entry(lambda: _("phase: select"), None, phase, path)
    elif phase is Phase.EXPAND:
        record_entry(lambda: _("phase: expand"), None, phase, search.expand())
    elif phase is Phase.EVALUATE:
        record_entry(lambda: _("phase: simulate"), None, phase, search.evaluate())
    else:
        trace = search.backpropagate()
        lab.phase_context = None
        record_entry(lambda: _("phase: backpropagate"), trace, Phase.BACKPROPAGATE, trace)


def tree_view_now(
    highlight: set[int] | None = None, new_id: int | None = None, changed: set[int] | None = None
) -> TreeView:
    """The browser drawing of the current tree with the drawing settings (focus, top-k)."""
    s = st.session_state
    return build_view(
        session().search,
        path_ids=highlight or set(),
        new_id=new_id,
        changed_ids=changed or set(),
        focus_id=bounds_from_widgets().focus,
        player_names=player_names(),
        max_children=int(s["tree_top_k"]),
        max_levels=int(s["tree_levels"]),
        # a projector: the top's moves as many as fit its column at 14 px type
        row_width=PROJECTOR_ROW if s.get("presentation") else None,
    )


def drawing_settings() -> tuple[int | None, int, int, bool]:
    """What the browser drawing is drawn with now: the focus id, children per node, levels,
    Present mode (its row of the top's moves fits a projector's column)."""
    s = st.session_state
    return (bounds_from_widgets().focus, int(s["tree_top_k"]), int(s["tree_levels"]),
            bool(s.get("presentation")))  # fmt: skip


def root_stats(search: Search) -> dict[Action, tuple[float, float]]:
    """Each root move's share of the root's visits and its Q (the mover's view)."""
    children = search.children_summary()
    total = sum(c.visits for c in children) or 1
    return {c.action: (c.visits / total, c.q) for c in children}


def pv_decisions(search: Search) -> list[tuple[int, Action]]:
    """The principal variation's decisions from the root: (player who moves, action), skipping
    the dice outcomes between them."""
    return [
        (move.parent.player, move.action)
        for move in principal_variation(search)[1:]
        if isinstance(move.parent, ActionNode)
    ]


def pv_labels(search: Search) -> list[tuple[int, str]]:
    """The principal variation's decisions as (player, the move's label) for a text line."""
    labels = []
    state = search.root_state
    game = search.game
    for move in principal_variation(search, max_length=12)[1:]:
        if isinstance(move.parent, ActionNode):
            labels.append((move.parent.player, str(game.action_label(state, move.action))))
            if isinstance(move, ActionNode):
                state = game.next_state(state, move.action, move.outcome)
        elif isinstance(move, ActionNode) and move.parent is not None:  # the dice's result
            state = game.next_state(state, move.parent.action, move.outcome)
    return labels


@safe
def on_back() -> None:
    _move_in_history(-1)


@safe
def on_forward() -> None:
    _move_in_history(+1)


def _move_in_history(delta: int) -> None:
    lab = session()
    if not lab.history:
        return
    first, last = lab.history[0].number, lab.history[-1].number
    current = int(st.session_state.get("history_index", last))
    show_entry(min(last, max(first, current + delta)))


#: The history entry shown, kept apart from the scrubber's widget value (``history_index``):
#: a run that does not draw the scrubber (a lesson's text slide) loses the widget's value, and
#: the browser sent the scrubber's stale one back (entry 1 of 4) when the screen returned.
SHOWN = "history_shown"


def show_entry(number: int) -> None:
    """Show history entry ``number``: the scrubber's value and the entry kept across slides."""
    st.session_state["history_index"] = number
    st.session_state[SHOWN] = number


def on_scrubber() -> None:
    """The scrubber was dragged: the entry it points at is the one shown."""
    st.session_state[SHOWN] = st.session_state.get("history_index")


def restore_shown() -> None:
    """Before the scrubber is drawn: its value is the entry shown (kept across slides), while
    the history still has that entry."""
    s = st.session_state
    kept = s.get(SHOWN)
    entries = session().history
    if isinstance(kept, int) and entries and entries[0].number <= kept <= entries[-1].number:
        s["history_index"] = kept


def current_entry() -> HistoryEntry | None:
    """The history entry the scrubber points at (the newest by default)."""
    lab = session()
    if not lab.history:
        return None
    wanted = st.session_state.get("history_index", lab.entries_written)
    for entry in lab.history:
        if entry.number == wanted:
            return entry
    return lab.history[-1]
