"""The browser components' own words (issue 34): the tree's buttons, legend and aria labels and
the phone board's labels are made in Python with ``_()`` and sent with the data
(``app/components/tree_view.tree_words``, ``board_tap.board_words``); the scripts write none.
In the pseudo-language every word is inside ⟦ ⟧; the English is the scripts' English before."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from app.components.board_tap import board_words
from app.components.tree_view import tree_words
from app.words import i18n
from tests.app_helpers import outside_pseudo

STATIC = Path(__file__).resolve().parents[3] / "app" / "components" / "static"
VIEW: dict[str, Any] = {
    "player_names": ["X", "O"],
    "palette": {"p0_name": "yellow", "p1_name": "red"},
    "drawn": 12,
    "total": 1234,
    "focus_found": False,
}
#: What may stand outside ⟦ ⟧: the game's player names and numbers the sentences carry, the
#: buttons' symbols, the placeholders the scripts fill and the words' direction (``dir``).
ALLOWED = re.compile(r"[\s\d.,:;?+−()\"'\[\]{}]|\b(X|O|1:1|text|title|label|ltr)\b")


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _english_left(words: dict[str, Any]) -> list[str]:
    left = []
    for text in _strings(words):
        rest = ALLOWED.sub("", outside_pseudo(text))
        if rest.strip():
            left.append(f"{rest!r} in {text!r}")
    return left


def test_the_components_words_are_all_wrapped() -> None:
    with i18n.language(i18n.PSEUDO):
        tree, board = tree_words(VIEW), board_words()
    assert _english_left(tree) == []
    assert _english_left(board) == []
    # the legend's sentences carry the players and the counts whole, in one message each
    assert "X" in tree["legend"]["p0"] and "⟦ýéļļów⟧" in tree["legend"]["p0"]
    assert "1,234" in tree["legend"]["info"]


def test_the_check_finds_a_word_left_english() -> None:
    with i18n.language(i18n.PSEUDO):
        tree = tree_words(VIEW)
    tree["legend"]["end"] = "grey: " + tree["legend"]["end"]  # glued on the side
    assert _english_left(tree) == [f"'grey' in {tree['legend']['end']!r}"]


def test_english_words_as_the_scripts_wrote_them() -> None:
    words = tree_words(VIEW | {"focus_found": True, "palette": {}})
    assert words["buttons"][3] == ["fit", "fit the whole drawing"]
    assert words["button"] == "{text}: {title}" and words["answer"] == "answer {label}"
    assert words["legend"]["p0"] == (
        "blue, square corners: X's move, Q for X (as on the board; the root: the player to move)"
    )
    assert words["legend"]["info"] == "12 of 1,234 nodes drawn"
    assert board_words() == {"board": "board: tap a move to answer", "answer": "answer {label}"}


def test_numbers_in_the_language_and_the_data_is_json() -> None:
    with i18n.language("de"):
        words = tree_words(VIEW)
    assert "1.234" in words["legend"]["info"]
    json.dumps(words)


def test_the_legend_and_tooltip_run_right_to_left_in_arabic_only() -> None:
    """The script gives the legend and the tooltip the words' direction (``dir``); the drawing
    keeps its own (tests/browser/test_languages_browser.py's ``DIRECTIONS``, run by the
    matrix, looks at the legend opened)."""
    for tag in i18n.OFFERED:
        with i18n.language(tag):
            assert tree_words(VIEW)["dir"] == ("rtl" if i18n.BY_TAG[tag].rtl else "ltr"), tag


def test_the_scripts_write_no_english_of_their_own() -> None:
    """No sentence in quotes in the scripts (their strings are keys, classes, colours, tags)."""
    for name in ("tree_view.js", "board_tap.js"):
        lines = (STATIC / name).read_text(encoding="utf-8").splitlines()
        code = "\n".join(re.sub(r"(^|\s)//.*", "", line) for line in lines)  # no comments
        quoted = re.findall(r'"([^"\n]*)"', code)
        classes = re.compile(r"^([\w]+-[\w-]*\s*)+$")  # "tv-edge tv-edge-": CSS classes
        sentences = [s for s in quoted if re.search(r"[a-z]{3,} [a-z]", s) and not classes.match(s)]
        assert sentences == [], name
