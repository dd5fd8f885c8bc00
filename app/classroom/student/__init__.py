"""A student's page of a class (Streamlit), imported by name: the page at ``/?class=CODE``
(:mod:`.page`: join, follow the teacher's screen, explore on one's own), the open question and
the last reveal (:mod:`.answer`), who the page's student is (:mod:`.me`) and the taps on the
tree or the board that answer a question about a move (:mod:`.taps`).

It imports the class's core, what both pages share (:mod:`app.classroom.shared`), the
components and the quiz's view; nothing of the teacher's page.
"""
