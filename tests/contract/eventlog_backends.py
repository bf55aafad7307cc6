"""The store contract's cases: one `backend` per store, real files, the real PostgreSQL.

How Deferreds are waited for, robustly: the threaded stores only need `callFromThread`
from a reactor, so tests pass `ThreadReturns`, a stand-in that queues what the worker
threads hand back, and `wait(d)` runs those calls on the test's own thread until `d` fires.
The global reactor is never started here, so a test never depends on its turns; the cases
are trial TestCases all the same (`BackendCase`), whose checks fail a test that leaves the
reactor dirty or an error in a Deferred unhandled. (The child processes of the crash and race
tests run the real reactor.)

PostgreSQL: each test gets a fresh schema (tests/postgres_schemas.py), dropped afterwards.
"""

from __future__ import annotations

import queue
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from postgres_schemas import POSTGRES_URL, fresh_schema
from shell_testcase import ShellTestCase
from twisted.internet import defer, task
from twisted.python.failure import Failure

from server.eventlog.backends import open_blocking_store, open_store
from server.eventlog.store import EventStore, Upcasters

START = 1_700_000_000.0  # the test clock's epoch seconds (2023-11-14)


class ThreadReturns:
    """The one reactor method the threaded stores use, run on the test's thread by `wait`."""

    def __init__(self) -> None:
        self._calls: queue.Queue[tuple[Callable[..., Any], tuple, dict]] = queue.Queue()

    def callFromThread(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> None:  # noqa: N802
        self._calls.put((function, args, kwargs))

    def wait(self, deferred: defer.Deferred, timeout: float = 15.0) -> Any:
        """Run handed-back calls until `deferred` fires; return its result or raise its error."""
        results: list[Any] = []
        deferred.addBoth(results.append)
        deadline = time.monotonic() + timeout
        while not results:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError("the Deferred did not fire in time")
            try:
                function, args, kwargs = self._calls.get(timeout=remaining)
            except queue.Empty:
                continue
            function(*args, **kwargs)
        result = results[0]
        if isinstance(result, Failure):
            result.raiseException()
        return result


@dataclass
class Backend:
    """One store under test, and what a test needs around it."""

    kind: str
    url: str
    clock: task.Clock
    returns: ThreadReturns
    stores: list[Any] = field(default_factory=list)

    def open(self, upcasters: Upcasters | None = None) -> EventStore:
        """A Deferred-API store on this backend (memory: the same data for every call)."""
        if self.kind == "memory":
            from server.eventlog.memory import MemoryStore

            if not self.stores:
                store = open_store("memory:", clock=self.clock.seconds, upcasters=upcasters)
            else:
                engine = self.stores[0].engine
                if upcasters is not None:
                    engine.upcasters = upcasters
                store = MemoryStore(engine)
        else:
            store = open_store(
                self.url, clock=self.clock.seconds, upcasters=upcasters, reactor=self.returns
            )
        self.stores.append(store)
        return store

    def blocking(self) -> Any:
        """A blocking engine on the same data (the memory backend shares its engine)."""
        if self.kind == "memory":
            return self.stores[0].engine if self.stores else self.open().engine
        engine = open_blocking_store(self.url, clock=self.clock.seconds)
        self.stores.append(engine)
        return engine

    def wait(self, deferred: defer.Deferred) -> Any:
        return self.returns.wait(deferred)

    def execute(self, statement: str, params: tuple = ()) -> None:
        """Change the stored rows behind the store's back (tampering tests)."""
        if self.kind == "sqlite":
            import sqlite3

            connection = sqlite3.connect(self.url[len("sqlite:///") :], isolation_level=None)
            try:
                connection.execute(statement, params)
            finally:
                connection.close()
        else:
            import psycopg

            schema = self.url.split("schema=")[1]
            with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
                connection.execute(f'SET search_path TO "{schema}"')
                connection.execute(statement.replace("?", "%s"), params)

    def close_all(self) -> None:
        for store in reversed(self.stores):
            closing = store.close()
            if isinstance(closing, defer.Deferred):
                self.wait(closing)


KINDS = ("memory", "sqlite", "postgres")


def open_backend(case: ShellTestCase, kind: str) -> Backend:
    """A fresh `kind` store for `case` (a trial TestCase): closed when the test ends, its
    PostgreSQL schema dropped, and the test fails if threads it started are left behind."""
    clock = task.Clock()
    clock.advance(START)
    threads_before = set(threading.enumerate())
    case.addCleanup(_no_threads_left, threads_before)  # registered first: runs last
    cleanup = ExitStack()
    case.addCleanup(cleanup.close)
    if kind == "memory":
        url = "memory:"
    elif kind == "sqlite":
        url = f"sqlite:///{Path(tempfile.mkdtemp(dir=case.tmp_path)) / 'events.sqlite'}"
    else:
        url, _schema = cleanup.enter_context(fresh_schema())
    backend = Backend(kind, url, clock, ThreadReturns())
    cleanup.callback(backend.close_all)  # before the schema is dropped
    return backend


def _no_threads_left(threads_before: set[threading.Thread]) -> None:
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        left = [t for t in threading.enumerate() if t not in threads_before and t.is_alive()]
        if not left:
            break
        time.sleep(0.01)
    assert not left, f"threads left behind: {left}"


class BackendCase(ShellTestCase):
    """A contract test case on one store: `self.backend`, fresh for each test. A contract is
    a plain class of tests, run once per store by a subclass per kind:
    `class SQLiteX(XContract, BackendCase): kind = "sqlite"`."""

    kind = "memory"

    def setUp(self) -> None:
        super().setUp()
        self.backend = open_backend(self, self.kind)
