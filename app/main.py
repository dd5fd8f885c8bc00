"""MCTS Lab: step through Monte Carlo Tree Search. Run with ``streamlit run app/main.py``."""

from __future__ import annotations

import sys
from pathlib import Path

# `streamlit run app/main.py` puts app/ on the path, not the repository root.
ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import streamlit as st  # noqa: E402

from app import lesson_view, panels, screen, session, state  # noqa: E402

st.set_page_config(page_title="MCTS Lab", page_icon="🌳", layout="wide")
state.init()
session.apply_outside_writes()  # before the sidebar: values the screen's callbacks gave it
lesson_view.open_link_once()  # ?lesson=NAME&page=N
panels.page_style()
lesson_view.lesson_sidebar()  # the lesson picker and the open page, atop the sidebar
panels.sidebar_controls()
screen.header()
screen.classroom_screen()  # controls, numbers, tree, narration and details: one fragment
