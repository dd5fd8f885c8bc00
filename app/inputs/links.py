"""What a shared link may set, checked one way for links and the widgets alike.

A link's query parameters are untrusted text from a chat: every value is checked here against
the same ranges the sidebar's widgets use (the widgets read their bounds from this module, or
for a search setting from its row in ``mcts_lab/settings.py``, as this module does), is
refused early when overlong, and is echoed back at most ``ECHO_CHARS`` characters long. Numbers
take ASCII digits only: ``int()`` alone accepts "1_000", " 7" and Arabic-Indic digits, and
``str.isdigit()`` is true for "²", which ``int()`` then refuses.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from app.words import i18n
from app.words.i18n import OFFERED, _, n_, number_text
from games.registry import game_choices
from mcts_core.phases import PHASES, Phase
from mcts_lab.settings import SETTINGS, Setting

#: Longest link value read at all (a 5 v 5 gridiron position is about 110 characters).
MAX_VALUE_CHARS = 300
#: How much of a refused value a message repeats.
ECHO_CHARS = 24

SEED_RANGE = (0, 2**31 - 1)
ITERATIONS_RANGE = (1, 100_000)  # iterations per click (Step N)
ARENA_GAMES_RANGE = (1, 50)  # the arena's games per side
ARENA_ITERATIONS_RANGE = (10, 5000)  # the arena's iterations per decision
MAX_LINK_STEPS = 200_000  # a link's tree: iterations replayed when it is opened

_DECIMAL = re.compile(r"-?[0-9]{1,6}(\.[0-9]{1,6})?")
_FLAGS = {"1": True, "0": False, "true": True, "false": False}


def echo(raw: object) -> str:
    """A value quoted for a message: at most ``ECHO_CHARS`` characters, then "…"."""
    text = str(raw)
    return repr(text[:ECHO_CHARS] + ("…" if len(text) > ECHO_CHARS else ""))


def _ignored(name: str, raw: object, use: object) -> str:
    """The message for a refused link value: the parameter's name and value (quoted, cut at
    ``ECHO_CHARS``) and what to use instead (a ``ValueError``'s words, or the choices)."""
    # TRANSLATORS: {name}={value} is the link's parameter as typed (e.g. seed='abc'), keep it;
    # {use} is what it may be ("a whole number 0..2,147,483,647", "one of uct, ucb1, puct")
    return _("ignored {name}={value} from the link: use {use}", name=name, value=echo(raw), use=use)


def whole(text: str, low: int, high: int) -> int:
    """A whole number in ASCII digits (a leading "-" for a negative one) within [low, high];
    ``ValueError`` otherwise."""
    digits = text.removeprefix("-")
    ok = digits.isascii() and digits.isdigit() and len(digits) <= 12
    if not ok or not low <= int(text) <= high:
        low_said, high_said = _range_ends(i18n.decimal(low), i18n.decimal(high))
        raise ValueError(_("a whole number {low}..{high}", low=low_said, high=high_said))
    return int(text)


def decimal(text: str, low: float, high: float) -> float:
    """A decimal number in ASCII digits (e.g. 0.7 or -2) within [low, high]; ``ValueError``
    otherwise."""
    if not _DECIMAL.fullmatch(text) or not low <= float(text) <= high:
        low_said, high_said = _range_ends(number_text(f"{low:g}"), number_text(f"{high:g}"))
        raise ValueError(_("a number {low}..{high}", low=low_said, high=high_said))
    return float(text)


def _range_ends(low: str, high: str) -> tuple[str, str]:
    """A range's two ends as written into "{low}..{high}": in a right-to-left language the
    range is one left-to-right isolate (U+2066 before ``low``, U+2069 after ``high``), else
    Arabic text showed "2,147,483,647..0"."""
    return (i18n.LRI + low, high + i18n.PDI) if i18n.is_rtl() else (low, high)


def flag(text: str) -> bool:
    if text not in _FLAGS:
        raise ValueError(_("1 or 0"))
    return _FLAGS[text]


def choice(options: tuple[str, ...]) -> Callable[[str], str]:
    def parse(text: str) -> str:
        if text not in options:
            raise ValueError(_("one of {choices}", choices=", ".join(options)))
        return text

    return parse


@dataclass(frozen=True)
class LinkParam:
    """One query parameter: the widget key it sets and how its text is read."""

    key: str
    parse: Callable[[str], Any]


def _setting_parser(setting: Setting) -> Callable[[str], Any]:
    """How a link's text for a search setting is read: its kind, within its row's range."""
    if setting.kind == "switch":
        return flag
    if setting.kind == "choice":
        return choice(setting.choices)
    assert setting.bounds is not None, setting  # a number with a widget has its range
    low, high = setting.bounds
    if setting.kind == "number":
        return lambda text: decimal(text, low, high)
    return lambda text: whole(text, int(low), int(high))


def setting_link_text(setting: Setting, value: Any) -> str:
    """A search setting's widget value as its link writes it (read back by its parser)."""
    if setting.kind == "switch":
        return "1" if value else "0"
    if setting.kind == "number":
        return f"{float(value):g}"
    if setting.kind in ("whole", "whole_or_none"):
        return str(int(value))
    return str(value)


#: The search settings a link carries (the rows of ``mcts_lab/settings.py`` with a ``link``):
#: the row, its URL parameter, the widget key it sets.
LINKED_SETTINGS: tuple[tuple[Setting, str, str], ...] = tuple(
    (s, s.link, s.widget) for s in SETTINGS if s.link is not None and s.widget is not None
)

#: The parameters a link may carry, by name (``steps`` and ``position`` are read by the app:
#: they need the game).
LINK_PARAMS: dict[str, LinkParam] = {
    "game": LinkParam("game", choice(game_choices())),  # the game picker's choices
    "position": LinkParam("position", str),
    "seed": LinkParam("seed", lambda t: whole(t, *SEED_RANGE)),
    **{link: LinkParam(widget, _setting_parser(s)) for s, link, widget in LINKED_SETTINGS},
    "iterations": LinkParam("iterations_per_click", lambda t: whole(t, *ITERATIONS_RANGE)),
    "presentation": LinkParam("presentation", flag),
    "exact": LinkParam("exact", flag),  # exact values beside Q (app/words/exact.py)
}


def read_link(params: Mapping[str, str]) -> tuple[dict[str, object], list[str]]:
    """The widget values a link sets (by widget key) and a short message per refused value.

    Never raises: an overlong value or one outside its widget's range is left out with a
    message that quotes at most ``ECHO_CHARS`` of it."""
    values: dict[str, object] = {}
    refused: list[str] = []
    for name, param in LINK_PARAMS.items():
        if name not in params:
            continue
        raw = str(params[name])
        if len(raw) > MAX_VALUE_CHARS:
            refused.append(
                n_(
                    "ignored {name} from the link: too long ({count} character)",
                    "ignored {name} from the link: too long ({count} characters)",
                    len(raw),
                    name=name,
                    count=i18n.decimal(len(raw)),
                )
            )
            continue
        try:
            values[param.key] = param.parse(raw)
        except (ValueError, TypeError) as error:
            refused.append(_ignored(name, raw, error))
    return values, refused


def link_steps(raw: str | None) -> tuple[int, str | None]:
    """The link's ``steps`` (iterations to replay; 0 when absent) and a message if refused."""
    if raw is None:
        return 0, None
    try:
        return whole(str(raw), 0, MAX_LINK_STEPS), None
    except ValueError as error:
        return 0, _ignored("steps", raw, error)


#: A link's ``phase``: the phases of the next iteration the sender had run with Phase (the
#: last one named), by the names a person reads; a finished iteration is a step.
LINK_PHASES: dict[str, Phase] = {p.label: p for p in PHASES[:-1]}


def link_phase(raw: str | None) -> tuple[Phase | None, str | None]:
    """The link's ``phase`` (``None`` when absent) and a message if refused."""
    if raw is None:
        return None, None
    phase = LINK_PHASES.get(str(raw))
    if phase is None:
        return None, _ignored("phase", str(raw), ", ".join(LINK_PHASES))
    return phase, None


def link_language(
    raw: str | None, offered: tuple[str, ...] = OFFERED
) -> tuple[str | None, str | None]:
    """The link's ``lang`` (an offered language's tag, case aside; ``None`` when absent or
    refused) and a message if refused: the page then speaks the browser's language or
    English."""
    if raw is None:
        return None, None
    text = str(raw)
    lowered = text.lower()
    tag = next((t for t in offered if t.lower() == lowered), None)
    if len(text) > MAX_VALUE_CHARS or tag is None:
        return None, _ignored("lang", text, ", ".join(offered))
    return tag, None


def lesson_link(
    params: Mapping[str, str], pages: Mapping[str, int]
) -> tuple[str | None, int, list[str]]:
    """A link's ``lesson`` (a lesson's name) and ``page`` (1-based): the lesson to open (or
    ``None``), its page, and a short message per refused value. ``pages`` gives each known
    lesson's number of pages. A bad page opens the lesson's first page; never raises."""
    refused: list[str] = []
    raw = params.get("lesson")
    if raw is None:
        return None, 1, refused
    name = str(raw)
    if len(name) > MAX_VALUE_CHARS or name not in pages:
        known = ", ".join(pages) or _("none are loaded")
        refused.append(
            _(
                "ignored lesson={value} from the link: no such lesson ({known})",
                value=echo(name),
                known=known,
            )
        )
        return None, 1, refused
    page = 1
    raw_page = params.get("page")
    if raw_page is not None:
        try:
            page = whole(str(raw_page)[:MAX_VALUE_CHARS], 1, pages[name])
        except ValueError as error:
            refused.append(_ignored("page", raw_page, error))
    return name, page, refused
