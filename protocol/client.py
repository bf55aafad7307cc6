"""Client-side bookkeeping of one connection, with no I/O: ids, replies, and resume points.

What it keeps: the next request id, which requests are still waiting for their reply, and
for every joined table the last event seq seen, so a client that reconnects can join again
with `after_seq` and receive exactly what it missed. It also checks the no-gap, no-duplicate
promise of the server: an `event` push whose seq is not the next one raises `SequenceGap`.

How it works (sans-I/O, like h11): the caller owns the socket. `request(...)` returns the id
and the bytes of one binary frame to send; `receive(frame_bytes)` decodes one frame, updates
the bookkeeping and returns the message map. Any transport (Autobahn, `websockets`, a test)
can drive it.
"""

from __future__ import annotations

from typing import Any

from protocol.codec import SERVER_MESSAGE_LIMITS, Limits, decode, encode
from protocol.messages import make


class SequenceGap(Exception):
    """An `event` push did not follow the last seen seq of its table (a gap or a duplicate)."""

    def __init__(self, table: str, expected: int, got: int) -> None:
        super().__init__(f"table {table}: expected seq {expected}, got {got}")
        self.table = table
        self.expected = expected
        self.got = got


class ClientSession:
    """Request ids, pending replies and per-table resume points for one client connection."""

    def __init__(self, limits: Limits = SERVER_MESSAGE_LIMITS) -> None:
        self.limits = limits
        self.next_id = 1
        self.pending: dict[int, dict[str, Any]] = {}
        self.last_seq: dict[str, int] = {}
        self._joins: dict[int, tuple[str, int | None]] = {}

    def request(self, kind: str, **fields: Any) -> tuple[int, bytes]:
        """Build, check and encode one request; return its id and the frame bytes."""
        request_id = self.next_id
        self.next_id += 1
        message = make(kind, id=request_id, **fields)
        self.pending[request_id] = message
        if kind == "join":
            self._joins[request_id] = (message["table"], message.get("after_seq"))
        if kind == "leave":
            self.last_seq.pop(message["table"], None)
        return request_id, encode(message)

    def join(self, table: str) -> tuple[int, bytes]:
        """Join `table`, resuming after the last seen seq when this session saw it before."""
        return self.request("join", table=table, after_seq=self.last_seq.get(table))

    def rejoin_all(self) -> list[tuple[int, bytes]]:
        """The join requests that resume every joined table (send them after a reconnect)."""
        return [self.join(table) for table in sorted(self.last_seq)]

    def receive(self, data: bytes) -> dict[str, Any]:
        """Decode one server frame, update the bookkeeping and return the message."""
        message = decode(data, self.limits)
        kind = message.get("type")
        request_id = message.get("id")
        if isinstance(request_id, int) and kind != "event":
            self.pending.pop(request_id, None)
        if kind == "snapshot":
            join = self._joins.pop(request_id, None) if isinstance(request_id, int) else None
            table, after_seq = join or (message.get("table"), None)
            # With after_seq the pushes restart after it; without, after the snapshot's seq.
            if isinstance(table, str):
                self.last_seq[table] = message["seq"] if after_seq is None else after_seq
        elif kind == "error" and request_id in self._joins:
            self._joins.pop(request_id)
        elif kind == "event":
            table, seq = message["table"], message["seq"]
            expected = self.last_seq.get(table, 0) + 1
            if seq != expected:
                raise SequenceGap(table, expected, seq)
            self.last_seq[table] = seq
        return message
