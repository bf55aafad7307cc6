"""What every blocking engine (memory, SQLite, PostgreSQL) shares: planning and checking.

An engine is a `BlockingStore` built from a few storage primitives; this module holds the
parts that must behave identically everywhere, so a backend only moves rows:

- `make_request` validates an append before anything touches storage.
- `plan_appends` decides a whole group commit against the stream heads read inside the
  writer's transaction: requests are taken in arrival order, each either extends its
  stream (rows to insert, the recorded events to hand back) or fails on its own with a
  `ConcurrencyError`; later requests see the effect of earlier ones in the same batch.
- `audit_rows` is the full audit behind `verify`; `load_rows` is the fast replay path
  behind `load` (hash straight from the stored bytes, one decode, no per-event objects
  besides the result); when the fast path sees anything wrong the engine falls back to the
  audit for a precise report.

A row is `(seq, body, prev_hash, hash)` as stored; the body is the canonical envelope.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import cast

import msgpack

from server.eventlog.envelope import (
    ENVELOPE_VERSION,
    MAX_APPEND_BYTES,
    MAX_APPEND_EVENTS,
    InvalidEvent,
    NewEvent,
    RecordedEvent,
    bulk_decoding,
    check_stream,
    decode_record,
    encode_body,
    genesis_hash,
    is_canonical_body,
)
from server.eventlog.store import (
    Clock,
    ConcurrencyError,
    CorruptStream,
    EventLogError,
    Upcasters,
    VerifyReport,
)

Row = tuple[int, bytes, bytes, bytes]  # seq, body, prev_hash, hash
LoadRow = tuple[int, bytes, bytes]  # seq, body, hash: what the fast replay path reads
Outcome = list[RecordedEvent] | EventLogError

_sha256 = hashlib.sha256
_unpackb = msgpack.unpackb
_new_tuple = tuple.__new__
_BULK = 256  # reads longer than this decode with the garbage collector paused


@dataclass(frozen=True)
class AppendRequest:
    """One validated append waiting for the writer."""

    stream: str
    expected_seq: int
    events: tuple[NewEvent, ...]


@dataclass(frozen=True)
class StreamHead:
    """A stream's last seq, its hash and its `at`: what the next append chains from."""

    last_seq: int
    last_hash: bytes
    last_at: int


def make_request(stream: object, expected_seq: object, events: object) -> AppendRequest:
    """Check an append's arguments (InvalidEvent otherwise) and freeze them into a request."""
    name = check_stream(stream)
    if type(expected_seq) is not int or expected_seq < 0:
        raise InvalidEvent(f"expected_seq must be an int >= 0, not {expected_seq!r}")
    kind = type(events)
    if kind is not list and kind is not tuple:
        if isinstance(events, NewEvent | str | bytes) or not isinstance(events, Sequence):
            raise InvalidEvent("events must be a list of NewEvent")
    batch: tuple[object, ...] = tuple(cast(Sequence[object], events))
    if not batch:
        raise InvalidEvent("an append needs at least one event")
    if len(batch) > MAX_APPEND_EVENTS:
        raise InvalidEvent(f"{len(batch)} events in one append; the limit is {MAX_APPEND_EVENTS}")
    size = 0
    for index, event in enumerate(batch):
        if not isinstance(event, NewEvent):
            raise InvalidEvent(f"events[{index}] is a {type(event).__name__}, not a NewEvent")
        size += len(event.data_bytes)
    if size > MAX_APPEND_BYTES:
        raise InvalidEvent(f"{size} bytes of data in one append; the limit is {MAX_APPEND_BYTES}")
    return AppendRequest(name, expected_seq, cast(tuple[NewEvent, ...], batch))  # checked above


@dataclass
class BatchPlan:
    """What a group commit writes (`rows`, `heads`) and what each request is told."""

    outcomes: list[Outcome] = field(default_factory=list)
    rows: list[tuple[str, int, bytes, bytes, bytes]] = field(default_factory=list)
    heads: dict[str, StreamHead] = field(default_factory=dict)


def plan_appends(
    requests: Sequence[AppendRequest],
    heads: Mapping[str, StreamHead],
    now_us: int,
    upcasters: Upcasters,
) -> BatchPlan:
    """Decide a batch of appends against the current stream heads (absent = new stream).

    `at` is `now_us` clamped to the stream's last `at`, so it never goes backwards within a
    stream even when the clock does (NTP steps, another node's clock).
    """
    plan = BatchPlan()
    current = dict(heads)
    for request in requests:
        stream = request.stream
        head = current.get(stream)
        if head is None:
            head = StreamHead(0, genesis_hash(stream), 0)
        if request.expected_seq != head.last_seq:
            plan.outcomes.append(ConcurrencyError(stream, request.expected_seq, head.last_seq))
            continue
        at = max(now_us, head.last_at)
        prev = head.last_hash
        seq = head.last_seq
        recorded = []
        for event in request.events:
            seq += 1
            body = encode_body(stream, seq, at, event)
            digest = _sha256(prev + body).digest()
            plan.rows.append((stream, seq, body, prev, digest))
            # Decoded from the bytes just written, so an append returns what a read will.
            recorded.append(decode_record(body, prev, digest))
            prev = digest
        if upcasters:
            recorded = [upcasters.upcast(event) for event in recorded]
        current[stream] = plan.heads[stream] = StreamHead(seq, prev, at)
        plan.outcomes.append(recorded)
    return plan


def decode_rows(rows: Sequence[Row], upcasters: Upcasters) -> list[RecordedEvent]:
    """Decode stored rows for `read` (no verification: `load` and `verify` do that)."""
    if len(rows) <= _BULK:
        return [upcasters.upcast(decode_record(b, p, h)) for _, b, p, h in rows]
    with bulk_decoding():
        events = [decode_record(b, p, h) for _, b, p, h in rows]
    return [upcasters.upcast(e) for e in events] if upcasters else events


def load_rows(
    stream: str, head: StreamHead | None, rows: Iterable[LoadRow], upcasters: Upcasters
) -> list[RecordedEvent] | None:
    """The fast replay path: decode and verify a whole stream in one pass.

    `rows` are `(seq, body, hash)`: the chain is recomputed from the genesis hash and the
    stored bytes alone, so the redundant `prev_hash` column need not be fetched. Returns
    None at the first thing wrong (the caller then runs the audit for the report). Checks
    the same chain as `audit_rows` except the canonical form of each body. Call it inside
    `bulk_decoding()`, with the fetch.
    """
    prev = genesis_hash(stream)
    expected = 1
    last_at = 0
    events: list[RecordedEvent] = []
    add = events.append
    for seq, body, digest in rows:
        if seq != expected or _sha256(prev + body).digest() != digest:
            return None
        try:
            version, name, seq_, type_, schema, at, actor, causation, data = _unpackb(body)
            if version != ENVELOPE_VERSION or seq_ != seq or name != stream or at < last_at:
                return None
        except (ValueError, TypeError, msgpack.UnpackException):
            return None
        fields = (name, seq, type_, data, at, actor, causation, schema, prev, digest)
        add(_new_tuple(RecordedEvent, fields))
        prev = digest
        last_at = at
        expected += 1
    last_seq = expected - 1
    if (head.last_seq if head else 0) != last_seq or (head and head.last_hash != prev):
        return None
    return [upcasters.upcast(e) for e in events] if upcasters else events


def audit_rows(stream: str, head: StreamHead | None, rows: Iterable[Row]) -> VerifyReport:
    """The full audit of one stream: seq order, links, hashes, envelope, canonical form, time.

    `head` is the store's own record of the stream's last seq and hash: comparing it with
    the chain catches a truncated tail, which no link inside the chain can show.
    """
    chain = [genesis_hash(stream)]  # chain[n] is the hash of seq n (0: the genesis)
    last_at = 0

    def broken(seq: int, reason: str) -> VerifyReport:
        """Report `seq` as the first broken one; the valid prefix is everything before it."""
        return VerifyReport(stream, False, seq - 1, seq - 1, chain[seq - 1], seq, reason)

    for seq, body, prev_hash, digest in rows:
        expected = len(chain)
        if seq != expected:
            if seq > expected:
                return broken(expected, f"event {expected} is missing (next recorded: {seq})")
            return broken(expected, f"seq {seq} is recorded again where {expected} belongs")
        if prev_hash != chain[-1]:
            link = "the genesis hash" if seq == 1 else f"the hash of seq {seq - 1}"
            return broken(seq, f"prev_hash is not {link}")
        if _sha256(prev_hash + body).digest() != digest:
            return broken(seq, "hash does not match the recorded bytes")
        try:
            event = decode_record(body, prev_hash, digest)
        except (ValueError, TypeError, msgpack.UnpackException):
            return broken(seq, "recorded bytes are not a version-1 event envelope")
        if event.stream != stream or event.seq != seq:
            return broken(seq, f"envelope names {event.stream!r} seq {event.seq}")
        if not is_canonical_body(body):
            return broken(seq, "recorded bytes are not in canonical form")
        if event.at < last_at:
            return broken(seq, f"at {event.at} is earlier than the previous event's {last_at}")
        chain.append(digest)
        last_at = event.at
    count = len(chain) - 1
    recorded_last = head.last_seq if head else 0
    if recorded_last > count:
        return broken(count + 1, f"the stream head records last seq {recorded_last}")
    if recorded_last < count:
        return broken(recorded_last + 1, f"events after the stream head's seq {recorded_last}")
    if head is not None and head.last_hash != chain[-1]:
        return broken(count, "the stream head's hash differs from the chain's last hash")
    return VerifyReport(stream, True, count, count, chain[-1])


class Engine:
    """A `BlockingStore` built on a backend's primitives (`append_batch`, `_snapshot`, ...).

    Subclasses implement `append_batch`, `_rows`, `_snapshot`, `last_seq`, `streams` and
    `close`; this class turns them into the contract's `append`, `read`, `load`, `verify`.
    """

    def __init__(self, clock: Clock, upcasters: Upcasters) -> None:
        self.clock = clock
        self.upcasters = upcasters

    def now_us(self) -> int:
        """The injected clock in whole microseconds (the unit of `at`)."""
        return round(self.clock() * 1_000_000)  # round: 0.000001 s is 0.99999... in binary

    def append_batch(self, requests: Sequence[AppendRequest]) -> list[Outcome]:
        """Commit a group of appends in one transaction; one outcome per request."""
        raise NotImplementedError

    def _rows(self, stream: str, after_seq: int, limit: int | None) -> list[Row]:
        raise NotImplementedError

    def _snapshot(
        self, stream: str, with_prev: bool = True
    ) -> tuple[StreamHead | None, list[Row] | list[LoadRow]]:
        """The stream's head and all its rows, read in one consistent snapshot.

        Rows are `Row`s, or `LoadRow`s (no `prev_hash`) when `with_prev` is False.
        """
        raise NotImplementedError

    def recorded(self, stream: str) -> tuple[StreamHead | None, list[Row]]:
        """The stream's head and every row exactly as stored, in one consistent read.

        Why raw rows: an audit export (server/audit/export.py) copies the recorded bytes,
        which are what the hashes cover; decoded, upcast events could not be checked.
        """
        check_stream(stream)
        head, rows = self._snapshot(stream)  # with_prev (the default): full `Row`s
        return head, cast(list[Row], rows)

    def last_seq(self, stream: str) -> int:
        """The stream's last seq (0 when it has no events)."""
        raise NotImplementedError

    def streams(self, prefix: str = "") -> list[str]:
        """Streams with events whose names start with `prefix`, in code point order."""
        raise NotImplementedError

    def close(self) -> None:
        """Release connections (idempotent); later calls raise `StoreClosed`."""
        raise NotImplementedError

    def append(
        self, stream: str, expected_seq: int, events: Sequence[NewEvent]
    ) -> list[RecordedEvent]:
        """Append one batch and wait for it: the blocking form of `EventStore.append`."""
        outcome = self.append_batch([make_request(stream, expected_seq, events)])[0]
        if isinstance(outcome, EventLogError):
            raise outcome
        return outcome

    def read(
        self, stream: str, after_seq: int = 0, limit: int | None = None
    ) -> list[RecordedEvent]:
        """Events after `after_seq` (at most `limit`), decoded and upcast, not verified."""
        check_stream(stream)
        if type(after_seq) is not int or after_seq < 0:
            raise InvalidEvent(f"after_seq must be an int >= 0, not {after_seq!r}")
        if limit is not None and (type(limit) is not int or limit < 1):
            raise InvalidEvent(f"limit must be None or an int >= 1, not {limit!r}")
        try:
            return decode_rows(self._rows(stream, after_seq, limit), self.upcasters)
        except (ValueError, TypeError, msgpack.UnpackException) as error:
            report = self.verify(stream)
            raise CorruptStream(report) from error

    def load(self, stream: str) -> list[RecordedEvent]:
        """The whole stream, verified while decoding; `CorruptStream` when it does not verify."""
        check_stream(stream)
        with bulk_decoding():  # the fetch builds a tuple per row too
            head, rows = self._snapshot(stream, with_prev=False)
            events = load_rows(stream, head, cast(list[LoadRow], rows), self.upcasters)
        if events is None:
            report = self.verify(stream)
            if report.ok:  # repaired or rewritten since the first read; still refuse it
                reason = "the stream changed while it was loaded"
                report = VerifyReport(stream, False, 0, 0, genesis_hash(stream), 1, reason)
            raise CorruptStream(report)
        return events

    def verify(self, stream: str) -> VerifyReport:
        """Audit one stream (see `audit_rows`)."""
        check_stream(stream)
        head, rows = self._snapshot(stream)  # with_prev (the default): full `Row`s
        return audit_rows(stream, head, cast(list[Row], rows))
