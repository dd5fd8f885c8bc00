"""The detail tabs under the tree, in the order they are shown: one record each.

Pure data (no Streamlit), so that app/lessons/reading.py can check a page's ``tab`` against it.
What a
tab draws is :data:`app.screen.page.TAB_PANELS`, keyed by these names (checked when the screen is
imported): a new tab is a row here and its panels there.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.words.i18n import N_

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


#: The names are marked for the catalogue (``N_``) and stay English as values (the ``details``
#: key, lessons' ``tab``): the screen shows ``_(name)``.
TABS: tuple[DetailTab, ...] = (
    DetailTab(N_("Board"), "the root's board, the moves' N and Q, exact values"),
    DetailTab(N_("Why this path"), "the tree policy's table at each decision of the selection"),
    DetailTab(N_("Backup"), "the phase's expansion and evaluation, the backed-up values"),
    DetailTab(N_("Dice"), "the chance outcomes drawn against their odds"),
    DetailTab(N_("Charts"), "Q, visits and entropy over the iterations"),
    DetailTab(N_("Play"), "play modes and the final-move policies"),
    DetailTab(N_("Arena"), "the arena and the parameter sweep"),
    DetailTab(N_("A/B"), "search B in lockstep with A", in_lessons=False),
    DetailTab(N_("Text"), "the printed tree, JSON and Graphviz"),
)
DETAIL_TABS: tuple[str, ...] = tuple(tab.name for tab in TABS)
LESSON_TABS: tuple[str, ...] = tuple(tab.name for tab in TABS if tab.in_lessons)
