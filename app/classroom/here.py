"""This process's room and this browser session's class: the accessors every class page
shares (the teacher's page, its vote box, the student's page). A module of its own so that
the parts of the teacher's page import it, not the page (no cycle)."""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from app.classroom import Room, Teacher, open_store
from app.classroom.push import Watcher, runtime_sessions

__all__ = ["room", "session_id", "teacher", "watcher"]


@st.cache_resource
def room() -> Room:
    """The process's room over the shared store (``MCTS_LAB_STORE``): every session and every
    replica sees the same classes. A resource, not the search: it holds only a connection."""
    return Room(open_store())


@st.cache_resource
def watcher() -> Watcher | None:
    """The process's watcher that pushes the teacher's changes to the students' pages it holds
    (``None`` without a Streamlit runtime: the pages poll every :data:`POLL_SECONDS`)."""
    session_of = runtime_sessions()
    return None if session_of is None else Watcher(room().version, room().here, session_of)


def session_id() -> str | None:
    """This browser session's id (``None`` outside a script run)."""
    ctx = get_script_run_ctx()
    return None if ctx is None else str(ctx.session_id)


def teacher() -> Teacher | None:
    """The class this browser session teaches, if any (its secret never leaves the session)."""
    found = st.session_state.get("class_teacher")
    return found if isinstance(found, Teacher) else None
