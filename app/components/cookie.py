"""One cookie of this site written from Python: an ``st.components.v2`` component that draws
nothing and sets ``document.cookie`` (``app/components/static/cookie.js``).

Streamlit reads the cookies a page was opened with (``st.context.cookies``) but cannot set one;
this writes it in the browser, for the next page the browser opens (a reload, a new tab). The
cookie is the site's own (``Path=/``, ``SameSite=Strict``: another site's page cannot send it;
``Secure`` over https). Script-set, so not http-only: it holds nothing a script of this app's
own pages must not read.
"""

from __future__ import annotations

import re
import urllib.parse
from pathlib import Path

import streamlit as st
import streamlit.components.v2 as components
from streamlit.components.v2.types import ComponentRenderer

__all__ = ["read_cookie", "write_cookie"]

_JS = (Path(__file__).resolve().parent / "static" / "cookie.js").read_text(encoding="utf-8")
#: The component, registered once when the module is imported.
_COMPONENT: ComponentRenderer = components.component("mcts_lab_cookie", js=_JS)
_NAME = re.compile(r"[A-Za-z0-9_]+")
#: A cookie's value at most (bytes, encoded): browsers keep 4 KB per cookie.
MAX_VALUE = 3000


def read_cookie(name: str) -> str | None:
    """The value of cookie ``name`` this page was opened with (decoded), or ``None``."""
    try:
        raw = st.context.cookies.get(name)
    except Exception:  # (no browser behind this run: AppTest, a bare script)
        return None
    return None if raw is None else urllib.parse.unquote(str(raw))[:MAX_VALUE]


def write_cookie(name: str, value: str, max_age: int, *, key: str) -> None:
    """Set cookie ``name`` to ``value`` for ``max_age`` seconds (0 deletes it) in this page's
    browser; draws nothing. ``key``: the element's widget key (one per place)."""
    if not _NAME.fullmatch(name):
        raise ValueError(f"not a cookie name: {name!r}")
    encoded = urllib.parse.quote(value, safe="")
    if len(encoded) > MAX_VALUE:
        raise ValueError("a cookie's value is too long")
    _COMPONENT(key=key, data={"name": name, "value": encoded, "maxAge": int(max_age)})
