"""MCTS Lab: step through Monte Carlo Tree Search. Run with ``streamlit run app/main.py``."""

from __future__ import annotations

import sys
from pathlib import Path

# `streamlit run app/main.py` puts app/ on the path, not the repository root.
ROOT = str(Path(__file__).resolve().parents[1])
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import streamlit as st  # noqa: E402

from app.classroom import shared  # noqa: E402
from app.classroom.student import page as student  # noqa: E402
from app.classroom.teacher import start, vote  # noqa: E402
from app.components.ui import notice_line  # noqa: E402
from app.inputs import language_choice  # noqa: E402
from app.lessons import lesson_view  # noqa: E402
from app.live import clicks, session, state  # noqa: E402
from app.screen import page, sidebar  # noqa: E402
from app.tracefile import trace_view  # noqa: E402

st.set_page_config(page_title="MCTS Lab", page_icon="🌳", layout="wide")
clicks.install()  # count Step clicks as they arrive, before Streamlit merges them
if refused_lang := language_choice.apply():  # this run's words: select, ?lang=, the browser's
    notice_line("warning", refused_lang)  # (plain text, never Markdown)
if shared.is_student_page() and student.exploring() is None:
    sidebar.direction_style()  # an Arabic phone right to left too (its own look otherwise)
    student.student_page()  # /?class=CODE: a student's page, no search of its own
    st.stop()
student.explore_bar()  # a student exploring on their own: Back to the class
state.init()
session.apply_outside_writes()  # before the sidebar: values the screen's callbacks gave it
trace_view.open_chosen_file()  # a file just chosen: read here, with a progress bar
trace_view.keep_live_widgets()  # while a file is shown instead of the live screen
lesson_view.open_link_once()  # ?lesson=NAME&page=N
start.resume_once()  # a reload: this browser's class comes back (its teacher cookie)
sidebar.page_style()
language_choice.language_select(st.sidebar)  # offered languages only: hidden with one
lesson_view.lesson_sidebar()  # the lesson picker and the open page, atop the sidebar
if not st.session_state["presentation"]:  # (Present mode has it in the header)
    start.start_button(st.sidebar)  # a class joins by code and answers the quiz together
start.pin_box(st.sidebar)  # closed: the PIN that takes the class back in another browser
vote.anonymous_toggle(st.sidebar)  # a class's results CSV with names or "Student N"
sidebar.sidebar_controls(trace_view.on_run_until if trace_view.active() else None)
trace_view.trace_sidebar()  # open a tree or trace from any MCTS
page.header(file_open=trace_view.active())  # the Link and the Export box beside it
page.lesson_strip(lesson_view.present_page())  # Present mode: the lesson page on screen
if trace_view.active():
    trace_view.trace_screen()  # the open file instead of the live search, until closed
elif lesson_view.text_slide():
    pass  # clicker mode: the lesson page's text alone on the projector (Page Down: the screen)
elif (tab := lesson_view.tab_slide()) is not None:
    page.tab_slide(tab)  # clicker mode: the tab the page names, alone on the projector
else:
    page.classroom_screen()  # controls, numbers, tree, narration and details: one fragment
start.keep_teacher_keys(st.sidebar)  # the teacher cookie: a reload finds the class
