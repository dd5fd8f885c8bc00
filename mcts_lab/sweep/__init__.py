"""``mcts-lab sweep``: one search parameter over a list of values, each value an arena against
one opponent (the app's arena tab runs the same).

- ``sweeps``: :func:`run_sweep`, the parameters a sweep may vary, its text and SVG.
- ``backends``: where the tasks run (this process, a process pool, Ray).
- ``stats``: win, draw and loss rates with Wilson intervals, and the sweep's result record.

May import :mod:`mcts_lab.arena`, :mod:`mcts_lab.common`, :mod:`mcts_lab.settings`, the games
and the search core; nothing of the other mcts_lab folders.
"""

from mcts_lab.sweep.sweeps import run_sweep

__all__ = ["run_sweep"]
