"""A table's event pushes: each event's redactions encoded once and shared.

What it keeps: per recorded event its distinct redactions (one `Push` each), and per viewer
the pushes of every event it may see, for a join's catch-up (`EncodedEvents`). The
`TableActor` (table_actor.py) owns one and asks it for a join's catch-up and for the pushes
of each append it publishes.

Why cached: a join with `after_seq: 0` used to redact and encode the whole log again
(issue 18: ten spectators re-joining flat out stalled every table). Each event's redaction
for a viewer is computed once, and equal redactions (every spectator, whatever its name)
share one `Push`, so the transport frames it once too.
"""

from __future__ import annotations

from typing import Any, Protocol

from protocol.codec import encode
from server.eventlog.envelope import RecordedEvent
from server.games.base import Actor, Event
from server.runtime.redaction import EventView, redacted_data

CATCH_UP_VIEWERS = 64  # viewers whose catch-up pushes a table keeps ready (most recent first)


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


class Subscriber(Protocol):
    """Anything that receives a table's pushes: a viewer and a `push(push)`."""

    viewer: Actor

    def push(self, push: Push) -> None: ...


class EncodedEvents:
    """The pushes of one table's events, built once (see module doc)."""

    def __init__(self, table: str, redact: EventView) -> None:
        self.table = table
        self.redact = redact
        self._distinct: list[list[Push]] = []  # per event index, its distinct redactions
        self._catch_up: dict[Actor, list[Push]] = {}  # per viewer, in join order (oldest first)

    def catch_up(self, events: list[RecordedEvent], viewer: Actor, after_seq: int) -> list[Push]:
        """The pushes of every event of `events` after `after_seq`, redacted for `viewer`.

        The cache holds references only; it keeps the `CATCH_UP_VIEWERS` most recent viewers.
        """
        pushes = self._catch_up.pop(viewer, None)
        if pushes is None:
            pushes = []
            if len(self._catch_up) >= CATCH_UP_VIEWERS:
                del self._catch_up[next(iter(self._catch_up))]  # the least recently joined
        self._catch_up[viewer] = pushes
        first = events[0].seq
        for index in range(len(pushes), len(events)):
            pushes.append(self._shared_push(events, index, viewer))
        return pushes[after_seq + 1 - first :] if after_seq + 1 > first else list(pushes)

    def _shared_push(self, events: list[RecordedEvent], index: int, viewer: Actor) -> Push:
        """The push of `events[index]` for `viewer`, shared with equal redactions."""
        while len(self._distinct) <= index:
            self._distinct.append([])
        event = events[index]
        data = redacted_data(self.redact, Event(event.type, event.data), viewer)
        distinct = self._distinct[index]
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
        message = {
            "type": "event",
            "table": self.table,
            "seq": event.seq,
            "event_type": event.type,
            "data": data,
            "at": event.at,
        }
        if view is not None:
            message.update(view)
        return Push(message, encode(message))
