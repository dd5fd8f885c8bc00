"""The search settings, one row each: the table the CLI, the sweep and the app read.

A row names a :class:`mcts_core.SearchConfig` field (which owns the default and the check of a
value), the ``mcts-lab`` flag that sets it, how a typed value is read, and the app's sidebar
widget key. ``mcts_lab.common.CONFIG_OPTIONS`` (the CLI's option names), ``mcts_lab.sweep.PARAMS``
(what ``--param`` may sweep) and ``app.widget_values`` (``CONFIG_WIDGETS``, the config built
from the widgets) are derived from it; ``tests/test_settings.py`` checks that the CLI's flags,
the app's widget defaults and ``SearchConfig``'s fields agree with it. The app's links
(``app/links.py``) and lessons (``app/lessons.py``) name their few settings themselves.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["SETTINGS", "Setting", "SettingKind", "setting_for_field"]

#: How a typed value is read: a number, a whole number, a whole number or ``none`` (no
#: limit), one of the field's choices (checked by ``SearchConfig``), or a switch (on / off).
SettingKind = Literal["number", "whole", "whole_or_none", "choice", "switch"]


@dataclass(frozen=True, slots=True)
class Setting:
    """One search setting.

    Attributes:
        field: the :class:`~mcts_core.SearchConfig` field it sets.
        flag: the ``mcts-lab search`` flag without its dashes (``min-visits``), also its name
            in ``mcts-lab sweep --param``.
        kind: how a typed value is read (:data:`SettingKind`).
        widget: the app's sidebar widget key (docs/app.md), or ``None`` when the app sets the
            field itself (``max_nodes``: the session's cap).
    """

    field: str
    flag: str
    kind: SettingKind
    widget: str | None

    @property
    def option(self) -> str:
        """The flag as an argparse destination and a ``build_config`` name (``min_visits``)."""
        return self.flag.replace("-", "_")


#: Every search setting, in the order the CLI's help and the sidebar list them.
SETTINGS: tuple[Setting, ...] = (
    Setting("c", "c", "number", "c"),
    Setting("tree_policy", "policy", "choice", "policy"),
    Setting("prior", "prior", "choice", "prior"),
    Setting("min_visits", "min-visits", "whole", "min_visits"),
    Setting("expansion_order", "expansion", "choice", "expansion"),
    Setting("rollout", "rollout", "choice", "rollout"),
    Setting("epsilon", "epsilon", "number", "epsilon"),
    Setting("rollout_depth", "depth", "whole_or_none", "rollout_depth"),
    Setting("rollout_horizon", "horizon", "choice", "horizon"),
    Setting("win_value", "win", "number", "win_value"),
    Setting("draw_value", "draw", "number", "draw_value"),
    Setting("loss_value", "loss", "number", "loss_value"),
    Setting("heuristic_weight", "heuristic-weight", "number", "heuristic_weight"),
    Setting("value_range", "value-range", "choice", "value_range"),
    Setting("final_policy", "final", "choice", "final_policy"),
    Setting("solver", "solver", "switch", "solver"),
    Setting("max_nodes", "max-nodes", "whole", None),
)


def setting_for_field(field: str) -> Setting:
    """The row of ``SearchConfig`` field ``field`` (``KeyError`` when it has none)."""
    for setting in SETTINGS:
        if setting.field == field:
            return setting
    raise KeyError(field)
