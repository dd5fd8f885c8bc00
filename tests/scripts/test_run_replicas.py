"""deploy/run_replicas.py's console line about the class store (issue 42 item 7): it names the
store the replicas use, the environment's ``MCTS_LAB_STORE`` included, without a password."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "deploy"))
import run_replicas


def test_the_console_names_the_store_the_replicas_use() -> None:
    said = run_replicas.store_in_use
    assert said(None, {}) == "the app default (SQLite, shared by this machine)"
    assert said(None, {"MCTS_LAB_STORE": " "}) == said(None, {})
    # inherited from the environment: every replica uses it, the console says so
    assert said(None, {"MCTS_LAB_STORE": "redis://10.0.0.5:6379/0"}) == (
        "redis://10.0.0.5:6379/0 (MCTS_LAB_STORE)"
    )
    # --store redis: the redis-server it started, whatever the environment says
    ours = "redis://127.0.0.1:6390/0"
    assert said(ours, {"MCTS_LAB_STORE": "sqlite:////tmp/x.db"}) == ours
    # a password is not printed (the console is on the projector in class)
    shown = said(None, {"MCTS_LAB_STORE": "redis://:s3cret@db.school:6379/0"})
    assert shown == "redis://:***@db.school:6379/0 (MCTS_LAB_STORE)"
    assert "s3cret" not in said(None, {"MCTS_LAB_STORE": "redis://lab:s3cret@db:6379/0"})
