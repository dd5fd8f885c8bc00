"""The lesson picker, the quiz toggle and the open lesson's page, at the top of the sidebar.

A page is opened by the picker (key ``lesson``), by **Previous** / **Next** / **Again**
(``lesson_prev``, ``lesson_next``, ``lesson_again``) or by a link ``?lesson=NAME&page=N``. Opening
a page sets the screen up as its file says (game, position, settings, a tree of ``steps``
iterations, a detail tab) and turns the quiz on with the page's questions. The page's text is
a teacher's plain text: escaped, paragraphs kept, never Markdown or HTML.
"""

from __future__ import annotations

import html

import streamlit as st

from app.components import ui
from app.components.clicker_keys import free_the_keys
from app.inputs import widget_values
from app.inputs.links import lesson_link, link_steps
from app.lessons import clicker
from app.lessons.reading import Lesson, Page, load_lessons, press_text, student_text
from app.live import session, state
from app.quiz import quiz_view

NO_LESSON = "— no lesson: explore freely —"
#: Iterations a page's prepared tree may take at most (as a link's tree).
SETUP_SECONDS = 10.0
#: Settings a page starts from before its own: the sidebar's defaults (so a page shows what
#: its file says whatever the student changed before).
RESET_KEYS = (
    "seed",
    "iterations_per_click",
    "arena_games",
    "arena_iterations",
    "arena_rollout",
    "arena_opponent",
)
LESSON_CSS = """
<style>
.lab-lesson {font-size: 0.9rem; line-height: 1.3rem;}
.lab-lesson p {margin: 0 0 0.45rem 0;}
.lab-lesson .lab-lesson-head {font-weight: 600; font-size: 1rem;}
.lab-lesson .lab-lesson-page {color: #555; font-size: 0.8rem;}
.lab-lesson .lab-do {background: #e0f2fe; padding: 0.2rem 0.4rem; border-radius: 0.3rem;}
.lab-slide {font-size: 1.6rem; line-height: 2.25rem; max-width: 62rem;}
.lab-slide p {margin: 0 0 0.9rem 0; font-size: 1.6rem; line-height: 2.25rem;}
.lab-slide .lab-lesson-page {color: #4b5563; font-size: 1.15rem; margin: 0;}
.lab-slide .lab-lesson-head {font-size: 2.1rem; font-weight: 700; line-height: 2.6rem;
  margin: 0 0 0.8rem 0;}
.lab-slide .lab-do {background: #e0f2fe; padding: 0.2rem 0.5rem; border-radius: 0.3rem;}
.lab-strip {font-size: 1.15rem; line-height: 1.5rem;}
.lab-strip p {margin: 0; font-size: 1.15rem; line-height: 1.5rem;}
.lab-strip .lab-do {background: #e0f2fe; padding: 0.1rem 0.4rem; border-radius: 0.3rem;}
.st-key-clicker_next kbd {color: #ffffff !important; opacity: 1 !important;}
.st-key-clicker_prev kbd, .st-key-clicker_blank kbd {color: #4b5563 !important;
  opacity: 1 !important;}
.lab-blank {position: fixed; inset: 0; background: #000; z-index: 1000000; color: #333;
  font-size: 0.9rem; display: flex; align-items: flex-end; justify-content: flex-end;
  padding: 1rem;}
</style>
"""


def lessons() -> tuple[dict[str, Lesson], list[str]]:
    """The lessons that could be read, and a message per file that could not."""
    return load_lessons()


# --------------------------------------------------------------------------- opening


def open_link_once() -> None:
    """Open the page a link names (``?lesson=NAME&page=N``), once per session, after
    ``state.init()``; a bad value is a short warning and the screen works on without it."""
    s = st.session_state
    if s.get("lesson_link_read"):
        return
    s["lesson_link_read"] = True
    if "lesson" not in st.query_params:
        return
    found, _ = lessons()
    pages = {name: len(lesson.pages) for name, lesson in found.items()}
    name, page, refused = lesson_link(st.query_params, pages)
    if name is not None:
        open_page(found[name], page)
    for text in refused:
        session.notify("warning", text)
    steps, _ = link_steps(st.query_params.get("steps"))  # (a refused value: init said so)
    state.replay_link(steps)  # the sender's tree: the page's, grown by the clicks made on it


def open_page(lesson: Lesson, number: int) -> None:
    """Show page ``number`` (1-based) of ``lesson``: set the screen up, set the quiz."""
    s = st.session_state
    number = min(max(1, number), len(lesson.pages))
    page = lesson.pages[number - 1]
    s["lesson"] = lesson.name
    s["lesson_page"] = number
    if page.setup is not None:
        _apply_setup(page)
    box = quiz_view.quiz()
    box.kinds = page.questions or None
    box.depth = page.depth
    box.pending = None  # the page asks its own question next
    box.reveal = None
    s["quiz"] = bool(page.questions)
    s["quiz_answer"] = None  # (the sidebar shows the page: no message about it)
    clicker.start_page()  # (Present mode: the page's text slide first)


def _apply_setup(page: Page) -> None:
    """The page's set-up: defaults, then the game (with its own settings), the page's
    settings, the position, and a tree of ``steps`` seeded iterations."""
    setup = page.setup
    assert setup is not None
    s = st.session_state
    lab = session.session()
    before = len(lab.notices)
    for key in (*widget_values.CONFIG_WIDGETS.values(), *RESET_KEYS):
        s[key] = session.DEFAULTS[key]
    s["game"] = setup.game
    if "gridiron_size" in setup.settings:
        s["gridiron_size"] = setup.settings["gridiron_size"]
    if "seed" in setup.settings:
        s["seed"] = setup.settings["seed"]
    state.on_game_change()  # the game's own settings and a fresh tree at its opening
    search_settings = {k: v for k, v in setup.settings.items() if k != "gridiron_size"}
    s.update(search_settings)
    state.on_param_change()
    if setup.position:
        s["position"] = setup.position
        state.on_position_change()
    # the rebuilds' own messages ("New game", "Tree kept") say nothing the page does not
    lab.notices[before:] = [n for n in lab.notices[before:] if n.level == "error"]
    if setup.steps:
        result = lab.search.run(iterations=setup.steps, seconds=SETUP_SECONDS)
        if result.iterations < setup.steps:
            session.notify("warning", f"The page's tree stopped at {result.iterations:,} of "
                         f"{setup.steps:,} iterations ({result.stopped}).")  # fmt: skip
    if setup.tab is not None:
        s["details"] = setup.tab
        if setup.tab == "Arena":
            s["show_arena"] = True


@session.safe
def _on_pick() -> None:
    name = st.session_state["lesson"]
    if not name:
        st.session_state["lesson_page"] = 1
        quiz_view.quiz().kinds = None
        quiz_view.quiz().depth = None
        return
    found, _ = lessons()
    if name in found:
        open_page(found[name], 1)


@session.safe
def _on_move(delta: int) -> None:
    found, _ = lessons()
    lesson = found.get(st.session_state["lesson"])
    if lesson is not None:
        open_page(lesson, int(st.session_state.get("lesson_page", 1)) + delta)


# --------------------------------------------------------------------------- drawing


@ui.guarded
def lesson_sidebar() -> None:
    """The picker, the quiz toggle (key ``quiz``), any lesson file that could not be read, and
    the open page."""
    s = st.session_state
    found, errors = lessons()
    if s["lesson"] and s["lesson"] not in found:
        s["lesson"] = ""  # its file was removed or broken since
    with st.sidebar:
        st.selectbox(
            "Lesson",
            ("", *found),
            key="lesson",
            on_change=_on_pick,
            format_func=lambda name: found[name].title if name else NO_LESSON,
            help="Guided lessons: each page sets up the screen, says what to press and asks "
            "a question (lessons/*.toml; docs/lessons.md says how to write one).",
        )
        st.toggle(
            "Quiz: predict, then reveal",
            key="quiz",
            help="Before each click the screen asks what it will do (under the narration); "
            "the click reveals the answer with the numbers that decided it.",
        )
        for error in errors:
            ui.notice_line("warning", f"Lesson file not used: {error}")
        lesson = found.get(s["lesson"])
        if lesson is not None and not s["presentation"]:  # (Present mode: on the screen)
            _page(lesson, min(max(1, int(s.get("lesson_page", 1))), len(lesson.pages)))


def page_text() -> dict[str, str] | None:
    """The open lesson page as plain text (title, text, what comes next), for the class's
    screens: the page's words as a student reads them (``reading.student_text``: what the
    teacher presses, the projector's tabs); ``None`` without a lesson."""
    s = st.session_state
    found, _ = lessons()
    lesson = found.get(s["lesson"]) if s["lesson"] else None
    if lesson is None:
        return None
    number = min(max(1, int(s.get("lesson_page", 1))), len(lesson.pages))
    page = lesson.pages[number - 1]
    paragraphs = (" ".join(p.split()) for p in page.text.strip().split("\n\n") if p.strip())
    text = student_text("\n\n".join(paragraphs))  # (said to a student: no "press Step")
    if page.press:
        text += "\n\nNext on the projector: " + press_text(page.press) + "."
    return {"title": f"{lesson.title} · page {number}: {page.title}", "text": text}


def _page(lesson: Lesson, number: int) -> None:
    """The open page in the sidebar: Previous / Next at the top (a new page shows from its
    title, next to them), then where it is, its title, its text and what to do. (Present mode
    shows it on the projected screen instead: :func:`present_page`.)"""
    page = lesson.pages[number - 1]
    last = len(lesson.pages)
    where = (
        f'<p class="lab-lesson-page">{html.escape(lesson.title)} · page {number} of {last}</p>'
        f'<p class="lab-lesson-head">{html.escape(page.title)}</p>'
    )
    parts = []
    for paragraph in page.text.strip().split("\n\n"):
        text = " ".join(paragraph.split())
        if text:
            parts.append(f"<p>{html.escape(text)}</p>")
    todo = _todo(page)
    if todo:
        parts.append(f'<p class="lab-do">{html.escape(todo)}</p>')
    _page_buttons(number, last)
    st.html(LESSON_CSS + f'<div class="lab-lesson">{where}{"".join(parts)}</div>')


def _page_buttons(number: int, last: int) -> None:
    with st.container(horizontal=True, gap="small"):
        st.button("◀ Previous", key="lesson_prev", on_click=_on_move, args=(-1,),
                  disabled=number <= 1)  # fmt: skip
        st.button("Next ▶", key="lesson_next", on_click=_on_move, args=(1,),
                  disabled=number >= last, type="primary")  # fmt: skip
        st.button("↺ Again", key="lesson_again", on_click=_on_move, args=(0,),
                  help="Set this page up again")  # fmt: skip


def present_page() -> bool:
    """In Present mode, the open lesson page on the projected screen (container
    ``lesson_page``, above the classroom screen; the sidebar, hidden, does not draw it).
    Drawn outside the screen's fragment: a page's set-up writes the sidebar's widgets, which a
    full rerun redraws. True when a page was drawn (the screen leaves room for it)."""
    s = st.session_state
    if not s["presentation"] or not s["lesson"]:
        return False
    found, _ = lessons()
    lesson = found.get(s["lesson"])
    if lesson is None:
        return False
    number = min(max(1, int(s.get("lesson_page", 1))), len(lesson.pages))
    free_the_keys("clicker_keys")  # (a focused toggle would swallow the clicker's keys)
    if clicker.blanked():  # B: the projector goes black until B again
        st.html(LESSON_CSS + '<div class="lab-blank" role="presentation">B: back</div>')
    with st.container(key="lesson_page", border=True):
        if clicker.text_slide():
            _text_slide(lesson, number)
        else:
            _strip(lesson, number)
    return True


def text_slide() -> bool:
    """Whether the projector shows a lesson page's text slide (clicker mode): the classroom
    screen is not drawn under it."""
    return clicker.text_slide() and present_page_open()


def tab_slide() -> str | None:
    """The detail tab the projector shows alone now (clicker mode: the tab the open page
    names, after its presses), or ``None``."""
    lesson, number = _open_lesson()
    if lesson is None or not present_page_open():
        return None
    return clicker.tab_slide(lesson.pages[number - 1])


def present_page_open() -> bool:
    s = st.session_state
    found, _ = lessons()
    return bool(s["presentation"]) and s["lesson"] in found


def _todo(page: Page, *, clicker_words: bool = False) -> str:
    """What the page asks for, in one line: its presses, and its question first
    (``clicker_words``: said as the clicker's Page Down)."""
    if clicker_words and page.press:
        after = ", after the class answers the question." if page.questions else "."
        return f"Page Down: {press_text(page.press)}{after}"
    todo = []
    if page.press:
        todo.append("Press " + press_text(page.press) + ".")
    if page.questions:
        todo.append("First answer the question under the narration (the quiz), then press.")
    return " ".join(todo)


def _text_slide(lesson: Lesson, number: int) -> None:
    """The page's text whole, in projector type (container ``lesson_text_slide``), with the
    clicker's buttons below."""
    page = lesson.pages[number - 1]
    parts = [
        f'<p class="lab-lesson-page">{html.escape(lesson.title)} · page {number} of '
        f"{len(lesson.pages)}</p>",
        f'<p class="lab-lesson-head">{html.escape(page.title)}</p>',
    ]
    for paragraph in page.text.strip().split("\n\n"):
        text = " ".join(paragraph.split())
        if text:
            parts.append(f"<p>{html.escape(text)}</p>")
    todo = _todo(page, clicker_words=True)
    if todo:
        parts.append(f'<p class="lab-do">{html.escape(todo)}</p>')
    with st.container(key="lesson_text_slide"):
        st.html(LESSON_CSS + f'<div class="lab-slide">{"".join(parts)}</div>')
    _clicker_buttons(lesson, number)


def _strip(lesson: Lesson, number: int) -> None:
    """Above the screen slide: where the lesson is and what to do, in one line, and the
    clicker's buttons."""
    page = lesson.pages[number - 1]
    todo = _todo(page, clicker_words=True) or "Page Down: the next page."
    left, right = st.columns([3, 2], vertical_alignment="center")
    left.html(
        LESSON_CSS + f'<div class="lab-strip"><p><b>{html.escape(page.title)}</b> '
        f"({html.escape(lesson.title)} · page {number} of {len(lesson.pages)})</p>"
        f'<p class="lab-do">{html.escape(todo)}</p></div>'
    )
    with right:
        _clicker_buttons(lesson, number)


def _clicker_buttons(lesson: Lesson, number: int) -> None:
    """◀ (Page Up: ``clicker_prev``), ▶ what Page Down does next (``clicker_next``), and
    Blank (B: ``clicker_blank``)."""
    page = lesson.pages[number - 1]
    last = number >= len(lesson.pages)
    label = clicker.next_label(page, last)
    with st.container(horizontal=True, gap="small"):
        st.button("◀", key="clicker_prev", on_click=_on_clicker_back, shortcut=clicker.PREVIOUS_KEY,
                  help="Back one slide: the screen to its text, the text to the previous "
                  "page (key: Page Up, a clicker's back button)")  # fmt: skip
        st.button(f"▶ {label}", key="clicker_next", on_click=_on_clicker_next, type="primary",
                  shortcut=clicker.NEXT_KEY, disabled=label == "End of the lesson",
                  help="The page's next action, then the next page (key: Page Down, a "
                  "clicker's forward button)")  # fmt: skip
        st.button("Blank", key="clicker_blank", on_click=clicker.toggle_blank,
                  shortcut=clicker.BLANK_KEY,
                  help="Black screen, and back (key: B)")  # fmt: skip


def _open_lesson() -> tuple[Lesson | None, int]:
    s = st.session_state
    found, _ = lessons()
    lesson = found.get(s["lesson"]) if s["lesson"] else None
    if lesson is None:
        return None, 0
    return lesson, min(max(1, int(s.get("lesson_page", 1))), len(lesson.pages))


@session.safe
def _on_clicker_next() -> None:
    lesson, number = _open_lesson()
    if lesson is None:
        return
    if not clicker.text_slide():  # a press on the screen: the class has joined, the tree's turn
        st.session_state["class_join_shown"] = False
    if clicker.advance(lesson.pages[number - 1]) and number < len(lesson.pages):
        open_page(lesson, number + 1)


@session.safe
def _on_clicker_back() -> None:
    lesson, number = _open_lesson()
    if lesson is not None and clicker.back() and number > 1:
        open_page(lesson, number - 1)
