"""Open a tree or trace from any MCTS (the mcts-trace format, ``mcts_lab.traces`` reads it).

What lives here: the uploader and the file's tree, steps, narration and anomalies shown instead
of the live screen (:mod:`.trace_view`), and the file compared with a second run
(:mod:`.diff_view`, ``mcts-lab inspect A --diff B``).

It may import the session's defaults (``live``), the components, the drawing and the words;
only ``app/main.py`` imports it.
"""
