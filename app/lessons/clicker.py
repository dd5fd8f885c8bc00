"""Clicker mode: a lesson run from the projector by a presentation clicker alone.

On in Present mode with a lesson open. Each lesson page is two slides, so that both are whole on
a 1280x720 projector: its *text* (the page's words in projector type, nothing else on screen)
and its *screen* (the classroom screen, with the page's one line of what to do above it).

- **Page Down** does the next thing, in order: from the text, the screen; on the screen, the
  page's presses one by one (Step, Step N, Phase, Run arena, ...; a question the page asks is
  revealed by the press it waits for, answered by the class or by nobody; the reveal is on the
  projector alone, and when a press is left the next Page Down shows the next question); then,
  when the page names a tab (Board, Dice, Arena, ...), that tab alone on the projector (its
  *tab* slide: the detail tabs sit below a 720 px screen); then the next page's text. The
  button that takes Page Down (``clicker_next``) names what it will do.
- **Page Up** goes back one slide: from the tab to the screen, from the screen to its text,
  from the text to the previous page's text (set up afresh). It never undoes a press.
- **B** blanks the projector (black), and again brings it back (a slide deck's convention).

This module holds the rules (what Page Down does next, the slide a page is on); the lesson view
(:mod:`app.lessons.lesson_view`) draws the buttons and opens pages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import streamlit as st

from app.lessons.reading import Page, press_name
from app.live import history, jobs, play, stepping
from app.words.i18n import _

__all__ = [
    "ACTIONS",
    "BLANK",
    "NEXT_KEY",
    "PREVIOUS_KEY",
    "BLANK_KEY",
    "active",
    "advance",
    "at_end",
    "back",
    "blanked",
    "next_kind",
    "next_label",
    "presses_done",
    "start_page",
    "state",
    "tab_slide",
    "text_slide",
    "toggle_blank",
]

#: The clicker's keys (a clicker's forward and back buttons send Page Down and Page Up).
NEXT_KEY = "PageDown"
PREVIOUS_KEY = "PageUp"
BLANK_KEY = "b"
#: Session keys: the slide the open page is on, the presses done on its screen, the blank.
SLIDE = "lesson_slide"
DONE = "lesson_presses_done"
BLANK = "lesson_blank"

Slide = Literal["text", "screen", "tab"]
#: What Page Down does next, in no language (the page's ``data-clicker-next``, read by
#: scripts/rehearse_lessons.py and the browser tests): the screen, the next question (held back
#: while the last one's reveal is on the projector alone), a press, the named tab, the next page,
#: the next lesson's first page (from the last slide of a lesson that has a next one), or nothing
#: (the course's end).
NextKind = Literal["screen", "question", "press", "tab", "page", "lesson", "end"]

#: What each press a page may name does, run from the clicker (``reading.PRESSES`` names them).
ACTIONS: dict[str, Callable[[], None]] = {
    "Step": stepping.on_step,
    "Step N": stepping.run_batch,
    "Phase": stepping.on_phase_step,
    "Back": history.on_back,
    "Forward": history.on_forward,
    "Reset": stepping.on_reset,
    "Play best": play.on_play_best,
    "Run arena": jobs.run_arena,
}


def active() -> bool:
    """Clicker mode: Present mode with a lesson open."""
    s = st.session_state
    return bool(s.get("presentation")) and bool(s.get("lesson"))


def start_page() -> None:
    """A page was opened: its text slide first, no press done."""
    st.session_state[SLIDE] = "text"
    st.session_state[DONE] = 0


def text_slide() -> bool:
    """Whether the projector shows the open page's text slide (clicker mode only)."""
    return active() and st.session_state.get(SLIDE, "text") == "text"


def tab_slide(page: Page) -> str | None:
    """The tab the projector shows alone now (the page's named tab, on its tab slide), or
    ``None``."""
    if not active() or st.session_state.get(SLIDE) != "tab" or page.setup is None:
        return None
    return page.setup.tab


def _named_tab(page: Page) -> str | None:
    return page.setup.tab if page.setup is not None else None


def _done() -> int:
    return int(st.session_state.get(DONE, 0))


def presses_done() -> int:
    """The open page's presses the clicker has done on its screen."""
    return _done()


def at_end(page: Page, last_page: bool, next_lesson: str = "") -> bool:
    """Whether Page Down has nothing left to do: the last page of the last lesson, its presses
    and tab done."""
    return next_kind(page, last_page, next_lesson) == "end"


def next_kind(
    page: Page, last_page: bool, next_lesson: str = "", question: bool = False
) -> NextKind:
    """What Page Down does next, as a stable word: ``screen`` (from the text), ``question``
    (``question``: a question waits behind the reveal on the projector, and a press is left to
    answer it), ``press`` (the page's next press), ``tab`` (the named tab alone), ``page`` (the
    next page), ``lesson`` (the first page of ``next_lesson``, the lesson after this one: ""
    when none) or ``end``."""
    if text_slide():
        return "screen"
    if _done() < len(page.press):
        return "question" if question else "press"
    if _named_tab(page) and st.session_state.get(SLIDE) == "screen":
        return "tab"
    if not last_page:
        return "page"
    return "lesson" if next_lesson else "end"


def state(
    page: Page, number: int, pages: int, next_lesson: str = "", question: bool = False
) -> dict[str, str]:
    """The clicker's state as ``data-clicker-*`` attributes' values (no language): the next
    action's kind, the page's number and count, the slide, the presses done; any Page Down or
    Page Up that does something changes one of them."""
    return {
        "next": next_kind(page, number >= pages, next_lesson, question),
        "page": str(number),
        "pages": str(pages),
        "slide": str(st.session_state.get(SLIDE, "text")),
        "done": str(_done()),
    }


def next_label(page: Page, last_page: bool, next_lesson: str = "", question: bool = False) -> str:
    """What Page Down does next, in words (the current language): "Show the screen", "Show
    the next question", "Step", "Phase (2 of 4)", "Next page", "Next lesson: 2. Exploration
    ..." (``next_lesson``: its title) or "End of the lesson"."""
    kind = next_kind(page, last_page, next_lesson, question)
    if kind == "screen":
        # TRANSLATORS: the clicker's next action: from the page's text to the screen.
        return _("Show the screen")
    if kind == "question":
        # TRANSLATORS: the clicker's next action: after the last answer's reveal, the next
        # question on the projector.
        return _("Show the next question")
    if kind == "press":
        done = _done()
        name = press_name(page.press[done])
        if len(page.press) == 1:
            return name
        # TRANSLATORS: the clicker's next action: a press of several ("Phase (2 of 4)").
        return _("{button} ({number} of {count})", button=name, number=done + 1,
                 count=len(page.press))  # fmt: skip
    tab = _named_tab(page)
    if kind == "tab" and tab:
        # TRANSLATORS: the clicker's next action: that detail tab alone on the projector.
        return _("Show the {tab} tab", tab=_(tab))
    if kind == "lesson":
        # TRANSLATORS: the clicker's next action on a lesson's last slide: the next lesson's
        # first page ("Next lesson: 2. Exploration versus exploitation").
        return _("Next lesson: {lesson}", lesson=next_lesson)
    return _("End of the lesson") if kind == "end" else _("Next page")


def advance(page: Page) -> bool:
    """Page Down: the next thing on this page (the screen, then its presses); True when the
    page is done and the next page should open."""
    s = st.session_state
    if text_slide():
        s[SLIDE] = "screen"
        return False
    done = _done()
    if done < len(page.press):
        s[DONE] = done + 1
        ACTIONS[page.press[done]]()
        return False
    if _named_tab(page) and s.get(SLIDE) == "screen":
        s[SLIDE] = "tab"
        return False
    return True


def back() -> bool:
    """Page Up: from the tab back to the screen, from the screen back to its text (False);
    from the text, True: the previous page should open."""
    slide = st.session_state.get(SLIDE)
    if active() and slide in ("screen", "tab"):
        st.session_state[SLIDE] = "text" if slide == "screen" else "screen"
        return False
    return True


def blanked() -> bool:
    return active() and bool(st.session_state.get(BLANK))


def toggle_blank() -> None:
    st.session_state[BLANK] = not st.session_state.get(BLANK, False)
