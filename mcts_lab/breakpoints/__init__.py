"""Where a run stops and what it shows as it runs: breakpoint conditions and watch expressions,
on a live search or over a trace file's recorded iterations.

- ``conditions``: the breakpoint conditions in one registry
  (:data:`~mcts_lab.breakpoints.conditions.BREAKPOINTS`; ``mcts-lab search --until``, the app's
  Run until), each record saying what a trace file must hold for it; the :class:`SearchView`
  a condition reads.
- ``on_files``: the same conditions asked over a trace file (a replay is a ``SearchView``).
- ``watch``: watch expressions over the root's statistics (``mcts-lab inspect --watch``, the
  app's watch panel).

May import :mod:`mcts_lab.traces`, :mod:`mcts_lab.inspect` (the ``anomaly`` condition),
:mod:`mcts_lab.common`, :mod:`mcts_lab.exact`, the games and the search core.
"""
