"""The events the analysis reads, whatever they come from: a live store, an audit export or
an officials' bundle.

Why a small adapter: a store and an export give `RecordedEvent`s (seq, type, data, the log's
`at`), a test's hand-built log gives the games' `Event`s (type, data); the analysis needs
the same four facts of each, and nothing else of the envelope (not the actor, not the hash),
so that the same events give the same analysis wherever they were read.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

TABLE_CREATED = "TableCreated"


@dataclass(frozen=True)
class LogEvent:
    """One event: its seq in the stream (TableCreated is 1), type, data and game time."""

    seq: int
    type: str
    data: Mapping[str, Any]
    at: int  # the event's own `at` (microseconds) when it records one, else the log's


def log_events(events: Iterable[Any]) -> list[LogEvent]:
    """`RecordedEvent`s (with `seq` and `at`) or plain `Event`s numbered from 1 in order."""
    read = []
    for index, event in enumerate(events, 1):
        data = event.data if isinstance(event.data, Mapping) else {}
        seq = getattr(event, "seq", index)
        at = data.get("at", getattr(event, "at", 0))
        read.append(LogEvent(int(seq), str(event.type), data, int(at) if at is not None else 0))
    return read


def created(events: list[LogEvent]) -> Mapping[str, Any]:
    """The `TableCreated` data of a table's stream; ValueError when it does not start so."""
    if not events or events[0].type != TABLE_CREATED:
        raise ValueError("a table's stream starts with TableCreated")
    return events[0].data
