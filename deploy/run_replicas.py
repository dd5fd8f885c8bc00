"""Run N MCTS Lab replicas behind nginx with sticky sessions, for a class one process can't hold.

    python deploy/run_replicas.py --replicas 3 --port 8080 [--first-port 8501]

starts ``python -m streamlit run app/main.py`` on 127.0.0.1 ports FIRST_PORT .. FIRST_PORT+N-1
from the repository root (so .streamlit/config.toml applies), waits until each answers
``/_stcore/health``, writes deploy/nginx.conf.template filled in into a run directory and runs
Debian's nginx as the current user (no root needed) with every file it writes (pid, logs, temp
files) in that directory. It prints the URL and stays in the foreground as the supervisor:

- every 5 s it asks each replica's ``/_stcore/health`` and says when one stops or starts
  answering; a replica that exits, or does not answer for --restart-after seconds, is started
  again (its students get a fresh session; nginx routes around it meanwhile);
- Ctrl+C, SIGTERM or SIGHUP stops nginx first (no new requests), then every replica, then
  removes the temporary run directory; if nginx dies, everything stops.

Standard library only, Linux (Debian) first. See docs/deploy.md.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import os
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = Path(__file__).resolve().parent / "nginx.conf.template"
APP = "app/main.py"  # relative to ROOT, the working directory of every replica
URL_PREFIX = "MCTS Lab is up at "  # the lines the test (and a teacher) look for
RUN_DIR_PREFIX = "run directory: "
PID_FILE = "run_replicas.pid"  # this supervisor's pid, in the run directory
MAX_RESTARTS = 5  # per replica; after that it stays down and nginx routes around it
HEALTH_EVERY = 5.0  # seconds between two rounds of health checks while running
HEALTH_TIMEOUT = 3.0  # seconds one health check may take
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
# health checks go straight to loopback, never through an http_proxy set in the environment
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))

_stop_signal: list[str] = []  # set by the signal handler, read at safe points (see _check_stop)


class DeployError(Exception):
    """A problem the user can fix; main() prints it as one line."""


class Stop(Exception):
    """A stop signal arrived; raised by _check_stop, never from inside the signal handler, so a
    child is never started without being recorded for the shutdown."""


def _on_signal(signum: int, frame: FrameType | None) -> None:
    _stop_signal.append(signal.Signals(signum).name)


def _check_stop() -> None:
    if _stop_signal:
        raise Stop(_stop_signal[0])


def _sleep(seconds: float) -> None:
    """Sleep, but leave within 0.1 s of a stop signal."""
    deadline = time.monotonic() + seconds
    while True:
        _check_stop()
        left = deadline - time.monotonic()
        if left <= 0:
            return
        time.sleep(min(0.1, left))


def find_nginx() -> str | None:
    """nginx on PATH, or Debian's /usr/sbin/nginx (not on a normal user's PATH)."""
    found = shutil.which("nginx")
    if found:
        return found
    debian = "/usr/sbin/nginx"
    return debian if os.access(debian, os.X_OK) else None


def port_is_free(port: int, host: str = "127.0.0.1") -> bool:
    """True if nothing listens on HOST:PORT (a socket in TIME_WAIT does not count)."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind((host, port))
        except OSError:
            return False
    return True


def render_config(run_dir: Path, listen: str, ports: Sequence[int]) -> str:
    """The template with the run directory, the listen address and one server per replica."""
    # max_fails/fail_timeout are nginx's passive health check: a replica that refuses or times
    # out one connection is left out for 10 s and its requests go to the next one in the hash
    servers = "\n".join(
        f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=10s;" for port in ports
    )
    text = TEMPLATE.read_text()
    for key, value in (("RUN_DIR", str(run_dir)), ("LISTEN", listen),
                       ("UPSTREAM_SERVERS", servers)):  # fmt: skip
        text = text.replace(f"@@{key}@@", value)
    if re.search(r"@@[A-Z_]+@@", text):
        raise DeployError(f"{TEMPLATE} has a placeholder run_replicas.py does not fill")
    return text


def write_pid(path: Path, pid: int) -> None:
    """Write a pid file whole or not at all (a temporary file renamed over it): a reader that
    polls it while a replica restarts sees the old pid or the new one, never an empty file."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(f"{pid}\n")
    os.replace(temporary, path)


def _child_setup() -> None:
    """In the child before exec (Linux): get SIGTERM if this script dies, even by SIGKILL."""
    with contextlib.suppress(Exception):
        ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGTERM))  # PR_SET_PDEATHSIG


def _spawn(
    args: list[str], log: Path, env: dict[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """Start ARGS from the repository root in its own session, output appended to LOG."""
    with open(log, "ab") as out:
        return subprocess.Popen(
            args, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # Ctrl+C reaches only us; we stop the children in order
            preexec_fn=_child_setup if sys.platform.startswith("linux") else None,
        )  # fmt: skip


def store_in_use(store: str | None, env: dict[str, str] | None = None) -> str:
    """The class store the replicas use, as the console says it: ``store`` (``--store
    redis``), else ``MCTS_LAB_STORE`` of the environment they inherit, else the app's default
    file. A password in the URL is written ``***`` (the console is shown in class)."""
    url = store or (os.environ if env is None else env).get("MCTS_LAB_STORE", "").strip()
    if not url:
        return "the app default (SQLite, shared by this machine)"
    parts = urllib.parse.urlsplit(url)
    if parts.password:
        user = f"{parts.username}:" if parts.username else ":"
        host = parts.netloc.rpartition("@")[2]
        url = urllib.parse.urlunsplit(parts._replace(netloc=f"{user}***@{host}"))
    return f"{url} (MCTS_LAB_STORE)" if not store else url


def start_replica(
    port: int, run_dir: Path, cookie_secret: str, store: str | None = None
) -> subprocess.Popen[bytes]:
    """``python -m streamlit run app/main.py`` on 127.0.0.1:PORT, logging to run_dir; ``store``
    is the class store's URL every replica shares (``MCTS_LAB_STORE``; ``None``: the app's
    default SQLite file, which every process on this machine shares)."""
    # One cookie secret for all replicas (Streamlit's advice for replication): a student moved
    # to another replica after a failure keeps a valid XSRF cookie. Passed in the environment,
    # not on the command line, so `ps` does not show it.
    env = {**os.environ, "STREAMLIT_SERVER_COOKIE_SECRET": cookie_secret}
    if store:
        env["MCTS_LAB_STORE"] = store
    proc = _spawn(
        [sys.executable, "-m", "streamlit", "run", APP, "--server.port", str(port),
         "--server.address", "127.0.0.1", "--server.headless", "true"],
        run_dir / f"replica-{port}.log", env,
    )  # fmt: skip
    write_pid(run_dir / f"replica-{port}.pid", proc.pid)
    return proc


def start_redis(port: int, run_dir: Path) -> subprocess.Popen[bytes]:
    """Debian's redis-server on 127.0.0.1:PORT for the class store, its data in run_dir
    (append-only file: a restarted server finds its classes again)."""
    redis = shutil.which("redis-server") or "/usr/bin/redis-server"
    if not os.access(redis, os.X_OK):
        raise DeployError("redis-server is not installed (apt-get install redis-server)")
    proc = _spawn(
        [redis, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(run_dir),
         "--appendonly", "yes", "--save", "", "--protected-mode", "yes"],
        run_dir / "redis.log",
    )  # fmt: skip
    write_pid(run_dir / "redis.pid", proc.pid)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise DeployError(f"redis-server exited: {_last_line(run_dir / 'redis.log')}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1) as c:
            c.sendall(b"PING\r\n")
            if c.recv(16).startswith(b"+PONG"):
                return proc
        time.sleep(0.1)
    raise DeployError("redis-server did not answer within 15 s")


def _last_line(log: Path) -> str:
    with contextlib.suppress(OSError):
        lines = [line for line in log.read_text(errors="replace").splitlines() if line.strip()]
        if lines:
            return lines[-1].strip()
    return "(no output)"


def is_healthy(url: str, timeout: float = HEALTH_TIMEOUT) -> bool:
    """True if URL/_stcore/health answers 200 within TIMEOUT seconds."""
    try:
        with _DIRECT.open(url + "/_stcore/health", timeout=timeout) as reply:
            return bool(reply.status == 200)
    except OSError:
        return False


def wait_healthy(url: str, proc: subprocess.Popen[bytes], log: Path, deadline: float) -> None:
    """Wait until URL/_stcore/health answers 200; DeployError if PROC exits or time runs out."""
    while not is_healthy(url, timeout=2):
        if proc.poll() is not None:
            raise DeployError(f"{url} exited with code {proc.returncode}: {_last_line(log)} "
                              f"(log: {log})")  # fmt: skip
        if time.monotonic() > deadline:
            raise DeployError(f"{url}/_stcore/health did not answer in time (log: {log})")
        _sleep(0.3)


def start_nginx(nginx: str, run_dir: Path) -> subprocess.Popen[bytes]:
    """Check the config with ``nginx -t`` and start nginx in the foreground (daemon off)."""
    conf = run_dir / "nginx.conf"
    # -p: relative paths and the prefix are the run directory; -e: the error log before the
    # config is read goes to stderr (our nginx.log), never to /var/log/nginx
    base = [nginx, "-p", f"{run_dir}/", "-c", str(conf), "-e", "stderr"]
    check = subprocess.run([*base, "-t", "-q"], capture_output=True, text=True, check=False)
    if check.returncode != 0:
        message = " ".join(check.stderr.split()) or f"exit code {check.returncode}"
        raise DeployError(f"nginx rejected {conf}: {message}")
    return _spawn(base, run_dir / "nginx.log")


def stop(procs: Sequence[subprocess.Popen[bytes]], timeout: float = 10.0) -> None:
    """SIGTERM each process group in order (nginx's fast shutdown, Streamlit's clean exit),
    then SIGKILL what is left after TIMEOUT seconds."""
    for proc in procs:
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for proc in procs:
        try:
            proc.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # the whole group, still ours
            proc.wait()


def _lan_address() -> str | None:
    """This machine's address on the network students use (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        try:
            sock.connect(("10.255.255.255", 1))
            address: str = sock.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


def _say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


@dataclass
class Replica:
    """One Streamlit process and what the supervisor knows of it."""

    port: int
    proc: subprocess.Popen[bytes]
    restarts: int = 0
    healthy: bool = True  # as of the last health check (True: it answered at start-up)
    unhealthy_since: float | None = None  # monotonic time of the first failed check in a row
    started: float = field(default_factory=time.monotonic)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class Supervisor:
    """Keeps the replicas running: restarts one that exits or stops answering for too long."""

    def __init__(
        self, run_dir: Path, cookie_secret: str, restart_after: float, store: str | None = None
    ) -> None:
        self.run_dir = run_dir
        self.cookie_secret = cookie_secret
        self.restart_after = restart_after
        self.store = store
        self.replicas: dict[int, Replica] = {}

    def start(self, port: int) -> None:
        self.replicas[port] = Replica(
            port, start_replica(port, self.run_dir, self.cookie_secret, self.store)
        )

    def restart(self, replica: Replica, why: str) -> None:
        if replica.proc.poll() is None:
            stop([replica.proc])
        replica.restarts += 1
        _say(f"replica {replica.port} {why}; starting it again ({replica.restarts}/"
             f"{MAX_RESTARTS}; log: {self.run_dir}/replica-{replica.port}.log)")  # fmt: skip
        replica.proc = start_replica(replica.port, self.run_dir, self.cookie_secret, self.store)
        replica.started = time.monotonic()
        replica.healthy, replica.unhealthy_since = False, None

    def check(self) -> None:
        """One round: restart exited replicas, ask the others' health, report changes."""
        for replica in self.replicas.values():
            _check_stop()
            if replica.restarts >= MAX_RESTARTS and replica.proc.poll() is not None:
                continue  # given up on: nginx sends its students elsewhere
            if replica.proc.poll() is not None:
                self.restart(replica, f"exited with code {replica.proc.returncode}")
                continue
            now = time.monotonic()
            if is_healthy(replica.url):
                if not replica.healthy:
                    _say(f"replica {replica.port} answers its health check")
                replica.healthy, replica.unhealthy_since = True, None
                continue
            if replica.unhealthy_since is None:
                replica.unhealthy_since = now
            if replica.healthy:
                _say(f"replica {replica.port} does not answer its health check")
                replica.healthy = False
            waited = now - max(replica.unhealthy_since, replica.started)
            if self.restart_after > 0 and waited > self.restart_after:
                if replica.restarts >= MAX_RESTARTS:
                    continue  # left running: better a slow replica than none
                self.restart(replica, f"has not answered for {waited:.0f} s")
        if all(r.restarts >= MAX_RESTARTS and r.proc.poll() is not None
               for r in self.replicas.values()):  # fmt: skip
            raise DeployError("every replica keeps exiting (see the replica-*.log files)")


def _check_ports(args: argparse.Namespace, ports: Sequence[int]) -> None:
    if args.port in ports:
        raise DeployError(f"--port {args.port} is one of the replica ports {ports[0]}-{ports[-1]}")
    busy = [port for port in ports if not port_is_free(port)]
    if not port_is_free(args.port, args.listen):
        busy.insert(0, args.port)
    if busy:
        raise DeployError(f"port(s) {', '.join(map(str, busy))} already in use "
                          "(choose --port / --first-port)")  # fmt: skip


def _make_run_dir(given: str | None) -> Path:
    if given is None:
        return Path(tempfile.mkdtemp(prefix="mcts-lab-proxy-")).resolve()
    run_dir = Path(given).resolve()
    run_dir.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(OSError, ValueError):
        other = int((run_dir / PID_FILE).read_text())
        os.kill(other, 0)  # raises if no such process
        raise DeployError(f"{run_dir} is in use by run_replicas.py (pid {other})")
    return run_dir


def run(args: argparse.Namespace) -> int:
    nginx = find_nginx()
    if nginx is None:
        raise DeployError("nginx is not installed (apt-get install nginx)")
    if args.replicas < 1:
        raise DeployError("--replicas must be at least 1")
    ports = list(range(args.first_port, args.first_port + args.replicas))
    _check_ports(args, ports)
    if args.store == "redis" and not port_is_free(args.redis_port):
        raise DeployError(f"port {args.redis_port} (--redis-port) is in use")

    own_dir = args.run_dir is None
    run_dir = _make_run_dir(args.run_dir)
    if os.geteuid() == 0:
        run_dir.chmod(0o755)  # started as root, nginx's workers run as nobody
    write_pid(run_dir / PID_FILE, os.getpid())
    (run_dir / "nginx.conf").write_text(render_config(run_dir, f"{args.listen}:{args.port}",
                                                      ports))  # fmt: skip

    redis_proc: subprocess.Popen[bytes] | None = None
    store: str | None = None
    nginx_proc: subprocess.Popen[bytes] | None = None
    supervisor = Supervisor(run_dir, secrets.token_hex(32), args.restart_after)
    clean = False
    try:
        if args.store == "redis":
            redis_proc = start_redis(args.redis_port, run_dir)
            store = f"redis://127.0.0.1:{args.redis_port}/0"
            supervisor.store = store
        for port in ports:
            supervisor.start(port)
        deadline = time.monotonic() + args.timeout
        for replica in supervisor.replicas.values():
            wait_healthy(replica.url, replica.proc, run_dir / f"replica-{replica.port}.log",
                         deadline)  # fmt: skip
        _check_stop()
        nginx_proc = start_nginx(nginx, run_dir)
        local = f"http://127.0.0.1:{args.port}"
        wait_healthy(local, nginx_proc, run_dir / "nginx.log", time.monotonic() + 15)

        shown = "127.0.0.1" if args.listen in ("0.0.0.0", "127.0.0.1") else args.listen
        print(f"{URL_PREFIX}http://{shown}:{args.port}/ ({args.replicas} replica(s) on "
              f"127.0.0.1:{ports[0]}-{ports[-1]}, sticky by cookie)", flush=True)  # fmt: skip
        lan = _lan_address() if args.listen == "0.0.0.0" else None
        if lan:
            print(f"Students open http://{lan}:{args.port}/", flush=True)
        print(f"Class store: {store_in_use(store)}", flush=True)
        print(f"{RUN_DIR_PREFIX}{run_dir} (nginx.conf, logs, pids)", flush=True)
        print("Ctrl+C stops nginx and every replica.", flush=True)

        while True:
            _sleep(HEALTH_EVERY)
            if nginx_proc.poll() is not None:
                raise DeployError(f"nginx exited with code {nginx_proc.returncode}: "
                                  f"{_last_line(run_dir / 'nginx.log')}")  # fmt: skip
            supervisor.check()
    except Stop as why:
        _say(f"{why}: stopping nginx and {len(supervisor.replicas)} replica(s)")
        clean = True
        return 0
    finally:
        for signum in STOP_SIGNALS:
            signal.signal(signum, signal.SIG_IGN)  # a second Ctrl+C must not cut the cleanup
        procs = [p for p in (nginx_proc,) if p is not None]
        stop(procs + [replica.proc for replica in supervisor.replicas.values()])
        if redis_proc is not None:  # last: the replicas may write to it until they stop
            stop([redis_proc])
        for path in run_dir.glob("*.pid"):
            path.unlink(missing_ok=True)
        if own_dir and clean:
            shutil.rmtree(run_dir, ignore_errors=True)
        else:
            _say(f"logs kept in {run_dir}")
        if clean:
            _say("stopped")


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--replicas", type=int, default=int(os.environ.get("REPLICAS", "2")),
                        help="Streamlit processes (default: $REPLICAS or 2)")  # fmt: skip
    parser.add_argument("--port", type=int, default=8080, help="nginx's port (default 8080)")
    parser.add_argument("--listen", default="0.0.0.0",
                        help="nginx's address (default 0.0.0.0: the classroom network; "
                             "127.0.0.1 for this machine only)")  # fmt: skip
    parser.add_argument("--first-port", type=int, default=8501,
                        help="the first replica's port on 127.0.0.1 (default 8501)")  # fmt: skip
    parser.add_argument("--run-dir", default=None,
                        help="nginx.conf, pids, logs and temp files (default: a new temporary "
                             "directory, removed after a clean stop)")  # fmt: skip
    parser.add_argument("--timeout", type=float, default=90.0,
                        help="seconds to wait for the replicas to answer (default 90)")  # fmt: skip
    parser.add_argument("--restart-after", type=float, default=300.0,
                        help="restart a replica that has not answered its health check for "
                             "this many seconds (default 300; 0: only when it exits)")  # fmt: skip
    parser.add_argument("--store", choices=("sqlite", "redis"), default="sqlite",
                        help="where classes live: sqlite (the app's default file, every "
                             "replica on this machine) or redis (a redis-server started here, "
                             "its URL passed to every replica as MCTS_LAB_STORE)")  # fmt: skip
    parser.add_argument("--redis-port", type=int, default=6390,
                        help="the redis-server's port on 127.0.0.1 with --store redis "
                             "(default 6390)")  # fmt: skip
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    for signum in STOP_SIGNALS:
        signal.signal(signum, _on_signal)
    try:
        return run(args)
    except DeployError as error:
        print(f"run_replicas: {error}", file=sys.stderr, flush=True)
        return 1
    except Stop:  # a signal before run() got going
        return 0


if __name__ == "__main__":
    sys.exit(main())
