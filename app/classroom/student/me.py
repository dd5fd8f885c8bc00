"""Who a student's page is: the student's place in a class (:class:`Me`, kept in the browser
session and in the address, found again from it after a reconnect) and the guard every
callback of the student's page runs under (an error is one line on the page, never a
traceback)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from app.classroom.shared import (
    room,
)
from app.words.i18n import _

_LOG = logging.getLogger(__name__)


@dataclass
class Me:
    """A student's place in a class (kept in their browser session and in the address)."""

    code: str
    id: str


def guarded(callback: Callable[..., None]) -> Callable[..., None]:
    """A student's callback: an unexpected error becomes one line on the page (the question's,
    or the join form's before joining), never a traceback; the class and the page go on. The
    teacher's callbacks have ``app.live.session.safe`` (a student's page has no session of its
    own to keep notices in)."""

    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            callback(*args, **kwargs)
        except Exception as error:
            _LOG.exception("%s failed", callback.__name__)
            joined = isinstance(st.session_state.get("class_me"), Me)
            where = "class_notice" if joined else "class_join_notice"
            st.session_state[where] = _(
                "That did not work ({error}). Try again.", error=type(error).__name__
            )

    return run


def find_me() -> Me | None:
    me = st.session_state.get("class_me")
    if isinstance(me, Me):
        return me
    # a reconnecting page (a phone that slept, another replica) finds its place from the URL
    code, token = st.query_params.get("class", ""), st.query_params.get("me", "")
    if code and token:
        try:
            found = room().student(str(code)[:12].upper(), str(token)[:64])
        except OSError:
            found = None
        if found is not None:
            me = Me(str(code).upper(), found.id)
            st.session_state["class_me"] = me
            return me
    return None
