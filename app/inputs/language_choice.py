"""The page's language, chosen at the start of each script run (Streamlit): the sidebar's
``language`` select, else ``?lang=CODE`` (a refused value: one warning, then the browser's
language or English), else the browser's ``Accept-Language``; set as the current language of
:mod:`app.words.i18n` for everything this run says (docs/translations.md)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from types import ModuleType

import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.errors import StreamlitAPIException
from streamlit.runtime.scriptrunner import get_script_run_ctx

from app.inputs.language import choose_language
from app.inputs.links import link_language
from app.words.i18n import BY_TAG, SHOWN_LABELS, _, offered, set_fallback, set_language

#: The select's session key (and its widget key).
KEY = "language"
#: The select boxes (widget keys) whose labels are words of the page's language (their
#: ``format_func``), besides the games' own option selects (a gridiron size): each keeps its
#: value when the language changes (:func:`keep_choices`). tests/app/inputs/
#: test_language_choice.py finds every such select in app/ and holds this list to them.
WORDED_SELECTS = (
    "lesson", "game", "preset", "policy", "prior", "expansion", "rollout", "horizon",
    "value_range", "final_policy", "run_until", "ab_rollout", "arena_rollout",
    "arena_opponent", "move_pick", "trace_diff_tolerance", "export_format",
    "lesson_export_format",
)  # fmt: skip
_WARNED = "lang_link_warned"
#: Session key: each worded select's value as the last run started (:func:`repair_choices`),
#: what :func:`chosen` holds a value read back through another language's label against.
_SEEN = "worded_seen"


def apply() -> str | None:
    """Choose this run's language and make it current. The first run of a session reads the
    link and the browser and keeps the choice under :data:`KEY`; it returns the link's refused
    ``lang`` as one short message (once a session; the page shows it as plain text), else
    ``None``."""
    s = st.session_state
    said = None
    tags = offered()
    repair_choices()
    if s.get(KEY) not in tags:
        raw = st.query_params.get("lang")
        link, refused = link_language(raw, tags)
        if refused and not s.get(_WARNED):
            s[_WARNED] = True
            said = raw
        header = st.context.headers.get("Accept-Language")
        s[KEY] = choose_language(None, link, str(header) if header else None, tags)
    set_language(str(s[KEY]))
    # the refusal said in the language just chosen (the browser's, or English)
    return None if said is None else link_language(said, tags)[1]


def _session_language() -> str | None:
    """The session's chosen language, for words said where :func:`apply` did not run (a
    fragment's or a callback's run in another thread); ``None`` outside a script run."""
    if get_script_run_ctx(suppress_warning=True) is None:
        return None
    tag = st.session_state.get(KEY)
    return str(tag) if tag in offered() else None


set_fallback(_session_language)


def language_select(where: DeltaGenerator | ModuleType) -> None:
    """The sidebar's ``language`` select, listing the offered languages (those whose catalogue
    is complete) by their own names; not drawn while English is the only one."""
    tags = offered()
    if len(tags) < 2:
        return
    # TRANSLATORS: the label of the select that picks the app's language
    where.selectbox(_("Language"), tags, key=KEY, format_func=_own_name, on_change=keep_choices)


def keep_choices() -> None:
    """A new language chosen: every select's value kept (issue 43: a teacher who switched
    from Spanish to Chinese in class got "expansion_order must be one of listed, random,
    heuristic; got 'listado'", and a game "unknown" that stopped the page).

    A select box sends back the label it shows, and the run that reads it finds the value by
    the labels of that run (Streamlit's ``SelectboxSerde``): the old language's label matches
    none of the new one's and the select takes the label itself as its value. Read here, in
    the callback, before the new run draws anything, a value comes through the old run's
    labels; written back, it is the value the new run draws (in the new language's words).
    (tests/browser/test_i18n_matrix_browser.py switches a teacher's language at every class
    screen; an AppTest sends values, not labels, and never shows it.) Only these selects: a
    value written back to another widget can act again (the clicker's last key pressed again
    added a round to the class's open question)."""
    s = st.session_state
    for key in _worded_keys():
        if key in s:
            with contextlib.suppress(StreamlitAPIException, KeyError):
                s[key] = s[key]


def repair_choices() -> None:
    """At the start of every run (the page's and the screen fragment's): a worded select whose
    value is a label of a language it was shown in gets its value back (``SHOWN_LABELS``).
    :func:`keep_choices` does it for the run a language change starts; a run the page asks
    for before it has drawn the new labels (the class's count line every second) still sends
    the old ones ("got 'listado'" once in a loaded test run)."""
    s = st.session_state
    keys = _worded_keys()
    for key in keys:
        with contextlib.suppress(StreamlitAPIException, KeyError):
            value = s.get(key)
            real = _label_value(value)
            if real and real != value:
                s[key] = real
    s[_SEEN] = {key: s[key] for key in keys if key in s}


def _label_value(value: object) -> str | None:
    """The value a label shown in any language stands for (``SHOWN_LABELS``), or ``None``."""
    return SHOWN_LABELS.get(value) if isinstance(value, str) else None


def chosen(key: str, callback: Callable[[], None]) -> Callable[[], None]:
    """The ``on_change`` of the worded select ``key``: ``callback``, unless the change is only
    the label of a language the page has left, sent back by a run the browser asked for before
    it had the new labels (the class's count line every second). Streamlit calls the select's
    callback for it before any run starts, and a lesson picked again opened its first page and
    dropped the class's open question (issue 43: "the reveal of round 2 shows no switch table",
    one run in five after a teacher's language switch). The value is repaired here, as
    :func:`repair_choices` would; the callback runs when it is another value than before."""

    def on_change() -> None:
        s = st.session_state
        value = s.get(key)
        real = _label_value(value)
        if real and real != value:
            s[key] = real
            if real == s.get(_SEEN, {}).get(key):
                return  # (the same choice in the old language's words)
        callback()

    return on_change


def _worded_keys() -> tuple[str, ...]:
    from games.registry import all_specs

    options = tuple(o.key for spec in all_specs() for o in spec.options if o.choices)
    return WORDED_SELECTS + options


def _own_name(tag: str) -> str:
    lang = BY_TAG.get(tag)
    return lang.name if lang else tag  # the pseudo-language (tests) by its tag
