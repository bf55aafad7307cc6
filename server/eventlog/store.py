"""The EventStore contract: what every store promises, its errors, and how to open one.

What this file keeps:
- `EventStore`, the asynchronous contract the shell uses (every method returns a Deferred),
  and `BlockingStore`, the same operations as plain calls (the engines underneath, and what
  the `t24 log` CLI uses). One contract test suite (tests/contract/) runs both against
  every backend.
- The errors: `ConcurrencyError` (stale `expected_seq`), `LeaseLost` (a node's fence refused
  the append), `InvalidEvent` (refused input, nothing written), `CorruptStream` (a chain that
  does not verify), `StoreClosed`,
  `StoreURLError`, `StoreUnavailable`, `UpcastError`; all are `EventLogError`s.
- `VerifyReport`, the answer of an audit of one stream.
- `Upcasters`, the registry of `(type, schema) -> step` applied on read: recorded bytes are
  never rewritten, old events are lifted to the current schema as they are read.
- `parse_store_url(url)`: `memory:`, `sqlite:///relative/path`, `sqlite:////absolute/path`,
  `postgresql://user@host:port/db?schema=name`. Opening the store a URL names is
  server/eventlog/backends.py's (`open_store`): every backend imports this contract, so the
  contract imports no backend.

The guarantees (docs/eventlog.md): `append` is atomic, all or nothing, and refuses a stale
`expected_seq` (the stream's last seq, 0 for a new stream), so two writers can never both
extend a stream; an append's Deferred fires only once its events are durable; `at` is
stamped by the store from its injected clock and never goes backwards within a stream.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

from server.eventlog.envelope import EventLogError, InvalidEvent, NewEvent, RecordedEvent

if TYPE_CHECKING:
    from twisted.internet.defer import Deferred

    from server.eventlog.engine import StreamHead

__all__ = [
    "DEFAULT_STORE_URL",
    "BlockingStore",
    "ConcurrencyError",
    "CorruptStream",
    "EventLogError",
    "EventStore",
    "InvalidEvent",
    "LeaseLost",
    "StoreClosed",
    "StoreURL",
    "StoreURLError",
    "StoreUnavailable",
    "UpcastError",
    "Upcasters",
    "VerifyReport",
    "parse_store_url",
]

DEFAULT_STORE_URL = "sqlite:///var/t24.sqlite"
Clock = Callable[[], float]  # seconds since the Unix epoch: time.time, reactor.seconds


class ConcurrencyError(EventLogError):
    """`expected_seq` was not the stream's last seq: someone else appended first."""

    def __init__(self, stream: str, expected_seq: int, actual_seq: int) -> None:
        super().__init__(
            f"stream {stream!r}: expected last seq {expected_seq}, actual last seq {actual_seq}"
        )
        self.stream = stream
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq


class LeaseLost(EventLogError):
    """This node does not hold the table's lease (any more): the append was refused, nothing
    written. Raised by a node's fence inside the append (server/cluster/leases.py, `Fence`);
    defined with the store's other refusals so that the network layer maps it to its code
    without importing the cluster (docs/architecture.md, "Layers, checked")."""


class StoreClosed(EventLogError):
    """The store was closed; open a new one."""


class StoreURLError(EventLogError, ValueError):
    """A store URL this module cannot open (unknown scheme, malformed, bad option)."""


class StoreUnavailable(EventLogError):
    """The database behind the store did not answer, or refused an operation."""


class UpcastError(EventLogError):
    """A registered upcast step failed on a recorded event."""


@dataclass(frozen=True)
class VerifyReport:
    """The result of recomputing one stream's hash chain.

    `events` counts the events that verified (the valid prefix), `last_seq` and `head_hash`
    are the last of them (`head_hash` is the genesis hash when there are none). When `ok` is
    False, `broken_seq` is the first seq that fails and `reason` says why.
    """

    stream: str
    ok: bool
    events: int
    last_seq: int
    head_hash: bytes
    broken_seq: int | None = None
    reason: str = ""

    def describe(self) -> str:
        """One human line: what the CLI prints and what `CorruptStream` says."""
        if self.ok:
            return f"ok {self.stream} {self.events} events head {self.head_hash.hex()[:16]}"
        return f"BROKEN {self.stream} at seq {self.broken_seq}: {self.reason}"


class CorruptStream(EventLogError):
    """A stream's recorded chain does not verify (raised by `load`); `report` says where."""

    def __init__(self, report: VerifyReport) -> None:
        super().__init__(report.describe())
        self.report = report


UpcastStep = Callable[[dict[str, Any]], dict[str, Any]]


@dataclass
class Upcasters:
    """`(type, from_schema) -> step` lifting `data` to `from_schema + 1`, applied on read.

    Why on read: recorded bytes are evidence and are never rewritten; a schema change adds a
    step instead. Steps chain (1 -> 2 -> 3) until no step is registered for the schema the
    event has reached. `hash` and `prev_hash` keep covering the bytes as recorded.
    """

    _steps: dict[tuple[str, int], UpcastStep] = field(default_factory=dict)

    def register(self, event_type: str, from_schema: int, step: UpcastStep) -> UpcastStep:
        """Register `step` for events of `event_type` at `from_schema` (one step per pair)."""
        key = (event_type, from_schema)
        if key in self._steps:
            raise ValueError(f"an upcast step for {event_type} schema {from_schema} exists")
        self._steps[key] = step
        return step

    def __bool__(self) -> bool:
        return bool(self._steps)

    def upcast(self, event: RecordedEvent) -> RecordedEvent:
        """Return `event` lifted through every applicable step (itself when there is none)."""
        steps = self._steps
        while (step := steps.get((event.type, event.schema))) is not None:
            try:
                data = step(event.data)
            except Exception as error:
                raise UpcastError(
                    f"upcasting {event.type} schema {event.schema} "
                    f"(stream {event.stream!r} seq {event.seq}) failed: {error!r}"
                ) from error
            event = event._replace(data=data, schema=event.schema + 1)
        return event


class EventStore(Protocol):
    """The asynchronous store contract the shell uses (memory, SQLite, PostgreSQL)."""

    def append(
        self, stream: str, expected_seq: int, events: Sequence[NewEvent]
    ) -> Deferred[list[RecordedEvent]]:
        """Atomically record `events` after seq `expected_seq`; fires once durable.

        Fails with `ConcurrencyError` (carrying the actual last seq) when `expected_seq` is
        not the stream's last seq, with `InvalidEvent` for refused input; in both cases
        nothing is written.
        """
        ...

    def read(
        self, stream: str, after_seq: int = 0, limit: int | None = None
    ) -> Deferred[list[RecordedEvent]]:
        """Events with seq > `after_seq`, in order, at most `limit` (upcast, not verified)."""
        ...

    def load(self, stream: str) -> Deferred[list[RecordedEvent]]:
        """The whole stream, its chain verified on the way (`CorruptStream` otherwise).

        What a table actor calls to rebuild its state: one pass reads, decodes, verifies
        and upcasts; an unknown stream loads as [].
        """
        ...

    def last_seq(self, stream: str) -> Deferred[int]:
        """The stream's last seq (0 when it has no events)."""
        ...

    def streams(self, prefix: str = "") -> Deferred[list[str]]:
        """Names of the streams with at least one event that start with `prefix`, sorted."""
        ...

    def verify(self, stream: str) -> Deferred[VerifyReport]:
        """Audit one stream: every link, hash, seq, stream name and canonical form."""
        ...

    def close(self) -> Deferred[None]:
        """Finish what is in flight, release threads and connections; idempotent."""
        ...


class BlockingStore(Protocol):
    """The same contract as plain blocking calls (engines; the CLI; child processes)."""

    def append(
        self, stream: str, expected_seq: int, events: Sequence[NewEvent]
    ) -> list[RecordedEvent]:
        """See `EventStore.append`; returns once the events are durable."""
        ...

    def read(
        self, stream: str, after_seq: int = 0, limit: int | None = None
    ) -> list[RecordedEvent]:
        """See `EventStore.read`."""
        ...

    def load(self, stream: str) -> list[RecordedEvent]:
        """See `EventStore.load`."""
        ...

    def last_seq(self, stream: str) -> int:
        """See `EventStore.last_seq`."""
        ...

    def streams(self, prefix: str = "") -> list[str]:
        """See `EventStore.streams`."""
        ...

    def verify(self, stream: str) -> VerifyReport:
        """See `EventStore.verify`."""
        ...

    def recorded(
        self, stream: str
    ) -> tuple[StreamHead | None, list[tuple[int, bytes, bytes, bytes]]]:
        """The head and the rows `(seq, body, prev_hash, hash)` as stored (audit exports)."""
        ...

    def close(self) -> None:
        """Release connections; later calls raise `StoreClosed`. Idempotent."""
        ...


@dataclass(frozen=True)
class StoreURL:
    """A parsed store URL: `kind` is memory, sqlite or postgresql.

    `target` is the SQLite file path, or the libpq URL without our own options for
    PostgreSQL; `options` holds ours (`synchronous` for SQLite, `schema` for PostgreSQL).
    """

    kind: str
    target: str
    options: Mapping[str, str]


_SQLITE_OPTIONS = {"synchronous": ("full", "normal")}


def parse_store_url(url: str) -> StoreURL:
    """Parse and check a store URL, raising `StoreURLError` with the accepted forms."""
    if not isinstance(url, str) or not url:
        raise StoreURLError(f"store URL must be a non-empty string, not {url!r}")
    scheme = url.split(":", 1)[0].lower() if ":" in url else ""
    if url in ("memory:", "memory://"):
        return StoreURL("memory", "", {})
    if scheme == "sqlite":
        return _parse_sqlite(url)
    if scheme in ("postgresql", "postgres"):
        return _parse_postgres(url)
    raise StoreURLError(
        f"unknown store URL {url!r}: expected memory:, sqlite:///relative/path.sqlite, "
        "sqlite:////absolute/path.sqlite or postgresql://user@host:port/db[?schema=name]"
    )


def _parse_sqlite(url: str) -> StoreURL:
    if not url.startswith("sqlite:///"):
        raise StoreURLError(
            f"malformed SQLite URL {url!r}: use sqlite:///relative/path.sqlite "
            "or sqlite:////absolute/path.sqlite (three slashes, then the path)"
        )
    rest = url[len("sqlite:///") :]
    path, _, query = rest.partition("?")
    path = unquote(path)
    if not path or path.endswith("/"):
        raise StoreURLError(f"SQLite URL {url!r} names no file")
    options: dict[str, str] = {"synchronous": "full"}
    try:
        pairs = parse_qsl(query, keep_blank_values=True, strict_parsing=bool(query))
    except ValueError as error:
        raise StoreURLError(f"malformed SQLite URL {url!r}: {error}") from error
    for key, value in pairs:
        allowed = _SQLITE_OPTIONS.get(key)
        if allowed is None:
            raise StoreURLError(f"unknown SQLite option {key!r} in {url!r} (known: synchronous)")
        if value.lower() not in allowed:
            raise StoreURLError(f"SQLite option {key}={value!r}: expected one of {allowed}")
        options[key] = value.lower()
    return StoreURL("sqlite", path, options)


def _parse_postgres(url: str) -> StoreURL:
    try:
        parts = urlsplit(url)
        query = parse_qsl(parts.query, keep_blank_values=True, strict_parsing=bool(parts.query))
        parts.port  # noqa: B018 - raises ValueError on a malformed port
    except ValueError as error:
        raise StoreURLError(f"malformed PostgreSQL URL {url!r}: {error}") from error
    options = {"schema": "t24"}
    passed: list[tuple[str, str]] = []
    for key, value in query:
        if key == "schema":
            if not value or len(value.encode("utf-8")) > 63 or "\x00" in value:
                raise StoreURLError(f"schema {value!r} must be 1 to 63 bytes, no NUL")
            options["schema"] = value
        else:
            passed.append((key, value))
    target = urlunsplit(("postgresql", parts.netloc, parts.path, urlencode(passed), parts.fragment))
    try:
        from psycopg.conninfo import conninfo_to_dict

        conninfo_to_dict(target)
    except Exception as error:  # psycopg.ProgrammingError, with libpq's own words
        raise StoreURLError(f"malformed PostgreSQL URL {url!r}: {error}") from error
    return StoreURL("postgresql", target, options)
