"""Step clicks that arrive while the session's previous click still runs are counted, not lost
(app/live/clicks.py, app/live/stepping.py's on_step_click): a real server, the browser's own
messages."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

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
