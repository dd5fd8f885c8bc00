"""The one translation function of the app's words, the current language, and numbers written
the language's way (pure: no Streamlit; docs/translations.md).

- :func:`_` translates a message and fills its named placeholders: ``_("{move} is the only move
  here", move=label)``. :func:`n_` does the same for a message with a singular and a plural
  (the count is the placeholder ``{n}`` unless named otherwise). A sentence is one message:
  never join translated pieces with ``+``; a placeholder carries what varies.
- The messages are the English source text. A language's catalogue is a gettext ``.po`` file,
  ``app/locale/<locale>/LC_MESSAGES/mcts_lab.po`` (``<locale>`` is Babel's name: ``zh_Hans``),
  read with Babel and compiled in memory the first time the language is used: the ``.po`` is
  the only file, no build step writes a ``.mo`` (``scripts/catalogues.py`` keeps it current).
- The current language lives in a context variable that the app sets at the start of each
  script run (:func:`set_language`); tests use :func:`language` as a ``with`` block. English,
  the default, needs no catalogue.
- ``en-XA`` is a pseudo-language for tests, never offered: every message comes back accented
  and wrapped in ``⟦ ⟧`` (made from the source text, no catalogue), so English that did not go
  through :func:`_` stands out on a screen.
- :func:`decimal`, :func:`percent` and :func:`number_text` write numbers with the language's
  symbols (Babel: "0,25" in German and Spanish).
"""

from __future__ import annotations

import io
import os
import re
import string
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal, format_percent, get_decimal_symbol, get_group_symbol
from babel.support import NullTranslations, Translations

#: The gettext domain: every catalogue's file name.
DOMAIN = "mcts_lab"
#: Where the app's catalogues live: ``<locale>/LC_MESSAGES/mcts_lab.po`` and the template
#: ``mcts_lab.pot`` (``scripts/catalogues.py extract``).
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"


@dataclass(frozen=True)
class Language:
    """A language the app knows: its tag (in links, ``Accept-Language`` and the select), Babel's
    locale name (the catalogue's folder, the number symbols), its own name, and whether its
    text runs right to left."""

    tag: str
    locale: str
    name: str
    rtl: bool = False


#: Every language the app has a place for, English first (the source language).
LANGUAGES: tuple[Language, ...] = (
    Language("en", "en", "English"),
    Language("es", "es", "Español"),
    Language("de", "de", "Deutsch"),
    Language("zh-Hans", "zh_Hans", "简体中文"),
    Language("ar", "ar", "العربية", rtl=True),
)
BY_TAG: dict[str, Language] = {lang.tag: lang for lang in LANGUAGES}

#: The languages offered to users (the sidebar select, ``?lang=``, ``Accept-Language``): those
#: whose catalogue is complete. ``scripts/catalogues.py check`` fails when one of them misses
#: a message. Adding a language is one line here, once its catalogue is whole.
OFFERED: tuple[str, ...] = ("en", "es", "de", "zh-Hans", "ar")

SOURCE = "en"
#: The pseudo-language for tests (never offered): messages accented and wrapped in ⟦ ⟧.
PSEUDO = "en-XA"
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"
#: Set to ``1`` in a test's environment to offer the pseudo-language too (``?lang=en-XA``):
#: an AppTest or a Chromium page then shows what did not go through :func:`_`.
PSEUDO_ENV = "MCTS_LAB_PSEUDO"


#: Every select label shown so far, in any language, and the value it stands for (recorded by
#: ``app.components.ui.in_page_language``; ``""``: a label two values share). A select reads
#: back the label its page last showed: one of another language (the page's language just
#: changed) is turned into its value again (``app.inputs.language_choice.repair_choices``).
SHOWN_LABELS: dict[str, str] = {}


def offered() -> tuple[str, ...]:
    """The languages a page may choose: :data:`OFFERED`, and ``en-XA`` when the environment
    asks for it (:data:`PSEUDO_ENV`, tests only)."""
    return OFFERED + ((PSEUDO,) if os.environ.get(PSEUDO_ENV) == "1" else ())


@dataclass(frozen=True)
class _Current:
    tag: str
    locale: str
    translations: NullTranslations


_ENGLISH = _Current(SOURCE, "en", NullTranslations())
_CURRENT: ContextVar[_Current] = ContextVar("mcts_lab_language")
#: Asked for the language in a context where none was set (:func:`set_fallback`).
_FALLBACK: list[Callable[[], str | None]] = []


def set_fallback(resolver: Callable[[], str | None]) -> None:
    """Where to find the language when this context has none: Streamlit runs a fragment or a
    callback in a thread the script run's :func:`set_language` did not reach, so the app
    registers a reader of the session's choice here. ``None`` from it is English."""
    _FALLBACK[:] = [resolver]


def _now() -> _Current:
    current = _CURRENT.get(None)
    if current is not None:
        return current
    tag = _FALLBACK[0]() if _FALLBACK else None
    if tag is None:
        return _ENGLISH
    current = _current(tag, LOCALE_DIR)
    _CURRENT.set(current)  # kept for the rest of this context
    return current


def _catalogue(locale: str, root: Path) -> NullTranslations:
    """The language's ``.po`` compiled in memory (Babel's reader and ``.mo`` writer); no file:
    the English text (a language without a catalogue yet shows the source)."""
    path = root / locale / "LC_MESSAGES" / f"{DOMAIN}.po"
    return _compiled(str(path), path.stat().st_mtime_ns if path.exists() else 0)


@lru_cache(maxsize=32)
def _compiled(path: str, mtime_ns: int) -> NullTranslations:
    if not mtime_ns:
        return NullTranslations()
    with open(path, "rb") as f:
        catalog = read_po(f)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)  # fuzzy entries left out, as msgfmt does
    buffer.seek(0)
    return Translations(fp=buffer, domain=DOMAIN)


def set_language(tag: str, root: Path = LOCALE_DIR) -> None:
    """Make ``tag`` the current language of this context (the app: once per script run).
    An unknown tag is English; ``en-XA`` is the pseudo-language."""
    _CURRENT.set(_current(tag, root))


@contextmanager
def language(tag: str, root: Path = LOCALE_DIR) -> Iterator[None]:
    """``with language("es"):`` the words inside are in that language (tests, one frame)."""
    token = _CURRENT.set(_current(tag, root))
    try:
        yield
    finally:
        _CURRENT.reset(token)


def _current(tag: str, root: Path) -> _Current:
    if tag == PSEUDO:
        return _Current(PSEUDO, "en", NullTranslations())
    lang = BY_TAG.get(tag)
    if lang is None or lang.tag == SOURCE:
        return _ENGLISH
    return _Current(lang.tag, lang.locale, _catalogue(lang.locale, root))


def current_tag() -> str:
    """The current language's tag (``en`` by default)."""
    return _now().tag


def is_rtl() -> bool:
    """True when the current language's text runs right to left (Arabic)."""
    lang = BY_TAG.get(current_tag())
    return lang is not None and lang.rtl


# ------------------------------------------------------------------------ messages


def placeholders(message: str) -> frozenset[str]:
    """The named placeholders of a message (``{visits}`` -> ``visits``)."""
    return frozenset(
        name.split(".")[0].split("[")[0]
        for _, name, _, _ in string.Formatter().parse(message)
        if name is not None
    )


def _fill(message: str, named: Mapping[str, object]) -> str:
    return message.format_map(named) if named else message


def _(message: str, **named: object) -> str:
    """``message`` in the current language with its named placeholders filled."""
    current = _now()
    if current.tag == PSEUDO:
        return _fill(pseudo(message), named)
    return _fill(current.translations.gettext(message), named)


def N_(message: str) -> str:
    """``message`` unchanged, marked for the catalogue (gettext's ``gettext_noop``): for a
    constant made at import time, translated with ``_(CONSTANT)`` where it is shown."""
    return message


def n_(singular: str, plural: str, n: int, /, **named: object) -> str:
    """The singular or plural form for ``n`` (the language's plural rules: Arabic has six
    forms), placeholders filled; ``{n}`` is the count unless ``n`` is given by name."""
    named.setdefault("n", n)
    current = _now()
    if current.tag == PSEUDO:
        return _fill(pseudo(singular if n == 1 else plural), named)
    return _fill(current.translations.ngettext(singular, plural, n), named)


_ACCENTED = str.maketrans(
    "abcdeghiklnorstuyzABCDEGHIKLNORSTUYZ",
    "áƀçđéĝĥíķļñóŕšţúýžÁßÇĐÉĜĤÍĶĻÑÓŔŠŢÚÝŽ",
)
_FIELD = re.compile(r"(\{[^{}]*\})")


def pseudo(message: str) -> str:
    """The pseudo-language's form of a message: letters accented outside the placeholders,
    the whole wrapped in ⟦ ⟧ (``"Raise C above {c}"`` -> ``"⟦Ŕáíšé Ç áƀóvé {c}⟧"``)."""
    parts = _FIELD.split(message)
    body = "".join(p if i % 2 else p.translate(_ACCENTED) for i, p in enumerate(parts))
    return PSEUDO_OPEN + body + PSEUDO_CLOSE


# ------------------------------------------------------------------------- numbers


#: CLDR's minimumGroupingDigits where it is not 1: Spanish groups thousands from five digits
#: ("4212", "42.120"). Babel's formatting does not apply it (Babel 2.19), so ``decimal`` does.
MIN_GROUPING = {"es": 2}


def decimal(x: float) -> str:
    """A number the language's way with Babel's default pattern (``0.25`` -> "0,25" in es),
    thousands grouped as the language groups them (es: 4212 and 42.120; de: 4.212)."""
    locale = _now().locale
    grouped = abs(x) >= 10 ** (2 + MIN_GROUPING.get(locale, 1))
    return _sign_first(format_decimal(x, locale=locale, group_separator=grouped))


def percent(x: float) -> str:
    """A share as a percentage the language's way (``0.25`` -> "25 %" in de)."""
    return _sign_first(format_percent(x, locale=_now().locale))


def separators() -> str:
    """The language's decimal and group symbols, as Plotly's ``layout.separators`` takes
    them: ".," in English, ",." in Spanish and German (a chart's ticks then read "0,5")."""
    locale = _now().locale
    return get_decimal_symbol(locale) + get_group_symbol(locale)


#: Left-to-right isolate and its end (U+2066, U+2069): a signed number inside right-to-left
#: text keeps its sign before its digits.
LRI, PDI = "\u2066", "\u2069"
_PLAIN_NUMBER = re.compile(r"([+-]?)([0-9]+)(?:\.([0-9]+))?")


def number_text(text: str) -> str:
    """A number already written in ASCII (``"+0.333"``, ``"2.31"``, as the words' own
    formatting rounds it) with the current language's symbols, same digits: "+0,333" in es.
    English text comes back unchanged; text that is not a plain number too."""
    current = _now()
    match = _PLAIN_NUMBER.fullmatch(text)
    if current.locale == "en" or match is None:
        return text
    sign, _whole, fraction = match.groups()
    digits = "0." + "0" * len(fraction) if fraction else "0"
    pattern = f"+{digits};-{digits}" if sign == "+" else digits
    return _sign_first(format_decimal(Decimal(text), format=pattern, locale=current.locale))


def _sign_first(written: str) -> str:
    """A signed number isolated left to right in a right-to-left language (U+2066 ... U+2069):
    in Arabic text "-1.000" would show as "1.000-", and a mark before the sign (U+200E) was
    not enough between two numbers ("+1.518 = +1.851" showed "1.851+" in Chromium)."""
    return LRI + written + PDI if written[:1] in "+-" and is_rtl() else written


#: First-strong isolate (U+2068): a code, a name or a range keeps its own direction inside
#: the sentence around it.
FSI = "\u2068"


def isolate(text: str) -> str:
    """``text`` isolated from the sentence's direction in a right-to-left language (U+2068 ...
    U+2069; unchanged otherwise): a class code that starts with a digit ("5RDYT3") stays
    whole, a range "0..2,147,483,647" keeps its order. For HTML, ``<bdi>`` does the same."""
    return FSI + text + PDI if is_rtl() else text


def fixed(x: float, digits: int, *, signed: bool = False) -> str:
    """``x`` with ``digits`` decimals (rounded as Python's format rounds), in the language's
    symbols: ``fixed(0.25, 2)`` is "0.25" in English, "0,25" in Spanish."""
    return number_text(f"{x:{'+' if signed else ''}.{digits}f}")
