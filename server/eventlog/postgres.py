"""The PostgreSQL store: psycopg 3 (sync) with a psycopg_pool, for multi-node deployments.

How it works:
- Tables live in one schema (`?schema=name` in the URL, default `t24`), created on first use
  under an advisory lock so two nodes starting together do not race:
  `events(stream, seq, body, prev_hash, hash)` with `PRIMARY KEY (stream, seq)`, and
  `streams(stream, last_seq, last_hash, last_at)`, one head row per stream.
- `append_batch` (a group commit, like SQLite's) locks the heads of the batch's streams with
  `SELECT ... FOR UPDATE` in name order (so two writers cannot deadlock on them), plans the
  batch with `engine.plan_appends`, inserts new heads, updates old ones and inserts the
  events with one `unnest` statement each, and commits. Two processes or machines that race
  to create the same stream collide on the `streams` primary key: the loser's transaction
  rolls back and is planned again against the winner's head, so its caller gets an honest
  `ConcurrencyError`. `PRIMARY KEY (stream, seq)` stays as the last line of defence.
- A server node sets `fence` (server/cluster/leases.py): the same transaction then reads
  the batch's lease rows `FOR SHARE` and refuses (`LeaseLost`, nothing written) every
  request for a stream this node does not hold at its epoch; the others go on. It also
  sends one `NOTIFY t24_events` per commit (more only past 7,900 bytes), naming the node and
  every stream written with its new seq (`notify_payloads`), for other nodes' replicas.
- Reads take a pooled connection; `load` and `verify` read the head and the rows in one
  REPEATABLE READ snapshot. Binary cursors hand `bytea` over without hex decoding.

Durability: a commit returns once PostgreSQL has flushed it to its WAL (with the server's
default `synchronous_commit = on` and `fsync = on`): acknowledged appends survive a crash of
this process, of the server, and a power loss of the database machine.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

import psycopg
from psycopg import errors, sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import ConnectionPool, PoolTimeout

from server.eventlog.engine import (
    AppendRequest,
    Engine,
    LoadRow,
    Outcome,
    Row,
    StreamHead,
    plan_appends,
)
from server.eventlog.envelope import MAX_STREAM_BYTES, EventLogError, check_stream, check_text
from server.eventlog.notices import notify_payloads
from server.eventlog.store import Clock, StoreClosed, StoreUnavailable, Upcasters

FORMAT_VERSION = "1"
_SCHEMA_LOCK = 0x7432_3465_766C  # pg_advisory_xact_lock key for creating the schema
_RETRIES = 8  # re-plans after losing a race to create a stream, or a deadlock

_RETRYABLE = (errors.UniqueViolation, errors.DeadlockDetected, errors.SerializationFailure)


def describe_conninfo(conninfo: str) -> str:
    """The URL without its password, for error messages and logs."""
    try:
        params = conninfo_to_dict(conninfo)
    except psycopg.Error:
        return "<malformed conninfo>"
    params.pop("password", None)
    return make_conninfo("", **params)


class AppendFence(Protocol):
    """What an append asks of a node's lease fence, inside its transaction (module doc).

    Why a protocol: the one fence is the cluster's (server/cluster/leases.py, `Fence`), and
    the event log sits below the cluster, so it names what it calls instead of importing it.
    """

    owner: str  # the node id the NOTIFY names

    def refused(
        self, cursor: psycopg.Cursor[Any], streams: Iterable[str]
    ) -> dict[str, EventLogError]:
        """The streams this transaction must not write (`LeaseLost`), the others go on."""
        ...


class PostgresEngine(Engine):
    """A blocking store in a PostgreSQL schema (thread-safe: connections come from a pool)."""

    def __init__(
        self,
        conninfo: str,
        *,
        schema: str = "t24",
        clock: Clock = time.time,
        upcasters: Upcasters | None = None,
        create: bool = True,
        pool_size: int = 4,
        pool_timeout_s: float = 10.0,
        connect_timeout_s: int = 5,
    ) -> None:
        super().__init__(clock, upcasters if upcasters is not None else Upcasters())
        self.schema = schema
        self.where = f"{describe_conninfo(conninfo)} schema {schema}"
        self._closed = False
        self._sql = _statements(schema)
        params: dict[str, str | int | None] = {
            "connect_timeout": connect_timeout_s,
            "application_name": "t24-eventlog",
        }
        conninfo = make_conninfo(conninfo, **{**params, **conninfo_to_dict(conninfo)})
        self.conninfo = conninfo  # for the lease connection of a node (server/cluster)
        # A node's lease fence (server/cluster/leases.py `Fence`), checked inside every
        # append's transaction; None: no ownership (a CLI, a single-process tool).
        self.fence: AppendFence | None = None
        try:
            with psycopg.connect(conninfo) as connection:
                self._prepare_schema(connection, create)
        except psycopg.OperationalError as error:
            raise StoreUnavailable(f"PostgreSQL {self.where} does not answer: {error}") from error
        except psycopg.Error as error:
            raise StoreUnavailable(f"PostgreSQL {self.where}: {error}") from error
        self._pool = ConnectionPool(
            conninfo,
            min_size=1,
            max_size=pool_size,
            open=False,
            timeout=pool_timeout_s,
            name="t24-eventlog",
        )
        try:
            self._pool.open(wait=True, timeout=connect_timeout_s)
        except PoolTimeout as error:
            self._pool.close()
            raise StoreUnavailable(f"PostgreSQL {self.where} does not answer") from error

    def _prepare_schema(self, connection: psycopg.Connection, create: bool) -> None:
        statements = self._sql
        with connection.transaction():
            found = connection.execute(statements["exists"], (self.schema,)).fetchone()
            if found is None or not found[0]:  # EXISTS answers one row
                if not create:
                    raise StoreUnavailable(f"no event log in PostgreSQL {self.where}")
                connection.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
                for statement in statements["create"]:
                    connection.execute(statement)
            version = connection.execute(statements["version"]).fetchone()
        if version is None or version[0] != FORMAT_VERSION:
            raise StoreUnavailable(
                f"PostgreSQL {self.where} has event log format {version and version[0]}; "
                f"this t24 knows {FORMAT_VERSION}"
            )

    def _connection(self) -> AbstractContextManager[psycopg.Connection[Any]]:
        if self._closed:
            raise StoreClosed(f"the PostgreSQL event log {self.where} is closed")
        return self._pool.connection()

    def append_batch(self, requests: Sequence[AppendRequest]) -> list[Outcome]:
        """One transaction for the group, re-planned when it loses a race to create a stream."""
        statements = self._sql
        names = sorted({request.stream for request in requests})
        for attempt in range(_RETRIES):
            try:
                with self._connection() as connection, connection.transaction():
                    cursor = connection.cursor(binary=True)
                    fence = self.fence
                    refused = fence.refused(cursor, names) if fence is not None else {}
                    allowed = [r for r in requests if r.stream not in refused]
                    cursor.execute(statements["lock_heads"], (names,))
                    heads = {row[0]: StreamHead(*row[1:]) for row in cursor.fetchall()}
                    plan = plan_appends(allowed, heads, self.now_us(), self.upcasters)
                    if plan.rows:
                        self._write(cursor, plan.rows, plan.heads, heads)
                        if fence is not None:  # other nodes' replicas (server/cluster/feed.py)
                            heads_reached = [(s, h.last_seq) for s, h in plan.heads.items()]
                            cursor.execute(
                                statements["notify"],
                                (notify_payloads(self.schema, fence.owner, heads_reached),),
                            )
                if not refused:
                    return plan.outcomes
                planned = iter(plan.outcomes)
                return [refused.get(r.stream) or next(planned) for r in requests]
            except _RETRYABLE as error:
                if attempt == _RETRIES - 1:
                    raise StoreUnavailable(
                        f"PostgreSQL {self.where}: append still conflicting after "
                        f"{_RETRIES} attempts: {error}"
                    ) from error
            except PoolTimeout as error:
                raise StoreUnavailable(f"PostgreSQL {self.where} has no free connection") from error
            except psycopg.Error as error:
                raise StoreUnavailable(f"PostgreSQL {self.where}: {error}") from error
        raise AssertionError("unreachable: the last attempt returns or raises")

    def _write(
        self,
        cursor: psycopg.Cursor,
        rows: list[tuple[str, int, bytes, bytes, bytes]],
        new_heads: dict[str, StreamHead],
        old_heads: dict[str, StreamHead],
    ) -> None:
        statements = self._sql
        for key, heads in (
            ("insert_heads", [(s, h) for s, h in new_heads.items() if s not in old_heads]),
            ("update_heads", [(s, h) for s, h in new_heads.items() if s in old_heads]),
        ):
            if heads:
                columns = (
                    [s for s, _ in heads],
                    [h.last_seq for _, h in heads],
                    [h.last_hash for _, h in heads],
                    [h.last_at for _, h in heads],
                )
                cursor.execute(statements[key], columns)
        cursor.execute(
            statements["insert_events"], [list(column) for column in zip(*rows, strict=True)]
        )

    def _rows(self, stream: str, after_seq: int, limit: int | None) -> list[Row]:
        try:
            with self._connection() as connection:
                cursor = connection.cursor(binary=True)
                rows: list[Row] = cursor.execute(
                    self._sql["rows"], (stream, after_seq, limit)
                ).fetchall()
                return rows
        except (psycopg.Error, PoolTimeout) as error:
            raise StoreUnavailable(f"PostgreSQL {self.where}: {error}") from error

    def _snapshot(
        self, stream: str, with_prev: bool = True
    ) -> tuple[StreamHead | None, list[Row] | list[LoadRow]]:
        select = self._sql["rows" if with_prev else "load_rows"]
        try:
            with self._connection() as connection, connection.transaction():
                connection.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                cursor = connection.cursor(binary=True)
                found = cursor.execute(self._sql["head"], (stream,)).fetchone()
                rows = cursor.execute(select, (stream, 0, None)).fetchall()
        except (psycopg.Error, PoolTimeout) as error:
            raise StoreUnavailable(f"PostgreSQL {self.where}: {error}") from error
        return (StreamHead(*found) if found else None), rows

    def last_seq(self, stream: str) -> int:
        """The stream's last seq (0 when it has no events)."""
        stream = check_stream(stream)
        try:
            with self._connection() as connection:
                found = connection.execute(self._sql["head"], (stream,)).fetchone()
        except (psycopg.Error, PoolTimeout) as error:
            raise StoreUnavailable(f"PostgreSQL {self.where}: {error}") from error
        return found[0] if found else 0

    def streams(self, prefix: str = "") -> list[str]:
        """Streams with events whose names start with `prefix`, in code point order."""
        prefix = check_text(prefix, "prefix", MAX_STREAM_BYTES, allow_empty=True)
        try:
            with self._connection() as connection:
                rows = connection.execute(self._sql["streams"], (prefix,)).fetchall()
        except (psycopg.Error, PoolTimeout) as error:
            raise StoreUnavailable(f"PostgreSQL {self.where}: {error}") from error
        return [row[0] for row in rows]

    def close(self) -> None:
        """Close the pool and its threads (idempotent)."""
        if not self._closed:
            self._closed = True
            self._pool.close()


def _statements(schema: str) -> dict[str, Any]:
    """Every statement, composed once with the schema name quoted as an identifier."""
    s = sql.Identifier(schema)

    def q(text: str) -> sql.Composed:
        """`text` with `{s}` replaced by the quoted schema."""
        return sql.SQL(text).format(s=s)

    return {
        "exists": sql.SQL(
            "SELECT EXISTS (SELECT 1 FROM pg_tables WHERE schemaname = %s AND tablename = 'meta')"
        ),
        "create": [
            q("CREATE SCHEMA IF NOT EXISTS {s}"),
            q(
                "CREATE TABLE IF NOT EXISTS {s}.events ("
                " stream text NOT NULL, seq bigint NOT NULL, body bytea NOT NULL,"
                " prev_hash bytea NOT NULL, hash bytea NOT NULL, PRIMARY KEY (stream, seq))"
            ),
            q(
                "CREATE TABLE IF NOT EXISTS {s}.streams ("
                " stream text PRIMARY KEY, last_seq bigint NOT NULL,"
                " last_hash bytea NOT NULL, last_at bigint NOT NULL)"
            ),
            q("CREATE TABLE IF NOT EXISTS {s}.meta (key text PRIMARY KEY, value text NOT NULL)"),
            sql.SQL(
                "INSERT INTO {s}.meta (key, value) VALUES ('format', {v}) ON CONFLICT DO NOTHING"
            ).format(s=s, v=sql.Literal(FORMAT_VERSION)),
        ],
        "version": q("SELECT value FROM {s}.meta WHERE key = 'format'"),
        "lock_heads": q(
            "SELECT stream, last_seq, last_hash, last_at FROM {s}.streams"
            ' WHERE stream = ANY(%s) ORDER BY stream COLLATE "C" FOR UPDATE'
        ),
        "insert_heads": q(
            "INSERT INTO {s}.streams (stream, last_seq, last_hash, last_at)"
            " SELECT * FROM unnest(%s::text[], %s::bigint[], %s::bytea[], %s::bigint[])"
        ),
        "update_heads": q(
            "UPDATE {s}.streams AS h SET last_seq = u.last_seq, last_hash = u.last_hash,"
            " last_at = u.last_at"
            " FROM unnest(%s::text[], %s::bigint[], %s::bytea[], %s::bigint[])"
            " AS u(stream, last_seq, last_hash, last_at) WHERE h.stream = u.stream"
        ),
        "insert_events": q(
            "INSERT INTO {s}.events (stream, seq, body, prev_hash, hash)"
            " SELECT * FROM unnest(%s::text[], %s::bigint[], %s::bytea[], %s::bytea[],"
            " %s::bytea[])"
        ),
        "notify": sql.SQL("SELECT pg_notify('t24_events', p) FROM unnest(%s::text[]) AS p"),
        "head": q("SELECT last_seq, last_hash, last_at FROM {s}.streams WHERE stream = %s"),
        "rows": q(
            "SELECT seq, body, prev_hash, hash FROM {s}.events"
            " WHERE stream = %s AND seq > %s ORDER BY seq LIMIT %s"
        ),
        "load_rows": q(
            "SELECT seq, body, hash FROM {s}.events"
            " WHERE stream = %s AND seq > %s ORDER BY seq LIMIT %s"
        ),
        "streams": q(
            "SELECT stream FROM {s}.streams WHERE last_seq > 0 AND starts_with(stream, %s)"
            ' ORDER BY stream COLLATE "C"'
        ),
    }
