"""A live process manager: the table actor of its stream (a tournament's), plus the tables
it runs. It knows no tournament: what a stream's state wants is the process manager's, pure
(`ProcessManager`; the tournament's is server/tournament/process.py).

What it keeps: the process's stream is an ordinary actor's stream (commands queued, decided
by its Decider, appended, published to whoever joined it), so the director's commands, the
`join` for standings and the recovery after a restart are the table actor's. What this
subclass adds is the process's hands and ears:

- Hands: when the stream records one of the process's `SYNC_EVENTS`, it creates each table
  the state `wanted` that does not exist yet, through the hub (`process.table_of`, the
  game, options and first command of `process.new_table`): `TableCreated` and the events of
  its first command are one append. On several nodes the tables are dealt over the live
  nodes by load (`Hub.placements`); a table dealt to another node is recorded here and its
  lease handed to that node, which serves it from then on. A table that exists already (a
  restart) is not created again.
- A table it cannot create (the hub refuses its options, the store fails) is reported in
  the process's own stream (`process.failure_command`: the tournament's
  `report_table_failure` -> `TableCreationFailed`, which the director sees), logged as a
  warning, and tried again on the next `_sync`.
- Ears: it subscribes to each table it still listens to, as an auditor: the live actor when
  this node serves the table, else a read-only replica kept current from the store through
  LISTEN/NOTIFY, caught up by seq (`Hub.replica`, server/cluster/feed.py). Whenever a
  table's stream records one of the process's `TABLE_EVENTS` it submits what
  `process.result_command` makes of the table's last event of each type
  (`TableActor.last_events`: a live table holds only its recent events) as the server. It
  never reads a table's state. A refusal is logged and dropped. Only a table the process
  created is listened to (`process.created_by` of its `TableCreated`); the hub lets nobody
  else create one under its tables' ids (`Hub.create_table`, `ReservedTable`). When a table
  changes node (a failover, or this node takes it over) the listener is told
  (`table_moved`) and the process listens to it where it is served now.

`_sync()` is idempotent and runs at start-up and after every published batch that may change
which tables exist or are listened to; it is the only place that decides it.

Why a subclass with public hooks only (`start`, `submit`, `published`, `close`): the actor's
queue, store and recovery are the table's, unchanged; the process adds reactions to them.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from twisted.internet.defer import Deferred, succeed
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from protocol.messages import table_stream
from server.eventlog.envelope import RecordedEvent
from server.eventlog.store import EventStore
from server.games.base import RECOVERY_CAUSE, SERVER_ACTOR, Actor, Command, Game, RuleViolation
from server.metrics import Metrics
from server.runtime.pushes import Push
from server.runtime.slices import Slices
from server.runtime.table_actor import TABLE_CREATED, TableActor
from server.runtime.table_errors import TableExists, TableMoved
from server.runtime.timers import TableClosed, now_us

if TYPE_CHECKING:
    from server.runtime.hub import Hub

log = Logger(namespace="t24.process")

OPENING_AT_ONCE = 32  # tables being opened at the same time (`_place`)


class NewTable(Protocol):
    """A table a process manager wants made: its game, options and first command."""

    @property
    def game(self) -> str: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def start(self) -> Command: ...


class ProcessManager(Protocol):
    """The pure half of a stream that runs other tables (a tournament): the runtime asks it
    which tables the stream's state wants and which command a table's event calls for, and
    does the rest (server/tournament/process.py is one; docs/architecture.md, "The
    tournament as a process manager")."""

    NAME: str  # the game of the process's own stream
    GAME: Game  # that stream's Decider (the hub runs it like a table's game)
    STREAM_PREFIX: str  # its streams' ids begin so (`tournament/`)
    SYNC_EVENTS: frozenset[str]  # its own events after which the tables it wants may change
    TABLE_EVENTS: frozenset[str]  # a table's events that may call for a command

    def id_refusal(self, stream_id: str) -> str | None:
        """Why `stream_id` cannot be one of its streams, or None."""

    def reserving(self, table: str) -> str | None:
        """The stream id that alone may create the table `table`, or None."""

    def table_of(self, stream_id: str, name: str) -> str:
        """The hub's id of the process's table `name`."""

    def wanted(self, state: Any) -> Mapping[str, bool]:
        """Every table the state wants: name -> whether the process listens to it."""

    def settled(self, state: Any, name: str) -> bool:
        """Whether a table it does not listen to needs no opening (its result is in)."""

    def new_table(self, state: Any, stream_id: str, name: str) -> NewTable:
        """The table `name` as the process creates it."""

    def start_command(self, stream_id: str) -> Command:
        """The first command of each of its tables (for one recorded unstarted)."""

    def created_by(
        self, stream_id: str, causation: str, actor: Mapping[str, Any], data: Mapping[str, Any]
    ) -> bool:
        """Whether a table's `TableCreated` shows this process made it."""

    def needs_start(self, last_events: Mapping[str, Any]) -> bool:
        """Whether a table it made is still unstarted (its last event of each type)."""

    def result_command(
        self, state: Any, name: str, last_events: Mapping[str, Any]
    ) -> Command | None:
        """The command a table's events call for now, or None."""

    def failure_command(self, state: Any, name: str, reason: str) -> Command | None:
        """The command that reports a table not created, or None (reported already)."""

    def decks_ahead(self, state: Any) -> Sequence[Hashable]:
        """The decks its next commands will draw, drawn off the reactor first."""


def _dropped_if(failure: Failure, *kinds: type[BaseException]) -> Failure | None:
    """An errback: a failure of one of `kinds` is dropped, any other goes on."""
    return None if isinstance(failure.value, kinds) else failure


class _TableListener:
    """Subscribed to one table: tells the process when an event it reads is recorded."""

    def __init__(self, owner: ProcessActor, name: str, actor: TableActor) -> None:
        self.viewer = Actor("auditor", owner.process.NAME)
        self.owner = owner
        self.name = name
        self.actor = actor

    def push(self, push: Push) -> None:
        if push.message.get("event_type") in self.owner.process.TABLE_EVENTS:
            self.owner.check_result(self.name, self.actor)

    def table_moved(self, table: str) -> None:
        """The hub stopped serving the table here, or serves it itself now (a replica
        retired): the process finds it again (`ProcessActor.table_moved`)."""
        self.owner.table_moved(self.name, self)


class ProcessActor(TableActor):
    """The actor of one process manager's stream (see the module doc)."""

    def __init__(
        self,
        table: str,
        game: Game,
        store: EventStore,
        clock: IReactorTime,
        metrics: Metrics | None = None,
        *,
        hub: Hub,
        process: ProcessManager,
    ) -> None:
        super().__init__(table, game, store, clock, metrics, hub.chunks)
        self.hub = hub
        self.process = process
        self._known: dict[str, str] = {}  # name -> "opening" | "open" | "done" | "failed"
        self._listeners: dict[str, _TableListener] = {}
        self._warmed: set[Hashable] = set()  # decks drawn ahead
        self._warming: Deferred[Any] | None = None  # the worker's draws not done yet
        self._wanted_of: tuple[Any, Mapping[str, bool]] | None = None  # `_wanted`, per state
        self._slices = Slices(clock)  # table creations, a slice of each reactor turn

    # -- the table actor's hooks -------------------------------------------------------------

    def start(self, recovering: bool = True, cause: str = RECOVERY_CAUSE) -> Deferred[Any]:
        d = super().start(recovering, cause)
        self._warm_decks()
        self._sync()
        return d

    def _warm_decks(self) -> None:
        """Draw the decks the process's next commands will draw (`decks_ahead`: a
        tournament's next `start_round` or tie-break), in the hub's worker process
        (server/runtime/offload.py).

        Why: a round's start and a tie-break's seating draw their cards
        (`editions.tournament_deck`, cached), and a Double Digits half checks every card with
        the solver: about 2 s of one core. Decided on the reactor, that stalled every table
        of this node and its lease renewals, so a node of several lost its leases at round 3
        (docs/operations.md); drawn on a thread, it still held the GIL the reactor needs
        between its sends (issue 32). Commands that arrive meanwhile wait for the draws, in
        order (`submit`).
        """
        if self.state is None:
            return
        fresh = [deck for deck in self.process.decks_ahead(self.state) if deck not in self._warmed]
        if not fresh:
            return
        self._warmed.update(fresh)
        offload = getattr(self.hub, "offload", None)
        if offload is None:  # a test's hub: the game draws them when it decides
            return
        warming = self._warming = offload.draw_decks(fresh)
        if warming.called:
            self._warming = None
            return

        def done(_: object) -> None:
            if self._warming is warming:
                self._warming = None

        warming.addBoth(done)

    def submit(
        self, command: Command, arrival_us: int, causation: str = "", from_deadline: bool = False
    ) -> Deferred[Any]:
        """A command waits for the decks being drawn (`_warm_decks`), so that `decide` finds
        them in the cache instead of drawing them on the reactor; its arrival stays its own,
        and the commands that wait keep their order."""
        warming = self._warming
        if warming is None:
            return super().submit(command, arrival_us, causation, from_deadline)
        result: Deferred[Any] = Deferred()

        def go(_: object) -> None:
            super(ProcessActor, self).submit(
                command, arrival_us, causation, from_deadline
            ).chainDeferred(result)

        warming.addBoth(go)
        return result

    def published(self, recorded: list[RecordedEvent]) -> None:
        if any(event.type in self.process.SYNC_EVENTS for event in recorded):
            self._warm_decks()
            self._sync()

    def close(self) -> None:
        super().close()
        self._slices.cancel()
        for listener in self._listeners.values():
            listener.actor.unsubscribe(listener)
        self._listeners.clear()

    # -- which tables exist and are listened to -----------------------------------------------

    def _wanted(self) -> Mapping[str, bool]:
        """The process's `wanted` tables, kept for the state it was read from (states are
        immutable): each table of a round asks for its own entry as it opens, and 500 tables
        asking for the whole map cost 0.35 s (issue 32)."""
        state = self.state
        if self._wanted_of is not None and self._wanted_of[0] is state:
            return self._wanted_of[1]
        wanted = self.process.wanted(state)
        self._wanted_of = (state, wanted)
        return wanted

    def _sync(self) -> None:
        if self.closed or self.state is None:
            return
        new: list[str] = []
        for name, listening in self._wanted().items():
            status = self._known.get(name)
            if status == "failed":  # not created last time: try again
                status = None
            if status is None and not listening and self.process.settled(self.state, name):
                self._known[name] = "done"  # an advanced round after a restart: left on disk
            elif status is None:
                self._known[name] = "opening"
                new.append(name)
            elif status == "done" and listening:  # a reopened round: listen again
                self._known[name] = "opening"
                self._attach(name)
            elif status == "open":
                self._listen(name, listening)
        if new:  # one placement for the whole batch: its tables are dealt over the nodes
            d = self.hub.placements(len(new))
            d.addCallback(self._place, new)
            d.addErrback(self._failed, "placing tables")

    def _place(self, nodes: Sequence[tuple[str, str] | None], names: list[str]) -> None:
        """Open the round's tables, `OPENING_AT_ONCE` in flight, in order.

        Why not all at once: each creation reads its options (a 48-card deck), checks every
        card (R-PUZ-4), decides its `start_round` and encodes its `TableCreated`, about 4 ms
        of the reactor; 500 tables of a round start opened at once came back from the store
        together and took seconds of reactor turns that every other table waited behind
        (issue 32). Now at most `OPENING_AT_ONCE` wait for the store at a time (their appends
        share group commits), and their creations run a slice of each reactor turn
        (server/runtime/slices.py), the other tables' commands between them."""
        waiting = deque(zip(names, nodes, strict=True))

        def next_one(_: object = None) -> None:
            # A loop, not a chain: with a store that answers at once (memory) every opening
            # is done before `_open` returns, and a chain would nest 500 calls deep.
            while waiting and not self.closed:
                name, node = waiting.popleft()
                opening = self._open(name, node)
                if not opening.called:
                    opening.addBoth(next_one)
                    return

        for _ in range(OPENING_AT_ONCE):
            next_one()

    def _open(self, name: str, node: tuple[str, str] | None) -> Deferred[None]:
        """Create the table started, on `node` (None: here), unless it exists (a restart);
        then listen to it wherever it is served."""
        hub_id = self.process.table_of(self.table, name)
        d: Deferred[Any] = self.store.last_seq(table_stream(hub_id))

        def create(last_seq: int) -> Deferred[Any] | None:
            if last_seq > 0:  # created before (a restart, or this stream's previous node)
                return None
            made: Deferred[Any] = self._slices.run(
                lambda: create_now() if not self.closed else None
            )
            return made

        def create_now() -> Deferred[TableActor | None]:
            table = self.process.new_table(self.state, self.table, name)
            return self.hub.create_table(
                hub_id,
                table.game,
                table.options,
                SERVER_ACTOR,
                causation=self.table,
                start=table.start,
                start_causation=f"{self.table}:start",
                node=node,
            )

        def exists(failure: Failure) -> Failure | None:
            return None if isinstance(failure.value, TableExists) else failure

        d.addCallback(create)
        d.addErrback(exists)
        d.addCallbacks(lambda _: self._attach(name), self._not_created, errbackArgs=(name,))
        return d

    def _not_created(self, failure: Failure, name: str) -> None:
        """The table could not be created (the hub refused its options, the store failed):
        tell the process's stream (`process.failure_command`, once per reason), never only
        the log. The next `_sync` tries it again (a restart, the next round's start)."""
        if isinstance(failure.value, TableClosed) or self.closed:
            return
        self._known[name] = "failed"
        reason = failure.getErrorMessage() or type(failure.value).__name__
        log.warn(
            "{process}: table {table} not created: {why}",
            process=self.table,
            table=name,
            why=reason,
            event="table_not_created",
        )
        command = self.process.failure_command(self.state, name, reason)
        if command is None:
            return
        d = self.submit(command, now_us(self.clock), f"{self.table}:not-created:{name}", True)
        d.addErrback(self._not_recorded, f"the failure of {name}")

    def _attach(self, name: str) -> None:
        """Listen to the table: the live actor when this node serves it (taking it over if
        its node is gone), else a replica fed from the store (server/cluster/feed.py)."""
        hub_id = self.process.table_of(self.table, name)
        actor = self.hub.actors.get(hub_id)
        d: Deferred[Any] = succeed(actor) if actor is not None else self.hub.get(hub_id)
        d.addCallback(self._start_if_needed)

        def elsewhere(failure: Failure) -> Deferred[Any] | Failure:
            if not isinstance(failure.value, TableMoved):
                return failure
            replica: Deferred[Any] = self.hub.replica(hub_id)  # watched from here
            return replica

        d.addErrback(elsewhere)
        d.addCallback(self._subscribe, name)
        d.addErrback(self._failed, f"opening table {hub_id}")

    def _created_here(self, actor: TableActor) -> bool:
        """Whether this process created the table (`process.created_by` of its
        `TableCreated`). Why checked: a table made by hand under a round's id before the hub
        reserved those ids (issue 33) would otherwise be taken for the process's, and its
        result (signed by whoever made it) for the round's."""
        created = actor.last_events.get(TABLE_CREATED)
        return created is not None and self.process.created_by(
            self.table, created.causation, created.actor, created.data
        )

    def _start_if_needed(self, actor: TableActor) -> TableActor:
        """A table recorded unstarted (by a version that started it in a second append, and
        stopped between the two) is started here, as its events show; a refusal (it was
        started meanwhile) is dropped. A table this process did not create is left alone."""
        if self.process.needs_start(actor.last_events) and self._created_here(actor):
            start = self.process.start_command(self.table)
            started = actor.submit(start, now_us(self.clock), f"{self.table}:start")
            started.addErrback(_dropped_if, RuleViolation, TableClosed)
        return actor

    def _subscribe(self, actor: TableActor, name: str) -> None:
        if self.closed:
            return
        if not self._created_here(actor):  # never listened to: its results are not ours
            self._known[name] = "foreign"
            log.error(
                "{process}: table {table} was not created by it: not adopted, its results "
                "are not recorded",
                process=self.table,
                table=actor.table,
                event="foreign_table",
            )
            return
        self._known[name] = "open"
        self._listen(name, self._wanted().get(name, False), actor)

    def _listen(self, name: str, listening: bool, actor: TableActor | None = None) -> None:
        listener = self._listeners.get(name)
        if listening and listener is None:
            if actor is None:  # evicted, or moved, since: find it again
                self._known[name] = "opening"
                self._attach(name)
                return
            listener = self._listeners[name] = _TableListener(self, name, actor)
            actor.subscribe(listener)
            self.check_result(name, actor)  # what it recorded while nobody listened
        elif not listening and listener is not None:
            listener.actor.unsubscribe(listener)
            del self._listeners[name]

    def table_moved(self, name: str, listener: _TableListener) -> None:
        """The table's node changed under the listener (this node took it over, or lost
        it): listen to it where it is served now."""
        if self._listeners.get(name) is not listener:
            return
        listener.actor.unsubscribe(listener)
        del self._listeners[name]
        if not self.closed:
            self._known[name] = "opening"
            self._attach(name)

    # -- results -----------------------------------------------------------------------------

    def check_result(self, name: str, actor: TableActor) -> None:
        """Submit what the table's events call for (`process.result_command`), if anything."""
        if self.closed:
            return
        command = self.process.result_command(self.state, name, actor.last_events)
        if command is None:
            return
        # Caused by the table's last event of the types the process reads (its seq in the
        # table's stream): the same event always gives the same causation.
        read = [actor.last_events.get(kind) for kind in self.process.TABLE_EVENTS]
        seq = max((event.seq for event in read if event is not None), default=actor.seq)
        d = self.submit(command, now_us(self.clock), f"{actor.stream}@{seq}", True)
        d.addErrback(self._not_recorded, f"the result of {name}")

    def _not_recorded(self, failure: Failure, what: str) -> None:
        refusal = failure.value
        if isinstance(refusal, RuleViolation):
            log.info(
                "{process}: {what} not recorded: {why}",
                process=self.table,
                what=what,
                why=refusal.code,
            )
            return
        self._failed(failure, f"recording {what}")

    def _failed(self, failure: Failure, what: str) -> None:
        if isinstance(failure.value, TableClosed):
            return
        log.failure("{process}: {what} failed", failure, process=self.table, what=what)
