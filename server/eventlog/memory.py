"""The in-memory store: for tests of the core and the shell, and `memory:` demos.

It keeps exactly what the durable stores keep (the canonical bytes, `prev_hash`, `hash`
per row and a head per stream) and runs the same planning and checking code
(`server.eventlog.engine`), so it behaves like them in every way but durability.

`MemoryStore` answers with already-fired Deferreds, so runtime unit tests driven by
`twisted.internet.task.Clock` stay synchronous: no reactor, no threads.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from twisted.internet import defer

from server.eventlog.engine import (
    AppendRequest,
    Engine,
    LoadRow,
    Outcome,
    Row,
    StreamHead,
    plan_appends,
)
from server.eventlog.envelope import (
    MAX_STREAM_BYTES,
    NewEvent,
    RecordedEvent,
    check_stream,
    check_text,
)
from server.eventlog.store import Clock, StoreClosed, Upcasters, VerifyReport

T = TypeVar("T")


class MemoryEngine(Engine):
    """A blocking store in a dict. `rows` and `heads` are public so tests can tamper."""

    def __init__(self, *, clock: Clock = time.time, upcasters: Upcasters | None = None) -> None:
        super().__init__(clock, upcasters if upcasters is not None else Upcasters())
        self.rows: dict[str, list[Row]] = {}
        self.heads: dict[str, StreamHead] = {}
        self.closed = False

    def _check_open(self) -> None:
        if self.closed:
            raise StoreClosed("the memory store is closed")

    def append_batch(self, requests: Sequence[AppendRequest]) -> list[Outcome]:
        """Apply a group of appends (see `Engine.append_batch`); nothing to make durable."""
        self._check_open()
        streams = {request.stream for request in requests}
        heads = {s: self.heads[s] for s in streams if s in self.heads}
        plan = plan_appends(requests, heads, self.now_us(), self.upcasters)
        for stream, seq, body, prev, digest in plan.rows:
            self.rows.setdefault(stream, []).append((seq, body, prev, digest))
        self.heads.update(plan.heads)
        return plan.outcomes

    def _rows(self, stream: str, after_seq: int, limit: int | None) -> list[Row]:
        self._check_open()
        rows = [row for row in self.rows.get(stream, ()) if row[0] > after_seq]
        return rows if limit is None else rows[:limit]

    def _snapshot(
        self, stream: str, with_prev: bool = True
    ) -> tuple[StreamHead | None, list[Row] | list[LoadRow]]:
        self._check_open()
        rows = self.rows.get(stream, [])
        if with_prev:
            return self.heads.get(stream), list(rows)
        return self.heads.get(stream), [(seq, body, digest) for seq, body, _, digest in rows]

    def last_seq(self, stream: str) -> int:
        """The stream's last seq (0 when it has no events)."""
        self._check_open()
        head = self.heads.get(check_stream(stream))
        return head.last_seq if head else 0

    def streams(self, prefix: str = "") -> list[str]:
        """Streams with events whose names start with `prefix`, in code point order."""
        self._check_open()
        prefix = check_text(prefix, "prefix", MAX_STREAM_BYTES, allow_empty=True)
        return sorted(s for s, h in self.heads.items() if h.last_seq and s.startswith(prefix))

    def close(self) -> None:
        """Refuse every later call (the data goes with the object)."""
        self.closed = True


def _fired(function: Callable[..., T], *args: Any) -> defer.Deferred[T]:
    try:
        return defer.succeed(function(*args))
    except Exception:
        return defer.fail()


class MemoryStore:
    """The `EventStore` contract over a `MemoryEngine`, with already-fired Deferreds."""

    def __init__(self, engine: MemoryEngine | None = None) -> None:
        self.engine = engine if engine is not None else MemoryEngine()

    def append(
        self, stream: str, expected_seq: int, events: Sequence[NewEvent]
    ) -> defer.Deferred[list[RecordedEvent]]:
        """See `EventStore.append`; the Deferred has fired when this returns."""
        return _fired(self.engine.append, stream, expected_seq, events)

    def read(
        self, stream: str, after_seq: int = 0, limit: int | None = None
    ) -> defer.Deferred[list[RecordedEvent]]:
        """See `EventStore.read`."""
        return _fired(self.engine.read, stream, after_seq, limit)

    def load(self, stream: str) -> defer.Deferred[list[RecordedEvent]]:
        """See `EventStore.load`."""
        return _fired(self.engine.load, stream)

    def last_seq(self, stream: str) -> defer.Deferred[int]:
        """See `EventStore.last_seq`."""
        return _fired(self.engine.last_seq, stream)

    def streams(self, prefix: str = "") -> defer.Deferred[list[str]]:
        """See `EventStore.streams`."""
        return _fired(self.engine.streams, prefix)

    def verify(self, stream: str) -> defer.Deferred[VerifyReport]:
        """See `EventStore.verify`."""
        return _fired(self.engine.verify, stream)

    def close(self) -> defer.Deferred[None]:
        """See `EventStore.close`."""
        return _fired(self.engine.close)
