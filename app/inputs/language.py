"""Which language a page speaks, from what reaches the app: the sidebar's ``language`` select,
a link's ``?lang=CODE`` (:func:`app.inputs.links.link_language`) and the browser's
``Accept-Language`` header, in that order; English when none names an offered language
(pure; docs/translations.md)."""

from __future__ import annotations

from collections.abc import Sequence

from app.words.i18n import OFFERED, SOURCE

#: The most of an ``Accept-Language`` header read, and of its entries.
MAX_HEADER_CHARS = 1000
MAX_RANGES = 30
#: Tags a browser sends for the languages whose tag names a script (``zh-Hans``): the regions
#: that write Simplified Chinese; ``zh-TW`` and ``zh-HK`` write Traditional, not offered.
_REGION_TAGS = {"zh": "zh-Hans", "zh-cn": "zh-Hans", "zh-sg": "zh-Hans", "zh-my": "zh-Hans"}


def offered_tag(text: str, offered: Sequence[str] = OFFERED) -> str | None:
    """The offered tag ``text`` names, case aside (``"ZH-hans"`` -> ``"zh-Hans"``), or ``None``."""
    lowered = text.strip().lower()
    return next((tag for tag in offered if tag.lower() == lowered), None)


def _match(range_: str, offered: Sequence[str]) -> str | None:
    """An offered tag for one language range, RFC 4647 lookup: the range, then shorter
    prefixes of it (``de-AT`` -> ``de``, ``zh-Hans-CN`` -> ``zh-Hans``); a whole range that
    names Chinese by region is the script the region writes (``zh-CN`` -> ``zh-Hans``; ``zh-TW``
    writes Traditional: none)."""
    whole = range_.lower().replace("_", "-")
    parts = whole.split("-")
    for end in range(len(parts), 0, -1):
        prefix = "-".join(parts[:end])
        tag = offered_tag(_REGION_TAGS.get(prefix, prefix) if prefix == whole else prefix, offered)
        if tag is not None:
            return tag
    return None


def from_accept_language(header: str | None, offered: Sequence[str] = OFFERED) -> str | None:
    """The browser's most wanted offered language from an ``Accept-Language`` header
    (``"de-DE,de;q=0.9,en;q=0.8"`` -> ``"de"`` when German is offered), by q-value, ties in
    the header's order; ranges with ``q=0``, ``*`` and malformed q-values are skipped.
    ``None`` when no range names an offered language."""
    if not header:
        return None
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate(header[:MAX_HEADER_CHARS].split(",")[:MAX_RANGES]):
        name, _, params = part.strip().partition(";")
        q = 1.0
        if params:
            key, _, value = params.strip().partition("=")
            try:
                q = float(value) if key.strip().lower() == "q" else q
            except ValueError:
                continue
            if not 0.0 <= q <= 1.0:
                continue
        if name and name != "*" and q > 0:
            ranked.append((-q, i, name.strip()))
    for _, _, name in sorted(ranked):
        tag = _match(name, offered)
        if tag is not None:
            return tag
    return None


def choose_language(
    widget: str | None,
    link: str | None,
    header: str | None,
    offered: Sequence[str] = OFFERED,
) -> str:
    """The page's language: the select's value, else the link's, else the browser's, else
    English (each only if offered)."""
    for tag in (widget, link):
        if tag is not None and tag in offered:
            return tag
    return from_accept_language(header, offered) or SOURCE
