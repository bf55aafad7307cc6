"""A table's event pushes: each event's redactions encoded once and shared.

What it keeps:
- `EncodedEvents`, one per table: for the events the table holds in memory (its window of
  recent events, table_actor.py) that a catch-up asked for, their distinct redactions (one
  `Push` each), and per viewer its pushes from the furthest-back event it asked for. The
  `TableActor` asks it for a join's catch-up and for the pushes of each append it publishes.
- `PushChunks`, one per hub, shared by every table: the pushes of older events (before a
  table's window), `CHUNK_EVENTS` consecutive events a chunk, per redaction group, as
  encoded frames only (`StoredPush`), least recently used evicted past a byte bound
  (`catch_up_cache_bytes`, docs/operations.md), one table's chunks at most a
  `TABLE_SHARE`-th of it.

Why cached: a join with `after_seq: 0` used to redact and encode the whole log again
(issue 18: ten spectators re-joining flat out stalled every table). Each event's redaction
for a viewer is computed once, and equal redactions (every spectator, whatever its name)
share one `Push`, so the transport frames it once too.

Why chunks of frames for the older events: a live table keeps only its recent events in
memory (its whole log was the server's memory growth, docs/performance.md, "Soak"), so a
join from further back reads the older ones from the store. Read and encoded again for each
join, a spectator storm re-joining from seq 0 cost 60 times more (the join storm's p99 went
from 5 to 312 ms): a chunk is read and encoded once and then served from the cache. A
recorded event never changes, so a chunk never goes stale; only whole chunks are kept. Why
frames only: an old event's message dict costs several times its msgpack bytes, and the
send path needs only the bytes (and the transport's framing of them, kept with them). Why a
table's share: a replay of one very long table (issue 33: 10,000 events from seq 0) would
otherwise fill the whole bound with its chunks, evicting every other table's, and add the
whole bound to the memory its one catch-up costs; past its share a table's chunks are read
from the store again on each such join (a page at a time, catch_up.py).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import Any, Protocol

from protocol.codec import decode, encode
from server.eventlog.envelope import RecordedEvent
from server.games.base import Actor, Event
from server.runtime.redaction import EventView, redacted_data

CATCH_UP_VIEWERS = 64  # viewers whose catch-up pushes a table keeps ready (most recent first)
CHUNK_EVENTS = 64  # consecutive older events cached together (a table's window ends on one)
CATCH_UP_CACHE_BYTES = 16 * 1024 * 1024  # the default bound of `PushChunks` (a setting)
TABLE_SHARE = 4  # one table's chunks take at most this fraction (1/4) of `PushChunks`
# Bytes counted per cached push beyond its frame: the frame's bytes object, the push, and the
# transport's framing of the frame (a copy of it with a header) once it was sent.
PUSH_OVERHEAD = 160


class Push:
    """One event push, built once and shared by every subscriber that may see the same data.

    `message` is the `event` map, `frame` its msgpack bytes, encoded once. `wire` is a slot
    for the transport: it keeps its framing of `frame` there on the first send, so the other
    subscribers of the same push reuse it instead of framing the same bytes again.
    """

    __slots__ = ("message", "frame", "wire")

    def __init__(self, message: dict[str, Any], frame: bytes) -> None:
        self.message = message
        self.frame = frame
        self.wire: Any = None


class StoredPush(Push):
    """An older event's push held as its encoded frame only (`PushChunks`): the send path
    uses `frame` and `wire`; `message` is decoded from the frame when asked (tests, tools)."""

    __slots__ = ()

    def __init__(self, frame: bytes) -> None:  # no message dict is kept
        self.frame = frame
        self.wire = None

    @property
    def message(self) -> dict[str, Any]:
        return decode(self.frame)

    @message.setter
    def message(self, value: dict[str, Any]) -> None:
        """Refused: the frame is the push. Declared so that a `StoredPush` is a `Push` whose
        `message` is read like any push's (mypy refuses a read-only override)."""
        raise AttributeError("a stored push's message is decoded from its frame")


ChunkKey = tuple[str, Hashable, int]  # (table, redaction group, chunk number)


class PushChunks:
    """The shared LRU cache of older events' pushes, bounded by bytes (see module doc).

    Chunk `n` of a table holds the pushes of its events `n * CHUNK_EVENTS + 1` to
    `(n + 1) * CHUNK_EVENTS` for one redaction group (viewers whose every event push is the
    same: `server.runtime.redaction.redaction_grouping`).
    """

    def __init__(self, max_bytes: int = CATCH_UP_CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.bytes = 0
        self._chunks: OrderedDict[ChunkKey, tuple[tuple[StoredPush, ...], int]] = OrderedDict()
        self._by_table: dict[str, int] = {}  # table -> bytes of its chunks held

    def __len__(self) -> int:
        return len(self._chunks)

    def get(self, key: ChunkKey) -> tuple[StoredPush, ...] | None:
        """The chunk's pushes (now the most recently used), or None."""
        held = self._chunks.get(key)
        if held is None:
            return None
        self._chunks.move_to_end(key)
        return held[0]

    def put(self, key: ChunkKey, pushes: Sequence[StoredPush]) -> None:
        """Keep a chunk, evicting the least recently used past `max_bytes`; a chunk that
        would take its table past its share (`TABLE_SHARE`) is not kept."""
        size = sum(2 * len(push.frame) + PUSH_OVERHEAD for push in pushes)
        old = self._chunks.pop(key, None)
        if old is not None:
            self._forget(key, old[1])
        table = key[0]
        if self._by_table.get(table, 0) + size > self.max_bytes // TABLE_SHARE:
            return
        self._chunks[key] = (tuple(pushes), size)
        self.bytes += size
        self._by_table[table] = self._by_table.get(table, 0) + size
        while self.bytes > self.max_bytes:
            evicted, (_pushes, evicted_size) = self._chunks.popitem(last=False)
            self._forget(evicted, evicted_size)

    def table_bytes(self, table: str) -> int:
        """Bytes of `table`'s chunks held (at most `max_bytes // TABLE_SHARE`)."""
        return self._by_table.get(table, 0)

    def _forget(self, key: ChunkKey, size: int) -> None:
        self.bytes -= size
        left = self._by_table[key[0]] - size
        if left:
            self._by_table[key[0]] = left
        else:
            del self._by_table[key[0]]


def stored_pushes(
    table: str, redact: EventView, events: Sequence[RecordedEvent], viewer: Actor
) -> list[StoredPush]:
    """The catch-up pushes of `events` for `viewer`, as frames only (for `PushChunks`)."""
    return [
        StoredPush(
            encode(
                event_message(
                    table, event, redacted_data(redact, Event(event.type, event.data), viewer)
                )
            )
        )
        for event in events
    ]


def event_message(table: str, event: RecordedEvent, data: dict[str, Any]) -> dict[str, Any]:
    """The `event` message of a recorded event with its redacted `data` (docs/protocol.md)."""
    return {
        "type": "event",
        "table": table,
        "seq": event.seq,
        "event_type": event.type,
        "data": data,
        "at": event.at,
    }


class Subscriber(Protocol):
    """Anything that receives a table's pushes: a viewer and a `push(push)`."""

    viewer: Actor

    def push(self, push: Push) -> None: ...


class EncodedEvents:
    """The pushes of one table's events, built once (see module doc)."""

    def __init__(self, table: str, redact: EventView) -> None:
        self.table = table
        self.redact = redact
        self._distinct: dict[int, list[Push]] = {}  # per event seq, its distinct redactions
        # Per viewer, in join order (oldest first): the first seq its pushes start at, and
        # the pushes of every event from there on that it was given.
        self._catch_up: dict[Actor, tuple[int, list[Push]]] = {}

    def catch_up(self, events: list[RecordedEvent], viewer: Actor, after_seq: int) -> list[Push]:
        """The pushes of every event of `events` after `after_seq`, redacted for `viewer`.

        Only what is asked is built: a reconnect from near the head costs its few events,
        not the whole log (once asked, an event's push is kept for the next catch-ups). The
        cache holds references only; it keeps the `CATCH_UP_VIEWERS` most recent viewers,
        and the pushes of events that one of them was given.
        """
        first = events[0].seq
        want = max(after_seq + 1, first)
        cached = self._catch_up.pop(viewer, None)
        if cached is None:
            if len(self._catch_up) >= CATCH_UP_VIEWERS:
                del self._catch_up[next(iter(self._catch_up))]  # the least recently joined
                self._forget_unasked()
            base, pushes = want, list[Push]()
        else:
            base, pushes = cached
            if want < base:  # further back than before: the missing part goes in front
                older = [
                    self._shared_push(events[seq - first], viewer) for seq in range(want, base)
                ]
                base, pushes = want, older + pushes
        for seq in range(base + len(pushes), events[-1].seq + 1):
            pushes.append(self._shared_push(events[seq - first], viewer))
        self._catch_up[viewer] = (base, pushes)
        return pushes[want - base :]

    def drop_before(self, first: int) -> None:
        """The table now holds its events from seq `first` on: so does this cache (older
        catch-ups are served from `PushChunks`)."""
        for seq in [seq for seq in self._distinct if seq < first]:
            del self._distinct[seq]
        for viewer, (base, pushes) in list(self._catch_up.items()):
            if base < first:
                self._catch_up[viewer] = (first, pushes[first - base :])

    def _forget_unasked(self) -> None:
        """Drop the pushes of events before every remaining viewer's first one."""
        low = min((base for base, _pushes in self._catch_up.values()), default=None)
        for seq in [seq for seq in self._distinct if low is None or seq < low]:
            del self._distinct[seq]

    def _shared_push(self, event: RecordedEvent, viewer: Actor) -> Push:
        """The push of `event` for `viewer`, shared with equal redactions."""
        data = redacted_data(self.redact, Event(event.type, event.data), viewer)
        distinct = self._distinct.setdefault(event.seq, [])
        for push in distinct:
            if push.message["data"] == data:
                return push
        push = self.push_of(event, data)
        distinct.append(push)
        return push

    def push_of(
        self, event: RecordedEvent, data: dict[str, Any], view: dict[str, Any] | None = None
    ) -> Push:
        """The `event` push of `event` with its redacted `data` (and, for an append's last
        event, the view after it and the deadlines), encoded once."""
        message = event_message(self.table, event, data)
        if view is not None:
            message.update(view)
        return Push(message, encode(message))
