"""The SQLite store: one file, WAL, group commit through a single writer connection.

How it works:
- Two STRICT tables (SQLite >= 3.37). `events(stream, seq, body, prev_hash, hash)` with
  `PRIMARY KEY (stream, seq)` holds every recorded event as its canonical bytes;
  `streams(stream, last_seq, last_hash, last_at)` holds each stream's head, so an append
  reads one row to chain from and `streams(prefix)` does not scan the events.
  `PRAGMA user_version` is the format (1).
- Writes go through one connection. `append_batch` takes `BEGIN IMMEDIATE` (the file's
  write lock, also against other processes: `busy_timeout` waits for them), reads the heads,
  plans the whole group with `engine.plan_appends` and commits once. That one commit, and
  its one fsync, is the group commit: `ThreadedStore` hands it every append that arrived
  while the previous commit was in flight. The writer remembers the heads it committed
  until another connection commits (`PRAGMA data_version`).
- Reads use one connection per reader thread (`query_only`), each read in its own
  transaction, so a stream and its head are read from one WAL snapshot.

Durability (docs/eventlog.md): `synchronous=full` (the default) fsyncs the WAL at every
commit: an acknowledged append survives a process kill and a power loss. With
`?synchronous=normal` it survives a process kill or crash of the program, but the last
commits before a power loss or OS crash may be lost (the database stays consistent).
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from urllib.parse import parse_qsl, unquote

from server.eventlog.engine import (
    AppendRequest,
    Engine,
    LoadRow,
    Outcome,
    Row,
    StreamHead,
    plan_appends,
)
from server.eventlog.envelope import MAX_STREAM_BYTES, check_stream, check_text
from server.eventlog.store import Clock, StoreClosed, StoreUnavailable, Upcasters

FORMAT_VERSION = 1

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS events (
        stream TEXT NOT NULL,
        seq INTEGER NOT NULL,
        body BLOB NOT NULL,
        prev_hash BLOB NOT NULL,
        hash BLOB NOT NULL,
        PRIMARY KEY (stream, seq)
    ) STRICT""",
    """CREATE TABLE IF NOT EXISTS streams (
        stream TEXT PRIMARY KEY,
        last_seq INTEGER NOT NULL,
        last_hash BLOB NOT NULL,
        last_at INTEGER NOT NULL
    ) WITHOUT ROWID, STRICT""",
)
_INSERT_EVENT = "INSERT INTO events (stream, seq, body, prev_hash, hash) VALUES (?, ?, ?, ?, ?)"
_UPSERT_HEAD = (
    "INSERT INTO streams (stream, last_seq, last_hash, last_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (stream) DO UPDATE SET last_seq = excluded.last_seq, "
    "last_hash = excluded.last_hash, last_at = excluded.last_at"
)
_SELECT_HEAD = "SELECT last_seq, last_hash, last_at FROM streams WHERE stream = ?"
_SELECT_HEADS = "SELECT stream, last_seq, last_hash, last_at FROM streams WHERE stream IN"
_SELECT_ROWS = (  # the casts keep a row a tamperer retyped readable, so verify can say why
    "SELECT seq, CAST(body AS BLOB), CAST(prev_hash AS BLOB), CAST(hash AS BLOB) FROM events "
    "WHERE stream = ? AND seq > ? ORDER BY seq LIMIT ?"
)
_SELECT_LOAD_ROWS = (
    "SELECT seq, CAST(body AS BLOB), CAST(hash AS BLOB) FROM events "
    "WHERE stream = ? AND seq > ? ORDER BY seq LIMIT ?"
)
_SELECT_STREAMS = (
    "SELECT stream FROM streams WHERE last_seq > 0 AND substr(stream, 1, ?) = ? ORDER BY stream"
)
_HEADS_CHUNK = 500  # bound the number of SQL variables in one IN (...)
_HEAD_CACHE_MAX = 100_000  # stream heads the writer remembers between commits


@contextmanager
def _database_errors(path: str) -> Iterator[None]:
    try:
        yield
    except sqlite3.Error as error:
        raise StoreUnavailable(f"SQLite event log {path!r}: {error}") from error


class SQLiteEngine(Engine):
    """A blocking store in one SQLite file (thread-safe: one writer, a reader per thread)."""

    def __init__(
        self,
        path: str,
        *,
        synchronous: str = "full",
        clock: Clock = time.time,
        upcasters: Upcasters | None = None,
        busy_timeout_s: float = 10.0,
    ) -> None:
        super().__init__(clock, upcasters if upcasters is not None else Upcasters())
        if synchronous not in ("full", "normal"):
            raise ValueError(f"synchronous must be 'full' or 'normal', not {synchronous!r}")
        self.path = path
        self.synchronous = synchronous
        self._busy_timeout_s = busy_timeout_s
        self._write_lock = threading.Lock()
        self._connections_lock = threading.Lock()
        self._connections: list[sqlite3.Connection] = []
        self._local = threading.local()
        self._closed = False
        self._head_cache: dict[str, StreamHead] = {}
        self._head_cache_version: int | None = None
        with _database_errors(path):
            file = database_file(path)
            if file is not None:
                os.makedirs(os.path.dirname(os.path.abspath(file)), exist_ok=True)
                _create_private(file)
            self._writer = self._connect()
            self._create_schema()

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(
            self.path,
            uri=self.path.startswith("file:"),  # one reading, whatever the library's build
            timeout=self._busy_timeout_s,
            isolation_level=None,  # we issue BEGIN and COMMIT ourselves
            check_same_thread=False,  # one thread at a time, guarded by our locks
        )
        connection.execute(f"PRAGMA synchronous = {self.synchronous.upper()}")
        with self._connections_lock:
            self._connections.append(connection)
        return connection

    def _create_schema(self) -> None:
        connection = self._writer
        version = connection.execute("PRAGMA user_version").fetchone()[0]
        if version > FORMAT_VERSION:
            raise StoreUnavailable(
                f"{self.path!r} has event log format {version}; this t24 knows {FORMAT_VERSION}"
            )
        mode = connection.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if mode.lower() != "wal":
            raise StoreUnavailable(f"{self.path!r} cannot use WAL (journal mode {mode})")
        connection.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA:
                connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {FORMAT_VERSION}")
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise

    def _reader(self) -> sqlite3.Connection:
        if self._closed:
            raise StoreClosed(f"the SQLite event log {self.path!r} is closed")
        connection = getattr(self._local, "connection", None)
        if connection is None:
            with _database_errors(self.path):
                connection = self._connect()
                connection.execute("PRAGMA query_only = 1")
            self._local.connection = connection
        return connection

    def append_batch(self, requests: Sequence[AppendRequest]) -> list[Outcome]:
        """One `BEGIN IMMEDIATE ... COMMIT` for the whole group: one fsync, all or nothing."""
        with self._write_lock, _database_errors(self.path):
            if self._closed:
                raise StoreClosed(f"the SQLite event log {self.path!r} is closed")
            connection = self._writer
            connection.execute("BEGIN IMMEDIATE")
            try:
                heads = self._heads(connection, {request.stream for request in requests})
                plan = plan_appends(requests, heads, self.now_us(), self.upcasters)
                if plan.rows:
                    connection.executemany(_INSERT_EVENT, plan.rows)
                    connection.executemany(
                        _UPSERT_HEAD,
                        [(s, h.last_seq, h.last_hash, h.last_at) for s, h in plan.heads.items()],
                    )
                connection.execute("COMMIT")
            except BaseException:
                self._head_cache.clear()
                if connection.in_transaction:
                    connection.execute("ROLLBACK")
                raise
            if len(self._head_cache) > _HEAD_CACHE_MAX:
                self._head_cache.clear()
            self._head_cache.update(plan.heads)
            return plan.outcomes

    def _heads(self, connection: sqlite3.Connection, streams: set[str]) -> dict[str, StreamHead]:
        """The heads of `streams`, inside the writer's transaction.

        Heads this connection committed are cached; `PRAGMA data_version` changes when any
        other connection (another process, a repair) commits, and then the cache is dropped.
        """
        version = connection.execute("PRAGMA data_version").fetchone()[0]
        if version != self._head_cache_version:
            self._head_cache.clear()
            self._head_cache_version = version
        cache = self._head_cache
        heads = {stream: cache[stream] for stream in streams if stream in cache}
        names = sorted(streams - heads.keys())
        for start in range(0, len(names), _HEADS_CHUNK):
            chunk = names[start : start + _HEADS_CHUNK]
            marks = ", ".join("?" * len(chunk))
            query = f"{_SELECT_HEADS} ({marks})"
            for stream, last_seq, last_hash, last_at in connection.execute(query, chunk):
                heads[stream] = StreamHead(last_seq, last_hash, last_at)
        return heads

    def _rows(self, stream: str, after_seq: int, limit: int | None) -> list[Row]:
        connection = self._reader()
        with _database_errors(self.path):
            cursor = connection.execute(_SELECT_ROWS, (stream, after_seq, limit or -1))
            return cursor.fetchall()

    def _snapshot(
        self, stream: str, with_prev: bool = True
    ) -> tuple[StreamHead | None, list[Row] | list[LoadRow]]:
        connection = self._reader()
        select = _SELECT_ROWS if with_prev else _SELECT_LOAD_ROWS
        with _database_errors(self.path):
            connection.execute("BEGIN")
            try:
                found = connection.execute(_SELECT_HEAD, (stream,)).fetchone()
                rows = connection.execute(select, (stream, 0, -1)).fetchall()
            finally:
                connection.execute("COMMIT")
        return (StreamHead(*found) if found else None), rows

    def last_seq(self, stream: str) -> int:
        """The stream's last seq (0 when it has no events)."""
        stream = check_stream(stream)
        connection = self._reader()
        with _database_errors(self.path):
            found = connection.execute(_SELECT_HEAD, (stream,)).fetchone()
        return found[0] if found else 0

    def streams(self, prefix: str = "") -> list[str]:
        """Streams with events whose names start with `prefix`, in code point order."""
        prefix = check_text(prefix, "prefix", MAX_STREAM_BYTES, allow_empty=True)
        connection = self._reader()
        with _database_errors(self.path):
            rows = connection.execute(_SELECT_STREAMS, (len(prefix), prefix)).fetchall()
        return [row[0] for row in rows]

    def close(self) -> None:
        """Close every connection (idempotent). Callers must have stopped their threads."""
        with self._write_lock:
            self._closed = True
            with self._connections_lock:
                connections, self._connections = self._connections, []
            for connection in connections:
                connection.close()


def database_file(path: str) -> str | None:
    """The file a SQLite database name opens, or None when it opens no file (`:memory:`,
    a `file:` URI with `mode=memory` or the path `:memory:`).

    Why parse URIs here: `file:` names (SQLite's URI filenames: `file:/abs/path`,
    `file:rel/path?mode=rwc`, `file:///abs/path`, percent-escapes in the path) are opened as
    the path they name; the owner lock (server/cluster/store_lock.py), the private mode and
    the parent directory must be of that file, not of the literal text. Raises ValueError
    for a URI authority other than empty or `localhost`, which SQLite refuses too.
    """
    if path == ":memory:":
        return None
    if not path.startswith("file:"):
        return path
    rest = path[len("file:") :].split("#", 1)[0]
    rest, _, query = rest.partition("?")
    if rest.startswith("//"):
        authority, slash, rest = rest[2:].partition("/")
        if authority not in ("", "localhost"):
            raise StoreUnavailable(f"SQLite URI {path!r}: the host must be empty or localhost")
        rest = slash + rest
    options = dict(parse_qsl(query, keep_blank_values=True))
    file = unquote(rest)
    if file in ("", ":memory:") or options.get("mode") == "memory":
        return None  # "": SQLite's private temporary database, gone when closed
    return file


def _create_private(path: str) -> None:
    """Create the database file with mode 0600 if it does not exist yet.

    Why: the log holds deck orders and answers before they are revealed; SQLite would create
    the file with the umask (usually 0644), and it gives the `-wal` and `-shm` files it
    creates later the mode of the database file, so creating this one private is enough.
    An existing file keeps the mode its owner gave it.
    """
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    os.close(fd)
