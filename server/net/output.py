"""One connection's output in order, a join's catch-up streamed as the transport drains.

What it keeps: what the session sent while a catch-up was being streamed (replies, pushes,
further catch-ups), queued behind it in order, and how many bytes that queue holds.

Why (issue 33): a join's catch-up was written in one go; a table of 1,006 events made 727,919
bytes, more than a client may leave unread (`max_unread_bytes`), so every client was dropped
before it could read its snapshot, and the whole catch-up was encoded in memory at once.
Now a catch-up (`server.runtime.catch_up.CatchUp`) is written a slice (`STREAM_SLICE` bytes
of whole frames) at a time while the transport's buffer is not full; when it fills, the
stream waits until the transport says it drained (`drained`, from the transport's producer,
server/net/backpressure.py), and a page of older events is read from the store only when the
previous one is sent. Everything sent meanwhile waits behind it, so a client receives
exactly what one write of the whole catch-up gave it: the snapshot, the catch-up, then
the live pushes and replies, in order (docs/protocol.md, "Reconnect and resume").

What is bounded: the queue behind a stream counts as output the client has not read: past
`limit` bytes (`max_unread_bytes`) `overflow` is told once, and the transport drops the
connection, as it does for a client whose transport buffer outgrew the same bound. A stream
itself holds one page of pushes at a time.

Faults: a page that cannot be read (the store failed mid-stream), or a slice that cannot be
written, is told to `failed` (the session breaks, 1011: the client got part of its
catch-up); nothing more is sent.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from typing import Any

from twisted.internet.defer import Deferred
from twisted.python.failure import Failure

from server.runtime.catch_up import CatchUp
from server.runtime.pushes import Push

STREAM_SLICE = 32 * 1024  # bytes of whole frames a stream writes at a time (at least one)


class _Stream:
    """A catch-up being sent: its current page and how far into it."""

    __slots__ = ("catch_up", "page", "index")

    def __init__(self, catch_up: CatchUp) -> None:
        self.catch_up = catch_up
        self.page: list[Push] = []
        self.index = 0


class OrderedOutput:
    """The ordered output of one connection (see module doc).

    `send_frame`, `send_push` and `send_pushes` write to the transport (`send_pushes`: a
    slice of pushes, framed, in one write); `full` says whether the transport's buffer is
    full; `limit` (0: none) bounds the bytes queued behind a stream.
    """

    def __init__(
        self,
        *,
        send_frame: Callable[[bytes], None],
        send_push: Callable[[Push], None],
        send_pushes: Callable[[list[Push]], None],
        full: Callable[[], bool] | None = None,
        limit: int = 0,
        overflow: Callable[[int], None] | None = None,
        failed: Callable[[Failure], None] | None = None,
        slice_bytes: int = STREAM_SLICE,
    ) -> None:
        self._send_frame = send_frame
        self._send_push = send_push
        self._send_pushes = send_pushes
        self._full = full or (lambda: False)
        self.limit = limit
        self._overflow = overflow or (lambda held: None)
        self._failed = failed or (lambda failure: None)
        self.slice_bytes = slice_bytes
        self._queue: deque[bytes | Push | _Stream] = deque()
        self.queued = 0  # bytes of frames and pushes waiting behind a stream
        self.stopped = False
        self._reading = False  # a page is being read (its Deferred has not fired)
        self._pumping = False

    @property
    def streaming(self) -> bool:
        """Whether a catch-up is being sent (anything sent now waits behind it)."""
        return bool(self._queue)

    def frame(self, data: bytes) -> None:
        """Send one encoded message (a reply): now, or behind the stream."""
        if self.stopped:
            return
        if not self._queue:
            self._send_frame(data)
            return
        self._queue.append(data)
        self._held(len(data))

    def push(self, push: Push) -> None:
        """Send one event or presence push: now, or behind the stream."""
        if self.stopped:
            return
        if not self._queue:
            self._send_push(push)
            return
        self._queue.append(push)
        self._held(len(push.frame))

    def catch_up(self, snapshot: bytes, catch_up: CatchUp) -> None:
        """Send a join's snapshot, then stream its catch-up (see module doc)."""
        self.frame(snapshot)
        if self.stopped:
            return
        self._queue.append(_Stream(catch_up))
        self._pump()

    def drained(self) -> None:
        """The transport's buffer drained (its producer was resumed): stream on."""
        self._pump()

    def stop(self) -> None:
        """Send nothing more: the connection is closing or gone (the queue is dropped)."""
        self.stopped = True
        self._queue.clear()
        self.queued = 0

    def _held(self, size: int) -> None:
        self.queued += size
        if self.limit and self.queued > self.limit:
            held = self.queued
            self.stop()
            self._overflow(held)

    def _pump(self) -> None:
        """Send what waits, in order, while the transport takes it (see module doc)."""
        if self._pumping:
            return  # a page that arrived at once, inside the loop: the loop goes on
        self._pumping = True
        try:
            while self._queue and not self.stopped and not self._reading:
                head = self._queue[0]
                if isinstance(head, _Stream):
                    if self._full() or not self._stream_slice(head):
                        return
                    continue
                self._queue.popleft()
                if isinstance(head, Push):
                    self.queued -= len(head.frame)
                    self._send_push(head)
                else:
                    self.queued -= len(head)
                    self._send_frame(head)
        except Exception:  # the transport's or a frame's fault: the stream cannot go on
            self.stop()
            self._failed(Failure())
        finally:
            self._pumping = False

    def _stream_slice(self, stream: _Stream) -> bool:
        """Write the stream's next slice, or start reading its next page, or end it (taken
        off the queue). False while a page is being read."""
        page = stream.page
        while stream.index >= len(page):
            more = stream.catch_up.next_page()
            if more is None:
                self._queue.popleft()
                return True
            if isinstance(more, Deferred):
                self._reading = True
                more.addCallbacks(self._page_read, self._page_failed, callbackArgs=(stream,))
                if self._reading or self.stopped:
                    return False  # `_page_read` pumps on (or the page failed)
                page = stream.page
                continue
            page = stream.page = more
            stream.index = 0
        end, size = stream.index, 0
        while end < len(page) and (end == stream.index or size < self.slice_bytes):
            size += len(page[end].frame)
            end += 1
        batch = page[stream.index : end]
        stream.index = end
        if stream.index >= len(page):
            stream.page, stream.index = [], 0  # the page is sent: not held any more
        self._send_pushes(batch)
        return True

    def _page_read(self, pushes: list[Push], stream: _Stream) -> None:
        self._reading = False
        stream.page, stream.index = pushes, 0
        self._pump()

    def _page_failed(self, failure: Failure) -> Any:
        self._reading = False
        if not self.stopped:
            self.stop()
            self._failed(failure)
        return None
