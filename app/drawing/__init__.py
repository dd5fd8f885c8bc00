"""Pure pictures of the search: nothing here imports Streamlit.

What lives here: the app's colours (:mod:`.palette`), the browser tree's records
(:mod:`.tree_model`), layout (:mod:`.tree_layout`) and box words (:mod:`.tree_text`), the tree
as Graphviz DOT (:mod:`.tree_dot`), tables, formulas and Plotly figures (:mod:`.figures`) and
the board SVGs (:mod:`.boards`).

It may import the words (the exact answer's record) and ``mcts_lab``, ``games``, ``mcts_core``.
"""
