"""Read-only copies of tables another node serves (several nodes on PostgreSQL, issue 16).

What it keeps: table id -> a closed `TableActor` (no timers, no commands) loaded from the
store, and which copies have a catch-up read in flight. Who uses it: a spectator or auditor
who joins a table another node serves (server/net/requests.py), and a tournament listening
to its tables wherever they are served (server/runtime/process_actor.py).

How a copy stays current (server/cluster/feed.py): every append on any node sends
`NOTIFY t24_events` with its stream and seq; `remote_event` then reads the events after the
copy's own seq and publishes them to its viewers. The notification is only a hint, so
nothing is missed or doubled: a copy reads once more right after it is made (an append
notified while it was loading found no copy), and every copy reads what it missed whenever
the LISTEN connection comes back (`catch_up_all`). Why its own module: it is the one part of
the hub that serves tables this node does not own.
"""

from __future__ import annotations

from collections.abc import Callable

from twisted.internet.defer import Deferred, succeed
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from protocol.messages import stream_table, table_stream
from server.eventlog.envelope import RecordedEvent
from server.eventlog.store import EventStore
from server.games.base import Game
from server.metrics import Metrics
from server.runtime.pushes import PushChunks
from server.runtime.table_actor import TableActor

log = Logger(namespace="t24.hub")


class Replicas:
    """The read-only copies of other nodes' tables on this node (see module doc)."""

    def __init__(
        self,
        store: EventStore,
        clock: IReactorTime,
        metrics: Metrics,
        game_of: Callable[[object], Game],
        unknown: Callable[[str], Exception],
        chunks: PushChunks | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.metrics = metrics
        self.game_of = game_of  # a game name -> the game module (the hub's `_game`)
        self.unknown = unknown  # the error for a table with no stream
        self.chunks = chunks  # the hub's cache of older pushes, shared (pushes.py)
        self.copies: dict[str, TableActor] = {}
        self._reads: dict[str, int] = {}  # table -> seq to reach (a read in flight)

    def get(self, table: str) -> Deferred[TableActor]:
        """The copy of `table`, loading it on first use. It never decides: commands go to
        the owner (`moved`)."""
        copy = self.copies.get(table)
        if copy is not None:
            return succeed(copy)
        d = self.store.load(table_stream(table))

        def loaded(recorded: list[RecordedEvent]) -> TableActor:
            if table in self.copies:  # two joins raced: one copy
                return self.copies[table]
            if not recorded:
                raise self.unknown(f"no table {table}")
            game = self.game_of(recorded[0].data.get("game"))
            made = TableActor(table, game, self.store, self.clock, self.metrics, self.chunks)
            made.load(recorded)
            made.close()  # no timers, no commands
            self.copies[table] = made
            # an append notified between the load's read and now found no copy: read on
            self.remote_event(table_stream(table), made.seq, catch_up=True)
            return made

        return d.addCallback(loaded)

    def catch_up_all(self) -> None:
        """Read what every copy missed (the LISTEN connection was down meanwhile)."""
        for table, copy in list(self.copies.items()):
            self.remote_event(table_stream(table), copy.seq, catch_up=True)

    def remote_event(self, stream: str, seq: int, catch_up: bool = False) -> None:
        """Another node appended to `stream` up to `seq`: bring its copy up to date by
        reading after the copy's own seq (no gap, no duplicate, whatever was missed).
        `catch_up`: read even when `seq` says nothing is new (no notification to trust)."""
        table = stream_table(stream)
        copy = self.copies.get(table)
        if copy is None or (seq <= copy.seq and not catch_up):
            return
        if table in self._reads:  # one read at a time; remember how far to go
            self._reads[table] = max(self._reads[table], seq)
            return
        self._reads[table] = seq
        d = self.store.read(stream, after_seq=copy.seq)

        def caught_up(missed: list[RecordedEvent]) -> None:
            wanted = self._reads.pop(table, 0)
            if self.copies.get(table) is not copy:
                return
            fresh = [event for event in missed if event.seq > copy.seq]
            copy._apply(fresh)
            copy._publish(fresh)
            # Read again for a notification that came while this read was in flight: the
            # read may have been answered from before that append's commit (a copy's first
            # catch-up, made at its load, then a reveal notified at once: the spectator of
            # tests/e2e/test_cluster.py saw nothing more, 2026-12-03). Not for a `seq` the
            # read itself was asked for and did not find: that would read for ever.
            if wanted > copy.seq and (fresh or wanted > seq):
                self.remote_event(stream, wanted)

        def failed(failure: Failure) -> None:
            self._reads.pop(table, None)
            log.warn("replica of {table}: {why}", table=table, why=failure.getErrorMessage())

        d.addCallbacks(caught_up, failed)

    def retire(self, table: str) -> None:
        """This node serves `table` itself now: the copy's viewers are told (`table_moved`:
        a connection closes with 1012 and rejoins the real table, a tournament listens to
        the live table instead)."""
        copy = self.copies.pop(table, None)
        if copy is not None:
            for subscriber in list(copy.subscribers):
                moved = getattr(subscriber, "table_moved", None)
                if moved is not None:
                    moved(table)

    def drop_unwatched(self) -> None:
        """A copy lives as long as someone watches it here."""
        for table, copy in list(self.copies.items()):
            if not copy.subscribers:
                del self.copies[table]
