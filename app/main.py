"""MCTS Lab: step through Monte Carlo Tree Search. Run with ``streamlit run app/main.py``."""

from __future__ import annotations

import sys
from pathlib import Path

# `streamlit run app/main.py` puts app/ on the path, not the repository root.
ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import streamlit as st  # noqa: E402

from app import panels, screen, state  # noqa: E402

st.set_page_config(page_title="MCTS Lab", page_icon="🌳", layout="wide")
state.init()
panels.page_style()
panels.sidebar_controls()
screen.header()
screen.classroom_screen()  # controls, numbers, tree, narration and details: one fragment
