"""The file view as a debugger in headless Chromium at 1280x720 (issue 32): an anomaly's words
whole on the page, its Show button moving the file to its iteration with its node focused, and
Run until on an open file. Skipped when Debian's chromium is missing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.app.tracefile.test_trace_debugging import wrong_view_file
from tests.browser_helpers import BROWSER_TEST, OUT, open_page, wait_idle

pytestmark = BROWSER_TEST


def _open(browser: Any, app_url: str, path: Path) -> Any:
    page = open_page(browser, app_url)
    page.locator(".st-key-trace_file input[type=file]").set_input_files(str(path))
    page.wait_for_selector(".st-key-trace_narration", timeout=60_000)
    wait_idle(page, 300)
    return page


def _stats(page: Any) -> str:
    return page.locator(".lab-stats").first.inner_text()


def _wait_stats(page: Any, text: str) -> str:
    page.wait_for_function(
        "([t]) => { const s = document.querySelector('.lab-stats');"
        " return s !== null && s.innerText.includes(t); }",
        arg=[text],
        polling=100,
        timeout=30_000,
    )
    wait_idle(page, 400)
    return _stats(page)


def _run_until(page: Any, condition: str, argument: str) -> None:
    """Choose ``condition`` in the sidebar's Run until, type ``argument``, press Run until."""
    page.get_by_text("Run until (a breakpoint)").first.click()
    wait_idle(page)
    box = page.locator(".st-key-run_until").get_by_role("combobox").first
    box.scroll_into_view_if_needed()
    box.click()
    page.get_by_role("option", name=condition).first.click()
    wait_idle(page)
    field = page.locator(".st-key-run_until_arg input").first
    field.fill(argument)
    field.press("Enter")
    wait_idle(page)
    page.locator(".st-key-run_until_go button:visible").first.click()


def test_an_anomaly_reads_whole_and_its_button_shows_it(
    app_url: str, browser: Any, tmp_path: Path
) -> None:
    path = tmp_path / "wrong-view.jsonl"
    path.write_bytes(wrong_view_file())
    page = _open(browser, app_url, path)
    page.get_by_role("tab", name="Anomalies").click()
    page.wait_for_selector(".st-key-trace_anomaly_row_0 .lab-anomaly", timeout=30_000)
    wait_idle(page)
    message = (
        "iteration 20 added -1 here: the leaf's value for the other player; from player 0's "
        "view it is 1"
    )
    row = page.locator(".st-key-trace_anomaly_row_0 .lab-anomaly").first
    assert message in row.inner_text().replace("\n", " ")
    # whole: nothing clipped sideways, every line inside the window
    box = row.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 1280 and box["height"] > 20
    clipped = row.evaluate("e => e.scrollWidth > e.clientWidth + 1")
    assert not clipped
    page.locator(".st-key-trace_anomaly_0 button:visible").first.click()
    stats = _wait_stats(page, "iteration 20 of 40")
    assert "iteration 20 of 40" in stats
    focused = page.locator('.st-key-trace_tree g.tv-node[data-id="8"] rect[stroke-dasharray]')
    page.wait_for_selector('.st-key-trace_tree g.tv-node[data-id="8"]', timeout=30_000)
    assert focused.count() == 1  # node 8 drawn with the focus's dashed frame
    assert page.locator(".st-key-trace_unfocus button").count() >= 1
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "trace-anomaly-shown.png"))
    page.close()


def test_run_until_on_an_open_file(app_url: str, browser: Any, tmp_path: Path) -> None:
    import json

    from tests.app.tracefile.test_trace_debugging import lab_lines
    from tests.mcts_lab.breakpoints.test_file_breakpoints import _live_stop

    live = _live_stop("tic_tac_toe", None, "visits:b2>=5", 40, seed=4)  # the file's own run
    assert live is not None
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(json.dumps(item) for item in lab_lines()))
    page = _open(browser, app_url, path)
    _run_until(page, "visits:MOVE>=K", "b2>=5")
    stats = _wait_stats(page, f"iteration {live} of 40")
    assert f"iteration {live} of 40" in stats
    said = page.locator(".st-key-trace_narration .lab-stop").first.inner_text()
    assert said == (f"Stopped at iteration {live}: visits:b2>=5: b2 reached 5 visits (>= 5)."), said
    assert page.locator(".st-key-trace_iteration").count() == 1  # the file's slider, shown
    OUT.mkdir(exist_ok=True)
    page.screenshot(path=str(OUT / "trace-run-until.png"))
    page.close()


def test_run_until_on_the_live_search(app_url: str, browser: Any) -> None:
    """The sidebar's Run until on the live search (a click in the sidebar whose result is
    drawn by the screen's fragment): visits:b2>=12 on tic-tac-toe seed 3 stops in the browser
    at the iteration the same run stops at without a browser (AppTest), the screen shows that
    iteration and its line says why."""
    from tests.app_helpers import fresh, metric

    alone = fresh(game="tic_tac_toe", seed="3")
    alone.selectbox(key="run_until").set_value("visits")
    alone.text_input(key="run_until_arg").input("b2>=12")
    alone.button(key="run_until_go").click().run()
    stop = int(metric(alone, "Iteration").replace(",", ""))
    assert 12 <= stop < 100
    page = open_page(browser, f"{app_url}/?game=tic_tac_toe&seed=3")
    _run_until(page, "visits:MOVE>=K", "b2>=12")
    page.wait_for_function(
        "n => /Iteration\\s*" + str(stop) + "\\b/.test(document.querySelector"
        "('.st-key-stats')?.innerText ?? '')",
        arg=stop,
        polling=100,
        timeout=30_000,
    )
    wait_idle(page, 400)
    assert f"Stopped at iteration {stop}" in page.inner_text("[data-testid='stMain']")
    page.close()
