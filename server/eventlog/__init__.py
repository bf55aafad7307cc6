"""The event log: hash-chained, append-only event streams and their stores.

See docs/eventlog.md. `envelope` defines the event and its canonical bytes, `store` the
contract, `backends` opens the store a URL names (`open_store(url)`); `memory`, `sqlite` and
`postgres` are the backends.
"""

from server.eventlog.backends import open_blocking_store, open_store
from server.eventlog.envelope import EventLogError, InvalidEvent, NewEvent, RecordedEvent
from server.eventlog.store import (
    ConcurrencyError,
    CorruptStream,
    EventStore,
    StoreClosed,
    StoreUnavailable,
    StoreURLError,
    UpcastError,
    Upcasters,
    VerifyReport,
)

__all__ = [
    "ConcurrencyError",
    "CorruptStream",
    "EventLogError",
    "EventStore",
    "InvalidEvent",
    "NewEvent",
    "RecordedEvent",
    "StoreClosed",
    "StoreURLError",
    "StoreUnavailable",
    "UpcastError",
    "Upcasters",
    "VerifyReport",
    "open_blocking_store",
    "open_store",
]
