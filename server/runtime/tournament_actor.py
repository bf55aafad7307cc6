"""A live tournament: the table actor of `tournament/<id>`, plus the tables it runs.

What it keeps: the tournament's stream is an ordinary actor's stream (commands queued,
decided by `server.tournament.decide`, appended, published to whoever joined it), so the
director's commands, the `join` for standings and the recovery after a restart are the
table actor's. What this subclass adds is the tournament's hands and ears:

- Hands: when the stream records `RoundStarted` or `TieBreakSeated`, it creates each table
  of the round through the hub (`<id>.<name>`, game `challenge`, the options from
  `server.tournament.tables.table_options_for`), started: `TableCreated` and the events of
  its `start_round` are one append. On several nodes the round's tables are dealt over the
  live nodes by load (`Hub.placements`); a table dealt to another node is recorded here and
  its lease handed to that node, which serves it from then on. A table that exists already
  (a restart) is not created again.
- A table it cannot create (the hub refuses its options, the store fails) is reported in
  the tournament's own stream (`report_table_failure` -> `TableCreationFailed`, which the
  director sees and `close_round`'s refusal names), logged as a warning, and tried again on
  the next `_sync`.
- Ears: it subscribes to each table of a round that is not advanced yet, as an auditor:
  the live actor when this node serves the table, else a read-only replica kept current
  from the store through LISTEN/NOTIFY, caught up by seq (`Hub.replica`,
  server/cluster/feed.py). Whenever a table's stream records a result event it reads the
  table's result from that event (`server.tournament.results.table_result` of the table's
  last event of the type, `TableActor.last_events`: a live table holds only its recent
  events) and
  submits `record_result` to the tournament as the server. It never reads a table's state.
  A refusal (the result is unchanged, the round is advanced) is logged and dropped. Only a
  table this tournament created is listened to (`_created_here`: its `TableCreated` recorded
  by the server, caused by this stream); the hub lets nobody else create one under its
  tables' ids (`Hub.create_table`, `ReservedTable`). When a
  table changes node (a failover, or this node takes it over) the listener is told
  (`table_moved`) and the tournament listens to it where it is served now.

`_sync()` is idempotent and runs at start-up and after every published batch that may change
which tables exist or are listened to; it is the only place that decides it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from twisted.internet.defer import Deferred, succeed
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from protocol.messages import TOURNAMENT_PREFIX, table_stream
from server.eventlog.envelope import RecordedEvent
from server.eventlog.store import EventStore
from server.games.base import RECOVERY_CAUSE, SERVER_ACTOR, Actor, Command, Game, RuleViolation
from server.metrics import Metrics
from server.runtime.pushes import Push
from server.runtime.slices import Slices
from server.runtime.table_actor import TABLE_CREATED, TableActor
from server.runtime.timers import TableClosed, now_us
from server.tournament import MAX_REASON
from server.tournament.decks import draws_ahead
from server.tournament.results import SIGNED, table_result
from server.tournament.tables import table_id, table_options_for

if TYPE_CHECKING:
    from server.runtime.hub import Hub

log = Logger(namespace="t24.tournament")

LISTENER = Actor("auditor", "tournament")
RESULT_EVENTS = frozenset({SIGNED})  # R-ROUND-7: a table's result is final when signed
SYNC_EVENTS = frozenset({"RoundStarted", "TieBreakSeated", "Advanced", "RoundReopened"})
ROUND_STARTED = "RoundStarted"  # a table's: its round was started (by the tournament)
OPENING_AT_ONCE = 32  # a round's tables being opened at the same time (`_place`)


class _TableListener:
    """Subscribed to one table: tells the tournament when a result event is recorded."""

    def __init__(self, owner: TournamentActor, name: str, actor: TableActor) -> None:
        self.viewer = LISTENER
        self.owner = owner
        self.name = name
        self.actor = actor

    def push(self, push: Push) -> None:
        if push.message.get("event_type") in RESULT_EVENTS:
            self.owner.check_result(self.name, self.actor)

    def table_moved(self, table: str) -> None:
        """The hub stopped serving the table here, or serves it itself now (a replica
        retired): the tournament finds it again (`TournamentActor.table_moved`)."""
        self.owner.table_moved(self.name, self)


class TournamentActor(TableActor):
    """The actor of one tournament stream (see the module doc)."""

    def __init__(
        self,
        table: str,
        game: Game,
        store: EventStore,
        clock: IReactorTime,
        metrics: Metrics | None = None,
        *,
        hub: Hub,
    ) -> None:
        super().__init__(table, game, store, clock, metrics, getattr(hub, "chunks", None))
        self.hub = hub
        self.tournament_id = table[len(TOURNAMENT_PREFIX) :]
        self._known: dict[str, str] = {}  # name -> "opening" | "open" | "done" | "failed"
        self._listeners: dict[str, _TableListener] = {}
        self._warmed: set[tuple[str, int, int]] = set()  # (edition, seed, half) drawn ahead
        self._warming: Deferred[None] | None = None  # the worker's draws not done yet
        self._wanted_of: tuple[Any, dict[str, bool]] | None = None  # `_wanted`, per state
        self._slices = Slices(clock)  # table creations, a slice of each reactor turn

    # -- the table actor's hooks -------------------------------------------------------------

    def start(self, recovering: bool = True, cause: str = RECOVERY_CAUSE) -> Deferred[None]:
        d = super().start(recovering, cause)
        self._warm_decks()
        self._sync()
        return d

    def _warm_decks(self) -> None:
        """Draw the deck halves the next `start_round` or tie-break will need, in the hub's
        worker process (server/runtime/offload.py).

        Why: a round's start and a tie-break's seating draw their cards
        (`editions.tournament_deck`, cached), and a Double Digits half checks every card with
        the solver: about 2 s of one core. Decided on the reactor, that stalled every table
        of this node and its lease renewals, so a node of several lost its leases at round 3
        (docs/operations.md); drawn on a thread, it still held the GIL the reactor needs
        between its sends (issue 32). Warmed here: every (edition, seed, half) the
        tournament's rounds draw, and those of the next tie-break (`decks.draws_ahead`).
        Commands that arrive meanwhile wait for the draws, in order (`submit`).
        """
        if self.state is None:
            return
        decks = draws_ahead(self.state.options, len(self.state.tie_breaks))
        fresh = [deck for deck in decks if deck not in self._warmed]
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
    ) -> Deferred[list[RecordedEvent]]:
        """A command waits for the decks being drawn (`_warm_decks`), so that `decide` finds
        them in the cache instead of drawing them on the reactor; its arrival stays its own,
        and the commands that wait keep their order."""
        warming = self._warming
        if warming is None:
            return super().submit(command, arrival_us, causation, from_deadline)
        result: Deferred[list[RecordedEvent]] = Deferred()

        def go(_: object) -> None:
            super(TournamentActor, self).submit(
                command, arrival_us, causation, from_deadline
            ).chainDeferred(result)

        warming.addBoth(go)
        return result

    def _publish(self, recorded: list[RecordedEvent]) -> None:
        super()._publish(recorded)
        if any(event.type in SYNC_EVENTS for event in recorded):
            self._warm_decks()
            self._sync()

    def close(self) -> None:
        super().close()
        self._slices.cancel()
        for listener in self._listeners.values():
            listener.actor.unsubscribe(listener)
        self._listeners.clear()

    # -- which tables exist and are listened to -----------------------------------------------

    def _wanted(self) -> dict[str, bool]:
        """Every table the tournament has started: name -> whether its round still listens
        (results of an advanced round are refused until it is reopened). Kept for the state
        it was read from (states are immutable): each table of a round asks for its own
        entry as it opens, and 500 tables asking for the whole map cost 0.35 s (issue 32)."""
        state = self.state
        if self._wanted_of is not None and self._wanted_of[0] is state:
            return self._wanted_of[1]
        wanted: dict[str, bool] = {}
        for round_ in state.rounds.values():
            if round_.started:
                for table in round_.tables:
                    wanted[table.table] = not round_.advanced
        for tie in state.tie_breaks:
            for table in tie.tables:
                wanted[table.table] = not state.round(tie.round).advanced
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
            if status is None and not listening and name in self.state.results:
                self._known[name] = "done"  # an advanced round after a restart: left on disk
            elif status is None:
                self._known[name] = "opening"
                new.append(name)
            elif status == "done" and listening:  # a reopened round: listen again
                self._known[name] = "opening"
                self._attach(name)
            elif status == "open":
                self._listen(name, listening)
        if new:  # one placement for the whole round: its tables are dealt over the nodes
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

    def _open(self, name: str, node: tuple[str, str] | None) -> Deferred[Any]:
        """Create the table started, on `node` (None: here), unless it exists (a restart);
        then listen to it wherever it is served."""
        hub_id = table_id(self.tournament_id, name)
        d = self.store.last_seq(table_stream(hub_id))

        def create(last_seq: int) -> Deferred[Any] | None:
            if last_seq > 0:  # created before (a restart, or this stream's previous node)
                return None
            return self._slices.run(lambda: create_now() if not self.closed else None)

        def create_now() -> Deferred[TableActor | None]:
            options = table_options_for(self.state, name)
            start = Command("start_round", {}, Actor("director", self.table))
            return self.hub.create_table(
                hub_id,
                "challenge",
                options,
                SERVER_ACTOR,
                causation=self.table,
                start=start,
                start_causation=f"{self.table}:start",
                node=node,
            )

        def exists(failure: Failure) -> None:
            from server.runtime.hub import TableExists

            failure.trap(TableExists)

        d.addCallback(create)
        d.addErrback(exists)
        d.addCallbacks(lambda _: self._attach(name), self._not_created, errbackArgs=(name,))
        return d

    def _not_created(self, failure: Failure, name: str) -> None:
        """The table could not be created (the hub refused its options, the store failed):
        tell the director in the tournament's stream (`report_table_failure`, once per
        reason), never only the log. The next `_sync` tries it again (a restart, the next
        round's start)."""
        if failure.check(TableClosed) or self.closed:
            return
        self._known[name] = "failed"
        reason = failure.getErrorMessage()[:MAX_REASON] or type(failure.value).__name__
        log.warn(
            "{tournament}: table {table} not created: {why}",
            tournament=self.table,
            table=name,
            why=reason,
            event="table_not_created",
        )
        if self.state.not_created.get(name) == reason:
            return
        command = Command("report_table_failure", {"table": name, "reason": reason}, SERVER_ACTOR)
        d = self.submit(command, now_us(self.clock), f"{self.table}:not-created:{name}", True)
        d.addErrback(self._not_recorded, f"the failure of {name}")

    def _attach(self, name: str) -> None:
        """Listen to the table: the live actor when this node serves it (taking it over if
        its node is gone), else a replica fed from the store (server/cluster/feed.py)."""
        hub_id = table_id(self.tournament_id, name)
        actor = self.hub.actors.get(hub_id)
        d = succeed(actor) if actor is not None else self.hub.get(hub_id)
        d.addCallback(self._start_if_needed)

        def elsewhere(failure: Failure) -> Deferred[TableActor]:
            from server.runtime.hub import TableMoved

            failure.trap(TableMoved)  # another live node serves it: watch it from here
            return self.hub.replica(hub_id)

        d.addErrback(elsewhere)
        d.addCallback(self._subscribe, name)
        d.addErrback(self._failed, f"opening table {hub_id}")

    def _created_here(self, actor: TableActor) -> bool:
        """Whether this tournament created the table: its `TableCreated` was recorded by the
        server, caused by this stream, for the 24 Challenge (`_open`). Why checked: a table
        made by hand under a round's id before the hub reserved those ids (issue 33) would
        otherwise be taken for the tournament's, and its result (signed by whoever made it)
        for the round's."""
        created = actor.last_events.get(TABLE_CREATED)
        return (
            created is not None
            and created.causation == self.table
            and created.actor == SERVER_ACTOR.as_dict()
            and created.data.get("game") == "challenge"
        )

    def _start_if_needed(self, actor: TableActor) -> TableActor:
        """A table recorded unstarted (by a version that started it in a second append, and
        stopped between the two) is started here, as its events show; a refusal (it was
        started meanwhile) is dropped. A table this tournament did not create is left alone."""
        if ROUND_STARTED not in actor.last_events and self._created_here(actor):
            start = Command("start_round", {}, Actor("director", self.table))
            started = actor.submit(start, now_us(self.clock), f"{self.table}:start")
            started.addErrback(lambda f: f.trap(RuleViolation, TableClosed))
        return actor

    def _subscribe(self, actor: TableActor, name: str) -> None:
        if self.closed:
            return
        if not self._created_here(actor):  # never listened to: its results are not ours
            self._known[name] = "foreign"
            log.error(
                "{tournament}: table {table} was not created by the tournament: not adopted, "
                "its results are not recorded",
                tournament=self.table,
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
        """Record the table's result when its events show a new one."""
        signed = actor.last_events.get(SIGNED)  # the table's last result event, if any
        result = table_result([signed] if signed is not None else [])
        if result is None or self.closed:
            return
        recorded = self.state.results.get(name)
        if recorded is not None and recorded.seq == result["seq"]:
            return
        command = Command("record_result", {"table": name, **result}, SERVER_ACTOR)
        d = self.submit(command, now_us(self.clock), f"{actor.stream}@{result['seq']}", True)
        d.addErrback(self._not_recorded, f"the result of {name}")

    def _not_recorded(self, failure: Failure, what: str) -> None:
        if isinstance(failure.value, RuleViolation):
            log.info(
                "{tournament}: {what} not recorded: {why}",
                tournament=self.table,
                what=what,
                why=failure.value.code,
            )
            return
        self._failed(failure, f"recording {what}")

    def _failed(self, failure: Failure, what: str) -> None:
        if failure.check(TableClosed):
            return
        log.failure("{tournament}: {what} failed", failure, tournament=self.table, what=what)
