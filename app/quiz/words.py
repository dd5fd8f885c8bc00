"""The quiz's words as data: a question, its answers and its reveal keep the FACTS of their
sentences (a message, its named values, counts, numbers, player names), and the words are made
from them at the moment they are shown, in the current language (issue 34: a phone shows the
teacher's question in its own language). Pure; no Streamlit.

A *spec* is plain JSON-friendly data (it can go into the class's store as it is):

- a ``str``: shown as it is (a node number), a game's move or outcome label in the current
  language's words (:func:`app.words.game_words.shown`);
- ``{"msg": TEMPLATE, "args": {NAME: spec}}``: ``_(TEMPLATE, NAME=...)`` (:func:`M`);
- ``{"msg": SINGULAR, "plural": PLURAL, "n": N, "args": {...}}``: ``n_(...)`` (:func:`P`);
- ``{"int": N}``: a count with the language's grouping ("1,200"; :func:`count`);
- ``{"num": "+0.333"}``: a number as the quiz rounds it, in the language's symbols (:func:`num`,
  :func:`plain`);
- ``{"name": "X"}``: a player's name (translated where the catalogue has it; :func:`name`);
- ``{"join": [spec, ...]}``: a list ("c1, c3"; the separator is a message).

The templates are English messages marked with ``N_`` where they are written (so they reach
the catalogue; a :func:`P` call's two literal forms are extracted as one plural entry, the
keyword ``P:1,2`` of ``scripts/catalogues.py``: never wrap them in ``N_``); :func:`render`
translates them. :func:`english` renders a spec in English: the
records keep that text too (``Question.text``, ``Reveal.summary``) for what compares or files
it, but a screen shows :func:`render` of the facts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TypedDict

from app.words import i18n
from app.words.game_words import shown
from app.words.i18n import N_, _, n_

__all__ = ["M", "P", "count", "english", "join", "name", "num", "plain", "render"]

#: A spec as written: a ``str`` or one of the ``dict`` forms above (JSON-friendly); what
#: :func:`render` reads may be anything (a store's record of another version).
Spec = str | dict[str, object]


class QuestionFacts(TypedDict, total=False):
    """A question's facts (``Question.facts``): its words' spec and one spec per option."""

    text: Spec
    choices: list[Spec]


class RevealFacts(TypedDict, total=False):
    """A reveal's facts (``Reveal.facts``): its summary's spec and its table, a spec per cell."""

    summary: Spec
    rows: list[list[Spec]]


def M(template: str, **args: Spec) -> dict[str, object]:
    """A message (an ``N_``-marked English template) with its named values."""
    return {"msg": template, "args": args}


def P(singular: str, plural: str, n: int, /, **args: Spec) -> dict[str, object]:
    """A message with a plural: the form for ``n``; ``{n}`` is the count written the
    language's way unless ``n`` is given in ``args``."""
    args.setdefault("n", count(n))
    return {"msg": singular, "plural": plural, "n": int(n), "args": args}


def count(n: int) -> dict[str, object]:
    """A whole number with the language's grouping ("1,200" in English, "1.200" in German)."""
    return {"int": int(n)}


def plain(n: int) -> dict[str, object]:
    """A whole number written without grouping ("1200"), the language's digits."""
    return num(str(int(n)))


def num(text: str) -> dict[str, object]:
    """A number already rounded in ASCII (``"+0.333"``, ``"0.125"``), same digits, the
    language's symbols."""
    return {"num": str(text)}


def name(player: str) -> dict[str, object]:
    """A player's name from the game ("X", "First"), or a setting's value named in a sentence
    (the expansion order 'listed'): translated where the catalogue has it."""
    return {"name": str(player)}


# The settings' values the quiz names in its sentences ("'listed' order", "a random player"):
# marked here so that the catalogue has them (the sidebar shows the same values).
# TRANSLATORS: an expansion order (a setting's value): moves in the game's own order
N_("listed")
# TRANSLATORS: an expansion order, a rollout or an arena opponent (a setting's value)
N_("random")
# TRANSLATORS: an expansion order (a setting's value): the most promising moves first
N_("heuristic")


def join(items: Sequence[Spec]) -> dict[str, object]:
    """A list of items ("c1, c3")."""
    return {"join": list(items)}


# TRANSLATORS: joins the items of a list in the quiz ("c1, c3"): {items} is the list so far.
_JOIN = N_("{items}, {item}")


def render(spec: object) -> str:
    """The words of ``spec`` in the current language (a spec from the store that is not of
    this form is shown as its text)."""
    if spec is None:
        return ""
    if isinstance(spec, str):  # a move's or an outcome's label in the language's words
        return shown(spec)
    if isinstance(spec, (int, float)):
        return i18n.decimal(spec)
    if not isinstance(spec, Mapping):
        return str(spec)
    if "msg" in spec:
        args = {k: render(v) for k, v in dict(spec.get("args") or {}).items()}
        try:
            if "plural" in spec:
                n = int(spec.get("n", 0))
                return n_(str(spec["msg"]), str(spec["plural"]), n, **args)
            return _(str(spec["msg"]), **args)
        except (KeyError, IndexError, ValueError):  # a record's template and values disagree
            return str(spec["msg"])
    if "int" in spec:
        return i18n.decimal(int(spec["int"]))
    if "num" in spec:
        return i18n.number_text(str(spec["num"]))
    if "name" in spec:
        return _(str(spec["name"])) if spec["name"] else ""
    if "join" in spec:
        items = [render(item) for item in spec["join"]]
        if not items:
            return ""
        text = items[0]
        for item in items[1:]:
            text = _(_JOIN, items=text, item=item)
        return text
    return str(spec)


def english(spec: Spec) -> str:
    """The words of ``spec`` in English (what the records keep beside the facts)."""
    with i18n.language(i18n.SOURCE):
        return render(spec)
