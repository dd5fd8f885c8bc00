"""Class load test: one teacher and N students through nginx and 2 replicas, measured.

    python scripts/class_load_test.py --students 60 --store sqlite [--seconds 60] [--classes 2]
                                      [--idle 30]

Starts ``deploy/run_replicas.py --replicas 2`` (nginx on a free port, the class store SQLite in a
fresh file or a redis-server started for the run), then drives, over Streamlit's websocket
protocol (``scripts/load_test.py``'s ``SessionView``, which reads what each page is sent):

- **the teacher**: opens the app, presses **Start a class**, then repeats a 20 s lesson cycle
  for ``--seconds``: turns the quiz on (the quiz's question opens to the class), waits 8 s
  while the class answers, presses **Reveal** (which steps), turns the quiz off, and presses
  **Step** every 2 s for the rest of the cycle;
- **N students**: each opens ``/?class=CODE``, joins with a generated nickname, and answers every
  question a uniform 1-4 s after it reaches their screen (a random choice). Their pages ask for
  news as a browser does: every fragment timer the server sets (``auto_rerun``) is kept.

Every session first loads the page and carries the cookies it sets, nginx's routing cookie
included, so sessions spread over the replicas (counted from nginx's access log); each student
connects from its own loopback address (127.0.0.x: the join limit is per address, as for
students on their own phones). ``--classes 2`` runs a second class on the same replicas: the
replicas' memory after each class shows whether it stays flat.

Reported: answers sent and the answers the store kept (every sent answer must be there, unless
its round had closed before it arrived: counted apart as "late"), a teacher's Step on every
student's screen (from the teacher's click to each student's page showing that iteration),
an answer in the teacher's count (from a student's answer to the teacher's room box counting
it), errors, the replicas' RSS, the load average.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_test import (
    ProcessMeter,
    SessionView,
    WsSession,
    format_report,
    load_average,
    percentile,
    run_load,
)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from app.classroom import open_store  # noqa: E402

CYCLE_S, ANSWER_WINDOW_S, STEP_EVERY_S = 20.0, 8.0, 2.0
ANSWER_DELAY_S = (1.0, 4.0)
#: An answer not kept, sent at most this long before the teacher closed its round, is "late"
#: (it reached a busy replica after the close), not missing.
LATE_S = 2.0
STUDENTS_PER_ADDRESS = 10  # the room allows 20 joins a minute per address
TARGETS = {"recorded_pct": 100.0, "step_p95_s": 1.5, "count_p95_s": 2.0, "errors": 0}
STATS = re.compile(r'lab-stats">Iteration ([\d,]+)')
COUNT = re.compile(r"round (\d+): (\d+) of (\d+) answered")
CODE = re.compile(r'aria-label="class code">([A-Z0-9]+)<')
QUESTION = re.compile(r'lab-student-q">Question(?: \(round (\d+)\))?: (.*?)</p>', re.S)


class ClassView(SessionView):
    """A SessionView that also keeps every widget's id by key, the fragment timers, and the
    class's numbers a page shows (the code, the teacher's count, the student's iteration)."""

    def __init__(self, url: str, query: str = "") -> None:
        super().__init__(url, query)
        self.ids: dict[str, tuple[str, str]] = {}  # widget key -> (id, fragment)
        self.submit = ("", "")  # the form's submit button
        self.timers: dict[str, float] = {}  # fragment id -> seconds between its reruns
        self.code = ""
        self.question = ("", 0)  # the question on screen: its text and round
        self.counts: list[tuple[float, int, int]] = []  # (time, round, answered)
        self.stats: list[tuple[float, int]] = []  # (time, iteration) on a student's page
        self.choices: list[str] = []
        self._now = 0.0

    def receive(self, data: bytes, at: float) -> None:
        self._now = at
        super().receive(data, at)

    def other(self, msg: ForwardMsg, at: float) -> None:
        kind = msg.WhichOneof("type")
        if kind == "auto_rerun":
            self.timers[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
        elif kind == "stop_auto_rerun":
            self.timers.clear()

    def _delta(self, msg: ForwardMsg) -> None:
        super()._delta(msg)
        delta = msg.delta
        if delta.WhichOneof("type") != "new_element":
            return
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "html":
            self._html(element.html.body)
            return
        if not kind:
            return
        proto = getattr(element, kind)
        widget_id = str(getattr(proto, "id", ""))
        if not widget_id:
            return
        if kind == "button" and proto.is_form_submitter:
            self.submit = (widget_id, delta.fragment_id)
        self.ids[widget_id.rsplit("-", 1)[-1]] = (widget_id, delta.fragment_id)
        if kind == "radio" and widget_id.endswith("-class_answer"):
            self.choices = list(proto.options)

    def _html(self, body: str) -> None:
        now = self._now
        if found := CODE.search(body):
            self.code = found.group(1)
        if found := COUNT.search(body):
            self.counts.append((now, int(found.group(1)), int(found.group(2))))
        if found := STATS.search(body):
            self.stats.append((now, int(found.group(1).replace(",", ""))))
        if found := QUESTION.search(body):
            self.question = (html.unescape(found.group(2)), int(found.group(1) or 1))

    def unanswered(self) -> bool:
        """Whether the page shows a question this student has not answered (the radio drawn
        with no value: the server sets it to None for each new round)."""
        found = self.ids.get("class_answer")
        widget = self.widgets.get(found[0]) if found else None
        return widget is not None and widget.state.WhichOneof("value") is None

    def set_value(self, key: str, **value: Any) -> None:
        """Give a drawn value widget a new value, as the browser does when it is changed."""
        state = self.widgets[self.ids[key][0]].state
        for name, v in value.items():
            setattr(state, name, v)


class ClassSession(WsSession):
    """A WsSession over a ClassView that keeps the page's fragment timers running."""

    view: ClassView
    #: Fragment timer reruns sent by every session so far (the idle window's polls).
    timer_reruns = 0

    def __init__(self, url: str, query: str, wait_for: str) -> None:
        super().__init__(url, query)
        self.view = ClassView(url, query)
        self.wait_for = wait_for  # a widget key the first screen draws
        self.timer_task: asyncio.Task[None] | None = None

    def ready(self) -> bool:
        return self.view.finished_runs > 0 and (
            self.wait_for in self.view.ids or self.view.submit[0] != ""
        )

    async def open(self, timeout: float) -> None:
        await super().open(timeout)
        self.timer_task = asyncio.create_task(self._timers())

    async def _timers(self) -> None:
        """Each fragment timer reruns its fragment (skipped while a run goes on)."""
        loop = asyncio.get_running_loop()
        due: dict[str, float] = {}
        while True:
            await asyncio.sleep(0.1)
            now = loop.time()
            for fragment, every in list(self.view.timers.items()):
                if now < due.setdefault(fragment, now + every) or self.view.running:
                    continue
                due[fragment] = now + every
                msg = self.view.rerun_message(fragment=fragment)
                msg.rerun_script.is_auto_rerun = True
                await self._send(msg)
                ClassSession.timer_reruns += 1

    async def press(self, key: str) -> float:
        widget_id, fragment = self.view.ids[key]
        sent = asyncio.get_running_loop().time()
        await self._send(self.view.rerun_message(widget_id, fragment))
        return sent

    async def change(self, key: str, **value: Any) -> float:
        self.view.set_value(key, **value)
        sent = asyncio.get_running_loop().time()
        await self._send(self.view.rerun_message(fragment=self.view.ids[key][1]))
        return sent

    async def close(self) -> None:
        if self.timer_task is not None:
            self.timer_task.cancel()
            await asyncio.gather(self.timer_task, return_exceptions=True)
        await super().close()


async def _until(check: Any, timeout: float) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


# ------------------------------------------------------------------ one class


@dataclass
class Answer:
    student: str  # the student's id in the class
    choice: int  # the index of the answer among the question's choices
    sent: float  # epoch seconds
    question: tuple[str, int]  # the question and round on the student's screen


@dataclass
class ClassRun:
    students: int
    seconds: float
    code: str = ""
    steps: list[tuple[float, int]] = field(default_factory=list)  # (sent, iteration it makes)
    polls: list[float] = field(default_factory=list)  # epoch s the teacher opened a poll
    answers: list[Answer] = field(default_factory=list)
    step_latency: list[float] = field(default_factory=list)
    count_latency: list[float] = field(default_factory=list)
    recorded: int = 0
    late: int = 0
    missing: int = 0
    errors: list[str] = field(default_factory=list)
    idle: tuple[float, float] | None = None  # (the replicas' CPU seconds, wall seconds) idle
    idle_polls: int = 0  # the fragment timer reruns sent in that window (the teacher's too)


async def _teacher_lesson(teacher: ClassSession, run: ClassRun, until: float) -> None:
    """The teacher's 20 s cycles: quiz on (a question opens), the class answers for 8 s,
    Reveal (it steps; the quiz asks its next question), quiz off, Step every 2 s."""
    loop = asyncio.get_running_loop()
    view = teacher.view

    async def step(key: str) -> None:
        before = view.iteration or 0
        sent = await teacher.press(key)
        run.steps.append((sent, before + 1))
        if not await _until(lambda: (view.iteration or 0) > before, 15):
            run.errors.append(f"the teacher's {key} did not show")

    while loop.time() + CYCLE_S <= until + 0.5:
        cycle = loop.time()
        await teacher.change("quiz", bool_value=True)
        run.polls.append(time.time())
        await asyncio.sleep(max(0.0, cycle + ANSWER_WINDOW_S - loop.time()))
        run.polls.append(time.time())  # Reveal: the quiz asks its next question in that run
        await step("class_reveal")
        await teacher.change("quiz", bool_value=False)
        at = cycle + ANSWER_WINDOW_S + STEP_EVERY_S
        while at < cycle + CYCLE_S - 0.5:
            await asyncio.sleep(max(0.0, at - loop.time()))
            await step("step")
            at += STEP_EVERY_S
        await asyncio.sleep(max(0.0, cycle + CYCLE_S - loop.time()))


async def _student(
    url: str, code: str, number: int, rng: random.Random, run: ClassRun, lesson: Lesson
) -> ClassSession | None:
    """Join, then answer every question a few seconds after it shows, until the lesson ends."""
    session = ClassSession(url, f"class={code}", "class_code")
    session.connect_options = {"local_addr": (f"127.0.0.{2 + number // STUDENTS_PER_ADDRESS}", 0)}
    view = session.view
    try:
        await session.open(timeout=120)
        widget_id, fragment = view.submit
        await session._send(view.rerun_message(widget_id, fragment))
        # joined: the address has the student's place and the page follows the class
        if not await _until(lambda: "me=" in view.query_string and "class_explore" in view.ids,
                            120):  # fmt: skip
            raise TimeoutError("the join did not finish")
    except (OSError, TimeoutError, RuntimeError) as exc:
        run.errors.append(f"student {number} could not join: {exc}")
        await session.close()
        return None
    finally:
        lesson.arrived += 1
    me = dict(p.split("=", 1) for p in view.query_string.split("&") if "=" in p)["me"]
    await lesson.go.wait()
    while not lesson.over.is_set():
        await asyncio.sleep(0.1)
        if not view.unanswered() or view.running:
            continue
        await asyncio.sleep(rng.uniform(*ANSWER_DELAY_S))  # reading the question
        if not view.unanswered() or lesson.over.is_set():
            continue
        choice = rng.randrange(len(view.choices))  # the label as drawn is what a browser sends
        await session.change("class_answer", string_value=view.choices[choice])
        run.answers.append(Answer(me, choice, time.time(), view.question))
        await _until(lambda: not view.unanswered(), 5)
    return session


@dataclass
class Lesson:
    go: asyncio.Event = field(default_factory=asyncio.Event)
    over: asyncio.Event = field(default_factory=asyncio.Event)
    arrived: int = 0  # students joined or failed


def _step_latencies(run: ClassRun, views: list[ClassView]) -> list[float]:
    out = []
    for view in views:
        for sent, iteration in run.steps:
            shown = [t for t, n in view.stats if t >= sent and n >= iteration]
            if shown:
                out.append(min(shown) - sent)
            else:
                view.errors.append(f"step to iteration {iteration} never shown")
    return out


def _count_latencies(run: ClassRun, counts: list[tuple[float, int, int]]) -> list[float]:
    """Answer k (by send time) of a poll is in the count when the count first shows >= k
    answers after it was sent, before the next poll opened."""
    out = []
    offset = time.time() - asyncio.get_event_loop().time()  # epoch -> the loop's clock
    edges = [*run.polls, float("inf")]
    for start, end in zip(edges, edges[1:], strict=False):
        sent = sorted(a.sent - offset for a in run.answers if start <= a.sent < end)
        seen = [(t, n) for t, _, n in counts if start - offset <= t < end - offset + 1.0]
        for k, at in enumerate(sent, start=1):
            later = [t for t, n in seen if t >= at and n >= k]
            if later:
                out.append(min(later) - at)
    return out


def _compare_store(run: ClassRun, store_url: str) -> None:
    """Every answer sent must be in the store, in the round the student's screen showed. One
    that is not is "late" when the teacher had closed that round before it was sent or within
    LATE_S after (the student's screen was behind, or the answer reached a busy replica after
    the close): the room drops an answer to a closed round quietly, as a clicker would. Any
    other is missing."""
    store = open_store(store_url)
    try:
        polls = store.polls(run.code)
        for answer in run.answers:
            opened = [p for p in polls if p.opened <= answer.sent]
            shown = [p for p in opened if (p.text, p.round) == answer.question]
            poll = shown[-1] if shown else None
            kept = store.answers(run.code, poll.id, poll.round) if poll else {}
            if poll is not None and kept.get(answer.student) == poll.choices[answer.choice]:
                run.recorded += 1
            elif poll is not None and (
                opened[-1] is not poll or _closed_by(run.polls, poll.opened, answer.sent + LATE_S)
            ):
                run.late += 1
            else:
                run.missing += 1
                run.errors.append(
                    f"answer missing: {answer.choice!r} at {answer.sent:.2f}, round "
                    f"{poll and (poll.id, poll.round, round(poll.opened, 2))}, the store has "
                    f"{kept.get(answer.student)!r}"
                )
    finally:
        store.close()


def _closed_by(closes: list[float], opened: float, until: float) -> bool:
    """Whether the teacher closed the round opened at ``opened`` (opened the next one) before
    ``until``: an answer sent up to LATE_S before that may reach a busy replica after it."""
    return any(opened < at <= until for at in closes)


async def one_class(
    url: str,
    students: int,
    seconds: float,
    store: str,
    seed: int,
    idle: float = 0.0,
    cpu_seconds: Any = None,
) -> ClassRun:
    """One class; with ``idle``, first that many seconds of the joined class sitting still
    (no Step, no question: only the students' pages polling), the replicas' CPU measured by
    ``cpu_seconds()`` over it."""
    run = ClassRun(students, seconds)
    loop = asyncio.get_running_loop()
    teacher = ClassSession(url, "", "step")
    await teacher.open(timeout=120)
    await teacher.press("class_start")
    if not await _until(lambda: bool(teacher.view.code) and "class_reveal" in teacher.view.ids, 60):
        raise RuntimeError("the class did not start")
    run.code = teacher.view.code
    await teacher.press("class_join_toggle")  # the join box hidden: the tree in its place
    lesson = Lesson()
    rng = random.Random(seed)
    tasks = []
    for number in range(students):
        tasks.append(asyncio.create_task(
            _student(url, run.code, number, random.Random(rng.random()), run, lesson)))  # fmt: skip
        await asyncio.sleep(0.05)  # a class arrives over a few seconds, not in one instant
    await _until(lambda: lesson.arrived >= students, 240)
    if idle and cpu_seconds is not None:  # what the joined class's idle polls cost the server
        await asyncio.sleep(3.0)  # the joins' own runs settle first
        before, start, polls = cpu_seconds(), loop.time(), ClassSession.timer_reruns
        await asyncio.sleep(idle)
        run.idle = (cpu_seconds() - before, loop.time() - start)
        run.idle_polls = ClassSession.timer_reruns - polls
    lesson.go.set()
    await _teacher_lesson(teacher, run, loop.time() + seconds)
    await asyncio.sleep(6.0)  # the last step and answers reach every screen
    lesson.over.set()
    sessions = [s for s in await asyncio.gather(*tasks) if s is not None]
    views = [s.view for s in sessions]
    run.step_latency = _step_latencies(run, views)
    run.count_latency = _count_latencies(run, teacher.view.counts)
    run.errors += [e for v in views for e in v.errors] + teacher.view.errors
    await teacher.press("class_end")
    await asyncio.sleep(1.0)
    await asyncio.gather(*(s.close() for s in sessions), teacher.close())
    _compare_store(run, store)
    return run


# ------------------------------------------------------------------ replicas and the report


@contextlib.contextmanager
def replicas(store: str, run_dir: Path) -> Any:
    """deploy/run_replicas.py with 2 replicas on free ports; yields (url, store URL, pids)."""
    port, first, redis_port = _free_port(), _free_port(), _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    url_of_store = f"redis://127.0.0.1:{redis_port}/0"
    if store == "sqlite":
        url_of_store = f"sqlite:///{run_dir}/classes.db"
        env["MCTS_LAB_STORE"] = url_of_store
    command = [sys.executable, str(ROOT / "deploy" / "run_replicas.py"), "--replicas", "2",
               "--port", str(port), "--listen", "127.0.0.1", "--first-port", str(first),
               "--store", store, "--redis-port", str(redis_port),
               "--run-dir", str(run_dir)]  # fmt: skip
    proc = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True)  # fmt: skip
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if line.startswith("MCTS Lab is up at "):
                break
        else:
            raise RuntimeError("run_replicas.py did not start")
        pids = [int((run_dir / f"replica-{p}.pid").read_text()) for p in (first, first + 1)]
        yield f"http://127.0.0.1:{port}", url_of_store, pids
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spread(run_dir: Path) -> dict[str, int]:
    """Websockets per replica, from nginx's access log (one line each, written at close)."""
    counts: dict[str, int] = {}
    log = run_dir / "access.log"
    for line in log.read_text().splitlines() if log.exists() else []:
        if "/_stcore/stream" in line and (found := re.search(r"replica=(\S+)", line)):
            counts[found.group(1)] = counts.get(found.group(1), 0) + 1
    return counts


def summary(run: ClassRun) -> dict[str, Any]:
    sent = run.recorded + run.late + run.missing
    return {
        "students": run.students,
        "seconds": run.seconds,
        "steps": len(run.steps),
        "questions": len(run.polls),
        "answers_sent": sent,
        "answers_recorded": run.recorded,
        "answers_late": run.late,
        "answers_missing": run.missing,
        "recorded_pct": round(100.0 * run.recorded / max(1, run.recorded + run.missing), 2),
        "step_to_screen_s": {
            f"p{q}": round(percentile(run.step_latency, q), 3) for q in (50, 95, 100)
        },  # fmt: skip
        "step_screens": len(run.step_latency),
        "answer_to_count_s": {
            f"p{q}": round(percentile(run.count_latency, q), 3) for q in (50, 95, 100)
        },  # fmt: skip
        "answers_counted": len(run.count_latency),
        "errors": len(run.errors),
        "error_samples": sorted(set(run.errors))[:5],
        **_idle_summary(run),
    }


def _idle_summary(run: ClassRun) -> dict[str, Any]:
    """The idle window's cost: both replicas' CPU as % of one core, per idle student and
    second, and per poll (the fragment timer reruns the pages sent: the teacher's count line,
    and a student's poll where no watcher pushes, app/classroom/student.py)."""
    if run.idle is None:
        return {}
    cpu, wall = run.idle
    return {
        "idle_seconds": round(wall, 1),
        "idle_replicas_cpu_pct": round(100 * cpu / wall, 1),
        "idle_cpu_ms_per_student_second": round(1000 * cpu / max(1.0, run.students * wall), 2),
        "idle_polls": run.idle_polls,
        "idle_cpu_ms_per_poll": round(1000 * cpu / max(1, run.idle_polls), 2),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--students", type=int, default=60)
    parser.add_argument("--store", choices=("sqlite", "redis"), default="sqlite")
    parser.add_argument("--seconds", type=float, default=60.0, help="the lesson (60: 3 cycles)")
    parser.add_argument("--classes", type=int, default=1, help="classes one after another (1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--idle",
        type=float,
        default=0.0,
        help="first, seconds of the joined class sitting still: the replicas' CPU per student "
        "poll (what an idle student costs the server)",
    )
    parser.add_argument(
        "--pause",
        type=float,
        default=0.0,
        help="seconds between classes (Streamlit keeps a closed session 120 s: 130 lets the "
        "last class's sessions go before the next class's RSS is read)",
    )
    parser.add_argument(
        "--stepping",
        type=int,
        default=0,
        help="instead of a class: this many sessions clicking Step once a second for --seconds "
        "(scripts/load_test.py's load) through nginx, with their routing cookies",
    )
    args = parser.parse_args(argv)
    if args.stepping:
        return _stepping(args)
    out: dict[str, Any] = {"store": args.store, "load_before": load_average(),
                           "machine": f"{os.cpu_count()} cores", "classes": []}  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="mcts-lab-class-load-") as tmp:
        run_dir = Path(tmp)
        with replicas(args.store, run_dir) as (url, store_url, pids):
            meters = [ProcessMeter(pid) for pid in pids]
            out["rss_start_mb"] = [round(m.rss_mb(), 1) for m in meters]
            for number in range(args.classes):
                if number:
                    time.sleep(args.pause)
                print(f"class {number + 1}: load {load_average()}", file=sys.stderr, flush=True)
                cpu = [m.cpu_seconds() for m in meters]
                own = time.process_time()
                start = time.monotonic()
                run = asyncio.run(one_class(
                    url, args.students, args.seconds, store_url, args.seed + number,
                    idle=args.idle, cpu_seconds=lambda: sum(m.cpu_seconds() for m in meters),
                ))  # fmt: skip
                took = time.monotonic() - start
                row = summary(run)
                row["load_after"] = load_average()
                row["replica_cpu_pct"] = [round(100 * (m.cpu_seconds() - c) / took)
                                          for m, c in zip(meters, cpu, strict=True)]  # fmt: skip
                row["rss_after_mb"] = [round(m.rss_mb(), 1) for m in meters]
                # the driver's own CPU: a busy driver reads its messages late
                row["driver_cpu_pct"] = round(100 * (time.process_time() - own) / took)
                out["classes"].append(row)
                print(json.dumps(row), file=sys.stderr, flush=True)
            out["websockets_per_replica"] = spread(run_dir)
    print(json.dumps(out, indent=2))
    return 0


def _stepping(args: argparse.Namespace) -> int:
    """The stepping load through nginx: how the sessions spread, what they got."""
    with tempfile.TemporaryDirectory(prefix="mcts-lab-step-load-") as tmp:
        run_dir = Path(tmp)
        with replicas(args.store, run_dir) as (url, _, pids):
            meters = [ProcessMeter(pid) for pid in pids]
            cpu = [m.cpu_seconds() for m in meters]
            start = time.monotonic()
            report = asyncio.run(
                run_load(url, args.stepping, 1.0, args.seconds, pid=pids[0], drain=45.0,
                         quiet=20.0, settle=2.0, seed=args.seed)
            )  # fmt: skip
            took = time.monotonic() - start
            print(format_report(report))
            print("(server CPU and RSS above: the first replica)")
            print(
                "replicas' CPU over the run: "
                + ", ".join(
                    f"{100 * (m.cpu_seconds() - c) / took:.0f}%"
                    for m, c in zip(meters, cpu, strict=True)
                )
            )
        print(f"websockets per replica: {spread(run_dir)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
