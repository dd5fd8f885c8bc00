"""The class's pure core (no Streamlit): what a class is and the rules it runs by.

What lives here: the records (:mod:`.records`), join codes and nicknames (:mod:`.codes`), the
shared store behind one interface with its SQLite and Redis backends (:mod:`.store`), the
room's rules (:mod:`.room`), the typed frame the teacher publishes (:mod:`.frame`), the one
grading of the class's answers (:mod:`.results`), Peer Instruction's numbers read from it
(:mod:`.peer`), a question about a move (:mod:`.moves`), the class's words in each phone's
language (:mod:`.said`) and the end-of-class summary (:mod:`.summary`).

It imports the app's pure words and the quiz's pure core, never a page; both pages (the
teacher's, :mod:`app.classroom.teacher`, and the student's, :mod:`app.classroom.student`)
import it.
"""
