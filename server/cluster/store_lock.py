"""The owner lock of a SQLite store: one server process per file, held for its lifetime.

Why: SQLite serialises writes, but it cannot tell a second *server* from a CLI reader; a
second `t24-server` on the same file used to recover every table (appending `TablePaused
server_restart` to tables the first server was playing) before it failed to bind its port
(issue 16). The lock is taken before the store is opened, so a refused start writes
nothing; it is an `flock` on `<file>.owner`, released by the kernel when the process dies,
so a crash never leaves a stale lock behind. The file holds the owner's pid, for the
message the second server prints.
"""

from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass

from server.eventlog.sqlite import database_file
from server.eventlog.store import StoreUnavailable, parse_store_url


class StoreOwned(StoreUnavailable):
    """Another live server process owns this store; this one must not touch it."""


@dataclass
class StoreLock:
    """A held owner lock (release it once the store is closed)."""

    path: str
    fd: int

    def release(self) -> None:
        """Drop the lock (idempotent); the file stays, it is harmless."""
        if self.fd >= 0:
            os.close(self.fd)  # closing the descriptor drops the flock
            self.fd = -1


def lock_path(store_url: str) -> str | None:
    """The owner lock file of a store URL: next to the file the store opens (a `file:` URI
    target names it too, `database_file`); None for stores with no file (memory,
    PostgreSQL)."""
    parsed = parse_store_url(store_url)
    if parsed.kind != "sqlite":
        return None
    file = database_file(parsed.target)
    return None if file is None else file + ".owner"


def acquire_store_lock(store_url: str) -> StoreLock | None:
    """Take the owner lock of a SQLite store, or raise `StoreOwned` naming the owner's pid.

    Never blocks: a second server must fail at once, with a clear message, not hang.
    """
    path = lock_path(store_url)
    if path is None:
        return None
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        try:
            owner = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
        finally:
            os.close(fd)
        raise StoreOwned(
            f"another t24-server (pid {owner}) is running on {store_url}: "
            "one server process per SQLite file (use PostgreSQL for several nodes); "
            "nothing was written"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode("ascii"), 0)
    return StoreLock(path, fd)
