"""The classroom screen: everything a Step click changes, on one screen at 1280x720.

Top to bottom: the step controls (container ``controls``), the numbers of the entry shown
(``stats``), then the tree drawn in the browser (``tree``) beside the narration of what just
happened (``narration``) and the detail panels in tabs, one click away. The whole screen is one
``st.fragment``: a click reruns it alone, not the sidebar, and autoplay is the same fragment on
a timer (``run_every``).
"""

from __future__ import annotations

import html
import os
import time
from collections.abc import Callable
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from app.classroom import shared
from app.classroom.teacher import heat as class_heat
from app.classroom.teacher import room_box, start, sync
from app.components import ui
from app.components.tree_view import clicked_focus, render_tree
from app.drawing.tree_heat import with_heat
from app.drawing.tree_layout import LINE_FONT
from app.drawing.tree_model import Heat, TreeView
from app.inputs import language_choice, widget_values
from app.inputs.tabs import DETAIL_TABS
from app.lessons import clicker, lesson_view
from app.live import exact_cache, history, play, session, state, stepping
from app.quiz import quiz_view
from app.screen import ab_panel, game_panels, panels, run_export
from app.words.c_sensitivity import flip_c
from app.words.c_sentence import flip_sentence
from app.words.i18n import BY_TAG, _, current_tag, decimal, number_text
from mcts_core import Decision, IterationTrace
from mcts_core.phases import Phase

TREE_HEIGHT = 450  # px: below the header, controls, statistics and drawing row, fits 720 px
TREE_BELOW = 270  # px of the window above and below the tree: taller windows, taller trees
LESSON_STRIP = 150  # px the Present mode's lesson page takes above the screen (the tree gives it)
PRESENTATION_ZOOM = 1.35  # the tree's first zoom in Present mode: 12 px labels read 16 px
#: The least zoom a Step's framing takes in Present mode: the tree's smallest type (N and Q,
#: badges, dice odds: LINE_FONT, 12 px) at 14 px or more, the least a projected text may be
#: (18 pt from the back row is the slide deck's size). What does not fit at it gives way.
PRESENTATION_MIN_ZOOM = round(14 / LINE_FONT + 0.005, 2)
#: The least zoom on the normal screen: the tree's type at its own size, 12-16 px (a Step
#: never shrinks it: Nim's twelve moves drew at 0.43, 5.2 px, to keep its favourite in view).
SCREEN_MIN_ZOOM = 1.0
PRESENTATION_BOTTOM = 16  # px below the tree in Present mode: it takes the window's height
DETAILS_MIN_HEIGHT = 200  # px: the open detail tab's scroll box, at least
LINE_CHARS = 40  # characters per narration line in the narrowest right column (1280 wide)


#: The header's row: the title shrinks (its tagline cut) so the buttons stay on one line; on a
#: phone the title has a line of its own, the buttons below it.
HEADER_CSS = """<style>
.st-key-lab_header > :first-child {flex: 1 1 0 !important; min-width: 0 !important;}
@media (max-width: 640px) {.st-key-lab_header {row-gap: 0.3rem !important;}
  .st-key-lab_header > :first-child {flex-basis: 100% !important;}}
</style>"""


def header(file_open: bool = False) -> None:
    """The title, the Link and the Export box (``file_open``: a trace file is on the screen,
    not the live search), and Present mode's toggle."""
    # One row: the buttons take what they need and the title the rest, its tagline cut with
    # "…" (HEADER_CSS): with Export beside the Link, two columns wrapped the buttons onto a
    # second line in Spanish and German, at 1024 px and beside the sidebar (40 px of the tree)
    row = st.container(horizontal=True, vertical_alignment="center", gap="small",
                       key="lab_header")  # fmt: skip
    # the app's name stays "MCTS Lab"; the line beside it is words
    tagline = _("one iteration at a time: select → expand → simulate → backpropagate")
    row.markdown(
        f'<div class="lab-title"><b>MCTS Lab</b> <span>{html.escape(tagline)}</span></div>'
        + HEADER_CSS,
        unsafe_allow_html=True,
    )
    with row:
        # lazy: the link is made when the popover opens, from the tree on screen then (the
        # header is outside the screen's fragment, so a link drawn before would be stale)
        # TRANSLATORS: the header's button that gives a link to this screen (a noun)
        link = st.popover(_("Link"), help=_("A link that opens this position, settings and tree"),
                          key="link", on_change="rerun")  # fmt: skip
        if link.open:
            with link:
                st.caption(_("Copy this link (the icon on the right): it reopens this tree."))
                # the link carries the sender's language only when asked: by default each
                # student's page speaks its own browser's language (issue 34)
                tag = current_tag()
                with_language = st.checkbox(
                    _("Open it in {language}", language=BY_TAG[tag].name if tag in BY_TAG else tag),
                    key="link_lang",
                    help=_("Adds lang= to the link; without it, the link opens in the language "
                           "of the browser that opens it."),
                )  # fmt: skip
                st.code(state.share_link(with_language), language=None, wrap_lines=True)
        run_export.export_popover(file_open)  # the run on the screen as a file, beside the Link
        if st.session_state["presentation"]:
            start.start_button(sidebar=False)  # (the sidebar is hidden in Present mode)
        st.toggle(
            # TRANSLATORS: the toggle of Present mode (for a projector), a short verb or noun
            _("Present"),
            key="presentation",
            help=_("Presentation mode: hide the sidebar and enlarge the type, for a projector."),
        )


def lesson_strip(shown: bool) -> None:
    """Whether the Present mode's lesson page sits above the screen: the tree and the tabs
    give up its height so the screen still fits the window."""
    st.session_state["lesson_strip"] = shown


def _tree_height() -> tuple[int, int]:
    """The tree's height at 720 px and the window height it leaves above and below."""
    if st.session_state.get("lesson_strip"):
        return TREE_HEIGHT - LESSON_STRIP, TREE_BELOW + LESSON_STRIP
    return TREE_HEIGHT, TREE_BELOW


def classroom_screen() -> None:
    """The screen as a fragment; with autoplay on, the fragment reruns on a timer."""
    lab = session.session()
    lab.autoplay_applied = _timer_settings()
    st.fragment(run_every=stepping.autoplay_interval())(_screen)()


def _timer_settings() -> tuple[bool, float]:
    s = st.session_state
    return (bool(s["autoplay"]), session.autoplay_speed())


def _screen() -> None:
    start = time.perf_counter()
    language_choice.repair_choices()  # (a fragment's run reads the settings too)
    _draw_screen()
    timings = os.environ.get("MCTS_LAB_TIMINGS")
    if timings:  # scripts/measure_app_speed.py: the server time of each screen rerun, in ms
        with open(timings, "a", encoding="utf-8") as out:
            out.write(f"{(time.perf_counter() - start) * 1000:.2f}\n")
        with open(timings + ".t", "a", encoding="utf-8") as out:
            out.write(f"{time.time() - (time.perf_counter() - start):.4f} {time.time():.4f}\n")


#: The screen's focus box's value outlives a slide (kept under this key): in a run that does
#: not draw a widget (a lesson's text slide) Streamlit forgets its value.
FOCUS_KEPT = "tree_focus_kept"


def _restore_kept() -> None:
    """The screen as it was left before a slide: its history entry and its focus."""
    history.restore_shown()
    s = st.session_state
    if "tree_focus" not in s and FOCUS_KEPT in s:
        s["tree_focus"] = s[FOCUS_KEPT]


def _keep() -> None:
    s = st.session_state
    if "tree_focus" in s:
        s[FOCUS_KEPT] = s["tree_focus"]


def _draw_screen() -> None:
    lab = session.session()
    if lab.autoplay_applied != _timer_settings():
        st.rerun()  # autoplay switched or its speed changed: rebuild the timer (a full rerun)
    _restore_kept()
    stepping.autoplay_tick()  # before any widget: a step writes the history scrubber's value
    with st.container(key="controls", horizontal=True, vertical_alignment="center", gap="small"):
        _controls()
    entry = history.current_entry()
    with st.container(key="stats"):
        stats = _stats(entry)
    in_class = shared.teacher()  # this session's class, when it runs one
    # a class on the projector: a wider right column for its reveal, narration and question
    presenting_class = in_class is not None and st.session_state["presentation"]
    left, right = st.columns([1, 1] if presenting_class else [3, 2], gap="small")
    with left, st.container(key="tree"):
        if in_class is not None and st.session_state.get("class_join_shown"):
            room_box.join_box(in_class)  # in the tree's place until the teacher hides it
        view, tree_slot = _tree(entry)
    with right:
        ended = start.ended_summary() if in_class is None else None  # a class just ended
        # the class (or the summary of the one that just ended): on top, filled last
        room = st.container() if in_class is not None or ended is not None else None
        # Everything else of the column in one box of its own: the room's count line is a
        # timed fragment inside this screen's fragment, and the browser drops what a screen
        # run left out only in boxes that are not around that line (a count run between the
        # screen run and its clean-up marks every box around the line as its own): a quiz
        # line that went, straight in the column, would stay on screen.
        rest = st.container()
        # a class on the projector: the reveal and the next question first, then the narration
        quiz_box = rest.container() if presenting_class else rest
        with rest, st.container(key="narration"):
            lines, said = _narration(entry)
        with quiz_box:
            counts = None
            if in_class is not None:  # the class's poll follows the quiz before it is drawn
                quiz_view.prepare()  # (settled and asked: the quiz panel does it only once)
                sync.sync_poll(session.session().quiz)
                counts = sync.class_counts(session.session().quiz)
            # the quiz's question and last answer, when on; a class's counts in its table
            lines += quiz_view.quiz_panel(counts, in_class=in_class is not None)
        if in_class is not None and room is not None:
            with room:
                room_box.room_box(stepping.on_step)
            lines += 5
        elif ended is not None and room is not None:
            with room:
                start.summary_box(ended)
            lines += 6
        # the tree is drawn in its place now, after the class's poll followed this click (a
        # Reveal's ✓ on the class's choices is on the tree drawn with it, not one click late)
        heat: dict[int, Heat] = {}
        if in_class is not None:  # (the class's answers as data on the boxes: class_heat on)
            heat = class_heat.tree_heat(in_class, shared.room(), session.session().search)
        _draw_tree(tree_slot, with_heat(view, heat))
        # the tabs fill what the narration leaves of the tree's height (lines at 320 px wide)
        tree_height = _tree_height()[0]
        with rest:
            _details(entry, height=max(DETAILS_MIN_HEIGHT, tree_height - 20 - 22 * lines))
    quiz_view.after_screen()  # an arena run below the quiz answers its question: show it
    _keep()
    state.sync_query_params()
    if in_class is not None:  # what the class sees: this screen, as plain data
        frame = sync.frame_of(
            stats,
            class_heat.published(view, heat).to_dict(),
            said,
            lesson_view.page_text(),
            state.replay_params(),
        )
        sync.publish(frame)
    if session.outside_writes_waiting():
        # A click here wrote a sidebar widget (a played move's Root position): redraw the whole
        # page so the browser holds the new value. Only now, after this screen's own widgets
        # (the focus box, the history slider) went out with the values the click gave them: a
        # rerun before them would not send those values, and the next click would undo them.
        st.rerun(scope="app")


# ------------------------------------------------------------------ controls


def _controls() -> None:
    search = session.session().search
    n = int(st.session_state["iterations_per_click"])
    # a presentation clicker sends PageDown / PageUp: Step forward, back one entry; in a
    # lesson in Present mode the clicker's buttons above the screen take them (clicker mode)
    keys = not clicker.active()
    # the keys stay Page Down / Page Up in every language (a clicker sends them)
    st.button(
        # TRANSLATORS: the main button: run one iteration of the search (a verb)
        _("Step"),
        key="step",
        on_click=stepping.on_step_click,
        type="primary",
        shortcut="PageDown" if keys else None,
        help=_("One iteration of MCTS (key: Page Down, a clicker's forward button)")
        if keys
        else _("One iteration of MCTS"),
    )
    # TRANSLATORS: the button running {n} iterations at once; "Step" as on the Step button
    clicked_n = st.button(_("Step {n}", n=decimal(n)), key="step_n",
                          on_click=session.click_stops_autoplay)  # fmt: skip
    st.button(
        # TRANSLATORS: the button running one phase; {phase}: select, expand, simulate or
        # backpropagate (the phase's name, translated elsewhere)
        _("Phase: {phase}", phase=_(search.next_phase.label)),
        key="phase_step",
        on_click=stepping.on_phase_step,
    )
    st.button(
        _("◀ Back"),
        key="back",
        on_click=history.on_back,
        shortcut="PageUp" if keys else None,
        help=_("Back: the previous history entry (key: Page Up, a clicker's back button)")
        if keys
        else _("Back: the previous history entry"),
    )
    st.button(_("Forward ▶"), key="forward", on_click=history.on_forward, help=_("The next entry"))
    st.button(_("Reset"), key="reset", on_click=stepping.on_reset)
    st.button(_("Play best"), key="play_best", on_click=play.on_play_best)
    st.toggle(_("Autoplay"), key="autoplay", help=_("Step on its own; any click stops it"),
              on_change=session.on_autoplay_toggle)  # fmt: skip
    speed = session.autoplay_speed()
    # TRANSLATORS: the autoplay speed's button: {speed} clicks per second ("2/s")
    with st.popover(_("{speed}/s", speed=number_text(f"{speed:g}")),
                    help=_("Autoplay speed and what each tick runs")):  # fmt: skip
        # given its value: a popover draws its widgets only while open, and a slider drawn
        # afresh during autoplay's reruns took its default (the minimum, 0.5/s) otherwise
        st.slider(_("Autoplay: clicks per second"), 0.5, 5.0, value=speed, step=0.5,
                  key="autoplay_speed")  # fmt: skip
        st.toggle(
            _("Each tick runs Step {n} (else one iteration)", n=decimal(n)),
            key="autoplay_batch",
        )
    if clicked_n:
        bar = st.progress(0.0, text=_("running"))
        stepping.run_batch(progress=bar.progress)
        bar.empty()


def _stats(entry: session.HistoryEntry | None) -> str:
    """Draw the statistics row; returns it as one line of plain text (for the class)."""
    lab = session.session()
    search = lab.search
    if entry is None:
        iteration, nodes, depth, rate = search.iterations, search.node_count, search.max_depth, 0.0
        where = _("no clicks yet")
    else:
        iteration, nodes, depth, rate = entry.iteration, entry.nodes, entry.depth, entry.rate
        last = lab.history[-1].number
        # {what}: what the click did (the history's words: "Step", "Phase: expand", a move)
        if entry.number != last:
            where = _(
                "entry {number} of {last}: {what} (history; Forward ▶ goes on)",
                number=decimal(entry.number),
                last=decimal(last),
                what=entry.what,
            )
        else:
            where = _(
                "entry {number} of {last}: {what}",
                number=decimal(entry.number),
                last=decimal(last),
                what=entry.what,
            )
    cells = [
        (_("Iteration"), decimal(iteration)),
        (_("Nodes"), decimal(nodes)),
        (_("Depth"), decimal(depth)),
        # a dash until a click measured it
        (_("Iterations/s"), decimal(round(rate)) if rate > 0 else "–"),
    ]
    body = " ".join(
        f'<span class="lab-stat"><small>{html.escape(name)}</small> <b>{value}</b></span>'
        for name, value in cells
    )
    line = f'<div class="lab-stats">{body}<span class="lab-where">{html.escape(where)}</span></div>'
    if len(lab.history) <= 1:  # no history to scrub: the line has the screen's width
        st.html(line)
    else:  # two lines beside the slider, as tall as it (sidebar.PAGE_CSS)
        numbers, scrubber = st.columns([3, 2], vertical_alignment="center")
        numbers.html(f'<div class="lab-two-lines">{line}</div>')
        scrubber.slider(
            _("History entry"),
            lab.history[0].number,
            lab.history[-1].number,
            # drawn afresh (after a slide), the entry shown, not the slider's minimum
            value=entry.number if entry is not None else lab.history[-1].number,
            key="history_index",
            on_change=history.on_scrubber,
            label_visibility="collapsed",
            help=_("Each click (step, phase, move) is an entry: drag to go back to any of them."),
        )
    if search.node_cap_reached:
        ui.notice_line("warning", widget_values.session_full_message())
    return " · ".join(f"{name} {value}" for name, value in cells) + f" · {where}"


# ---------------------------------------------------------------------- tree


def _tree(entry: session.HistoryEntry | None) -> tuple[TreeView, DeltaGenerator]:
    """Draw the tree's controls; returns the drawing's data (for the class) and the place the
    drawing goes (:func:`_draw_tree`)."""
    clicked = clicked_focus("tree_view")  # read before the focus box is drawn: it may write it
    if clicked is not None:
        st.session_state["tree_focus"] = str(clicked)
    focus = widget_values.bounds_from_widgets().focus
    with st.container(horizontal=True, vertical_alignment="center", gap="small"):
        with st.popover(_("Drawing"), help=_("What the tree shows: children per node and levels")):
            # given their values: a popover mounts its widgets when it opens, and after a
            # fragment rerun (a Step, a focus click) they came up at their minimum, 1 and 2,
            # and sent that back (the last path and the new node went out of the drawing)
            s = st.session_state
            st.number_input(_("Children shown per expanded node"), 1, 12,
                            value=int(s["tree_top_k"]), key="tree_top_k")  # fmt: skip
            st.number_input(_("Levels"), 2, 12, value=int(s["tree_levels"]), key="tree_levels")
        # Not in the popover: callbacks clear the focus (a played move, Back to the root), and
        # a closed popover's widget keeps its old value in the browser, which the next click
        # would send back (Streamlit draws a popover's widgets only while it is open).
        st.text_input(
            _("Focus on node id"),
            key="tree_focus",
            help=_(
                "Draw the tree from this node: e.g. 12 (hover a box for its id); empty: the root"
            ),
            placeholder=_("focus: node id"),
            label_visibility="collapsed",
            width=130,
        )
        if focus is not None:
            st.button(_("Back to the root"), key="tree_unfocus", on_click=stepping.on_unfocus)
        if shared.teacher() is not None:  # a class: its answers drawn on the tree's moves
            class_heat.heat_toggle()
        tree_help = _("hover: numbers · click: focus · ?: colours")
        st.html(f'<span class="lab-tree-help">{html.escape(tree_help)}</span>')
    view = entry.view if entry is not None else None
    if view is None:
        view = history.tree_view_now()
    latest = session.session().entries_written
    if (
        entry is not None
        and entry.number == latest
        and (focus is not None or entry.drawn_with != history.drawing_settings())
    ):
        # the focus or the drawing settings changed since the entry was drawn (Back to the
        # root after a Step made while focused left the focused drawing until the next Step)
        view = history.tree_view_now(*entry.marks)
    typed = str(st.session_state["tree_focus"]).strip()
    if typed and focus is None:
        ui.notice_line("warning", _("Focus: type a node id such as 12 (shown on hover)."))
    elif focus is not None and not view.focus_found:
        ui.notice_line(
            "warning", _("Node #{node} is not in the tree: drawn from the root.", node=focus)
        )
    return view, st.container()


def _draw_tree(slot: DeltaGenerator, view: TreeView) -> None:
    """The tree in its place (``slot``, under its controls)."""
    present = st.session_state["presentation"]
    scale = PRESENTATION_ZOOM if present else 1.0
    height, below = _tree_height()
    with slot:
        render_tree(view, key="tree_view", height=height, scale=scale, below=below,
                    min_scale=PRESENTATION_MIN_ZOOM if present else SCREEN_MIN_ZOOM,
                    bottom=PRESENTATION_BOTTOM if present else None,
                    moves_first=present)  # fmt: skip


# ----------------------------------------------------------------- narration


def _narration(entry: session.HistoryEntry | None) -> tuple[int, list[str]]:
    """Draw the narration; returns about how many lines it took (for the space below it) and
    its sentences (for the class)."""
    text = entry.narration if entry is not None else ""
    if not text:
        text = _(
            "Press Step to run one iteration of MCTS: select a path down the tree, expand one "
            "new node, simulate a game from it, and backpropagate the result up the path. "
            "Phase runs one of the four at a time."
        )
    # plain text inside one HTML block: escaped, on one line, never read as Markdown
    said = [" ".join(text.split())]
    html_parts = [f'<p class="lab-narration">{html.escape(said[0])}</p>']
    decision = _root_decision(entry)
    if decision is not None:
        flip = flip_c(decision, str(st.session_state["policy"]), float(st.session_state["c"]))
        if flip is not None:
            said.append(flip_sentence(flip))
            html_parts.append(f'<p class="lab-flip">{html.escape(said[-1])}</p>')
    verdict = exact_cache.exact_verdict(entry)  # with ``exact`` on: the favourite is wrong
    if verdict is not None:
        said.append(verdict)
        html_parts.append(f'<p class="lab-exact">{html.escape(verdict)}</p>')
    st.html("".join(html_parts))
    shown = said + panels.notices()
    return sum(-(-len(line) // LINE_CHARS) for line in shown), said


def _root_decision(entry: session.HistoryEntry | None) -> Decision | None:
    if entry is None:
        return None
    steps = entry.trace.path if entry.trace is not None else ()
    if entry.phase is Phase.SELECT and isinstance(entry.phase_result, tuple) and entry.phase_result:
        steps = entry.phase_result
    for step in steps:
        if isinstance(step, Decision):
            return step
    return None


# ------------------------------------------------------------------- details

#: What each detail tab (app/inputs/tabs.py) draws: its panels in order, each given the history
#: entry shown (a panel that needs only its trace reads ``entry.trace``).
Panel = Callable[[session.HistoryEntry | None], None]


def _trace(entry: session.HistoryEntry | None) -> IterationTrace | None:
    return entry.trace if entry is not None else None


TAB_PANELS: dict[str, tuple[Panel, ...]] = {
    "Board": (lambda _e: game_panels.board_panel(),),
    "Why this path": (lambda entry: panels.uct_panel(_trace(entry)),),
    "Backup": (panels.phase_panel, lambda entry: panels.rollout_panel(_trace(entry))),
    "Dice": (lambda entry: panels.chance_panel(_trace(entry)),),
    "Charts": (lambda _e: game_panels.charts_panel(),),
    "Play": (
        lambda _e: game_panels.play_panel(),
        lambda _e: game_panels.final_policies_panel(),
    ),
    "Arena": (lambda _e: game_panels.arena_panel(), lambda _e: game_panels.sweep_panel()),
    "A/B": (lambda _e: ab_panel.ab_panel(),),
    "Text": (lambda entry: panels.printed_tree_panel(_trace(entry)), panels.graphviz_panel),
}
if tuple(TAB_PANELS) != DETAIL_TABS:  # one tab list: app/inputs/tabs.py names them, in this order
    raise RuntimeError(
        f"app.screen.page.TAB_PANELS {tuple(TAB_PANELS)} != app.inputs.tabs {DETAIL_TABS}"
    )


def tab_slide(name: str) -> None:
    """Clicker mode: the detail tab a lesson page names, alone under the lesson strip
    (container ``lesson_tab_slide``), as wide as the screen: its first screen whole on the
    projector (below the tree it starts past 720 px)."""
    _restore_kept()
    entry = history.current_entry()
    with st.container(key="stats"):
        _stats(entry)
    with st.container(key="lesson_tab_slide"):  # (each tab's panels say their own title)
        for panel in SLIDE_PANELS.get(name, TAB_PANELS[name]):
            panel(entry)
    _keep()


#: A tab slide's panels where they differ from the tab's: the arena's result beside its settings.
SLIDE_PANELS: dict[str, tuple[Panel, ...]] = {
    "Arena": (
        lambda _e: game_panels.arena_panel(wide=True),
        lambda _e: game_panels.sweep_panel(),
    ),
}


def _details(entry: session.HistoryEntry | None, height: int) -> None:
    # ``height`` fits a 720 px window; a taller one gets a taller box by as much as the tree
    # grows (see TREE_BELOW), so the tabs end where the tree ends instead of half-way down
    # (the fixed height sits on the box's wrapper, as its height and flex basis). Not on a
    # phone (app.screen.sidebar.PHONE_CSS): below the tree, the box takes its content's height.
    tall = f"max({height}px, calc(100vh - {720 - height}px))"
    st.html(
        '<style>@media not all and (max-width: 640px) {[data-testid="stLayoutWrapper"]'
        f":has(> .st-key-detail_panels) {{height: {tall} !important; "
        f"flex-basis: {tall} !important;}}}}</style>"
    )
    tabs = _detail_tabs()
    for name, tab in zip(DETAIL_TABS, tabs, strict=True):
        if tab.open:  # only the open tab's panels run (the others cost nothing per click)
            with tab, st.container(key="detail_panels", height=height, border=False):
                for panel in TAB_PANELS[name]:
                    panel(entry)


#: The tabs' widget key: its value is the tab's title as shown (in the page's language); the
#: open tab's English name (app/inputs/tabs.py) is kept under ``details`` (lessons, tests and
#: links read and write that one).
TABS_KEY = "details_shown"


def _detail_tabs() -> list[Any]:
    """The detail tabs, titled in the page's language; ``details`` keeps the open one's
    English name (a lesson or a test writes it to open a tab; a click writes it back)."""
    s = st.session_state
    titles = [_(name) for name in DETAIL_TABS]
    by_title = dict(zip(titles, DETAIL_TABS, strict=True))
    opened = s.get("details")
    if opened in DETAIL_TABS:
        s[TABS_KEY] = titles[DETAIL_TABS.index(opened)]
    tabs = st.tabs(titles, key=TABS_KEY, on_change=_on_tab, args=(by_title,))
    shown = s.get(TABS_KEY)
    s["details"] = by_title.get(shown, DETAIL_TABS[0]) if isinstance(shown, str) else DETAIL_TABS[0]
    return list(tabs)


def _on_tab(by_title: dict[str, str]) -> None:
    """A click on a tab: its English name under ``details`` (the run that follows opens it)."""
    s = st.session_state
    s["details"] = by_title.get(str(s.get(TABS_KEY)), DETAIL_TABS[0])
