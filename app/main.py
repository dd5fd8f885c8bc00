"""MCTS Lab: step through Monte Carlo Tree Search. Run with ``streamlit run app/main.py``."""

from __future__ import annotations

import sys
from pathlib import Path

# `streamlit run app/main.py` puts app/ on the path, not the repository root.
ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import streamlit as st  # noqa: E402

from app import panels, state  # noqa: E402

st.set_page_config(page_title="MCTS Lab", page_icon="🌳", layout="wide")
state.init()

panels.sidebar_controls()
st.title("MCTS Lab")
st.caption(
    "Monte Carlo Tree Search, one iteration at a time: select → expand → simulate → backpropagate."
)
panels.notices()
panels.step_controls()
panels.notices()  # messages written while Step N ran
panels.statistics_panel()
panels.history_panel()
entry = state.current_entry()
trace = entry.trace if entry is not None else None
panels.phase_panel(entry)

left, right = st.columns([1, 1])
with left:
    panels.board_panel()
with right:
    panels.final_policies_panel()
    panels.play_panel()
panels.tree_panel()

panels.uct_panel(trace)
panels.rollout_panel(trace)
panels.chance_panel(trace)
panels.charts_panel()
panels.arena_panel()
panels.printed_tree_panel(trace)
state.sync_query_params()
