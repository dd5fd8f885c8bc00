"""The statistics row (issue 31, found on the way): the speed is a dash until a click has
measured one."""

from __future__ import annotations

from tests.app_helpers import fresh, metric


def test_the_speed_is_a_dash_until_a_click_measured_it() -> None:
    """A freshly opened page said "Iterations/s 0" (with or without a link's tree)."""
    assert metric(fresh(), "Iterations/s") == "–"
    at = fresh(game="tic_tac_toe", seed="1", steps="50")
    assert metric(at, "Iterations/s") == "–"
    at.button(key="step").click().run()
    assert metric(at, "Iterations/s") not in ("–", "0")
