"""The tree's DOT drawn as SVG by Graphviz on the server, cached in the cache the caller keeps
(the session's ``svg_cache``: this module knows no session)."""

from __future__ import annotations

import re


def svg_for(dot: str, cache: dict[str, str]) -> str | None:
    """Server-side SVG of a DOT drawing, kept in ``cache`` (at most a few drawings), or ``None``
    without Graphviz's ``dot``."""
    cached = cache.get(dot)
    if cached is not None:
        return cached
    try:
        import graphviz

        svg = _fit(graphviz.Source(dot).pipe(format="svg").decode("utf-8"))
    except Exception:
        return None
    if len(cache) > 8:
        cache.clear()
    cache[dot] = svg
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
