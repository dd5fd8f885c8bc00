"""Pure words about the search, plain text for a student: nothing here imports Streamlit.

What lives here: the sentence pieces every narration shares (:mod:`.phrases`), the narration of
an iteration and of each phase (:mod:`.narration`), of an opened file's record
(:mod:`.record_words`), the sentence on C (:mod:`.c_sentence`) with its arithmetic
(:mod:`.c_sensitivity`), the exact values beside Q in words (:mod:`.exact`), and the one
translation function with the current language and numbers per language (:mod:`.i18n`; its
catalogues in app/locale/, docs/translations.md).

It may import ``mcts_lab``, ``games``, ``mcts_core`` and Babel only: the lowest of the app's
folders.
"""
