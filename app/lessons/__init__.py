"""Lessons: a guided tour of pages, each setting up the search and saying what to press.

What lives here: reading and checking ``lessons/*.toml`` (:mod:`.reading`, pure: no Streamlit)
and the lesson picker, the open page and applying a page's settings (:mod:`.lesson_view`);
what a page claims and the check of a claim against a run of the page (:mod:`.claims`, pure).

``reading`` may import the inputs' checks and the quiz's core; ``lesson_view`` also the session
(``live``), the components and the quiz's view.
"""
