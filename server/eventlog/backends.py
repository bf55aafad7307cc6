"""Opening the store a URL names: `open_store(url)` for the shell, `open_blocking_store(url)`
for the CLI, tools and child processes.

Why a module of its own: every backend (memory, sqlite, postgres, threaded) imports the
contract in store.py, and opening imports every backend; in store.py the two made a circle
(docs/architecture.md, "Layers, checked"). The backends are imported where they are opened,
not with this module: a CLI reading a SQLite file never loads psycopg, and a blocking store
never loads Twisted.
"""

from __future__ import annotations

import os
import time
from typing import TYPE_CHECKING, Any

from server.eventlog.store import (
    DEFAULT_STORE_URL,
    BlockingStore,
    Clock,
    EventStore,
    StoreUnavailable,
    Upcasters,
    parse_store_url,
)

if TYPE_CHECKING:
    from server.eventlog.engine import Engine

__all__ = ["open_blocking_store", "open_store"]


def open_blocking_store(
    url: str = DEFAULT_STORE_URL,
    *,
    clock: Clock = time.time,
    upcasters: Upcasters | None = None,
    create: bool = True,
) -> BlockingStore:
    """Open the store named by `url` with plain blocking calls (CLI, tools, child processes).

    With `create=False` a missing SQLite file or PostgreSQL schema is `StoreUnavailable`
    instead of being created: a reader must not leave empty databases behind.
    """
    return _open_engine(url, clock=clock, upcasters=upcasters, create=create)


def _open_engine(
    url: str, *, clock: Clock, upcasters: Upcasters | None, create: bool = True
) -> Engine:
    """The blocking engine behind both faces (`open_blocking_store`, `open_store`)."""
    parsed = parse_store_url(url)
    upcasters = upcasters if upcasters is not None else Upcasters()
    if parsed.kind == "memory":
        from server.eventlog.memory import MemoryEngine

        return MemoryEngine(clock=clock, upcasters=upcasters)
    if parsed.kind == "sqlite":
        from server.eventlog.sqlite import SQLiteEngine

        if not create and not os.path.exists(parsed.target):
            raise StoreUnavailable(f"no SQLite event log at {parsed.target!r}")
        return SQLiteEngine(
            parsed.target,
            synchronous=parsed.options["synchronous"],
            clock=clock,
            upcasters=upcasters,
        )
    from server.eventlog.postgres import PostgresEngine

    return PostgresEngine(
        parsed.target,
        schema=parsed.options["schema"],
        clock=clock,
        upcasters=upcasters,
        create=create,
    )


def open_store(
    url: str = DEFAULT_STORE_URL,
    *,
    clock: Clock = time.time,
    upcasters: Upcasters | None = None,
    reactor: Any = None,
    read_threads: int = 2,
) -> EventStore:
    """Open the store named by `url` for the shell: every method returns a Deferred.

    `memory:` answers with already-fired Deferreds (no reactor needed, so tests with
    `task.Clock` stay synchronous). SQLite and PostgreSQL run their blocking calls in two
    Twisted thread pools (one writer thread doing group commit, `read_threads` readers);
    `reactor` (default: the global one) only needs `callFromThread`. Opening connects and
    creates the schema synchronously: call it at start-up.
    """
    engine = _open_engine(url, clock=clock, upcasters=upcasters)
    if parse_store_url(url).kind == "memory":
        from server.eventlog.memory import MemoryEngine, MemoryStore

        assert isinstance(engine, MemoryEngine)  # `memory:` opens nothing else
        return MemoryStore(engine)
    from server.eventlog.threaded import ThreadedStore

    return ThreadedStore(engine, reactor=reactor, read_threads=read_threads)
