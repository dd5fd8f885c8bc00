"""Two replicas behind nginx, started by deploy/run_replicas.py as a teacher would.

Checks through the proxy: the page and /_stcore/health answer; each response says which replica
answered (nginx's X-Replica header); requests and websockets with the same routing cookie reach
the same replica and different cookies use both; a real Streamlit session in headless Chromium
(two Step clicks, the iteration count goes to 2) whose websocket went to its cookie's replica; a
replica killed mid-class is routed around and started again; Ctrl+C (and SIGTERM) stop nginx
and every replica, free the ports and remove the run directory. Skipped when nginx is missing.
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import Message
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "deploy"))
sys.path.insert(0, str(ROOT / "scripts"))
import run_replicas  # noqa: E402
from app_server import CHROMIUM, IDLE  # noqa: E402

from app.classroom.core.store import open_store  # noqa: E402
from tests.class_pages import wait_text  # noqa: E402

NGINX = run_replicas.find_nginx()
COOKIE = "mctslab_route"
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no http_proxy here

pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="deploy/ targets Linux"),
    pytest.mark.skipif(
        NGINX is None,
        reason="nginx is not installed (apt-get install nginx) - two-replica proxy test skipped",
    ),
    pytest.mark.timeout(120),
    pytest.mark.slow,  # real nginx and Streamlit replicas
]


@dataclass
class Deployment:
    """A running deploy/run_replicas.py and what it printed."""

    proc: subprocess.Popen[bytes]
    url: str
    run_dir: Path
    proxy_port: int
    replica_ports: list[int]
    stdout: Path
    stderr: Path

    @property
    def replicas(self) -> set[str]:
        return {f"127.0.0.1:{port}" for port in self.replica_ports}


def _free_ports(count: int) -> int:
    """The first of COUNT consecutive free loopback ports (other people share this machine)."""
    rng = random.Random()
    for _ in range(200):
        first = rng.randrange(20_000, 40_000)
        if all(run_replicas.port_is_free(port) for port in range(first, first + count)):
            return first
    raise RuntimeError(f"no {count} consecutive free ports found")


def _start(tmp: Path, replicas: int, extra: tuple[str, ...] = ()) -> Deployment:
    first = _free_ports(replicas + 1)
    proxy_port, replica_ports = first + replicas, list(range(first, first + replicas))
    stdout, stderr = tmp / "stdout.txt", tmp / "stderr.txt"
    with open(stdout, "wb") as out, open(stderr, "wb") as err:
        proc = subprocess.Popen(
            [sys.executable, str(ROOT / "deploy" / "run_replicas.py"), "--replicas",
             str(replicas), "--port", str(proxy_port), "--first-port", str(first), "--listen",
             "127.0.0.1", "--timeout", "60", *extra],
            cwd=tmp, stdout=out, stderr=err,
            start_new_session=True,  # like a terminal: Ctrl+C goes to its process group
        )  # fmt: skip
    deadline = time.monotonic() + 75
    while time.monotonic() < deadline:
        text = stdout.read_text()
        url = re.search(rf"^{run_replicas.URL_PREFIX}(\S+)/ ", text, re.M)
        run_dir = re.search(rf"^{run_replicas.RUN_DIR_PREFIX}(\S+)", text, re.M)
        if url and run_dir:
            return Deployment(proc, url.group(1), Path(run_dir.group(1)), proxy_port,
                              replica_ports, stdout, stderr)  # fmt: skip
        if proc.poll() is not None:
            break
        time.sleep(0.2)
    proc.kill()
    pytest.fail(f"run_replicas.py did not come up: {stderr.read_text()[-2000:]}")


def _descendants(pid: int) -> set[int]:
    """Every process below PID (from /proc), e.g. nginx's master and workers and the replicas."""
    children: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(stat.parent.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _stop_and_check(deployment: Deployment, signum: int, to_group: bool) -> None:
    """Send SIGNUM (to the process group, as a terminal's Ctrl+C does, or to the pid, as
    `docker stop` does) and check that nothing is left: processes, ports, run directory."""
    procs = _descendants(deployment.proc.pid)
    names = " ".join(Path(f"/proc/{pid}/cmdline").read_text() for pid in procs if _alive(pid))
    assert "nginx" in names and names.count("streamlit") == len(deployment.replica_ports), names
    started = time.monotonic()
    if to_group:
        os.killpg(deployment.proc.pid, signum)
    else:
        deployment.proc.send_signal(signum)
    assert deployment.proc.wait(timeout=30) == 0, deployment.stderr.read_text()
    print(f"\nstopped in {time.monotonic() - started:.1f} s")
    assert [pid for pid in procs if _alive(pid)] == []
    ports = [deployment.proxy_port, *deployment.replica_ports]
    assert [port for port in ports if not run_replicas.port_is_free(port)] == []
    assert not deployment.run_dir.exists()
    assert deployment.stderr.read_text().rstrip().endswith("stopped")


def _cleanup(deployment: Deployment) -> None:
    """After a failed test: stop whatever is still running."""
    procs = _descendants(deployment.proc.pid)
    if deployment.proc.poll() is None:
        deployment.proc.terminate()
        try:
            deployment.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            deployment.proc.kill()
            deployment.proc.wait()
    for pid in procs:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)


def _get(url: str, cookie: str | None = None) -> tuple[int, Message, str]:
    """GET URL (with the routing cookie if given): status, headers, body."""
    request = urllib.request.Request(url)
    if cookie is not None:
        request.add_header("Cookie", f"{COOKIE}={cookie}")
    try:
        with DIRECT.open(request, timeout=30) as reply:
            return reply.status, reply.headers, reply.read().decode(errors="replace")
    except urllib.error.HTTPError as error:
        return error.code, error.headers, ""


def _replica(url: str, cookie: str | None = None) -> str:
    status, headers, _ = _get(url, cookie)
    assert status == 200, (url, status)
    return str(headers["X-Replica"])


def _cookies_on_each_replica(deployment: Deployment) -> dict[str, str]:
    """One routing cookie per replica: {replica address: cookie}."""
    found: dict[str, str] = {}
    for index in range(64):
        cookie = f"test-{index}"
        found.setdefault(_replica(deployment.url + "/_stcore/health", cookie), cookie)
        if set(found) == deployment.replicas:
            return found
    raise AssertionError(f"64 cookies reached only {sorted(found)}")


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    started = time.monotonic()
    running = _start(tmp_path_factory.mktemp("deploy"), replicas=2)
    print(f"\ntwo replicas and nginx up in {time.monotonic() - started:.1f} s")
    try:
        yield running
    finally:
        _cleanup(running)


def test_page_and_health_answer_through_the_proxy(deployment: Deployment) -> None:
    status, headers, body = _get(deployment.url + "/")
    assert status == 200 and "<title>" in body.lower()
    assert headers["X-Replica"] in deployment.replicas
    # a browser without the routing cookie gets one, a random id from nginx
    assert re.fullmatch(rf"{COOKIE}=[0-9a-f]{{32}}; Path=/; HttpOnly; SameSite=Lax",
                        headers["Set-Cookie"] or ""), headers  # fmt: skip
    status, headers, body = _get(deployment.url + "/_stcore/health")
    assert (status, body) == (200, "ok")
    assert headers["X-Replica"] in deployment.replicas
    # the run directory holds everything nginx writes and the pids
    names = {path.name for path in deployment.run_dir.iterdir()}
    assert {"nginx.conf", "nginx.pid", "access.log", "nginx.log", "run_replicas.pid"} <= names
    assert {f"replica-{port}.pid" for port in deployment.replica_ports} <= names


def test_requests_with_one_cookie_stick_to_one_replica(deployment: Deployment) -> None:
    seen: dict[str, str] = {}
    for index in range(12):
        cookie = f"student-{index}"
        answers = {
            _replica(deployment.url + path, cookie)
            for path in ("/", "/_stcore/health", "/_stcore/host-config", "/")
        }
        assert len(answers) == 1, (cookie, answers)
        seen[cookie] = answers.pop()
        status, headers, _ = _get(deployment.url + "/_stcore/health", cookie)
        assert COOKIE not in (headers["Set-Cookie"] or "")  # a routed browser keeps its cookie
    # different students spread over both replicas (all 12 on one: chance 1 in 2,048)
    assert set(seen.values()) == deployment.replicas, seen
    # without a cookie (a browser refusing cookies) the client address decides: still one
    assert len({_replica(deployment.url + "/_stcore/health") for _ in range(4)}) == 1


def test_websocket_upgrades_on_the_cookies_replica(deployment: Deployment) -> None:
    sync_client = pytest.importorskip("websockets.sync.client")
    stream = deployment.url.replace("http://", "ws://") + "/_stcore/stream"
    for replica, cookie in _cookies_on_each_replica(deployment).items():
        with sync_client.connect(
            stream, origin=deployment.url, subprotocols=["streamlit"], proxy=None,
            additional_headers={"Cookie": f"{COOKIE}={cookie}"}, open_timeout=30,
        ) as websocket:  # fmt: skip
            assert websocket.response.status_code == 101
            assert websocket.response.headers["X-Replica"] == replica


@pytest.mark.browser
@pytest.mark.skipif(
    not (os.path.exists(CHROMIUM) and os.access(CHROMIUM, os.X_OK)),
    reason=f"no Chromium at {CHROMIUM} (apt-get install chromium) - browser session skipped",
)
def test_a_browser_session_works_and_sticks(deployment: Deployment, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    page = context.new_page()
    page.goto(deployment.url + "/?game=tic_tac_toe&seed=1")
    page.wait_for_selector(".st-key-step button", timeout=60_000)
    for n in (1, 2):
        page.wait_for_selector(IDLE, timeout=60_000)
        page.locator(".st-key-step button").first.click()
        # the click's run drew its iteration (a fixed pause, then "idle", read a page whose
        # run had not begun yet when the machine was busy)
        page.wait_for_function(
            r"n => [...document.querySelectorAll('.lab-stats')].some("
            r"e => (e.innerText.match(/Iteration\s+(\d+)/) || [])[1] === String(n))",
            arg=n,
            timeout=60_000,
        )
    page.wait_for_selector(IDLE, timeout=60_000)
    stats = page.locator(".lab-stats").first.inner_text()
    found = re.search(r"Iteration\s+([\d,]+)", stats)
    assert found is not None and found.group(1) == "2", stats
    cookie = next(c["value"] for c in context.cookies() if c["name"] == COOKIE)
    context.close()  # closes the websocket: nginx logs it now
    replica = _replica(deployment.url + "/_stcore/health", cookie)
    log = deployment.run_dir / "access.log"
    streams: list[str] = []
    deadline = time.monotonic() + 10
    while not streams and time.monotonic() < deadline:
        streams = [line for line in log.read_text().splitlines()
                   if "/_stcore/stream" in line and f"route={cookie}" in line]  # fmt: skip
        time.sleep(0.2)
    assert streams, "the browser's websocket is not in nginx's access log"
    assert all(" 101 " in line and f"replica={replica} " in line for line in streams), streams


def test_a_dead_replica_is_routed_around_and_restarted(deployment: Deployment) -> None:
    cookies = _cookies_on_each_replica(deployment)
    victim_port = deployment.replica_ports[-1]
    victim = f"127.0.0.1:{victim_port}"
    pid_file = deployment.run_dir / f"replica-{victim_port}.pid"
    old_pid = int(pid_file.read_text())
    os.kill(old_pid, signal.SIGKILL)
    while _alive(old_pid):
        time.sleep(0.05)
    # nginx's passive check: the refused connection is retried on the other replica
    answered = _replica(deployment.url + "/_stcore/health", cookies[victim])
    assert answered.split(", ")[-1] in deployment.replicas - {victim}, answered
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        restarted = pid_file.exists() and int(pid_file.read_text()) != old_pid
        if restarted and run_replicas.is_healthy(f"http://{victim}"):
            break
        time.sleep(0.3)
    else:
        pytest.fail(f"replica {victim_port} was not restarted: {deployment.stderr.read_text()}")
    said = deployment.stderr.read_text()
    assert f"replica {victim_port} exited with code -9; starting it again" in said, said


def test_ctrl_c_stops_nginx_and_every_replica(deployment: Deployment) -> None:
    _stop_and_check(deployment, signal.SIGINT, to_group=True)


def test_sigterm_stops_a_single_replica_deployment(tmp_path: Path) -> None:
    running = _start(tmp_path, replicas=1)
    try:
        assert _replica(running.url + "/_stcore/health") == f"127.0.0.1:{running.replica_ports[0]}"
        _stop_and_check(running, signal.SIGTERM, to_group=False)
    finally:
        _cleanup(running)


@pytest.mark.skipif(
    not os.access("/usr/bin/redis-server", os.X_OK) and not os.environ.get("CI"),
    reason="no redis-server (apt-get install redis-server)",
)
def test_a_class_across_two_replicas_on_redis(tmp_path: Path, browser: Any) -> None:
    """--store redis: a redis-server beside the replicas, its URL given to each; a teacher on
    one replica and a student on the other are in one class. The student's replica is killed
    mid-question and the student taps an answer on the tree 0.2 s later (the tap reaches no
    server): the page, reconnected through nginx to the teacher's replica, sends it, and the
    teacher's count and the store have it."""
    redis_port = _free_ports(1)
    running = _start(tmp_path, replicas=2, extra=("--store", "redis", "--redis-port",
                                                   str(redis_port)))  # fmt: skip
    try:
        assert f"Class store: redis://127.0.0.1:{redis_port}/0" in running.stdout.read_text()
        first, second = (f"http://127.0.0.1:{port}" for port in running.replica_ports)
        teacher = browser.new_page(viewport={"width": 1280, "height": 720})
        teacher.goto(first + "/?game=tic_tac_toe&seed=1&steps=30")  # a move asked
        teacher.wait_for_selector(".st-key-class_start button", timeout=60_000)
        teacher.wait_for_selector(IDLE, timeout=60_000)
        teacher.locator(".st-key-class_start button").first.click()
        teacher.wait_for_selector(".lab-class-code", timeout=30_000)
        code = teacher.locator(".lab-class-code").first.inner_text().strip()
        # the student through nginx, routed to the second replica by its cookie
        route = _cookies_on_each_replica(running)[second.removeprefix("http://")]
        phone = browser.new_context(viewport={"width": 390, "height": 844})
        phone.add_cookies([{"name": COOKIE, "value": route, "url": running.url}])
        student = phone.new_page()
        student.goto(f"{running.url}/?class={code}")
        student.wait_for_selector(".st-key-class_code input", timeout=60_000)
        student.wait_for_selector(IDLE, timeout=60_000)
        student.get_by_role("button", name="Join").click()
        student.wait_for_selector(".st-key-class_tree g.tv-answer", timeout=30_000)
        student.wait_for_selector(IDLE, timeout=60_000)
        wait_text(teacher, ".lab-class-count", r"0 of 1 answered", timeout=30_000)

        victim = running.replica_ports[1]
        pid_file = running.run_dir / f"replica-{victim}.pid"
        killed = int(pid_file.read_text())
        os.kill(killed, signal.SIGKILL)
        while _alive(killed):
            time.sleep(0.05)
        time.sleep(0.2)
        box = student.locator(".st-key-class_tree g.tv-answer").first
        tapped = str(box.get_attribute("aria-label"))
        box.click(timeout=5_000)
        wait_text(teacher, ".lab-class-count", r"1 of 1 answered", timeout=30_000)
        store = open_store(f"redis://127.0.0.1:{redis_port}/0")
        try:
            poll = store.current_poll(code)
            assert poll is not None
            kept = list(store.answers(code, poll.id, poll.round).values())
        finally:
            store.close()
        assert len(kept) == 1 and tapped.endswith(f" {kept[0]}"), (kept, tapped)
        wait_text(student, ".st-key-class_question", "Answer sent")

        teacher.wait_for_selector(IDLE, timeout=60_000)
        teacher.locator(".st-key-step button").first.click()
        student.wait_for_function(
            "() => /Iteration 31\\b/.test(document.body.innerText)", polling=100, timeout=20_000
        )
        teacher.close()
        phone.close()
        deadline = time.monotonic() + 60  # (the stop below counts both replicas)
        while not (int(pid_file.read_text()) != killed and run_replicas.is_healthy(second)):
            assert time.monotonic() < deadline, running.stderr.read_text()
            time.sleep(0.3)
        _stop_and_check(running, signal.SIGTERM, to_group=False)
        assert run_replicas.port_is_free(redis_port)
    finally:
        _cleanup(running)
