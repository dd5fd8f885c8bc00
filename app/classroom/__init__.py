"""A class takes part: the teacher's screen published to students who join by code and answer
together.

What lives here: the pure core (no Streamlit; this package's own names are from it): the
records (:mod:`.records`), join codes and nicknames (:mod:`.codes`), the shared store with its
SQLite and Redis backends (:mod:`.store`), the rules (:mod:`.room`) and the typed frame the
teacher publishes (:mod:`.frame`, imported by name); and the Streamlit sides, imported by name:
the teacher's (:mod:`.teacher`: Start, the join and room boxes, publishing the screen), the
student's page (:mod:`.student`) and the process's watcher that pushes a class's changes to its
students' pages (:mod:`.push`).

The core imports nothing of the app; ``push`` only the room's rules; ``teacher`` the core,
``push``, the inputs, the session (``live``) and the quiz's core; ``student`` also ``teacher``,
the components and the quiz's view.
"""

from app.classroom.records import ClassError, ClassInfo, Poll, Student
from app.classroom.room import Room, RoomCount, Teacher
from app.classroom.store import ClassStore, open_store, store_url

__all__ = [
    "ClassError",
    "ClassInfo",
    "ClassStore",
    "Poll",
    "Room",
    "RoomCount",
    "Student",
    "Teacher",
    "open_store",
    "store_url",
]
