"""The settings table (mcts_lab/settings.py) agrees with what reads it or is written beside it:
SearchConfig's fields, the CLI's flags, the sweep's parameters and the app's widgets."""

from __future__ import annotations

import argparse
import dataclasses

from app.session import DEFAULTS
from app.widget_values import CONFIG_WIDGETS
from mcts_core import SearchConfig
from mcts_lab.cli import build_parser
from mcts_lab.common import CONFIG_OPTIONS
from mcts_lab.settings import SETTINGS, setting_for_field
from mcts_lab.sweep import PARAMS

#: SearchConfig fields no user sets: repeats are detected when the game can repeat states.
NOT_SETTINGS = {"detect_repeats"}


def _search_flags() -> set[str]:
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    search = commands.choices["search"]
    return {s for a in search._actions for s in a.option_strings}


def test_every_config_field_is_one_row() -> None:
    fields = [f.name for f in dataclasses.fields(SearchConfig) if f.name not in NOT_SETTINGS]
    assert sorted(s.field for s in SETTINGS) == sorted(fields)
    assert len({s.flag for s in SETTINGS}) == len(SETTINGS)
    assert setting_for_field("rollout_depth").flag == "depth"


def test_the_cli_has_a_flag_for_every_row() -> None:
    flags = _search_flags()
    for setting in SETTINGS:
        assert f"--{setting.flag}" in flags, setting
    assert {s.option: s.field for s in SETTINGS} == CONFIG_OPTIONS


def test_the_sweep_and_the_app_read_the_table() -> None:
    assert {p.name for p in PARAMS.values()} == {s.flag for s in SETTINGS} | {"iterations"}
    for setting in SETTINGS:
        assert PARAMS[setting.flag].field == setting.field
        assert PARAMS[setting.flag].kind == setting.kind
        if setting.widget is not None:
            assert CONFIG_WIDGETS[setting.field] == setting.widget
            assert setting.widget in DEFAULTS, setting  # a widget key with its default
