"""``mcts-lab inspect``'s library: what is wrong in a search tree or a trace file.

- ``inspection``: the summary of a trace file and the run of every check over it (the
  command's text and JSON).
- ``checks``: the anomaly checks in one registry (:data:`~mcts_lab.inspect.checks.ANOMALY_CHECKS`),
  in the order they run, each record saying whether it reads only a node and its children.
- ``anomalies``: what the checks share: the file's facts, the log an anomaly goes into, the
  decision checks.
- ``selection_checks``, ``statistics_checks``, ``exact_check``: the checks by kind (what UCT
  guarantees, the statistical ones, the exact value).
- ``incremental``: the local checks on a live search after every iteration (the ``anomaly``
  breakpoint).

May import :mod:`mcts_lab.traces`, :mod:`mcts_lab.common`, :mod:`mcts_lab.exact`, the games and
the search core; nothing of the other mcts_lab folders (the breakpoints import this one).
"""
