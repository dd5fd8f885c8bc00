"""Starting the app on a network without internet prints the addresses and nothing that reads
like an error (Streamlit's "Did not auto detect external IP" warning is silenced by
.streamlit/config.toml)."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.mark.slow
def test_the_start_is_quiet_and_names_the_address() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app/main.py", "--server.port", str(port)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        for _ in range(120):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=1)
                break
            except OSError:
                time.sleep(0.5)
        time.sleep(2.5)  # the external-IP look-up times out after 1 s (twice)
    finally:
        server.terminate()
        output, _ = server.communicate(timeout=20)
    assert f"Local URL: http://localhost:{port}" in output
    for noise in ("Did not auto detect", "WARNING", "Traceback"):
        assert noise not in output, output
