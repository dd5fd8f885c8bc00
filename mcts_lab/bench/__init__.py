"""``mcts-lab bench``: speed and memory of the lab's search against baselines (numbers to print,
never asserted in tests).

- ``benchmark``: the report (:func:`~mcts_lab.bench.benchmark.run_bench`) and its targets.
- ``runs``: the timed runs, one runner per searcher (ours, :mod:`mcts_lab.textbook`'s UCT,
  OpenSpiel's), and :func:`bytes_per_simulation`.
- ``machine``: the machine a benchmark ran on, named in its report.

May import :mod:`mcts_lab.common`, :mod:`mcts_lab.presets`, :mod:`mcts_lab.textbook`, the games
and the search core; nothing of the other mcts_lab folders.
"""

from mcts_lab.bench.runs import bytes_per_simulation

__all__ = ["bytes_per_simulation"]
