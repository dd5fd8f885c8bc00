"""The page's style and the sidebar: the game, the root position, the seed, the search settings
(each widget's range and choices from its row of ``mcts_lab/settings.py``, its default from
``app/live/session.py``) and Step N's N. Every change goes through a callback in
``app.live.state``."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from app.components import ui
from app.inputs import widget_values
from app.inputs.language_choice import chosen
from app.inputs.links import SEED_RANGE
from app.live import session, state, stepping
from app.words.exact import EXACT_SECONDS
from app.words.i18n import N_, _, fixed, is_rtl, n_, number_text
from games.registry import game_choices, game_spec
from games.spec import GameOption
from mcts_core.config import (
    EXPANSION_ORDERS,
    FINAL_POLICIES,
    PRIORS,
    ROLLOUT_HORIZONS,
    ROLLOUT_POLICIES,
    TREE_POLICIES,
    VALUE_RANGES,
)
from mcts_core.policies import TREE_POLICY_REGISTRY
from mcts_lab.presets import PRESET_HELP

#: Each tree policy's label, for the policy picker (shown through ``_``: outside_words).
POLICY_NAMES = {name: policy.label for name, policy in TREE_POLICY_REGISTRY.items()}

#: How the select boxes show a setting's value (the value itself stays the widget's, the link's
#: and the CLI's): the English is the value as it always showed.
# TRANSLATORS: the values of the sidebar's select boxes (setting values also typed in links and
# the CLI, e.g. "most_visited"): translate the meaning; the underscore may become a space
CHOICE_LABELS = {
    "custom": N_("custom"),
    "tutorial": N_("tutorial"),
    "strong": N_("strong"),
    "uniform": N_("uniform"),
    "heuristic": N_("heuristic"),
    "listed": N_("listed"),
    "random": N_("random"),
    "epsilon": N_("epsilon"),
    "game": N_("game"),
    "turn": N_("turn"),
    "most_visited": N_("most_visited"),
    "highest_value": N_("highest_value"),
    "robust": N_("robust"),
    "none": N_("none"),
}


def choice_format() -> Callable[[object], str]:
    """:func:`choice_label` as a select's ``format_func``, in this run's language."""
    return ui.in_page_language(choice_label)


def choice_label(value: object) -> str:
    """A select box's value as the screen shows it, in the current language."""
    text = str(value)
    label = CHOICE_LABELS.get(text)
    return _(label) if label is not None else text


#: The page's own styles: a compact top so the classroom screen fits 720 px, no fade of the
#: page while a click reruns, the notice lines, and the presentation mode's larger type.
#: Streamlit's uploader line ("200MB per file", English in every language) is hidden: its
#: limit is set above the app's own (.streamlit/config.toml), which the page says in a
#: sentence of its own ("Files up to 100 MB are opened."). Nothing is cut (issue 43): the
#: title's tagline wraps beside the name (two short lines as tall as the header's buttons);
#: the statistics row is one line the screen's width, or two lines beside the history slider
#: (``lab-two-lines``: as tall as the slider, whatever the entry says: the tree never moves).
PAGE_CSS = """
[data-testid="stFileUploaderDropzoneInstructions"] {display: none;}
.block-container {padding-top: 0.6rem !important; padding-bottom: 1rem !important;}
header[data-testid="stHeader"] {height: 0; min-height: 0;}
.st-key-clicker_keys {display: none;}
[data-stale="true"], .stale-element {opacity: 1 !important; transition: none !important;}
.lab-title {font-size: 1.25rem; line-height: 1.6rem; display: flex; flex-wrap: wrap;
  align-items: baseline; column-gap: 0.5rem;}
.lab-title b {white-space: nowrap;}
.lab-title span {font-size: 0.85rem; line-height: 1.05rem; color: #555; flex: 1 1 12rem;
  min-width: 0;}
.lab-stats {font-size: 0.95rem; line-height: 1.4rem; height: 1.4rem; white-space: nowrap;
  overflow: hidden; text-overflow: ellipsis;}
.lab-two-lines .lab-stats {height: 2.5rem; line-height: 1.25rem; white-space: normal;
  display: flex; flex-wrap: wrap; align-content: center;}
.st-key-step kbd, .st-key-back kbd {display: none;}
.st-key-controls {column-gap: 0.45rem !important;}
.st-key-controls [data-testid="stBaseButton-secondary"],
.st-key-controls [data-testid="stBaseButton-primary"] {padding-left: 0.6rem; padding-right: 0.6rem;}
.lab-stat {margin-inline-end: 1.1rem; white-space: nowrap;}
.lab-stat small {color: #666;}
.lab-where {color: #666; font-size: 0.8rem; margin-inline-start: 0.2rem;}
.lab-tree-help {color: #666; font-size: 0.8rem; line-height: 1.1rem;}
.stTabs [data-baseweb="tab-list"], .stTabs [role="tablist"] {flex-wrap: wrap; row-gap: 0;
  column-gap: 0.9rem;}
.stTabs [data-baseweb="tab-list"] button, .stTabs [role="tablist"] button {flex: 0 0 auto;}
.st-key-detail_panels .katex {font-size: 1em;}
.st-key-detail_panels .katex-display {overflow: visible !important;}
[data-testid="stCaptionContainer"] {opacity: 1 !important;}
[data-testid="stCaptionContainer"] p {color: #555 !important;}
.st-key-detail_panels h2 {font-size: 1.15rem; padding: 0.2rem 0;}
.st-key-detail_panels h3 {font-size: 1.0rem; padding: 0.2rem 0;}
.lab-narration {font-size: 1.0rem; line-height: 1.35rem; margin: 0 0 0.3rem 0;}
.lab-flip {font-size: 0.85rem; color: #7c2d12; margin: 0 0 0.3rem 0;}
.lab-exact {font-size: 0.85rem; color: #991b1b; font-weight: 600; margin: 0 0 0.3rem 0;}
.lab-note {font-size: 0.85rem; padding: 0.15rem 0.5rem; border-radius: 0.3rem;
  margin-bottom: 0.2rem;}
.lab-dice p {font-size: 0.85rem; margin: 0 0 0.25rem 0;}
.lab-compact th, .lab-compact td {padding: 0 0.5rem 0 0;}
.lab-success {background: #dcfce7;} .lab-info {background: #e0f2fe;}
.lab-warning {background: #fef9c3;} .lab-error {background: #fee2e2;}
"""
#: A phone (a window at most 640 px wide, where Streamlit stacks the columns): the controls in
#: two rows, then the tree, then the narration and the tabs, in one scrolling page. The open
#: tab's fixed-height scroll box (for 720 px beside the tree) would be a scroll box inside the
#: scrolling page, cutting the board: here it takes its content's height. The tree stops at
#: half the window so the narration follows it on the first screen (the tree component's box
#: takes ``--lab-tree-max-height`` as its max-height, app/components/static/tree_view.css).
#: The statistics row wraps (at least two lines: a longer entry rarely moves the tree).
PHONE_CSS = """
@media (max-width: 640px) {
.block-container {padding-left: 0.5rem !important; padding-right: 0.5rem !important;}
.st-key-controls {row-gap: 0.35rem !important; column-gap: 0.2rem !important;}
.st-key-controls [data-testid^="stBaseButton"], .st-key-controls [data-testid="stPopoverButton"]
  {min-height: 2.1rem; padding: 0.15rem 0.3rem !important;}
.st-key-controls button p, .st-key-controls label p {font-size: 0.8rem;}
.st-key-tree {--lab-tree-max-height: 50vh;}
.st-key-detail_panels, [data-testid="stLayoutWrapper"]:has(> .st-key-detail_panels)
  {height: auto !important; flex-basis: auto !important; overflow: visible !important;}
.st-key-detail_panels img {max-width: 100%; height: auto;}
.lab-stats, .lab-two-lines .lab-stats {white-space: normal; height: auto; min-height: 2.5rem;
  line-height: 1.25rem; display: flex; flex-wrap: wrap; align-content: center;}
}
"""
PRESENTATION_CSS = """
.block-container {padding-left: 1.5rem !important; padding-right: 1.5rem !important;}
section[data-testid="stSidebar"], [data-testid="stSidebarCollapsedControl"] {display: none;}
.lab-tree-help {display: none;}
.lab-narration {font-size: 1.35rem; line-height: 1.75rem;}
.lab-stats, .lab-two-lines .lab-stats {font-size: 1.2rem; line-height: 1.7rem; height: 1.7rem;
  white-space: nowrap; display: block;}
.lab-title {font-size: 1.5rem;}
.st-key-controls button p, .st-key-controls [data-testid="stWidgetLabel"] p,
.st-key-controls label p {font-size: 18px !important;}
"""


#: A language written right to left (Arabic, ``i18n.is_rtl()``): the page's text runs right to
#: left, while the tree, the boards, the charts, the formulas and the code keep their geometry
#: (left to right inside their boxes) and numbers stay readable. One rule for tables: a table
#: of words and numbers is text, so it runs right to left too (its first column on the right,
#: as the Dice and switch tables did while Why this path's ran left to right, a parenthesis of
#: its header misplaced); its numbers keep their digits' order (the bidi algorithm, and
#: signed numbers isolated by ``i18n``). The class's join box, drawn in the tree's place, is
#: text: right to left.
RTL_CSS = """
.block-container, section[data-testid="stSidebar"], [data-testid="stMarkdownContainer"],
[data-testid="stCaptionContainer"], [data-testid="stWidgetLabel"], .lab-title, .lab-stats,
.lab-narration, .lab-flip, .lab-exact, .lab-note, .lab-dice p, .stTabs [role="tablist"],
.st-key-controls {direction: rtl; text-align: right;}
.st-key-tree, .st-key-ab_tree, [data-testid="stImage"], [data-testid="stPlotlyChart"],
[data-testid="stCode"], .stCode, .katex-display, .mcts-tree, iframe, svg,
[data-testid="stSlider"] [data-baseweb="slider"] {direction: ltr; text-align: left;}
.st-key-class_join {direction: rtl; text-align: right;}
.lab-stat b, .lab-stats b {unicode-bidi: isolate; direction: ltr;}
code {direction: ltr; unicode-bidi: isolate;}
table {direction: rtl;} th, td {text-align: right;}
input, textarea, [data-baseweb="select"] div {unicode-bidi: plaintext;}
"""


def page_css(presentation: bool, rtl: bool) -> str:
    """The page's style: the base, the phone's, Present mode's and a right-to-left language's,
    in that order (one place: the current language decides the direction)."""
    return (
        PAGE_CSS + PHONE_CSS + (PRESENTATION_CSS if presentation else "") + (RTL_CSS if rtl else "")
    )


def page_style() -> None:
    css = page_css(bool(st.session_state["presentation"]), is_rtl())
    # st.html with only a style goes to the page's event container: no element, so no 16 px
    # gap above the header (a markdown element of its own took one)
    st.html(f"<style>{css}</style>")


def direction_style() -> None:
    """A right-to-left language's style alone (:data:`RTL_CSS`), for the student's page."""
    if is_rtl():
        st.html(f"<style>{RTL_CSS}</style>")


# ------------------------------------------------------------------ sidebar


@ui.guarded
def sidebar_controls(on_run_until: Callable[[], None] | None = None) -> None:
    """The sidebar's settings. ``on_run_until``: what **Run until** does (the live search's
    :func:`app.live.stepping.on_run_until` by default; an open trace file's own while one is
    shown, given by ``app/main.py``)."""
    sb = st.sidebar
    sb.header(_("Position"))
    sb.selectbox(
        _("Game"),
        game_choices(),
        key="game",
        on_change=chosen("game", state.on_game_change),
        format_func=ui.in_page_language(_game_label),
    )
    spec = game_spec(st.session_state["game"])
    for option in spec.options:
        if not option.heuristic:  # a variant of the game (gridiron's size)
            _option_widget(sb, option, state.on_variant_change)
    sb.text_input(
        _("Root position"),
        key="position",
        on_change=state.on_position_change,
        help=_(spec.position_help),
    )
    sb.number_input(_("Seed"), *SEED_RANGE, step=1, key="seed", on_change=state.on_seed_change)

    sb.header(_("Search"))
    change = state.on_param_change
    sb.selectbox(
        _("Preset"),
        widget_values.PRESET_CHOICES,
        key="preset",
        on_change=chosen("preset", state.on_preset_change),
        format_func=choice_format(),
        help=_(
            "{tutorial}: {tutorial_help}. {strong}: {strong_help}.",
            tutorial=choice_label("tutorial"),
            tutorial_help=_(PRESET_HELP["tutorial"]),
            strong=choice_label("strong"),
            strong_help=_(PRESET_HELP["strong"]),
        ),
    )
    sb.toggle(
        _("Exact values (perfect play)"),
        key="exact",
        help=n_(
            "Works out what perfect play gives for each move at the root (win, draw or loss; "
            "the expected value where dice decide) and shows it beside the search's Q on the "
            "board and in the UCT table, marks the search's favourite when it is worse than the "
            "best move, and charts how much it gives away over the iterations. Worked out once "
            "per position, for at most {n} second: a move not solved by then shows '?'.",
            "Works out what perfect play gives for each move at the root (win, draw or loss; "
            "the expected value where dice decide) and shows it beside the search's Q on the "
            "board and in the UCT table, marks the search's favourite when it is worse than the "
            "best move, and charts how much it gives away over the iterations. Worked out once "
            "per position, for at most {n} seconds: a move not solved by then shows '?'.",
            round(EXACT_SECONDS),
            n=number_text(f"{EXACT_SECONDS:g}"),
        ),
    )
    decimal_slider(sb, _("Exploration C"), "c", *widget_values.widget_range("c"), 0.05, change)
    sb.selectbox(
        _("Tree policy"),
        TREE_POLICIES,
        key="policy",
        on_change=chosen("policy", change),
        format_func=ui.in_page_language(lambda name: _(POLICY_NAMES.get(str(name), str(name)))),
    )
    if TREE_POLICY_REGISTRY[st.session_state["policy"]].needs_priors:
        sb.selectbox(
            _("PUCT prior"),
            PRIORS,
            key="prior",
            on_change=chosen("prior", change),
            format_func=choice_format(),
        )
    sb.number_input(
        _("Minimum visits T"),
        *widget_values.widget_range("min_visits"),
        step=1,
        key="min_visits",
        on_change=change,
        help=_("Every child gets T visits (round robin) before the formula decides."),
    )
    sb.selectbox(
        _("Expansion order"),
        EXPANSION_ORDERS,
        key="expansion",
        on_change=chosen("expansion", change),
        format_func=choice_format(),
    )
    sb.selectbox(
        _("Rollout policy"),
        ROLLOUT_POLICIES,
        key="rollout",
        on_change=chosen("rollout", change),
        format_func=choice_format(),
    )
    sb.number_input(
        _("Rollout depth (-1 = to the end, 0 = heuristic only)"),
        *widget_values.widget_range("rollout_depth"),
        step=1,
        key="rollout_depth",
        on_change=change,
    )
    sb.selectbox(
        _("Rollout horizon"),
        ROLLOUT_HORIZONS,
        key="horizon",
        on_change=chosen("horizon", change),
        format_func=choice_format(),
        help=_(
            "'{turn}' stops the rollout when the player to move changes.",
            turn=choice_label("turn"),
        ),
    )
    if st.session_state["rollout"] == "epsilon":
        decimal_slider(
            sb, _("Epsilon (random share)"), "epsilon", *widget_values.widget_range("epsilon"),
            0.05, change,
        )  # fmt: skip
    with sb.expander(_("Evaluation shaping")):
        st.number_input(
            _("Win value"),
            *widget_values.widget_range("win_value"),
            key="win_value",
            on_change=change,
        )
        st.number_input(
            _("Draw value"),
            *widget_values.widget_range("draw_value"),
            key="draw_value",
            on_change=change,
        )
        st.number_input(
            _("Loss value (try -100)"),
            *widget_values.widget_range("loss_value"),
            key="loss_value",
            on_change=change,
        )
        decimal_slider(
            st, _("Heuristic weight"), "heuristic_weight",
            *widget_values.widget_range("heuristic_weight"), 0.1, change,
        )  # fmt: skip
        st.selectbox(
            _("Value range"),
            VALUE_RANGES,
            key="value_range",
            on_change=chosen("value_range", change),
            format_func=lambda r: "[-1, 1]" if r == "symmetric" else "[0, 1]",
        )
        st.caption(_("Values are shaped (win/draw/loss) then mapped onto the range UCT expects."))
        weights = [option for option in spec.options if option.heuristic]
        if weights:  # the game's heuristic weights (gridiron's)
            st.markdown(_("**{game} heuristic weights** (the leaf evaluation)", game=_(spec.label)))
        for option in weights:
            _option_widget(st, option, state.on_weights_change)
    sb.selectbox(
        _("Final-move policy"),
        FINAL_POLICIES,
        key="final_policy",
        on_change=chosen("final_policy", change),
        format_func=choice_format(),
    )
    sb.toggle(_("MCTS-Solver (prove wins and losses)"), key="solver", on_change=change)
    sb.number_input(
        _("Iterations per click (Step N)"),
        1,
        session.MAX_ITERATIONS_PER_CLICK,
        step=1,
        key="iterations_per_click",
    )
    _run_until(sb, on_run_until or stepping.on_run_until)


def _run_until(sb: DeltaGenerator, on_click: Callable[[], None]) -> None:
    """**Run until** (a breakpoint): Step N that stops at the first iteration where a
    condition holds (``run_until``, its argument ``run_until_arg``, button ``run_until_go``,
    which calls ``on_click``: on the live search, or on an open file's iterations)."""
    from mcts_lab.breakpoints.conditions import BREAKPOINTS

    # the conditions' syntax (favourite-changes, visits:MOVE>=K) is typed as is: not translated
    listed = ""
    for k in BREAKPOINTS.values():
        one = _("{syntax}: {meaning}", syntax=k.syntax, meaning=_(k.doc))
        listed = one if not listed else _("{conditions}; {condition}", conditions=listed,
                                            condition=one)  # fmt: skip
    with sb.expander(_("Run until (a breakpoint)")):
        st.selectbox(_("Condition"), ("", *BREAKPOINTS), key=stepping.UNTIL,
                     format_func=lambda name: BREAKPOINTS[name].syntax if name else "—",
                     help=_("Step N stops at the first iteration where this holds: {conditions}",
                            conditions=listed))  # fmt: skip
        st.text_input(_("Its move (and count)"), key=stepping.UNTIL_ARG, max_chars=80,
                      placeholder=_("b2, or b2>=50 for visits"))  # fmt: skip
        # TRANSLATORS: the button that runs Step N until the breakpoint's condition holds
        st.button(_("Run until"), key="run_until_go", on_click=on_click,
                  help=_("At most Step N's iterations (Iterations per click)"))  # fmt: skip


def _game_label(name: str) -> str:
    try:
        return _(game_spec(name).label)
    except ValueError:  # an OpenSpiel game that cannot be loaded here
        return name


def decimal_slider(
    where: DeltaGenerator | ModuleType,
    label: str,
    key: str,
    low: float,
    high: float,
    step: float,
    on_change: Callable[[], None],
) -> None:
    """A slider of decimals. Streamlit writes a slider's numbers (its value above the thumb,
    its ends) with a decimal point in every language; where the language writes a comma
    ("1,40" in German and Spanish) those numbers are hidden and the label carries the value
    the language's way ("C de exploración: 1,40"). The key alone is the slider's identity
    (Streamlit), so the label may change with the value."""
    if number_text("0.5") != "0.5" and isinstance(step, float):
        digits = len(f"{step:g}".partition(".")[2])
        value = float(st.session_state.get(key, low))
        label = _("{setting}: {value}", setting=label, value=fixed(value, digits))
        st.html(
            "<style>"
            + ",".join(
                f".st-key-{key} [data-testid='{part}']"
                for part in ("stSliderThumbValue", "stSliderTickBar")
            )
            + "{display: none;}</style>"
        )
    where.slider(label, low, high, step=step, key=key, on_change=on_change)


def _option_widget(
    where: DeltaGenerator | ModuleType, option: GameOption, on_change: Callable[[], None]
) -> None:
    """The widget of one of the game's options (its registration, ``GameSpec.options``)."""
    if option.choices:
        where.selectbox(
            _(option.label), option.choices, key=option.key, format_func=option.text,
            on_change=chosen(option.key, on_change),
        )  # fmt: skip
    elif option.slider is not None:
        low, high, step = option.slider
        decimal_slider(where, _(option.label), option.key, low, high, step, on_change)
