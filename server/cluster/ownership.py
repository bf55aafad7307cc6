"""The reactor side of the table leases: acquire, renew, sweep for orphans, drop, release.

`LeaseManager` runs every blocking `LeaseBook` call on one thread of its own (the lease
connection is not the event store's pool: a store busy with appends must not delay a
renewal). Timers: every `ttl / 3` it renews what it holds and sweeps for tables whose
owner is gone (an expired lease: the owner died or stalled; a released one: it stopped
cleanly) and takes them through `Hub.get`, which replays them and pauses a mid-card table
with cause `failover`. A lease found lost (renewal refused, or an append refused by the
`Fence`) makes the hub drop the table at once: this node stops serving it.

Listing (`list_tables` across nodes): every `ttl / 3` a refresh reads the head of every
table and tournament stream in the store (`LeaseBook.remote`: those another node serves
and those nobody serves, such as a finished table evicted or left on disk, whose node may
be gone) and keeps one row per stream, re-reading a stream's first and last events only
when its seq moved. It runs on a thread of its own, so a first listing of a large store
never delays a renewal. A row is never dropped, only replaced by a newer one (`keep`): a
table leaves the store's listing when this node takes its lease, before its actor is live,
and a table this node stops serving is listed from its last row until the next refresh;
`Hub.tables` shows the freshest row of each table (the live actor's on a tie).

Placement (a tournament's tables, docs/tournament.md): `place(count)` deals new tables over
the live nodes of the registry by their load (`deal_tables`); `hand_off` gives a table this
node has just recorded to the node it was dealt to. The sweep also takes the leases handed
to this node, at once when the `t24_handoff` notification arrives.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from twisted.internet.defer import Deferred, inlineCallbacks
from twisted.internet.task import LoopingCall
from twisted.internet.threads import deferToThreadPool
from twisted.logger import Logger
from twisted.python.threadpool import ThreadPool

from protocol.messages import stream_table
from server.cluster.feed import NotifyFeed
from server.cluster.leases import (
    Acquired,
    Claimable,
    Fence,
    LeaseBook,
    deal_tables,
    failover_order,
    failover_share,
)

if TYPE_CHECKING:
    from server.eventlog.postgres import PostgresEngine
    from server.games.base import Game
    from server.runtime.ownership import Lease

log = Logger(namespace="t24.leases")
T = TypeVar("T")
Steps = Generator["Deferred[Any]", Any, T]  # an `inlineCallbacks` body that returns a T


class LeasedTables(Protocol):
    """What the lease manager asks of the hub (server/runtime/hub.py): the cluster never
    imports the runtime (docs/architecture.md, "Layers, checked"), the app hands it the hub.
    The hub's side of the seam is `server.runtime.ownership.Ownership`."""

    @property
    def closing(self) -> bool:
        """The server is stopping: take and place nothing."""
        ...

    @property
    def games(self) -> Mapping[str, Game]:
        """The games by name, to tell a finished table from its last event."""
        ...

    def remote_event(self, stream: str, seq: int) -> None:
        """Another node appended to `stream` up to `seq`."""
        ...

    def catch_up_replicas(self) -> None:
        """The feed reconnected: every replica reads what it missed."""
        ...

    def take_over(self, stream: str) -> Deferred[Any]:
        """Load a table whose owner is gone; fires with its actor, or None (never fails)."""
        ...

    def drop_stream(self, stream: str) -> None:
        """This node lost `stream`'s lease: stop serving it."""
        ...


class LeaseManager:
    """One node's leases (see module doc). `hub` is set once the hub exists."""

    def __init__(self, engine: PostgresEngine, reactor: Any, *, ttl: float) -> None:
        self.engine = engine
        self.reactor = reactor
        self.owner = ""  # the node id, known once the port is bound (`set_node`)
        self.ttl = ttl
        self.hub: LeasedTables | None = None
        self.book: LeaseBook | None = None
        self.feed: NotifyFeed | None = None
        self.fence = Fence(engine.schema, self._lost_from_thread)
        self.counts = {"failovers": 0, "lost": 0, "redirects": 0}
        self._pool = ThreadPool(minthreads=0, maxthreads=1, name="t24-leases")
        self._listing_pool = ThreadPool(minthreads=0, maxthreads=1, name="t24-listing")
        self._loops: list[LoopingCall] = []
        self._sweeping = False
        self._sweep_again = False  # a hand-off arrived during a sweep: sweep once more
        self.remote: dict[str, dict[str, Any]] = {}  # stream -> `tables()` row (other nodes)

    def _call(self, function: Callable[..., T], *args: Any) -> Deferred[T]:
        return deferToThreadPool(self.reactor, self._pool, function, *args)

    @inlineCallbacks
    def open(self) -> Steps[None]:
        """Connect and install the fence on the engine: from now on every append is fenced
        (and refused until `set_node` names this node)."""
        self._pool.start()
        self._listing_pool.start()
        engine = self.engine
        self.book = yield self._call(LeaseBook, engine.conninfo, engine.schema, self.ttl)
        engine.fence = self.fence
        self.feed = NotifyFeed(
            engine.conninfo,
            engine.schema,
            self.reactor,
            self._remote_event,
            on_handoff=self._handed,
            on_listening=self._listening,
        )

    def _remote_event(self, stream: str, seq: int) -> None:
        if self.hub is not None:
            self.hub.remote_event(stream, seq)

    def _listening(self) -> None:
        """The feed (re)connected: read what every replica missed while it was not."""
        if self.hub is not None:
            self.hub.catch_up_replicas()

    def _handed(self, node: str) -> None:
        """Another node handed a lease to `node`: if it is this one, take it now."""
        if node == self.owner and self.hub is not None:
            self.sweep()

    def set_node(self, node_id: str, url: str) -> None:
        """This node's id (the leases' `owner`) and the URL redirects point at."""
        assert self.book is not None
        self.owner = self.fence.owner = self.book.owner = node_id
        if self.feed is not None:  # its own commits' notifications are dropped unread
            self.feed.node = node_id
        self.book.url = url
        log.info("node {node} at {url}, leases of {ttl} s", node=node_id, url=url, ttl=self.ttl)

    def start_timers(self) -> None:
        """Renew, sweep and re-read the list of other nodes' tables every `ttl / 3` seconds."""
        if self.feed is not None:
            self.feed.start()
        self.renew()  # into the node registry at once: placement may deal tables here
        for work, every in (
            (self.renew, self.ttl / 3),
            (self.sweep, self.ttl / 3),
            (self.refresh_remote, self.ttl / 3),
        ):
            loop = LoopingCall(work)
            loop.clock = self.reactor
            loop.start(every, now=False)
            self._loops.append(loop)
        self.refresh_remote()  # other nodes' tables are listed from the start

    @inlineCallbacks
    def refresh_remote(self) -> Steps[None]:
        """Re-read the tables this node does not serve, for `list_tables` (`remote_rows`)."""
        if self.book is None or self.hub is None:
            return
        try:
            fresh = yield deferToThreadPool(
                self.reactor, self._listing_pool, self._remote_rows, dict(self.remote)
            )
        except Exception as error:
            log.warn("listing other nodes' tables failed: {why}", why=str(error))
            return
        self.listed(fresh)

    def listed(self, fresh: dict[str, dict[str, Any]]) -> None:
        """Take a refresh's rows. A table missing from them has not left the store: this
        node took its lease (its load may still be under way; `Hub.tables` lists it from
        the live actor once loaded), so its last row stays; a row kept since the refresh
        read the store (`keep`) is not replaced by an older one. Why: a refresh that ran
        between a takeover's lease and its load made the table vanish from this node's
        list for that moment (issue 33)."""
        merged = dict(self.remote)
        for stream, row in fresh.items():
            self.keep(stream, row, merged)
        self.remote = merged

    def _remote_rows(self, previous: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        """On the listing thread: a `tables()` row per table this node does not serve; a
        table whose seq did not move keeps its row, the others read their first and last
        events (game; over: the last is one of the game's `FINAL_EVENTS`, as the hub says)."""
        assert self.book is not None and self.hub is not None  # `refresh_remote` checked
        rows = {}
        for stream, last_seq in self.book.remote():
            old = previous.get(stream)
            if old is not None and old["seq"] == last_seq:
                rows[stream] = old
                continue
            first = self.engine.read(stream, limit=1)
            if not first:
                continue
            last = self.engine.read(stream, after_seq=max(0, last_seq - 1), limit=1) or first
            name = first[0].data.get("game")
            game = self.hub.games.get(name) if isinstance(name, str) else None
            over = game is not None and last[-1].type in game.FINAL_EVENTS
            table = stream_table(stream)
            rows[stream] = {"table": table, "game": name, "seq": last_seq, "over": over}
        return rows

    def keep(
        self, stream: str, row: dict[str, Any], rows: dict[str, dict[str, Any]] | None = None
    ) -> None:
        """Keep `row` as `stream`'s last known one unless a newer one (a higher seq) is
        kept already: a table this node stops serving (a lost lease, a hand-off) is listed
        from it until the next refresh reads the store."""
        rows = self.remote if rows is None else rows
        old = rows.get(stream)
        if old is None or row["seq"] >= old["seq"]:
            rows[stream] = row

    def remote_rows(self) -> list[dict[str, Any]]:
        """Every table's last known row but the live ones of this node, as of the last
        refresh (`ttl / 3` old at most, plus the time one refresh takes); `Hub.tables` lists
        the live ones from their actors."""
        return list(self.remote.values())

    def held(self) -> list[str]:
        return sorted(self.fence.held())

    @inlineCallbacks
    def acquire(self, stream: str) -> Steps[Lease]:
        """Take `stream`'s lease if nobody live holds it; fires with an `Acquired`."""
        assert self.book is not None
        acquired: Acquired = yield self._call(self.book.acquire, stream)
        if acquired.held:
            self.fence.hold(stream, acquired.epoch)
            log.info(
                "lease of {stream} taken at epoch {epoch} (was {previous})",
                stream=stream,
                epoch=acquired.epoch,
                previous=acquired.previous_owner or "free",
                event="lease_acquired",
            )
        return acquired

    def is_failover(self, acquired: Lease) -> bool:
        """Whether the lease came from another node (its tables are then paused `failover`)."""
        return bool(acquired.previous_owner) and acquired.previous_owner != self.owner

    def _lost_from_thread(self, stream: str) -> None:
        self.reactor.callFromThread(self.lost, stream, "an append was refused by fencing")

    def lost(self, stream: str, why: str) -> None:
        """This node no longer owns `stream`: stop serving it (the hub drops the table)."""
        if stream not in self.fence.held():
            return
        self.fence.drop(stream)
        self.counts["lost"] += 1
        log.warn(
            "lease of {stream} lost ({why}): table dropped",
            stream=stream,
            why=why,
            event="lease_lost",
        )
        if self.hub is not None:
            self.hub.drop_stream(stream)

    @inlineCallbacks
    def renew(self) -> Steps[None]:
        """Say this node is alive, and extend every lease held; the ones the database no
        longer gives us are lost."""
        held = self.fence.held()
        if self.book is None:
            return
        try:
            if self.hub is not None and self.hub.closing:  # stopping: place nothing here
                yield self._call(self.book.leave)
            else:
                yield self._call(self.book.heartbeat)
            still = yield self._call(self.book.renew, held)
        except Exception as error:  # the append fence still guards every write
            log.warn("lease renewal failed: {why}", why=str(error), event="lease_renew_failed")
            return
        for stream in held:
            if stream not in still and self.fence.held().get(stream) == held[stream]:
                self.lost(stream, "renewal refused: the lease expired or was taken over")

    @inlineCallbacks
    def sweep(self) -> Steps[None]:
        """Take the tables whose owner is gone (failover) and those handed to this node."""
        if self._sweeping:
            self._sweep_again = True
            return
        if self.book is None or self.hub is None or self.hub.closing:
            return
        self._sweeping = True
        try:
            found: Claimable = yield self._call(self.book.claimable)
            for stream in found.handed:  # placed here by another node: take them all
                if stream not in self.fence.held():
                    yield self.hub.take_over(stream)
            orphans = failover_order(found.orphans, self.fence.held(), self.owner)
            share, taken = failover_share(len(orphans), found.live_nodes), 0
            for stream in orphans:
                if taken >= share:
                    break  # the other live nodes take the rest on their sweeps
                actor = yield self.hub.take_over(stream)
                taken += actor is not None
        except Exception as error:
            log.warn("failover sweep failed: {why}", why=str(error), event="sweep_failed")
        finally:
            self._sweeping = False
        if self._sweep_again:
            self._sweep_again = False
            yield self.sweep()

    @inlineCallbacks
    def place(self, count: int) -> Steps[list[tuple[str, str]]]:
        """The `(node, url)` of each of `count` new tables (`deal_tables`); all here when
        the registry cannot be read (placement is an optimisation, never a condition)."""
        if self.book is None:
            return [(self.owner, "")] * count
        loads = []
        try:
            loads = yield self._call(self.book.loads)
        except Exception as error:
            log.warn("placement: {why}; tables stay here", why=str(error))
        dealt = deal_tables(loads, count, (self.owner, self.book.url))
        log.info(
            "{count} new table(s) placed on {nodes} (leases per live node: {loads})",
            count=count,
            nodes=" ".join(node for node, _url in dealt),
            loads=" ".join(f"{node}={leases}" for node, _url, leases in loads),
        )
        return dealt

    @inlineCallbacks
    def hand_off(self, stream: str, node: str, url: str) -> Steps[bool]:
        """Give `stream`'s lease to `node` (a table recorded here, placed there); fires True
        once handed (this node no longer holds it), False when it stays here."""
        epoch = self.fence.held().get(stream)
        if epoch is None or self.book is None:
            return False
        try:
            handed: bool = yield self._call(self.book.hand_off, stream, epoch, node, url)
        except Exception as error:
            log.warn(
                "handing {stream} to {node} failed: {why}", stream=stream, node=node, why=str(error)
            )
            return False
        if handed:
            self.fence.drop(stream)
            log.info(
                "lease of {stream} handed to {node}", stream=stream, node=node, event="lease_handed"
            )
        return handed

    @inlineCallbacks
    def forget(self, stream: str) -> Steps[None]:
        """Give up a lease nobody needs to take over (a table that left memory, or none)."""
        self.fence.drop(stream)
        if self.book is not None:
            yield self._call(self.book.forget, stream)

    @inlineCallbacks
    def release_all(self) -> Steps[None]:
        """A clean stop: hand every lease back so other nodes take the tables at once."""
        for loop in self._loops:
            if loop.running:
                loop.stop()
        held = self.held()
        for stream in held:
            self.fence.drop(stream)
        if self.book is not None:
            try:
                yield self._call(self.book.leave)
                yield self._call(self.book.release, held)
            except Exception as error:
                log.warn("releasing leases failed: {why}", why=str(error))

    @inlineCallbacks
    def close(self) -> Steps[None]:
        """Close the lease connection and the threads (the listing's first: it reads through
        the lease connection)."""
        if self.feed is not None:
            self.feed.stop()
        if self._listing_pool.started:
            self._listing_pool.stop()
        if self.book is not None:
            book, self.book = self.book, None
            yield self._call(book.close)
        if self._pool.started:  # idempotent: a failed start closes it, then `stop` again
            self._pool.stop()
