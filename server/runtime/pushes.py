"""A table's event pushes: each event's redactions encoded once and shared.

What it keeps: per recorded event that a catch-up asked for, its distinct redactions (one
`Push` each), and per viewer its pushes from the furthest-back event it asked for, for a
join's catch-up (`EncodedEvents`). The
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
            base, pushes = want, []
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
