"""The officials' bundle of a tournament: write it from a store, verify it with no store.

What a bundle directory holds (`t24 audit bundle`):
- `streams/<name>.jsonl`: every stream of the tournament (`tournament/<id>` and each of its
  tables, `table/<id>.<name>`) as a `t24 log export` file (server/audit/export.py), with
  `exported_at` the time of the tournament's last event, so the same logs give the same bytes;
- `scorecards.csv`, `standings.csv` (server/audit/bundle_render.py) and `report.html`, the
  officials' report (server/audit/report.py);
- `manifest.json`: each file's sha256, each stream's last seq and head hash, the signer's
  Ed25519 public key, and the signature of the manifest's canonical JSON without the
  signature (server/audit/signing.py).

What `verify_bundle` checks (`t24 audit verify`), stopping at the first difference and naming
the file: the manifest's signature (and, given, that it is the pinned key); that the directory
holds exactly the listed files with their sha256; that every export's chain verifies and ends
at the head the manifest lists; then it re-derives every figure from the events with the same
Deciders: the tournament stream replayed with `server.tournament`, each recorded table result
equal to `table_result` of the table's own events up to the recorded seq, and the CSVs and the
HTML rendered again, byte for byte.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

import server.tournament as tournament
from protocol.messages import table_stream as stream_of_table
from server.audit.bundle_render import scorecards_csv, standings_csv
from server.audit.export import ExportError, check_export, export_stream
from server.audit.report import report_html
from server.audit.signing import public_key_hex, sign, signature_ok
from server.eventlog.envelope import RecordedEvent
from server.eventlog.store import BlockingStore
from server.games.base import Event
from server.tournament.results import table_result
from server.tournament.state import TournamentState
from server.tournament.tables import table_id

FORMAT = "t24-officials-bundle"
VERSION = 1
MANIFEST = "manifest.json"
STREAMS_DIR = "streams"
TOURNAMENT_PREFIX = "tournament/"


class BundleError(Exception):
    """The bundle does not verify: `file` names where the first difference is."""

    def __init__(self, file: str, why: str) -> None:
        super().__init__(f"{file}: {why}")
        self.file = file
        self.why = why


@dataclass(frozen=True)
class Derived:
    """What the events say: the tournament's state, its own events, and each table's events
    by its name."""

    state: TournamentState
    events: Sequence[RecordedEvent]
    tables: Mapping[str, Sequence[RecordedEvent]]


def export_name(stream: str) -> str:
    """The file of a stream's export inside the bundle (`/` is not a file-name character)."""
    return f"{STREAMS_DIR}/{stream.replace('/', '__')}.jsonl"


def replay_tournament(events: Sequence[RecordedEvent]) -> TournamentState:
    """The tournament's state from its stream (the first event is `TableCreated`)."""
    if not events or events[0].type != "TableCreated":
        raise ValueError("a tournament stream starts with TableCreated")
    state = tournament.initial_state(events[0].data["options"])
    for event in events[1:]:
        state = tournament.evolve(state, Event(event.type, event.data))
    return state


def table_streams(state: TournamentState, tournament_id: str) -> dict[str, str]:
    """Each table the tournament started: name -> its stream."""
    names = [t.table for r in state.rounds.values() if r.started for t in r.tables]
    names += [t.table for tie in state.tie_breaks for t in tie.tables]
    return {name: stream_of_table(table_id(tournament_id, name)) for name in names}


def derive(
    tournament_events: Sequence[RecordedEvent], tables: Mapping[str, Sequence[RecordedEvent]]
) -> Derived:
    """Replay the tournament and check each recorded result against its table's events."""
    state = replay_tournament(tournament_events)
    for event in tournament_events:
        if event.type != "TableResultRecorded":
            continue
        name, seq = event.data["table"], event.data["seq"]
        own = [e for e in tables.get(name, ()) if e.seq <= seq]
        result = table_result(own)
        recorded = {k: event.data[k] for k in ("scores", "flags", "disqualified", "initials")}
        if result is None or {k: result[k] for k in recorded} != recorded or result["seq"] != seq:
            raise BundleError(
                export_name(tournament_events[0].stream),
                f"seq {event.seq}: the result of {name} differs from the table's own events",
            )
    return Derived(state, tournament_events, tables)


def figures(derived: Derived) -> dict[str, bytes]:
    """The rendered files (everything but the exports and the manifest)."""
    return {
        "scorecards.csv": scorecards_csv(derived.state).encode("utf-8"),
        "standings.csv": standings_csv(derived.state).encode("utf-8"),
        "report.html": report_html(derived.state, derived.events, derived.tables).encode("utf-8"),
    }


def _canonical(manifest: Mapping[str, Any]) -> bytes:
    unsigned = {k: v for k, v in manifest.items() if k != "signature"}
    return json.dumps(unsigned, sort_keys=True, separators=(",", ":")).encode("utf-8")


def build_bundle(
    store: BlockingStore, tournament_id: str, key: Ed25519PrivateKey
) -> dict[str, bytes]:
    """Every file of the bundle by its relative path (see the module doc)."""
    stream = TOURNAMENT_PREFIX + tournament_id
    events = store.load(stream)
    if not events:
        raise ExportError(f"no stream {stream!r} in this store")
    state = replay_tournament(events)
    exported_at = max(event.at for event in events)
    streams = [stream, *table_streams(state, tournament_id).values()]
    files: dict[str, bytes] = {}
    heads: dict[str, Any] = {}
    tables: dict[str, list[RecordedEvent]] = {}
    for name, table_stream in [(None, stream), *table_streams(state, tournament_id).items()]:
        exported = export_stream(store, table_stream, exported_at)
        files[export_name(table_stream)] = "".join(f"{x}\n" for x in exported.lines).encode()
        head = json.loads(exported.lines[0])["head"]
        heads[table_stream] = head and {"last_seq": head["last_seq"], "head": head["last_hash"]}
        if name is not None:
            tables[name] = store.load(table_stream)
    files.update(figures(derive(events, tables)))
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "tournament": tournament_id,
        "streams": {s: heads[s] for s in streams},
        "files": {path: hashlib.sha256(data).hexdigest() for path, data in sorted(files.items())},
        "public_key": public_key_hex(key),
    }
    manifest["signature"] = sign(key, _canonical(manifest))
    files[MANIFEST] = (json.dumps(manifest, sort_keys=True, indent=1) + "\n").encode("utf-8")
    return files


def write_bundle(files: Mapping[str, bytes], out: Path) -> None:
    """Write the files under `out` (which must not exist: evidence is never overwritten)."""
    out.mkdir(parents=True)
    (out / STREAMS_DIR).mkdir()
    for path, data in sorted(files.items()):
        (out / path).write_bytes(data)


def _read_manifest(directory: Path, pinned_key: str | None) -> dict[str, Any]:
    try:
        manifest = json.loads((directory / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise BundleError(MANIFEST, f"not readable JSON ({error})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BundleError(MANIFEST, f"not a {FORMAT} manifest")
    key, signature = manifest.get("public_key"), manifest.get("signature")
    if not isinstance(key, str) or not isinstance(signature, str):
        raise BundleError(MANIFEST, "no public key or signature")
    if pinned_key is not None and key != pinned_key.lower():
        raise BundleError(MANIFEST, f"signed by {key}, not by the pinned key {pinned_key}")
    if not signature_ok(key, _canonical(manifest), signature):
        raise BundleError(MANIFEST, "the signature does not match the manifest")
    return manifest


def verify_bundle(directory: Path, pinned_key: str | None = None) -> dict[str, Any]:
    """Check a bundle (see the module doc); returns the manifest, raises `BundleError`."""
    return _verified(directory, pinned_key)[0]


def report_in(directory: Path, lang: str, pinned_key: str | None = None) -> str:
    """The officials' report of a verified bundle, worded in `lang` (`t24 audit report`):
    the bundle's own report.html is English; every language renders from the same events."""
    derived = _verified(directory, pinned_key)[1]
    return report_html(derived.state, derived.events, derived.tables, lang)


def _verified(directory: Path, pinned_key: str | None) -> tuple[dict[str, Any], Derived]:
    manifest = _read_manifest(directory, pinned_key)
    listed: dict[str, str] = manifest.get("files", {})
    present = {
        str(path.relative_to(directory))
        for path in directory.rglob("*")
        if path.is_file() and path.name != MANIFEST
    }
    for extra in sorted(present - set(listed)):
        raise BundleError(extra, "not listed in the manifest")
    contents: dict[str, bytes] = {}
    for path, digest in sorted(listed.items()):
        try:
            data = (directory / path).read_bytes()
        except OSError:
            raise BundleError(path, "missing") from None
        if hashlib.sha256(data).hexdigest() != digest:
            raise BundleError(path, "its sha256 differs from the manifest's")
        contents[path] = data
    events_by_stream: dict[str, Sequence[RecordedEvent]] = {}
    for stream, head in manifest.get("streams", {}).items():
        path = export_name(stream)
        try:
            checked = check_export(contents[path].decode("utf-8").splitlines())
        except (KeyError, ExportError, UnicodeDecodeError) as error:
            raise BundleError(path, f"not a readable export ({error})") from None
        if not checked.report.ok:
            raise BundleError(path, checked.report.describe())
        last = checked.events[-1] if checked.events else None
        if head is None or last is None or last.hash.hex() != head["head"]:
            raise BundleError(path, "its chain does not end at the manifest's head")
        events_by_stream[stream] = checked.events
    tournament_stream = TOURNAMENT_PREFIX + str(manifest.get("tournament"))
    events = events_by_stream.get(tournament_stream)
    if not events:
        raise BundleError(MANIFEST, f"no export of {tournament_stream}")
    state = replay_tournament(events)
    expected = table_streams(state, str(manifest["tournament"]))
    if set(expected.values()) | {tournament_stream} != set(events_by_stream):
        raise BundleError(MANIFEST, "the streams listed are not the tournament's tables")
    tables = {name: events_by_stream[stream] for name, stream in expected.items()}
    derived = derive(events, tables)
    for path, data in figures(derived).items():
        if contents.get(path) != data:
            where = _first_line(contents.get(path, b""), data)
            raise BundleError(path, f"differs from the figures re-derived from the events{where}")
    return manifest, derived


def _first_line(found: bytes, derived: bytes) -> str:
    found_lines, derived_lines = found.splitlines(), derived.splitlines()
    for number, (a, b) in enumerate(zip(found_lines, derived_lines, strict=False), 1):
        if a != b:
            return f" (first at line {number})"
    return f" (line {min(len(found_lines), len(derived_lines)) + 1})"
