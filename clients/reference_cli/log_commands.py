"""`t24 log streams|show|verify|export|check-export`: read, verify and export event streams.

These commands open the store with plain blocking calls (`open_blocking_store`, no reactor)
and never create anything: pointing them at a missing file or schema is an error, not a new
empty log. Exit codes follow `t24 --help`: 0 success (every chain verifies), 1 a broken
chain (the first broken seq is printed), 2 bad input (a URL the command cannot use, a store
that does not answer, an unknown stream).

`show --json` prints JSON Lines, one event per line: hashes in hex, `bytes` inside `data`
as `{"$bytes": "<base64>"}` (docs/eventlog.md). `export` writes a stream as recorded into a
file that `check-export` (or anyone with sha256 and msgpack) verifies with no store at all
(server/audit/export.py; docs/eventlog.md, "Audit exports").
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from server.audit.export import (
    ExportError,
    check_export,
    export_stream,
    find_head,
    iso_time,
    json_value,
    readable_event,
    trusted_head,
)
from server.eventlog.backends import open_blocking_store
from server.eventlog.envelope import RecordedEvent
from server.eventlog.store import DEFAULT_STORE_URL, BlockingStore, CorruptStream, EventLogError

EXIT_OK, EXIT_BROKEN, EXIT_BAD_INPUT = 0, 1, 2


LOG_EXAMPLES = """\
examples:
  t24 log streams --store sqlite:///var/t24.sqlite
  t24 log show --store sqlite:///var/t24.sqlite table/demo --json
  t24 log verify --store sqlite:///var/t24.sqlite             every stream; exit 1 if one breaks
  t24 log verify --store postgresql://postgres@127.0.0.1:5432/postgres table/demo
  t24 log export --store sqlite:///var/t24.sqlite table/demo --out demo.t24export
  t24 log check-export demo.t24export                 needs no store; exit 1 if it breaks
  t24 log check-export demo.t24export --head 6f18c5b6667a3bba   against a head kept elsewhere
"""


def add_parsers(subparsers: argparse._SubParsersAction) -> None:
    """Register the `log` subcommands."""
    log = subparsers.add_parser(
        "log",
        help="list, show, verify and export event streams",
        description="Read and verify the hash-chained event streams of a store.",
        epilog=LOG_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    commands = log.add_subparsers(dest="log_command", metavar="SUBCOMMAND")
    store_help = f"store URL (default: $T24_STORE or {DEFAULT_STORE_URL})"
    default_store = os.environ.get("T24_STORE", DEFAULT_STORE_URL)

    leaf = {"epilog": LOG_EXAMPLES, "formatter_class": argparse.RawDescriptionHelpFormatter}
    streams = commands.add_parser("streams", help="list streams and their last seq", **leaf)
    streams.add_argument("--store", default=default_store, help=store_help)
    streams.add_argument("--prefix", default="", help="only streams starting with this")
    streams.set_defaults(func=_guarded(_streams))

    show = commands.add_parser("show", help="print the events of one stream", **leaf)
    show.add_argument("--store", default=default_store, help=store_help)
    show.add_argument("stream")
    show.add_argument("--json", action="store_true", help="JSON Lines, one event per line")
    show.add_argument("--after", type=int, default=0, metavar="SEQ", help="start after SEQ")
    show.set_defaults(func=_guarded(_show))

    verify = commands.add_parser(
        "verify",
        help="recompute hash chains (exit 1 and the first broken seq if one breaks)",
        **leaf,
    )
    verify.add_argument("--store", default=default_store, help=store_help)
    verify.add_argument("stream", nargs="?", help="one stream (default: every stream)")
    verify.set_defaults(func=_guarded(_verify))

    export = commands.add_parser(
        "export", help="write one stream as recorded, for an offline audit", **leaf
    )
    export.add_argument("--store", default=default_store, help=store_help)
    export.add_argument("stream")
    export.add_argument("--out", default="-", metavar="FILE", help="the file (default: stdout)")
    export.set_defaults(func=_guarded(_export))

    check = commands.add_parser(
        "check-export", help="verify an export from the file alone (no store)", **leaf
    )
    check.add_argument("file", help="an export file, or - for stdin")
    check.add_argument(
        "--head",
        metavar="HEX",
        help="a head hash kept outside the database (16 to 64 hex digits): the chain must hold it",
    )
    check.set_defaults(func=_check_export)

    log.set_defaults(func=lambda _args: _usage(log))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return EXIT_BAD_INPUT


def _guarded(command: Callable[[argparse.Namespace, BlockingStore], int]) -> Callable:
    """Open the store for `command`, close it after, and turn log errors into exit code 2."""

    def run(args: argparse.Namespace) -> int:
        try:
            store = open_blocking_store(args.store, create=False)
        except EventLogError as error:
            print(f"t24 log: {error}", file=sys.stderr)
            return EXIT_BAD_INPUT
        try:
            return command(args, store)
        except CorruptStream as error:
            print(error.report.describe())
            return EXIT_BROKEN
        except EventLogError as error:
            print(f"t24 log: {error}", file=sys.stderr)
            return EXIT_BAD_INPUT
        finally:
            store.close()

    return run


def _streams(args: argparse.Namespace, store: BlockingStore) -> int:
    for stream in store.streams(args.prefix):
        print(f"{stream}\t{store.last_seq(stream)}")
    return EXIT_OK


def _known(store: BlockingStore, stream: str) -> bool:
    if store.last_seq(stream):
        return True
    print(f"t24 log: no stream {stream!r} in this store", file=sys.stderr)
    return False


def _show(args: argparse.Namespace, store: BlockingStore) -> int:
    if not _known(store, args.stream):
        return EXIT_BAD_INPUT
    for event in store.read(args.stream, after_seq=max(args.after, 0)):
        print(json.dumps(as_json(event), ensure_ascii=False) if args.json else as_line(event))
    # What was printed is only as good as the chain behind it: an auditor reading a stream
    # whose tail was cut or whose bytes were changed must be told, not shown exit 0.
    report = store.verify(args.stream)
    if not report.ok:
        print(report.describe(), file=sys.stderr)
        return EXIT_BROKEN
    return EXIT_OK


def _verify(args: argparse.Namespace, store: BlockingStore) -> int:
    if args.stream is not None and not _known(store, args.stream):
        return EXIT_BAD_INPUT
    streams = [args.stream] if args.stream is not None else store.streams()
    broken = 0
    for stream in streams:
        report = store.verify(stream)
        print(report.describe())
        broken += not report.ok
    if args.stream is None:
        print(f"{len(streams) - broken} of {len(streams)} streams verify")
    return EXIT_BROKEN if broken else EXIT_OK


def _export(args: argparse.Namespace, store: BlockingStore) -> int:
    """Write the export; exit 1 (after writing it) when the stream does not verify."""
    try:
        exported = export_stream(store, args.stream, time.time_ns() // 1000)
    except ExportError as error:
        print(f"t24 log: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    text = "".join(line + "\n" for line in exported.lines)
    if args.out == "-":
        sys.stdout.write(text)
    else:
        try:
            with open(args.out, "x", encoding="utf-8") as handle:  # never overwrite evidence
                handle.write(text)
        except OSError as error:
            print(f"t24 log: cannot write {args.out}: {error.strerror or error}", file=sys.stderr)
            return EXIT_BAD_INPUT
    report = exported.report
    events = len(exported.lines) - 1
    print(f"exported {events} events of {args.stream}: {report.describe()}", file=sys.stderr)
    return EXIT_OK if report.ok else EXIT_BROKEN


def _check_export(args: argparse.Namespace) -> int:
    """Check an export with no store: exit 0 when its chain verifies (and holds the trusted
    head, with `--head`), 1 at the first break or when the head is not in the chain."""
    try:
        head = None if args.head is None else trusted_head(args.head)
    except ValueError as error:
        print(f"t24 log: --head: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        if args.file == "-":
            checked = check_export(sys.stdin)
        else:
            with open(args.file, encoding="utf-8") as handle:
                checked = check_export(handle)
    except (OSError, UnicodeDecodeError) as error:
        print(f"t24 log: cannot read {args.file}: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except ExportError as error:
        print(f"t24 log: {args.file} is not an export: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    report = checked.report
    print(report.describe())
    print(f"exported at {checked.header.get('exported_at')}")
    if not report.ok or head is None:
        return EXIT_OK if report.ok else EXIT_BROKEN
    seq = find_head(checked, head)
    if seq is None:
        print(
            f"BROKEN {report.stream}: the trusted head {head} is not in this chain "
            "(the file was rewritten, or the head belongs to another stream)"
        )
        return EXIT_BROKEN
    later = report.last_seq - seq
    covered = "the last event" if not later else f"{later} later events are not covered by it"
    print(f"trusted head {head[:16]} is seq {seq}: {covered}")
    return EXIT_OK


def as_json(event: RecordedEvent) -> dict[str, Any]:
    """One event as a JSON-ready map (the `show --json` line): readable, with its hashes."""
    return {**readable_event(event), "prev_hash": event.prev_hash.hex(), "hash": event.hash.hex()}


def as_line(event: RecordedEvent) -> str:
    """One event for people: seq, time, type, actor, causation, data."""
    actor = f"{event.actor['role']}:{event.actor['id']}"
    data = json.dumps(json_value(event.data), ensure_ascii=False, separators=(",", ":"))
    return (
        f"{event.seq:>6}  {iso_time(event.at)}  {event.type}  {actor}  "
        f"{event.causation or '-'}  {data}"
    )
