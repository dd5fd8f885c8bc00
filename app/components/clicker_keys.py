"""Keep a presentation clicker's keys working: an ``st.components.v2`` component that draws
nothing and takes the focus off a toggle or radio button (``static/clicker_keys.js``).

Streamlit's key shortcuts (``st.button(shortcut=...)``) ignore keys pressed while an input has
the focus; after a click on the Present toggle the clicker's Page Down reached nothing until
the page was clicked elsewhere. Drawn with the lesson strip in clicker mode only.
"""

from __future__ import annotations

from pathlib import Path

import streamlit.components.v2 as components
from streamlit.components.v2.types import ComponentRenderer

__all__ = ["free_the_keys"]

_JS = (Path(__file__).resolve().parent / "static" / "clicker_keys.js").read_text(encoding="utf-8")
#: The component, registered once when the module is imported.
_COMPONENT: ComponentRenderer = components.component("mcts_lab_clicker_keys", js=_JS)


def free_the_keys(key: str) -> None:
    """Blur a focused toggle or radio in this page, so the next key reaches the shortcuts."""
    _COMPONENT(key=key, data={})
