"""The tree's DOT drawn as SVG by Graphviz on the server, cached per session."""

from __future__ import annotations

import re

from app.session import session


def svg_for(dot: str) -> str | None:
    """Server-side SVG of a DOT drawing (cached), or ``None`` without Graphviz's ``dot``."""
    lab = session()
    cached = lab.svg_cache.get(dot)
    if cached is not None:
        return cached
    try:
        import graphviz

        svg = _fit(graphviz.Source(dot).pipe(format="svg").decode("utf-8"))
    except Exception:
        return None
    if len(lab.svg_cache) > 8:
        lab.svg_cache.clear()
    lab.svg_cache[dot] = svg
    return svg


def _fit(svg: str) -> str:
    """Let a wide drawing shrink to the panel's width (never grow past its natural size):
    the SVG keeps its viewBox; its fixed width becomes a max-width."""
    start = svg.find("<svg")
    end = svg.find(">", start)
    head = svg[start:end]
    width = re.search(r'\swidth="([0-9.]+)pt"', head)
    if width is None:
        return svg
    head = re.sub(r'\s(width|height)="[^"]*"', "", head)
    natural = float(width.group(1)) * 4 / 3  # pt -> px
    style = f' style="width:100%; max-width:{natural:.0f}px; height:auto"'
    return svg[:start] + head + style + svg[end:]
