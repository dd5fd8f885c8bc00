"""Class load test: one teacher and N students through nginx and 2 replicas, measured.

    python scripts/class_load_test.py --students 60 --store sqlite [--seconds 60] [--classes 2]
                                      [--idle 30] [--teacher-reload S ...] [--restart-replica S]

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

Faults (issue 30), at seconds of the lesson (from the first cycle on), each flag repeatable:

- ``--teacher-reload S``: the teacher's browser reloads the page. Its websocket closes; the
  page loads again from the same address with the browser's cookies: nginx's routing cookie and
  ``mcts_lab_teacher``, which this client keeps as the browser's JS would (it reads the data of
  every ``mcts_lab_cookie`` element the page is sent: a components.v2 element,
  ``Element.bidi_component``, its data ``{"name", "value", "maxAge"}`` in its ``json`` field,
  and applies app/components/static/cookie.js's checks); a fresh page opens its websocket, and
  the app's first run takes the class back (``st.context.cookies``). Reported: the seconds from
  the reload until the page shows the room box again (the ``class_room`` container or the count
  line: the server's side, the browser's own loading of its JS not included), and whether the
  open question stayed open with every answer it had (the store before and after). The
  teacher's lesson then goes on with the page that came back.
- ``--restart-replica S``: one replica (``--restart-which``: the teacher's, the default, or
  the other one) is killed with SIGKILL; deploy/run_replicas.py's supervisor starts it again
  (it looks every 5 s). Every page on it reconnects as Streamlit's page does: ~1 s later, a
  websocket to the same address with its cookies and a rerun with the widget states it holds;
  nginx sends it to the replica that is up, and the new session finds the page's place: a
  student's from its student cookie (``mcts_lab_student``, kept from the join as the browser
  keeps it: the address's ``me=ID`` alone finds no one), the teacher's from its cookie. A student
  page that lost its place joins again ("rejoined"). Reported: the pages that dropped, the
  seconds until each showed the class again (the teacher's: its room box), rejoined, students
  lost (not in the class at the end), and the answers as always (sent, kept, late; "resent":
  not kept, and the same student answered the same round again after the drop).

The fault numbers are added to each class's JSON (``teacher_reloads``, ``replica_restarts``,
``pages_dropped``, ``reconnect_s``, ``students_lost``, ...) and printed as lines of text
after it; a run without fault flags reports exactly as before.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import html
import json
import math
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_test import (
    FINISHED_OK,
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
from app.classroom.core.peer import CONFIDENCE  # noqa: E402

CYCLE_S, ANSWER_WINDOW_S, STEP_EVERY_S = 20.0, 8.0, 2.0
ANSWER_DELAY_S = (1.0, 4.0)
#: A student's confidence follows the answer by this many seconds (uniform), and this share of
#: the answers is followed by an "I'm lost" press (issue 33).
CONFIDENCE_DELAY_S = (0.5, 1.5)
LOST_SHARE = 0.1
#: An answer not kept, sent at most this long before the teacher closed its round, is "late"
#: (it reached a busy replica after the close), not missing.
LATE_S = 2.0
STUDENTS_PER_ADDRESS = 10  # the room allows 20 joins a minute per address
#: What a class of 120 on two replicas must do (issue 42): every answer kept, a Step on the
#: students' screens p95 <= 1.0 s, an answer in the teacher's count p95 <= 1.5 s.
TARGETS = {"answers_lost": 0, "step_p95_s": 1.0, "count_p95_s": 1.5}
STATS = re.compile(r'lab-stats">Iteration ([\d,]+)')
COUNT = re.compile(r"round (\d+): (\d+) of (\d+) answered")
CODE = re.compile(r'aria-label="class code"[^>]*>([A-Z0-9]+)<')
QUESTION = re.compile(r'lab-student-q">Question(?: \(round (\d+)\))?: (.*?)</p>', re.S)
COUNT_LINE = "lab-class-count"  # the teacher's count line, atop the room box
#: The app's cookie writer (app/components/cookie.py, a components.v2 element) and the checks
#: its JS (app/components/static/cookie.js) makes before it sets ``document.cookie``.
COOKIE_COMPONENT = "mcts_lab_cookie"
COOKIE_NAME, COOKIE_VALUE = re.compile(r"[A-Za-z0-9_]+"), re.compile(r"[A-Za-z0-9%._~-]*")
#: The length of the invisible tag each round's answer labels end with.
ROUND_TAG_CHARS = 16
#: How long a student waits for the page to show their answer before answering again.
ANSWER_SHOWN_S = 5.0
#: A page whose connection dropped keeps trying to reconnect for RECONNECT_FOR_S.
RECONNECT_FOR_S = 90.0


def reconnect_delay(attempt: int, rng: random.Random) -> float:
    """Seconds before reconnect attempt ``attempt`` (1, 2, ...) of a page whose connection
    dropped, as Streamlit's page waits (its WebsocketConnection's ``nextReconnectDelayMs``,
    Streamlit 1.67): the first at random in [0.25, 0.5) s, then at random in the upper half of
    min(4, 0.5 * 2 ** (attempt - 1)) s; each attempt asks the server's health, then opens the
    websocket again."""
    most = min(4.0, 0.5 * 2.0 ** (attempt - 1))
    least = 0.25 if attempt == 1 else most / 2
    return least + rng.random() * (most - least)


#: How long a page that reconnected or reloaded may take to show the class again.
BACK_WITHIN_S = 60.0


class ClassView(SessionView):
    """A SessionView that also keeps every widget's id by key, the fragment timers, and the
    class's numbers a page shows (the code, the teacher's count, the student's iteration).

    It also does what the app's cookie writer does in the browser: each ``mcts_lab_cookie``
    element (a components.v2 element: ``Element.bidi_component``, its data the JSON
    ``{"name", "value", "maxAge"}`` in ``bidi_component.json``) sets or deletes a cookie in
    ``script_cookies``, the browser's cookies that the page's script wrote (the session sends
    them with its next websocket: a reload, a reconnect)."""

    def __init__(
        self, url: str, query: str = "", script_cookies: dict[str, str] | None = None
    ) -> None:
        super().__init__(url, query)
        self.script_cookies = {} if script_cookies is None else script_cookies
        self.room_shown: list[float] = []  # times the room box or the count line arrived
        self.full_runs = 0  # whole-page runs finished (not a fragment's)
        self.full_keys: set[str] = set()  # what the last whole-page run drew (keys)
        self.full_at = 0.0  # when it finished
        self._run_keys: set[str] = set()
        self.ids: dict[str, tuple[str, str]] = {}  # widget key -> (id, fragment)
        self.submit = ("", "")  # the form's submit button
        self.timers: dict[str, float] = {}  # fragment id -> seconds between its reruns
        self.code = ""
        self.question = ("", 0)  # the question on screen: its text and round
        self.counts: list[tuple[float, int, int]] = []  # (time, round, answered)
        self.stats: list[tuple[float, int]] = []  # (time, iteration) on a student's page
        self.choices: list[str] = []
        self.levels: list[str] = []  # the confidence radio's labels as drawn (issue 33)
        self._now = 0.0

    def receive(self, data: bytes, at: float) -> None:
        self._now = at
        super().receive(data, at)

    def _new_session(self, msg: ForwardMsg) -> None:
        super()._new_session(msg)
        self._run_keys = set()

    def mark(self) -> Mark:
        return Mark(self.full_runs, self.finished_runs, len(self.room_shown))

    def _finished(self, status: int, at: float) -> None:
        full = not self.run_fragments
        super()._finished(status, at)
        if full and status in FINISHED_OK:
            self.full_runs += 1
            self.full_keys, self.full_at = self._run_keys, at

    def other(self, msg: ForwardMsg, at: float) -> None:
        kind = msg.WhichOneof("type")
        if kind == "auto_rerun":
            self.timers[msg.auto_rerun.fragment_id] = msg.auto_rerun.interval
        elif kind == "stop_auto_rerun":
            self.timers.clear()

    def _delta(self, msg: ForwardMsg) -> None:
        super()._delta(msg)
        delta = msg.delta
        if delta.WhichOneof("type") == "add_block" and delta.add_block.id:
            key = delta.add_block.id.rsplit("-", 1)[-1]
            self._run_keys.add(key)
            if key == "class_room":
                self.room_shown.append(self._now)
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
        self._run_keys.add(widget_id.rsplit("-", 1)[-1])
        if kind == "bidi_component" and proto.component_name.endswith(COOKIE_COMPONENT):
            self._set_cookie(proto.json)
        if kind == "button" and proto.is_form_submitter:
            self.submit = (widget_id, delta.fragment_id)
        self.ids[widget_id.rsplit("-", 1)[-1]] = (widget_id, delta.fragment_id)
        if kind == "radio" and widget_id.endswith("-class_answer"):
            self.choices = list(proto.options)
        if kind == "radio" and widget_id.endswith("-class_confidence"):
            self.levels = list(proto.options)

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
        if COUNT_LINE in body:
            self.room_shown.append(now)

    def _set_cookie(self, data: str) -> None:
        """What app/components/static/cookie.js does with the element's data: the cookie
        ``name=value`` (the value arrives URL-encoded) for ``maxAge`` seconds; 0 deletes it."""
        try:
            cookie = json.loads(data or "{}")
            name, value = cookie["name"], cookie["value"]
            age = int(float(cookie.get("maxAge") or 0))
        except (ValueError, TypeError, KeyError):
            return
        if not isinstance(name, str) or not isinstance(value, str):
            return
        if not COOKIE_NAME.fullmatch(name) or not COOKIE_VALUE.fullmatch(value):
            return
        if age > 0:
            self.script_cookies[name] = value
        else:
            self.script_cookies.pop(name, None)

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


@dataclass
class Mark:
    """Where a page's view was before a new connection (what came after is the new one's)."""

    full_runs: int
    finished_runs: int
    room_shown: int


@dataclass
class Drop:
    """A page whose connection dropped (its replica was killed), and how it came back."""

    who: str  # "teacher" or "student N"
    at: float  # loop time the connection dropped
    back: float | None = None  # loop time its page showed the class again (None: never)
    rejoined: bool = False  # a student's page had lost its place and joined again


class PageGone(Exception):
    """The page's connection dropped while it sent: the click was lost (as a browser's is)."""


class NotDrawn(Exception):
    """The widget to change is not on the page now: nothing was sent."""


class ClassSession(WsSession):
    """A WsSession over a ClassView that keeps the page's fragment timers running.

    With ``reconnect`` (the fault runs), a connection that drops is opened again as Streamlit's
    page does: :func:`reconnect_delay` later, the same address and cookies (no page load), a rerun
    with the widget states the page holds; the server's new session draws the page again.
    ``up`` is set while the page is connected and drawn (clicks wait for it)."""

    view: ClassView
    #: Fragment timer reruns sent by every session so far (the idle window's polls).
    timer_reruns = 0

    def __init__(self, url: str, query: str, wait_for: str, who: str = "") -> None:
        super().__init__(url, query)
        self.view = ClassView(url, query)
        self.wait_for = wait_for  # a widget key the first screen draws
        self.timer_task: asyncio.Task[None] | None = None
        self.who = who
        self.reconnect = False
        self.up = asyncio.Event()
        self.drops: list[Drop] = []
        self.rescue: asyncio.Task[None] | None = None
        self.drawn_at = 0.0  # loop time a reload's page had finished its run

    def ready(self) -> bool:
        return self.view.finished_runs > 0 and (
            self.wait_for in self.view.ids or self.view.submit[0] != ""
        )

    async def open(self, timeout: float) -> None:
        await super().open(timeout)
        self.up.set()
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
                if not self.up.is_set():
                    continue  # (a page reconnecting: its timers start again with its new run)
                due[fragment] = now + every
                msg = self.view.rerun_message(fragment=fragment)
                msg.rerun_script.is_auto_rerun = True
                try:
                    await self._send(msg)
                except Exception:  # (the connection dropped: the reconnect takes over)
                    continue
                ClassSession.timer_reruns += 1

    async def _click(self, msg: Any) -> None:
        try:
            await self._send(msg)
        except Exception as exc:
            if not self.reconnect:
                raise
            raise PageGone(str(exc)) from exc

    async def press(self, key: str) -> float:
        await self.up.wait()
        widget_id, fragment = self.view.ids[key]
        sent = asyncio.get_running_loop().time()
        await self._click(self.view.rerun_message(widget_id, fragment))
        return sent

    async def change(self, key: str, **value: Any) -> float:
        await self.up.wait()
        found = self.view.ids.get(key)
        if found is None or found[0] not in self.view.widgets:
            raise NotDrawn(key)  # (its page was drawn again without it: a reconnect, a reveal)
        self.view.set_value(key, **value)
        sent = asyncio.get_running_loop().time()
        await self._click(self.view.rerun_message(fragment=self.view.ids[key][1]))
        return sent

    async def close(self) -> None:
        self.closed_by_us = True
        for task in (self.timer_task, self.rescue):
            if task is not None:
                task.cancel()
                await asyncio.gather(task, return_exceptions=True)
        await super().close()

    # -------------------------------------------------------- a dropped page comes back

    def jar(self) -> dict[str, str]:
        """The cookies the browser sends: the server's (the page load's) and the page's own."""
        return {**self.cookies, **self.view.script_cookies}

    async def _dial(self, timeout: float) -> None:
        """Open the websocket again with the browser's cookies, and ask for the page's run
        (the message Streamlit's page sends when it is connected: its query string and the
        widget states it holds)."""
        from websockets.asyncio.client import connect

        jar = self.jar()
        parts = urllib.parse.urlsplit(self.url)
        scheme = "wss" if parts.scheme == "https" else "ws"
        cookie = "; ".join(f"{name}={value}" for name, value in jar.items())
        self.closed_by_us = False
        self.ws = await connect(
            f"{scheme}://{parts.netloc}{parts.path.rstrip('/')}/_stcore/stream",
            subprotocols=["streamlit", jar.get("_streamlit_xsrf") or "PLACEHOLDER_AUTH_TOKEN"],  # type: ignore[list-item]
            origin=f"{parts.scheme}://{parts.netloc}",  # type: ignore[arg-type]
            additional_headers={"Cookie": cookie} if cookie else None,
            max_size=None,
            open_timeout=timeout,
            **self.connect_options,
        )
        self.reader = asyncio.create_task(self._read())
        await self._send(self.view.rerun_message())

    async def _read(self) -> None:
        await super()._read()
        if self.closed_by_us or not self.reconnect:
            return
        # a drop is counted apart (Drop); an error only when the page does not come back
        errors = self.view.errors
        if errors and (errors[-1].startswith("connection lost") or
                       errors[-1] == "the server closed the connection"):  # fmt: skip
            errors.pop()
        self.up.clear()
        if self.rescue is None or self.rescue.done():
            self.rescue = asyncio.create_task(self._reconnect())

    async def _reconnect(self) -> None:
        loop = asyncio.get_running_loop()
        drop = Drop(self.who, loop.time())
        self.drops.append(drop)
        last, attempt = "", 0
        rng = random.Random(f"{self.who} {len(self.drops)}")  # (each page and drop its own)
        while not self.closed_by_us:
            attempt += 1
            await asyncio.sleep(reconnect_delay(attempt, rng))
            try:
                mark = self.view.mark()
                await self._dial(timeout=10)
                back = await self._came_back(drop, mark, loop.time() + BACK_WITHIN_S)
                if back is not None:
                    drop.back = back
                    self.up.set()
                    return
                if self.reader is not None and not self.reader.done():
                    self.view.errors.append(f"{self.who}'s page reconnected without the class")
                    self.up.set()  # (connected: the page is what it is)
                    return
                last = "the connection dropped again"
            except Exception as exc:  # refused, a 502 from nginx, a timeout: try again
                last = f"{type(exc).__name__}: {str(exc)[:60]}"
            if loop.time() - drop.at > RECONNECT_FOR_S:
                self.view.errors.append(f"{self.who} did not reconnect: {last}")
                return

    async def _came_back(self, drop: Drop, mark: Mark, deadline: float) -> float | None:
        """When the reconnected page showed its screen again (loop time), or None; ``mark``:
        the view before the new connection."""
        if not await self._whole_run(mark.full_runs, deadline):
            return None
        return self.view.full_at

    async def _whole_run(self, runs: int, deadline: float) -> bool:
        """Wait until a whole-page run after ``runs`` finished (False: the time ran out or the
        connection dropped again)."""
        loop = asyncio.get_running_loop()
        reader = self.reader
        done = await _until(lambda: self.view.full_runs > runs or reader is None or reader.done(),
                            max(0.0, deadline - loop.time()))  # fmt: skip
        return done and self.view.full_runs > runs


class StudentSession(ClassSession):
    """A student's page: after a reconnect it finds its place in the class from the student
    cookie the page wrote at the join (``mcts_lab_student``, in :meth:`ClassSession.jar`:
    app/classroom/student/me.py's ``find_me``); a page that lost it shows the join form, and
    the student joins again (``Drop.rejoined``)."""

    async def _came_back(self, drop: Drop, mark: Mark, deadline: float) -> float | None:
        view = self.view
        if not await self._whole_run(mark.full_runs, deadline):
            return None
        if "class_explore" in view.full_keys:
            return view.full_at
        if view.submit[0] and "class_code" in view.full_keys:  # the join form: join again
            drop.rejoined = True
            runs = view.full_runs
            await self._send(view.rerun_message(*view.submit))
            while await self._whole_run(runs, deadline):
                if "class_explore" in view.full_keys:
                    return view.full_at
                runs = view.full_runs
        return None

    def in_class(self) -> bool:
        """Whether the page is connected and shows the class (not the join form)."""
        return self.up.is_set() and "class_explore" in self.view.full_keys


class TeacherSession(ClassSession):
    """The teacher's page. After a reconnect its new session takes the class back from the
    teacher cookie the websocket carries (app/classroom/teacher/'s ``resume_once``): back
    when the room box shows. ``reload()`` is the browser's reload (F5)."""

    async def _came_back(self, drop: Drop, mark: Mark, deadline: float) -> float | None:
        return await self._room_back(self.view, mark, deadline)

    async def _room_back(self, view: ClassView, mark: Mark, deadline: float) -> float | None:
        """When ``view`` showed the room box (or the count line) after ``mark``, once a run
        finished after it (its buttons drawn), or None."""
        loop = asyncio.get_running_loop()
        reader, shown = self.reader, mark.room_shown
        ok = await _until(lambda: (len(view.room_shown) > shown and not view.running
                                   and view.finished_runs > mark.finished_runs
                                   and "class_reveal" in view.ids)
                          or reader is None or reader.done(),
                          max(0.0, deadline - loop.time()))  # fmt: skip
        if not ok or len(view.room_shown) <= shown:
            return None
        return view.room_shown[shown]

    async def reload(self, timeout: float) -> tuple[float, float | None]:
        """The teacher's browser reloads the page: the websocket closes, the page loads again
        from the same address with the browser's cookies (nginx's routing cookie, the teacher
        cookie the page's script wrote), a fresh page opens its websocket. Returns (the loop
        time the reload began, the loop time the room box showed again or None). ``up`` stays
        clear: the caller looks at the class first."""
        loop = asyncio.get_running_loop()
        self.up.clear()
        began = loop.time()
        self.closed_by_us = True  # (no reconnect: the page goes away)
        if self.ws is not None:
            await self.ws.close()
        if self.reader is not None:
            await asyncio.gather(self.reader, return_exceptions=True)
        old = self.view
        address = self.url.rstrip("/") + "/" + (f"?{old.query_string}" if old.query_string else "")
        self.cookies = await asyncio.to_thread(load_page, address, self.jar())
        self.cookies = {k: v for k, v in self.cookies.items() if k not in old.script_cookies}
        view = ClassView(self.url, old.query_string, old.script_cookies)
        view.counts, view.errors, view.code = old.counts, old.errors, old.code  # (the run's)
        self.view = view
        try:
            await self._dial(timeout)
        except Exception as exc:
            view.errors.append(f"the teacher's reload did not connect: {exc}")
            return began, None
        room = await self._room_back(view, Mark(0, 0, 0), loop.time() + timeout)
        if room is None:
            view.errors.append("the teacher's page did not show the room box after a reload")
        self.drawn_at = loop.time()  # (its run finished: the buttons are there)
        return began, room


def load_page(address: str, jar: dict[str, str]) -> dict[str, str]:
    """The browser loads ``address`` with its cookies (``jar``); returns the jar with the
    cookies the answer sets (nginx's routing cookie stays: the same replica)."""
    cookie = "; ".join(f"{name}={value}" for name, value in jar.items())
    request = urllib.request.Request(address, headers={"Cookie": cookie} if cookie else {})
    out = dict(jar)
    with urllib.request.urlopen(request, timeout=60) as page:
        page.read()
        for line in page.headers.get_all("Set-Cookie") or []:
            name, _, rest = line.partition("=")
            if name.strip():
                out[name.strip()] = rest.split(";", 1)[0]
    return out


async def _at(when: float, work: Any) -> None:
    """Run the coroutine ``work`` at loop time ``when``."""
    await asyncio.sleep(max(0.0, when - asyncio.get_running_loop().time()))
    await work


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
    #: the tap went into a connection that was dropping (its replica killed): no server got
    #: it; the page holds it and sends it with its reconnect's first run, as a browser does
    dropped: bool = False
    who: str = ""  # the page ("student N"), to find its drops
    tag: str = ""  # the round's tag at the end of the label sent (app/classroom/student/answer.py)
    #: seconds until the page showed the answer chosen (None: not within ANSWER_SHOWN_S; the
    #: student, seeing the round still unanswered, answers again)
    shown_s: float | None = None


@dataclass
class Confidence:
    student: str  # the student's id in the class
    level: int  # the index of the level in app.classroom.core.peer.CONFIDENCE
    question: tuple[str, int]  # the question and round on the student's screen
    sent: float  # epoch seconds


@dataclass
class ClassRun:
    students: int
    seconds: float
    code: str = ""
    steps: list[tuple[float, int]] = field(default_factory=list)  # (sent, iteration it makes)
    polls: list[float] = field(default_factory=list)  # epoch s the teacher opened a poll
    answers: list[Answer] = field(default_factory=list)
    step_latency: list[float] = field(default_factory=list)
    step_first: list[float] = field(default_factory=list)  # each Step's first student screen
    step_teacher: list[float] = field(default_factory=list)  # each Step on the teacher's screen
    count_latency: list[float] = field(default_factory=list)
    #: the same, of the Steps and answers whose wait overlapped no fault window
    step_clear: list[float] = field(default_factory=list)
    count_clear: list[float] = field(default_factory=list)
    #: (start, end) in the loop's clock: a replica's kill until its last dropped page was back,
    #: a teacher's reload until the room box was back
    windows: list[tuple[float, float]] = field(default_factory=list)
    recorded: int = 0
    late: int = 0
    missing: int = 0
    errors: list[str] = field(default_factory=list)
    idle: tuple[float, float] | None = None  # (the replicas' CPU seconds, wall seconds) idle
    idle_polls: int = 0  # the fragment timer reruns sent in that window (the teacher's too)
    faults: Faults | None = None  # the fault flags (None: no fault)
    resent: int = 0  # answers not kept, sent again later by the same student to the same round
    reloads: list[dict[str, Any]] = field(default_factory=list)  # one per --teacher-reload
    restarts: list[dict[str, Any]] = field(default_factory=list)  # one per --restart-replica
    drops: list[Drop] = field(default_factory=list)  # every page whose connection dropped
    lost: list[str] = field(default_factory=list)  # students not in the class at the end
    confidences: list[Confidence] = field(default_factory=list)  # sent with the answers
    confidences_kept: int = 0  # of those, in the store with the answer's round
    lost_taps: int = 0  # "I'm lost" presses sent
    dropped_kept: int = 0  # answers tapped into a dropping connection that the store kept
    #: each resent answer: when it was sent and when its page dropped and came back
    resent_samples: list[str] = field(default_factory=list)
    #: (the replicas' CPU seconds, wall seconds) from the lesson's start to its last screen
    lesson_cpu: tuple[float, float] | None = None


@dataclass
class Faults:
    """The fault flags: teacher reloads and replica restarts, at seconds of the lesson."""

    reloads: list[float] = field(default_factory=list)
    restarts: list[float] = field(default_factory=list)
    which: str = "teacher"  # the replica killed: the teacher's, or the other one
    run_dir: Path | None = None  # run_replicas.py's run directory (the replicas' pid files)

    def __bool__(self) -> bool:
        return bool(self.reloads or self.restarts)


async def _teacher_lesson(teacher: ClassSession, run: ClassRun, until: float) -> None:
    """The teacher's 20 s cycles: quiz on (a question opens), the class answers for 8 s,
    Reveal (it steps; the quiz asks its next question), quiz off, Step every 2 s.

    The page may be reloaded or reconnect meanwhile (the fault flags): each click waits for
    the page to be back (``teacher.view`` is then the new page's), and a click its dropping
    connection lost is made again on the page that came back, as a teacher would."""
    loop = asyncio.get_running_loop()

    async def again(click: Any) -> float:
        for _ in range(3):
            try:
                sent: float = await click()
                return sent
            except PageGone:
                await teacher.up.wait()
        raise PageGone("the teacher's page kept dropping")

    def page() -> tuple[ClassView, int]:  # the page now (a reload or a drop makes another)
        return teacher.view, len(teacher.drops)

    def shows(before: int) -> bool:
        return (teacher.view.iteration or 0) > before

    async def step(key: str) -> None:
        for _ in range(3):
            before, on = teacher.view.iteration or 0, page()
            sent = await again(lambda: teacher.press(key))
            await _until(lambda: shows(before) or page() != on, 15)  # noqa: B023
            shown = [t for t, n in teacher.view.shown if t >= sent and n > before]
            if page() == on and shown:
                run.step_teacher.append(min(shown) - sent)  # (its run finished)
            if page() == on or shows(before):
                break
            # the page was reloaded or dropped with the click on its way: when it is back, the
            # teacher sees whether the Step is there, and clicks again if not
            await teacher.up.wait()
            await _until(lambda: not teacher.view.running, 5)
            if shows(before):
                break
        run.steps.append((sent, before + 1))
        if not shows(before):
            run.errors.append(f"the teacher's {key} did not show")

    async def quiz(on: bool) -> None:
        await again(lambda: teacher.change("quiz", bool_value=on))

    try:
        while loop.time() + CYCLE_S <= until + 0.5:
            cycle = loop.time()
            await quiz(True)
            run.polls.append(time.time())
            await asyncio.sleep(max(0.0, cycle + ANSWER_WINDOW_S - loop.time()))
            run.polls.append(time.time())  # Reveal: the quiz asks its next question in that run
            await step("class_reveal")
            await quiz(False)
            at = cycle + ANSWER_WINDOW_S + STEP_EVERY_S
            while at < cycle + CYCLE_S - 0.5:
                await asyncio.sleep(max(0.0, at - loop.time()))
                await step("step")
                at += STEP_EVERY_S
            await asyncio.sleep(max(0.0, cycle + CYCLE_S - loop.time()))
    except (KeyError, PageGone) as exc:  # (a page that came back without its buttons)
        run.errors.append(f"the teacher's lesson stopped: {type(exc).__name__} {exc}")


async def _student(
    url: str, code: str, number: int, rng: random.Random, run: ClassRun, lesson: Lesson
) -> StudentSession | None:
    """Join, then answer every question a few seconds after it shows, until the lesson ends."""
    session = StudentSession(url, f"class={code}", "class_code", who=f"student {number}")
    session.reconnect = lesson.reconnect
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
    await lesson.go.wait()
    while not lesson.over.is_set():
        await asyncio.sleep(0.1)
        if not view.unanswered() or view.running or not session.up.is_set():
            continue
        await asyncio.sleep(rng.uniform(*ANSWER_DELAY_S))  # reading the question
        if not view.unanswered() or lesson.over.is_set() or not session.up.is_set():
            continue
        # the student's place (a page that joined again after a reconnect has a new one)
        me = dict(p.split("=", 1) for p in view.query_string.split("&") if "=" in p).get("me")
        if me is None:
            continue
        choice = rng.randrange(len(view.choices))  # the label as drawn is what a browser sends
        question, label, runs = view.question, view.choices[choice], view.finished_runs
        tag = label[-ROUND_TAG_CHARS:]  # (the round's invisible tag the page's labels end with)
        try:
            await session.change("class_answer", string_value=label)
        except PageGone:  # the connection dropped as it was sent: the page holds the tap
            run.answers.append(Answer(me, choice, time.time(), question, True, session.who, tag))
            continue
        except NotDrawn:
            continue
        answer = Answer(me, choice, time.time(), question, who=session.who, tag=tag)
        run.answers.append(answer)
        # shown: the server's run after the answer finished with the answer still chosen
        if await _until(lambda: view.finished_runs > runs and not view.unanswered(),  # noqa: B023
                        ANSWER_SHOWN_S):  # fmt: skip
            answer.shown_s = round(time.time() - answer.sent, 2)
        # how sure (issue 33): a level, a second after the answer, as a phone's second tap
        await asyncio.sleep(rng.uniform(*CONFIDENCE_DELAY_S))
        if view.levels and not lesson.over.is_set() and session.up.is_set():
            level = rng.randrange(len(view.levels))
            try:
                await session.change("class_confidence", string_value=view.levels[level])
            except (PageGone, NotDrawn):
                continue
            run.confidences.append(Confidence(me, level, view.question, time.time()))
        if rng.random() < LOST_SHARE and "class_lost" in view.ids and session.up.is_set():
            with contextlib.suppress(PageGone):
                await session.press("class_lost")  # "I'm lost", on some questions
                run.lost_taps += 1
    return session


@dataclass
class Lesson:
    go: asyncio.Event = field(default_factory=asyncio.Event)
    over: asyncio.Event = field(default_factory=asyncio.Event)
    arrived: int = 0  # students joined or failed
    reconnect: bool = False  # a page whose connection drops reconnects (the fault runs)


def _step_latencies(run: ClassRun, views: list[ClassView]) -> list[tuple[float, float]]:
    """Each Step on each student's screen: (the click's loop time, seconds until shown)."""
    out = []
    for view in views:
        for sent, iteration in run.steps:
            shown = [t for t, n in view.stats if t >= sent and n >= iteration]
            if shown:
                out.append((sent, min(shown) - sent))
            else:
                view.errors.append(f"step to iteration {iteration} never shown")
    return out


def _count_latencies(
    run: ClassRun, counts: list[tuple[float, int, int]]
) -> list[tuple[float, float]]:
    """Answer k (by send time) of a poll is in the count when the count first shows >= k
    answers after it was sent, before the next poll opened: (its loop time, seconds)."""
    out = []
    offset = time.time() - asyncio.get_event_loop().time()  # epoch -> the loop's clock
    edges = [*run.polls, float("inf")]
    for start, end in zip(edges, edges[1:], strict=False):
        sent = sorted(a.sent - offset for a in run.answers if start <= a.sent < end)
        seen = [(t, n) for t, _, n in counts if start - offset <= t < end - offset + 1.0]
        for k, at in enumerate(sent, start=1):
            later = [t for t, n in seen if t >= at and n >= k]
            if later:
                out.append((at, min(later) - at))
    return out


def _clear(run: ClassRun, waits: list[tuple[float, float]]) -> list[float]:
    """The waits (start, seconds) that overlapped no fault window of ``run``."""
    return [w for at, w in waits if not any(a <= at + w and at <= b for a, b in run.windows)]


def _compare_store(run: ClassRun, store_url: str) -> None:
    """Every answer sent must be in the store, in the round the student's screen showed. One
    that is not is "late" when the teacher had closed that round before it was sent or within
    LATE_S after (the student's screen was behind, or the answer reached a busy replica after
    the close): the room drops an answer to a closed round quietly, as a clicker would. Any
    other is missing; in the fault runs, one the same student sent again later to the same
    round is "resent" (a replica killed with the answer on its way: the page that came back
    showed the round unanswered, and the student answered again)."""
    from app.classroom.student.answer import round_tag  # (Streamlit's page module)

    store = open_store(store_url)
    try:
        polls = store.polls(run.code)
        for number, answer in enumerate(run.answers):
            opened = [p for p in polls if p.opened <= answer.sent]
            shown = [p for p in opened if (p.text, p.round) == answer.question]
            # the round the label named (two questions may read the same, one after the other)
            tagged = [p for p in shown if round_tag(p) == answer.tag]
            poll = tagged[-1] if tagged else shown[-1] if shown else None
            kept = store.answers(run.code, poll.id, poll.round) if poll else {}
            if poll is not None and kept.get(answer.student) == poll.choices[answer.choice]:
                run.recorded += 1
                run.dropped_kept += answer.dropped
            elif poll is not None and (
                opened[-1] is not poll or _closed_by(run.polls, poll.opened, answer.sent + LATE_S)
            ):
                run.late += 1
            elif run.faults and any(a.student == answer.student and a.question == answer.question
                                    for a in run.answers[number + 1:]):  # fmt: skip
                run.resent += 1
                run.resent_samples.append(_resent_sample(run, answer))
            else:
                run.missing += 1
                run.errors.append(
                    f"answer missing: {answer.choice!r} at {answer.sent:.2f}, round "
                    f"{poll and (poll.id, poll.round, round(poll.opened, 2))}, the store has "
                    f"{kept.get(answer.student)!r}"
                )
        for given in run.confidences:  # each confidence with its answer's round
            opened = [p for p in polls if p.opened <= given.sent]
            shown = [p for p in opened if (p.text, p.round) == given.question]
            if shown:
                levels = store.confidences(run.code, shown[-1].id, shown[-1].round)
                if levels.get(given.student) == CONFIDENCE[given.level]:
                    run.confidences_kept += 1
    finally:
        store.close()


def _resent_sample(run: ClassRun, answer: Answer) -> str:
    """A resent answer told with its page's drops, in seconds from its sending (a drop at -0.3
    came 0.3 s before it; loop times turned into epoch seconds)."""
    offset = time.time() - asyncio.get_event_loop().time()
    drops = [
        f"dropped {d.at + offset - answer.sent:+.2f}, back "
        + ("never" if d.back is None else f"{d.back + offset - answer.sent:+.2f}")
        for d in run.drops
        if d.who == answer.who
    ]
    shown = "never shown" if answer.shown_s is None else f"shown after {answer.shown_s:g} s"
    return f"{answer.who}: {', '.join(drops) or 'its page never dropped'}; {shown}"


def _closed_by(closes: list[float], opened: float, until: float) -> bool:
    """Whether the teacher closed the round opened at ``opened`` (opened the next one) before
    ``until``: an answer sent up to LATE_S before that may reach a busy replica after it."""
    return any(opened < at <= until for at in closes)


# ------------------------------------------------------------------ the faults


@dataclass
class OpenRound:
    """The class's open round as the store has it."""

    id: str
    round: int
    revealed: bool
    answers: dict[str, str]


def _open_round(store_url: str, code: str) -> OpenRound | None:
    """The class's current round and its answers (None: no question asked yet)."""
    store = open_store(store_url)
    try:
        poll = store.current_poll(code)
        if poll is None:
            return None
        return OpenRound(poll.id, poll.round, poll.revealed,
                         store.answers(code, poll.id, poll.round))  # fmt: skip
    finally:
        store.close()


async def _reload_fault(teacher: TeacherSession, run: ClassRun, store: str, second: float) -> None:
    """--teacher-reload: the teacher's browser reloads the page at ``second`` of the lesson.
    Measured: the seconds until the room box shows again; whether the open round stayed open
    with every answer it had (the store before the reload and when the box is back), and what
    the count line says then."""
    before = await asyncio.to_thread(_open_round, store, run.code)
    began, room = await teacher.reload(timeout=BACK_WITHIN_S)
    run.windows.append((began, room if room is not None else began + BACK_WITHIN_S))
    after = await asyncio.to_thread(_open_round, store, run.code)
    teacher.up.set()  # the teacher's lesson goes on with the page that came back
    row: dict[str, Any] = {
        "at_s": second,
        "room_box_s": None if room is None else round(room - began, 2),
        "page_drawn_s": None if room is None else round(teacher.drawn_at - began, 2),
    }
    if before is None or before.revealed:
        row["question_open"] = False
    else:
        kept = sum(1 for who, choice in before.answers.items()
                   if after is not None and after.answers.get(who) == choice)  # fmt: skip
        same = after is not None and (after.id, after.round) == (before.id, before.round)
        count = next(((r, n) for t, r, n in teacher.view.counts if t >= began), None)
        row.update(
            question_open=True,
            question_kept=same and after is not None and not after.revealed,
            answers_at_reload=len(before.answers),
            answers_kept=kept,
            answers_after=len(after.answers) if same and after is not None else 0,
            count_line_after=None if count is None else f"round {count[0]}: {count[1]} answered",
        )
    run.reloads.append(row)


def _replica_of(url: str, jar: dict[str, str]) -> str:
    """The replica nginx routes these cookies to (its X-Replica header: 127.0.0.1:PORT)."""
    cookie = "; ".join(f"{name}={value}" for name, value in jar.items())
    request = urllib.request.Request(url.rstrip("/") + "/_stcore/health",
                                     headers={"Cookie": cookie})  # fmt: skip
    with urllib.request.urlopen(request, timeout=30) as answer:
        answer.read()
        return str(answer.headers.get("X-Replica", ""))


def _replica_back(run_dir: Path, port: int, killed: int, timeout: float) -> float | None:
    """Seconds until run_replicas.py started replica PORT again (a new pid in its pid file)
    and it answers its health check; None after ``timeout``."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        with contextlib.suppress(OSError, ValueError):
            pid = int((run_dir / f"replica-{port}.pid").read_text())
            if pid != killed:
                url = f"http://127.0.0.1:{port}/_stcore/health"
                with urllib.request.urlopen(url, timeout=2) as answer:
                    if answer.status == 200:
                        return time.monotonic() - start
        time.sleep(0.2)
    return None


async def _restart_fault(faults: Faults, teacher: TeacherSession, run: ClassRun,
                         second: float) -> None:  # fmt: skip
    """--restart-replica: at ``second`` of the lesson one replica (the teacher's, or with
    --restart-which other the other one) is killed with SIGKILL; run_replicas.py's supervisor
    starts it again (it looks every 5 s). The pages on it reconnect (ClassSession)."""
    assert faults.run_dir is not None
    loop = asyncio.get_running_loop()
    ports = sorted(int(path.stem.split("-", 1)[1]) for path in faults.run_dir.glob("replica-*.pid"))
    teachers = await asyncio.to_thread(_replica_of, teacher.url, teacher.jar())
    mine = int(teachers.rsplit(":", 1)[1]) if ":" in teachers else ports[0]
    port = mine if faults.which == "teacher" else next((p for p in ports if p != mine), mine)
    pid = int((faults.run_dir / f"replica-{port}.pid").read_text())
    os.kill(pid, signal.SIGKILL)
    row: dict[str, Any] = {"at_s": second, "replica": f"127.0.0.1:{port}",
                           "teacher_on_it": port == mine, "_killed": loop.time()}  # fmt: skip
    run.restarts.append(row)
    back = await asyncio.to_thread(_replica_back, faults.run_dir, port, pid, 180.0)
    row["replica_back_s"] = None if back is None else round(back, 1)


def _fault_results(run: ClassRun, teacher: TeacherSession, students: list[StudentSession]) -> None:
    """The pages that dropped, per replica restart: how many came back, how soon (from the
    drop to the page showing the class again: the student's page, the teacher's room box),
    how many joined again; and the students not in the class at the end."""
    run.drops = [d for s in [teacher, *students] for d in s.drops]
    run.lost = [s.who for s in students if not s.in_class()]
    kills = sorted(row["_killed"] for row in run.restarts)
    for row in run.restarts:
        killed = row.pop("_killed")
        later = [k for k in kills if k > killed]
        until = later[0] if later else float("inf")
        drops = [d for d in run.drops if killed <= d.at < until]
        back = [d.back - d.at for d in drops if d.back is not None]
        run.windows.append((killed, max([d.back for d in drops if d.back is not None],
                                        default=killed)))  # fmt: skip
        teacher_back = [d.back - d.at for d in drops if d.who == "teacher" and d.back is not None]
        row.update(
            pages_dropped=len(drops),
            teacher_dropped=any(d.who == "teacher" for d in drops),
            teacher_room_box_s=round(teacher_back[0], 2) if teacher_back else None,
            reconnected=len(back),
            rejoined=sum(d.rejoined for d in drops),
            not_back=len(drops) - len(back),
            reconnect_s=_percentiles(back, (50, 95, 100), 2),
        )


def _rounded(value: float, digits: int = 2) -> float | None:
    return None if math.isnan(value) else round(value, digits)


def _percentiles(
    values: list[float], qs: tuple[int, ...] = (50, 95), digits: int = 3
) -> dict[str, float | None]:
    """``{"p50": ..., "p95": ...}`` of ``values``, rounded (None: no values)."""
    return {f"p{q}": _rounded(percentile(values, q), digits) for q in qs}


async def one_class(
    url: str,
    students: int,
    seconds: float,
    store: str,
    seed: int,
    idle: float = 0.0,
    cpu_seconds: Any = None,
    faults: Faults | None = None,
) -> ClassRun:
    """One class; with ``idle``, first that many seconds of the joined class sitting still
    (no Step, no question: only the students' pages polling), the replicas' CPU measured by
    ``cpu_seconds()`` over it; with ``faults``, the teacher's reloads and the replica restarts
    at their seconds of the lesson."""
    run = ClassRun(students, seconds, faults=faults or None)
    loop = asyncio.get_running_loop()
    teacher = TeacherSession(url, "", "step", who="teacher")
    teacher.reconnect = bool(faults)
    await teacher.open(timeout=120)
    await teacher.press("class_start")
    started = ("class_reveal", "class_join_toggle")  # (the room box's: drawn by the same run)
    if not await _until(lambda: bool(teacher.view.code) and not teacher.view.running
                        and all(key in teacher.view.ids for key in started), 60):  # fmt: skip
        raise RuntimeError("the class did not start")
    run.code = teacher.view.code
    await teacher.press("class_join_toggle")  # the join box hidden: the tree in its place
    lesson = Lesson(reconnect=bool(faults))
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
    start, chaos = loop.time(), []
    lesson_cpu = cpu_seconds() if cpu_seconds is not None else None
    if faults:
        for second in faults.reloads:
            chaos.append(_at(start + second, _reload_fault(teacher, run, store, second)))
        for second in faults.restarts:
            chaos.append(_at(start + second, _restart_fault(faults, teacher, run, second)))
    chaos_tasks = [asyncio.create_task(c) for c in chaos]
    await _teacher_lesson(teacher, run, loop.time() + seconds)
    await asyncio.sleep(6.0)  # the last step and answers reach every screen
    if lesson_cpu is not None:
        run.lesson_cpu = (cpu_seconds() - lesson_cpu, loop.time() - start)
    if chaos_tasks:  # a replica still coming back: wait for it
        await asyncio.gather(*chaos_tasks)
    lesson.over.set()
    sessions = [s for s in await asyncio.gather(*tasks) if s is not None]
    if faults:  # a page still reconnecting: wait for it (it comes back or gives up)
        rescues = [t for s in [teacher, *sessions] if (t := s.rescue) is not None]
        if rescues:
            await asyncio.wait(rescues, timeout=RECONNECT_FOR_S + BACK_WITHIN_S)
        _fault_results(run, teacher, sessions)
    views = [s.view for s in sessions]
    steps = _step_latencies(run, views)
    counted = _count_latencies(run, teacher.view.counts)
    run.step_latency, run.step_clear = [w for _, w in steps], _clear(run, steps)
    firsts: dict[float, float] = {}
    for sent, wait in steps:  # each Step's first screen: its fixed part (the teacher's run,
        firsts[sent] = min(wait, firsts.get(sent, wait))  # the publish, the watcher's look)
    run.step_first = list(firsts.values())
    run.count_latency, run.count_clear = [w for _, w in counted], _clear(run, counted)
    run.errors += [e for v in views for e in v.errors] + teacher.view.errors
    if teacher.up.is_set() and "class_end" in teacher.view.ids:  # (a page that came back)
        await teacher.press("class_end")  # End asks first: then End now
        for _ in range(50):
            if "class_end_confirm" in teacher.view.ids:
                await teacher.press("class_end_confirm")
                break
            await asyncio.sleep(0.1)
    await asyncio.sleep(1.0)
    await asyncio.gather(*(s.close() for s in sessions), teacher.close())
    _compare_store(run, store)
    return run


# ------------------------------------------------------------------ replicas and the report


@contextlib.contextmanager
def replicas(store: str, run_dir: Path, count: int = 2) -> Any:
    """deploy/run_replicas.py with ``count`` replicas on free ports; yields (url, store URL,
    pids)."""
    port, first, redis_port = _free_port(), _free_port(), _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    url_of_store = f"redis://127.0.0.1:{redis_port}/0"
    if store == "sqlite":
        url_of_store = f"sqlite:///{run_dir}/classes.db"
        env["MCTS_LAB_STORE"] = url_of_store
    command = [sys.executable, str(ROOT / "deploy" / "run_replicas.py"), "--replicas", str(count),
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
        ports = range(first, first + count)
        pids = [int((run_dir / f"replica-{p}.pid").read_text()) for p in ports]
        yield f"http://127.0.0.1:{port}", url_of_store, pids
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()


class ReplicaMeter(ProcessMeter):
    """A replica's ProcessMeter that follows its pid file: after a restart (--restart-replica)
    it reads the new process, its CPU added to what the killed one had used by its last
    reading (the RSS is the new process's; 0 while none runs). Without a restart, ProcessMeter."""

    def __init__(self, pid: int, run_dir: Path) -> None:
        super().__init__(pid)
        self.pid_file = next((path for path in run_dir.glob("replica-*.pid")
                              if path.read_text().strip() == str(pid)), None)  # fmt: skip
        self.base = self.last = 0.0
        self.peak_mb = 0.0  # the highest RSS a reading saw (reset by the caller)
        self._lock = threading.RLock()  # (read by the sampler's thread and the main one)

    def sample(self) -> None:
        """One reading: a killed process's CPU is known only up to its last reading, so the
        sampler reads every replica twice a second during a class."""
        with self._lock:
            self.cpu_seconds()
            self.peak_mb = max(self.peak_mb, self.rss_mb())

    def _follow(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            pid = int(self.pid_file.read_text()) if self.pid_file else self.pid
            if pid != self.pid:
                self.pid, self.base, self.last = pid, self.base + self.last, 0.0

    def cpu_seconds(self) -> float:
        with self._lock:
            self._follow()
            with contextlib.suppress(OSError, IndexError, ValueError):
                self.last = super().cpu_seconds()
            return self.base + self.last

    def rss_mb(self) -> float:
        self._follow()
        try:
            return super().rss_mb()
        except (OSError, RuntimeError):
            return 0.0


@contextlib.contextmanager
def sampling(meters: list[ReplicaMeter], every: float = 0.5) -> Any:
    """Read every meter each ``every`` seconds in a thread while the block runs."""
    done = threading.Event()

    def loop() -> None:
        while not done.wait(every):
            for meter in meters:
                meter.sample()

    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def spread(run_dir: Path) -> dict[str, int]:
    """Websockets per replica, from nginx's access log (one line each, written at close)."""
    counts: dict[str, int] = {}
    log = run_dir / "access.log"
    for line in log.read_text().splitlines() if log.exists() else []:
        if "/_stcore/stream" in line and (found := re.search(r"replica=(.*?) route=", line)):
            # (a connection nginx tried on a replica that was down lists both: the last served)
            served = found.group(1).split(", ")[-1]
            counts[served] = counts.get(served, 0) + 1
    return counts


def summary(run: ClassRun) -> dict[str, Any]:
    sent = run.recorded + run.late + run.missing + run.resent  # (resent: only with faults)
    return {
        "students": run.students,
        "seconds": run.seconds,
        "steps": len(run.steps),
        "questions": len(run.polls),
        "answers_sent": sent,
        "answers_recorded": run.recorded,
        "answers_late": run.late,
        "answers_missing": run.missing,
        "confidences_sent": len(run.confidences),
        "confidences_kept": run.confidences_kept,
        "lost_taps": run.lost_taps,
        "recorded_pct": round(100.0 * run.recorded / max(1, run.recorded + run.missing), 2),
        "step_to_screen_s": {
            f"p{q}": round(percentile(run.step_latency, q), 3) for q in (50, 95, 100)
        },  # fmt: skip
        "step_screens": len(run.step_latency),
        # the Step's first screen: what every student waits before the pages' runs queue
        "step_first_screen_s": _percentiles(run.step_first),
        # ... of which the teacher's own run: the click to the teacher's screen
        "step_teacher_screen_s": _percentiles(run.step_teacher),
        "answer_to_count_s": {
            f"p{q}": round(percentile(run.count_latency, q), 3) for q in (50, 95, 100)
        },  # fmt: skip
        "answers_counted": len(run.count_latency),
        # outside the faults: the Steps and answers whose wait overlapped no fault window
        "step_to_screen_clear_s": _percentiles(run.step_clear),
        "answer_to_count_clear_s": _percentiles(run.count_clear),
        "answers_lost": run.missing + run.resent,  # (resent: the student had to answer again)
        "answers_tapped_as_page_dropped": sum(a.dropped for a in run.answers),
        "answers_tapped_as_page_dropped_kept": run.dropped_kept,
        "errors": len(run.errors),
        "error_samples": sorted(set(run.errors))[:5],
        **_idle_summary(run),
        **_lesson_summary(run),
        **_fault_summary(run),
    }


def _fault_summary(run: ClassRun) -> dict[str, Any]:
    """The fault flags' numbers: each teacher reload (seconds until the room box showed again;
    whether the open round stayed open with every answer it had), each replica restart (the
    pages that dropped, how soon they showed the class again, how many joined again), the
    answers sent again after a drop, and the students not in the class at the end."""
    if not run.faults:
        return {}
    back = [d.back - d.at for d in run.drops if d.back is not None]
    return {
        "answers_resent": run.resent,
        "resent_samples": run.resent_samples[:10],
        "teacher_reloads": run.reloads,
        "replica_restarts": run.restarts,
        "pages_dropped": len(run.drops),
        "pages_reconnected": len(back),
        "students_rejoined": sum(d.rejoined for d in run.drops),
        "students_lost": len(run.lost),
        "reconnect_s": _percentiles(back, (50, 95, 100), 2),
    }


def fault_lines(row: dict[str, Any]) -> list[str]:
    """The fault numbers of one class's summary as lines of text (none without faults)."""
    lines = []
    for r in row.get("teacher_reloads", []):
        room = (
            "never"
            if r["room_box_s"] is None
            else (f"in {r['room_box_s']:.2f} s (its run done in {r['page_drawn_s']:.2f} s)")
        )
        line = f"teacher reload at {r['at_s']:g} s: room box back {room}; "
        if not r["question_open"]:
            line += "no question was open"
        else:
            line += (
                f"open question {'kept open' if r['question_kept'] else 'NOT kept open'}, "
                f"{r['answers_kept']} of {r['answers_at_reload']} answers kept "
                f"({r['answers_after']} now; count line: {r['count_line_after']})"
            )
        lines.append(line)
    for r in row.get("replica_restarts", []):
        back = "not back" if r.get("replica_back_s") is None else f"back in {r['replica_back_s']} s"
        quick = r.get("reconnect_s", {})
        lines.append(
            f"replica {r['replica']} killed at {r['at_s']:g} s "
            f"({'the teacher' if r['teacher_on_it'] else 'not the teacher'}'s), {back}: "
            f"{r.get('pages_dropped', 0)} pages dropped, {r.get('reconnected', 0)} back "
            f"(p50 {quick.get('p50')} s, max {quick.get('p100')} s), {r.get('rejoined', 0)} "
            f"joined again, {r.get('not_back', 0)} not back; the teacher's room box "
            f"{'-' if r.get('teacher_room_box_s') is None else r['teacher_room_box_s']} s"
        )
    if "students_lost" in row:
        lines.append(
            f"answers sent {row['answers_sent']}, kept {row['answers_recorded']}, late "
            f"{row['answers_late']}, resent {row['answers_resent']}, missing "
            f"{row['answers_missing']}; students lost {row['students_lost']}, rejoined "
            f"{row['students_rejoined']}; reconnect p50 {row['reconnect_s']['p50']} s, "
            f"p95 {row['reconnect_s']['p95']} s"
        )
    return lines


def headline(row: dict[str, Any], store: str) -> str:
    """One class's numbers in one line (``row``: :func:`summary` with the replicas' CPU and
    RSS and the load average after): the store; the answers sent, received (kept by the
    store in the round the student's screen showed), lost (not kept: missing, or the student
    had to answer again after a drop) and late (sent as the teacher closed the round: dropped
    by the rules); a Step on the students' screens and a tap in the teacher's count, p50 and
    p95; each replica's CPU (% of one core over the class) and RSS; the load average (other
    people share the machine); whether the :data:`TARGETS` are met."""
    step, count = row["step_to_screen_s"], row["answer_to_count_s"]
    cpu = " / ".join(f"{c}%" for c in row.get("replica_cpu_pct", []))
    rss = " / ".join(f"{m:.0f}" for m in row.get("rss_after_mb", [])) + " MB"
    if row.get("rss_peak_mb"):
        rss += " (peak " + " / ".join(f"{m:.0f}" for m in row["rss_peak_mb"]) + ")"
    missed = [
        name
        for name, bad in (
            (f"lost > {TARGETS['answers_lost']}", row["answers_lost"] > TARGETS["answers_lost"]),
            (f"Step p95 > {TARGETS['step_p95_s']:g} s", not step["p95"] <= TARGETS["step_p95_s"]),
            (
                f"count p95 > {TARGETS['count_p95_s']:g} s",
                not count["p95"] <= TARGETS["count_p95_s"],
            ),
        )  # fmt: skip
        if bad
    ]
    dropped = row.get("answers_tapped_as_page_dropped", 0)
    kept = row.get("answers_tapped_as_page_dropped_kept", 0)
    held = f" ({dropped} tapped as their page dropped, {kept} of them kept)" if dropped else ""
    return (
        f"{store}, {row['students']} students: answers sent {row['answers_sent']}, received "
        f"{row['answers_recorded']}, lost {row['answers_lost']}, late {row['answers_late']}"
        f"{held}; a Step on the students' screens p50 {step['p50']:.2f} s, p95 "
        f"{step['p95']:.2f} s; tap to the teacher's count p50 {count['p50']:.2f} s, p95 "
        f"{count['p95']:.2f} s{_outside(row)}; replicas' CPU {cpu} of a core{_lesson(row)}, RSS "
        f"{rss}; load "
        f"{row.get('load_before', '?')} -> {row.get('load_after', '')}; targets "
        + ("met" if not missed else "MISSED: " + ", ".join(missed))
    )


def _lesson(row: dict[str, Any]) -> str:
    """The lesson's CPU, where measured."""
    if "lesson_replicas_cpu_pct" not in row:
        return ""
    return (f" (in the lesson {row['lesson_replicas_cpu_pct']:g}% together, "
            f"{row['lesson_cpu_ms_per_student_second']:g} ms per student and second)")  # fmt: skip


def _outside(row: dict[str, Any]) -> str:
    """The two p95s outside the faults' windows, where there were faults."""
    step, count = row.get("step_to_screen_clear_s", {}), row.get("answer_to_count_clear_s", {})
    if "answers_resent" not in row or step.get("p95") is None or count.get("p95") is None:
        return ""
    return f" (outside the faults: Step p95 {step['p95']:.2f} s, count p95 {count['p95']:.2f} s)"


def _lesson_summary(run: ClassRun) -> dict[str, Any]:
    """What the lesson cost the replicas: both replicas' CPU over it as % of one core, and per
    student and second (the capacity arithmetic's figure: a core holds 1,000 ms a second)."""
    if run.lesson_cpu is None:
        return {}
    cpu, wall = run.lesson_cpu
    return {
        "lesson_replicas_cpu_pct": round(100 * cpu / wall, 1),
        "lesson_cpu_ms_per_student_second": round(1000 * cpu / max(1.0, run.students * wall), 2),
    }


def _idle_summary(run: ClassRun) -> dict[str, Any]:
    """The idle window's cost: both replicas' CPU as % of one core, per idle student and
    second, and per poll (the fragment timer reruns the pages sent: the teacher's count line,
    and a student's poll where no watcher pushes, app/classroom/student/)."""
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
    parser.add_argument(
        "--teacher-reload",
        type=float,
        action="append",
        default=[],
        metavar="SECONDS",
        help="at this second of the lesson the teacher's browser reloads the page (repeatable): "
        "the seconds until its room box is back, and whether the open question kept its answers",
    )
    parser.add_argument(
        "--restart-replica",
        type=float,
        action="append",
        default=[],
        metavar="SECONDS",
        help="at this second of the lesson a replica is killed (SIGKILL) and run_replicas.py "
        "starts it again (repeatable); its pages reconnect: answers, reconnect time, lost students",
    )
    parser.add_argument(
        "--restart-which",
        choices=("teacher", "other"),
        default="teacher",
        help="the replica --restart-replica kills: the teacher's (the one its routing cookie "
        "names; the default) or the other one",
    )
    parser.add_argument(
        "--quiet-load",
        type=float,
        default=0.0,
        metavar="LOAD",
        help="before each class, wait (up to --quiet-wait seconds) until the machine's 1-minute "
        "load average is below LOAD: on a machine others share, a class measured at load 20 "
        "measures them (0: start at once)",
    )
    parser.add_argument("--quiet-wait", type=float, default=1800.0, metavar="SECONDS")
    parser.add_argument(
        "--replicas",
        type=int,
        default=2,
        help="replicas behind nginx (2); with 3, a killed one's students spread over the two left",
    )
    args = parser.parse_args(argv)
    if args.stepping:
        return _stepping(args)
    for second in args.teacher_reload + args.restart_replica:
        if not 0 < second < args.seconds:
            parser.error(f"a fault's second must be within the lesson (0 < s < {args.seconds:g})")
    out: dict[str, Any] = {"store": args.store, "load_before": load_average(),
                           "machine": f"{os.cpu_count()} cores", "classes": []}  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="mcts-lab-class-load-") as tmp:
        run_dir = Path(tmp)
        faults = Faults(args.teacher_reload, args.restart_replica, args.restart_which, run_dir)
        with replicas(args.store, run_dir, args.replicas) as (url, store_url, pids):
            meters = [ReplicaMeter(pid, run_dir) for pid in pids]
            out["rss_start_mb"] = [round(m.rss_mb(), 1) for m in meters]
            for number in range(args.classes):
                if number:
                    time.sleep(args.pause)
                waited = wait_quiet(args.quiet_load, args.quiet_wait)
                print(f"class {number + 1}: load {load_average()} (waited {waited:.0f} s for "
                      "it)", file=sys.stderr, flush=True)  # fmt: skip
                cpu = [m.cpu_seconds() for m in meters]
                before_load = load_average()
                own = time.process_time()
                start = time.monotonic()
                for meter in meters:
                    meter.peak_mb = 0.0
                with sampling(meters):
                    run = asyncio.run(one_class(
                        url, args.students, args.seconds, store_url, args.seed + number,
                        idle=args.idle, cpu_seconds=lambda: sum(m.cpu_seconds() for m in meters),
                        faults=faults or None,
                    ))  # fmt: skip
                took = time.monotonic() - start
                row = summary(run)
                row["load_after"] = load_average()
                row["load_before"] = before_load
                row["replica_cpu_pct"] = [round(100 * (m.cpu_seconds() - c) / took)
                                          for m, c in zip(meters, cpu, strict=True)]  # fmt: skip
                row["rss_after_mb"] = [round(m.rss_mb(), 1) for m in meters]
                row["rss_peak_mb"] = [round(m.peak_mb, 1) for m in meters]
                # the driver's own CPU: a busy driver reads its messages late
                row["driver_cpu_pct"] = round(100 * (time.process_time() - own) / took)
                out["classes"].append(row)
                print(json.dumps(row), file=sys.stderr, flush=True)
                for line in fault_lines(row):
                    print(line, file=sys.stderr, flush=True)
                row["headline"] = headline(row, args.store)
                print(row["headline"], file=sys.stderr, flush=True)
            out["websockets_per_replica"] = spread(run_dir)
    print(json.dumps(out, indent=2))
    return 0


def wait_quiet(below: float, most: float) -> float:
    """Wait until the 1-minute load average is below ``below`` (at most ``most`` seconds; no
    wait for 0); returns the seconds waited."""
    start = time.monotonic()
    while below > 0 and time.monotonic() - start < most:
        with contextlib.suppress(OSError, ValueError, IndexError):
            if float(Path("/proc/loadavg").read_text().split()[0]) < below:
                break
        time.sleep(5.0)
    return time.monotonic() - start


def _stepping(args: argparse.Namespace) -> int:
    """The stepping load through nginx: how the sessions spread, what they got."""
    with tempfile.TemporaryDirectory(prefix="mcts-lab-step-load-") as tmp:
        run_dir = Path(tmp)
        with replicas(args.store, run_dir, args.replicas) as (url, _, pids):
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
