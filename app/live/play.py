"""Playing moves at the root: a board click, Play best, and the Play tab's modes."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.live.history import record_entry
from app.live.session import notify, player_names, safe, session, set_outside_widget
from app.live.stepping import game_over_notice
from mcts_core.rollout import sample_outcome


def play_move(action: Any, who: str) -> bool:
    """Play ``action`` at the root for real; keep the subtree. False (and a message) if illegal."""
    lab = session()
    search = lab.search
    game = search.game
    state = search.root_state
    if game.is_terminal(state):
        notify("error", "The game is over: no more moves. Reset or set up a new position.")
        return False
    legal = list(game.legal_actions(state))
    if action not in legal:
        notify("error", f"Illegal move refused: {_describe(game, state, action)}. Nothing changed.")
        return False
    label = game.action_label(state, action)
    outcomes = game.chance_outcomes(state, action)
    outcome = outcomes[sample_outcome(outcomes, lab.play_rng)][0]  # the real dice
    before = search.node_count
    reuse = search.advance(action, outcome)
    lab.position = game.format_state(search.root_state)
    set_outside_widget("position", lab.position)  # Play best and the boards run in the screen
    st.session_state["tree_focus"] = ""
    lab.series.clear()
    dice = game.outcome_label(state, action, outcome)
    kept = f"kept {reuse.kept_nodes:,} of {before:,} nodes ({reuse.kept_share:.0%})"
    notify("success", f"{who} played {label}{' — ' + dice if dice else ''}. Tree reuse: {kept}.")
    record_entry(f"{who}: {label}", None)
    if game.is_terminal(search.root_state):
        returns = game.returns(search.root_state)
        names = player_names()
        result = "draw" if returns[0] == 0 else f"{names[0 if returns[0] > 0 else 1]} wins"
        notify("info", f"Game over: {result}.")
    return True


def _describe(game: Any, state: Any, action: Any) -> str:
    try:
        return f"{game.action_label(state, action)} is not possible here"
    except Exception:
        return f"{action!r} is not possible here"


@safe
def on_board_click(action: Any) -> None:
    play_move(action, "You")


@safe
def on_play_best() -> None:
    lab = session()
    search = lab.search
    if game_over_notice():
        return
    mcts_side = search.game.current_player(search.root_state)
    if not search.root.children:
        search.run(iterations=int(st.session_state["iterations_per_click"]))
    best = search.best_child()
    if not play_move(best.action, "MCTS"):
        return
    if st.session_state["play_mode"] == "MCTS vs random":
        # the random player answers until it is MCTS's turn again (a gridiron turn is many
        # actions; bounded so a strange position cannot loop)
        for _ in range(1000):
            state = search.root_state
            game = search.game
            if game.is_terminal(state) or game.current_player(state) == mcts_side:
                break
            legal = list(game.legal_actions(state))
            play_move(legal[lab.play_rng.randrange(len(legal))], "Random player")
