"""The panels of the detail tabs (``app/screen.py``'s ``TAB_PANELS``) and the notice lines. Each
reads the session through ``app.session`` and draws; changes go through callbacks in the module
that owns them (``app.state``, ``app.play``, ``app.jobs``, ...). The sidebar is
``app/sidebar.py``."""

from __future__ import annotations

import json
from typing import Any

import streamlit as st

from app import exact_cache, graphviz_svg, history, jobs, play, session, ui, widget_values
from app.boards import (
    PV_LENGTH,
    board_legend,
    board_svg,
    board_text,
    button_label,
    button_layout,
    stats_rows,
)
from app.exact import ExactAnswer, kept_sentence, regret_points
from app.figures import (
    arena_figure,
    chance_figure,
    chance_rows,
    chi_square_p,
    find_action_node,
    formula_latex,
    formulas_latex,
    history_figure,
    html_table,
    path_ids,
    rollout_rows,
    sweep_figure,
    uct_table_html,
    update_rows,
)
from app.links import ARENA_GAMES_RANGE, ARENA_ITERATIONS_RANGE
from app.narration import ENTROPY_TEXT, explain_n_convention
from mcts_core import ChanceNode, ChanceStep, Decision, Evaluation, Expansion, IterationTrace
from mcts_core.printing import format_tree, tree_to_dict, tree_to_dot
from mcts_lab import traces
from mcts_lab.traces.lab import run_fields

PHASE_TEXT = {
    "select": "1 · Select: walked down the tree with the tree policy (orange path).",
    "expand": "2 · Expand: added one new node (green).",
    "evaluate": "3 · Simulate: valued the new node by a rollout or the heuristic.",
    "backpropagate": "4 · Backpropagate: added the value to every node on the path.",
}


# ------------------------------------------------------------------ notices


def notices() -> list[str]:
    """Show the session's pending messages (the newest few) and return their texts."""
    lab = session.session()
    shown = lab.notices[-4:]  # the newest few: older ones are stale by now
    for notice in shown:
        ui.notice_line(notice.level, notice.text)
    lab.notices.clear()
    return [notice.text for notice in shown]


# -------------------------------------------------------------------- board


@ui.guarded
def board_panel() -> None:
    lab = session.session()
    search = lab.search
    game, root = search.game, search.root_state
    names = session.player_names()
    st.subheader("Board at the root")
    ui.help_text(
        "Each possible move shows its share of the visits and its Q (the value the search "
        "expects for the player to move). The search spends its visits where it hopes to "
        "find the best move."
    )
    if game.is_terminal(root):
        returns = game.returns(root)
        result = "a draw" if returns[0] == 0 else f"won by {names[0 if returns[0] > 0 else 1]}"
        st.info(f"Game over: {result}.")
    else:
        st.markdown(
            f"**{names[game.current_player(root)]} to move** · position "
            f"`{lab.position or '(start)'}`"
        )
    children = search.children_summary()
    total = sum(c.visits for c in children) or 1
    stats = {c.action: (c.visits / total, c.q) for c in children}
    line = history.pv_decisions(search)
    exact = exact_cache.exact_answer()  # None while the toggle is off (nothing computed)
    favourite = search.best_action() if exact is not None and children else None
    svg = board_svg(game, root, stats, line, exact=exact, favourite=favourite)
    if svg is not None:
        # an <img> of the SVG: cheap for the browser (Markdown would parse it on every click,
        # and st.html's sanitiser drops SVG); its text alternative says the same in words
        st.image(svg, width="content", alt=_board_words(game, root, stats, names))
    else:  # the generic view: the game's text and a table of the moves
        st.code(board_text(game, root), language=None)
        if stats or exact is not None:
            rows = stats_rows(game, root, stats, exact=exact, favourite=favourite)
            st.html(html_table(rows))
    if exact is not None:
        _exact_notes(exact, favourite)
    if line:
        st.caption(
            "Most visited line: "
            + " · ".join(
                f"{n}. {names[player]} {label}"
                for n, (player, label) in enumerate(history.pv_labels(search), start=1)
                if n <= PV_LENGTH
            )
        )
    ui.help_text(board_legend(game, exact=exact is not None))
    layout = button_layout(game)
    legal = set(game.legal_actions(root))
    if layout is not None:
        columns, actions = layout
        st.caption("Click to play a move; it is also how you set up a position:")
        for start in range(0, len(actions), columns):
            # one flex row per board row: fewer page elements than st.columns (a faster click)
            with st.container(horizontal=True, gap="small"):
                for action in actions[start : start + columns]:
                    st.button(
                        button_label(game, root, action),
                        key=f"board_{action}",
                        on_click=play.on_board_click,
                        args=(action,),
                        disabled=action not in legal,
                        width="stretch",
                    )
    elif legal:
        choices = list(game.legal_actions(root))
        pick = st.selectbox(
            "Move to play",
            range(len(choices)),
            key="move_pick",
            format_func=lambda i: game.action_label(root, choices[i]),
        )
        st.button(
            "Play this move", key="play_move", on_click=play.on_board_click, args=(choices[pick],)
        )


def _board_words(
    game: Any, root: Any, stats: dict[Any, tuple[float, float]], names: tuple[str, str]
) -> str:
    """The board image's text alternative: who moves and each tried move's share and Q,
    most visited first."""
    if game.is_terminal(root):
        return "Board: the game is over."
    said = f"Board: {names[game.current_player(root)]} to move."
    ranked = sorted(stats.items(), key=lambda item: -item[1][0])
    if ranked:
        said += (
            " Moves by visits: "
            + "; ".join(
                f"{game.action_label(root, action)} {share:.0%} of the visits, Q {q:+.2f}"
                for action, (share, q) in ranked
            )
            + "."
        )
    return said


def _exact_notes(exact: ExactAnswer, favourite: Any) -> None:
    """Under the board: that the favourite is a best move (a wrong one is said once, under the
    narration, and outlined on the board), and when the budget ran out."""
    if favourite is not None and exact.is_best(favourite):
        label = exact.labels.get(favourite, str(favourite))
        ui.help_text(f"The search's favourite {label} is a best move under perfect play.")
    note = exact.budget_note()
    if note is not None:
        ui.notice_line("warning", note)


@ui.guarded
def play_panel() -> None:
    st.subheader("Play")
    st.radio("Mode", session.PLAY_MODES, key="play_mode", horizontal=True)
    mode = st.session_state["play_mode"]
    ui.help_text(
        {
            "Human vs MCTS": "Click the board for your move, then 'Play best' for the search's.",
            "MCTS vs MCTS": "'Play best' plays the search's move for whoever is to move.",
            "MCTS vs random": "'Play best' plays the search's move and a random reply.",
        }[mode]
        + " After every real move the search keeps the subtree below it (tree reuse)."
    )


@ui.guarded
def final_policies_panel() -> None:
    search = session.session().search
    st.subheader("Final-move policies")
    ui.help_text(
        "After searching, which move to play? Most visited (robust, the usual choice), "
        "highest value (greedy), or robust (best on both counts)."
    )
    if not search.root.children:
        st.caption("Run some iterations first.")
        return
    choices = search.final_choices()
    rows = [
        {"policy": name.replace("_", " "), "move": child.label, "visits": child.visits,
         "Q": f"{child.q:+.3f}"}
        for name, child in choices.items()
    ]  # fmt: skip
    st.html(html_table(rows))
    if len({c.action for c in choices.values()}) > 1:
        st.warning("The policies disagree: the search is not settled yet — run more iterations.")
    else:
        st.success("All three policies agree.")


# --------------------------------------------------------------------- tree


@ui.guarded
def graphviz_panel(entry: session.HistoryEntry | None) -> None:
    """The Graphviz drawing of the newest tree, with its own bounds (an export view)."""
    st.subheader("Graphviz drawing")
    names = session.player_names()
    ui.help_text(
        f"Boxes are positions (blue: {names[0]} to move, red: {names[1]} to move, grey: "
        "game over). Edges are moves; a diamond is a chance event with its outcomes' odds. "
        "N = visits; Q = mean value from the view of the player who made the move into "
        "the box. Orange: the last iteration's path; green: the node it added."
    )
    cols = st.columns(2)
    cols[0].number_input("Max nodes", 5, 600, step=5, key="tree_max_nodes")
    cols[1].number_input("Min visits", 1, 1_000_000, key="tree_min_visits")
    trace = entry.trace if entry is not None else None
    drawing = history.draw_tree(path_ids(trace) if trace is not None else None)
    dot, drawn, hidden = drawing.dot, drawing.drawn, drawing.hidden
    svg = graphviz_svg.svg_for(dot)
    if svg is not None:
        # The SVG keeps its viewBox and scales with the column (see graphviz_svg.svg_for).
        # Markdown keeps the SVG live (hover titles); this tab is not on the click path
        st.markdown(
            f'<div class="mcts-tree" style="overflow:auto; max-height:760px">{svg}</div>',
            unsafe_allow_html=True,
        )
    else:
        st.caption(
            "Graphviz's dot is not installed on the server: this drawing is laid out in your "
            "browser instead (the same tree, without hover details)."
        )
        st.graphviz_chart(dot)
    st.caption(f"Drawn: {drawn:,} nodes; not drawn: {hidden:,} (bounded drawing).")
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
    st.markdown(f"**Position at node #{node_id}** (`{game.format_state(position) or 'start'}`)")
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
    st.info(f"Phase just run — {PHASE_TEXT[entry.phase]}")
    result = entry.phase_result
    if entry.phase == "select":
        steps = result if isinstance(result, tuple) else ()
        decisions = [s for s in steps if isinstance(s, Decision)]
        if not decisions:
            st.caption("The root still has untried moves, so the selection stops at the root.")
        for d in decisions:
            _decision_table(d)
    elif entry.phase == "expand":
        _expansion_text(result if isinstance(result, Expansion) else None)
    elif entry.phase == "evaluate" and isinstance(result, Evaluation):
        _evaluation_text(result)


def _expansion_text(expansion: Expansion | None) -> None:
    if expansion is None:
        st.caption("Nothing was added (terminal or proven leaf, repeated position or node cap).")
        return
    odds = (
        f" (outcome '{expansion.outcome_label}', p={expansion.probability:.3f})"
        if expansion.outcome_label
        else ""
    )
    st.markdown(
        f"Added node **#{expansion.node_id}** by trying **{expansion.action_label}**"
        f"{odds} at node #{expansion.parent_id}; {expansion.untried} untried moves left "
        "there."
    )


def _evaluation_text(evaluation: Evaluation) -> None:
    names = session.player_names()
    kinds = {
        "terminal": "the new node ends the game: its result is the value",
        "rollout": f"a rollout of {len(evaluation.rollout)} random moves reached the end",
        "cutoff": f"a rollout of {len(evaluation.rollout)} moves stopped early; the heuristic "
        "valued where it stopped",
        "heuristic": "no rollout (depth 0): the heuristic valued the new node",
        "proven": "the node is proven: its exact value",
        "repeat": "the position repeats one on the path (a loop): valued by the heuristic",
    }
    st.markdown(
        f"Value: {kinds.get(evaluation.kind, evaluation.kind)}. Backed up: "
        f"**{names[0]} {evaluation.value[0]:+.3f}**, **{names[1]} "
        f"{evaluation.value[1]:+.3f}**."
    )


def _decision_table(decision: Decision) -> None:
    names = session.player_names()
    st.html(uct_table_html([decision], names))
    st.latex(formula_latex(decision, st.session_state["policy"], float(st.session_state["c"])))


@ui.guarded
def uct_panel(trace: IterationTrace | None) -> None:
    st.subheader("Why this path? The UCT table")
    ui.help_text(
        "At every decision on the last selection path, each move's visits n, its Q (the "
        "average value from the deciding player's view), the exploration bonus that grows "
        "for rarely tried moves, and their sum. The largest sum is chosen. "
        + explain_n_convention()
        + " "
        + ENTROPY_TEXT
    )
    if trace is None:
        st.caption("Step once to see a selection.")
        return
    decisions = trace.decisions
    if not decisions:
        st.caption(
            "No decision yet: the root still had untried moves, so this iteration "
            "expanded the root directly."
        )
    if decisions:
        names = session.player_names()
        search = session.session().search
        # exact values belong to the root's moves: only when this path starts at today's root
        exact = exact_cache.exact_answer() if decisions[0].node_id == search.root.id else None
        st.html(uct_table_html(decisions, names, exact))
        if exact is not None:
            st.caption(
                "exact: each root move's value under perfect play, for the player to move "
                "(? = not worked out within the time budget)."
            )
            note = exact.budget_note()
            if note is not None:
                ui.notice_line("warning", note)
        st.caption("The formula at each depth with the chosen move's numbers:")
        st.latex(
            formulas_latex(decisions, st.session_state["policy"], float(st.session_state["c"]))
        )


@ui.guarded
def rollout_panel(trace: IterationTrace | None) -> None:
    st.subheader("Simulation and backpropagation")
    ui.help_text(
        "The moves of the rollout, the value it produced, and how that value was added "
        "to each node on the path: every node keeps it from the view of the player who "
        "moved into it, so the sign flips between the players."
    )
    if trace is None:
        st.caption("Step once to see a rollout.")
        return
    if trace.expansion is not None:
        _expansion_text(trace.expansion)
    _evaluation_text(trace.evaluation)
    if trace.note:
        st.warning(trace.note)
    names = session.player_names()
    cols = st.columns(2)
    with cols[0]:
        st.markdown("**Rollout moves**")
        rows = rollout_rows(trace, names)
        if rows:
            st.html(_scroll(html_table(rows), name="rollout moves"))
        else:
            st.caption("No rollout this time.")
    with cols[1]:
        st.markdown("**Backed-up values (root first)**")
        st.html(_scroll(html_table(update_rows(trace, names)), name="backed-up values"))


def _scroll(html: str, height: int = 260, name: str = "table") -> str:
    """``html`` in a scroll box a keyboard can reach (tabindex), named for a screen reader."""
    return (
        f'<div style="max-height:{height}px;overflow:auto" tabindex="0" role="region" '
        f'aria-label="{name}">{html}</div>'
    )


@ui.guarded
def chance_panel(trace: IterationTrace | None) -> None:
    if trace is None:
        st.caption("Press Step: the dice rolled on the next path show here, against their odds.")
        return
    steps = [s for s in trace.chance_steps if s.num_outcomes > 1]
    if not steps:
        st.caption(
            "No dice on the last path: none of its moves has a chance outcome (tic-tac-toe and "
            "Connect Four never do; gridiron's dodges, pickups, blocks and kick-offs do)."
        )
        return
    lab = session.session()
    st.subheader("Chance events on the path")
    ui.help_text(
        "For each dice roll on the path: every outcome's exact probability, how often the "
        "search has drawn it, and the value behind it. A small p-value means the draws "
        "look unlike the probabilities (it happens by chance 1 time in 20 at p=0.05)."
    )
    for step in steps:
        chance = _chance_node(lab.search, step)
        if chance is None:
            continue
        rows = chance_rows(lab.search, chance)
        p = chi_square_p([r["drawn"] for r in rows], [r["probability"] for r in rows])
        st.markdown(
            f"**{step.action_label}** (node #{step.node_id}): drew "
            f"*{step.outcome_label}* with p={step.probability:.3f}"
        )
        cols = st.columns([3, 2])
        cols[0].html(html_table(rows))
        cols[1].plotly_chart(chance_figure(rows), width="stretch", key=f"chance_{step.node_id}")
        if p is not None and p < 0.05:
            st.warning(f"Draws deviate from the odds (chi-square p = {p:.3f}).")
        elif p is not None:
            st.caption(f"Draws match the odds (chi-square p = {p:.2f}).")


def _chance_node(search: Any, step: ChanceStep) -> Any:
    node = search.find_node(step.node_id)
    return node if isinstance(node, ChanceNode) else None


# -------------------------------------------------------------- exports


@ui.guarded
def printed_tree_panel(trace: IterationTrace | None) -> None:
    search = session.session().search
    st.subheader("Printed tree")
    ui.help_text(
        "The tree as text, in the botbowl tutorial's format: score is the mean value from "
        "the root player's view; p='max' marks the root player's decisions, p='min' the "
        "opponent's."
    )
    if not st.toggle("Show the printed tree and the downloads", key="show_printed"):
        st.caption(
            "Off to keep each click fast: the text and the exports are built only when shown."
        )
        return
    cols = st.columns(2)
    cols[0].number_input("Depth", 0, 20, key="print_depth")
    cols[1].number_input("Children per node", 1, 100, key="print_children")
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
    top[0].download_button("XML: printed tree", text, "mcts-tree.xml", key="dl_xml",
                           on_click="ignore")  # fmt: skip
    top[1].download_button(
        "JSON: tree",
        lambda: json.dumps(
            {**tree_to_dict(search, max_depth=depth, max_children=children), **run}, indent=1
        ),
        "mcts-tree.json",
        key="dl_json",
        on_click="ignore",
    )
    middle[0].download_button(
        "DOT: tree (Graphviz)",
        lambda: tree_to_dot(search, max_depth=depth, max_children=children),
        "mcts-tree.dot",
        key="dl_dot",
        on_click="ignore",
    )
    middle[1].download_button(
        "JSON: last trace",
        lambda: json.dumps({**(trace.to_dict() if trace else {}), **run}, indent=1, default=str),
        "mcts-trace.json",
        key="dl_trace",
        disabled=trace is None,
        on_click="ignore",
    )
    bottom[0].download_button(
        "mcts-trace: whole tree",
        lambda: traces.dumps(traces.from_search(search)),
        "mcts-tree-trace.json",
        key="dl_tree_trace",
        help="The whole tree in the documented format (docs/trace_format.md): open it with "
        "'Open a tree or trace' or mcts-lab inspect.",
        on_click="ignore",
    )


@ui.guarded
def charts_panel() -> None:
    series = session.session().series
    st.subheader("Over iterations")
    ui.help_text(
        "How the root's moves gained visits and value as the search went on, and which "
        "move it would have played at each point."
    )
    if len(series) < 2:
        st.caption("Step a few times to draw the charts.")
        return
    exact = exact_cache.exact_answer()
    regret = None if exact is None else regret_points(series, exact)
    if regret is not None:
        ui.help_text(
            "Regret (bottom panel): what the favourite gives away under perfect play, the "
            "best move's exact value minus its own; 0: a best move. " + kept_sentence(regret)
        )
        note = exact.budget_note() if exact is not None else None
        if note is not None:
            ui.notice_line("warning", note)
    st.plotly_chart(history_figure(series, regret), width="stretch", key="chart_history")


@ui.guarded
def arena_panel() -> None:
    st.subheader("Arena")
    ui.help_text(
        "MCTS with the sidebar's settings plays whole games against an opponent, as home "
        "(moving first) and as away: the botbowl tutorial's table. It shows how strong the "
        "settings really are, and whether the expansion order favours one side."
    )
    if not st.toggle("Show the arena", key="show_arena"):
        return
    from mcts_lab.arena import OPPONENTS, ROLLOUTS

    cols = st.columns(4)
    cols[0].number_input("Games per side", *ARENA_GAMES_RANGE, key="arena_games")
    cols[1].number_input(
        "Iterations per decision", *ARENA_ITERATIONS_RANGE, step=10, key="arena_iterations"
    )
    cols[2].selectbox("Rollout", ROLLOUTS, key="arena_rollout",
                      help="none: heuristic leaf; turn: to the end of the team turn; game: to "
                           "the end")  # fmt: skip
    cols[3].selectbox("Opponent", OPPONENTS, key="arena_opponent")
    if st.button("Run arena", key="arena_run", on_click=session.click_stops_autoplay):
        # A click while the arena plays (this button, or any other) stops it after the pair
        # of games in play (session.click_waiting); the games played are kept.
        st.button("Stop the arena", key="arena_stop", help="Stops after the games in play.")
        bar = st.progress(0.0, text="playing")
        jobs.run_arena(progress=lambda done, total: bar.progress(
            done / total, text=f"game {done} of {total}"))  # fmt: skip
        bar.empty()
        result = session.session().arena
        if result is not None and not result.stopped:
            st.success(f"Arena finished in {result.seconds:.1f} s.")
    result = session.session().arena
    if result is None:
        return
    from mcts_lab.arena import format_table

    st.code(format_table(result, rollouts=st.session_state["arena_rollout"]), language=None)
    st.plotly_chart(arena_figure(result), width="stretch", key="arena_chart")


@ui.guarded
def sweep_panel() -> None:
    """Below the arena: one setting over several values, each value an arena (win rate with
    95% Wilson intervals, home and away)."""
    from mcts_lab.sweep import PARAMS, format_sweep

    if not st.session_state["show_arena"]:  # it plays with the arena's settings: shown with it
        return
    result = session.session().sweep
    with st.expander("Sweep: one setting over several values", expanded=result is not None):
        ui.help_text(
            "Each value plays the arena (its iterations, rollout and opponent; the sidebar's "
            "other settings) as home and away. Serial in this server: at most "
            f"{jobs.ARENA_SECONDS:g} s, and any click stops it after the game in play."
        )
        cols = st.columns([2, 3, 2])
        cols[0].selectbox("Setting", tuple(PARAMS), key="sweep_param")
        cols[1].text_input("Values (comma-separated)", key="sweep_values", max_chars=200)
        cols[2].number_input("Games per side", 1, 20, key="sweep_games")
        if st.button("Run sweep", key="sweep_run", on_click=session.click_stops_autoplay):
            bar = st.progress(0.0, text="playing")
            said = jobs.run_sweep_now(progress=lambda done, total: bar.progress(
                done / total, text=f"game {done} of {total}"))  # fmt: skip
            bar.empty()
            if said is not None:
                ui.notice_line(said.level, said.text)
            result = session.session().sweep
        if result is None:
            return
        st.plotly_chart(sweep_figure(result), width="stretch", key="sweep_chart")
        st.code(format_sweep(result), language=None)
