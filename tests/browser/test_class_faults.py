"""The class's fault drill: one class, run in headless Chromium as a lesson is lived, with the
faults a classroom has, then every answer a student's page said it sent is looked for in the
store and in the results CSV.

A teacher and three students (Ann, Ben, Cat: phones, each its own browser context) through one
app server on the Redis store (a real ``redis-server``, append-only file synced at every write):

1. the teacher's page is reloaded mid-question (two answers in, one to come): the phones keep
   their nine tap targets (tree and board), Class on tree draws the answers given before the
   reload; the next question opens on every phone with no ✓;
2. Cat's phone loses the network across a reveal: the tap made while away reaches the server
   after the reveal and must not land in the next question (its page says the question closed);
3. the teacher removes Ben after a reveal: his earlier answers stay counted; Ann's address
   opened on another device (a phone in Spanish) asks it, in Spanish, to join as itself (it
   cannot answer as Ann: the CSV keeps Ann's answers);
4. Redis is killed mid-question and started again: Cat's answer during the outage is refused on
   her page (never shown as sent), the Spanish phone's Join is refused in one Spanish line (no
   exception name), the teacher's Reveal during the outage is sent by the page by itself once
   the store is back, and the class goes on;
5. End (confirmed), then the results from Past classes.

Counted: the answers the pages confirmed ("Answer sent"), the answers the store kept, and the
answers in the CSV; all three must be the same, answer by answer. Screenshots (a phone after the
teacher's reload, a phone at the next question after a reveal, the projector and the phones
during the outage) go to the folder ``MCTS_LAB_SHOTS`` names, when it is set and exists.
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import re
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from app_server import running_app

from app.classroom.core.store import ClassStore, open_store
from tests.browser_helpers import BROWSER_TEST, click, open_page, wait_idle
from tests.class_fixtures import REDIS, need_redis
from tests.class_pages import join, remove_name, wait_text

pytestmark = BROWSER_TEST

#: Where the drill's screenshots go (none when unset or not a folder).
SHOTS = os.environ.get("MCTS_LAB_SHOTS", "")


def _shot(page: Any, name: str) -> None:
    if SHOTS and Path(SHOTS).is_dir():
        page.screenshot(path=str(Path(SHOTS) / f"{name}.png"))


class RedisServer:
    """A redis-server on a free loopback port whose data survives a kill (appendfsync always)."""

    def __init__(self, folder: Path) -> None:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            self.port = int(sock.getsockname()[1])
        self.folder = folder
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "yes", "--appendfsync", "always", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        for _ in range(200):
            try:
                open_store(self.url).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis-server did not answer within 10 s")

    def kill(self) -> None:
        """The store dies at once (no shutdown, no save beyond what each write synced)."""
        if self.process is not None:
            os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture(scope="module")
def redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    need_redis("the fault drill needs it")
    server = RedisServer(tmp_path_factory.mktemp("redis"))
    server.start()
    try:
        yield server
    finally:
        server.stop()


class StalledNetwork:
    """A phone's connection to the server that can stall: while ``away``, what the page sends
    and what the server sends wait (as on a train's Wi-Fi); back, they arrive in order."""

    def __init__(self, page: Any) -> None:
        self.away = False
        self._lock = threading.Lock()
        self._held: list[tuple[Any, Any]] = []
        page.route_web_socket(re.compile(r".*/_stcore/stream"), self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        ws.on_message(lambda message: self._pass(server, message))
        server.on_message(lambda message: self._pass(ws, message))

    def _pass(self, to: Any, message: Any) -> None:
        with self._lock:
            if self.away:
                self._held.append((to, message))
                return
        to.send(message)

    def back(self) -> None:
        with self._lock:
            self.away = False
            held, self._held = self._held, []
        for to, message in held:
            to.send(message)


class Drill:
    """The pages, the store and what the students' pages confirmed."""

    def __init__(self, browser: Any, url: str, store: ClassStore) -> None:
        self.browser = browser
        self.url = url
        self.store = store
        self.code = ""
        self.phones: dict[str, Any] = {}
        #: (poll id, round) -> {name: choice}: answers a page showed as sent
        self.sent: dict[tuple[str, int], dict[str, str]] = {}
        self.refused = 0

    def phone(self, name: str, network: bool = False) -> StalledNetwork | None:
        page = self.browser.new_page(viewport={"width": 390, "height": 844})
        stalled = StalledNetwork(page) if network else None
        page.goto(f"{self.url}/?class={self.code}")
        page.wait_for_selector(".st-key-class_code input", timeout=60_000)
        wait_idle(page)
        join(page, self.code, name)
        page.locator(".st-key-class_follow").first.wait_for(timeout=15_000)
        self.phones[name] = page
        return stalled

    def open_poll(self) -> tuple[str, int]:
        poll = self.store.current_poll(self.code)
        assert poll is not None and not poll.revealed, poll
        return poll.id, poll.round

    def wait_question(self, name: str, poll: tuple[str, int]) -> None:
        """Until ``name``'s page shows the open question ``poll`` with nothing picked."""
        page = self.phones[name]
        text = self.store.current_poll(self.code)
        assert text is not None and (text.id, text.round) == poll
        wait_text(page, ".st-key-class_question", re.escape(text.text[:40]))
        page.wait_for_function(
            "() => document.querySelectorAll('.st-key-class_answer input:checked').length === 0",
            polling=100,
            timeout=15_000,
        )

    def answer(self, name: str, index: int) -> str:
        """``name`` taps choice ``index`` of the open question; returns its label, recorded as
        sent when the page says so (a refusal is counted apart)."""
        page = self.phones[name]
        poll = self.open_poll()
        self.wait_question(name, poll)
        options = page.locator(".st-key-class_answer [role='radiogroup'] label")
        option = options.nth(index % options.count())
        label = str(option.inner_text()).strip().rstrip("\u200b\u200c")  # (the round's tag)
        option.click()
        # sent when the page says so, waited for: at the suite's load the click's run had not
        # begun when wait_idle first looked, and an answer the store kept was read as refused
        try:
            wait_text(page, ".st-key-class_question", "Answer sent", timeout=15_000)
            self.sent.setdefault(poll, {})[name] = label
        except AssertionError:  # (not said in 15 s: refused, or lost)
            self.refused += 1
        wait_idle(page)
        return label

    def ids(self) -> dict[str, str]:
        return {s.name: s.id for s in self.store.students(self.code)}

    def kept(self) -> dict[tuple[str, int], dict[str, str]]:
        """What the store holds, by name."""
        names = {sid: name for name, sid in self.ids().items()}
        return {
            (p.id, p.round): {
                names[s]: c for s, c in self.store.answers(self.code, p.id, p.round).items()
            }
            for p in self.store.polls(self.code)
        }


def _heat_counts(page: Any) -> list[int]:
    """The count badges of Class on tree on the teacher's tree."""
    counts = page.locator(".st-key-tree_view .tv-heat-count").evaluate_all(
        "els => els.map(e => e.textContent)"
    )
    return [int(n) for n in counts if n and n.strip() not in ("", "0")]


def test_a_class_keeps_every_answer_through_its_faults(redis: RedisServer, browser: Any) -> None:
    with running_app(env={"MCTS_LAB_STORE": redis.url}) as url:
        store = open_store(redis.url)
        drill = Drill(browser, url, store)
        teacher = open_page(browser, f"{url}/?game=tic_tac_toe&seed=1&steps=30")  # a move asked
        teacher.locator(".st-key-class_start button").first.click()
        wait_idle(teacher)
        drill.code = teacher.locator(".lab-class-code").first.inner_text().strip()
        drill.phone("Ann")
        drill.phone("Ben")
        cat_network = drill.phone("Cat", network=True)
        assert cat_network is not None
        wait_text(teacher, ".lab-class-count", r"3 connected")

        # 1. the teacher's reload mid-question
        first = drill.open_poll()
        drill.answer("Ann", 0)
        drill.answer("Ben", 1)
        wait_text(teacher, ".lab-class-count", r"2 of 3 answered")
        started = time.monotonic()
        teacher.reload()
        # no click, and within wait_text's 30 s; the time is in the drill's printed line, not
        # held to 15 s as before: under the suite's four workers on two cores at a load of 20
        # a reload's ~2 CPU-s of Chromium can take longer, and that is the machine's speed, not
        # the class's (this drill failed once in a loaded run, its message not kept)
        wait_text(teacher, ".lab-class-count", r"round 1: 2 of 3 answered")
        reload_seconds = time.monotonic() - started
        wait_idle(teacher)
        # the question came back whole: the phones' tap targets and the class on the tree
        for page in drill.phones.values():
            page.wait_for_selector(".st-key-class_tree g.tv-answer", timeout=15_000)
            assert page.locator(".st-key-class_tree g.tv-answer").count() == 9
            assert page.locator(".st-key-class_board_box [aria-label^='answer ']").count() == 9
        _shot(drill.phones["Ann"], "phone_after_teacher_reload_390x844")
        teacher.locator(".st-key-class_heat label").first.click()
        wait_idle(teacher)
        teacher.wait_for_selector(".st-key-tree_view .tv-heat-count", timeout=15_000)
        assert sorted(_heat_counts(teacher)) == [1, 1]  # Ann's and Ben's, drawn after the reload
        drill.answer("Cat", 2)
        answered_at = time.monotonic()
        wait_text(teacher, ".lab-class-count", r"3 of 3 answered")
        # the heat follows the answer without a click (the count line redraws the tree); read
        # by locators: the tree's SVG is in its component's shadow root
        while sum(_heat_counts(teacher)) != 3 and time.monotonic() - answered_at < 30:
            time.sleep(0.1)
        heat_seconds = time.monotonic() - answered_at
        assert sorted(_heat_counts(teacher)) == [1, 1, 1], heat_seconds
        click(teacher, "class_reveal")
        assert [p.revealed for p in store.polls(drill.code) if p.id == first[0]] == [True]
        teacher.wait_for_selector(".st-key-tree_view .tv-heat-right", timeout=15_000)  # its ✓
        # the next question opens clean on every phone: no ✓, no counts of the last one
        following = drill.open_poll()
        for name in drill.phones:
            drill.wait_question(name, following)
            page = drill.phones[name]
            page.wait_for_selector(".st-key-class_follow g.tv-node", timeout=15_000)
            assert page.locator(".tv-heat-right, .tv-heat-count").count() == 0, name
        _shot(drill.phones["Ann"], "phone_next_question_after_reveal_390x844")

        # 2. Cat's phone away across a reveal: her tap arrives after it
        second = drill.open_poll()
        assert second != first
        drill.answer("Ann", 1)
        drill.answer("Ben", 1)
        drill.wait_question("Cat", second)
        cat = drill.phones["Cat"]
        cat_network.away = True
        cat.locator(".st-key-class_answer [role='radiogroup'] label").nth(0).click()
        click(teacher, "class_reveal")  # the class moves on while Cat is away
        third = drill.open_poll()
        cat_network.back()
        wait_text(cat, "body", "That question has closed")
        drill.refused += 1
        assert "Cat" not in drill.kept().get(third, {})  # not moved to the new question
        assert "Cat" not in drill.kept()[second]

        # 3. Ben removed after the reveal: his answers to revealed questions stay counted
        teacher.get_by_text(re.compile(r"Names \(3\)")).click()
        wait_text(teacher, ".st-key-class_room", "Ben")
        remove_name(teacher, "Ben")
        wait_text(teacher, ".st-key-class_room", r"Names \(2\)")
        wait_text(drill.phones["Ben"], "body", "removed your name")

        # 3b. Ann's address copied to another device (a phone in Spanish): it is asked to join
        # as itself, in its language
        ann_url = drill.phones["Ann"].url
        assert "me=" in ann_url
        copier = browser.new_context(viewport={"width": 390, "height": 844},
                                     locale="es-ES").new_page()  # fmt: skip
        copier.goto(ann_url)
        copier.wait_for_selector(".st-key-class_code input", timeout=60_000)
        wait_text(copier, "body", "Ese enlace es el lugar de otro estudiante")
        assert copier.locator(".st-key-class_answer").count() == 0  # nothing to answer as Ann
        assert "me=" not in copier.url

        # 4. the store killed mid-question, and started again
        drill.answer("Ann", 2)
        drill.wait_question("Cat", third)
        # the teacher's page has drawn Ann's answer (its count, and the tree's class counts
        # that follow it: a run of the screen) before the store goes: a run of the room box
        # during the outage draws one line in its place, and Reveal clicked "while away" then
        # found no button (once in a loaded run)
        wait_text(teacher, ".lab-class-count", r"1 of 2 answered")
        wait_idle(teacher)
        redis.kill()
        teacher.locator(".st-key-class_reveal button:visible").first.click()  # while away
        with contextlib.suppress(Exception):  # (the page may have taken the question away)
            cat.locator(".st-key-class_answer [role='radiogroup'] label").nth(1).click(
                timeout=3_000
            )
        # refused on the page: the tap said not sent, or the question withdrawn with the reason
        wait_text(cat, "body", "(Not sent|Not now): the class store did not answer")
        assert "Answer sent" not in cat.locator("body").inner_text()  # never shown as sent
        drill.refused += 1
        # the Spanish phone joins during the outage: told in Spanish, one line, no exception
        copier.locator("[data-testid='stFormSubmitButton'] button").first.click()
        wait_text(copier, "body", "el almacén de la clase no respondió")
        said = copier.locator("[data-testid='stAlert']").all_inner_texts()
        assert said == ["Ahora no: el almacén de la clase no respondió"], said
        wait_idle(teacher)
        body = teacher.locator("body").inner_text()
        assert "Traceback" not in body and "127.0.0.1" not in body
        _shot(teacher, "projector_store_away_1280x720")
        _shot(cat, "phone_store_away_390x844")
        _shot(copier, "phone_store_away_es_390x844")
        copier.context.close()
        redis.start()
        down_at = time.monotonic()
        teacher.wait_for_function(  # the page sends the reveal by itself
            "() => !!document.querySelector('.lab-class-count')", polling=100, timeout=15_000
        )
        while time.monotonic() - down_at < 30:  # (its time printed; 30 s at the suite's load)
            if any(p.id == third[0] and p.revealed for p in store.polls(drill.code)):
                break
            time.sleep(0.1)
        resync_seconds = time.monotonic() - down_at
        assert any(p.id == third[0] and p.revealed for p in store.polls(drill.code))
        fourth = drill.open_poll()  # and the next question went to the class
        assert fourth not in (first, second, third)
        drill.answer("Cat", 0)
        drill.answer("Ann", 0)
        wait_text(teacher, ".lab-class-count", r"2 of 2 answered")
        click(teacher, "class_reveal")

        # 5. End, confirmed, then the results
        teacher.locator(".st-key-class_end button").first.click()
        teacher.locator(".st-key-class_end_confirm button").first.click()
        wait_idle(teacher)
        for page in drill.phones.values():
            if page is not drill.phones["Ben"]:
                wait_text(page, "body", "The class has ended")
        teacher.get_by_text(re.compile(r"Past classes \(\d\)")).click()
        with teacher.expect_download() as download:
            teacher.locator(f".st-key-class_past_{drill.code} button").first.click()
        rows = list(csv.DictReader(io.StringIO(Path(download.value.path()).read_text())))
        rows = [row for row in rows if row["record"] == "round"]  # (then a row per student)

        # every answer a page confirmed: kept, and in the CSV
        kept = drill.kept()
        sent_total = sum(len(v) for v in drill.sent.values())
        kept_total = sum(len(v) for v in kept.values())
        assert kept == {poll: drill.sent.get(poll, {}) for poll in kept}, (kept, drill.sent)
        assert set(drill.sent) <= set(kept)
        csv_total = sum(int(row["answered"]) for row in rows)
        assert csv_total == kept_total == sent_total == 8  # 3 + 2 + 1 + 2
        assert sum(int(row["from_removed"]) for row in rows) == 2  # Ben's two, kept
        polls = store.polls(drill.code)
        assert len(rows) == len(polls)  # a row per question and round, in the store's order
        for row, poll in zip(rows, polls, strict=True):
            answers = kept[(poll.id, poll.round)]
            assert (row["question"], int(row["round"])) == (poll.text, poll.round)
            for n, choice in enumerate(poll.choices, start=1):
                assert row[f"choice_{n}"] == choice
                assert int(row[f"count_{n}"]) == sum(1 for c in answers.values() if c == choice)
        print(  # the closing note's counts
            f"drill: {sent_total} answers confirmed, {kept_total} kept, {csv_total} in the CSV, "
            f"{drill.refused} refused on the page; reload back in {reload_seconds:.1f} s, "
            f"the heat followed the third answer in {heat_seconds:.1f} s, "
            f"store back -> reveal sent in {resync_seconds:.1f} s"
        )
        store.close()
        for page in (teacher, *drill.phones.values()):
            page.close()
