"""The event envelope: what one recorded event is, its canonical bytes, and its hash chain.

Two rules of this file:
- The canonical bytes of an event are defined here and nowhere else. Every store writes them,
  every reader, exporter and auditor hashes them; the same event hashes the same on every
  machine and in every export, years later. Fixed test vectors (tests/unit/test_envelope.py)
  pin them down.
- Validation happens before anything touches storage: a `NewEvent` that can be constructed
  can be recorded, so a bad event is refused with `InvalidEvent` and a store stays unchanged.

Theory of operation (docs/eventlog.md has the full specification):

    body    = msgpack array [1, stream, seq, type, schema, at, actor, causation, data]
    genesis = sha256(b"t24.eventlog.genesis.v1" + b"\\x00" + utf8(stream))
    hash    = sha256(prev_hash + body)        prev_hash of seq 1 is the stream's genesis

Canonical msgpack: the shortest form of every integer, string, binary and container header
(what msgpack-python emits), floats always as float64 and finite, str and bin kept apart, no
extension types, and every map's keys are strings sorted by their UTF-8 bytes. `data` is
canonicalised once, when a `NewEvent` is built; the store then only splices the stamped
fields (seq, at) in front of those cached bytes.

A `RecordedEvent` is a NamedTuple rather than a frozen dataclass on purpose: replaying a
100,000-event stream builds 100,000 of them, and a tuple is built three times faster.
"""

from __future__ import annotations

import gc
import hashlib
import math
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import msgpack

ENVELOPE_VERSION = 1
GENESIS_DOMAIN = b"t24.eventlog.genesis.v1"
HASH_BYTES = 32

# Size limits (docs/eventlog.md, "Limits"). Bytes are UTF-8 bytes for names.
MAX_DATA_BYTES = 1024 * 1024  # canonical msgpack of one event's `data`
MAX_STREAM_BYTES = 256
MAX_TYPE_BYTES = 128
MAX_CAUSATION_BYTES = 256
MAX_ACTOR_FIELD_BYTES = 256
MAX_DEPTH = 32  # nesting of maps and arrays inside `data`
MAX_SCHEMA = 2**31 - 1
MAX_APPEND_EVENTS = 1000  # events in one append
MAX_APPEND_BYTES = 8 * 1024 * 1024  # summed `data` bytes of one append

_INT_MIN = -(2**63)
_INT_MAX = 2**64 - 1
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_SERVER_ACTOR = {"id": "server", "role": "server"}

_packb = msgpack.packb  # a fresh Packer per call: a shared one is not thread-safe
_unpackb = msgpack.unpackb
_sha256 = hashlib.sha256


class EventLogError(Exception):
    """Base of every error the event log raises on purpose (the rest are in store.py)."""


class InvalidEvent(EventLogError, ValueError):
    """An event, stream name or append the log refuses to record; nothing was written."""


def _server_actor() -> dict[str, str]:
    return dict(_SERVER_ACTOR)


@dataclass(frozen=True)
class NewEvent:
    """What a caller appends: the store stamps `seq`, `at` and the hashes.

    `actor` is `{"role": ..., "id": ...}` (or anything with `as_dict()` giving that, such as
    `server.games.base.Actor`); `causation` names the request (`conn-12:req-7`) or deadline
    that caused the event. Construction validates and canonicalises everything, so a
    `NewEvent` that exists can be recorded; otherwise `InvalidEvent` says why.
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    actor: Mapping[str, str] = field(default_factory=_server_actor)
    causation: str = ""
    schema: int = 1
    data_bytes: bytes = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "type", check_text(self.type, "event type", MAX_TYPE_BYTES))
        object.__setattr__(self, "actor", _check_actor(self.actor))
        object.__setattr__(
            self,
            "causation",
            check_text(self.causation, "causation", MAX_CAUSATION_BYTES, allow_empty=True),
        )
        if type(self.schema) is not int or not 1 <= self.schema <= MAX_SCHEMA:
            raise InvalidEvent(f"schema must be an int from 1 to {MAX_SCHEMA}, not {self.schema!r}")
        object.__setattr__(self, "data_bytes", canonical_data(self.data))


class RecordedEvent(NamedTuple):
    """One event as the log recorded it (immutable; treat `data` and `actor` as read-only).

    `at` is server time in microseconds since the Unix epoch (UTC); `schema` is the version
    of `type` after upcasting (`hash` always covers the bytes as recorded).
    """

    stream: str
    seq: int
    type: str
    data: dict[str, Any]
    at: int
    actor: dict[str, str]
    causation: str
    schema: int
    prev_hash: bytes
    hash: bytes


def check_text(value: Any, what: str, max_bytes: int, allow_empty: bool = False) -> str:
    """Return `value` as a plain str if it is a valid name, else raise `InvalidEvent`.

    Why so strict: names become database keys, file-friendly ids and CLI output, so they are
    non-empty UTF-8 without control characters (unicode letters are welcome).
    """
    if type(value) is str and value.isascii() and value.isprintable() and len(value) <= max_bytes:
        if value or allow_empty:  # the common case, without encoding or a regex
            return value
    if not isinstance(value, str):
        raise InvalidEvent(f"{what} must be a str, not {type(value).__name__}")
    text: str = str.__str__(value)
    if not text and not allow_empty:
        raise InvalidEvent(f"{what} must not be empty")
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError as error:
        raise InvalidEvent(f"{what} is not valid unicode (lone surrogate)") from error
    if size > max_bytes:
        raise InvalidEvent(f"{what} is {size} bytes of UTF-8; the limit is {max_bytes}")
    if _CONTROL.search(text):
        raise InvalidEvent(f"{what} must not contain control characters: {text!r}")
    return text


def check_stream(stream: Any) -> str:
    """Validate a stream name (1 to 256 UTF-8 bytes, no control characters)."""
    return check_text(stream, "stream name", MAX_STREAM_BYTES)


def _check_actor(actor: Any) -> dict[str, str]:
    if type(actor) is dict and len(actor) == 2:  # the common case: no ABC checks
        role, ident = actor.get("role"), actor.get("id")
        if type(role) is str and type(ident) is str and role.isascii() and ident.isascii():
            if role.isprintable() and ident.isprintable() and role:
                if len(role) <= MAX_ACTOR_FIELD_BYTES and len(ident) <= MAX_ACTOR_FIELD_BYTES:
                    return {"id": ident, "role": role}
    if hasattr(actor, "as_dict") and not isinstance(actor, Mapping):
        actor = actor.as_dict()
    if not isinstance(actor, Mapping) or set(actor) != {"role", "id"}:
        raise InvalidEvent(f"actor must be a map with exactly 'role' and 'id', not {actor!r}")
    role = check_text(actor["role"], "actor role", MAX_ACTOR_FIELD_BYTES)
    ident = check_text(actor["id"], "actor id", MAX_ACTOR_FIELD_BYTES, allow_empty=True)
    return {"id": ident, "role": role}  # keys in canonical (sorted) order


def canonical_data(data: Any) -> bytes:
    """The canonical msgpack bytes of an event's `data` map, or `InvalidEvent` saying why not.

    Why a rebuild rather than msgpack's own packing: msgpack keeps a dict's insertion order,
    accepts tuples and subclasses, and floats NaN; we need one byte string per value.
    """
    if type(data) is not dict and not isinstance(data, Mapping):
        raise InvalidEvent(f"data must be a map, not {type(data).__name__}")
    try:
        value = _canonical(data, 0)
    except _Refusal as refusal:
        path = "data" + "".join(reversed(refusal.path))
        raise InvalidEvent(f"{path}: {refusal.message}") from None
    try:
        packed: bytes = _packb(value)
    except (UnicodeEncodeError, ValueError, OverflowError, TypeError) as error:
        raise InvalidEvent(f"data is not msgpack-able: {error}") from error
    if len(packed) > MAX_DATA_BYTES:
        raise InvalidEvent(
            f"data is {len(packed)} bytes of canonical msgpack; the limit is {MAX_DATA_BYTES}"
        )
    return packed


class _Refusal(Exception):
    """A value `_canonical` refuses; containers add their key or index on the way out."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
        self.path: list[str] = []


def _canonical(value: Any, depth: int) -> Any:
    # Exact types first: the common case costs one type() and a few identity checks.
    kind = type(value)
    if value is None or kind is str or kind is bool or kind is bytes:
        return value
    if kind is int:
        if not _INT_MIN <= value <= _INT_MAX:
            raise _Refusal(f"int {value} is outside msgpack's 64-bit range")
        return value
    if kind is float:
        if not math.isfinite(value):
            raise _Refusal(f"float {value} is not finite")
        return value
    if kind is dict or kind is list or kind is tuple or isinstance(value, Mapping):
        if depth >= MAX_DEPTH:
            raise _Refusal(f"nested deeper than {MAX_DEPTH} maps and arrays")
        depth += 1
        if kind is list or kind is tuple:
            result: Any = []
            for index, item in enumerate(value):
                try:
                    result.append(_canonical(item, depth))
                except _Refusal as refusal:
                    refusal.path.append(f"[{index}]")
                    raise
            return result
        try:
            keys = sorted(value)
        except TypeError:  # mixed key types
            keys = list(value)
        result = {}
        for key in keys:
            if type(key) is not str:
                if not isinstance(key, str):
                    raise _Refusal(f"map key {key!r} is not a str")
                key = str.__str__(key)
            try:
                result[key] = _canonical(value[key], depth)
            except _Refusal as refusal:
                refusal.path.append(f".{key}")
                raise
        return result
    # Subclasses (IntEnum, StrEnum, ...) are recorded as their plain base value.
    if isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        return _canonical(int(value), depth)
    if isinstance(value, float):
        return _canonical(float(value), depth)
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    raise _Refusal(
        f"{kind.__name__} is not msgpack-able "
        "(allowed: None, bool, int, float, str, bytes, list, tuple, map with str keys)"
    )


def genesis_hash(stream: str) -> bytes:
    """The `prev_hash` of a stream's first event: binds the chain to the stream's name."""
    return _sha256(GENESIS_DOMAIN + b"\x00" + stream.encode("utf-8")).digest()


def chain_hash(prev_hash: bytes, body: bytes) -> bytes:
    """`sha256(prev_hash || body)`: the hash of one recorded event."""
    return _sha256(prev_hash + body).digest()


def encode_body(stream: str, seq: int, at: int, event: NewEvent) -> bytes:
    """The canonical bytes of `event` stamped as `seq` of `stream` at `at` microseconds.

    The 9-element array is packed with a nil in the data slot, and that one nil byte (0xc0)
    is replaced by the cached canonical `data`: the same bytes as packing the whole array.
    """
    head: bytes = _packb(
        [
            ENVELOPE_VERSION,
            stream,
            seq,
            event.type,
            event.schema,
            at,
            event.actor,
            event.causation,
            None,
        ]
    )
    return head[:-1] + event.data_bytes


def decode_record(body: bytes, prev_hash: bytes, hash_: bytes) -> RecordedEvent:
    """Decode recorded bytes into a `RecordedEvent` (no hash check: see `engine.load_rows`).

    Raises `ValueError` when the bytes are not an envelope of this version.
    """
    fields = _unpackb(body)
    if type(fields) is not list or len(fields) != 9 or fields[0] != ENVELOPE_VERSION:
        raise ValueError("recorded bytes are not a version-1 event envelope")
    _, stream, seq, type_, schema, at, actor, causation, data = fields
    return RecordedEvent(stream, seq, type_, data, at, actor, causation, schema, prev_hash, hash_)


def is_canonical_body(body: bytes) -> bool:
    """True when `body` is exactly the canonical encoding of what it decodes to.

    Why: the hash covers the bytes as stored, but an export that re-encodes from fields must
    reproduce them; the full audit (`verify`) checks this, the fast replay path does not.
    """
    try:
        event = decode_record(body, b"", b"")
        new = NewEvent(event.type, event.data, event.actor, event.causation, event.schema)
        if type(event.seq) is not int or type(event.at) is not int:
            return False
        return encode_body(check_stream(event.stream), event.seq, event.at, new) == body
    except (ValueError, TypeError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError):
        return False


@contextmanager
def bulk_decoding() -> Iterator[None]:
    """Pause the cyclic garbage collector while decoding many events at once.

    Why: decoding builds only acyclic containers (tuples, dicts, lists), yet each one counts
    towards a collection; on a 100,000-event replay the collector's passes cost a quarter of
    the time. The previous state is restored, so nesting and other threads are safe (at
    worst another thread's bulk decode runs with the collector on).
    """
    was_enabled = gc.isenabled()
    if was_enabled:
        gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
