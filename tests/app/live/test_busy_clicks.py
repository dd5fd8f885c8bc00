"""Step clicks that arrive while the session's previous click still runs are counted, not lost
(app/live/clicks.py, app/live/stepping.py's on_step_click): a real server, the browser's own
messages."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
from streamlit.proto.BackMsg_pb2 import BackMsg

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "scripts"))
import load_test as lt  # noqa: E402
from app_server import running_app  # noqa: E402

from app.live import clicks  # noqa: E402
from tests.conftest import run_async  # noqa: E402


def test_without_a_server_session_one_click_is_one_step() -> None:
    assert clicks.take() == 1  # no AppSession counted anything: AppTest and bare mode


async def _burst(url: str, count: int) -> tuple[int, int, int, list[str]]:
    session = lt.WsSession(url, "game=tic_tac_toe&seed=3")
    await session.open(timeout=120)
    view = session.view
    first, runs = view.iteration or 0, view.finished_runs
    try:
        for _ in range(count):  # as fast as a frantic student: all before the first run ends
            await session.click()
        loop = asyncio.get_running_loop()
        await lt._drain(view, first, count, loop.time() + 30, quiet=5.0)
    finally:
        await session.close()
    return first, view.iteration or 0, view.finished_runs - runs, view.errors


@pytest.mark.timeout(120)
@pytest.mark.slow
def test_a_burst_of_clicks_steps_once_per_click() -> None:
    with running_app() as url:
        first, last, runs, errors = run_async(_burst(url, 6))
    assert errors == []
    assert last - first == 6  # every click ran ...
    assert runs < 6  # ... though Streamlit merged some of them into one run


def _message(*widget_ids: str) -> BackMsg:
    msg = BackMsg()
    for widget_id in widget_ids:
        msg.rerun_script.widget_states.widgets.add(id=widget_id, trigger_value=True)
    return msg


def test_a_click_streamlit_runs_again_acts_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A teacher's Vote again is one new round however often Streamlit runs its callback:
    the click's message is counted once, the second run of the callback finds it taken."""
    monkeypatch.setattr(clicks, "get_script_run_ctx", lambda: SimpleNamespace(session_id="s1"))
    monkeypatch.setattr(clicks, "_pending", {})
    clicks.arrived("s1", _message("$$ID-9f2c-class_again"))
    assert clicks.take("class_again") == 1
    assert clicks.take("class_again") == 0  # the same click's callback run again: nothing
    clicks.arrived("s1", _message("$$ID-9f2c-class_again", "$$ID-77aa-step"))
    assert (clicks.take("class_again"), clicks.take("step"), clicks.take("step")) == (1, 1, 0)
    clicks.arrived("s2", _message("$$ID-9f2c-class_close"))  # another browser's click
    assert clicks.take("class_close") == 1  # never counted for s1: one click, one action
    unclicked = BackMsg()
    again = unclicked.rerun_script.widget_states.widgets
    again.add(id="$$ID-9f2c-class_again", trigger_value=False)
    clicks.arrived("s1", unclicked)  # a rerun with the button's trigger unset: no click
    assert clicks.take("class_again") == 0
