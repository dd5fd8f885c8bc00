"""What reaches the app from outside, checked in one place.

What lives here: every URL parameter checked against the widgets' ranges (:mod:`.links`), the
address others reach the app at (:mod:`.public_url`), the detail tabs a link or lesson may name
(:mod:`.tabs`), and the sidebar widgets' values read as a ``SearchConfig`` and the drawing's
bounds (:mod:`.widget_values`, the one module here that reads ``st.session_state``).

It may import the drawing (the bounds' record) and ``mcts_lab``, ``games``, ``mcts_core``;
``links``, ``tabs`` and ``public_url`` import no Streamlit.
"""
