"""Audit exports: one stream's recorded events in a file that anyone can check, offline.

What it keeps: the export format (JSON Lines, `t24-event-export` version 1, docs/eventlog.md
"Audit exports") and the two functions on it. `export_stream` copies a stream out of a store
exactly as recorded; `check_export` recomputes the hash chain from the file alone, with the
same audit `t24 log verify` runs on a store (`engine.audit_rows`), and also checks that each
line's readable copy of its event says what the recorded bytes say.

Why the recorded bytes travel, not only the decoded events: the hashes cover bytes. With the
body in the file an official needs nothing of the server: `sha256(prev_hash || body)` and a
msgpack reader reproduce every hash, and the head hash printed at the end of a round (or
kept by the tournament director) pins the whole chain. The readable copy is there so that
people can read the file; it is checked, never trusted.

How a broken stream is exported: as it is recorded, broken link included (the evidence an
official needs); the header says what the store's own audit said, and checking the file
finds the same break.
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import msgpack

from server.eventlog.engine import Row, StreamHead, audit_rows
from server.eventlog.envelope import RecordedEvent, check_stream, decode_record, genesis_hash
from server.eventlog.store import BlockingStore, VerifyReport

FORMAT = "t24-event-export"
VERSION = 1
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


class ExportError(Exception):
    """The file is not a readable export (what and which line are in the message)."""


def json_value(value: Any) -> Any:
    """`value` with every `bytes` as `{"$bytes": "<base64>"}`: JSON can carry it then."""
    if isinstance(value, bytes):
        return {"$bytes": base64.b64encode(value).decode("ascii")}
    if isinstance(value, dict):
        return {key: json_value(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_value(item) for item in value]
    return value


def iso_time(at_us: int) -> str:
    """Microseconds since the epoch as ISO 8601 UTC, to the microsecond."""
    moment = datetime.fromtimestamp(at_us // 1_000_000, UTC)
    return moment.replace(microsecond=at_us % 1_000_000).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def readable_event(event: RecordedEvent) -> dict[str, Any]:
    """One recorded event as JSON-ready data: what people read (and `t24 log show --json`)."""
    return {
        "stream": event.stream,
        "seq": event.seq,
        "type": event.type,
        "schema": event.schema,
        "at": event.at,
        "time": iso_time(event.at),
        "actor": event.actor,
        "causation": event.causation,
        "data": json_value(event.data),
    }


def _readable_or_none(body: bytes, prev_hash: bytes, digest: bytes) -> dict[str, Any] | None:
    try:
        return readable_event(decode_record(body, prev_hash, digest))
    except (ValueError, TypeError, OverflowError, msgpack.UnpackException):
        return None  # the audit reports these bytes as not an envelope


def _line(record: Mapping[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Exported:
    """An export's lines (a header, then one per recorded event) and the store's verdict."""

    report: VerifyReport
    lines: tuple[str, ...]


def export_stream(store: BlockingStore, stream: str, exported_at_us: int) -> Exported:
    """The export of `stream`, with what the store's own audit says of it.

    Raises `ExportError` for a stream with no events (nothing to export is a mistake).
    """
    head, rows = store.recorded(check_stream(stream))
    if not rows:
        raise ExportError(f"no stream {stream!r} in this store")
    report = audit_rows(stream, head, rows)
    header: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "stream": stream,
        "genesis": genesis_hash(stream).hex(),
        "head": None
        if head is None
        else {
            "last_seq": head.last_seq,
            "last_hash": head.last_hash.hex(),
            "last_at": head.last_at,
        },
        "events": len(rows),
        "exported_at": iso_time(exported_at_us),
        "store_audit": report.describe(),
    }
    events = (
        {
            "seq": seq,
            "prev_hash": prev_hash.hex(),
            "hash": digest.hex(),
            "body": base64.b64encode(body).decode("ascii"),
            "event": _readable_or_none(body, prev_hash, digest),
        }
        for seq, body, prev_hash, digest in rows
    )
    return Exported(report, tuple(_line(record) for record in (header, *events)))


@dataclass(frozen=True)
class CheckedExport:
    """An export checked from the file alone: its header, the verdict, the good events."""

    header: Mapping[str, Any]
    report: VerifyReport
    events: tuple[RecordedEvent, ...]  # the verified prefix, decoded (for a replay)


def check_export(lines: Iterable[str]) -> CheckedExport:
    """Recompute the chain of an export; `report` is what `t24 log verify` would say.

    Raises `ExportError` when the file is not an export at all (not JSON, another format or
    version, a field missing or of the wrong kind): that is a damaged file, not a verdict.
    """
    numbered = ((number, line) for number, line in enumerate(lines, 1) if line.strip())
    header = _header(next(numbered, (1, "")))
    stream = header["stream"]
    rows: list[Row] = []
    copies: list[Any] = []
    for number, line in numbered:
        seq, body, prev_hash, digest, copy = _event_line(number, line)
        rows.append((seq, body, prev_hash, digest))
        copies.append(copy)
    if len(rows) != header["events"]:
        raise ExportError(
            f"the header announces {header['events']} events, the file has {len(rows)}"
        )
    report = audit_rows(stream, _head(header), rows)
    report = _check_copies(report, rows, copies)
    good = rows[: report.events]
    events = tuple(decode_record(body, prev, digest) for _, body, prev, digest in good)
    return CheckedExport(header, report, events)


def trusted_head(text: str) -> str:
    """`text` as a head prefix to look for (lower case); `ValueError` unless 16 to 64 hex digits."""
    if not 16 <= len(text) <= 64 or not _HEX_DIGITS.issuperset(text):
        raise ValueError(f"a trusted head is 16 to 64 hex digits, not {text!r}")
    return text.lower()


def find_head(checked: CheckedExport, trusted: str) -> int | None:
    """The seq of the verified event whose hash starts with `trusted` (16 to 64 hex digits),
    or None; `ValueError` when `trusted` is not such a prefix.

    Why: a whole file can be rewritten consistently, every hash recomputed; only a head kept
    outside the database (the server logs it when a table is over, `t24 log verify` prints
    it) proves the file is the recorded chain. An anchor taken before later events covers
    the events up to it.
    """
    trusted = trusted_head(trusted)
    for event in checked.events:
        if event.hash.hex().startswith(trusted):
            return event.seq
    return None


def _check_copies(report: VerifyReport, rows: list[Row], copies: list[Any]) -> VerifyReport:
    """The first event, within the verified prefix, whose readable copy differs from its bytes."""
    for index in range(report.events):
        seq, body, prev_hash, digest = rows[index]
        expected = json.loads(_line(_readable_or_none(body, prev_hash, digest) or {}))
        if copies[index] != expected:
            reason = "the readable copy of the event differs from its recorded bytes"
            previous = rows[index - 1][3] if index else genesis_hash(report.stream)
            return VerifyReport(report.stream, False, index, index, previous, seq, reason)
    return report


def _header(numbered: tuple[int, str]) -> dict[str, Any]:
    number, line = numbered
    header = _json_map(number, line)
    if header.get("format") != FORMAT or header.get("version") != VERSION:
        raise ExportError(f"line {number}: not a {FORMAT} version {VERSION} file")
    try:
        stream = check_stream(header.get("stream"))
    except ValueError as error:
        raise ExportError(f"line {number}: {error}") from error
    if header.get("genesis") != genesis_hash(stream).hex():
        raise ExportError(f"line {number}: 'genesis' is not the genesis hash of {stream!r}")
    if type(header.get("events")) is not int:
        raise ExportError(f"line {number}: 'events' is the number of events")
    head = header.get("head")
    if head is not None and not (
        isinstance(head, dict)
        and type(head.get("last_seq")) is int
        and type(head.get("last_at")) is int
        and isinstance(head.get("last_hash"), str)
    ):
        raise ExportError(f"line {number}: 'head' is null or {{last_seq, last_hash, last_at}}")
    return header


def _head(header: Mapping[str, Any]) -> StreamHead | None:
    head = header["head"]
    if head is None:
        return None
    return StreamHead(head["last_seq"], _hex(1, head["last_hash"]), head["last_at"])


def _event_line(number: int, line: str) -> tuple[int, bytes, bytes, bytes, Any]:
    record = _json_map(number, line)
    seq = record.get("seq")
    if type(seq) is not int:
        raise ExportError(f"line {number}: 'seq' is a whole number")
    body = record.get("body")
    try:
        raw = base64.b64decode(body, validate=True) if isinstance(body, str) else None
    except binascii.Error:
        raw = None
    if raw is None:
        raise ExportError(f"line {number}: 'body' is the recorded bytes in base64")
    return (
        seq,
        raw,
        _hex(number, record.get("prev_hash")),
        _hex(number, record.get("hash")),
        record.get("event"),
    )


def _json_map(number: int, line: str) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except ValueError as error:
        raise ExportError(f"line {number}: not JSON ({error})") from error
    if not isinstance(value, dict):
        raise ExportError(f"line {number}: not a JSON object")
    return value


def _hex(number: int, value: Any) -> bytes:
    if isinstance(value, str) and len(value) == 64 and _HEX_DIGITS.issuperset(value):
        return bytes.fromhex(value)  # (fromhex alone would also take spaces)
    raise ExportError(f"line {number}: a hash is 64 hex digits, not {value!r}")
