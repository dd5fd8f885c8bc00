"""Two searches in lockstep: where do two settings first choose differently, and why?

Two :class:`~mcts_core.Search` objects start from the same position with the **same seed** and
different settings, and run one iteration each per step (``Search.step()``). While their
selection paths agree, they make the same random draws (expansion order, chance outcomes,
rollouts all come from the search's own ``random.Random``), so after every step this module
checks that the two searches are still *in sync*: the same path, the same random generator
state, the same leaf values (compared in [-1, 1], so a [0, 1] search can be in sync with a
[-1, 1] one) and the same proofs. Two searches in sync hold the same tree statistics, so the
first iteration where their paths part is explained by the terms of one decision alone: which
term (Q, the exploration bonus, a rule, a proof) made the two settings choose differently.

Settings that change the random draws without changing the path (a rollout policy, a rollout
depth) put the searches out of sync before any path differs; the comparison says so
(``first_out_of_sync`` and its reason) and does not blame a single term for a later divergence.

``Lockstep`` (:mod:`mcts_lab.compare.lockstep`) steps the pair one iteration at a time (for a view
that steps on clicks; its records are in :mod:`mcts_lab.compare.records`);
``compare_searches`` runs a number of iterations and returns a frozen :class:`Comparison`, whose
``to_dict()`` is the ``mcts-lab compare --json`` object (docs/cli.md).
"""

from __future__ import annotations

from collections.abc import Callable

from mcts_core import (
    NodeCapReached,
    SearchConfig,
)
from mcts_core.config import check_count
from mcts_core.game import State
from mcts_lab.common import AnyGame
from mcts_lab.compare.lockstep import Lockstep, config_differences, path_labels
from mcts_lab.compare.records import (
    SYNC_TEXT,
    Comparison,
    Divergence,
    DivergenceKind,
    LockstepStep,
    StepComparison,
    show_value,
)

__all__ = [
    "Comparison",
    "DivergenceKind",
    "Divergence",
    "Lockstep",
    "LockstepStep",
    "MAX_COMPARE_ITERATIONS",
    "StepComparison",
    "compare_searches",
    "config_differences",
    "format_comparison",
    "path_labels",
]


#: Every step records two traces; this keeps a comparison's JSON and time bounded.
MAX_COMPARE_ITERATIONS = 100_000


def compare_searches(
    game: AnyGame,
    state: State,
    config_a: SearchConfig,
    config_b: SearchConfig,
    *,
    iterations: int,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Comparison:
    """Run two searches in lockstep for ``iterations`` iterations and compare every one.

    Args:
        game, state: the rules and the position (not finished).
        config_a, config_b: the two settings.
        iterations: 1 .. :data:`MAX_COMPARE_ITERATIONS`.
        seed: both searches' seed.
        progress: called as ``progress(done, total)`` every 100 iterations and at the end.

    A node cap that refuses either search's iteration ends the comparison there (``note``).
    """
    check_count("iterations", iterations, 1, MAX_COMPARE_ITERATIONS)
    lockstep = Lockstep(game, state, config_a, config_b, seed=seed)
    steps: list[StepComparison] = []
    note = ""
    for done in range(1, iterations + 1):
        try:
            steps.append(lockstep.step().comparison)
        except NodeCapReached:
            full = lockstep.a if lockstep.a.node_cap_reached else lockstep.b
            side = "A" if full is lockstep.a else "B"
            note = (
                f"{side}'s tree is full (max_nodes {full.config.max_nodes:,}) at iteration "
                f"{done}: the comparison stops after {done - 1} iterations"
                + (" (A ran one more)" if side == "B" else "")
            )
            break
        if progress is not None and (done % 100 == 0 or done == iterations):
            progress(done, iterations)
    return Comparison(
        iterations=iterations,
        iterations_run=len(steps),
        seed=seed,
        steps=tuple(steps),
        first_divergence=lockstep.first_divergence,
        first_out_of_sync=lockstep.first_out_of_sync,
        out_of_sync_reason=lockstep.out_of_sync_reason,
        differences=lockstep.differences,
        note=note,
        seconds_a=lockstep.seconds_a,
        seconds_b=lockstep.seconds_b,
        search_a=lockstep.a,
        search_b=lockstep.b,
    )


def format_comparison(
    comparison: Comparison, flags_a: str = "", flags_b: str = "", max_rows: int = 12
) -> str:
    """The readable report of ``mcts-lab compare``: settings, the first divergence explained,
    the iterations in runs of same / different paths (at most ``max_rows`` rows) and each
    search's final choice."""
    data = comparison.to_dict()
    position = data["position"] or "(start)"
    lines = [
        f"{data['game']} at {position!r}, seed {data['seed']}: {data['iterations_run']:,} "
        f"iterations of two searches in lockstep",
        f"A: {flags_a or '(default settings)'}",
        f"B: {flags_b or '(default settings)'}",
    ]
    if comparison.differences:
        lines.append(
            "settings that differ: "
            + ", ".join(
                f"{name} {show_value(a)} / {show_value(b)}"
                for name, (a, b) in comparison.differences.items()
            )
        )
    else:
        lines.append("the settings are the same: the two searches must never part")
    if comparison.note:
        lines.append(comparison.note)
    lines.append(
        f"same path on {comparison.same_path_iterations:,} of {comparison.iterations_run:,} "
        "iterations"
    )
    if comparison.first_out_of_sync is not None:
        reason = SYNC_TEXT[comparison.out_of_sync_reason or "path"]
        before = comparison.first_out_of_sync - 1
        lines.append(
            (f"in sync (same tree, same random stream) for {before} iterations; " if before else "")
            + f"out of sync from iteration {comparison.first_out_of_sync}: {reason}"
        )
    else:
        lines.append("in sync (same tree, same random stream) on every iteration")
    divergence = comparison.first_divergence
    if divergence is None:
        lines.append("first divergence: none")
    else:
        lines.append(
            f"first divergence: iteration {divergence.iteration}, depth {divergence.depth} "
            f"({divergence.kind}; deciding term: {divergence.deciding_term})"
        )
        lines.append(divergence.explanation)
    lines.append("iterations:")
    lines.extend(_runs(comparison.steps, max_rows))
    for side in ("a", "b"):
        summary = data[side]
        choices = ", ".join(f"{k} {v}" for k, v in summary["final_choices"].items())
        value = summary["root_value"]
        lines.append(
            f"{side.upper()} plays {summary['best_action']} (root value "
            f"{'?' if value is None else f'{value:+.3f}'}, root mover's view; {choices})"
        )
    lines.append("same final choice" if data["same_choice"] else "different final choices")
    return "\n".join(lines)


def _runs(steps: tuple[StepComparison, ...], max_rows: int) -> list[str]:
    """Runs of same-path iterations as one row, each differing iteration as its own row."""
    rows: list[str] = []
    index = 0
    while index < len(steps):
        if len(rows) >= max_rows:
            rows.append(f"  ... {len(steps) - index:,} more iterations (see --json)")
            break
        step = steps[index]
        if step.same_path:
            end = index
            while end + 1 < len(steps) and steps[end + 1].same_path:
                end += 1
            first, last = step.iteration, steps[end].iteration
            span = f"{first}" if first == last else f"{first}-{last}"
            rows.append(f"  {span:>11}  same path")
            index = end + 1
        else:
            rows.append(
                f"  {step.iteration:>11}  differ at depth {step.depth} ({step.kind}): "
                f"A {' '.join(step.path_a)} | B {' '.join(step.path_b)}"
            )
            index += 1
    return rows
