"""What the class's tests share besides pages: a class store of the test's own, and the real
redis-server the Redis backend is tested with (never mocked)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

__all__ = ["REDIS", "need_redis", "own_class_store"]

REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"


def need_redis(what: str) -> None:
    """Skip (fail under CI, which installs it) when there is no redis-server."""
    if not os.access(REDIS, os.X_OK):
        if os.environ.get("CI"):
            pytest.fail("redis-server is missing: .ci/run installs Debian's redis-server")
        pytest.skip(f"no redis-server (apt-get install redis-server): {what}")


def own_class_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A fixture's body: the test's own SQLite class store (the room is a process resource:
    cleared around the test)."""
    import app.classroom.shared as class_view

    monkeypatch.setenv("MCTS_LAB_STORE", f"sqlite:///{tmp_path / 'classes.db'}")
    class_view.room.clear()
    yield
    class_view.room.clear()
