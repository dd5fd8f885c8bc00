"""Playing moves at the root: a board click, Play best, and the Play tab's modes."""

from __future__ import annotations

import time

import streamlit as st

from app.live.history import record_entry
from app.live.session import (
    Words,
    no_words,
    notify,
    player_names,
    safe,
    sentences,
    server_nodes,
    session,
    set_outside_widget,
)
from app.live.stepping import SERVER_MAX_NODES, STEP_N_SECONDS, game_over_notice
from app.words.game_words import shown
from app.words.i18n import N_, _, decimal, n_, percent
from games.base import AnyGame
from mcts_core.game import Action
from mcts_core.rollout import sample_outcome

#: Play best's think budget: before it plays, the search tops the root up to at least this
#: many visits (within ``STEP_N_SECONDS``), so a move is never picked from a kept tree of a
#: handful of playouts (issue 31: b1 played from a root of 2 visits). The message and the
#: narration say how many iterations it ran.
PLAY_BEST_VISITS = 1000

#: Who plays a move, as the message and the history name them (translated where shown).
YOU, MCTS, RANDOM_PLAYER = N_("You"), N_("MCTS"), N_("Random player")


def play_move(action: Action, who: str, thought: Words = no_words) -> bool:
    """Play ``action`` at the root for real; keep the subtree. False (and a message) if illegal.

    ``who`` is :data:`YOU`, :data:`MCTS` or :data:`RANDOM_PLAYER` (English, translated where
    shown). ``thought`` (Play best's think, one sentence, made when shown) goes into the
    message and the narration."""
    lab = session()
    search = lab.search
    game = search.game
    state = search.root_state
    if game.is_terminal(state):
        notify("error", _("The game is over: no more moves. Reset or set up a new position."))
        return False
    legal = list(game.legal_actions(state))
    if action not in legal:
        notify(
            "error",
            _("Illegal move refused: {why}. Nothing changed.", why=_describe(game, state, action)),
        )
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
    kept_nodes, kept_share, visits = reuse.kept_nodes, reuse.kept_share, search.root.visits
    label = str(label)

    def played() -> str:
        if dice:
            return _(
                "{who} played {move} — {dice}.", who=_(who), move=shown(label), dice=shown(dice)
            )
        return _("{who} played {move}.", who=_(who), move=shown(label))

    def kept() -> str:
        return n_(
            "kept {kept} of {n} node ({share})",
            "kept {kept} of {n} nodes ({share})",
            before,
            kept=decimal(kept_nodes),
            n=decimal(before),
            share=percent(kept_share),
        )

    notify(
        "success",
        sentences(played(), thought(), _("Tree reuse: {kept}.", kept=kept())),
    )

    # the entry's own narration: the screen shows what was played until the next click
    def narration() -> str:
        return sentences(
            played(),
            thought(),
            n_(
                "The tree below that move was kept ({kept}): the new root has {visits} visit, "
                "and the next Step searches from it.",
                "The tree below that move was kept ({kept}): the new root has {visits} visits, "
                "and the next Step searches from it.",
                visits,
                kept=kept(),
                visits=decimal(visits),
            ),
        )

    record_entry(
        # TRANSLATORS: a history entry's label: who played which move ("You: b2")
        lambda: _("{who}: {move}", who=_(who), move=shown(label)),
        None,
        narration=narration,
    )
    if game.is_terminal(search.root_state):
        returns = game.returns(search.root_state)
        names = player_names()
        if returns[0] == 0:
            notify("info", _("Game over: draw."))
        else:
            winner = names[0 if returns[0] > 0 else 1]
            notify("info", _("Game over: {player} wins.", player=winner))
    return True


def _describe(game: AnyGame, state: object, action: Action) -> str:
    try:
        return _("{move} is not possible here", move=shown(game.action_label(state, action)))
    except Exception:
        return _("{move} is not possible here", move=repr(action))


def think() -> Words:
    """Play best's search before it plays: top the root up to :data:`PLAY_BEST_VISITS` visits
    (within ``STEP_N_SECONDS``); one sentence saying what it ran (made when shown), "" when
    the root had enough."""
    lab = session()
    search = lab.search
    had = search.root.visits
    missing = PLAY_BEST_VISITS - had
    if missing <= 0:
        return no_words
    if search.tree_full or server_nodes() >= SERVER_MAX_NODES:
        return lambda: n_(
            "It could not search first (the tree or the server is full): it chose from a "
            "root of {visits} visit.",
            "It could not search first (the tree or the server is full): it chose from a "
            "root of {visits} visits.",
            had,
            visits=decimal(had),
        )
    start = time.perf_counter()
    result = search.run(iterations=missing, seconds=STEP_N_SECONDS)
    elapsed = time.perf_counter() - start
    lab.last_rate = result.iterations / elapsed if elapsed and result.iterations else 0.0
    ran, visits = result.iterations, search.root.visits
    return lambda: n_(
        "It searched first: {n} iteration, from {had} to {visits} root visits (Play best "
        "searches to at least {least}).",
        "It searched first: {n} iterations, from {had} to {visits} root visits (Play best "
        "searches to at least {least}).",
        ran,
        n=decimal(ran),
        had=decimal(had),
        visits=decimal(visits),
        least=decimal(PLAY_BEST_VISITS),
    )


@safe
def on_board_click(action: Action) -> None:
    play_move(action, YOU)


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
    if not play_move(best.action, MCTS, thought):
        return
    if st.session_state["play_mode"] == "MCTS vs random":
        # the random player answers until it is MCTS's turn again (a gridiron turn is many
        # actions; bounded so a strange position cannot loop)
        for _turn in range(1000):
            state = search.root_state
            game = search.game
            if game.is_terminal(state) or game.current_player(state) == mcts_side:
                break
            legal = list(game.legal_actions(state))
            play_move(legal[lab.play_rng.randrange(len(legal))], RANDOM_PLAYER)
