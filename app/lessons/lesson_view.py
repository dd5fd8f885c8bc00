"""The lesson picker, the quiz toggle and the open lesson's page, at the top of the sidebar.

A page is opened by the picker (key ``lesson``), by **Previous** / **Next** / **Again**
(``lesson_prev``, ``lesson_next``, ``lesson_again``) or by a link ``?lesson=NAME&page=N``. Opening
a page sets the screen up as its file says (game, position, settings, a tree of ``steps``
iterations, a detail tab) and turns the quiz on with the page's questions. The page's text is
a teacher's plain text: escaped, paragraphs kept, never Markdown or HTML.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, replace

import streamlit as st

from app import export
from app.components import ui
from app.components.clicker_keys import free_the_keys
from app.components.export_box import ExportFile, Progress, export_box
from app.export import FORMATS, MEDIA_TYPES, SUFFIXES
from app.inputs import widget_values
from app.inputs.language_choice import chosen
from app.inputs.links import lesson_link, link_steps
from app.lessons import clicker
from app.lessons.reading import (
    Lesson,
    Page,
    load_lessons,
    press_text,
    student_text,
    translated,
    translation_error,
)
from app.live import session, state
from app.quiz import quiz_view
from app.words import i18n
from app.words.i18n import N_, _, n_

NO_LESSON = N_("— no lesson: explore freely —")
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
#: Why a page's tree stopped short, in words (``mcts_core.phases.RunStop``'s values).
STOPPED: dict[str, str] = {
    "seconds": N_("out of time"),
    "solved": N_("the root is solved"),
    "node_cap": N_("the tree is full"),
    "cancelled": N_("cancelled"),
}
LESSON_CSS = """
<style>
.lab-lesson {font-size: 0.9rem; line-height: 1.3rem;}
.lab-lesson p {margin: 0 0 0.45rem 0;}
.lab-lesson .lab-lesson-head {font-weight: 600; font-size: 1rem;}
.lab-lesson .lab-lesson-page {color: #555; font-size: 0.8rem;}
.lab-lesson .lab-do {background: #e0f2fe; padding: 0.2rem 0.4rem; border-radius: 0.3rem;}
.lab-slide {font-size: 1.6rem; line-height: 2.25rem;}
.lab-slide p {margin: 0 0 0.9rem 0; font-size: 1.6rem; line-height: 2.25rem;}
.lab-slide .lab-lesson-page {color: #4b5563; font-size: 1.15rem; margin: 0;}
.lab-slide .lab-lesson-head {font-size: 2.1rem; font-weight: 700; line-height: 2.6rem;
  margin: 0 0 0.8rem 0;}
.lab-slide .lab-do {background: #e0f2fe; padding: 0.2rem 0.5rem; border-radius: 0.3rem;}
.lab-strip {font-size: 1.15rem; line-height: 1.5rem;}
.lab-strip p {margin: 0; font-size: 1.15rem; line-height: 1.5rem;}
.lab-strip .lab-do {background: #e0f2fe; padding: 0.1rem 0.4rem; border-radius: 0.3rem;}
.lab-slide .lab-lesson-page {min-height: 2.5rem; padding-inline-end: 30rem;}
.st-key-lesson_page:has(.lab-slide) > [data-testid="stLayoutWrapper"]:has(> .st-key-clicker_row)
  {position: absolute; top: 1rem; inset-inline-end: 1rem; width: auto; z-index: 1;}
.st-key-lesson_page:has(.lab-slide) {position: relative;}
.st-key-clicker_row {flex-wrap: nowrap !important; width: auto !important;}
[data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] .st-key-clicker_row)
  > [data-testid="stColumn"] {flex: 1 1 0 !important; width: auto !important; min-width: 0;}
[data-testid="stHorizontalBlock"]:has(> [data-testid="stColumn"] .st-key-clicker_row)
  > [data-testid="stColumn"]:has(.st-key-clicker_row) {flex: 0 0 auto !important;}
.st-key-clicker_next kbd {color: #ffffff !important; opacity: 1 !important;}
.st-key-clicker_prev kbd, .st-key-clicker_blank kbd {color: #4b5563 !important;
  opacity: 1 !important;}
.lab-blank {position: fixed; inset: 0; background: #000; z-index: 1000000; color: #333;
  font-size: 0.9rem; display: flex; align-items: flex-end; justify-content: flex-end;
  padding: 1rem;}
</style>
"""


def lessons() -> tuple[dict[str, Lesson], list[str]]:
    """The lessons that could be read, in the current language (``reading.translated``:
    English where a translation gives no words), and a message, in words, per file that could
    not be used: a lesson file (left out), or a translation (the lesson shown in English)."""
    found, unread = load_lessons()
    errors = [_("Lesson file not used: {error}", error=error) for error in unread]
    shown: dict[str, Lesson] = {}
    for name, lesson in found.items():
        shown[name] = translated(lesson)
        error = translation_error(lesson)
        if error is not None:
            errors.append(
                _(
                    "The lesson “{lesson}” is shown in English: its translation cannot be "
                    "used ({error})",
                    lesson=lesson.title,
                    error=error,
                )
            )
    return shown, errors


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
    found, _errors = lessons()
    pages = {name: len(lesson.pages) for name, lesson in found.items()}
    name, page, refused = lesson_link(st.query_params, pages)
    if name is not None:
        open_page(found[name], page)
    for text in refused:
        session.notify("warning", text)
    steps, _refused = link_steps(st.query_params.get("steps"))  # (a refused value: init said so)
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
            session.notify(
                "warning",
                n_(
                    "The page's tree stopped at {done} of {n} iteration ({why}).",
                    "The page's tree stopped at {done} of {n} iterations ({why}).",
                    setup.steps,
                    done=i18n.decimal(result.iterations),
                    n=i18n.decimal(setup.steps),
                    why=_(STOPPED.get(result.stopped, result.stopped)),
                ),
            )
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
    found, _errors = lessons()
    if name in found:
        open_page(found[name], 1)


@session.safe
def _on_move(delta: int) -> None:
    found, _errors = lessons()
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

    def title(name: str) -> str:
        return found[name].title if name else _(NO_LESSON)

    with st.sidebar:
        st.selectbox(
            _("Lesson"),
            ("", *found),
            key="lesson",
            on_change=chosen("lesson", _on_pick),
            format_func=ui.in_page_language(title),
            help=_(
                "Guided lessons: each page sets up the screen, says what to press and asks "
                "a question (lessons/*.toml; docs/lessons.md says how to write one)."
            ),
        )
        st.toggle(
            _("Quiz: predict, then reveal"),
            key="quiz",
            help=_(
                "Before each click the screen asks what it will do (under the narration); "
                "the click reveals the answer with the numbers that decided it."
            ),
        )
        for error in errors:
            ui.notice_line("warning", error)
        lesson = found.get(s["lesson"])
        if lesson is not None and not s["presentation"]:  # (Present mode: on the screen)
            _page(lesson, min(max(1, int(s.get("lesson_page", 1))), len(lesson.pages)))


def page_text() -> dict[str, str] | None:
    """The open lesson page as plain text (title, text, what comes next), for the class's
    screens: the page's words as a student reads them (``reading.student_text``: what the
    teacher presses, the projector's tabs); ``None`` without a lesson."""
    s = st.session_state
    found, _errors = lessons()
    lesson = found.get(s["lesson"]) if s["lesson"] else None
    if lesson is None:
        return None
    number = min(max(1, int(s.get("lesson_page", 1))), len(lesson.pages))
    return page_words(lesson, number)


def page_words(lesson: Lesson, number: int, tag: str | None = None) -> dict[str, str]:
    """Page ``number`` of ``lesson`` as a student reads it (title, text, what comes next), in
    the language ``tag`` (``None``: the current one): a phone in its own language."""
    if tag is not None:
        with i18n.language(tag):
            return page_words(lesson, number)
    lesson = translated(lesson)  # (from its English words, whatever language it was in)
    page = lesson.pages[number - 1]
    paragraphs = (" ".join(p.split()) for p in page.text.strip().split("\n\n") if p.strip())
    text = student_text("\n\n".join(paragraphs))  # (said to a student: no "press Step")
    if page.press:
        # TRANSLATORS: the last paragraph of a lesson page on a student's phone: the buttons
        # the teacher presses next on the projected screen ("Phase x4, then Step").
        nxt = _("Next on the projector: {presses}.", presses=press_text(page.press))
        text += "\n\n" + nxt  # (a paragraph of its own)
    title = _("{lesson} · page {number}: {page}", lesson=lesson.title, number=number,
              page=page.title)  # fmt: skip
    return {"title": title, "text": text}


def _page(lesson: Lesson, number: int) -> None:
    """The open page in the sidebar: Previous / Next at the top (a new page shows from its
    title, next to them), then where it is, its title, its text and what to do. (Present mode
    shows it on the projected screen instead: :func:`present_page`.)"""
    page = lesson.pages[number - 1]
    last = len(lesson.pages)
    where = (
        f'<p class="lab-lesson-page">{_where(lesson, number)}</p>'
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
    _page_buttons(lesson, number, last)
    st.html(LESSON_CSS + f'<div class="lab-lesson">{where}{"".join(parts)}</div>')


def _where(lesson: Lesson, number: int) -> str:
    """Where the page is, as HTML (the lesson's title escaped): "Phases · page 2 of 4"."""
    # TRANSLATORS: above a lesson page: the lesson's title, the page's number and the count.
    return _("{lesson} · page {number} of {last}", lesson=html.escape(lesson.title),
             number=number, last=len(lesson.pages))  # fmt: skip


def _page_buttons(lesson: Lesson, number: int, last: int) -> None:
    with st.container(horizontal=True, gap="small"):
        # TRANSLATORS: a lesson's button: the previous page.
        st.button(_("◀ Previous"), key="lesson_prev", on_click=_on_move, args=(-1,),
                  disabled=number <= 1)  # fmt: skip
        # TRANSLATORS: a lesson's button: the next page.
        st.button(_("Next ▶"), key="lesson_next", on_click=_on_move, args=(1,),
                  disabled=number >= last, type="primary")  # fmt: skip
        # TRANSLATORS: a lesson's button: this page set up again from its start.
        st.button(_("↺ Again"), key="lesson_again", on_click=_on_move, args=(0,),
                  help=_("Set this page up again"))  # fmt: skip
        lesson_export(lesson)


def present_page() -> bool:
    """In Present mode, the open lesson page on the projected screen (container
    ``lesson_page``, above the classroom screen; the sidebar, hidden, does not draw it).
    Drawn outside the screen's fragment: a page's set-up writes the sidebar's widgets, which a
    full rerun redraws. True when a page was drawn (the screen leaves room for it)."""
    s = st.session_state
    if not s["presentation"] or not s["lesson"]:
        return False
    found, _errors = lessons()
    lesson = found.get(s["lesson"])
    if lesson is None:
        return False
    number = min(max(1, int(s.get("lesson_page", 1))), len(lesson.pages))
    free_the_keys("clicker_keys")  # (a focused toggle would swallow the clicker's keys)
    if clicker.blanked():  # B: the projector goes black until B again
        # TRANSLATORS: on the black screen (the clicker's B key): press B to come back.
        back = html.escape(_("B: back"))
        st.html(LESSON_CSS + f'<div class="lab-blank" role="presentation">{back}</div>')
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
    found, _errors = lessons()
    return bool(s["presentation"]) and s["lesson"] in found


def _todo(page: Page, *, clicker_words: bool = False) -> str:
    """What the page asks for, in one line: its presses, and its question first
    (``clicker_words``: said as the clicker's Page Down)."""
    presses = press_text(page.press)
    if clicker_words and page.press:
        if page.questions:
            # TRANSLATORS: the clicker's key Page Down does the page's presses ("Step").
            return _("Page Down: {presses}, after the class answers the question.",
                     presses=presses)  # fmt: skip
        return _("Page Down: {presses}.", presses=presses)
    if page.press and page.questions:
        return _("Press {presses}. First answer the question under the narration (the quiz), "
                 "then press.", presses=presses)  # fmt: skip
    if page.press:
        return _("Press {presses}.", presses=presses)
    if page.questions:
        return _("First answer the question under the narration (the quiz), then press.")
    return ""


def _text_slide(lesson: Lesson, number: int) -> None:
    """The page's text whole, in projector type (container ``lesson_text_slide``), with the
    clicker's buttons below."""
    page = lesson.pages[number - 1]
    parts = [
        f'<p class="lab-lesson-page">{_where(lesson, number)}</p>',
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
        st.html(
            LESSON_CSS + f'<div class="lab-slide"{_clicker_data(lesson, number)}>'
            f"{''.join(parts)}</div>"
        )
    _clicker_buttons(lesson, number)


def _next_lesson(lesson: Lesson) -> Lesson | None:
    """The lesson after ``lesson`` in the picker's order (in the current language), or
    ``None``: Page Down on a lesson's last slide opens its first page."""
    found, _errors = lessons()
    names = list(found)
    at = names.index(lesson.name) if lesson.name in names else len(names)
    return found[names[at + 1]] if at + 1 < len(names) else None


def _next_title(lesson: Lesson) -> str:
    following = _next_lesson(lesson)
    return following.title if following is not None else ""


def _strip(lesson: Lesson, number: int) -> None:
    """Above the screen slide: where the lesson is and what Page Down does next, in one line
    (never a press already done: after the presses it names the tab, the next page or the next
    lesson), and the clicker's buttons."""
    page = lesson.pages[number - 1]
    last = number >= len(lesson.pages)
    following = _next_title(lesson)
    waits = quiz_view.question_waits()
    kind = clicker.next_kind(page, last, following, waits)
    if kind == "press":
        todo = _todo(replace(page, press=page.press[clicker.presses_done() :]), clicker_words=True)
    elif kind == "end":
        todo = _("End of the lesson")
    else:
        # TRANSLATORS: the projector's line above the screen once the page's presses are done:
        # what the clicker's Page Down does next ("Page Down: Next page.").
        todo = _("Page Down: {action}.",
                 action=clicker.next_label(page, last, following, waits))  # fmt: skip
    # TRANSLATORS: the projector's one line above the screen: the page's title (bold), then
    # where it is ("Phases · page 2 of 4").
    bold = "<b>" + html.escape(page.title) + "</b>"
    head = _("{title} ({where})", title=bold, where=_where(lesson, number))
    left, right = st.columns([3, 2], vertical_alignment="center")
    left.html(
        LESSON_CSS + f'<div class="lab-strip"{_clicker_data(lesson, number)}><p>{head}</p>'
        f'<p class="lab-do">{html.escape(todo)}</p></div>'
    )
    with right:
        _clicker_buttons(lesson, number)


def _clicker_data(lesson: Lesson, number: int) -> str:
    """The clicker's state as ``data-clicker-*`` attributes (:func:`clicker.state`: the next
    action's kind, the page and the count, the slide, the presses done), for scripts and tests
    that must not read the buttons' words (scripts/rehearse_lessons.py, in every language)."""
    found = clicker.state(lesson.pages[number - 1], number, len(lesson.pages),
                          _next_title(lesson), quiz_view.question_waits())  # fmt: skip
    return "".join(f' data-clicker-{name}="{html.escape(value)}"' for name, value in found.items())


def _clicker_buttons(lesson: Lesson, number: int) -> None:
    """◀ (Page Up: ``clicker_prev``), ▶ what Page Down does next (``clicker_next``), and
    Blank (B: ``clicker_blank``)."""
    page = lesson.pages[number - 1]
    last = number >= len(lesson.pages)
    following = _next_title(lesson)
    label = clicker.next_label(page, last, following, quiz_view.question_waits())
    with st.container(horizontal=True, gap="small", key="clicker_row"):
        # (the back arrow points to where the page's lines start: right in Arabic)
        back = "▶" if i18n.is_rtl() else "◀"
        st.button(back, key="clicker_prev", on_click=_on_clicker_back,
                  shortcut=clicker.PREVIOUS_KEY,
                  help=_("Back one slide: the screen to its text, the text to the previous "
                         "page (key: Page Up, a clicker's back button)"))  # fmt: skip
        # TRANSLATORS: the clicker's forward button, naming what it does next ("Show the
        # screen", "Step", "Next page").
        st.button(_("▶ {action}", action=label), key="clicker_next", on_click=_on_clicker_next,
                  type="primary", shortcut=clicker.NEXT_KEY,
                  disabled=clicker.at_end(page, last, following),
                  help=_("The page's next action, then the next page (key: Page Down, a "
                         "clicker's forward button)"))  # fmt: skip
        # TRANSLATORS: the clicker's button that blacks the projector out (key B), and back.
        st.button(_("Blank"), key="clicker_blank", on_click=clicker.toggle_blank,
                  shortcut=clicker.BLANK_KEY,
                  help=_("Black screen, and back (key: B)"))  # fmt: skip
        lesson_export(lesson)


def _open_lesson() -> tuple[Lesson | None, int]:
    s = st.session_state
    found, _errors = lessons()
    lesson = found.get(s["lesson"]) if s["lesson"] else None
    if lesson is None:
        return None, 0
    return lesson, min(max(1, int(s.get("lesson_page", 1))), len(lesson.pages))


@session.safe
def _on_clicker_next() -> None:
    lesson, number = _open_lesson()
    if lesson is None:
        return
    page = lesson.pages[number - 1]
    if not clicker.text_slide():  # a press on the screen: the class has joined, the tree's turn
        st.session_state["class_join_shown"] = False
    last = number >= len(lesson.pages)
    if clicker.next_kind(page, last, _next_title(lesson), quiz_view.question_waits()) == "question":
        quiz_view.show_question()  # the reveal read: its next question on the projector
        return
    done = clicker.presses_done()
    if clicker.next_kind(page, last) == "press":
        quiz_view.show_question()  # (a reveal is alone until the next Page Down)
    if clicker.advance(page):
        following = _next_lesson(lesson)
        if number < len(lesson.pages):
            open_page(lesson, number + 1)
        elif following is not None:  # the course goes on: the next lesson's first page
            open_page(following, 1)
    elif clicker.presses_done() > done:
        # the press's answer settled now, before the strip above the screen is drawn: it names
        # what the reveal leaves for Page Down (the next question), not the press just done
        quiz_view.prepare()


@session.safe
def _on_clicker_back() -> None:
    lesson, number = _open_lesson()
    if lesson is not None and clicker.back() and number > 1:
        open_page(lesson, number - 1)


# --------------------------------------------------------------------------- export


@dataclass(frozen=True)
class LessonExport:
    """What the lesson's Export sends to the exporter: the lesson's name and the language its
    deck is in (the page's: the lesson as the page shows it, English where its translation
    gives no words)."""

    name: str
    lang: str


def lesson_export(lesson: Lesson) -> None:
    """The lesson's Export (popover ``lesson_export``, in the lesson strip and beside the
    sidebar page's buttons): the whole lesson as a deck (keys ``lesson_export_format``,
    ``lesson_export_go``, ``lesson_export_download``), each page's text and each press, in the
    page's language. Drawn only while open."""
    # TRANSLATORS: the lesson's button that opens its export box (a noun or a verb)
    box = st.popover(_("Export"), key="lesson_export", on_change="rerun",
                     help=_("This lesson as a deck to teach from without a server: each "
                            "page and each press on a slide"))  # fmt: skip
    if not box.open:
        return
    with box:
        export_box("lesson_export", FORMATS, LessonExport(lesson.name, i18n.current_tag()),
                   _make_lesson)  # fmt: skip


def _make_lesson(request: object, fmt: str, on_progress: Progress) -> ExportFile:
    assert isinstance(request, LessonExport)
    data = export.export_lesson(request.name, fmt, request.lang, on_progress)  # (loaded now)
    name = f"mcts-lab-lesson-{request.name}-{request.lang}{SUFFIXES[fmt]}"
    return ExportFile(data, name, MEDIA_TYPES[fmt])
