"""Load test: N concurrent sessions of the app, each clicking Step at a given rate.

    python scripts/load_test.py --sessions 10 --rate 1 --seconds 60 [--url URL] [--json]

Starts the app itself (``scripts/app_server.py``) unless ``--url`` names a running one, opens
``--sessions`` sessions at once, lets each click **Step** ``--rate`` times a second for
``--seconds`` (open loop, like a student: a click does not wait for the last one's answer; each
session starts at its own random phase), then closes them and reports:

- clicks sent, and iterations counted: the **Iteration** number in the stats row of what each
  session was last shown, minus the number it showed before its first click;
- click-to-update latency p50/p95/p99/max: from sending click k's message to receiving the
  script-finished message of the first rerun whose deltas show iteration (first + k) (also when
  the server marks that run "finished early": its deltas did reach the page); a click that
  never shows up (merged into another, or still queued when the drain ends) has none;
- errors: exceptions or error alerts on a session's screen, a rerun that failed, a connection
  that dropped or a session that never drew its first screen;
- the server's CPU (% of one core over the clicking, read from /proc) and RSS: the baseline
  (after one warm-up session opened, clicked and closed: the app's modules imported), the peak,
  right after the sessions closed and ``--settle`` seconds later; and how long the server took to
  answer its health check (``/_stcore/health``) right after the sessions closed and after the
  settle, with its CPU in between (queued work still running shows there).

Driver. Two drivers feed one protocol reader (``SessionView``), so both count the same way:

- ``--driver ws`` (the default): Streamlit's own websocket protocol, as the browser speaks it
  (``BackMsg`` / ``ForwardMsg`` protobufs from ``streamlit.proto`` over the ``websockets``
  library). One Python process drives 30 sessions for 2-10% of a core, so the client leaves the
  server its CPU on a 2-core machine, where every Chromium page would also run the app's front
  end (React, the tree component) on the same two cores. A click is the message the browser
  sends for it, imitated field by field (the Step button lives in the screen's
  ``st.fragment``, so it is a fragment rerun): the query string, the widget states a browser
  holds (every widget drawn outside a closed popover: the value it was drawn with, kept until
  the server sets another; dropped when a run no longer draws it), ``{id: <the step button's
  id>, trigger_value: true}``, ``page_script_hash``, ``fragment_id`` (the fragment the button
  was drawn in), ``cached_message_hashes`` (the browser's message cache: large messages are
  kept for ``max_cached_message_age`` runs and sent back as hashes) and the same
  ``context_info``.
- ``--driver browser``: real headless Chromium pages (Playwright) clicking the Step button, for
  cross-checking. The pages' websocket frames go through the same reader, and every click's
  real message is compared with the one the ws driver would have sent at that moment
  (``protocol mismatches`` in the report: 0 means the imitation is exact). Latency here is read
  with the page's own clock, so it includes the page's handling of the messages. Use a few
  pages: on 2 cores the browsers compete with the server.

Read figures taken on a shared machine next to its load averages (printed with each report).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import math
import os
import platform
import random
import re
import resource
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from streamlit.proto.WidgetStates_pb2 import WidgetState

sys.path.insert(0, str(Path(__file__).resolve().parent))
from app_server import CHROMIUM, CHROMIUM_ARGS, IDLE, running_app

#: The issue's targets for 10 sessions clicking once a second for 60 s.
TARGETS = {"counted_pct": 95.0, "p95_s": 1.5, "errors": 0}
#: RSS after the sessions close counts as "back to baseline" within this much (MB): the Python
#: allocator keeps some freed arenas, and Streamlit keeps closed sessions ~2 minutes for reconnects.
RSS_TOLERANCE_MB = 10.0
STEP_KEY = "step"
ITERATION = re.compile(r"<small>Iteration</small>\s*<b>([\d,]+)</b>")
#: What headless Chromium on this machine tells the server about itself (context_info).
TIMEZONE, LOCALE, COLOR_SCHEME = "UTC", "en-US", "light"
FINISHED_OK = (
    ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY,
    ForwardMsg.ScriptFinishedStatus.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
)


# ------------------------------------------------------------------ statistics and the report


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0..100) with linear interpolation between the closest ranks (as
    numpy's default); NaN for no values."""
    if not 0 <= q <= 100:
        raise ValueError(f"percentile must be within 0..100, got {q!r}")
    ordered = sorted(values)
    if not ordered:
        return math.nan
    rank = q / 100 * (len(ordered) - 1)
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def click_latencies(
    sent: Sequence[float], shown: Sequence[tuple[float, int]], first: int
) -> list[float | None]:
    """Each click's latency: click k (1-based, sent at ``sent[k-1]``) is counted by the first
    finished rerun, at or after it, that shows iteration >= ``first + k``; ``shown`` holds the
    (time, iteration) of every finished rerun in time order. None: never shown."""
    out: list[float | None] = []
    j = 0
    for k, at in enumerate(sent, start=1):
        while j < len(shown) and (shown[j][1] < first + k or shown[j][0] < at):
            j += 1
        out.append(shown[j][0] - at if j < len(shown) else None)
    return out


@dataclass
class SessionResult:
    """One session's clicks and what it was shown."""

    clicks: int
    first_iteration: int
    last_iteration: int
    latencies: list[float | None]
    errors: list[str]
    mismatches: int = 0

    @property
    def counted(self) -> int:
        return min(self.clicks, max(0, self.last_iteration - self.first_iteration))


@dataclass
class ServerMeasure:
    """The server process's CPU and memory around the run (None: not measured)."""

    cpu_percent: float | None = None  # of one core, over the clicking
    rss_baseline_mb: float | None = None
    rss_peak_mb: float | None = None
    rss_after_close_mb: float | None = None
    rss_after_settle_mb: float | None = None
    health_after_close_s: float | None = None
    health_after_settle_s: float | None = None
    cpu_after_close_percent: float | None = None  # over the settle: queued work shows here
    settle_s: float = 0.0


@dataclass
class Report:
    driver: str
    sessions: int
    rate: float
    seconds: float
    results: list[SessionResult]
    server: ServerMeasure
    load_before: str = ""
    client_cpu_percent: float | None = None
    machine: str = field(default_factory=lambda: f"{platform.machine()}, {os.cpu_count()} cores")

    @property
    def clicks(self) -> int:
        return sum(r.clicks for r in self.results)

    @property
    def counted(self) -> int:
        return sum(r.counted for r in self.results)

    @property
    def counted_pct(self) -> float:
        return 100.0 * self.counted / self.clicks if self.clicks else math.nan

    @property
    def latencies(self) -> list[float]:
        return [x for r in self.results for x in r.latencies if x is not None]

    @property
    def errors(self) -> list[str]:
        return [e for r in self.results for e in r.errors]

    @property
    def mismatches(self) -> int:
        return sum(r.mismatches for r in self.results)

    def latency(self, q: float) -> float:
        return percentile(self.latencies, q)

    def verdicts(self) -> dict[str, bool | None]:
        """Each target: met, missed, or None (not measured)."""
        s = self.server
        back: bool | None = None
        if s.rss_baseline_mb is not None and s.rss_after_settle_mb is not None:
            back = s.rss_after_settle_mb <= s.rss_baseline_mb + RSS_TOLERANCE_MB
        p95 = self.latency(95)
        return {
            f"counted >= {TARGETS['counted_pct']:g}%": self.counted_pct >= TARGETS["counted_pct"],
            f"p95 <= {TARGETS['p95_s']:g} s": not math.isnan(p95) and p95 <= TARGETS["p95_s"],
            "no errors": len(self.errors) == TARGETS["errors"],
            f"RSS back to baseline (+{RSS_TOLERANCE_MB:g} MB)": back,
        }

    def as_dict(self) -> dict[str, Any]:
        return {
            "driver": self.driver,
            "machine": self.machine,
            "load_before": self.load_before,
            "sessions": self.sessions,
            "rate": self.rate,
            "seconds": self.seconds,
            "clicks": self.clicks,
            "counted": self.counted,
            "counted_pct": round(self.counted_pct, 2),
            "latency_s": {f"p{q}": _round(self.latency(q), 3) for q in (50, 95, 99, 100)},
            "errors": len(self.errors),
            "error_samples": sorted(set(self.errors))[:10],
            "protocol_mismatches": self.mismatches,
            "client_cpu_percent": _round(self.client_cpu_percent, 1),
            "server": {k: _round(v, 3) for k, v in dataclasses.asdict(self.server).items()},
            "per_session": [
                {
                    "clicks": r.clicks,
                    "counted": r.counted,
                    "first_iteration": r.first_iteration,
                    "last_iteration": r.last_iteration,
                    "errors": len(r.errors),
                }
                for r in self.results
            ],
            "targets": self.verdicts(),
        }


def _round(value: float | None, digits: int) -> float | None:
    if value is None or math.isnan(value):
        return None
    return round(value, digits)


def _fmt(value: float | None, unit: str = "", digits: int = 2) -> str:
    return "n/a" if value is None or math.isnan(value) else f"{value:.{digits}f}{unit}"


def format_report(report: Report) -> str:
    """The report as lines of text."""
    s = report.server
    lines = [
        f"driver {report.driver}; {report.machine}; load before: {report.load_before or 'n/a'}",
        f"{report.sessions} sessions x {report.rate:g} clicks/s x {report.seconds:g} s",
        f"clicks sent {report.clicks}, iterations counted {report.counted} "
        f"({_fmt(report.counted_pct, '%', 1)})",
        "click-to-update latency: "
        + ", ".join(f"p{q} {_fmt(report.latency(q), ' s')}" for q in (50, 95, 99))
        + f", max {_fmt(report.latency(100), ' s')} ({len(report.latencies)} clicks)",
        f"errors {len(report.errors)}"
        + (": " + "; ".join(sorted(set(report.errors))[:5]) if report.errors else ""),
        f"server CPU {_fmt(s.cpu_percent, '% of a core', 0)} while clicking; "
        f"client CPU {_fmt(report.client_cpu_percent, '%', 0)}",
        f"server RSS baseline {_fmt(s.rss_baseline_mb, ' MB', 1)}, peak "
        f"{_fmt(s.rss_peak_mb, ' MB', 1)}, after close {_fmt(s.rss_after_close_mb, ' MB', 1)}, "
        f"{s.settle_s:g} s later {_fmt(s.rss_after_settle_mb, ' MB', 1)}",
        f"health check after close {_fmt(s.health_after_close_s, ' s', 3)}, "
        f"{s.settle_s:g} s later {_fmt(s.health_after_settle_s, ' s', 3)}; server CPU in "
        f"between {_fmt(s.cpu_after_close_percent, '%', 0)}",
    ]
    if report.driver == "browser":
        lines.append(
            f"protocol mismatches (browser's click vs the ws driver's) {report.mismatches}"
        )
    verdicts = report.verdicts()
    lines.append(
        "targets: "
        + ", ".join(
            f"{name}: {'n/a' if ok is None else 'met' if ok else 'MISSED'}"
            for name, ok in verdicts.items()
        )
    )
    return "\n".join(lines)


# ------------------------------------------------------------------ the server process


def _listening_inodes(port: int) -> set[str]:
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table, encoding="ascii") as rows:
            next(rows)
            for row in rows:
                cells = row.split()
                if int(cells[1].rsplit(":", 1)[1], 16) == port and cells[3] == "0A":
                    inodes.add(cells[9])
    return inodes


def server_pid(port: int) -> int | None:
    """The process listening on this loopback port (Linux /proc), or None."""
    wanted = {f"socket:[{inode}]" for inode in _listening_inodes(port)}
    if not wanted:
        return None
    for pid in filter(str.isdigit, os.listdir("/proc")):
        with contextlib.suppress(OSError):
            for fd in os.listdir(f"/proc/{pid}/fd"):
                with contextlib.suppress(OSError):
                    if os.readlink(f"/proc/{pid}/fd/{fd}") in wanted:
                        return int(pid)
    return None


class ProcessMeter:
    """CPU seconds and RSS of one process, from /proc."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.tick = os.sysconf("SC_CLK_TCK")

    def cpu_seconds(self) -> float:
        with open(f"/proc/{self.pid}/stat", encoding="ascii") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self.tick  # utime + stime

    def rss_mb(self) -> float:
        with open(f"/proc/{self.pid}/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        raise RuntimeError(f"no VmRSS for process {self.pid}")


def health_seconds(url: str, timeout: float = 300.0) -> float | None:
    """Seconds until ``/_stcore/health`` answers 200 (None: it did not within ``timeout``)."""
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(url + "/_stcore/health", timeout=timeout) as answer:
            answer.read()
    except (OSError, urllib.error.URLError):
        return None
    return time.perf_counter() - start


# ------------------------------------------------------------------ the protocol


@dataclass
class _Widget:
    state: WidgetState
    run: str  # the script run that last drew it
    fragment: str  # the fragment it was drawn in ("" outside any)


@dataclass
class _Cached:
    runs: int  # the message cache's run count when it was last used
    fragment: str
    data: bytes  # the message as it came


def _widget_state(widget_id: str, kind: str, proto: Any, old: WidgetState | None) -> WidgetState:
    """The state a browser holds for a widget just drawn: the server's value when it sets one
    (``set_value``), else what the browser already held, else the widget's default."""
    if old is not None and not proto.set_value:
        return old
    state = WidgetState(id=widget_id)
    use_value = proto.set_value
    if kind == "checkbox":
        state.bool_value = proto.value if use_value else proto.default
    elif kind == "number_input":
        number = proto.value if use_value and proto.HasField("value") else proto.default
        if proto.data_type == proto.DataType.INT:
            state.int_value = int(number)
        else:
            state.double_value = number
    elif kind in ("selectbox", "radio"):
        if use_value and proto.HasField("raw_value"):
            state.string_value = proto.raw_value
        elif proto.HasField("default") and 0 <= proto.default < len(proto.options):
            state.string_value = proto.options[proto.default]
    elif kind == "slider":
        state.double_array_value.data.extend(proto.value if use_value else proto.default)
    elif kind == "text_input":
        text = proto.value if use_value and proto.HasField("value") else proto.default
        state.string_value = text
    return state


#: Widgets that hold a value in the browser (buttons send a trigger only when clicked; the
#: tree's custom component sends its value only when a node is clicked).
_VALUE_WIDGETS = ("checkbox", "number_input", "selectbox", "radio", "slider", "text_input")


class SessionView:
    """What one browser tab knows of its session, rebuilt from the ForwardMsgs it receives:
    the widgets and their states, the message cache, the Iteration number shown, errors.
    ``receive()`` takes each message; ``rerun_message()`` builds what the browser sends."""

    def __init__(self, url: str, query: str = "") -> None:
        self.url = url.rstrip("/") + "/"
        self.query_string = query
        self.page_script_hash = ""
        self.widgets: dict[str, _Widget] = {}
        self.block_kinds: dict[tuple[int, ...], str] = {}  # delta path -> block kind
        self.cache: dict[str, _Cached] = {}
        self.cache_runs = 0
        self.max_cached_age = 2
        self.new_session_since_send = False
        self.run_id = ""
        self.run_fragments: list[str] = []
        self.run_iteration: int | None = None
        self.running = False
        self.iteration: int | None = None  # shown by the last finished run
        self.shown: list[tuple[float, int]] = []  # (time, iteration) per finished run
        self.finished_runs = 0
        self.step_id = ""
        self.step_fragment = ""
        self.errors: list[str] = []

    # -------------------------------------------------------- receiving

    def receive(self, data: bytes, at: float) -> None:
        msg = ForwardMsg()
        msg.ParseFromString(data)
        kind = msg.WhichOneof("type")
        if kind == "ref_hash":  # a message this page has cached, sent again by its hash
            cached = self.cache.get(msg.ref_hash)
            if cached is None:
                self.errors.append("a cached message the browser would not have")
                return
            cached.runs = self.cache_runs
            metadata = msg.metadata
            msg = ForwardMsg()
            msg.ParseFromString(cached.data)
            msg.metadata.CopyFrom(metadata)  # where it goes now, as the browser does
            kind = msg.WhichOneof("type")
        elif msg.metadata.cacheable and msg.hash:
            if msg.hash in self.cache:
                self.cache[msg.hash].runs = self.cache_runs
            else:
                self.cache[msg.hash] = _Cached(self.cache_runs, msg.delta.fragment_id, data)
        if kind == "new_session":
            self._new_session(msg)
        elif kind == "delta":
            self._delta(msg)
        elif kind == "page_info_changed":
            self.query_string = msg.page_info_changed.query_string
        elif kind == "session_status_changed":
            self.running = msg.session_status_changed.script_is_running
        elif kind == "session_event":
            event = msg.session_event.WhichOneof("type")
            if event in ("script_compilation_exception", "script_changed_on_disk"):
                self.errors.append(f"session event {event}")
        elif kind == "script_finished":
            self._finished(msg.script_finished, at)
        else:
            self.other(msg, at)

    def other(self, msg: ForwardMsg, at: float) -> None:
        """Any other message (a subclass's hook: the class load test's fragment timers)."""

    def _new_session(self, msg: ForwardMsg) -> None:
        self.new_session_since_send = True
        self.run_id = msg.metadata.run.script_run_id
        self.run_fragments = list(msg.metadata.run.fragment_ids)
        self.run_iteration = None
        self.running = True
        new = msg.new_session
        if new.page_script_hash:
            self.page_script_hash = new.page_script_hash
        if new.config.max_cached_message_age:
            self.max_cached_age = new.config.max_cached_message_age

    def _delta(self, msg: ForwardMsg) -> None:
        path = tuple(msg.metadata.delta_path)
        delta = msg.delta
        which = delta.WhichOneof("type")
        if which == "add_block":
            self.block_kinds[path] = delta.add_block.WhichOneof("type") or ""
            return
        if which != "new_element":
            return
        self.block_kinds.pop(path, None)
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "html":
            found = ITERATION.search(element.html.body)
            if found:
                self.run_iteration = int(found.group(1).replace(",", ""))
            return
        if kind == "exception":
            self.errors.append(f"exception on screen: {element.exception.type}")
            return
        if kind == "alert" and element.alert.format == Alert.Format.ERROR:
            self.errors.append(f"error on screen: {element.alert.body[:80]}")
            return
        proto = getattr(element, kind) if kind else None
        widget_id = getattr(proto, "id", "")
        if not widget_id:
            return
        if kind == "button" and widget_id.endswith(f"-{STEP_KEY}"):
            self.step_id, self.step_fragment = widget_id, delta.fragment_id
        if kind not in _VALUE_WIDGETS or self._in_popover(path):
            return  # a closed popover's widgets are not mounted: the browser holds no state
        old = self.widgets.get(widget_id)
        state = _widget_state(widget_id, kind, proto, old.state if old else None)
        self.widgets[widget_id] = _Widget(state, self.run_id, delta.fragment_id)

    def _in_popover(self, path: tuple[int, ...]) -> bool:
        return any(self.block_kinds.get(path[:n]) == "popover" for n in range(1, len(path)))

    def _finished(self, status: int, at: float) -> None:
        self.running = False
        self.finished_runs += 1
        if self.run_iteration is not None:
            # what the screen shows now: this run's deltas reached the page, even when the
            # server marks the run "finished early" because the next click's run began
            self.iteration = self.run_iteration
            self.shown.append((at, self.run_iteration))
            self.run_iteration = None
        if status not in FINISHED_OK:
            if status == ForwardMsg.ScriptFinishedStatus.FINISHED_WITH_COMPILE_ERROR:
                self.errors.append("the script did not compile")
            return
        fragments = self.run_fragments
        # the browser forgets the widgets this run (or this fragment's run) no longer drew
        for widget_id, widget in list(self.widgets.items()):
            if widget.run != self.run_id and (not fragments or widget.fragment in fragments):
                del self.widgets[widget_id]
        if self.new_session_since_send:
            self._age_cache(fragments)

    def _age_cache(self, fragments: list[str]) -> None:
        """Streamlit's browser-side ForwardMsg cache: a message unused for more than
        ``max_cached_message_age`` runs (of its fragment, in a fragment run) is dropped."""
        self.cache_runs += 1
        for key, cached in list(self.cache.items()):
            if fragments and cached.fragment not in fragments:
                continue
            if self.cache_runs - cached.runs > self.max_cached_age:
                del self.cache[key]

    # -------------------------------------------------------- sending

    def rerun_message(self, trigger: str | None = None, fragment: str = "") -> BackMsg:
        """The BackMsg a browser sends to rerun: with ``trigger`` (a button's widget id) and
        its fragment for a click, without for the first load."""
        msg = BackMsg()
        rerun = msg.rerun_script
        rerun.query_string = self.query_string
        rerun.widget_states.widgets.extend(w.state for w in self.widgets.values())
        if trigger:
            rerun.widget_states.widgets.add(id=trigger, trigger_value=True)
        if self.page_script_hash:
            rerun.page_script_hash = self.page_script_hash
        if fragment:
            rerun.fragment_id = fragment
        rerun.cached_message_hashes.extend(self.cache)
        context = rerun.context_info
        context.timezone = TIMEZONE
        context.timezone_offset = 0
        context.locale = LOCALE
        context.url = self.url + (f"?{self.query_string}" if self.query_string else "")
        context.is_embedded = False
        context.color_scheme = COLOR_SCHEME
        return msg

    def click_message(self) -> BackMsg:
        if not self.step_id:
            raise RuntimeError("the Step button was not drawn")
        return self.rerun_message(self.step_id, self.step_fragment)

    def sent(self) -> None:
        self.new_session_since_send = False


def message_difference(expected: BackMsg, actual: BackMsg) -> str:
    """ "" when two rerun messages ask the same (widget order aside), else what differs."""
    a, b = expected.rerun_script, actual.rerun_script
    diffs = []
    for name in ("query_string", "page_script_hash", "fragment_id"):
        if getattr(a, name) != getattr(b, name):
            diffs.append(f"{name} {getattr(a, name)!r} != {getattr(b, name)!r}")
    mine = {w.id: w.SerializeToString(deterministic=True) for w in a.widget_states.widgets}
    theirs = {w.id: w.SerializeToString(deterministic=True) for w in b.widget_states.widgets}
    for wid in sorted(mine.keys() | theirs.keys()):
        if mine.get(wid) != theirs.get(wid):
            diffs.append(f"widget {wid.rsplit('-', 1)[-1]}")
    if set(a.cached_message_hashes) != set(b.cached_message_hashes):
        diffs.append("cached_message_hashes")
    return "; ".join(diffs)


# ------------------------------------------------------------------ the drivers


@dataclass
class Plan:
    """What every session does."""

    rate: float
    seconds: float
    start: float  # loop time of the first possible click
    drain: float  # seconds to wait for the last clicks' updates
    query: str = ""
    quiet: float = 2.0  # a session stops waiting after this long without a finished run


def schedule(plan: Plan, phase: float) -> list[float]:
    """The loop times of one session's clicks: every 1/rate s from start + phase."""
    period = 1.0 / plan.rate
    count = max(0, math.ceil((plan.seconds - phase) / period))
    return [plan.start + phase + i * period for i in range(count)]


async def _drain(
    view: SessionView, first: int, clicks: int, until: float, quiet: float = 2.0
) -> None:
    """Wait until every click shows or nothing more comes (``quiet`` s without a run)."""
    loop = asyncio.get_running_loop()
    quiet_since = loop.time()
    seen = view.finished_runs
    while loop.time() < until:
        if view.iteration is not None and view.iteration - first >= clicks:
            return
        if view.finished_runs != seen or view.running:
            seen, quiet_since = view.finished_runs, loop.time()
        elif loop.time() - quiet_since > quiet:
            return
        await asyncio.sleep(0.05)


class WsSession:
    """One session driven over Streamlit's websocket protocol."""

    def __init__(self, url: str, query: str) -> None:
        self.url = url
        self.view = SessionView(url, query)
        self.sent: list[float] = []
        self.ws: Any = None
        self.cookies: dict[str, str] = {}
        self.connect_options: dict[str, Any] = {}  # e.g. local_addr: the client's own address
        self.reader: asyncio.Task[None] | None = None
        self.closed_by_us = False

    async def open(self, timeout: float) -> None:
        from websockets.asyncio.client import connect

        self.cookies = await asyncio.to_thread(page_cookies, self.url)
        xsrf = self.cookies.get("_streamlit_xsrf", "")
        parts = urllib.parse.urlsplit(self.url)
        scheme = "wss" if parts.scheme == "https" else "ws"
        jar = "; ".join(f"{name}={value}" for name, value in self.cookies.items())
        self.ws = await connect(
            f"{scheme}://{parts.netloc}{parts.path.rstrip('/')}/_stcore/stream",
            subprotocols=["streamlit", xsrf or "PLACEHOLDER_AUTH_TOKEN"],  # type: ignore[list-item]
            origin=f"{parts.scheme}://{parts.netloc}",  # type: ignore[arg-type]
            additional_headers={"Cookie": jar} if jar else None,
            max_size=None,
            open_timeout=timeout,
            **self.connect_options,
        )
        self.reader = asyncio.create_task(self._read())
        await self._send(self.view.rerun_message())
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self.ready():
            if loop.time() > deadline or self.reader.done():
                raise TimeoutError("the first screen did not arrive")
            await asyncio.sleep(0.05)

    def ready(self) -> bool:
        """Whether the first screen is drawn (here: with its Step button)."""
        return self.view.finished_runs > 0 and bool(self.view.step_id)

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            async for data in self.ws:
                self.view.receive(data if isinstance(data, bytes) else data.encode(), loop.time())
        except Exception as exc:
            if not self.closed_by_us:
                self.view.errors.append(f"connection lost: {type(exc).__name__}")
            return
        if not self.closed_by_us:
            self.view.errors.append("the server closed the connection")

    async def _send(self, msg: BackMsg) -> None:
        await self.ws.send(msg.SerializeToString())
        self.view.sent()

    async def click(self) -> None:
        msg = self.view.click_message()
        self.sent.append(asyncio.get_running_loop().time())
        await self._send(msg)

    async def close(self) -> None:
        self.closed_by_us = True
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)


def page_cookies(url: str) -> dict[str, str]:
    """Load the page as a browser does first; the cookies it sets (name -> value), which the
    websocket then carries: Streamlit's XSRF cookie and, behind deploy/'s nginx, the routing
    cookie that keeps the session on one replica."""
    with urllib.request.urlopen(url, timeout=60) as page:
        page.read()
        cookies = page.headers.get_all("Set-Cookie") or []
    jar = {}
    for cookie in cookies:
        name, _, rest = cookie.partition("=")
        if name.strip():
            jar[name.strip()] = rest.split(";", 1)[0]
    return jar


async def _ws_session(
    url: str, plan: Plan, phase: float, opened: asyncio.Event, go: asyncio.Event
) -> SessionResult:
    session = WsSession(url, plan.query)
    try:
        await session.open(timeout=120)
    except (OSError, TimeoutError, RuntimeError) as exc:
        await session.close()
        return SessionResult(0, 0, 0, [], [f"could not open: {exc}"])
    finally:
        opened.set()
    view = session.view
    first = view.iteration or 0
    loop = asyncio.get_running_loop()
    try:
        await go.wait()
        for at in schedule(plan, phase):
            await asyncio.sleep(max(0.0, at - loop.time()))
            if session.reader is not None and session.reader.done():
                break
            await session.click()
        await _drain(view, first, len(session.sent), loop.time() + plan.drain, plan.quiet)
    finally:
        await session.close()
    latencies = click_latencies(session.sent, view.shown, first)
    return SessionResult(len(session.sent), first, view.iteration or first, latencies, view.errors)


async def _browser_sessions(url: str, plan: Plan, phases: list[float]) -> list[SessionResult]:
    """Real Chromium pages; each page's websocket frames go through a SessionView, and each
    click message the page sends is compared with the one the ws driver would send."""
    from playwright.async_api import async_playwright

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            return await asyncio.gather(
                *(_browser_page(browser, url, plan, phase) for phase in phases)
            )
        finally:
            await browser.close()


#: Installed in every page before Streamlit's code: the page's own clock (ms) for every frame
#: its Streamlit websocket sends and receives, in order (Playwright's frame events come to this
#: process in batches, up to ~0.3 s late: their arrival times are no latency).
_FRAME_CLOCK = """
(() => {
  const Native = window.WebSocket;
  window.__frames = {sent: [], received: []};
  const now = () => performance.timeOrigin + performance.now();
  window.WebSocket = function (url, protocols) {
    const socket = new Native(url, protocols);
    if (String(url).includes("/_stcore/stream")) {
      const send = socket.send.bind(socket);
      socket.send = (data) => { window.__frames.sent.push(now()); return send(data); };
      socket.addEventListener("message", () => window.__frames.received.push(now()));
    }
    return socket;
  };
  window.WebSocket.prototype = Native.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();
"""


async def _browser_page(browser: Any, url: str, plan: Plan, phase: float) -> SessionResult:
    page = await browser.new_page(viewport={"width": 1280, "height": 720})
    await page.add_init_script(_FRAME_CLOCK)
    view = SessionView(url, plan.query)
    loop = asyncio.get_running_loop()
    frames = {"sent": 0, "received": 0}
    clicks: list[int] = []  # the index of each click's frame among the page's sent frames
    mismatches: list[str] = []

    def on_sent(payload: bytes | str) -> None:
        msg = BackMsg()
        msg.ParseFromString(payload if isinstance(payload, bytes) else payload.encode())
        widgets = msg.rerun_script.widget_states.widgets
        if any(w.id == view.step_id and w.trigger_value for w in widgets):
            clicks.append(frames["sent"])
            difference = message_difference(view.click_message(), msg)
            if difference:
                mismatches.append(difference)
        frames["sent"] += 1
        view.sent()

    def on_received(payload: bytes | str) -> None:
        # the frame's index stands for its time until the page's clock is read
        view.receive(
            payload if isinstance(payload, bytes) else payload.encode(), frames["received"]
        )
        frames["received"] += 1

    def on_socket(socket: Any) -> None:
        if "/_stcore/stream" in socket.url:
            socket.on("framesent", on_sent)
            socket.on("framereceived", on_received)

    page.on("websocket", on_socket)
    latencies: list[float | None] = []
    first = 0
    try:
        await page.goto(url + (f"/?{plan.query}" if plan.query else ""))
        await page.wait_for_selector(IDLE, timeout=120_000)
        first = view.iteration or 0
        button = page.locator(f".st-key-{STEP_KEY} button").first
        pressed = 0
        for at in schedule(plan, phase):
            await asyncio.sleep(max(0.0, at - loop.time()))
            await button.click(timeout=30_000)
            pressed += 1
        until = loop.time() + plan.drain
        while len(clicks) < pressed and loop.time() < until:  # the last frames' events
            await asyncio.sleep(0.05)
        await _drain(view, first, len(clicks), until)
        clock = await page.evaluate("window.__frames")
        if len(clock["sent"]) != frames["sent"] or len(clock["received"]) != frames["received"]:
            view.errors.append("the page's frame clock missed frames")
        else:
            sent = [clock["sent"][i] / 1000 for i in clicks]
            shown = [(clock["received"][int(i)] / 1000, n) for i, n in view.shown]
            latencies = click_latencies(sent, shown, first)
    except Exception as exc:
        view.errors.append(f"page failed: {type(exc).__name__}: {str(exc)[:80]}")
    finally:
        await page.close()
    errors = view.errors + [f"protocol mismatch: {m}" for m in mismatches[:3]]
    result = SessionResult(len(clicks), first, view.iteration or first, latencies, errors)
    result.mismatches = len(mismatches)
    return result


# ------------------------------------------------------------------ the run


async def _sample(meter: ProcessMeter | None, peak: list[float], stop: asyncio.Event) -> None:
    while meter is not None and not stop.is_set():
        with contextlib.suppress(OSError):
            peak[0] = max(peak[0], meter.rss_mb())
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.25)


def _client_cpu_seconds(server: int | None) -> float:
    """This process's CPU seconds plus its live child processes' (Playwright's driver and the
    Chromium pages), leaving out the server when this process started it."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    total = usage.ru_utime + usage.ru_stime
    children: dict[int, list[int]] = {}
    for entry in filter(str.isdigit, os.listdir("/proc")):
        with (
            contextlib.suppress(OSError, IndexError, ValueError),
            open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat,
        ):
            parent = int(stat.read().rsplit(")", 1)[1].split()[1])
            children.setdefault(parent, []).append(int(entry))
    family, todo = {os.getpid()}, [os.getpid()]
    while todo:
        for child in children.get(todo.pop(), []):
            if child != server and child not in family:
                family.add(child)
                todo.append(child)
    for pid in family - {os.getpid()}:
        with contextlib.suppress(OSError, RuntimeError):
            total += ProcessMeter(pid).cpu_seconds()
    return total


async def _cpu_window(meter: ProcessMeter | None, plan: Plan) -> tuple[float | None, float]:
    """The server's and the client's CPU (% of one core) from the first possible click to the
    last scheduled one."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(max(0.0, plan.start - loop.time()))
    server_pid = meter.pid if meter else None
    server, client = (meter.cpu_seconds() if meter else 0.0), _client_cpu_seconds(server_pid)
    await asyncio.sleep(plan.seconds)
    client = 100.0 * (_client_cpu_seconds(server_pid) - client) / plan.seconds
    if meter is None:
        return None, client
    return 100.0 * (meter.cpu_seconds() - server) / plan.seconds, client


async def _warm_up(url: str, query: str) -> None:
    """One session opens the screen, clicks Step once and leaves: the app's modules are
    imported and the first-click paths run before the baseline is read."""
    session = WsSession(url, query)
    try:
        await session.open(timeout=120)
        first = session.view.iteration or 0
        await session.click()
        loop = asyncio.get_running_loop()
        await _drain(session.view, first, 1, loop.time() + 30)
    finally:
        await session.close()


async def run_load(
    url: str,
    sessions: int,
    rate: float,
    seconds: float,
    *,
    driver: str = "ws",
    pid: int | None = None,
    query: str = "",
    drain: float = 15.0,
    quiet: float = 2.0,
    settle: float = 10.0,
    seed: int = 0,
    progress: Callable[[str], None] = lambda _: None,
) -> Report:
    """Drive ``sessions`` sessions of the app at ``url`` and measure (see the module doc)."""
    if sessions < 1 or rate <= 0 or seconds <= 0:
        raise ValueError(
            f"need sessions >= 1, rate > 0, seconds > 0: {sessions}, {rate}, {seconds}"
        )
    url = url.rstrip("/")
    load = load_average()
    if pid is None:
        port = urllib.parse.urlsplit(url).port
        pid = server_pid(port) if port else None
    meter = ProcessMeter(pid) if pid else None
    measure = ServerMeasure(settle_s=settle)
    progress("warm-up session")
    await _warm_up(url, query)
    await asyncio.sleep(1.0)
    if meter:
        measure.rss_baseline_mb = meter.rss_mb()
    peak = [measure.rss_baseline_mb or 0.0]
    stop = asyncio.Event()
    sampler = asyncio.create_task(_sample(meter, peak, stop))
    loop = asyncio.get_running_loop()
    rng = random.Random(seed)
    phases = [rng.uniform(0, 1.0 / rate) for _ in range(sessions)]
    # every session opens at once; the clicking starts 0.5 s after all have drawn their first
    # screen (or failed; at most 240 s): the opening rush is not measured
    plan = Plan(rate, seconds, start=math.inf, drain=drain, query=query, quiet=quiet)
    progress(f"{sessions} sessions opening ({driver})")
    if driver == "ws":
        opened = [asyncio.Event() for _ in range(sessions)]
        go = asyncio.Event()
        tasks = [
            asyncio.create_task(_ws_session(url, plan, phase, ev, go))
            for phase, ev in zip(phases, opened, strict=True)
        ]
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.gather(*(ev.wait() for ev in opened)), 240)
        plan.start = loop.time() + 0.5
        go.set()
    else:
        plan.start = loop.time() + 30.0  # pages load in parallel; clicking starts together
    progress(f"clicking for {seconds:g} s from {max(0.0, plan.start - loop.time()):.1f} s on")
    window = asyncio.create_task(_cpu_window(meter, plan))
    if driver == "ws":
        results = list(await asyncio.gather(*tasks))
    else:
        results = await _browser_sessions(url, plan, phases)
    server_cpu, client_cpu = await window
    measure.cpu_percent = server_cpu
    # all sessions are closed now: how soon does the server answer, and is it still busy?
    progress("sessions closed: health check")
    closed_at, cpu_close = loop.time(), (meter.cpu_seconds() if meter else 0.0)
    measure.health_after_close_s = await asyncio.to_thread(health_seconds, url)
    if meter:
        measure.rss_after_close_mb = meter.rss_mb()
    await asyncio.sleep(max(0.0, settle - (loop.time() - closed_at)))
    if meter:
        measure.cpu_after_close_percent = (
            100.0 * (meter.cpu_seconds() - cpu_close) / max(loop.time() - closed_at, 1e-9)
        )
    measure.health_after_settle_s = await asyncio.to_thread(health_seconds, url)
    if meter:
        measure.rss_after_settle_mb = meter.rss_mb()
    stop.set()
    await sampler
    measure.rss_peak_mb = peak[0] if meter else None
    return Report(
        driver=driver,
        sessions=sessions,
        rate=rate,
        seconds=seconds,
        results=results,
        server=measure,
        load_before=load,
        client_cpu_percent=client_cpu,
    )


def load_average() -> str:
    """The 1, 5 and 15 minute load averages (others share this machine's CPU)."""
    with contextlib.suppress(OSError):
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    return ""


@contextlib.contextmanager
def _server(url: str | None) -> Iterator[str]:
    if url:
        yield url
    else:
        with running_app() as started:
            yield started


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--class"]:  # the class mode: one teacher and N students, 2 replicas
        import class_load_test  # (beside this file; it builds on this one's sessions)

        return int(class_load_test.main(argv[1:]))
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="python scripts/load_test.py --class [--students N --store sqlite|redis ...]: "
        "the class mode (scripts/class_load_test.py: one teacher and N students through nginx "
        "and 2 replicas; --class --help lists its options)",
    )
    parser.add_argument("--sessions", type=int, default=10, help="concurrent sessions (10)")
    parser.add_argument("--rate", type=float, default=1.0, help="Step clicks per second each (1)")
    parser.add_argument("--seconds", type=float, default=60.0, help="how long they click (60)")
    parser.add_argument("--url", help="a running app (default: start one on a free port)")
    parser.add_argument("--pid", type=int, help="the server's process id (default: from the port)")
    parser.add_argument("--driver", choices=("ws", "browser"), default="ws")
    parser.add_argument(
        "--query", default="", help="the link's query string, e.g. game=connect_four"
    )
    parser.add_argument("--drain", type=float, default=15.0, help="wait for late updates (15 s)")
    parser.add_argument("--quiet", type=float, default=2.0,
                        help="...unless no run came for this long (2 s)")  # fmt: skip
    parser.add_argument("--settle", type=float, default=10.0, help="after close, then RSS (10 s)")
    parser.add_argument("--seed", type=int, default=0, help="the sessions' click phases")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="repeat open-click-close on the same server: a flat peak RSS round after round "
        "means closed sessions' memory is reused (1)",
    )
    args = parser.parse_args(argv)
    missed = False
    with _server(args.url) as url:
        for number in range(1, args.rounds + 1):
            print(f"round {number}: load {load_average()}", file=sys.stderr, flush=True)
            report = asyncio.run(
                run_load(
                    url,
                    args.sessions,
                    args.rate,
                    args.seconds,
                    driver=args.driver,
                    pid=args.pid,
                    query=args.query,
                    drain=args.drain,
                    quiet=args.quiet,
                    settle=args.settle,
                    seed=args.seed + number - 1,
                    progress=lambda text: print(text, file=sys.stderr, flush=True),
                )
            )
            if args.json:
                print(json.dumps(report.as_dict() | {"round": number}, indent=2))
            else:
                if args.rounds > 1:
                    print(f"round {number}")
                print(format_report(report), end="\n\n" if number < args.rounds else "\n")
            missed = missed or any(ok is False for ok in report.verdicts().values())
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
