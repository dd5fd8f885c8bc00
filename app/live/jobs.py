"""The long jobs of the arena tab: the arena's games and the parameter sweep."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.inputs.links import (
    MAX_VALUE_CHARS,
)
from app.inputs.widget_values import config_from_widgets
from app.live.session import LOG, Notice, click_waiting, notify, reported, session
from app.live.state import game_options
from app.words.i18n import _
from games.registry import make_game

#: The arena starts no new pair of games after this long (and says so).
ARENA_SECONDS = 60.0


@reported
def run_arena(progress: Any = None) -> None:
    """Play the arena with the sidebar's search settings (C, policy, expansion order, ...)."""
    from dataclasses import replace

    from mcts_lab.arena import play_arena, rollout_config

    s = st.session_state
    lab = session()
    base = rollout_config(s["arena_rollout"])
    config = replace(config_from_widgets(), rollout_depth=base.rollout_depth,
                     rollout_horizon=base.rollout_horizon)  # fmt: skip
    game = make_game(s["game"], **game_options())
    lab.arena = play_arena(
        game, games=int(s["arena_games"]), iterations=int(s["arena_iterations"]),
        config=config, opponent=s["arena_opponent"], seed=int(s["seed"]), progress=progress,
        seconds=ARENA_SECONDS, should_stop=click_waiting,
    )  # fmt: skip
    if lab.arena.stopped:
        notify(
            "info",
            _(
                "The arena stopped early ({why}): the table counts the games played.",
                why=lab.arena.stopped,
            ),
        )


def run_sweep_now(progress: Any = None) -> Notice | None:
    """The arena tab's sweep: ``sweep_param`` over ``sweep_values``, ``sweep_games`` games per
    side per value, with the arena's iterations, rollout and opponent on the sidebar's settings;
    serial in this process, bounded like the arena (``ARENA_SECONDS``, a click stops it).

    Returns what to say beside the sweep (bad values, a setting without effect, an early stop),
    or ``None``; never raises."""
    from dataclasses import replace

    from mcts_lab.arena import rollout_config
    from mcts_lab.sweep.sweeps import parse_values, resolve_param, run_sweep

    s = st.session_state
    lab = session()
    try:
        param = resolve_param(str(s["sweep_param"]))
        values = parse_values(param, str(s["sweep_values"])[:MAX_VALUE_CHARS])
    except ValueError as error:
        return Notice(
            "warning",
            _("Sweep values: {error}.", error=str(error).removeprefix("--values: ")),
        )
    try:
        base = rollout_config(s["arena_rollout"])
        config = replace(config_from_widgets(), rollout_depth=base.rollout_depth,
                         rollout_horizon=base.rollout_horizon)  # fmt: skip
        lab.sweep = run_sweep(
            s["game"], param=param, values=values, games=int(s["sweep_games"]),
            iterations=int(s["arena_iterations"]), config=config, opponent=s["arena_opponent"],
            seed=int(s["seed"]), size=game_options().get("size"), backend="serial",
            progress=progress, seconds=ARENA_SECONDS, should_stop=click_waiting,
        )  # fmt: skip
    except ValueError as error:
        return Notice("warning", _("Sweep not run: {error}.", error=str(error).removeprefix("--")))
    except Exception as error:
        LOG.exception("sweep failed")
        return Notice(
            "error",
            _(
                "The sweep did not work ({error_type}: {error}).",
                error_type=type(error).__name__,
                error=error,
            ),
        )
    if lab.sweep.stopped:
        return Notice(
            "info",
            _(
                "The sweep stopped early ({why}): the chart and the table count the games played.",
                why=lab.sweep.stopped,
            ),
        )
    return None
