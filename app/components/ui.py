"""Small drawing helpers every panel shares: the panel guard, a help caption, a notice line.

They know nothing of the session, so any view (the panels, the A/B tab, the quiz) can use them
without importing the others.
"""

from __future__ import annotations

import functools
import html
import logging
from collections.abc import Callable
from typing import ParamSpec, TypeVar

import streamlit as st

from app.words.i18n import SHOWN_LABELS, _, current_tag, language

LOG = logging.getLogger("mcts_lab.app")

P = ParamSpec("P")  # a panel's parameters, kept by its guard
T = TypeVar("T")  # a select's option


def guarded(panel: Callable[P, None]) -> Callable[P, None]:
    """Draw a panel; an unexpected error becomes a one-line message, never a traceback on
    screen, and the rest of the page still draws (the traceback goes to the server log)."""

    @functools.wraps(panel)
    def draw(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            panel(*args, **kwargs)
        except Exception as error:
            LOG.exception("panel %s failed", panel.__name__)
            what = f"{type(error).__name__}: {error}"  # a developer's words: English
            st.error(
                _(
                    "This panel could not be drawn ({error}). The search and your settings "
                    "are unchanged.",
                    error=what,
                )
            )

    return draw


#: Help longer than this is folded into "How to read this" (content first, help one click away).
HELP_FOLD_CHARS = 120


def help_text(text: str) -> None:
    """A panel's help: a short note as a caption; a longer explanation folded under "How to
    read this", so the tab's first screen shows its board, table or chart."""
    if len(text) <= HELP_FOLD_CHARS:
        st.caption(text)
        return
    with st.expander(_("How to read this")):
        st.caption(text)


NOTICE_ICONS = {"success": "✓", "info": "ℹ", "warning": "⚠", "error": "✖"}


def notice_line(level: str, text: str) -> None:
    """A one-line message. The text is escaped and shown as plain text: messages quote user
    input (a position, a link's value), which must never become Markdown, a link or HTML."""
    icon = NOTICE_ICONS.get(level, "")
    text = " ".join(text.split())  # one line: a blank line would end the HTML block
    st.html(f'<div class="lab-note lab-{level}">{icon} {html.escape(text)}</div>')


def in_page_language(format_func: Callable[[T], str]) -> Callable[[T], str]:
    """A select's ``format_func`` that speaks the language current now (this run's), wherever
    it is called later: Streamlit keeps it and may call it outside the run (AppTest formats a
    select's value in the test's thread, where no language is set)."""
    tag = current_tag()

    def shown(value: T) -> str:
        with language(tag):
            label = format_func(value)
        if isinstance(value, str) and label != value:  # (issue 43: a label read back)
            known = SHOWN_LABELS.setdefault(label, value)
            if known != value:
                SHOWN_LABELS[label] = ""
        return label

    return shown
