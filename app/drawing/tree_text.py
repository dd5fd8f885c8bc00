"""The words on the browser tree's boxes, pure: labels cut to a box's width and told apart
from their siblings', N written short, and an upper estimate of a text's width in px (the
layout, :mod:`app.drawing.tree_layout`, sizes its boxes from it)."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

SHORT_CHARS = 8  # a label longer than SHORT_CHARS + 1 characters is cut to SHORT_CHARS + "…"


def short_label(label: str, chars: int = SHORT_CHARS) -> str:
    """``label`` on one line, cut to ``chars`` characters and an ellipsis when longer than
    ``chars + 1`` (the full label goes in the tooltip)."""
    text = " ".join(str(label).split())
    if len(text) <= chars + 1:
        return text
    return text[:chars].rstrip() + "…"


def sibling_labels(labels: Sequence[str], chars: int = SHORT_CHARS) -> list[str]:
    """Short labels for the boxes of one parent, told apart where plain cutting would not:

    - each label cut by :func:`short_label`;
    - if that makes two of them equal, and dropping the words they all start with makes every
      label fit, "…" and the rest ("ball lands on (1,1)" -> "…(1,1)");
    - else each label that still collides keeps its head and its distinguishing tail
      ("H1 move to (1,0)" -> "H1…(1,0)").
    """
    short = [short_label(text, chars) for text in labels]
    if len(set(short)) == len(short):
        return short
    words = [" ".join(str(t).split()).split(" ") for t in labels]
    common = 0
    while all(len(w) > common + 1 for w in words) and len({w[common] for w in words}) == 1:
        common += 1
    if common:
        rests = ["…" + " ".join(w[common:]) for w in words]
        if all(len(r) <= chars + 1 for r in rests) and len(set(rests)) == len(rests):
            return rests
    out = list(short)
    for value in set(short):
        clash = [i for i, s in enumerate(short) if s == value]
        if len(clash) < 2:
            continue
        full = [" ".join(str(labels[i]).split()) for i in clash]
        tail = 1
        while tail < chars and len({f[-tail:] for f in full}) < len(full):
            tail += 1
        for i, f in zip(clash, full, strict=True):
            if len(f) <= chars + 1:
                continue
            token = len(f) - (f.rfind(" ", 0, len(f) - tail) + 1)  # whole last word(s)
            end = token if token <= chars - 2 else tail
            room = max(1, chars - end)
            out[i] = f.split(" ")[0][:room].rstrip() + "…" + f[-end:].lstrip()
    return out


def format_visits(visits: int) -> str:
    """N on a box: exact below 10,000, then 12.3k, 123k, 1.2M."""
    if visits < 10_000:
        return str(visits)
    if visits < 100_000:
        return f"{visits / 1000:.1f}k"
    if visits < 1_000_000:
        return f"{visits // 1000}k"
    return f"{visits / 1_000_000:.1f}M"


# Advance widths in em of DejaVu Sans, the widest font the browser may fall back to (the page
# uses Streamlit's narrower Source Sans): the boxes of a view are sized from these, so the text
# fits whatever the font; the browser still cuts a label that does not.
_EM: dict[str, float] = {
    **dict.fromkeys("0123456789", 0.636),
    **dict.fromkeys(" .,", 0.318),
    **dict.fromkeys(":;", 0.337),
    **dict.fromkeys("()[]{}", 0.39),
    **dict.fromkeys("iljI|'`!", 0.3),
    **dict.fromkeys("tfr", 0.4),
    **dict.fromkeys("mwMW%…", 0.98),
    **dict.fromkeys("+=<>#~▲", 0.838),
    "-": 0.361,
    "*": 0.5,
    "/": 0.337,
    "–": 0.5,
}


def text_width(text: str, size: float, bold: bool = False) -> float:
    """An upper estimate of ``text``'s width in px at font size ``size``. Format characters
    (Unicode's Cf: the isolate around a signed number in a right-to-left language, i18n.fixed) take
    no room; a character not in ``_EM`` takes 1 em (a Chinese one), 0.7 em if Arabic."""
    em = 0.0
    for ch in text:
        if unicodedata.category(ch) == "Cf":
            continue
        if ch in _EM:
            em += _EM[ch]
        elif ch.isupper():
            em += 0.75
        elif ch.isascii():
            em += 0.62
        elif "\u0600" <= ch <= "\u06ff" or "\ufb50" <= ch <= "\ufeff":
            em += 0.7  # Arabic's letters (joined, at most 0.61 em in Chromium's fallback font)
        else:
            em += 1.0
    return em * size * (1.1 if bold else 1.0)
