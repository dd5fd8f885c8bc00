"""The settings table (mcts_lab/settings.py) agrees with what reads it or is written beside it:
SearchConfig's fields, the CLI's flags, the sweep's parameters, the app's widgets, links and
lessons."""

from __future__ import annotations

import argparse
import dataclasses

import pytest

from app.inputs.links import LINK_PARAMS, read_link, setting_link_text
from app.inputs.widget_values import CONFIG_WIDGETS
from app.lessons.reading import SETTINGS as LESSON_SETTINGS
from app.live.session import DEFAULTS
from mcts_core import SearchConfig
from mcts_lab.cli import build_parser
from mcts_lab.common import CONFIG_OPTIONS
from mcts_lab.settings import SETTINGS, setting_for_field
from mcts_lab.sweep.sweeps import PARAMS

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


def test_links_and_lessons_read_the_table() -> None:
    """A link's search settings and a lesson page's are the table's rows: a new row with a
    ``link`` is a URL parameter, every row with a widget a lesson setting, in the row's range."""
    for setting in SETTINGS:
        if setting.widget is None:
            assert setting.link is None, setting
            continue
        if setting.kind in ("number", "whole", "whole_or_none"):
            assert setting.bounds is not None, setting
            low, high = setting.bounds
            assert low <= DEFAULTS[setting.widget] <= high, setting
        if setting.kind == "choice":
            assert DEFAULTS[setting.widget] in setting.choices, setting
        lesson = LESSON_SETTINGS[setting.widget]
        assert lesson.key == setting.widget
        lesson.check(DEFAULTS[setting.widget])  # the default is a value a page may set
        if setting.link is not None:
            param = LINK_PARAMS[setting.link]
            assert param.key == setting.widget
            text = setting_link_text(setting, DEFAULTS[setting.widget])
            assert param.parse(text) == DEFAULTS[setting.widget]  # written, read back
    assert [s.link for s in SETTINGS if s.link] == ["c", "policy", "solver"]  # docs/app.md


def test_a_setting_out_of_its_range_is_refused_by_links_and_lessons() -> None:
    values, refused = read_link({"c": "5.5", "policy": "best", "solver": "yes"})
    assert values == {}
    assert refused == [
        "ignored c='5.5' from the link: use a number 0..5",
        "ignored policy='best' from the link: use one of uct, ucb1, puct",
        "ignored solver='yes' from the link: use 1 or 0",
    ]
    assert read_link({"c": "0.9", "solver": "1"}) == ({"c": 0.9, "solver": True}, [])
    with pytest.raises(ValueError, match=r"a whole number -1\.\.1,000"):
        LESSON_SETTINGS["rollout_depth"].check(-2)
    assert LESSON_SETTINGS["rollout_depth"].check(-1) == -1
