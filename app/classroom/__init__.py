"""A class takes part: the teacher's screen published to students who join by code and answer
together. Pure Python (no Streamlit): the records (:mod:`.records`), join codes and nicknames
(:mod:`.codes`), the shared store with its SQLite and Redis backends (:mod:`.store`) and the
rules (:mod:`.room`)."""

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
