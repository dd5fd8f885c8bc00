"""The sidebar's widgets read as a search: a ``SearchConfig`` and the tree drawing's bounds."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.figures import TreeBounds
from games.registry import game_spec
from mcts_core import SearchConfig
from mcts_lab.presets import PRESET_NAMES

#: One session's tree at most (the CLI's default cap is 500,000): a class shares one server.
SESSION_MAX_NODES = 200_000


SESSION_FULL_MESSAGE = (
    f"This tree is full: the app holds one tree to {SESSION_MAX_NODES:,} nodes so that a class "
    "can share one server. Reset, or play a move to keep only its subtree."
)

#: SearchConfig field -> the sidebar widget that sets it (the preset picker writes through it).
CONFIG_WIDGETS = {
    "c": "c",
    "tree_policy": "policy",
    "prior": "prior",
    "min_visits": "min_visits",
    "expansion_order": "expansion",
    "rollout": "rollout",
    "epsilon": "epsilon",
    "rollout_depth": "rollout_depth",
    "rollout_horizon": "horizon",
    "win_value": "win_value",
    "draw_value": "draw_value",
    "loss_value": "loss_value",
    "heuristic_weight": "heuristic_weight",
    "value_range": "value_range",
    "final_policy": "final_policy",
    "solver": "solver",
}


PRESET_CHOICES = ("custom", *PRESET_NAMES)


def config_from_widgets() -> SearchConfig:
    """The search config the sidebar describes (``ValueError`` for a nonsense combination)."""
    s = st.session_state
    depth = int(s["rollout_depth"])
    return SearchConfig(
        c=float(s["c"]),
        tree_policy=s["policy"],
        prior=s["prior"],
        min_visits=int(s["min_visits"]),
        expansion_order=s["expansion"],
        rollout=s["rollout"],
        epsilon=float(s["epsilon"]),
        rollout_depth=None if depth < 0 else depth,
        rollout_horizon=s["horizon"],
        win_value=float(s["win_value"]),
        draw_value=float(s["draw_value"]),
        loss_value=float(s["loss_value"]),
        heuristic_weight=float(s["heuristic_weight"]),
        value_range=s["value_range"],
        final_policy=s["final_policy"],
        solver=bool(s["solver"]),
        max_nodes=SESSION_MAX_NODES,
    )


def bounds_from_widgets() -> TreeBounds:
    s = st.session_state
    focus_text = str(s["tree_focus"]).strip().lstrip("#")
    # ASCII digits only ("²".isdigit() is true and int("²") raises), and a sane length
    ok = focus_text.isascii() and focus_text.isdigit() and len(focus_text) <= 12
    focus = int(focus_text) if ok else None
    return TreeBounds(
        max_nodes=int(s["tree_max_nodes"]),
        top_k=int(s["tree_top_k"]),
        min_visits=int(s["tree_min_visits"]),
        focus=focus,
    )


def game_settings(game_name: str) -> dict[str, Any]:
    """The widgets' values a game starts with when picked (its registration's ``settings``,
    e.g. gridiron: no rollouts, the heuristic expansion order, less exploration)."""
    return {
        CONFIG_WIDGETS[field]: -1 if field == "rollout_depth" and value is None else value
        for field, value in game_spec(game_name).settings.items()
    }
