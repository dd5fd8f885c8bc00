"""The AppTest helpers the app's test modules share: start the page, open a tab, read what it
shows (statistics, notices, narration, board pictures) as plain text."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

pytest.importorskip("streamlit")
from streamlit.testing.v1 import AppTest

MAIN = str(Path(__file__).resolve().parents[1] / "app" / "main.py")


def fresh(**query: str) -> AppTest:
    at = AppTest.from_file(MAIN, default_timeout=60)
    for key, value in query.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    return at


def blocks(at: AppTest) -> list[str]:
    """The page's Markdown and raw HTML elements (``st.markdown`` and ``st.html``) as text."""
    return [m.value for m in at.markdown] + [str(h.value) for h in at.html]


def board_pictures(at: AppTest) -> list[str]:
    """The SVG text of every board picture on the page (shown as ``st.image`` data URLs)."""
    import base64

    found: list[str] = []

    def walk(node: object) -> None:
        if getattr(node, "type", None) == "image":
            for img in node.proto.imgs:  # type: ignore[attr-defined]
                head, _, data = img.url.partition("base64,")
                if head.startswith("data:image/svg+xml"):
                    found.append(base64.b64decode(data).decode())
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return found


def metric(at: AppTest, label: str) -> str:
    """A number in the statistics line (``Iteration``, ``Nodes``, ``Depth``, ``Iterations/s``)."""
    stats = next(b for b in blocks(at) if '<div class="lab-stats">' in b)
    found = re.search(rf"<small>{re.escape(label)}</small> <b>([^<]*)</b>", stats)
    assert found is not None, stats
    return found.group(1)


def notes(at: AppTest, level: str) -> list[str]:
    """The notice lines of one level ("success", "info", "warning", "error"), as plain text,
    plus Streamlit's own alert elements of that level."""
    lines = [
        html.unescape(re.sub(r"<[^>]+>", "", b))[2:]
        for b in blocks(at)
        if f'class="lab-note lab-{level}"' in b
    ]
    return lines + [e.value for e in getattr(at, level)]


def narration(at: AppTest) -> str:
    return html.unescape(
        re.sub(
            r"<[^>]+>",
            " ",
            next(b for b in blocks(at) if '<p class="lab-narration">' in b),
        )
    )


def tab(at: AppTest, name: str) -> AppTest:
    """Open a detail tab (only the open tab's panels run)."""
    at.session_state["details"] = name
    at.run()
    assert not at.exception
    return at


def texts(at: AppTest) -> str:
    parts = [html.unescape(b) for b in blocks(at)] + [c.value for c in at.caption]
    for kind in (at.info, at.success, at.warning, at.error):
        parts += [e.value for e in kind]
    return "\n".join(str(p) for p in parts)


def joined_student(code: str, name: str) -> AppTest:
    """A student's page that joined class ``code`` as ``name``."""
    at = AppTest.from_file(MAIN, default_timeout=60)
    at.query_params["class"] = code
    at.run()
    at.text_input(key="class_name").input(name)
    next(b for b in at.button if b.label == "Join").click().run()
    assert not at.exception
    return at


def outside_pseudo(text: str) -> str:
    """The text outside every ⟦ ⟧ of the pseudo-language (nested ones too): on a page in
    ``en-XA`` (``MCTS_LAB_PSEUDO=1``, ``?lang=en-XA``), the words that did not go through
    ``_()``."""
    from app.words.i18n import PSEUDO_CLOSE, PSEUDO_OPEN

    depth, kept = 0, []
    for ch in text:
        if ch == PSEUDO_OPEN:
            depth += 1
        elif ch == PSEUDO_CLOSE:
            depth = max(0, depth - 1)
        elif depth == 0:
            kept.append(ch)
    return "".join(kept)
