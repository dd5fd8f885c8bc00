"""scripts/load_test.py: its statistics, its report, its imitation of the browser's messages,
and one short real run against the app (2 sessions clicking Step for 5 s)."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import load_test as lt  # noqa: E402
from app_server import running_app  # noqa: E402

from tests.conftest import run_async  # noqa: E402

# ------------------------------------------------------------------ percentiles


def test_percentile_interpolates_between_ranks_like_numpy() -> None:
    values = [4.0, 1.0, 3.0, 2.0]
    assert lt.percentile(values, 0) == 1.0
    assert lt.percentile(values, 50) == 2.5
    assert lt.percentile(values, 100) == 4.0
    assert lt.percentile(values, 95) == pytest.approx(3.85)
    assert lt.percentile([7.0], 99) == 7.0


def test_percentile_of_nothing_is_nan_and_bad_q_is_refused() -> None:
    assert math.isnan(lt.percentile([], 50))
    with pytest.raises(ValueError, match="101"):
        lt.percentile([1.0], 101)


# ------------------------------------------------------------------ latencies


def test_each_click_is_timed_to_the_first_run_showing_its_iteration() -> None:
    # clicks at 0, 1, 2 s; the screen showed 1 at 0.5 s, then 3 at 2.5 s (2 and 3 together)
    latencies = lt.click_latencies([0.0, 1.0, 2.0], [(0.5, 1), (2.5, 3)], first=0)
    assert latencies == [0.5, 1.5, 0.5]


def test_a_click_never_shown_has_no_latency() -> None:
    # the second click was merged into the first: the screen never reached iteration 12
    assert lt.click_latencies([0.0, 0.2], [(0.4, 11)], first=10) == [0.4, None]


def test_a_run_finished_before_the_click_does_not_count_it() -> None:
    # iteration 6 was on screen before this click was sent: the click waits for the next run
    assert lt.click_latencies([1.0], [(0.5, 6), (1.3, 6)], first=5) == [pytest.approx(0.3)]


def test_schedule_spaces_clicks_by_the_rate_from_the_phase() -> None:
    plan = lt.Plan(rate=2.0, seconds=3.0, start=10.0, drain=0.0)
    assert lt.schedule(plan, 0.25) == [10.25, 10.75, 11.25, 11.75, 12.25, 12.75]
    assert len(lt.schedule(lt.Plan(1.0, 60.0, 0.0, 0.0), 0.999)) == 60


# ------------------------------------------------------------------ the report


def _report(results: list[lt.SessionResult], **server: float) -> lt.Report:
    return lt.Report("ws", len(results), 1.0, 10.0, results, lt.ServerMeasure(**server))


def test_report_counts_and_judges_the_targets() -> None:
    good = lt.SessionResult(10, 0, 10, [0.1] * 10, [])
    lossy = lt.SessionResult(10, 5, 13, [2.0] * 8 + [None, None], ["error on screen: x"])
    report = _report([good, lossy], rss_baseline_mb=150.0, rss_after_settle_mb=155.0)
    assert (report.clicks, report.counted) == (20, 18)
    assert report.counted_pct == 90.0
    assert (report.latency(50), report.latency(95)) == (0.1, 2.0)  # 10 x 0.1 s, 8 x 2 s
    assert report.errors == ["error on screen: x"]
    verdicts = list(report.verdicts().values())
    assert verdicts == [False, False, False, True]
    assert lt.SessionResult(3, 0, 9, [], []).counted == 3  # never more than the clicks


def test_report_text_and_json_name_every_figure() -> None:
    report = _report(
        [lt.SessionResult(5, 0, 5, [0.2, 0.3, 0.4, 0.5, 0.6], [])],
        cpu_percent=40.0,
        rss_baseline_mb=150.0,
        rss_peak_mb=170.0,
        rss_after_close_mb=169.0,
        rss_after_settle_mb=168.0,
        health_after_close_s=0.002,
        settle_s=10.0,
    )
    text = lt.format_report(report)
    for words in ("clicks sent 5", "counted 5 (100.0%)", "p95 0.58 s", "errors 0",
                  "peak 170.0 MB", "10 s later 168.0 MB", "health check after close 0.002 s",
                  "RSS back to baseline (+10 MB): MISSED"):  # fmt: skip
        assert words in text
    data = json.loads(json.dumps(report.as_dict()))
    assert data["latency_s"]["p50"] == 0.4
    assert data["server"]["rss_peak_mb"] == 170.0
    assert data["targets"]["no errors"] is True


# ------------------------------------------------------------------ the browser's messages


def _msg(**fields: object) -> bytes:
    msg = ForwardMsg(**fields)  # type: ignore[arg-type]
    return msg.SerializeToString()


def _element(path: list[int], fragment: str = "", **element: object) -> bytes:
    msg = ForwardMsg()
    msg.metadata.delta_path.extend(path)
    msg.delta.fragment_id = fragment
    for kind, fields in element.items():
        getattr(msg.delta.new_element, kind).MergeFrom(
            type(getattr(msg.delta.new_element, kind))(**fields)  # type: ignore[arg-type]
        )
    return msg.SerializeToString()


def _block(path: list[int], kind: str) -> bytes:
    msg = ForwardMsg()
    msg.metadata.delta_path.extend(path)
    getattr(msg.delta.add_block, kind).SetInParent()
    return msg.SerializeToString()


def _first_screen(view: lt.SessionView) -> None:
    new = ForwardMsg()
    new.metadata.run.script_run_id = "run-1"
    new.new_session.page_script_hash = "page"
    new.new_session.config.max_cached_message_age = 2
    view.receive(new.SerializeToString(), 0.0)
    view.receive(_element([1, 0], selectbox={"id": "$$ID-a-game", "options": ["A", "B"],
                 "default": 0, "raw_value": "B", "set_value": True}), 0.0)  # fmt: skip
    view.receive(_element([1, 1], number_input={"id": "$$ID-b-seed", "default": 3}), 0.0)
    view.receive(_block([0, 2], "popover"), 0.0)
    view.receive(_element([0, 2, 0], "frag", slider={"id": "$$ID-c-speed", "default": [1.0],
                 "set_value": True, "value": [2.0]}), 0.0)  # fmt: skip
    view.receive(_element([0, 1], "frag", button={"id": "$$ID-d-step", "label": "Step"}), 0.0)
    view.receive(_element([0, 3], "frag", html={"body": "<small>Iteration</small> <b>1,234</b>"}),
                 0.0)  # fmt: skip
    tree = ForwardMsg()
    tree.hash = "bigtree"
    tree.metadata.cacheable = True
    tree.metadata.delta_path.extend([0, 4])
    tree.delta.fragment_id = "frag"
    tree.delta.new_element.markdown.body = "x"
    view.receive(tree.SerializeToString(), 0.0)
    view.receive(_msg(page_info_changed={"query_string": "game=b"}), 0.0)
    view.receive(_msg(script_finished=ForwardMsg.FINISHED_SUCCESSFULLY), 1.0)


def test_a_click_carries_what_the_browser_holds() -> None:
    view = lt.SessionView("http://127.0.0.1:1234")
    _first_screen(view)
    assert view.iteration == 1234 and view.shown == [(1.0, 1234)]
    rerun = view.click_message().rerun_script
    states = {w.id.rsplit("-", 1)[1]: w for w in rerun.widget_states.widgets}
    assert set(states) == {"game", "seed", "step"}  # the closed popover's slider is not mounted
    assert states["game"].string_value == "B"  # set by the server
    assert states["seed"].int_value == 3  # its default
    assert states["step"].trigger_value is True
    assert (rerun.fragment_id, rerun.page_script_hash) == ("frag", "page")
    assert rerun.query_string == "game=b"
    assert rerun.context_info.url == "http://127.0.0.1:1234/?game=b"
    assert list(rerun.cached_message_hashes) == ["bigtree"]


def test_cached_messages_age_out_after_their_fragment_runs() -> None:
    view = lt.SessionView("http://127.0.0.1:1234")
    _first_screen(view)
    for run in range(3):  # three fragment runs that do not redraw the cached message
        view.sent()
        new = ForwardMsg()
        new.metadata.run.script_run_id = f"frag-run-{run}"
        new.metadata.run.fragment_ids.append("frag")
        new.new_session.SetInParent()
        view.receive(new.SerializeToString(), 2.0 + run)
        view.receive(
            _element([0, 1], "frag", button={"id": "$$ID-d-step", "label": "Step"}), 2.0 + run
        )
        view.receive(_msg(script_finished=ForwardMsg.FINISHED_FRAGMENT_RUN_SUCCESSFULLY), 2.5 + run)
        hashes = list(view.click_message().rerun_script.cached_message_hashes)
        assert hashes == ([] if run >= 1 else ["bigtree"])  # dropped when 2 runs older


def test_a_message_sent_again_by_its_hash_is_read_from_the_cache() -> None:
    view = lt.SessionView("http://127.0.0.1:1234")
    stats = ForwardMsg(hash="stats77")
    stats.metadata.cacheable = True
    stats.delta.new_element.html.body = "<small>Iteration</small> <b>77</b>"
    for run, message in enumerate((stats, ForwardMsg(ref_hash="stats77"))):
        view.sent()
        new = ForwardMsg()
        new.metadata.run.script_run_id = f"run-{run}"
        new.new_session.SetInParent()
        view.receive(new.SerializeToString(), run)
        message.metadata.delta_path.extend([0, 3])
        view.receive(message.SerializeToString(), run)
        view.receive(_msg(script_finished=ForwardMsg.FINISHED_SUCCESSFULLY), run + 0.5)
    assert view.shown == [(0.5, 77), (1.5, 77)]
    view.receive(_msg(ref_hash="never-sent"), 2.0)
    assert view.errors == ["a cached message the browser would not have"]


def test_errors_on_screen_are_counted() -> None:
    view = lt.SessionView("http://127.0.0.1:1234")
    view.receive(_element([0, 0], exception={"type": "ValueError", "message": "boom"}), 0.0)
    view.receive(_element([0, 1], alert={"body": "panel failed", "format": 1}), 0.0)
    assert view.errors == ["exception on screen: ValueError", "error on screen: panel failed"]


# ------------------------------------------------------------------ a real run


@pytest.mark.timeout(120)
@pytest.mark.slow
def test_two_sessions_clicking_for_five_seconds_count_every_click() -> None:
    with running_app() as url:
        report = run_async(lt.run_load(url, 2, 1.0, 5.0, drain=15.0, settle=1.0))
    assert report.errors == []
    assert report.clicks >= 8  # each session clicks 5 times, from a random phase within 1 s
    assert report.counted == report.clicks, lt.format_report(report)
    assert len(report.latencies) == report.clicks
    server = report.server
    assert server.rss_baseline_mb and server.rss_peak_mb and server.rss_peak_mb > 50
    assert server.cpu_percent is not None and server.cpu_percent > 0
    assert server.health_after_close_s is not None and server.health_after_close_s < 5
