"""Who a student's page is: the student's place in a class (:class:`Me`, kept in the browser
session; found again after a reconnect from the browser's student cookie, never from the
address alone) and the guard every callback of the student's page runs under (an error is one
line on the page, never a traceback)."""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import streamlit as st

from app.classroom.core.store import RETENTION_SECONDS
from app.classroom.shared import (
    room,
)
from app.components.cookie import read_cookie, write_cookie
from app.words.i18n import N_, _

_LOG = logging.getLogger(__name__)


@dataclass
class Me:
    """A student's place in a class (kept in their browser session; the code and id also in
    the address, the ``key`` in the browser's student cookie only).

    Attributes:
        code: the class's code.
        id: the student's id in it.
        key: the secret of the browser that joined (``""``: a student found by an id from
            before browser keys).
    """

    code: str
    id: str
    key: str = ""


#: The cookie that binds a student's place to the browser that joined (Path=/,
#: SameSite=Strict): ``CODE:ID:KEY``, the class this browser is in now (one: a browser is one
#: student). The store keeps the key's hash with the student (``Student.key``).
STUDENT_COOKIE = "mcts_lab_student"

#: What a page opened at another student's address says (the link was copied).
NOT_YOURS = N_("That link is another student's place in the class. Join as yourself.")


def guarded(callback: Callable[..., None]) -> Callable[..., None]:
    """A student's callback: an unexpected error becomes one line on the page (the question's,
    or the join form's before joining), never a traceback; the class and the page go on. The
    teacher's callbacks have ``app.live.session.safe`` (a student's page has no session of its
    own to keep notices in)."""

    @functools.wraps(callback)
    def run(*args: Any, **kwargs: Any) -> None:
        try:
            callback(*args, **kwargs)
        except Exception:
            _LOG.exception("%s failed", callback.__name__)
            joined = isinstance(st.session_state.get("class_me"), Me)
            where = "class_notice" if joined else "class_join_notice"
            st.session_state[where] = _("That did not work. Try again.")  # (the log: why)

    return run


def find_me() -> Me | None:
    """This page's student: the browser session's, else (a reload, a phone that slept,
    another replica) the one this browser's student cookie names for the address's class,
    when the store still knows that browser's key. An address naming another student (a
    copied link) finds no one: the join form says so and the address loses the id."""
    me = st.session_state.get("class_me")
    if isinstance(me, Me):
        return me
    code = str(st.query_params.get("class", ""))[:12].upper()
    token = str(st.query_params.get("me", ""))[:64]
    if not code:
        return None
    kept = _cookie()
    try:
        if kept is not None and kept.code == code:  # (its own place, whatever the address)
            found = room().returning(code, kept.id, kept.key)
            if found is not None:
                me = Me(code, found.id, kept.key)
                st.session_state["class_me"] = me
                st.query_params["me"] = found.id
                return me
        if token and room().student(code, token) is not None:
            legacy = room().returning(code, token, "")  # (a record from before browser keys)
            if legacy is not None:
                me = Me(code, legacy.id)
                st.session_state["class_me"] = me
                return me
            st.session_state["class_join_notice"] = _(NOT_YOURS)
            del st.query_params["me"]
    except OSError:
        return None  # (the store away: the page says so; the next run looks again)
    return None


def _cookie() -> Me | None:
    """The place this browser's student cookie keeps (``None``: none, or not readable)."""
    code, _sep, rest = (read_cookie(STUDENT_COOKIE) or "").partition(":")
    student_id, _sep2, key = rest.partition(":")
    if not (code and student_id and key) or len(key) > 64:
        return None
    return Me(code[:12].upper(), student_id[:64], key)


def keep_me(me: Me) -> None:
    """Write this page's place into the browser's student cookie (a reload finds it again);
    draws nothing. A student found by an id from before browser keys has none to keep."""
    if me.key:
        write_cookie(STUDENT_COOKIE, f"{me.code}:{me.id}:{me.key}", RETENTION_SECONDS,
                     key="class_me_cookie")  # fmt: skip
