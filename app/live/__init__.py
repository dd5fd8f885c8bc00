"""The session model and every callback that changes ``st.session_state``.

What lives here: the session record and its guards (:mod:`.session`), start-up, links and the
setting callbacks (:mod:`.state`), the history of steps (:mod:`.history`), Step, Step N, phases
and autoplay (:mod:`.stepping`), Step clicks counted as they arrive (:mod:`.clicks`), moves
played at the root (:mod:`.play`), the arena and sweep runs (:mod:`.jobs`), the cache of exact
answers (:mod:`.exact_cache`) and search B stepped beside A (:mod:`.ab`).

It may import the components, the inputs, the pure folders (drawing, words, the quiz's core)
and ``mcts_lab``, ``games`` and ``mcts_core``; nothing that draws a page (screen, views).
"""
