"""The app's tree drawing as one SVG: :class:`app.drawing.tree_model.TreeView` (the app's own
layout, from :func:`app.drawing.tree_layout.build_view`, and its colours) drawn element for
element as the browser component draws it (``app/components/static/tree_view.js``: the same
boxes, corners, outlines, badges, edges and text classes, the styles of ``tree_view.css``
written on the elements), then framed as the projector frames a Step: the top box, the top's
moves, the last path and the new node, the favourite, at a zoom that keeps every text at
:data:`MIN_TEXT_PX` or more; what does not fit gives way, deepest first.

The picture is the layout's, not a second layout: a box's place, size, role, label, numbers
and marks all come from the view; only the pixels are drawn here (the browser test of the app's
Export box compares a frame with the browser's drawing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape

from app.drawing.tree_model import TreeView, ViewNode
from app.drawing.tree_text import text_width

__all__ = ["CJK_FONT_FAMILY", "FONT_FAMILY", "MIN_TEXT_PX", "Frame", "frame_view", "tree_svg"]

#: The fonts a picture asks for, in order: a Latin sans face, then faces for Arabic (DejaVu
#: draws it) and Chinese (Noto Sans CJK, installed by ``.ci/run``); the renderer falls back to
#: the next face for a glyph the first lacks.
FONT_FAMILY = "DejaVu Sans, Noto Sans CJK SC, Noto Sans Arabic, sans-serif"
#: The same, Chinese first: a text with Chinese in it is set in Noto Sans CJK, Latin included
#: (the renderer takes one face for a text whose first face lacks a glyph).
CJK_FONT_FAMILY = "Noto Sans CJK SC, DejaVu Sans, sans-serif"
#: The least text size on a slide, in px at 1280x720: the projector's readable type.
MIN_TEXT_PX = 14.0
#: The smallest text the browser's tree draws (N and Q, badges, edge labels: tree_view.css).
SMALLEST_FONT = 12.0
_PAD_X = 4
_PAD_Y = 4
_FRAME_PAD = 6  # px around the framed boxes (tree_view.js FRAME_PAD)
_ROLES = ("p0", "p1", "end", "chance", "more", "up")
_FAINT = "#4b5563"
_SMALL = "#374151"
_EDGE_LABEL = "#92400e"


@dataclass(frozen=True)
class Frame:
    """Where the picture looks: the drawing's rectangle ``(x0, y0)``-``(x0 + w/scale,
    y0 + h/scale)`` in the view's px at 1:1, drawn at ``scale`` into ``w`` x ``h`` px."""

    x0: float
    y0: float
    scale: float


def _grown(r: tuple[float, float, float, float], n: ViewNode) -> tuple[float, float, float, float]:
    """``r`` grown to hold box ``n`` with room for its badges (tree_view.js ``grow``)."""
    return (min(r[0], n.x - 10), min(r[1], n.y - 10),
            max(r[2], n.x + n.w + 10), max(r[3], n.y + n.h + 10))  # fmt: skip


def frame_view(view: TreeView, width: float, height: float,
               min_scale: float = MIN_TEXT_PX / SMALLEST_FONT) -> Frame:  # fmt: skip
    """The projector's framing (tree_view.js ``frame`` with ``movesFirst``) of ``view`` in a
    ``width`` x ``height`` px picture: the zoom is the largest (at most 1.6) that holds the
    top, its moves, the last path and the new node, the favourite, and never below
    ``min_scale`` (texts at :data:`MIN_TEXT_PX`); what does not fit at it gives way, the top's
    row before the path's deeper boxes (all of the row or none of it)."""
    top = view.node(view.top_id)
    if top is None:
        return Frame(0.0, 0.0, max(min_scale, 1.0))
    moves = [n for n in view.nodes if n.parent == top.key]
    marked = sorted(
        (n for n in view.nodes if (n.marks.path or n.marks.new) and n is not top),
        key=lambda n: (n.y, 1 if n.marks.new else 0),
    )
    favourite = [n for n in view.nodes if n.marks.pv == 1 and n is not top]

    def framed(s: float) -> tuple[float, float, float, float]:
        def fits(r: tuple[float, float, float, float]) -> bool:
            return (r[2] - r[0]) * s <= width - 2 * _FRAME_PAD and (
                r[3] - r[1]
            ) * s <= height - 2 * _FRAME_PAD

        r = _grown((float("inf"), float("inf"), float("-inf"), float("-inf")), top)
        row = r
        for n in moves:
            row = _grown(row, n)
        if fits(row):
            r = row
        for n in marked:
            more = _grown(r, n)
            if not fits(more):
                break
            r = more
        for n in favourite:
            if fits(_grown(r, n)):
                r = _grown(r, n)
        return r

    every = framed(0.0)
    s = min(1.6, (width - 2 * _FRAME_PAD) / max(1.0, every[2] - every[0]),
            (height - 2 * _FRAME_PAD) / max(1.0, every[3] - every[1]))  # fmt: skip
    s = max(min_scale, s)
    r = framed(s)
    # across: the top box in the middle when the framed boxes stay in view, else as near
    x = (top.x + top.w / 2) * s - width / 2
    x = min(x, r[0] * s - _FRAME_PAD)
    x = max(x, r[2] * s + _FRAME_PAD - width)
    x = max(x, min(0.0, (view.width * s - width) / 2))
    y = 0.0 if r[3] * s + _FRAME_PAD <= height else max(0.0, r[1] * s - _FRAME_PAD)
    return Frame(x / s, y / s, s)


def _text(x: float, y: float, text: str, *, size: float, weight: int = 400,
          fill: str = "#111827", extra: str = "") -> str:  # fmt: skip
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:g}" font-weight="{weight}" '
        f'text-anchor="middle" fill="{fill}"{extra}>{escape(text)}</text>'
    )


def _cut(text: str, size: float, bold: bool, room: float) -> str:
    """``text`` cut with "…" until its estimated width fits ``room`` (tree_view.js
    ``fitText``, with the layout's width estimate instead of the browser's measure)."""
    guard = 40
    while len(text) > 1 and guard > 0 and text_width(text, size, bold) > room:
        text = (text[:-2] if text.endswith("…") else text[:-1]).rstrip() + "…"
        guard -= 1
    return text


def _badge(cx: float, cy: float, text: str, fill: str, cls: str) -> str:
    return (
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="9" fill="{fill}" stroke="#ffffff" '
        f'stroke-width="1.5"/>'
        + _text(cx, cy + 4, text, size=12, weight=700, fill="#ffffff", extra=f' class="{cls}"')
    )


def _edges(view: TreeView, pal: Mapping[str, str], by_key: Mapping[str, ViewNode]) -> list[str]:
    lines: list[str] = []
    labels: list[str] = []
    for e in view.edges:
        a, b = by_key.get(e.source), by_key.get(e.target)
        if a is None or b is None:
            continue
        x1, y1, x2, y2 = a.x + a.w / 2, a.y + a.h, b.x + b.w / 2, b.y
        ym = (y1 + y2) / 2
        path = e.style == "path"
        dash = ' stroke-dasharray="4 3"' if e.style == "fold" else ""
        lines.append(
            f'<path class="tv-edge tv-edge-{e.style}" d="M{x1:.1f},{y1:.1f} C{x1:.1f},{ym:.1f} '
            f'{x2:.1f},{ym:.1f} {x2:.1f},{y2:.1f}" fill="none" '
            f'stroke="{pal.get("path") if path else pal.get("edge")}" '
            f'stroke-width="{3.5 if path else 1.3}"{dash}/>'
        )
        if e.label:
            # the point at t = 0.7 of the cubic (tree_view.js bezierPoint)
            t, u = 0.7, 0.3
            px = (u**3 + 3 * u * u * t) * x1 + (3 * u * t * t + t**3) * x2
            py = u**3 * y1 + (3 * u * u * t + 3 * u * t * t) * ym + t**3 * y2
            labels.append(
                _text(
                    px,
                    py + 4,
                    e.label,
                    size=12,
                    weight=600,
                    fill=_EDGE_LABEL,
                    extra=' class="tv-edge-label" stroke="#ffffff" stroke-width="3" '
                    'stroke-linejoin="round" paint-order="stroke"',
                )  # fmt: skip
            )
    return lines + labels


def _node(n: ViewNode, pal: Mapping[str, str], proven_letters: Mapping[str, str]) -> str:
    role = n.role if n.role in _ROLES else "more"
    m = n.marks
    rx = 11 if n.kind != "action" else (min(14.0, n.h / 2) if n.mover == 1 else 2)
    stroke = pal.get(f"{role}_stroke", "#6b7280")
    width = 1.2
    if m.path:
        stroke, width = pal.get("path", stroke), 2.5
    if m.new:
        stroke, width = pal.get("new", stroke), 3.0
    if m.changed:
        width += 1.5
    ident = f' data-id="{n.id}"' if n.id is not None else ""
    parts = [
        f'<g class="tv-node tv-{role}" transform="translate({n.x:.2f},{n.y:.2f})" '
        f'data-key="{escape(n.key)}"{ident}>'
    ]
    if n.kind == "chance":
        cx, r = n.w / 2, 9
        parts.append(
            f'<polygon points="{cx},0 {cx + r},{r} {cx},{2 * r} {cx - r},{r}" '
            f'fill="{pal.get("chance")}" stroke="{stroke}" stroke-width="{width}"/>'
        )
        parts.append(_text(cx, 2 * r + 15, _cut(n.label, 13, True, n.w - 4), size=13,
                           weight=700, extra=' class="tv-label"'))  # fmt: skip
        if m.pv:
            parts.append(_badge(cx + 20, 8, str(m.pv), pal.get("pv", "#7c3aed"), "tv-pv"))
        parts.append("</g>")
        return "".join(parts)
    if m.focus:
        parts.append(
            f'<rect x="-7" y="-7" width="{n.w + 14}" height="{n.h + 14}" rx="10" fill="none" '
            f'stroke="{pal.get("text")}" stroke-width="1.2" stroke-dasharray="4 3"/>'
        )
    if m.new:
        parts.append(
            f'<rect class="tv-new-ring" x="-4" y="-4" width="{n.w + 8}" height="{n.h + 8}" '
            f'rx="{rx + 3}" fill="none" stroke="{pal.get("new")}" stroke-width="2"/>'
        )
    dash = ' stroke-dasharray="4 3"' if n.kind == "more" else ""
    faint = ' stroke-opacity="0.45"' if n.faint else ""
    parts.append(
        f'<rect class="tv-box" x="0" y="0" width="{n.w}" height="{n.h}" rx="{rx}" '
        f'fill="{pal.get(role, "#ffffff")}" stroke="{stroke}" stroke-width="{width}"'
        f"{dash}{faint}/>"
    )
    if n.kind == "action":
        label = _cut(n.label, 13, True, n.w - 2 * _PAD_X)
        parts.append(_text(n.w / 2, _PAD_Y + 13, label, size=13, weight=700,
                           extra=' class="tv-label"'))  # fmt: skip
        for i, line in enumerate(n.lines):
            bold = 700 if m.changed else 400
            fill = _FAINT if n.faint else (_SMALL if i >= 2 else "#111827")
            italic = ' font-style="italic"' if i >= 2 else ""
            parts.append(
                _text(
                    n.w / 2,
                    _PAD_Y + 16 + 15 * (i + 1) - 1,
                    _cut(line, 12, bool(m.changed), n.w - 4),
                    size=12,
                    weight=bold,
                    fill=fill,
                    extra=f' class="tv-line"{italic}',
                )  # fmt: skip
            )
    else:
        parts.append(_text(n.w / 2, n.h / 2 + 4.5, n.label, size=13, weight=600, fill=_SMALL,
                           extra=' class="tv-small"'))  # fmt: skip
    if m.pv:
        parts.append(_badge(n.w - 2, 1, str(m.pv), pal.get("pv", "#7c3aed"), "tv-pv"))
    if n.proven:
        which = n.proven if n.proven in ("win", "loss") else "draw"
        letter = proven_letters.get(which, which[:1].upper())
        parts.append(_badge(2, n.h - 1, letter, pal.get("proven", "#374151"), "tv-proven"))
    parts.append("</g>")
    return "".join(parts)


def tree_svg(
    view: TreeView,
    width: int,
    height: int,
    *,
    proven_letters: Mapping[str, str] | None = None,
    min_scale: float = MIN_TEXT_PX / SMALLEST_FONT,
    caption: Sequence[str] = (),
    rtl: bool = False,
) -> str:
    """``view`` drawn into a ``width`` x ``height`` px SVG on white, framed by
    :func:`frame_view` (texts at least ``min_scale`` x their browser size). ``proven_letters``:
    the W / D / L badges' letters in the deck's language (``{"win": ..., "draw": ...,
    "loss": ...}``). ``caption``: lines written under the drawing, at :data:`MIN_TEXT_PX`
    (e.g. how many nodes are drawn), from the left (``rtl``: from the right, right to left)."""
    room = height - (22 * len(caption) + 6 if caption else 0)
    frame = frame_view(view, width, room, min_scale)
    pal = dict(view.palette)
    s = frame.scale
    # a box not wholly in the picture gives way (with its lines), as the framing's rule says
    seen = [
        n for n in view.nodes
        if (n.x - frame.x0) * s >= -2 and (n.x + n.w - frame.x0) * s <= width + 2
        and (n.y - frame.y0) * s >= -2 and (n.y + n.h - frame.y0) * s <= room + 2
    ]  # fmt: skip
    by_key = {n.key: n for n in seen}
    body = _edges(view, pal, by_key)
    letters = dict(proven_letters or {})
    body.extend(_node(n, pal, letters) for n in seen)
    anchor = f'x="{width - 8}" text-anchor="end" direction="rtl"' if rtl else 'x="8"'
    shown = "".join(
        f'<text {anchor} y="{height - 8 - 20 * (len(caption) - 1 - i)}" '
        f'font-size="{MIN_TEXT_PX:g}" fill="{_SMALL}">{escape(line)}</text>'
        for i, line in enumerate(caption)
    )
    # What reaches below the drawing's room (a badge) is covered by the caption's white band:
    # the picture's own edges cut the rest. (A clipped inner <svg> drew the same at a third
    # more of the tree's drawing time.)
    band = (
        f'<rect x="0" y="{room}" width="{width}" height="{height - room}" fill="#ffffff"/>'
        if caption
        else ""
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="{FONT_FAMILY}">'
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>'
        f'<g class="tv-drawing" transform="scale({s:.4f}) '
        f'translate({-frame.x0:.2f},{-frame.y0:.2f})">'
        + "".join(body)
        + "</g>"
        + band
        + shown
        + "</svg>"
    )
