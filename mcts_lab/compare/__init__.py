"""Two runs compared: two live searches in lockstep (``mcts-lab compare``, the app's A/B view)
and two recorded trace files (``mcts-lab inspect A --diff B``, the app's file view).

- ``searches``: :func:`compare_searches` and its text (the method is in its docstring).
- ``lockstep``: :class:`Lockstep`, two searches stepped one iteration each per step.
- ``records``: the frozen records of a comparison (``to_dict()`` is JSON-ready).
- ``trace_diff``, ``trace_diff_records``, ``trace_diff_report``: two files' first difference
  and final trees, their records, and the text and JUnit reports.

May import :mod:`mcts_lab.traces`, :mod:`mcts_lab.common`, the games and the search core;
nothing of the other mcts_lab folders.
"""

from mcts_lab.compare.lockstep import Lockstep
from mcts_lab.compare.searches import compare_searches

__all__ = ["Lockstep", "compare_searches"]
