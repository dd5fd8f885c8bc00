"""The translation machinery (app/words/i18n.py), end to end on the one module wrapped so far
(app/words/c_sentence.py): a Spanish catalogue kept under tests/ (test data, not offered to
users), the pseudo-language that shows English that skipped ``_()``, plurals from a catalogue's
own rules, and numbers the language's way."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.words import i18n
from app.words.c_sensitivity import CFlip, flip_points
from app.words.c_sentence import flip_sentence
from app.words.i18n import _, language, n_
from games import make_game
from mcts_core import Search, SearchConfig
from mcts_core.trace import Decision

TEST_LOCALES = Path(__file__).resolve().parents[2] / "locale"


def decisions(game: str = "tic_tac_toe", c: float = 0.7, n: int = 60) -> list[Decision]:
    search = Search(make_game(game), None, SearchConfig(c=c, tree_policy="uct"), seed=5)
    return [d for _ in range(n) for d in search.step().decisions]


def outside_brackets(text: str) -> str:
    """The text outside every ⟦ ⟧ (nested ones too): what did not go through ``_()``."""
    depth, kept = 0, []
    for ch in text:
        if ch == i18n.PSEUDO_OPEN:
            depth += 1
        elif ch == i18n.PSEUDO_CLOSE:
            depth -= 1
        elif depth == 0:
            kept.append(ch)
    assert depth == 0, text
    return "".join(kept)


# ------------------------------------------------------------------------ Spanish


def test_spanish_catalogue_turns_the_c_sentence_and_its_numbers() -> None:
    flip = CFlip(2.3125, "c3", "raise", 1, 0.25)
    assert flip_sentence(flip) == "Raise C above 2.31 and c3 would be chosen instead."
    with language("es", root=TEST_LOCALES):
        assert i18n.current_tag() == "es"
        assert flip_sentence(flip) == "Sube C por encima de 2,31 y se elegiría c3 en su lugar."
        now = CFlip(0.25, "a1", "lower", 0, 0.25)  # the flip is at C now: "even slightly"
        assert flip_sentence(now) == (
            "Baja C aunque sea un poco por debajo de 0,25 y se elegiría a1 en su lugar."
        )
        assert i18n.decimal(0.25) == "0,25"
        assert i18n.fixed(0.25, 2) == "0,25"
        # Spanish groups thousands from five digits (CLDR's minimumGroupingDigits 2)
        assert [i18n.decimal(x) for x in (4212, 42120, -4212.5)] == ["4212", "42.120", "-4212,5"]
    with i18n.language("de"):
        assert [i18n.decimal(x) for x in (4212, 42120)] == ["4.212", "42.120"]
    assert i18n.current_tag() == "en"  # the with block put English back
    assert flip_sentence(flip) == "Raise C above 2.31 and c3 would be chosen instead."


def test_spanish_sentence_of_two_flips_has_no_english_word() -> None:
    english_words = {"raise", "lower", "above", "below", "would", "chosen", "instead", "and"}
    two = 0
    for d in decisions(c=0.7):
        flips = flip_points(d, "uct", 0.7)
        with language("es", root=TEST_LOCALES):
            text = flip_sentence(d, "uct", 0.7)
        labels = {t.label for t in d.children}
        words = set(re.findall(r"[A-Za-z]+", text)) - labels - {"C", "Q"}
        assert not {w.lower() for w in words} & english_words, text
        if len(flips) == 2:
            assert "; " in text and text.endswith(".")
            two += 1
    assert two  # the sentence with both flips was seen


def test_numbers_the_language_way() -> None:
    for tag in ("de", "es"):
        with language(tag):
            assert i18n.decimal(0.25) == "0,25"
            assert i18n.number_text("+0.333") == "+0,333"
            assert i18n.number_text("-1.000") == "-1,000"
            assert i18n.percent(0.25) == "25\xa0%"
    with language("zh-Hans"):
        assert i18n.decimal(0.25) == "0.25"
    assert i18n.number_text("+0.333") == "+0.333"  # English: unchanged
    assert i18n.number_text("c3") == "c3"  # not a number: unchanged
    assert i18n.fixed(2.675, 2) == f"{2.675:.2f}"  # rounded as Python rounds, then written


# ------------------------------------------------------------------- pseudo-language


def test_pseudo_language_wraps_every_sentence_of_the_wrapped_module() -> None:
    texts = []
    with language(i18n.PSEUDO):
        for d in decisions(c=0.7) + decisions("connect_four", c=1.4, n=30):
            texts.append(flip_sentence(d, "uct", 0.7))
            texts.extend(flip_sentence(f) for f in flip_points(d, "uct", 0.7))
    assert len(set(texts)) > 10
    for text in texts:
        assert text.startswith(i18n.PSEUDO_OPEN), text
        assert not re.search(r"[A-Za-z]", outside_brackets(text)), text
    # and it does find English that skipped _(): a sentence glued on the side
    with language(i18n.PSEUDO):
        glued = flip_sentence(CFlip(2.0, "c3", "raise", 1, 1.0)) + " Try it."
    assert outside_brackets(glued).strip() == "Try it."


def test_pseudo_keeps_placeholders_and_values() -> None:
    with language(i18n.PSEUDO):
        assert _("Raise C above {c}", c="2.31") == "⟦Ŕáíšé Ç áƀóvé 2.31⟧"
        assert n_("{n} visit", "{n} visits", 3) == "⟦3 víšíţš⟧"
    assert i18n.pseudo("{move} wins") == "⟦{move} wíñš⟧"


# ------------------------------------------------------------- plurals and languages


PLURAL_PO = """\
msgid ""
msgstr ""
"Language: ar\\n"
"Plural-Forms: nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : "
"n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);\\n"
"Content-Type: text/plain; charset=utf-8\\n"

msgid "{n} visit"
msgid_plural "{n} visits"
msgstr[0] "zero {n}"
msgstr[1] "one"
msgstr[2] "two"
msgstr[3] "few {n}"
msgstr[4] "many {n}"
msgstr[5] "other {n}"
"""


def test_plural_forms_come_from_the_catalogue(tmp_path: Path) -> None:
    po = tmp_path / "ar" / "LC_MESSAGES" / "mcts_lab.po"
    po.parent.mkdir(parents=True)
    po.write_text(PLURAL_PO, encoding="utf-8")
    with language("ar", root=tmp_path):
        assert i18n.is_rtl()
        got = [n_("{n} visit", "{n} visits", n) for n in (0, 1, 2, 5, 11, 100)]
        assert got == ["zero 0", "one", "two", "few 5", "many 11", "other 100"]
    assert n_("{n} visit", "{n} visits", 1) == "1 visit"
    assert n_("{n} visit", "{n} visits", 2) == "2 visits"
    assert n_("{count} node", "{count} nodes", 2, count="2,000") == "2,000 nodes"


def test_a_count_of_iterations_takes_each_language_s_plural_form() -> None:
    """Issue 43: "after 0 of 1 iteration", never "1 iterations"; the app's catalogues give
    Spanish its two forms and Arabic its six (0, 1, 2, 3-10, 11-99, 100 and up)."""
    from app.live.stepping import _stopped_at

    def after(n: int) -> str:
        return _stopped_at(7, None, 0, n)

    assert after(1) == "Stopped at iteration 7: its breakpoint, after 0 of 1 iteration."
    assert after(2).endswith("after 0 of 2 iterations.")
    with language("es"):
        assert after(1).endswith("tras 0 de 1 iteración.")
        assert after(2).endswith("tras 0 de 2 iteraciones.")
    with language("ar"):
        got = [after(n).rsplit("من ", 1)[1] for n in (0, 1, 2, 3, 11, 100)]
    assert got == ["0 تكرار.", "تكرار واحد.", "تكرارين.", "3 تكرارات.", "11 تكرارًا.", "100 تكرار."]


#: A count placeholder right before a noun in the plural ("{n} iterations", "{n} seeded
#: iterations"): such a message is to be a plural entry (``n_``, ``P``, ``Nn_``).
_COUNT_NOUN = re.compile(
    r"\{\w+\} (?:(?:seeded|iteration|Step|different) )?"
    r"(iterations|nodes|rolls|slides|answers|records|decisions|clicks|seconds|times|students|characters)\b"
)


def _counts_without_plural(template: Path) -> list[str]:
    from babel.messages.pofile import read_po

    with template.open("rb") as f:
        catalog = read_po(f)
    return [m.id for m in catalog if isinstance(m.id, str) and _COUNT_NOUN.search(m.id)]


def test_every_count_with_a_noun_is_a_plural_message(tmp_path: Path) -> None:
    """The template has no lone message that puts a count before a plural noun (it would say
    "1 iterations", and Arabic could not write its forms); a planted one is found."""
    template = i18n.LOCALE_DIR / "mcts_lab.pot"
    assert _counts_without_plural(template) == []
    planted = tmp_path / "planted.pot"
    text = template.read_text(encoding="utf-8")
    planted.write_text(text + '\nmsgid "link: {n} seeded iterations"\nmsgstr ""\n', "utf-8")
    assert _counts_without_plural(planted) == ["link: {n} seeded iterations"]


def test_unknown_or_catalogue_less_language_is_english(tmp_path: Path) -> None:
    with language("xx"):
        assert i18n.current_tag() == "en"
    with language("de", root=tmp_path):  # no catalogue there: the source text
        assert _("{move} wins", move="a1") == "a1 wins"
        assert not i18n.is_rtl()


def test_placeholders_are_named_fields() -> None:
    assert i18n.placeholders("Raise C above {c} and {move} would") == {"c", "move"}
    assert i18n.placeholders("no fields") == frozenset()


@pytest.mark.parametrize("tag", ["en", "es", "de", "zh-Hans", "ar"])
def test_every_language_maps_to_a_babel_locale(tag: str) -> None:
    from babel import Locale

    lang = i18n.BY_TAG[tag]
    assert (Locale.parse(lang.locale).character_order == "right-to-left") == lang.rtl


def test_a_context_without_a_language_asks_the_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    """Streamlit runs a fragment or a callback in a thread the run's set_language did not reach:
    the app's fallback (the session's choice) answers there, once per context."""
    import threading

    asked: list[int] = []

    def session_choice() -> str:
        asked.append(1)
        return "de"

    monkeypatch.setattr(i18n, "_FALLBACK", [session_choice])
    seen: list[str] = []

    def fragment_run() -> None:
        seen.extend([i18n.current_tag(), i18n.decimal(0.25), i18n.current_tag()])
        with language("en"):
            seen.append(i18n.current_tag())

    thread = threading.Thread(target=fragment_run)
    thread.start()
    thread.join()
    assert seen == ["de", "0,25", "de", "en"]
    assert asked == [1]
    monkeypatch.setattr(i18n, "_FALLBACK", [lambda: None])
    thread = threading.Thread(target=lambda: seen.append(i18n.current_tag()))
    thread.start()
    thread.join()
    assert seen[-1] == "en"


def test_a_signed_number_keeps_its_sign_first_in_arabic() -> None:
    """In right-to-left text "-1.000" shows as "1.000-" unless the number is isolated left to
    right; left-to-right languages get no isolate."""
    with language("ar"):
        assert i18n.number_text("-1.000") == i18n.LRI + "-1.000" + i18n.PDI
        assert i18n.fixed(0.25, 2, signed=True) == i18n.LRI + "+0.25" + i18n.PDI
        assert i18n.decimal(-0.5) == i18n.LRI + "-0.5" + i18n.PDI
        assert i18n.decimal(0.5) == "0.5"
    with language("de"):
        assert i18n.number_text("-1.000") == "-1,000"
    assert i18n.number_text("-1.000") == "-1.000"


def test_numbers_and_ranges_the_language_s_way() -> None:
    """Issue 43: the tree's edge odds and the charts' ticks take the language's symbols; a
    link's range stays one left-to-right run in Arabic (it showed "2,147,483,647..0")."""
    from app.drawing.tree_layout import _percent
    from app.inputs.links import whole

    with i18n.language("de"):
        assert _percent(0.042) == "4,2\u00a0%" and i18n.separators() == ",."
    assert _percent(0.042) == "4.2%" and i18n.separators() == ".,"
    with i18n.language("ar"), pytest.raises(ValueError) as refused:
        whole("x", 0, 2_147_483_647)
    said = str(refused.value)
    assert said.index(i18n.LRI) < said.index("0..") < said.index(i18n.PDI)
    with pytest.raises(ValueError) as refused:
        whole("x", 0, 9)
    assert "0..9" in str(refused.value) and i18n.LRI not in str(refused.value)
