"""Choosing the page's language (app/inputs/language.py, links.link_language,
app/inputs/language_choice.py): the browser's Accept-Language by q-value, ?lang=CODE checked
like every link value (a refused one: one warning, then English), and the sidebar's select
listing only the offered languages (hidden while English is the only one)."""

from __future__ import annotations

import pytest

from app.inputs import language_choice
from app.inputs.language import choose_language, from_accept_language
from app.inputs.links import link_language
from app.words import i18n
from tests.app_helpers import fresh, notes

ALL = ("en", "es", "de", "zh-Hans", "ar")


@pytest.mark.parametrize(
    ("header", "want"),
    [
        ("de-DE,de;q=0.9,en;q=0.8", "de"),
        ("en;q=0.5, es;q=0.9", "es"),  # by q-value, not order
        ("fr-FR,fr;q=0.9,ar;q=0.2", "ar"),
        ("zh-CN,zh;q=0.9", "zh-Hans"),
        ("zh-Hans-SG", "zh-Hans"),
        ("zh-TW,zh-Hant;q=0.9", None),  # Traditional Chinese is not offered
        ("zh-TW,en;q=0.1", "en"),
        ("es;q=0, de;q=0.3", "de"),  # q=0: not wanted
        ("es;q=abc, de;q=0.3", "de"),  # a malformed q-value: the range skipped
        ("*", None),
        ("", None),
        ("fr, it", None),
        ("ES-mx", "es"),
    ],
)
def test_accept_language(header: str, want: str | None) -> None:
    assert from_accept_language(header, ALL) == want


def test_accept_language_reads_a_bounded_header() -> None:
    header = ",".join(["fr"] * 40) + ",de"  # de is the 41st range: past the 30 read
    assert from_accept_language(header, ALL) is None
    assert from_accept_language("x" * 5000 + ",de", ALL) is None


def test_only_offered_languages_are_chosen() -> None:
    assert i18n.OFFERED == ALL  # each catalogue whole (scripts/catalogues.py check)
    assert from_accept_language("de-DE,de;q=0.9", ("en", "es")) is None
    assert choose_language(None, None, "de-DE,de;q=0.9", ("en", "es")) == "en"
    assert choose_language("es", "de", "ar", ALL) == "es"  # the select first
    assert choose_language(None, "de", "ar", ALL) == "de"  # then the link
    assert choose_language(None, None, "ar", ALL) == "ar"  # then the browser
    assert choose_language("xx", None, None, ALL) == "en"


def test_link_language_is_checked_like_every_link_value() -> None:
    assert link_language(None) == (None, None)
    assert link_language("en") == ("en", None)
    assert link_language("ZH-hans", ALL) == ("zh-Hans", None)
    assert link_language("de") == ("de", None)
    assert link_language("de", ("en",)) == (None, "ignored lang='de' from the link: use en")
    assert link_language("x" * 400, ALL) == (
        None,
        "ignored lang='xxxxxxxxxxxxxxxxxxxxxxxx…' from the link: use en, es, de, zh-Hans, ar",
    )


def test_a_refused_lang_link_warns_once_and_the_page_is_english() -> None:
    at = fresh(lang="klingon")
    assert notes(at, "warning") == [
        "ignored lang='klingon' from the link: use en, es, de, zh-Hans, ar"
    ]
    assert at.session_state[language_choice.KEY] == "en"
    at.run()
    assert not notes(at, "warning")


def test_a_lang_link_with_markdown_is_plain_text() -> None:
    at = fresh(lang="[x](http://evil.example)")
    assert notes(at, "warning") == [
        "ignored lang='[x](http://evil.example)' from the link: use en, es, de, zh-Hans, ar"
    ]
    for element in list(at.markdown) + list(at.warning) + list(at.caption):
        assert "evil.example" not in element.value


def test_the_select_lists_offered_languages_and_takes_the_link(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(i18n, "OFFERED", ("en", "es"))
    at = fresh(lang="es")
    assert not notes(at, "warning")
    select = at.selectbox(key=language_choice.KEY)  # its label is in the page's language
    assert list(select.options) == ["English", "Español"]
    assert select.value == "es"
    select.set_value("en").run()
    assert at.session_state[language_choice.KEY] == "en"


def test_one_language_offered_draws_no_select(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(i18n, "OFFERED", ("en",))
    at = fresh(lang="es")
    assert notes(at, "warning") == ["ignored lang='es' from the link: use en"]
    assert at.session_state[language_choice.KEY] == "en"
    assert not [s for s in at.selectbox if s.key == language_choice.KEY]


def test_the_pseudo_language_is_offered_only_when_a_test_asks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    at = fresh(lang="en-XA")
    assert at.session_state[language_choice.KEY] == "en"  # users never get it
    monkeypatch.setenv(i18n.PSEUDO_ENV, "1")
    at = fresh(lang="en-XA")
    assert not notes(at, "warning")
    assert at.session_state[language_choice.KEY] == "en-XA"


def _worded_selects() -> set[str]:
    """The keys of the select boxes in app/ that have a ``format_func`` (their labels made at
    run time), written as a string or a module's constant."""
    import ast
    from pathlib import Path

    from app.live import stepping

    names: dict[str, set[str]] = {"KEY": {language_choice.KEY}, "stepping.UNTIL": {stepping.UNTIL}}
    keys = set()
    trees = [ast.parse(p.read_text(encoding="utf-8"))
             for p in Path(language_choice.__file__).parents[1].rglob("*.py")]  # fmt: skip
    # the export box's select, keyed by each caller's prefix (export_box("export", ...))
    names["f'{prefix}_format'"] = {
        f"{node.args[0].value}_format"
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", None) == "export_box"
        and node.args
        and isinstance(node.args[0], ast.Constant)
    }
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "selectbox":
                given = {k.arg: k.value for k in node.keywords}
                if "format_func" in given and "key" in given:
                    key = given["key"]
                    keys.add(key.value if isinstance(key, ast.Constant) else ast.unparse(key))
    return {name for k in keys for name in names.get(k, {k})}


def test_every_select_with_worded_labels_keeps_its_value_across_languages() -> None:
    """Issue 43: each select whose labels are the page's words is written back when the
    language changes (language_choice.keep_choices); a new one must join the list. Not in
    it: the language select itself, the class's names (the same in every language) and the
    games' option selects (``option.key``: taken from the registry)."""
    found = _worded_selects() - {language_choice.KEY, "class_remove_name", "option.key"}
    assert found == set(language_choice.WORDED_SELECTS)


def _repair_script() -> None:
    import streamlit as st

    from app.inputs import language_choice
    from app.words import i18n

    i18n.SHOWN_LABELS.update({"listado": "listed", "nim": "nim", "zufällig": ""})
    st.session_state.update({"expansion": "listado", "game": "nim", "rollout": "zufällig"})
    language_choice.repair_choices()


def test_a_select_that_reads_back_another_language_s_label_gets_its_value() -> None:
    """Issue 43: a run the page asks for before it shows a new language's labels (the class's
    count line, every second) reads a select's old label ("listado") as its value; each run
    turns a label shown in any language back into the value it stands for; a value, or a
    label two values share (""), stays as it is."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_repair_script).run()
    assert not at.exception
    assert at.session_state["expansion"] == "listed"
    assert at.session_state["game"] == "nim" and at.session_state["rollout"] == "zufällig"


def _chosen_script() -> None:
    import streamlit as st

    from app.inputs import language_choice
    from app.words import i18n

    s = st.session_state
    i18n.SHOWN_LABELS.update({"listado": "listed", "aleatorio": "random"})
    s.setdefault("expansion", "listed")
    s.setdefault("calls", [])
    language_choice.repair_choices()  # (every run starts with it: the values as they were)
    on_change = language_choice.chosen("expansion", lambda: s["calls"].append(s["expansion"]))
    for sent in ("listado", "aleatorio", "heuristic"):  # (what each callback would read)
        s["expansion"] = sent
        on_change()


def test_a_label_read_back_after_a_language_switch_is_no_choice() -> None:
    """Issue 43: a select's old-language label sent back by a run the browser asked for before
    it drew the new labels is the same choice, not a new one: its callback does not run (the
    lesson select's opened the first page again and dropped the class's open question). A
    label of another value, or a value, is a choice: the callback runs with the value."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_function(_chosen_script).run()
    assert not at.exception
    assert at.session_state["calls"] == ["random", "heuristic"]


def test_every_worded_select_s_callback_is_held_against_old_labels() -> None:
    """Every select with worded labels and an ``on_change`` passes it through
    ``language_choice.chosen`` (one missed: its callback acts on an echo of a language left)."""
    import ast
    from pathlib import Path

    bare = []
    for path in Path(language_choice.__file__).parents[1].rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "selectbox":
                given = {k.arg: k.value for k in node.keywords}
                key = given.get("key")
                if "format_func" not in given or "on_change" not in given or key is None:
                    continue
                if ast.unparse(key) == "KEY":
                    continue  # (the language select itself: keep_choices)
                call = given["on_change"]
                if not (isinstance(call, ast.Call) and getattr(call.func, "id", None) == "chosen"):
                    bare.append(f"{path.name}: {ast.unparse(key)}")
    assert not bare, bare
