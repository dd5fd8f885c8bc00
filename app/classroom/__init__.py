"""A class takes part: the teacher's screen published to students who join by code and answer
together.

What lives here, in three parts: the pure core (:mod:`.core`: records, codes, the store, the
room's rules, the frame, the one grading of answers, Peer Instruction's numbers, the summary;
this package's own names are from it), the teacher's page (:mod:`.teacher`) and the student's
page (:mod:`.student`), imported by name. Below both pages: what they share (:mod:`.shared`:
the room and the session's class, the CSS, the bars of a reveal, the client's address) and the
process's watcher that pushes a class's changes to its students' pages (:mod:`.push`).

The core imports nothing of the pages; ``push`` only the room's rules; ``shared`` the core and
``push``; the teacher's page also the inputs, the session (``live``) and the quiz's core; the
student's page the components and the quiz's view, and nothing of the teacher's page.
"""

from app.classroom.core.records import ClassError, ClassInfo, Poll, Student
from app.classroom.core.room import Room, RoomCount, Teacher
from app.classroom.core.store import ClassStore, open_store, store_url

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
