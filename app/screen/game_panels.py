"""The detail panels about the game and what was run on it: the board at the root (with the
exact values), the Play tab's buttons and final policies, the charts over the history, the
arena and the sweep. Each reads the session through ``app.live.session`` and draws; changes go
through the callbacks of the module that owns them (``app.live.play``, ``app.live.jobs``).
The iteration's panels are :mod:`app.screen.panels`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import streamlit as st

from app.components import ui
from app.drawing.boards import (
    PV_LENGTH,
    board_legend,
    board_svg,
    board_text,
    button_label,
    button_layout,
    proven_means,
    q_with_mean,
    stats_rows,
)
from app.drawing.figures import (
    SeriesPoint,
    arena_figure,
    history_figure,
    html_table,
    sweep_figure,
    watch_figure,
)
from app.inputs.links import ARENA_GAMES_RANGE, ARENA_ITERATIONS_RANGE
from app.live import exact_cache, history, jobs, play, session
from app.screen.sidebar import choice_format, choice_label
from app.words.exact import ExactAnswer, kept_sentence, regret_points
from app.words.game_words import move_label, shown
from app.words.i18n import N_, _, decimal, fixed, n_, number_text, percent, separators
from games.base import AnyGame
from games.registry import game_choices, game_spec
from mcts_core.game import Action, State
from mcts_lab.breakpoints import watch

#: The Play tab's modes as shown (the values stay the widget's: ``app.live.session.PLAY_MODES``).
PLAY_MODE_LABELS = {
    "Human vs MCTS": N_("Human vs MCTS"),
    "MCTS vs MCTS": N_("MCTS vs MCTS"),
    "MCTS vs random": N_("MCTS vs random"),
}
#: The final-move policies' names in the table (``most_visited`` -> "most visited").
FINAL_POLICY_LABELS = {
    "most_visited": N_("most visited"),
    "highest_value": N_("highest value"),
    "robust": N_("robust"),
}

# -------------------------------------------------------------------- board


def _class_heat() -> dict[Any, Any]:
    """The class's answers per root move when this session teaches a class with **Class on
    tree** on and the question asks about the root (``app.classroom.teacher.heat``); else {}."""
    from app.classroom import shared
    from app.classroom.teacher import heat as class_heat

    found = shared.teacher()
    if found is None:
        return {}
    return class_heat.heat_by_action(found, shared.room(), session.session().search)


@ui.guarded
def board_panel() -> None:
    lab = session.session()
    search = lab.search
    game, root = search.game, search.root_state
    names = session.player_names()
    st.subheader(_("Board at the root"))
    ui.help_text(
        _(
            "Each possible move shows its share of the visits and its Q (the value the search "
            "expects for the player to move). The search spends its visits where it hopes to "
            "find the best move."
        )
    )
    if game.is_terminal(root):
        returns = game.returns(root)
        if returns[0] == 0:
            st.info(_("Game over: a draw."))
        else:
            st.info(_("Game over: won by {player}.", player=names[0 if returns[0] > 0 else 1]))
    else:
        st.markdown(
            _(
                "**{player} to move** · position `{position}`",
                player=names[game.current_player(root)],
                position=lab.position or _("(start)"),
            )
        )
    children = search.children_summary()
    total = sum(c.visits for c in children) or 1
    stats = {c.action: (c.visits / total, c.q) for c in children}
    means = proven_means(children)  # a proven move's Q is its proven value; its mean beside
    line = history.pv_decisions(search)
    exact = exact_cache.exact_answer()  # None while the toggle is off (nothing computed)
    favourite = search.best_action() if exact is not None and children else None
    heat = _class_heat()
    svg = board_svg(
        game, root, stats, line, exact=exact, favourite=favourite, heat=heat, means=means
    )
    if heat:  # the class's answers in words too (the picture's badges say the counts)
        chosen = [
            _("{move} {count} ✓ right", move=move_label(game, root, a), count=h.count)
            if h.right
            else _("{move} {count}", move=move_label(game, root, a), count=h.count)
            for a, h in heat.items()
            if h.count or h.right
        ]
        st.caption(_("The class chose: {choices}", choices=", ".join(chosen) or _("nobody yet")))
    if svg is not None:
        # an <img> of the SVG: cheap for the browser (Markdown would parse it on every click,
        # and st.html's sanitiser drops SVG); its text alternative says the same in words
        st.image(svg, width="content", alt=_board_words(game, root, stats, names, means))
    else:  # the generic view: the game's text and a table of the moves
        st.code(board_text(game, root), language=None)
        if stats or exact is not None:
            rows = stats_rows(game, root, stats, exact=exact, favourite=favourite, means=means)
            st.html(html_table(rows))
    if exact is not None:
        _exact_notes(exact, favourite)
    if line:
        line_words = " · ".join(
            _("{n}. {player} {move}", n=n, player=names[player], move=shown(label))
            for n, (player, label) in enumerate(history.pv_labels(search), start=1)
            if n <= PV_LENGTH
        )
        st.caption(_("Most visited line: {line}", line=line_words))
    ui.help_text(board_legend(game, exact=exact is not None))
    layout = button_layout(game)
    legal = set(game.legal_actions(root))
    if layout is not None:
        columns, actions = layout
        st.caption(_("Click to play a move; it is also how you set up a position:"))
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
            _("Move to play"),
            range(len(choices)),
            key="move_pick",
            format_func=lambda i: move_label(game, root, choices[i]),
        )
        st.button(
            _("Play this move"),
            key="play_move",
            on_click=play.on_board_click,
            args=(choices[pick],),
        )


def _board_words(
    game: AnyGame,
    root: State,
    stats: dict[Action, tuple[float, float]],
    names: tuple[str, str],
    means: Mapping[Action, float],
) -> str:
    """The board image's text alternative: who moves and each tried move's share and Q (a
    proven move's mean beside it, ``means``), most visited first."""
    if game.is_terminal(root):
        return _("Board: the game is over.")
    player = names[game.current_player(root)]
    ranked = sorted(stats.items(), key=lambda item: -item[1][0])
    if not ranked:
        return _("Board: {player} to move.", player=player)
    moves = "; ".join(
        _(
            "{move} {share} of the visits, Q {q}",
            move=move_label(game, root, action),
            share=percent(share),
            q=q_with_mean(q, means.get(action), 2),
        )
        for action, (share, q) in ranked
    )
    return _("Board: {player} to move. Moves by visits: {moves}.", player=player, moves=moves)


def _exact_notes(exact: ExactAnswer, favourite: Any) -> None:
    """Under the board: that the favourite is a best move (a wrong one is said once, under the
    narration, and outlined on the board), and when the budget ran out."""
    if favourite is not None and exact.is_best(favourite):
        label = exact.labels.get(favourite, str(favourite))
        ui.help_text(
            _("The search's favourite {move} is a best move under perfect play.", move=label)
        )
    note = exact.budget_note()
    if note is not None:
        ui.notice_line("warning", note)


@ui.guarded
def play_panel() -> None:
    # TRANSLATORS: the Play tab's title
    st.subheader(_("Play"))
    st.radio(
        _("Mode"),
        session.PLAY_MODES,
        key="play_mode",
        horizontal=True,
        format_func=ui.in_page_language(lambda mode: _(PLAY_MODE_LABELS.get(str(mode), str(mode)))),
    )
    mode = st.session_state["play_mode"]
    best = _("Play best")  # the button's label, as the controls show it
    how = {
        "Human vs MCTS": lambda: _(
            "Click the board for your move, then '{play_best}' for the search's.",
            play_best=best,
        ),
        "MCTS vs MCTS": lambda: _(
            "'{play_best}' plays the search's move for whoever is to move.", play_best=best
        ),
        "MCTS vs random": lambda: _(
            "'{play_best}' plays the search's move and a random reply.", play_best=best
        ),
    }[mode]()
    ui.help_text(
        _(
            "{how} After every real move the search keeps the subtree below it (tree reuse).",
            how=how,
        )
    )


@ui.guarded
def final_policies_panel() -> None:
    search = session.session().search
    st.subheader(_("Final-move policies"))
    ui.help_text(
        _(
            "After searching, which move to play? Most visited (the usual choice), highest "
            "value (greedy), or robust (best on both counts)."
        )
    )
    if not search.root.children:
        st.caption(_("Run some iterations first."))
        return
    choices = search.final_choices()
    # the table's column heads and the policies' names in the page's language (Q stays Q)
    rows = [
        {_("policy"): _(FINAL_POLICY_LABELS.get(name, name)), _("move"): shown(child.label),
         _("visits"): decimal(child.visits),
         "Q": q_with_mean(child.q, proven_means([child]).get(child.action), 3)}
        for name, child in choices.items()
    ]  # fmt: skip
    st.html(html_table(rows))
    if len({c.action for c in choices.values()}) > 1:
        st.warning(_("The policies disagree: the search is not settled yet — run more iterations."))
    else:
        st.success(_("All three policies agree."))


# -------------------------------------------------------------- runs


@ui.guarded
def charts_panel() -> None:
    series = session.session().series
    st.subheader(_("Over iterations"))
    ui.help_text(
        _(
            "How the root's moves gained visits and value as the search went on, and which "
            "move it would have played at each point."
        )
    )
    if len(series) < 2:
        st.caption(_("Step a few times to draw the charts."))
    else:
        exact = exact_cache.exact_answer()
        regret = None if exact is None else regret_points(series, exact)
        if regret is not None:
            ui.help_text(
                _(
                    "Regret (bottom panel): what the favourite gives away under perfect play, "
                    "the best move's exact value minus its own; 0: a best move. {kept}",
                    kept=kept_sentence(regret),
                )
            )
            note = exact.budget_note() if exact is not None else None
            if note is not None:
                ui.notice_line("warning", note)
        st.plotly_chart(
            history_figure(series, regret).update_layout(separators=separators()),
            width="stretch",
            key="chart_history",
        )
    _watch_chart(series)


#: The watch box's length: ten expressions of the longest kind and their separators.
WATCH_INPUT_CHARS = watch.MAX_WATCHES * (watch.MAX_CHARS + 2)


def _watch_chart(series: list[SeriesPoint]) -> None:
    """The watch expressions (text input ``watch``): each one's value at every point the
    charts keep, one line each (chart ``chart_watch``); a bad expression is one sentence."""
    text = st.text_input(
        # TRANSLATORS: the charts' box of watch expressions (as a debugger's watches)
        _("Watch"),
        key="watch",
        max_chars=WATCH_INPUT_CHARS,
        placeholder="N(a1)/N(root); Q(a1) - Q(c3)",  # the syntax: N, Q, U and root stay
        help=_(
            "Expressions over the root's statistics, separated by ';': N(move) its visits, "
            "Q(move) its mean value for the player to move at the root, U(move) the score the "
            "selection gives it (Q + the exploration bonus with this C), root for the root (N, "
            "Q); numbers, + - * / and parentheses. A move is its label or its number."
        ),
    )
    texts = watch.split_watches(text)
    if not texts:
        return
    search = session.session().search
    try:
        watches = watch.parse_watches(texts, watch.search_moves(search))
    except watch.WatchError as error:
        ui.notice_line("error", _("The watch cannot be drawn: {error}.", error=error))
        return
    if not any("root" in point for point in series):
        st.caption(_("Step to draw the watch."))
        return
    st.plotly_chart(
        watch_figure(watches, series).update_layout(separators=separators()),
        width="stretch",
        key="chart_watch",
    )


@ui.guarded
def arena_panel(wide: bool = False) -> None:
    """The arena: its settings, Run arena, and the last result. ``wide`` (a lesson's tab
    slide, the screen's whole width): the result beside the settings, so both fit a
    projector (under them the table started at y 680 of 720)."""
    st.subheader(_("Arena"))
    ui.help_text(
        _(
            "MCTS with the sidebar's settings plays whole games against an opponent, as home "
            "(moving first) and as away: the botbowl tutorial's table. It shows how strong the "
            "settings really are, and whether the expansion order favours one side."
        )
    )
    if not st.toggle(_("Show the arena"), key="show_arena"):
        return
    left, right = st.columns(2, gap="medium") if wide else (st.container(), st.container())
    with left:
        _arena_settings()
    with right:
        _arena_result()


def _arena_settings() -> None:
    from mcts_lab.arena import OPPONENTS, ROLLOUTS

    # two rows of two: four columns in the right column at 1280 px cut the select boxes'
    # values to "nor" and "ran" (issue 31)
    cols = [*st.columns(2), *st.columns(2)]
    cols[0].number_input(_("Games per side"), *ARENA_GAMES_RANGE, key="arena_games")
    cols[1].number_input(
        _("Iterations per decision"), *ARENA_ITERATIONS_RANGE, step=10, key="arena_iterations"
    )
    cols[2].selectbox(_("Rollout"), ROLLOUTS, key="arena_rollout", format_func=choice_format(),
                      help=_("{none}: heuristic leaf; {turn}: to the end of the team turn; "
                             "{game}: to the end", none=choice_label("none"),
                             turn=choice_label("turn"), game=choice_label("game")))  # fmt: skip
    cols[3].selectbox(
        _("Opponent"),
        OPPONENTS,
        key="arena_opponent",
        format_func=choice_format(),
    )
    if st.button(_("Run arena"), key="arena_run", on_click=session.click_stops_autoplay):
        # A click while the arena plays (this button, or any other) stops it after the pair
        # of games in play (session.click_waiting); the games played are kept.
        st.button(_("Stop the arena"), key="arena_stop", help=_("Stops after the games in play."))
        bar = st.progress(0.0, text=_("playing"))
        jobs.run_arena(progress=lambda done, total: bar.progress(
            done / total, text=_game_of(done, total)))  # fmt: skip
        bar.empty()
        result = session.session().arena
        if result is not None and not result.stopped:
            st.success(_("Arena finished in {seconds} s.", seconds=fixed(result.seconds, 1)))


#: The arena table's headings (``mcts_lab.arena.table_columns``, the botbowl tutorial's
#: English) as the page shows them.
ARENA_HEADINGS = {
    # TRANSLATORS: the arena table's first heading: which rollout the search used
    "Rollouts": N_("Rollouts"),
    # TRANSLATORS: the arena table's heading: the game (the tutorial's "environment")
    "Env": N_("Env"),
    "Home Wins": N_("Home Wins"),
    # TRANSLATORS: touchdowns scored at home (gridiron)
    "Home TDs": N_("Home TDs"),
    "Away Wins": N_("Away Wins"),
    "Away TDs": N_("Away TDs"),
    "Total Wins": N_("Total Wins"),
    "Total TDs": N_("Total TDs"),
    # TRANSLATORS: wins per game, on average
    "AVG Wins": N_("AVG Wins"),
    "AVG TDs": N_("AVG TDs"),
    # TRANSLATORS: the search's iterations per decision
    "Iterations": N_("Iterations"),
}


def _arena_notes(result: Any) -> list[str]:
    """The lines under the arena's table (``mcts_lab.arena.table_notes``' facts) in the page's
    language."""
    opponent = choice_label(result.opponent)
    if result.opponent == "mcts":
        opponent = n_("{opponent} ({n} iteration)", "{opponent} ({n} iterations)",
                      result.opponent_iterations, opponent=opponent,
                      n=decimal(result.opponent_iterations))  # fmt: skip
    notes = [
        n_(
            "vs {opponent}; draws {draws} (home {home_draws}, away {away_draws}); losses "
            "{losses} (home {home_losses}, away {away_losses}); {n} decision, mean "
            "root visits {visits} ({reuse}); {seconds} s",
            "vs {opponent}; draws {draws} (home {home_draws}, away {away_draws}); losses "
            "{losses} (home {home_losses}, away {away_losses}); {n} decisions, mean "
            "root visits {visits} ({reuse}); {seconds} s",
            result.decisions,
            opponent=opponent,
            draws=decimal(result.draws),
            home_draws=decimal(result.home_draws),
            away_draws=decimal(result.away_draws),
            losses=decimal(result.home_losses + result.away_losses),
            home_losses=decimal(result.home_losses),
            away_losses=decimal(result.away_losses),
            n=decimal(result.decisions),
            visits=decimal(round(result.mean_root_visits)),
            reuse=_("tree reuse") if result.reuse else _("fresh tree per decision"),
            seconds=fixed(result.seconds, 1),
        )
    ]
    if not result.has_score:
        game = _(game_spec(result.game).label) if result.game in game_choices() else result.game
        notes.append(_("{game} has no touchdowns: the TD columns are 0", game=game))
    return notes


def _arena_result() -> None:
    result = session.session().arena
    if result is None:
        return
    from mcts_lab.arena import table_columns

    # the tutorial's table turned on its side, one column a line, its notes as wrapped text:
    # its 11 columns side by side (mcts-lab arena's table, 1,015 px) were cut at 320 px
    columns = [
        (_(ARENA_HEADINGS.get(head, head)), number_text(cell))
        for head, cell, _align in table_columns(result, rollouts=st.session_state["arena_rollout"])
    ]
    width = max(len(head) for head, _ in columns)
    lines = [f"{head:<{width}}  {cell}" for head, cell in columns]
    st.code("\n".join(lines), language=None)
    for note in _arena_notes(result):
        st.caption(note)
    st.plotly_chart(
        arena_figure(result).update_layout(separators=separators()),
        width="stretch",
        key="arena_chart",
    )


@ui.guarded
def sweep_panel() -> None:
    """Below the arena: one setting over several values, each value an arena (win rate with
    95% Wilson intervals, home and away)."""
    from mcts_lab.sweep.sweeps import PARAMS, format_sweep

    if not st.session_state["show_arena"]:  # it plays with the arena's settings: shown with it
        return
    result = session.session().sweep
    with st.expander(_("Sweep: one setting over several values"), expanded=result is not None):
        ui.help_text(
            _(
                "Each value plays the arena (its iterations, rollout and opponent; the "
                "sidebar's other settings) as home and away. Serial in this server: at most "
                "{seconds} s, and any click stops it after the game in play.",
                seconds=number_text(f"{jobs.ARENA_SECONDS:g}"),
            )
        )
        cols = st.columns([2, 3, 2])
        # the settings by their CLI flag's name (c, policy, min-visits): typed, not translated
        cols[0].selectbox(_("Setting"), tuple(PARAMS), key="sweep_param")
        cols[1].text_input(_("Values (comma-separated)"), key="sweep_values", max_chars=200)
        cols[2].number_input(_("Games per side"), 1, 20, key="sweep_games")
        if st.button(_("Run sweep"), key="sweep_run", on_click=session.click_stops_autoplay):
            bar = st.progress(0.0, text=_("playing"))
            said = jobs.run_sweep_now(progress=lambda done, total: bar.progress(
                done / total, text=_game_of(done, total)))  # fmt: skip
            bar.empty()
            if said is not None:
                ui.notice_line(said.level, said.text)
            result = session.session().sweep
        if result is None:
            return
        st.plotly_chart(
            sweep_figure(result).update_layout(separators=separators()),
            width="stretch",
            key="sweep_chart",
        )
        st.code(format_sweep(result), language=None)


def _game_of(done: int, total: int) -> str:
    """The arena's and the sweep's progress bar text."""
    return _("game {done} of {total}", done=decimal(done), total=decimal(total))
