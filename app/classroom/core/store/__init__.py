"""Where a class lives: one small interface, two backends every app process can share.

- :class:`SQLiteStore`: one SQLite file in WAL mode (Python's ``sqlite3``): no set-up, one or
  several processes on one machine. The default (:data:`DEFAULT_URL`).
- :class:`RedisStore`: a Redis server (the ``redis`` client), for replicas on several machines.

:func:`open_store` picks one from a URL (``MCTS_LAB_STORE``): ``sqlite:///path/to/file.db`` or
``redis://host:6379/0``. The rules (who may do what, limits, validation) are the room's
(:mod:`app.classroom.core.room`); a store keeps records and answers small questions quickly. The
question the app asks most, :meth:`ClassStore.version` (each app process's watcher, ten times a
second per class), is one indexed read. Either backend's failure (a Redis server away, a SQLite
file that cannot be written) reaches the caller as :class:`StoreError`, an ``OSError``: the app
says "the class store did not answer" instead of showing a traceback.

The interface and what both backends share are in :mod:`.base`; the backends in
:mod:`.sqlite` and :mod:`.redis` (imported here only: the app asks for a store by URL).

Nothing here is lost when a process restarts: every record is in the store. A class untouched
for :data:`RETENTION_SECONDS` is deleted (SQLite: by :meth:`ClassStore.purge`, which the room
calls when a class starts; Redis: by the keys' time to live).
"""

from __future__ import annotations

from app.classroom.core.store.base import (
    DEFAULT_URL,
    RETENTION_SECONDS,
    ClassStore,
    StoreError,
    default_store_path,
    store_url,
)
from app.classroom.core.store.redis import RedisStore
from app.classroom.core.store.sqlite import SQLiteStore

__all__ = [
    "DEFAULT_URL",
    "default_store_path",
    "RETENTION_SECONDS",
    "ClassStore",
    "RedisStore",
    "SQLiteStore",
    "StoreError",
    "open_store",
    "store_url",
]


def open_store(url: str | None = None) -> ClassStore:
    """The store at ``url`` (default :func:`store_url`); ``ValueError`` for another scheme."""
    url = url or store_url()
    if url.startswith("sqlite://"):
        path = url[len("sqlite://") :]
        if not path or path == "/":
            raise ValueError(f"no file in the store URL {url!r}: sqlite:///path/to/file.db")
        return SQLiteStore(path)
    if url.startswith(("redis://", "rediss://", "unix://")):
        return RedisStore(url)
    raise ValueError(f"unknown store {url[:40]!r}: use sqlite:///path/to/file.db or redis://host")
