"""Table leases in PostgreSQL: at most one owning node per table, fenced by an epoch.

The design (docs/architecture.md, "Ownership and fencing"):
- One row per owned stream in `<schema>.leases(stream, owner, url, epoch, expires_at)`.
  Time is the database's (`now()`), never a node's clock, so clock skew between nodes
  cannot make two of them believe they hold a lease.
- `acquire` is one conditional upsert: it takes the row when it is absent, expired, or
  held by this very node id (a restart of the same node), and always bumps `epoch`.
- `renew` (every `lease_seconds / 3`) extends the rows this node holds at the epochs it
  holds them; a row it no longer matches is lost and its table is dropped.
- `Fence.refused` runs inside every append transaction of the PostgreSQL engine: it reads
  the batch's lease rows `FOR SHARE` and refuses each stream whose row is not this node's,
  at this epoch, unexpired. A takeover is an UPDATE of the same row, so it serialises with
  the append: either the append commits under the old lease, or it sees the new epoch and
  is refused. That is what makes a node that lost its lease (SIGSTOP, a GC pause, a
  partition) harmless even when its `expected_seq` happens to be right.
- `hand_off` gives a held lease to another live node (a tournament's table placed there,
  server/runtime/process_actor.py): the same row, owner and epoch changed in one UPDATE
  conditional on holding it, `handed_from` set, and a NOTIFY on `t24_handoff` so the new
  owner takes it at once (its sweep would within a third of the lease anyway).
- `<schema>.nodes(node, url, expires_at)` is the registry of live nodes, renewed with the
  leases: placement (`deal_tables`) must see a node that holds no lease yet.
Why rows and not session advisory locks: an advisory lock lives as long as a database
session, so a node cut off from its clients but not from PostgreSQL keeps it for ever,
and a lock cannot carry the owner's URL (routing) or an epoch the append can check.
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from protocol.messages import TABLE_STREAM_PREFIX, TOURNAMENT_PREFIX
from server.eventlog.store import EventLogError, LeaseLost

DEFAULT_LEASE_SECONDS = 3.0  # failover within lease + one sweep (lease / 3): 4 s < 5 s
HANDOFF_CHANNEL = "t24_handoff"  # NOTIFY payload `<schema> <node>`: a lease was handed to it
_LEASES_LOCK = 0x7432_6C65_6173  # pg_advisory_xact_lock key for creating the leases table

# psycopg is imported where a lease is taken, not with this module: every server imports it
# (the app's options and the lease manager), and a server on SQLite never uses PostgreSQL
# (~100 ms of each start).
if TYPE_CHECKING:
    import psycopg
    from psycopg import sql


@dataclass(frozen=True)
class Acquired:
    """The answer of `acquire`: held (with the epoch and the previous owner) or not."""

    stream: str
    held: bool
    epoch: int = 0
    previous_owner: str = ""  # "" for a new row
    owner_url: str = ""  # when not held: the live owner's URL, for a redirect
    handed_from: str = ""  # held because this node (`previous_owner`) handed it to us


def lease_statements(schema: str) -> dict[str, Any]:
    """The SQL of the leases and the node registry, with the schema quoted as an identifier."""
    from psycopg import sql

    s = sql.Identifier(schema)

    def q(text: str) -> sql.Composed:
        return sql.SQL(text).format(s=s)

    return {
        # `handed_from`: the node that handed this lease over (a tournament's table placed on
        # another node), "" for a lease taken by its owner; the new owner clears it on taking.
        "create": q(
            "CREATE TABLE IF NOT EXISTS {s}.leases (stream text PRIMARY KEY, owner text NOT NULL,"
            " url text NOT NULL, epoch bigint NOT NULL, expires_at timestamptz NOT NULL,"
            " handed_from text NOT NULL DEFAULT '')"
        ),
        "has_handed_column": sql.SQL(
            "SELECT 1 FROM information_schema.columns WHERE table_schema = {schema}"
            " AND table_name = 'leases' AND column_name = 'handed_from'"
        ).format(schema=sql.Literal(schema)),
        "handed_column": q(  # a leases table made before hand-offs existed
            "ALTER TABLE {s}.leases ADD COLUMN IF NOT EXISTS handed_from text NOT NULL DEFAULT ''"
        ),
        "create_nodes": q(
            "CREATE TABLE IF NOT EXISTS {s}.nodes (node text PRIMARY KEY, url text NOT NULL,"
            " expires_at timestamptz NOT NULL)"
        ),
        "previous": q("SELECT owner, handed_from FROM {s}.leases WHERE stream = %s"),
        "acquire": q(
            "INSERT INTO {s}.leases AS l (stream, owner, url, epoch, expires_at)"
            " VALUES (%(stream)s, %(owner)s, %(url)s, 1,"
            " now() + make_interval(secs => %(ttl)s))"
            " ON CONFLICT (stream) DO UPDATE SET owner = excluded.owner, url = excluded.url,"
            " epoch = l.epoch + 1, expires_at = excluded.expires_at, handed_from = ''"
            " WHERE l.expires_at <= now() OR l.owner = excluded.owner"
            " RETURNING epoch"
        ),
        "holder": q("SELECT owner, url FROM {s}.leases WHERE stream = %s AND expires_at > now()"),
        "renew": q(
            "UPDATE {s}.leases AS l SET expires_at = now() + make_interval(secs => %s)"
            " FROM unnest(%s::text[], %s::bigint[]) AS h(stream, epoch)"
            " WHERE l.stream = h.stream AND l.epoch = h.epoch AND l.owner = %s"
            " AND l.expires_at > now() RETURNING l.stream"
        ),
        "hand_off": q(
            "UPDATE {s}.leases SET owner = %(to)s, url = %(url)s, epoch = epoch + 1,"
            " handed_from = %(owner)s, expires_at = now() + make_interval(secs => %(ttl)s)"
            " WHERE stream = %(stream)s AND owner = %(owner)s AND epoch = %(epoch)s"
            " AND expires_at > now() RETURNING epoch"
        ),
        "release": q(
            "UPDATE {s}.leases SET expires_at = '-infinity' WHERE stream = ANY(%s) AND owner = %s"
        ),
        "forget": q("DELETE FROM {s}.leases WHERE stream = %s AND owner = %s"),
        # What a node's sweep may take: a lease expired or released (its owner is gone or
        # stopped), or one another node handed to it (`hand_off`).
        "orphans": q(
            "SELECT stream FROM {s}.leases WHERE expires_at <= now() ORDER BY stream LIMIT 1000"
        ),
        "handed": q(
            "SELECT stream FROM {s}.leases WHERE owner = %s AND handed_from <> ''"
            " AND expires_at > now() ORDER BY stream LIMIT 1000"
        ),
        "live_nodes": q("SELECT count(*) FROM {s}.nodes WHERE expires_at > now()"),
        "remote": q(  # every table's head, less the ones this node holds (it lists those)
            "SELECT h.stream, h.last_seq FROM {s}.streams AS h LEFT JOIN {s}.leases AS l"
            " ON l.stream = h.stream WHERE h.last_seq > 0"
            " AND (starts_with(h.stream, %s) OR starts_with(h.stream, %s))"
            " AND (l.stream IS NULL OR l.owner <> %s OR l.expires_at <= now())"
            " ORDER BY h.stream LIMIT 100000"
        ),
        "fence": q(
            "SELECT stream, owner, epoch FROM {s}.leases WHERE stream = ANY(%s)"
            ' AND expires_at > now() ORDER BY stream COLLATE "C" FOR SHARE'
        ),
        "heartbeat": q(
            "INSERT INTO {s}.nodes AS n (node, url, expires_at)"
            " VALUES (%(node)s, %(url)s, now() + make_interval(secs => %(ttl)s))"
            " ON CONFLICT (node) DO UPDATE SET url = excluded.url, expires_at = excluded.expires_at"
        ),
        "leave": q("DELETE FROM {s}.nodes WHERE node = %s"),
        # Every live node and how many live leases it holds: what placement deals by.
        "loads": q(
            "SELECT n.node, n.url, count(l.stream) FROM {s}.nodes AS n LEFT JOIN {s}.leases AS l"
            " ON l.owner = n.node AND l.expires_at > now() WHERE n.expires_at > now()"
            " GROUP BY n.node, n.url ORDER BY n.node"
        ),
    }


class Claimable(NamedTuple):
    """What one sweep found (`LeaseBook.claimable`)."""

    orphans: list[str]  # expired or released leases: anyone may take them
    handed: list[str]  # leases another node handed to this one: this node takes them
    live_nodes: int  # nodes in the registry now, to share the orphans (`failover_share`)


def failover_order(
    orphans: list[str], held: set[str] | dict[str, int], node: str = ""
) -> list[str]:
    """Which orphaned streams a node tries to take, in which order: tournaments first (their
    standings come back first; their tables, wherever they are, are read from the store),
    then the tables starting at an offset of its own (the node id's CRC), so that nodes
    sweeping at once do not all race for the same tables; never a stream it holds."""
    chosen = sorted(stream for stream in orphans if stream not in held)
    tournaments = [stream for stream in chosen if stream.startswith(TOURNAMENT_PREFIX)]
    tables = [stream for stream in chosen if not stream.startswith(TOURNAMENT_PREFIX)]
    start = zlib.crc32(node.encode()) % len(tables) if tables else 0
    return tournaments + tables[start:] + tables[:start]


def failover_share(orphans: int, live_nodes: int) -> int:
    """How many orphans one sweep takes: an equal share among the live nodes, rounded up.

    Why: the first node to sweep after a node died would otherwise take every one of its
    tables, and serve twice its load. What a sweep leaves, the other nodes take on their own
    sweeps (each every third of the lease); a node alone takes everything.
    """
    return -(-orphans // max(1, live_nodes))


def deal_tables(
    loads: list[tuple[str, str, int]], count: int, me: tuple[str, str]
) -> list[tuple[str, str]]:
    """The node (`(node id, url)`) of each of `count` new tables: each goes to the live node
    holding the fewest leases, counting the tables dealt before it; ties go to this node
    (`me`), then to the node id first in order. `loads` is `(node, url, leases)` per live
    node; this node counts as live (with no leases) when the registry does not list it yet.

    Why least loaded: a tournament's round is the burst that fills a deployment (a district's
    tables all start together), and dealing it over the nodes by their load spreads both the
    tables and the players' connections, where the creating node would take them all.
    """
    load = {node: leases for node, _url, leases in loads}
    urls = {node: url for node, url, _leases in loads}
    load.setdefault(me[0], 0)
    urls.setdefault(me[0], me[1])
    dealt = []
    for _ in range(count):
        node = min(load, key=lambda n: (load[n], n != me[0], n))
        load[node] += 1
        dealt.append((node, urls[node]))
    return dealt


class Fence:
    """What the append transaction checks: the streams this node holds, at which epoch.

    Shared between the reactor thread (which acquires and drops) and the store's writer
    thread (which checks), so every access goes through one lock.
    """

    def __init__(self, schema: str, on_lost: Callable[[str], None], owner: str = "") -> None:
        self.owner = owner
        self._sql = lease_statements(schema)["fence"]
        self._held: dict[str, int] = {}
        self._lock = threading.Lock()
        self._on_lost = on_lost

    def hold(self, stream: str, epoch: int) -> None:
        with self._lock:
            self._held[stream] = epoch

    def drop(self, stream: str) -> None:
        with self._lock:
            self._held.pop(stream, None)

    def held(self) -> dict[str, int]:
        with self._lock:
            return dict(self._held)

    def refused(self, cursor: psycopg.Cursor, streams: Iterable[str]) -> dict[str, EventLogError]:
        """Inside the append's transaction: the streams it must not write, with why."""
        names = sorted(set(streams))
        rows = cursor.execute(self._sql, (names,)).fetchall()
        valid = {row[0]: (row[1], row[2]) for row in rows}
        with self._lock:  # the batch's streams only, not a copy of every lease held
            held = {stream: self._held[stream] for stream in names if stream in self._held}
        refused: dict[str, EventLogError] = {}
        for stream in names:
            if stream in held and valid.get(stream) == (self.owner, held[stream]):
                continue
            refused[stream] = LeaseLost(
                f"stream {stream!r}: node {self.owner!r} does not hold its lease "
                f"(epoch {held.get(stream)}); nothing was written"
            )
            if stream in held:
                self._on_lost(stream)
        return refused


class LeaseBook:
    """The blocking lease operations of one node, on its own connection (one thread)."""

    def __init__(
        self, conninfo: str, schema: str, ttl: float, owner: str = "", url: str = ""
    ) -> None:
        self.owner = owner
        self.url = url
        self.ttl = ttl
        self.schema = schema
        import psycopg

        self._sql = lease_statements(schema)
        self._conninfo = conninfo
        self._connection = psycopg.connect(conninfo, autocommit=True)
        with self._connection.transaction():
            self._connection.execute("SELECT pg_advisory_xact_lock(%s)", (_LEASES_LOCK,))
            self._connection.execute(self._sql["create"])
            if self._connection.execute(self._sql["has_handed_column"]).fetchone() is None:
                self._connection.execute(self._sql["handed_column"])
            self._connection.execute(self._sql["create_nodes"])

    @property
    def connection(self) -> psycopg.Connection:
        """The lease connection, opened again after the database dropped it (a restart of
        PostgreSQL must not leave a node unable to renew or take leases for ever)."""
        if self._connection.closed or self._connection.broken:
            import psycopg

            self._connection = psycopg.connect(self._conninfo, autocommit=True)
        return self._connection

    def acquire(self, stream: str) -> Acquired:
        """Take `stream`'s lease if it is free, expired or already this node's."""
        connection = self.connection
        with connection.transaction():
            found = connection.execute(self._sql["previous"], (stream,)).fetchone()
            previous, handed_from = found if found else ("", "")
            args = {"stream": stream, "owner": self.owner, "url": self.url, "ttl": self.ttl}
            row = connection.execute(self._sql["acquire"], args).fetchone()
        if row is not None:
            if previous != self.owner:
                handed_from = ""  # an expired hand-off to another node: a failover
            return Acquired(stream, True, row[0], previous, handed_from=handed_from)
        holder = connection.execute(self._sql["holder"], (stream,)).fetchone()
        if holder is None:  # expired between the two statements: try again next time
            return Acquired(stream, False)
        return Acquired(stream, False, owner_url=holder[1], previous_owner=holder[0])

    def heartbeat(self) -> None:
        """Say this node is alive (and where) in the node registry, for `loads`."""
        args = {"node": self.owner, "url": self.url, "ttl": self.ttl}
        self.connection.execute(self._sql["heartbeat"], args)

    def leave(self) -> None:
        """Leave the node registry (a clean stop): no table is placed here any more."""
        self.connection.execute(self._sql["leave"], (self.owner,))

    def loads(self) -> list[tuple[str, str, int]]:
        """`(node, url, live leases)` of every live node, for `deal_tables`."""
        rows = self.connection.execute(self._sql["loads"]).fetchall()
        return [(row[0], row[1], row[2]) for row in rows]

    def hand_off(self, stream: str, epoch: int, node: str, url: str) -> bool:
        """Give the lease of `stream` (held at `epoch`) to live node `node`, and tell it
        (NOTIFY on commit). False when this node did not hold it any more: nothing changed."""
        args = {"stream": stream, "epoch": epoch, "owner": self.owner, "to": node, "url": url}
        connection = self.connection
        with connection.transaction():
            row = connection.execute(self._sql["hand_off"], {**args, "ttl": self.ttl}).fetchone()
            if row is not None:
                payload = f"{self.schema} {node}"
                connection.execute("SELECT pg_notify(%s, %s)", (HANDOFF_CHANNEL, payload))
        return row is not None

    def renew(self, held: dict[str, int]) -> set[str]:
        """Extend the leases held; returns the streams still held (the others are lost)."""
        if not held:
            return set()
        streams = list(held)
        rows = self.connection.execute(
            self._sql["renew"], (self.ttl, streams, [held[s] for s in streams], self.owner)
        ).fetchall()
        return {row[0] for row in rows}

    def release(self, streams: list[str]) -> None:
        """Give leases up at once (a clean stop): other nodes take them on their next sweep."""
        if streams:
            self.connection.execute(self._sql["release"], (streams, self.owner))

    def forget(self, stream: str) -> None:
        """Delete a lease nobody needs to take over (a finished table left memory)."""
        self.connection.execute(self._sql["forget"], (stream, self.owner))

    def claimable(self) -> Claimable:
        """What a sweep may take: the streams whose lease is expired or released (their
        owner is gone or stopped: this node too, after an outage of the database longer
        than the lease), those another node handed to this one (`hand_off`), and how many
        nodes are live to share the first."""
        connection = self.connection
        orphans = connection.execute(self._sql["orphans"]).fetchall()
        handed = connection.execute(self._sql["handed"], (self.owner,)).fetchall()
        live = connection.execute(self._sql["live_nodes"]).fetchone()
        return Claimable(
            [row[0] for row in orphans], [row[0] for row in handed], live[0] if live else 0
        )

    def remote(self) -> list[tuple[str, int]]:
        """`(stream, last_seq)` of every table and tournament in the store but the ones this
        node holds a live lease of: those another node serves, and those nobody does (a
        finished table evicted or left on disk gives its lease up, and a dead node's
        tables are listed until a survivor takes them). Why the store's heads and not the
        leases: a finished table must stay listed when the node that last served it dies."""
        params = (TABLE_STREAM_PREFIX, TOURNAMENT_PREFIX, self.owner)
        rows = self.connection.execute(self._sql["remote"], params).fetchall()
        return [(row[0], row[1]) for row in rows]

    def close(self) -> None:
        self._connection.close()
