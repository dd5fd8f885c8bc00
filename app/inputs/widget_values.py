"""The sidebar's widgets read as a search: a ``SearchConfig`` and the tree drawing's bounds."""

from __future__ import annotations

from typing import Any

import streamlit as st

from app.drawing.tree_dot import TreeBounds
from app.words.i18n import decimal, n_
from games.registry import game_spec
from mcts_core import SearchConfig
from mcts_lab.presets import PRESET_NAMES
from mcts_lab.settings import SETTINGS, SettingKind, setting_for_widget

#: One session's tree at most (the CLI's default cap is 500,000): a class shares one server.
SESSION_MAX_NODES = 200_000


def session_full_message() -> str:
    """The full tree's notice in the current language (:data:`SESSION_FULL_MESSAGE` is the
    English one, as the session's notices kept it)."""
    return n_(
        "This tree is full: the app holds one tree to {n} node so that a class can share "
        "one server. Reset, or play a move to keep only its subtree.",
        "This tree is full: the app holds one tree to {n} nodes so that a class can share "
        "one server. Reset, or play a move to keep only its subtree.",
        SESSION_MAX_NODES,
        n=decimal(SESSION_MAX_NODES),
    )


SESSION_FULL_MESSAGE = (
    f"This tree is full: the app holds one tree to {SESSION_MAX_NODES:,} nodes so that a class "
    "can share one server. Reset, or play a move to keep only its subtree."
)

#: SearchConfig field -> the sidebar widget that sets it (the preset picker writes through it).
CONFIG_WIDGETS = {s.field: s.widget for s in SETTINGS if s.widget is not None}


PRESET_CHOICES = ("custom", *PRESET_NAMES)


def widget_range(widget: str) -> tuple[float, float]:
    """A search setting's sidebar widget range, from its row of ``mcts_lab/settings.py``
    (whole numbers for a whole-number setting, so the widget stays one of whole numbers)."""
    bounds = setting_for_widget(widget).bounds
    if bounds is None:
        raise KeyError(f"{widget} has no range")
    return bounds


def config_from_widgets() -> SearchConfig:
    """The search config the sidebar describes (``ConfigError`` for a nonsense combination)."""
    s = st.session_state
    values = {
        setting.field: _widget_value(setting.kind, s[setting.widget])
        for setting in SETTINGS
        if setting.widget is not None
    }
    return SearchConfig(**values, max_nodes=SESSION_MAX_NODES)


def _widget_value(kind: SettingKind, value: Any) -> Any:
    """A widget's value as its ``SearchConfig`` field wants it (a depth below 0: no limit)."""
    if kind == "number":
        return float(value)
    if kind == "whole":
        return int(value)
    if kind == "whole_or_none":
        return None if int(value) < 0 else int(value)
    if kind == "switch":
        return bool(value)
    return value


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
