"""What reaches the app from outside, checked in one place.

What lives here: every URL parameter checked against the widgets' ranges (:mod:`.links`), the
address others reach the app at (:mod:`.public_url`), the detail tabs a link or lesson may name
(:mod:`.tabs`), and the sidebar widgets' values read as a ``SearchConfig`` and the drawing's
bounds (:mod:`.widget_values`), and the page's language: the choice among the select, the link
and the browser's ``Accept-Language`` (:mod:`.language`) made current each run
(:mod:`.language_choice`). Only ``widget_values`` and ``language_choice`` read
``st.session_state``.

It may import the drawing (the bounds' record), the words' ``i18n`` and ``mcts_lab``,
``games``, ``mcts_core``; ``links``, ``tabs``, ``public_url`` and ``language`` import no
Streamlit.
"""
