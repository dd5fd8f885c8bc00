"""Playing moves at the root: a board click, Play best, and the Play tab's modes."""

from __future__ import annotations

import time
from typing import Any

import streamlit as st

from app.live.history import record_entry
from app.live.session import (
    notify,
    player_names,
    safe,
    server_nodes,
    session,
    set_outside_widget,
)
from app.live.stepping import SERVER_MAX_NODES, STEP_N_SECONDS, game_over_notice
from mcts_core.rollout import sample_outcome

#: Play best's think budget: before it plays, the search tops the root up to at least this
#: many visits (within ``STEP_N_SECONDS``), so a move is never picked from a kept tree of a
#: handful of playouts (issue 31: b1 played from a root of 2 visits). The message and the
#: narration say how many iterations it ran.
PLAY_BEST_VISITS = 1000


def play_move(action: Any, who: str, thought: str = "") -> bool:
    """Play ``action`` at the root for real; keep the subtree. False (and a message) if illegal.

    ``thought`` (Play best's think, one sentence) goes into the message and the narration."""
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
    played = f"{who} played {label}{' — ' + dice if dice else ''}."
    notify("success", f"{played} {thought}Tree reuse: {kept}.")
    # the entry's own narration: the screen shows what was played until the next click
    record_entry(
        f"{who}: {label}",
        None,
        narration=(
            f"{played} {thought}The tree below that move was kept ({kept}): the new root "
            f"has {search.root.visits:,} visits, and the next Step searches from it."
        ),
    )
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


def think() -> str:
    """Play best's search before it plays: top the root up to :data:`PLAY_BEST_VISITS` visits
    (within ``STEP_N_SECONDS``); one sentence saying what it ran, "" when the root had enough."""
    lab = session()
    search = lab.search
    had = search.root.visits
    missing = PLAY_BEST_VISITS - had
    if missing <= 0:
        return ""
    if search.tree_full or server_nodes() >= SERVER_MAX_NODES:
        return (
            f"It could not search first (the tree or the server is full): it chose from "
            f"a root of {had:,} visits. "
        )
    start = time.perf_counter()
    result = search.run(iterations=missing, seconds=STEP_N_SECONDS)
    elapsed = time.perf_counter() - start
    lab.last_rate = result.iterations / elapsed if elapsed and result.iterations else 0.0
    return (
        f"It searched first: {result.iterations:,} iterations, from {had:,} to "
        f"{search.root.visits:,} root visits (Play best searches to at least "
        f"{PLAY_BEST_VISITS:,}). "
    )


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
    thought = think()
    if not search.root.children:
        search.run(iterations=int(st.session_state["iterations_per_click"]))
    best = search.best_child()
    if not play_move(best.action, "MCTS", thought):
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
