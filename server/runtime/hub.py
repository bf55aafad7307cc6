"""The hub: table id -> live `TableActor`; creating, loading and shutting tables down.

What it keeps: the live actors of this process, the games it can run (name -> module) and
the store. One stream per table, `table/<table_id>`; its first event is `TableCreated
{game, options}`, written here (not by the game) with `expected_seq` 0, so two creators of
the same id cannot both succeed.

How it works:
- `load_all()` at start-up rebuilds every table found in the store (its streams named by
  `table_stream`) by replay, and starts each one *recovering*: a table whose timers were
  running (mid-card) gets its game's `RECOVERY_COMMAND` (the 24 Challenge pauses:
  `TablePaused`, cause `server_restart`) before any timer is scheduled. With
  eviction on, a finished table (its last event is one of the game's `FINAL_EVENTS`) is
  left on disk, as if evicted.
- `get(table)` returns the live actor, loading it on first use (a table created by another
  process); concurrent loads of the same table share one read.
- `shutdown()` closes every table to new commands, cancels timers and waits until each
  queue is empty and each in-flight append has finished (a `create_table` in flight too).
  The store stays open: its owner closes it after (server/app.py, `T24Server.stop`). A table
  loaded or created while shutting down is closed at once (its commands get `TableClosed`).
- `evict_quiet_tables()` (every `evict_after / 2` seconds once `start_evicting()` ran) drops
  a finished table from memory after `evict_after` seconds with nobody subscribed and nothing
  queued (from the first sweep that finds it so, it keeps none of its recent events but
  those after its last whole chunk: `TableActor.drop_window`); `tables()` still lists it
  (from a one-row summary) and `get` replays it again on the next join or command. Why: a
  finished round is only read again for an audit or a protest, and a server that runs a
  whole tournament must not grow with every round played.

Ownership (PostgreSQL, several nodes: server/cluster): with a `LeaseManager` as
`ownership`, `get` first takes the table's lease; a table leased by another live node fails
with `TableMoved` (its owner's URL, for the `moved` reply), a table taken from a node that
is gone is replayed and paused with cause `failover`. `create_table` takes the lease before
it records `TableCreated`; a lost lease drops the table (`drop_stream`); an evicted table
gives its lease up. A tournament's table may be placed on another node (`placements`, the
`node` of `create_table`): recorded here, then its lease handed to that node, which takes it
without a recovery pause (docs/tournament.md, "Several nodes").
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Generator, Mapping
from typing import Any

from twisted.internet.defer import Deferred, DeferredList, fail, inlineCallbacks, succeed
from twisted.internet.interfaces import IReactorTime
from twisted.internet.task import LoopingCall
from twisted.logger import Logger
from twisted.python.failure import Failure

from protocol.messages import TABLE_STREAM_PREFIX, stream_table, table_stream
from server.eventlog.envelope import InvalidEvent, NewEvent, RecordedEvent
from server.eventlog.store import ConcurrencyError, EventStore
from server.games import games as all_games
from server.games.base import SEED_BITS, SERVER_ACTOR, Actor, Command, Game, RuleViolation
from server.metrics import Metrics
from server.runtime.offload import NoOffload, Offload
from server.runtime.ownership import Lease, Ownership
from server.runtime.process_actor import ProcessActor, ProcessManager
from server.runtime.pushes import CATCH_UP_CACHE_BYTES, PushChunks
from server.runtime.replicas import Replicas
from server.runtime.table_actor import TABLE_CREATED, TableActor
from server.runtime.table_errors import TableExists as TableExists
from server.runtime.table_errors import TableMoved as TableMoved
from server.runtime.timers import TableClosed, now_us
from server.tournament import process as tournament_process

log = Logger(namespace="t24.hub")


class UnknownTable(Exception):
    """No stream holds this table."""


class ReservedTable(Exception):
    """`create_table` named an id of a process manager's tables (a tournament's
    `<id>.r1.s1.t01`, `<id>.tb1.t1`): only that process creates it (`ProcessManager.reserving`)."""


class UnknownGame(Exception):
    """`create_table` named a game this server does not run."""


class InvalidOptions(Exception):
    """The game (or the event log) refused the table options; nothing was recorded.

    `rule`: the rule id the game's refusal cites (R-PUZ-4 for a card without a solution),
    `""` when it cites none; the wire error carries it, as it does for a command's refusal."""

    def __init__(self, message: str, rule: str = "") -> None:
        super().__init__(message)
        self.rule = rule


def with_drawn_seed(game: Game, options: Mapping[str, Any]) -> Mapping[str, Any]:
    """`options` with a fresh secret seed in the game's `SEED_OPTION` when the creator left it
    out (a seed that is there, even a bad one, is the game's to judge).

    Why here: every random choice comes into a game from the shell (server/games/base.py),
    and without this a protocol client that omits the seed would get the same shuffle at
    every table (the option's default); the drawn seed is recorded in `TableCreated`, so
    replay deals exactly the same cards.
    """
    name = game.SEED_OPTION
    if name is None or name in options:
        return options
    return {**options, name: secrets.randbelow(2**SEED_BITS)}


def default_processes() -> dict[str, ProcessManager]:
    """The process managers a server runs unless told otherwise: the tournament's
    (server/tournament/process.py), by its stream's game. The one place the runtime names
    one; nothing else here knows what a process manager does."""
    return {tournament_process.NAME: tournament_process}


class Hub:
    """Every live table of this process (see module doc)."""

    def __init__(
        self,
        store: EventStore,
        clock: IReactorTime,
        games: Mapping[str, Game] | None = None,
        metrics: Metrics | None = None,
        evict_after: float | None = None,
        ownership: Ownership | None = None,
        catch_up_cache_bytes: int = CATCH_UP_CACHE_BYTES,
        offload: Offload | None = None,
        processes: Mapping[str, ProcessManager] | None = None,
    ) -> None:
        self.store = store
        # Where decks a table will draw are drawn first: a worker process on a real server
        # (server/runtime/offload.py); nowhere in tests (the game draws them when it decides).
        self.offload: Offload = offload if offload is not None else NoOffload()
        self.ownership = ownership  # a server.cluster.ownership.LeaseManager, or None
        self.clock = clock
        # The streams that run other tables (a tournament's), by their game: each runs like
        # a table, in a `ProcessActor` that opens and listens to its tables.
        self.processes = dict(processes) if processes is not None else default_processes()
        # The games, and the process managers' own: their streams run like tables.
        self.games = (
            dict(games)
            if games is not None
            else {**all_games(), **{name: p.GAME for name, p in self.processes.items()}}
        )
        self.metrics = metrics or Metrics()
        # The older events' pushes of every table here, bounded by bytes (pushes.py).
        self.chunks = PushChunks(catch_up_cache_bytes)
        self.replicas = Replicas(
            store, clock, self.metrics, self._game, UnknownTable, chunks=self.chunks
        )
        self.actors: dict[str, TableActor] = {}
        self.evict_after = evict_after  # seconds; None or 0: finished tables stay in memory
        self.retired: dict[str, dict[str, Any]] = {}  # evicted tables: their `tables()` row
        self._quiet_since: dict[str, float] = {}
        self._sweeper: LoopingCall | None = None
        self._loading: dict[str, list[Deferred[TableActor]]] = {}
        self._creating: set[Deferred[Any]] = set()  # TableCreated appends in flight
        # table -> `get`s waiting for it
        self._creating_ids: dict[str, list[Deferred[None]]] = {}
        self.closing = False

    def _actor(self, table: str, game: Game) -> TableActor:
        process = self._process_of(table)
        if process is not None:  # a stream that runs tables (docs/tournament.md)
            return ProcessActor(
                table, game, self.store, self.clock, self.metrics, hub=self, process=process
            )
        return TableActor(table, game, self.store, self.clock, self.metrics, self.chunks)

    def _process_of(self, table: str) -> ProcessManager | None:
        """The process manager whose stream `table` is (by its id's prefix), or None."""
        for process in self.processes.values():
            if table.startswith(process.STREAM_PREFIX):
                return process
        return None

    def _game(self, name: object) -> Game:
        game = self.games.get(name) if isinstance(name, str) else None
        if game is None:
            raise UnknownGame(f"this server does not run the game {name!r}")
        return game

    def _reserved(self, table: str, actor: Actor, causation: str) -> ReservedTable | None:
        """Refused: `table` is an id of a process's tables, and the creator is not that
        process (the server, caused by its stream)."""
        for process in self.processes.values():
            owner = process.reserving(table)
            if owner is not None and (actor, causation) != (SERVER_ACTOR, owner):
                named = f"the {process.NAME} {owner.removeprefix(process.STREAM_PREFIX)}"
                return ReservedTable(
                    f"table {table} is an id of {named}'s tables: only the {process.NAME} "
                    "creates it"
                )
        return None

    def _check_process_id(self, table: str, game_name: str) -> None:
        """A process's stream, and only it, has an id of its prefix, of the length it allows
        (ValueError, said as `InvalidOptions`)."""
        process = self._process_of(table)
        wanted = self.processes.get(game_name)
        if process is not wanted:
            shown = wanted if wanted is not None else process
            assert shown is not None  # one of the two is a process: they differ
            raise ValueError(
                f"a {shown.NAME}, and only a {shown.NAME}, has an id {shown.STREAM_PREFIX}<id>"
            )
        refusal = process.id_refusal(table) if process is not None else None
        if refusal is not None:
            raise ValueError(refusal)

    # -- creating ----------------------------------------------------------------------------

    def create_table(
        self,
        table: str | None,
        game_name: str,
        options: Mapping[str, Any],
        actor: Actor,
        causation: str = "",
        start: Command | None = None,
        start_causation: str = "",
        node: tuple[str, str] | None = None,
    ) -> Deferred[TableActor | None]:
        """Record `TableCreated` for a new table and make it live; fires with its actor.

        Fails with `UnknownGame`, `InvalidOptions` (the game's `initial_state` or its optional
        `check_new_table` refused the options, or they are not recordable, or `start` was
        refused), `TableExists`, or `ReservedTable` (an id of a tournament's tables, unless
        the tournament itself creates it: as the server, caused by its stream).

        `start`: a first command decided on the new table's initial state, its events
        recorded in the same append as `TableCreated` (a tournament's `start_round`), so the
        table exists only started, whichever node serves it later. `node`: the `(node id,
        url)` the table is placed on (`placements`); another node than this one gets the
        table's lease once it is recorded (`LeaseManager.hand_off`), and the Deferred fires
        with None: the table is served there.
        """
        if self.closing:
            return fail(TableClosed("the server is shutting down"))
        reserved = self._reserved(str(table), actor, causation)
        if reserved is not None:
            return fail(reserved)
        try:
            game = self._game(game_name)
            self._check_process_id(str(table), game_name)
            options = with_drawn_seed(game, options)
            # refuses bad options before anything is recorded; read once (issue 32: a round
            # start reads 500 tables' options of 48 cards each), for the start and the load
            initial = game.initial_state(options)
            check_new_table = getattr(game, "check_new_table", None)
            if check_new_table is not None:  # a new table's rules, never re-run at replay
                check_new_table(options)
            created = [
                NewEvent(
                    TABLE_CREATED,
                    {"game": game_name, "options": dict(options)},
                    actor=actor.as_dict(),
                    causation=causation,
                )
            ]
            if start is not None:
                decided = game.decide(initial, start, now_us(self.clock))
                by = start.actor.as_dict()
                created += [
                    NewEvent(e.type, dict(e.data), actor=by, causation=start_causation)
                    for e in decided
                ]
        except UnknownGame as exc:
            return fail(exc)
        except (RuleViolation, InvalidEvent, ValueError, TypeError) as exc:
            message = getattr(exc, "message", None) or str(exc)
            return fail(InvalidOptions(message, getattr(exc, "rule", "") or ""))
        table_id = table or "t-" + secrets.token_hex(4)
        if table_id in self.actors:
            return fail(TableExists(f"table {table_id} exists"))
        stream = table_stream(table_id)

        # a table's first append goes in the store's bulk lane, where it has one (a round
        # start creates 500 at once: server/eventlog/threaded.py)
        append: Callable[[str, int, list[NewEvent]], Deferred[list[RecordedEvent]]] = getattr(
            self.store, "append_bulk", self.store.append
        )

        def record(_drawn: object = None) -> Deferred[list[RecordedEvent]]:
            if self.ownership is None:
                return append(stream, 0, created)
            # the creating node owns the table: lease first, then record it (fenced)
            acquiring = self.ownership.acquire(stream)

            def leased(
                acquired: Lease, first: list[NewEvent] = created
            ) -> Deferred[list[RecordedEvent]]:
                if not acquired.held:
                    raise TableExists(f"table {table_id} exists")
                return append(stream, 0, first)

            return acquiring.addCallback(leased)

        # The decks the table will draw in `decide`, drawn off the reactor first (issue 32):
        # a client cannot start the table before they are in the game's cache.
        drawn = getattr(game, "decks_drawn", None)
        decks = drawn(options) if drawn is not None else []
        d = self.offload.draw_decks(decks).addCallback(record) if decks else record()

        def live(recorded: list[RecordedEvent]) -> TableActor:
            actor_ = self._actor(table_id, game).load(recorded, initial)
            self.actors[table_id] = actor_
            if self.closing:  # recorded, but the server is stopping: no commands any more
                actor_.close()
            actor_.start(recovering=False)
            log.info("table {table} created ({game})", table=table_id, game=game_name)
            return actor_

        def refused(failure: Failure) -> None:
            if failure.check(ConcurrencyError, TableExists) and self.ownership is not None:
                self.ownership.lost(stream, "the table exists: not created here")
            failure.trap(ConcurrencyError, TableExists)
            raise TableExists(f"table {table_id} exists")

        d.addCallbacks(self._placed, refused, callbackArgs=(stream, node, live))
        self._creating.add(d)
        self._creating_ids.setdefault(table_id, [])

        def settled(result: Any) -> Any:
            self._creating.discard(d)
            for waiter in self._creating_ids.pop(table_id, []):
                waiter.callback(None)
            return result

        return d.addBoth(settled)

    def _placed(
        self,
        recorded: list[RecordedEvent],
        stream: str,
        node: tuple[str, str] | None,
        live: Callable[[list[RecordedEvent]], TableActor],
    ) -> TableActor | Deferred[TableActor | None]:
        """A new table is recorded (and leased) here: serve it, or hand it to `node`. A
        hand-off that did not happen (the node registry or the lease failed) serves it here."""
        if node is None or self.ownership is None or node[0] == self.ownership.owner:
            return live(recorded)
        ownership = self.ownership
        handed: Deferred[Any] = ownership.hand_off(stream, *node)

        def settled(ok: bool) -> TableActor | None:
            if not ok:
                return live(recorded)
            game, last = self._game(recorded[0].data.get("game")), recorded[-1]
            over = last.type in game.FINAL_EVENTS
            row = _row(stream_table(stream), game.NAME, last.seq, over)
            ownership.keep(stream, row)  # listed here until a refresh reads the store
            return None

        handed.addCallback(settled)
        return handed

    def placements(self, count: int) -> Deferred[list[tuple[str, str]]] | Deferred[list[None]]:
        """Where `count` new tables go: a list of `(node id, url)` (`LeaseManager.place`:
        the least loaded live nodes), or of None on a single node (they stay here)."""
        if self.ownership is None:
            return succeed([None] * count)
        return self.ownership.place(count)

    # -- loading -----------------------------------------------------------------------------

    def get(self, table: str) -> Deferred[TableActor]:
        """The live actor of `table`, loading it from its log on first use."""
        actor = self.actors.get(table)
        if actor is not None:
            return succeed(actor)
        creating = self._creating_ids.get(table)
        if creating is not None:  # its creation is in flight: ask again once it settled
            after: Deferred[None] = Deferred()
            creating.append(after)
            return after.addCallback(lambda _: self.get(table))
        waiters = self._loading.get(table)
        d: Deferred[TableActor] = Deferred()
        if waiters is not None:
            waiters.append(d)
            return d
        self._loading[table] = [d]
        read: Deferred[Any]
        if self.ownership is None:
            read = self.store.load(table_stream(table))  # verifies the chain on the way
            read.addCallback(self._loaded, table)
        else:
            read = self.ownership.acquire(table_stream(table))
            read.addCallback(self._leased, table)
        read.addBoth(self._fan_out, table)
        return d

    def _leased(self, acquired: Lease, table: str) -> Deferred[TableActor]:
        """The lease answered: load the table we now own, or point at its owner."""
        ownership = self.ownership
        assert ownership is not None  # asked for the lease: `get`
        if not acquired.held:
            ownership.counts["redirects"] += 1
            raise TableMoved(table, acquired.owner_url)
        failover = ownership.is_failover(acquired)
        cause = "failover" if failover else "server_restart"
        # A table handed to this node (placed here) goes live as recorded, its timers
        # scheduled at their recorded deadlines: its node did not fail, nobody lost time.
        read: Deferred[Any] = self.store.load(table_stream(table))
        read.addCallback(self._loaded, table, cause, recovering=not acquired.handed_from)
        if acquired.handed_from:
            log.info("table {table} handed over by {node}", table=table, node=acquired.handed_from)

        def not_loaded(failure: Failure) -> Failure:  # nothing to own: give the lease back
            ownership.forget(acquired.stream)
            return failure

        read.addErrback(not_loaded)
        if failover:
            read.addCallback(self._failed_over, table)
        return read

    def _failed_over(self, actor: TableActor, table: str) -> TableActor:
        assert self.ownership is not None  # a failover is a lease taken: `_leased`
        self.ownership.counts["failovers"] += 1
        log.warn("table {table} taken over (failover)", table=table, event="failover")
        return actor

    def take_over(self, stream: str) -> Deferred[TableActor | None]:
        """Load a table whose owner is gone (the lease sweep's failover); never fails."""
        d: Deferred[Any] = self.get(stream_table(stream))
        d.addErrback(
            lambda f: log.info("{stream} not taken: {why}", stream=stream, why=f.getErrorMessage())
        )
        return d

    # -- replicas: read-only copies of other nodes' tables (server/runtime/replicas.py) ----

    def replica(self, table: str) -> Deferred[TableActor]:
        """A read-only copy of a table another node serves, for its watchers here."""
        return self.replicas.get(table)

    def remote_event(self, stream: str, seq: int) -> None:
        """Another node appended to `stream` up to `seq` (server/cluster/feed.py)."""
        self.replicas.remote_event(stream, seq)

    def catch_up_replicas(self) -> None:
        """The LISTEN connection came back: every replica reads what it missed."""
        self.replicas.catch_up_all()

    def drop_stream(self, stream: str) -> None:
        """This node lost the table's lease: stop serving it (commands get `TableClosed`)."""
        table = stream_table(stream)
        actor = self.actors.pop(table, None)
        self._quiet_since.pop(table, None)
        if actor is not None:
            actor.close()
            if self.ownership is not None:  # a lease lost: there is one
                self.ownership.keep(stream, _actor_row(table, actor))  # listed until a refresh
            for subscriber in list(actor.subscribers):  # they reconnect and are redirected
                moved = getattr(subscriber, "table_moved", None)
                if moved is not None:
                    moved(table)
            log.warn(
                "table {table} dropped at seq {seq}",
                table=table,
                seq=actor.seq,
                event="table_dropped",
            )

    def _loaded(
        self,
        recorded: list[RecordedEvent],
        table: str,
        cause: str = "server_restart",
        recovering: bool = True,
    ) -> Deferred[TableActor]:
        if not recorded:
            raise UnknownTable(f"no table {table}")
        current = self.actors.get(table)
        if current is not None:
            # Created here while the store was read (a join that came before the creation,
            # its read after the append): that actor is the table. A second one loaded from
            # the same events would be a second writer, and whoever got it (the joiner, a
            # tournament listening for results) would follow a table nobody plays.
            return succeed(current)
        game = self._game(recorded[0].data.get("game"))
        actor = self._actor(table, game).load(recorded)
        self.replicas.retire(table)
        self.actors[table] = actor
        self.retired.pop(table, None)
        if self.closing:  # loaded while stopping: readable, but no commands nor recovery
            actor.close()
        started: Deferred[Any] = actor.start(recovering=recovering, cause=cause)
        log.info("table {table} loaded at seq {seq}", table=table, seq=actor.seq)
        # Whoever asked for the table (a join, a command, start-up) gets it once its recovery
        # is recorded: a joiner right after a restart sees the table paused, never the
        # moment before the pause was written.
        started.addCallback(lambda _: actor)
        return started

    def _fan_out(self, result: Any, table: str) -> None:
        for waiter in self._loading.pop(table, []):
            if isinstance(result, TableActor):
                waiter.callback(result)
            else:
                waiter.errback(result)

    def _and_streams(self, found: list[str], prefix: str) -> Deferred[list[str]]:
        """`found`, and the streams named with `prefix` (a process manager's)."""
        return self.store.streams(prefix).addCallback(lambda more: [*found, *more])

    def load_all(self) -> Deferred[int]:
        """Rebuild every table in the store that is in play (start-up recovery); fires with
        their count.

        With eviction on, a table whose last event ends its game (`FINAL_EVENTS`) is not
        replayed: it is listed from its first and last events and replayed on its first
        join or command, as an evicted table is. Why: start-up time and memory then follow
        the tables in play, not every round the server has ever run.
        """
        d = self.store.streams(TABLE_STREAM_PREFIX)
        for process in self.processes.values():  # and the streams that run tables
            d.addCallback(self._and_streams, process.STREAM_PREFIX)

        def load(streams: list[str]) -> Deferred[int]:
            tables = [stream_table(stream) for stream in streams]
            loads = [self._recover(table) for table in tables]
            return DeferredList(loads, consumeErrors=True).addCallback(self._report, tables)

        return d.addCallback(load)

    @inlineCallbacks
    def _recover(self, table: str) -> Generator[Deferred[Any], Any, TableActor | None]:
        """The live actor of `table`, or None when it is finished and left on disk."""
        stream = table_stream(table)
        if self.evict_after:
            first = yield self.store.read(stream, limit=1)
            name = first[0].data.get("game") if first else None
            game = self.games.get(name) if isinstance(name, str) else None
            if game is not None:
                last_seq = yield self.store.last_seq(stream)
                last = (yield self.store.read(stream, after_seq=last_seq - 1))[-1]
                if last.type in game.FINAL_EVENTS:
                    self.retired[table] = _row(table, game.NAME, last.seq, over=True)
                    return None
        actor: TableActor = yield self.get(table)  # an unknown game or empty stream fails here
        return actor

    def _report(self, results: list[tuple[bool, Any]], tables: list[str]) -> int:
        for (ok, value), table in zip(results, tables, strict=True):
            if not ok and value.check(TableMoved):
                log.info("table {table}: {why}", table=table, why=value.getErrorMessage())
            elif not ok:
                log.error("table {table} could not be loaded: {why}", table=table, why=value)
        on_disk = sum(1 for ok, value in results if ok and value is None)
        if on_disk:
            log.info("{count} finished table(s) left on disk until joined", count=on_disk)
        return sum(1 for ok, value in results if ok and value is not None)

    def owned(self) -> list[str]:
        """The tables this node serves (all live ones without leases; /healthz)."""
        return sorted(self.actors)

    def tables(self) -> list[dict[str, Any]]:
        """Every table of this process, live or evicted, and on a node of several the
        others the store holds (those other nodes serve, and finished ones nobody serves):
        id, game, last seq, whether it is over."""
        rows: dict[str, dict[str, Any]] = {}

        def offer(row: dict[str, Any]) -> None:  # the freshest row of a table (a higher seq)
            old = rows.get(row["table"])
            if old is None or row["seq"] >= old["seq"]:
                rows[row["table"]] = row

        for row in self.retired.values():
            offer(row)
        if self.ownership is not None:  # every other table of the store (server/cluster)
            for row in self.ownership.remote_rows():
                offer(row)
        for table, actor in self.actors.items():
            offer(_actor_row(table, actor))  # on a tie the live actor's
        return [rows[table] for table in sorted(rows)]

    def store_failing(self) -> list[str]:
        """The tables whose server commands the store is failing (retried with backoff);
        `/healthz` answers 503 while there is one (a store that answers a read may still
        refuse writes)."""
        return sorted(t for t, a in self.actors.items() if a.store_failing_since is not None)

    # -- evicting finished tables ------------------------------------------------------------

    def start_evicting(self) -> None:
        """Sweep for quiet finished tables every `evict_after / 2` seconds (1 to 60 s)."""
        if not self.evict_after or self._sweeper is not None:
            return
        self._sweeper = LoopingCall(self.evict_quiet_tables)
        self._sweeper.clock = self.clock
        self._sweeper.start(min(60.0, max(1.0, self.evict_after / 2)), now=False)

    def evict_quiet_tables(self) -> list[str]:
        """Drop every table that has been quiet (`TableActor.is_quiet`) for `evict_after`
        seconds, as seen by the sweeps; return their ids.

        Why quiet across sweeps: a table someone joins again between two sweeps simply stays,
        and one evicted a little early costs only a replay on its next join.
        """
        now = self.clock.seconds()
        evicted: list[str] = []
        self.replicas.drop_unwatched()
        for table, actor in list(self.actors.items()):
            if not actor.is_quiet():
                self._quiet_since.pop(table, None)
                continue
            if table not in self._quiet_since:
                self._quiet_since[table] = now
                actor.drop_window()  # nobody watches it: its recent events wait in the store
            since = self._quiet_since[table]
            if self.evict_after and now - since >= self.evict_after:
                actor.close()
                del self.actors[table]
                del self._quiet_since[table]
                self.retired[table] = _actor_row(table, actor)
                evicted.append(table)
                if self.ownership is not None:
                    self.ownership.forget(table_stream(table))
                log.info("table {table} evicted at seq {seq}", table=table, seq=actor.seq)
        return evicted

    # -- shutting down -----------------------------------------------------------------------

    def shutdown(self) -> Deferred[list[tuple[bool, Any]]]:
        """Close every table to new commands; fire when every queued command is decided and
        every in-flight append (a `create_table`'s too) has finished and been answered.

        Why not close the store here: the commands queued behind an in-flight append still
        need it; the owner closes it once this has fired.
        """
        self.closing = True
        if self._sweeper is not None and self._sweeper.running:
            self._sweeper.stop()
        for actor in self.actors.values():
            actor.close()
        self.offload.shutdown()  # a create waiting for its decks goes on: the game draws them
        waits: list[Deferred[Any]] = [actor.idle() for actor in self.actors.values()]
        waits += [_settled(d) for d in self._creating]
        return DeferredList(waits)


def _row(table: str, game: str, seq: int, over: bool) -> dict[str, Any]:
    """A table's line in `tables()` (the `list_tables` reply)."""
    return {"table": table, "game": game, "seq": seq, "over": over}


def _actor_row(table: str, actor: TableActor) -> dict[str, Any]:
    return _row(table, actor.game.NAME, actor.seq, actor.is_over())


def _settled(d: Deferred[Any]) -> Deferred[None]:
    """A Deferred that fires (with None) once `d` has, without taking or changing its result."""
    done: Deferred[None] = Deferred()

    def fire(result: object) -> object:
        done.callback(None)
        return result

    d.addBoth(fire)
    return done
