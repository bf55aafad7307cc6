"""Backpressure on one connection's output: a client that does not read is closed.

What it keeps: whether the connection's transport buffer is full (Twisted tells its streaming
producer: `pauseProducing` when the buffer passes the transport's `bufferSize`, 64 KiB,
`resumeProducing` once it has drained), and how many bytes were written since it filled.

Why: every push and reply is written to the transport at once; a client that never reads
(or reads slower than its tables produce) made the server hold its output without bound
(issue 18: RSS grew ~4 MB/s). With `OutputBound` registered as the transport's producer:
- while the buffer is full, the server also stops reading the connection's requests (the
  transport is paused), so a client that does not read is not served either;
- once more than `limit` bytes (`max_unread_bytes`) are held beyond the full buffer, the
  connection is aborted (no close frame: the client is not reading it), its subscriptions
  end and its buffers are freed. `overflow` is told once;
- when the buffer has drained, `drained` is told: a join's catch-up is written a slice at a
  time, each when the previous one was sent (server/net/output.py), so a long catch-up
  never counts against the bound (issue 33).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet.interfaces import IPushProducer
from zope.interface import implementer


@implementer(IPushProducer)
class OutputBound:
    """The streaming producer of one connection's transport (see module doc)."""

    def __init__(
        self,
        transport: Any,
        limit: int,
        overflow: Callable[[int], None],
        drained: Callable[[], None] | None = None,
    ) -> None:
        self.transport = transport
        self.limit = limit
        self.overflow = overflow
        self.drained = drained or (lambda: None)
        self.full = False
        self.held = 0  # bytes written since the transport's buffer filled
        self.tripped = False

    @classmethod
    def install(
        cls,
        transport: Any,
        limit: int,
        overflow: Callable[[int], None],
        drained: Callable[[], None] | None = None,
    ) -> OutputBound:
        """Register a bound as `transport`'s producer (replacing twisted.web's HTTP channel,
        which registered itself before Autobahn took the socket over)."""
        bound = cls(transport, limit, overflow, drained)
        if getattr(transport, "producer", None) is not None:
            transport.unregisterProducer()
        transport.registerProducer(bound, True)
        return bound

    def wrote(self, size: int) -> None:
        """`size` bytes were just written to the transport."""
        if not self.full:
            return
        self.held += size
        if self.held > self.limit and not self.tripped:
            self.tripped = True
            self.overflow(self.held)

    # -- IPushProducer (called by the transport) -------------------------------------------

    def pauseProducing(self) -> None:
        if not self.full:
            self.full = True
            self.held = 0
            self._reading(False)  # stop reading requests from a client that lags

    def resumeProducing(self) -> None:
        if self.full:
            self.full = False
            self.held = 0
            if not self.tripped:
                self._reading(True)
                self.drained()

    def _reading(self, on: bool) -> None:
        """Resume or pause reading the connection: through the socket gate's reasons when
        there is one (server/net/limits.py), so each pause is released by its own cause."""
        hold = getattr(self.transport, "hold_reading", None)
        release = getattr(self.transport, "release_reading", None)
        if hold is not None and release is not None:
            release("output") if on else hold("output")
        elif on:
            self.transport.resumeProducing()
        else:
            self.transport.pauseProducing()

    def stopProducing(self) -> None:
        self.full = False
