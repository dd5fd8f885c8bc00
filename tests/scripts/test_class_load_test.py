"""scripts/class_load_test.py's arithmetic, without servers (the class itself is a script the
capacity table in README and docs/deploy.md comes from, too long for CI): the waits outside
the faults, the lost answers, and the one line each class ends with."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
import class_load_test as clt  # noqa: E402


def test_a_wait_that_overlaps_a_fault_window_is_not_clear() -> None:
    run = clt.ClassRun(students=3, seconds=60.0, windows=[(10.0, 12.0), (30.0, 31.5)])
    waits = [(1.0, 0.5), (9.0, 0.9), (9.5, 0.4), (11.0, 3.0), (12.5, 0.2), (29.0, 2.0),
             (31.6, 0.3)]  # fmt: skip
    # (9.0 + 0.9 ends before 10; 9.5 + 0.4 = 9.9 too; 11.0 starts inside; 29 + 2 = 31 overlaps)
    assert clt._clear(run, waits) == [0.5, 0.9, 0.4, 0.2, 0.3]
    assert clt._clear(clt.ClassRun(3, 60.0), waits) == [w for _, w in waits]  # no fault


def _row(**changes: object) -> dict[str, object]:
    run = clt.ClassRun(students=120, seconds=60.0, recorded=470, late=6, missing=1, resent=2,
                       faults=clt.Faults(reloads=[42.5]))  # fmt: skip
    run.step_latency = [0.2, 0.4, 0.6, 0.8, 1.0]
    run.count_latency = [0.5, 1.0, 1.5, 2.0, 2.5]
    run.step_clear, run.count_clear = [0.2, 0.4], [0.5, 1.0]
    run.answers = [clt.Answer("s1", 0, 1.0, ("q", 1), dropped=True)]
    run.dropped_kept = 1
    row = clt.summary(run)
    row.update(replica_cpu_pct=[61, 47], rss_after_mb=[301.4, 280.6], rss_peak_mb=[310.0, 290.2],
               load_before="1.5 1.2 1.0", load_after="3.1 1.8 1.2", **changes)  # fmt: skip
    return row


def test_the_class_s_line_says_what_was_received_lost_and_how_fast() -> None:
    row = _row()
    assert row["answers_sent"] == 479 and row["answers_lost"] == 3  # missing + resent
    assert clt.headline(row, "redis") == (
        "redis, 120 students: answers sent 479, received 470, lost 3, late 6 (1 tapped as their "
        "page dropped, 1 of them kept); a Step on the students' screens p50 0.60 s, p95 0.96 s; "
        "tap to the teacher's count p50 1.50 s, p95 2.40 s (outside the faults: Step p95 "
        "0.39 s, count p95 0.97 s); replicas' CPU 61% / 47% of a core, RSS 301 / 281 MB (peak 310 "
        "/ 290); load "
        "1.5 1.2 1.0 -> 3.1 1.8 1.2; targets MISSED: lost > 0, count p95 > 1.5 s"
    )
    met = _row(answers_lost=0, answer_to_count_s={"p50": 0.5, "p95": 1.5, "p100": 2.0})
    assert clt.headline(met, "sqlite").endswith("; targets met")


def test_a_dropped_page_reconnects_when_streamlit_s_page_would() -> None:
    """Streamlit 1.67's page (``nextReconnectDelayMs``): the first try 0.25-0.5 s after the
    drop, then the upper half of 0.5 s doubled each time, at most 4 s."""
    import random

    rng = random.Random(0)
    bounds = {1: (0.25, 0.5), 2: (0.5, 1.0), 3: (1.0, 2.0), 4: (2.0, 4.0), 9: (2.0, 4.0)}
    for attempt, (least, most) in bounds.items():
        waits = [clt.reconnect_delay(attempt, rng) for _ in range(200)]
        assert least <= min(waits) and max(waits) < most
        assert max(waits) - min(waits) > (most - least) / 2  # spread, not one value


def test_an_answer_counts_in_the_round_its_label_names(tmp_path: Path) -> None:
    """Two questions that read the same, one after the other: an answer tagged for the first,
    sent after the second opened, reached a closed round ("late", the page was behind), and
    is not taken for a lost answer to the second; one tagged for the second is kept there."""
    import time

    from app.classroom import Room, open_store
    from app.classroom.student.answer import round_tag

    url = f"sqlite:///{tmp_path / 'classes.db'}"
    room = Room(open_store(url))
    teacher = room.start()
    student = room.join(teacher.code, "10.0.0.1")[1]
    first = room.open_question(teacher.code, teacher.secret, "q1", "Which move?", ["a", "b"])
    room.reveal(teacher.code, teacher.secret, ["a"])
    time.sleep(0.01)  # (the second opens later)
    second = room.open_question(teacher.code, teacher.secret, "q2", "Which move?", ["a", "b"])
    assert room.answer(teacher.code, student.id, second.id, second.round, "b")
    after = second.opened + 0.001
    run = clt.ClassRun(
        students=1, seconds=1.0, code=teacher.code, polls=[first.opened, second.opened]
    )
    run.answers = [
        clt.Answer(student.id, 0, after, ("Which move?", 1), tag=round_tag(first)),  # too late
        clt.Answer(student.id, 1, after, ("Which move?", 1), tag=round_tag(second)),
    ]
    clt._compare_store(run, url)
    assert (run.recorded, run.late, run.missing, run.resent) == (1, 1, 0, 0)
