"""The detail tabs under the tree, in the order they are shown: one record each.

Pure data (no Streamlit), so that app/lessons/reading.py can check a page's ``tab`` against it.
What a
tab draws is :data:`app.screen.page.TAB_PANELS`, keyed by these names (checked when the screen is
imported): a new tab is a row here and its panels there.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DETAIL_TABS", "LESSON_TABS", "TABS", "DetailTab"]


@dataclass(frozen=True, slots=True)
class DetailTab:
    """One detail tab.

    Attributes:
        name: its title, also the value of the ``details`` widget key (docs/app.md).
        shows: what it holds, in a few words (for the reader of this table).
        in_lessons: whether a lesson page may open it (``tab = "..."`` in lessons/*.toml).
    """

    name: str
    shows: str
    in_lessons: bool = True


TABS: tuple[DetailTab, ...] = (
    DetailTab("Board", "the root's board, the moves' N and Q, exact values"),
    DetailTab("Why this path", "the tree policy's table at each decision of the selection"),
    DetailTab("Backup", "the phase's expansion and evaluation, the backed-up values"),
    DetailTab("Dice", "the chance outcomes drawn against their odds"),
    DetailTab("Charts", "Q, visits and entropy over the iterations"),
    DetailTab("Play", "play modes and the final-move policies"),
    DetailTab("Arena", "the arena and the parameter sweep"),
    DetailTab("A/B", "search B in lockstep with A", in_lessons=False),
    DetailTab("Text", "the printed tree, JSON and Graphviz"),
)
DETAIL_TABS: tuple[str, ...] = tuple(tab.name for tab in TABS)
LESSON_TABS: tuple[str, ...] = tuple(tab.name for tab in TABS if tab.in_lessons)
