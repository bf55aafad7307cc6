"""The Deferred face of a blocking engine: thread pools, group commit, clean shutdown.

Why threads: SQLite and psycopg calls block; the reactor thread must not. Every read runs
in a Twisted `ThreadPool` through `deferToThreadPool`, every commit on the writer thread
below, and their results come back on the reactor thread (`reactor.callFromThread`, the
only reactor method used here, so tests can pass a stand-in and never touch the global
reactor).

Group commit: one writer thread. An append is validated on the caller's thread, then
queued. When no commit is in flight the queue (up to `max_batch` appends) goes to the writer
as one `engine.append_batch` call, committed in one transaction with one fsync; appends
arriving meanwhile wait in the queue and form the next batch. Each caller still gets its own
events or its own `ConcurrencyError`, in arrival order, and only after the commit.

The writer is a thread of its own fed by a `SimpleQueue`, and a batch's outcome comes back
in one `callFromThread`, not through a `ThreadPool` and a Deferred. Why (issue 32): a paced
table commits nearly every command alone, and the pool's hand-off (its context capture,
team coordination, the Deferred and its callbacks) was per-commit work on both threads
(docs/performance.md, "The paced command", 2026-12-03).

Bulk appends (`append_bulk`: the tables a tournament's round start creates, 500 at once, each
a `TableCreated` of a few KB) wait in a lane of their own, and each commit takes at most
`BULK_BYTES_PER_COMMIT` of them (at least one) besides every ordinary append queued. Why
(issue 32): a commit's fsync grows with what it writes, and the live tables' appends shared
commits of hundreds of KB with the creations; now their commits stay small, and the
creations take a few more commits.

Reads run in a separate pool of `read_threads`, so a replay never waits behind a commit.

`close()` stops taking work, lets every accepted append and read finish, then joins both
pools and closes the engine. It is also registered to run before reactor shutdown, as a
safety net for a store nobody closes. An owner with its own shutdown order calls
`hand_over_shutdown()` and closes the store itself, last: the server must let its tables
append the commands still queued behind an in-flight append, and a store that started
closing at the same moment would refuse those appends (`StoreClosed`).
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from queue import SimpleQueue
from typing import Any, TypeVar

from twisted.internet import defer
from twisted.internet.threads import deferToThreadPool
from twisted.python.failure import Failure
from twisted.python.threadpool import ThreadPool

from server.eventlog.engine import AppendRequest, Engine, Outcome, make_request
from server.eventlog.envelope import NewEvent, RecordedEvent
from server.eventlog.store import StoreClosed, VerifyReport

T = TypeVar("T")
Waiting = tuple[AppendRequest, defer.Deferred[list[RecordedEvent]]]
BULK_BYTES_PER_COMMIT = 32 * 1024  # bulk appends' event data per commit, at most (module doc)


class ThreadedStore:
    """The `EventStore` contract over a thread-safe blocking `Engine` (SQLite, PostgreSQL)."""

    def __init__(
        self,
        engine: Engine,
        *,
        reactor: Any = None,
        read_threads: int = 2,
        max_batch: int = 1000,
    ) -> None:
        if reactor is None:
            from twisted.internet import reactor as global_reactor

            reactor = global_reactor
        self.engine = engine
        self._reactor = reactor
        self._max_batch = max_batch
        name = type(engine).__name__
        # the writer thread, started with the first commit (`_commit_next`); None stops it
        self._batches: SimpleQueue[list[Waiting] | None] = SimpleQueue()
        self._writer: threading.Thread | None = None
        self._writer_name = f"{name}-writer"
        self._readers = ThreadPool(minthreads=0, maxthreads=read_threads, name=f"{name}-reader")
        self._readers.start()
        self._queue: list[Waiting] = []
        self._bulk: deque[Waiting] = deque()  # `append_bulk`'s lane
        self._committing = False
        self._reads: set[defer.Deferred[Any]] = set()
        self._closing = False
        self._closed = False
        self._close_waiters: list[defer.Deferred[None]] = []
        self._shutdown_trigger = None
        if hasattr(reactor, "addSystemEventTrigger"):
            self._shutdown_trigger = reactor.addSystemEventTrigger(
                "before", "shutdown", self._close_on_shutdown
            )

    # -- writes ------------------------------------------------------------------------------

    def append(
        self, stream: str, expected_seq: int, events: Sequence[NewEvent]
    ) -> defer.Deferred[list[RecordedEvent]]:
        """See `EventStore.append`: fires after the group commit that carries it."""
        return self._enqueue(stream, expected_seq, events, self._queue)

    def append_bulk(
        self, stream: str, expected_seq: int, events: Sequence[NewEvent]
    ) -> defer.Deferred[list[RecordedEvent]]:
        """`append` for work that comes in bulk (see the module doc): the same outcome, in
        its own lane, a bounded share of each commit. A stream's appends must all go in one
        lane (the hub's: a table's `TableCreated` only, before anything else of it)."""
        return self._enqueue(stream, expected_seq, events, self._bulk)

    def _enqueue(
        self,
        stream: str,
        expected_seq: int,
        events: Sequence[NewEvent],
        lane: list[Waiting] | deque[Waiting],
    ) -> defer.Deferred[list[RecordedEvent]]:
        if self._closing:
            return defer.fail(StoreClosed("the event store is closed"))
        try:
            request = make_request(stream, expected_seq, events)
        except Exception:
            return defer.fail()
        waiting: defer.Deferred[list[RecordedEvent]] = defer.Deferred()
        lane.append((request, waiting))
        self._commit_next()
        return waiting

    def _commit_next(self) -> None:
        if self._committing or not (self._queue or self._bulk):
            return
        batch, self._queue = self._queue[: self._max_batch], self._queue[self._max_batch :]
        size = 0
        while self._bulk and len(batch) < self._max_batch:
            request = self._bulk[0][0]
            grown = sum(len(event.data_bytes) for event in request.events)
            if size and size + grown > BULK_BYTES_PER_COMMIT:
                break
            batch.append(self._bulk.popleft())
            size += grown
        self._committing = True
        if self._writer is None:  # a daemon: a store never closed must not hold the exit
            self._writer = threading.Thread(
                target=self._write_batches, name=self._writer_name, daemon=True
            )
            self._writer.start()
        self._batches.put(batch)

    def _write_batches(self) -> None:
        """The writer thread: commit each batch; its outcome goes back to the reactor thread."""
        while (batch := self._batches.get()) is not None:
            try:
                outcomes = self.engine.append_batch([request for request, _ in batch])
            except BaseException:  # as the pool did: every failure reaches the callers
                self._reactor.callFromThread(self._committed, Failure(), batch)
            else:
                self._reactor.callFromThread(self._committed, outcomes, batch)

    def _committed(self, outcomes: list[Outcome] | Failure, batch: list[Waiting]) -> None:
        """On the reactor thread: each append's outcome to its caller, in order; then the
        next batch. A failed `append_batch` fails every append of the batch. Still
        `_committing` meanwhile: the appends the callbacks make form the next batch together."""
        try:
            if isinstance(outcomes, Failure):
                for _, waiting in batch:
                    waiting.errback(outcomes)
            else:
                for (_, waiting), outcome in zip(batch, outcomes, strict=True):
                    if isinstance(outcome, Exception):
                        waiting.errback(outcome)
                    else:
                        waiting.callback(outcome)
        finally:
            self._committing = False
            self._commit_next()
            self._maybe_closed()

    # -- reads -------------------------------------------------------------------------------

    def _read(self, function: Callable[..., T], *args: Any) -> defer.Deferred[T]:
        if self._closing:
            return defer.fail(StoreClosed("the event store is closed"))
        reading = deferToThreadPool(self._reactor, self._readers, function, *args)
        self._reads.add(reading)

        def done(result: T) -> T:
            self._reads.discard(reading)
            self._maybe_closed()
            return result

        return reading.addBoth(done)

    def read(
        self, stream: str, after_seq: int = 0, limit: int | None = None
    ) -> defer.Deferred[list[RecordedEvent]]:
        """See `EventStore.read`."""
        return self._read(self.engine.read, stream, after_seq, limit)

    def load(self, stream: str) -> defer.Deferred[list[RecordedEvent]]:
        """See `EventStore.load`."""
        return self._read(self.engine.load, stream)

    def last_seq(self, stream: str) -> defer.Deferred[int]:
        """See `EventStore.last_seq`."""
        return self._read(self.engine.last_seq, stream)

    def streams(self, prefix: str = "") -> defer.Deferred[list[str]]:
        """See `EventStore.streams`."""
        return self._read(self.engine.streams, prefix)

    def verify(self, stream: str) -> defer.Deferred[VerifyReport]:
        """See `EventStore.verify`."""
        return self._read(self.engine.verify, stream)

    # -- shutdown ----------------------------------------------------------------------------

    def hand_over_shutdown(self) -> None:
        """The caller closes the store itself, at its own point of the shutdown: the safety-net
        trigger (close before reactor shutdown) is removed.

        Why: "before shutdown" triggers run together, so the store would start refusing
        appends while its owner is still draining the work that needs them.
        """
        if self._shutdown_trigger is not None:
            self._reactor.removeSystemEventTrigger(self._shutdown_trigger)
            self._shutdown_trigger = None

    def close(self) -> defer.Deferred[None]:
        """See `EventStore.close`: every accepted append and read finishes first."""
        if self._closed:
            return defer.succeed(None)
        self._closing = True
        waiter: defer.Deferred[None] = defer.Deferred()
        self._close_waiters.append(waiter)
        self._maybe_closed()
        return waiter

    def _close_on_shutdown(self) -> defer.Deferred[None]:
        self._shutdown_trigger = None  # firing now: removing it would warn
        return self.close()

    def _maybe_closed(self) -> None:
        if not self._closing or self._closed:
            return
        if self._committing or self._queue or self._bulk or self._reads:
            return
        self._closed = True
        if self._shutdown_trigger is not None:
            self._reactor.removeSystemEventTrigger(self._shutdown_trigger)
            self._shutdown_trigger = None
        if self._writer is not None:
            self._batches.put(None)
            self._writer.join()
        self._readers.stop()
        try:
            self.engine.close()
        except Exception:
            failure = Failure()
            waiters, self._close_waiters = self._close_waiters, []
            for waiter in waiters:
                waiter.errback(failure)
            return
        waiters, self._close_waiters = self._close_waiters, []
        for waiter in waiters:
            waiter.callback(None)
