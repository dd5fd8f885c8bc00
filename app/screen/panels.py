"""The detail panels about the iteration (``app/screen/page.py``'s ``TAB_PANELS``): the drawn
tree in Graphviz, the phase just run, the UCT, rollout and dice tables, the printed tree and its
exports; and the notice lines. Each reads the session through ``app.live.session`` and draws.
The game's and the runs' panels (board, play, charts, arena, sweep) are
:mod:`app.screen.game_panels`; the sidebar is ``app/screen/sidebar.py``."""

from __future__ import annotations

import json
from html import escape
from typing import Any

import streamlit as st

from app.components import graphviz_svg, ui
from app.drawing.boards import (
    board_svg,
    board_text,
    stats_rows,
)
from app.drawing.figures import (
    chance_figure,
    chance_move,
    chance_rows,
    chi_square_p,
    formula_latex,
    formulas_latex,
    html_table,
    rollout_rows,
    uct_table_html,
    update_rows,
)
from app.drawing.tree_dot import find_action_node, path_ids
from app.inputs import widget_values
from app.live import exact_cache, history, session
from app.words.game_words import shown
from app.words.i18n import N_, _, decimal, fixed, n_, number_text
from app.words.narration import ENTROPY_TEXT, explain_n_convention
from mcts_core import ChanceNode, ChanceStep, Decision, Evaluation, Expansion, IterationTrace
from mcts_core.phases import Phase
from mcts_core.printing import format_tree, tree_to_dict, tree_to_dot
from mcts_lab import traces
from mcts_lab.traces.lab import run_fields

#: What each phase did, in one line (shown through ``_``).
PHASE_TEXT = {
    Phase.SELECT: N_("1 · Select: walked down the tree with the tree policy (orange path)."),
    Phase.EXPAND: N_("2 · Expand: added one new node (green)."),
    Phase.EVALUATE: N_("3 · Simulate: valued the new node by a rollout or the heuristic."),
    Phase.BACKPROPAGATE: N_("4 · Backpropagate: added the value to every node on the path."),
}


# ------------------------------------------------------------------ notices


def notices() -> list[str]:
    """Show the session's pending messages (the newest few) and return their texts."""
    lab = session.session()
    shown = lab.notices[-4:]  # the newest few: older ones are stale by now
    for notice in shown:
        ui.notice_line(notice.level, notice.text)
    if not session.outside_writes_waiting():
        # else the screen reruns the whole page next (a played move wrote the sidebar's Root
        # position): that run shows them again, or they would be gone within 100 ms
        lab.notices.clear()
    return [notice.text for notice in shown]


# --------------------------------------------------------------------- tree


@ui.guarded
def graphviz_panel(entry: session.HistoryEntry | None) -> None:
    """The Graphviz drawing of the newest tree, with its own bounds (an export view)."""
    st.subheader(_("Graphviz drawing"))
    names = session.player_names()
    ui.help_text(
        _(
            "Boxes are positions (blue: {first} to move, red: {second} to move, grey: "
            "game over). Edges are moves; a diamond is a chance event with its outcomes' odds. "
            "N = visits; Q = mean value from the view of the player who made the move into "
            "the box. Orange: the last iteration's path; green: the node it added.",
            first=names[0],
            second=names[1],
        )
    )
    cols = st.columns(2)
    cols[0].number_input(_("Max nodes"), 5, 600, step=5, key="tree_max_nodes")
    cols[1].number_input(_("Min visits"), 1, 1_000_000, key="tree_min_visits")
    trace = entry.trace if entry is not None else None
    drawing = history.draw_tree(path_ids(trace) if trace is not None else None)
    dot, drawn, hidden = drawing.dot, drawing.drawn, drawing.hidden
    svg = graphviz_svg.svg_for(dot, session.session().svg_cache)
    if svg is not None:
        # The SVG keeps its viewBox and scales with the column (see graphviz_svg.svg_for).
        # Markdown keeps the SVG live (hover titles); this tab is not on the click path
        st.markdown(
            f'<div class="mcts-tree" style="overflow:auto; max-height:760px">{svg}</div>',
            unsafe_allow_html=True,
        )
    else:
        st.caption(
            _(
                "Graphviz's dot is not installed on the server: this drawing is laid out in "
                "your browser instead (the same tree, without hover details)."
            )
        )
        st.graphviz_chart(dot)
    st.caption(
        n_(
            "Drawn: {n} node; not drawn: {hidden} (bounded drawing).",
            "Drawn: {n} nodes; not drawn: {hidden} (bounded drawing).",
            drawn,
            n=decimal(drawn),
            hidden=decimal(hidden),
        )
    )
    focus = widget_values.bounds_from_widgets().focus
    if focus is not None:
        _focused_node_board(focus)


def _focused_node_board(node_id: int) -> None:
    """The position at the focused node, with its own children's visit shares."""
    search = session.session().search
    node = find_action_node(search, node_id)
    if node is None:
        return
    game = search.game
    position = search.state_of(node)
    children = search.children_summary(node)
    total = sum(c.visits for c in children) or 1
    stats = {c.action: (c.visits / total, c.q) for c in children}
    shown = game.format_state(position) or _("start")
    st.markdown(_("**Position at node #{node}** (`{position}`)", node=node_id, position=shown))
    svg = board_svg(game, position, stats)
    if svg is not None:
        st.image(svg, width=360)
    else:
        st.code(board_text(game, position), language=None)
        if stats:
            st.html(html_table(stats_rows(game, position, stats)))


# -------------------------------------------------------------------- trace


@ui.guarded
def phase_panel(entry: session.HistoryEntry | None) -> None:
    if entry is None or entry.phase is None:
        return
    st.info(_("Phase just run — {what}", what=_(PHASE_TEXT[entry.phase])))
    result = entry.phase_result
    if entry.phase is Phase.SELECT:
        steps = result if isinstance(result, tuple) else ()
        decisions = [s for s in steps if isinstance(s, Decision)]
        if not decisions:
            st.caption(_("The root still has untried moves, so the selection stops at the root."))
        for d in decisions:
            _decision_table(d)
    elif entry.phase is Phase.EXPAND:
        _expansion_text(result if isinstance(result, Expansion) else None)
    elif entry.phase is Phase.EVALUATE and isinstance(result, Evaluation):
        _evaluation_text(result)


def _expansion_text(expansion: Expansion | None) -> None:
    if expansion is None:
        st.caption(_("Nothing was added (terminal or proven leaf, repeated position or node cap)."))
        return
    if expansion.outcome_label:
        said = n_(
            "Added node **#{node}** by trying **{move}** (outcome '{outcome}', p={p}) at node "
            "#{parent}; {n} untried move left there.",
            "Added node **#{node}** by trying **{move}** (outcome '{outcome}', p={p}) at node "
            "#{parent}; {n} untried moves left there.",
            expansion.untried,
            node=expansion.node_id,
            move=shown(expansion.action_label),
            outcome=shown(expansion.outcome_label),
            p=fixed(expansion.probability, 3),
            parent=expansion.parent_id,
        )
    else:
        said = n_(
            "Added node **#{node}** by trying **{move}** at node #{parent}; {n} untried move "
            "left there.",
            "Added node **#{node}** by trying **{move}** at node #{parent}; {n} untried moves "
            "left there.",
            expansion.untried,
            node=expansion.node_id,
            move=shown(expansion.action_label),
            parent=expansion.parent_id,
        )
    st.markdown(said)


def _evaluation_text(evaluation: Evaluation) -> None:
    names = session.player_names()
    moves = len(evaluation.rollout)
    kinds = {
        "terminal": lambda: _("the new node ends the game: its result is the value"),
        "rollout": lambda: n_(
            "a rollout of {n} random move reached the end",
            "a rollout of {n} random moves reached the end",
            moves,
        ),
        "cutoff": lambda: n_(
            "a rollout of {n} move stopped early; the heuristic valued where it stopped",
            "a rollout of {n} moves stopped early; the heuristic valued where it stopped",
            moves,
        ),
        "heuristic": lambda: _("no rollout (depth 0): the heuristic valued the new node"),
        "proven": lambda: _("the node is proven: its exact value"),
        "repeat": lambda: _(
            "the position repeats one on the path (a loop): valued by the heuristic"
        ),
    }
    said = kinds.get(evaluation.kind)
    st.markdown(
        _(
            "Value: {how}. Backed up: **{first} {first_value}**, **{second} {second_value}**.",
            how=said() if said is not None else evaluation.kind,
            first=names[0],
            first_value=fixed(evaluation.value[0], 3, signed=True),
            second=names[1],
            second_value=fixed(evaluation.value[1], 3, signed=True),
        )
    )


def _decision_table(decision: Decision) -> None:
    names = session.player_names()
    st.html(uct_table_html([decision], names))
    st.latex(formula_latex(decision, st.session_state["policy"], float(st.session_state["c"])))


@ui.guarded
def uct_panel(trace: IterationTrace | None) -> None:
    st.subheader(_("Why this path? The UCT table"))
    ui.help_text(
        _(
            "At every decision on the last selection path, each move's visits n, its Q (the "
            "average value from the deciding player's view), the exploration bonus that grows "
            "for rarely tried moves, and their sum. The largest sum is chosen. {n_convention} "
            "{entropy}",
            n_convention=explain_n_convention(),
            entropy=_(ENTROPY_TEXT),
        )
    )
    if trace is None:
        st.caption(_("Step once to see a selection."))
        return
    decisions = trace.decisions
    if not decisions:
        st.caption(
            _(
                "No decision yet: the root still had untried moves, so this iteration "
                "expanded the root directly."
            )
        )
    if decisions:
        names = session.player_names()
        search = session.session().search
        # exact values belong to the root's moves: only when this path starts at today's root
        exact = exact_cache.exact_answer() if decisions[0].node_id == search.root.id else None
        st.html(uct_table_html(decisions, names, exact))
        if exact is not None:
            st.caption(
                _(
                    "exact: each root move's value under perfect play, for the player to move "
                    "(? = not worked out within the time budget)."
                )
            )
            note = exact.budget_note()
            if note is not None:
                ui.notice_line("warning", note)
        st.caption(_("The formula at each depth with the chosen move's numbers:"))
        st.latex(
            formulas_latex(decisions, st.session_state["policy"], float(st.session_state["c"]))
        )


@ui.guarded
def rollout_panel(trace: IterationTrace | None) -> None:
    st.subheader(_("Simulation and backpropagation"))
    ui.help_text(
        _(
            "The moves of the rollout, the value it produced, and how that value was added "
            "to each node on the path: every node keeps it from the view of the player who "
            "moved into it, so the sign flips between the players."
        )
    )
    if trace is None:
        st.caption(_("Step once to see a rollout."))
        return
    if trace.expansion is not None:
        _expansion_text(trace.expansion)
    _evaluation_text(trace.evaluation)
    if trace.note:
        st.warning(trace.note)
    names = session.player_names()
    # one under the other: side by side in the 320 px column at 1280x720 each had 152 px, and
    # the backed-up values (215-255 px in es, de, ar) scrolled sideways (issue 43)
    st.markdown(_("**Rollout moves**"))
    rows = rollout_rows(trace, names)
    if rows:
        st.html(_scroll(html_table(rows), name=_("rollout moves")))
    else:
        st.caption(_("No rollout this time."))
    st.markdown(_("**Backed-up values (root first)**"))
    st.html(_scroll(html_table(update_rows(trace, names)), name=_("backed-up values")))


def _scroll(html: str, height: int = 260, name: str = "table") -> str:
    """``html`` in a scroll box a keyboard can reach (tabindex), named for a screen reader."""
    return (
        f'<div style="max-height:{height}px;overflow:auto" tabindex="0" role="region" '
        f'aria-label="{escape(name)}">{html}</div>'
    )


@ui.guarded
def chance_panel(trace: IterationTrace | None) -> None:
    if trace is None:
        st.caption(_("Press Step: the dice rolled on the next path show here, against their odds."))
        return
    steps = [s for s in trace.chance_steps if s.num_outcomes > 1]
    if not steps:
        st.caption(
            _(
                "No dice on the last path: none of its moves has a chance outcome (tic-tac-toe "
                "and Connect Four never do; gridiron's dodges, pickups, blocks and kick-offs "
                "do)."
            )
        )
        return
    lab = session.session()
    # Each roll's line and table first, the table one line a row with the tree boxes' short
    # labels (the full ones as tooltips): at 1280x720 the tab's box is 200 px from y 519, and
    # gridiron's pick-up had its table 411 px tall from y 668, nine "pickup failed, ball
    # scatters to (x,y)" wrapping at 320 px. The explanation goes last, folded.
    for step in steps:
        chance = _chance_node(lab.search, step)
        if chance is None:
            continue
        rows = chance_rows(lab.search, chance)
        p = chi_square_p([r["drawn"] for r in rows], [r["probability"] for r in rows])
        drawn = shown(step.outcome_label)
        row = next((i for i, r in enumerate(rows) if r["label"] == drawn), None)
        move, move_full = chance_move(lab.search, chance)
        outcome = rows[row]["outcome"] if row is not None else drawn
        line = _(
            # TRANSLATORS: the Dice tab: {move} (as the tree's box says it: "pick 1,1") rolled
            # its dice at node {node} and drew {outcome} ("drop 2,0"), of probability {p}
            "{move} (node #{node}): drew {outcome}, p = {p}",
            move=f'<b title="{escape(move_full)}">{escape(move)}</b>',
            node=step.node_id,
            outcome=f'<i title="{escape(drawn)}">{escape(outcome)}</i>',
            p=fixed(step.probability, 3),
        )
        table = html_table(rows, highlight=row, titles={"outcome": "label"}, compact=True)
        st.html(f'<div class="lab-dice"><p>{line}</p>{table}</div>')
        st.plotly_chart(chance_figure(rows), width="stretch", key=f"chance_{step.node_id}")
        if p is not None and p < 0.05:
            st.warning(_("Draws deviate from the odds (chi-square p = {p}).", p=fixed(p, 3)))
        elif p is not None:
            st.caption(_("Draws match the odds (chi-square p = {p}).", p=fixed(p, 2)))
    ui.help_text(
        _(
            "For each dice roll on the path: every outcome's exact probability, how often the "
            "search has drawn it, and the value behind it. A small p-value means the draws "
            "look unlike the probabilities (it happens by chance 1 time in 20 at p={p}).",
            p=number_text("0.05"),
        )
    )


def _chance_node(search: Any, step: ChanceStep) -> Any:
    node = search.find_node(step.node_id)
    return node if isinstance(node, ChanceNode) else None


# -------------------------------------------------------------- exports


@ui.guarded
def printed_tree_panel(trace: IterationTrace | None) -> None:
    search = session.session().search
    st.subheader(_("Printed tree"))
    ui.help_text(
        _(
            "The tree as text, in the botbowl tutorial's format: score is the mean value from "
            "the root player's view; p='max' marks the root player's decisions, p='min' the "
            "opponent's."
        )
    )
    if not st.toggle(_("Show the printed tree and the downloads"), key="show_printed"):
        st.caption(
            _("Off to keep each click fast: the text and the exports are built only when shown.")
        )
        return
    cols = st.columns(2)
    cols[0].number_input(_("Depth"), 0, 20, key="print_depth")
    cols[1].number_input(_("Children per node"), 1, 100, key="print_children")
    depth, children = int(st.session_state["print_depth"]), int(st.session_state["print_children"])
    text = format_tree(search, max_depth=depth, max_children=children)
    st.code(
        text[:60_000] + ("\n<!-- cut: lower the limits -->" if len(text) > 60_000 else ""),
        language="xml",
    )
    # The text is built once per rerun; the other exports only when their button is clicked
    # (a callable ``data`` runs at download time, not on every rerun).
    # rows of two, the format first: four in a row cut the labels to "Tree …" / "Tree …";
    # on_click="ignore": a download reruns nothing, so the other buttons' files stay valid (a
    # rerun replaced them, and a second download right after the first could find none).
    # The JSON downloads carry the run's header (game, position, settings, seed, iterations).
    run = run_fields(search)
    top, middle, bottom = st.columns(2), st.columns(2), st.columns(2)
    top[0].download_button(_("XML: printed tree"), text, "mcts-tree.xml", key="dl_xml",
                           on_click="ignore")  # fmt: skip
    top[1].download_button(
        _("JSON: tree"),
        lambda: json.dumps(
            {**tree_to_dict(search, max_depth=depth, max_children=children), **run}, indent=1
        ),
        "mcts-tree.json",
        key="dl_json",
        on_click="ignore",
    )
    middle[0].download_button(
        _("DOT: tree (Graphviz)"),
        lambda: tree_to_dot(search, max_depth=depth, max_children=children),
        "mcts-tree.dot",
        key="dl_dot",
        on_click="ignore",
    )
    middle[1].download_button(
        _("JSON: last trace"),
        lambda: json.dumps({**(trace.to_dict() if trace else {}), **run}, indent=1, default=str),
        "mcts-trace.json",
        key="dl_trace",
        disabled=trace is None,
        on_click="ignore",
    )
    bottom[0].download_button(
        _("mcts-trace: whole tree"),
        lambda: traces.dumps(traces.from_search(search)),
        "mcts-tree-trace.json",
        key="dl_tree_trace",
        help=_(
            "The whole tree in the documented format (docs/trace_format.md): open it with "
            "'Open a tree or trace' or mcts-lab inspect."
        ),
        on_click="ignore",
    )
