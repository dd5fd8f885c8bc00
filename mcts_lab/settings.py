"""The search settings, one row each: the table the CLI, the sweep and the app read.

A row names a :class:`mcts_core.SearchConfig` field (which owns the default and the check of a
value), the ``mcts-lab`` flag that sets it, how a typed value is read, its choices or the app's
range, the app's sidebar widget key, and the URL parameter a shared link sets it by.
``mcts_lab.common.CONFIG_OPTIONS`` (the CLI's option names), ``mcts_lab.sweep.sweeps.PARAMS`` (what
``--param`` may sweep), ``app.inputs.widget_values`` (``CONFIG_WIDGETS``, the config built from the
widgets), the sidebar's widgets (their ranges and choices), ``app.inputs.links`` (a link's search
settings, read and written) and ``app.lessons.reading`` (what a page's ``[page.setup]`` may set) are
derived from it; ``tests/mcts_lab/test_settings.py`` checks that the CLI's flags, the app's widget
defaults and ``SearchConfig``'s fields agree with it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from mcts_core.config import (
    EXPANSION_ORDERS,
    FINAL_POLICIES,
    PRIORS,
    ROLLOUT_HORIZONS,
    ROLLOUT_POLICIES,
    TREE_POLICIES,
    VALUE_RANGES,
)

__all__ = ["SETTINGS", "Setting", "SettingKind", "setting_for_field", "setting_for_widget"]

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
            field itself (``max_nodes``: the session's cap). A lesson page's ``[page.setup]``
            sets the setting by this name (docs/lessons.md).
        choices: a ``choice`` setting's values, in the order the app lists them.
        bounds: a number's range in the app, both ends included: the sidebar widget's, and
            what a lesson page or a link may set (whole numbers for the ``whole`` kinds; for
            ``whole_or_none``, -1 is the widget's "no limit"). ``None`` without a widget.
        link: the URL parameter a shared link sets it by (docs/app.md; a stable interface:
            add, never rename), or ``None`` when links do not carry it.
    """

    field: str
    flag: str
    kind: SettingKind
    widget: str | None
    choices: tuple[str, ...] = ()
    bounds: tuple[float, float] | None = None
    link: str | None = None

    @property
    def option(self) -> str:
        """The flag as an argparse destination and a ``build_config`` name (``min_visits``)."""
        return self.flag.replace("-", "_")


#: Every search setting, in the order the CLI's help and the sidebar list them.
SETTINGS: tuple[Setting, ...] = (
    Setting("c", "c", "number", "c", bounds=(0.0, 5.0), link="c"),
    Setting("tree_policy", "policy", "choice", "policy", TREE_POLICIES, link="policy"),
    Setting("prior", "prior", "choice", "prior", PRIORS),
    Setting("min_visits", "min-visits", "whole", "min_visits", bounds=(0, 1000)),
    Setting("expansion_order", "expansion", "choice", "expansion", EXPANSION_ORDERS),
    Setting("rollout", "rollout", "choice", "rollout", ROLLOUT_POLICIES),
    Setting("epsilon", "epsilon", "number", "epsilon", bounds=(0.0, 1.0)),
    Setting("rollout_depth", "depth", "whole_or_none", "rollout_depth", bounds=(-1, 1000)),
    Setting("rollout_horizon", "horizon", "choice", "horizon", ROLLOUT_HORIZONS),
    Setting("win_value", "win", "number", "win_value", bounds=(-1000.0, 1000.0)),
    Setting("draw_value", "draw", "number", "draw_value", bounds=(-1000.0, 1000.0)),
    Setting("loss_value", "loss", "number", "loss_value", bounds=(-1000.0, 1000.0)),
    Setting(
        "heuristic_weight", "heuristic-weight", "number", "heuristic_weight", bounds=(0.0, 3.0)
    ),
    Setting("value_range", "value-range", "choice", "value_range", VALUE_RANGES),
    Setting("final_policy", "final", "choice", "final_policy", FINAL_POLICIES),
    Setting("solver", "solver", "switch", "solver", link="solver"),
    Setting("max_nodes", "max-nodes", "whole", None),
)


def setting_for_field(field: str) -> Setting:
    """The row of ``SearchConfig`` field ``field`` (``KeyError`` when it has none)."""
    for setting in SETTINGS:
        if setting.field == field:
            return setting
    raise KeyError(field)


def setting_for_widget(widget: str) -> Setting:
    """The row the app's widget key ``widget`` sets (``KeyError`` when it sets no field)."""
    for setting in SETTINGS:
        if setting.widget == widget:
            return setting
    raise KeyError(widget)
