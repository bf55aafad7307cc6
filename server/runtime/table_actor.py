"""One live table: the shell around a game's Decider, on the reactor thread.

What it keeps: the game state folded from the table's recorded events, its recent events
(a window of `RECENT_EVENTS` at most: a join's catch-up is served from them without a race
against live pushes), the last event of each type (`last_events`: what a tournament reads a
table's result from), the subscribers, the command queue and the live timers.

Why a window, not the whole log: a table's log grows all round long, and the logs of a
thousand live tables were the server's whole memory growth (docs/performance.md, "Soak").
A join registers in one reactor turn, taking the pushes of the events in the window from
memory, so no live push falls between; the events before the window (a join that resumes
from further back, `join`, catch_up.py) are sent first, a page at a time as the connection
drains, from the hub's shared cache of encoded chunks (`PushChunks`, pushes.py) or the
store. `view_at` reads an older step's events from the store too (view_at.py).

Theory of operation (the order is the point):

1. `submit(command, arrival_us)` queues the command. Commands are processed strictly one at
   a time, in arrival order; arrival order is the authority for "who touched first"
   (R-PLAY-2) and the arrival time is the `now` given to `decide`, so each touch records when
   it reached the server, not when its turn in the queue came.
2. `decide(state, command, now)` -> events, or a `RuleViolation` (the submitter's Deferred
   fails with it; for a deadline the shell fired itself, the refusal means "stale" and is
   logged and dropped).
3. `append(stream, expected_seq, events)`: nothing below happens until the events are
   durable. While an append is in flight, new commands wait in the queue; when it is done,
   everything queued (up to `MAX_BATCH` commands) is decided in arrival order, each on the
   state the previous ones lead to, and their events go to the store in *one* atomic append
   (the actor's own group commit: four touches that arrive together cost two appends, not
   four). Every outcome of a batch, a refusal too, waits for its append, so each command's
   outcome is exactly what one-at-a-time processing on durable state gives. A
   `ConcurrencyError` (another writer extended the stream) makes the actor read what it
   missed, publish it, and decide the batch again (at most `MAX_ATTEMPTS` times).
4. `evolve` each recorded event into the state.
5. Publish: every subscriber gets each event redacted for its viewer (`redaction.py`). Each
   distinct redaction of an event is encoded once, as one `Push` that every subscriber
   seeing the same data shares (and the transport frames once; `pushes.py`).
6. Reschedule: the game's deadlines are scheduled on the injected `IReactorTime`
   (`timers.py`). When one fires, its command is submitted like any other, as the server.

Store failures: a deadline whose append failed because the store did is retried, then the
table is paused with cause `store_failure` (`timers.py`); `store_failing_since` tells
`/healthz`.

Presence (who is connected, `presence.py`) is pushed to the subscribers that asked for it
(`join {presence: true}`) whenever a join or a leave changes it; it is never an event, so
the log holds only what happened at the table. A game may ask for a command when it changes
(`presence_command`: a 24 Challenge table that waits for its students begins play when every
seat is there); the actor submits it as the server after a join and after each append.

Recovery: for a table with live timers (mid-card), `start(recovering=True)` first submits
the game's `RECOVERY_COMMAND` (the 24 Challenge's `pause_table`; args `{"cause":
"server_restart"}`) as the server and only then schedules timers, so nobody is flagged for
time the server was down; the proctor resumes it and the windows restart in full. A table
with no live timer goes on where it stood. A game whose `RECOVERY_COMMAND` is None has
nothing to pause: its timers are simply scheduled again (a refusal would be dropped too).

Why one module of some 600 lines: the steps above are one invariant (nothing is published
before it is durable, nothing is decided on a state that is not the log's, a join registers
in the turn it takes its catch-up), and it is checked by reading the queue, the append and
the publication together. What stands apart from that order lives beside it: the timers
(timers.py), the pushes and their cache (pushes.py), the read of a far-back catch-up
(catch_up.py), `view_at` (view_at.py), presence (presence.py).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Hashable, Mapping
from dataclasses import dataclass, field
from typing import Any

from twisted.internet.defer import Deferred, fail, succeed
from twisted.internet.interfaces import IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from protocol.codec import encode
from protocol.messages import table_stream
from server.eventlog.envelope import NewEvent, RecordedEvent
from server.eventlog.store import ConcurrencyError, EventStore
from server.games.base import (
    RECOVERY_CAUSE,
    SERVER_ACTOR,
    Actor,
    Command,
    Event,
    Game,
    RuleViolation,
)
from server.metrics import Metrics
from server.runtime.catch_up import OlderPushes, join_table
from server.runtime.presence import connected_seats, presence_command, presence_of
from server.runtime.pushes import (
    CHUNK_EVENTS,
    EncodedEvents,
    Push,
    PushChunks,
    Subscriber,
)
from server.runtime.redaction import redacted_data, redaction_grouping, redactor_for
from server.runtime.timers import TableClosed, TableTimers, now_us
from server.runtime.views import live_deadlines, same_view, view_bodies, view_grouping

MAX_ATTEMPTS = 3
MAX_BATCH = 64  # commands decided together into one append
# A table's recent events held in memory, at most: past it the oldest are dropped down to
# `RECENT_EVENTS - CHUNK_EVENTS` or a few more, so that the window starts right after a whole
# chunk (the older part of a catch-up is whole chunks of `PushChunks`).
RECENT_EVENTS = 128
TABLE_CREATED = "TableCreated"

log = Logger(namespace="t24.runtime")


class TableBroken(Exception):
    """The command's events were recorded, but the game could not apply them (a bug in its
    `evolve`): the table closed rather than diverge from its log. Unlike every other
    failure, something *was* written, and the client must be told so."""


@dataclass
class _Pending:
    command: Command
    arrival: int
    causation: str
    deferred: Deferred[list[RecordedEvent]]
    from_deadline: bool = False
    attempts: int = 0


@dataclass
class _Batch:
    """Commands decided together and appended in one atomic append: each with its outcome
    (how many of `new` it caused, or the exception that refused it)."""

    items: list[tuple[_Pending, int | Exception]] = field(default_factory=list)
    new: list[NewEvent] = field(default_factory=list)


@dataclass(frozen=True)
class Snapshot:
    """What a join returns: the viewer's view after `seq`, the live deadlines, then the
    catch-up: the events before the window (`older`, read a page at a time as they are sent,
    catch_up.py), then the pushes of the events in the window (`catch_up`, from memory)."""

    seq: int
    view: dict[str, Any]
    catch_up: list[Push] = field(default_factory=list)
    deadlines: list[dict[str, Any]] = field(default_factory=list)
    older: OlderPushes | None = None

    @property
    def missed(self) -> int:
        """How many events the catch-up holds (what a join is charged by)."""
        return len(self.catch_up) + (self.older.count if self.older is not None else 0)


class BadSeq(Exception):
    """`after_seq` is beyond the table's last seq."""


class TableActor:
    """A live table: replayed state, command queue, subscribers and timers (see module doc)."""

    def __init__(
        self,
        table: str,
        game: Game,
        store: EventStore,
        clock: IReactorTime,
        metrics: Metrics | None = None,
        chunks: PushChunks | None = None,
    ) -> None:
        self.table = table
        self.stream = table_stream(table)
        self.game = game
        self.store = store
        self.clock = clock
        self.metrics = metrics or Metrics()
        self.redact = redactor_for(game)
        # Catch-up pushes, built once: per event its distinct redactions, and per viewer the
        # push of each event it may see (a join re-reads these, it never re-encodes the log).
        self.encoded = EncodedEvents(table, self.redact)
        # The older events' pushes, in chunks, shared by the hub's tables (pushes.py).
        self.chunks = chunks if chunks is not None else PushChunks()
        self.redaction_group = redaction_grouping(game)
        self.joining = 0  # joins waiting for their older pushes: not quiet meanwhile
        self.options: Mapping[str, Any] = {}
        self.state: Any = None
        # Whether the game judges commands by the players' lag (its optional `measures_lag`,
        # fixed by the options): their connections are then probed once a second (issue 32).
        self.measures_lag = False
        self.seq = 0
        self.events: list[RecordedEvent] = []  # the window of recent events (module doc)
        self.last_events: dict[str, RecordedEvent] = {}  # event type -> its last event
        self.subscribers: list[Subscriber] = []
        self._audience: list[tuple[Actor, list[Subscriber]]] | None = None
        self._seats_connected: frozenset[str] | None = None
        self._last_presence: dict[str, Any] | None = None
        self._presence_listeners: list[Subscriber] = []
        # The view each view group of subscribers holds (the snapshot's, then the one each
        # append's last push carried): the base of the next patch (server/runtime/views.py).
        self._views: dict[Hashable, tuple[Actor, dict[str, Any]]] = {}
        self._view_group = view_grouping(game)
        self.closed = False
        self._queue: deque[_Pending] = deque()
        self._busy = False
        self._draining = False
        self._in_flight = False
        self._idle_waiters: list[Deferred[None]] = []
        self._timers = TableTimers(self)
        self._asked: Command | None = None  # the presence command in flight (`_on_presence`)
        self._asks_presence = getattr(game, "presence_command", None) is not None

    # -- loading -----------------------------------------------------------------------------

    def load(self, recorded: list[RecordedEvent], initial: Any = None) -> TableActor:
        """Rebuild the state from the stream's events (the first one is `TableCreated`).
        `initial`: the game's `initial_state` of those options, when the caller has it (a
        table just created), so they are not read again."""
        if not recorded or recorded[0].type != TABLE_CREATED:
            raise ValueError(f"stream {self.stream} does not start with {TABLE_CREATED}")
        self.options = recorded[0].data["options"]
        self.state = self.game.initial_state(self.options) if initial is None else initial
        judge = getattr(self.game, "measures_lag", None)
        self.measures_lag = judge is not None and bool(judge(self.state))
        self.events = [recorded[0]]
        self.last_events = {TABLE_CREATED: recorded[0]}
        self.seq = recorded[0].seq
        self._apply(recorded[1:])
        return self

    @property
    def first_seq(self) -> int:
        """The seq of the oldest event held in memory (the window's first)."""
        return self.events[0].seq if self.events else self.seq + 1

    def _apply(self, recorded: list[RecordedEvent]) -> None:
        for event in recorded:
            if event.seq != self.seq + 1:
                raise ValueError(f"{self.stream}: seq {event.seq} after {self.seq}")
            self.state = self.game.evolve(self.state, Event(event.type, event.data))
            self.events.append(event)
            self.last_events[event.type] = event
            self.seq = event.seq
            self._timers.state_changed()
        if len(self.events) > RECENT_EVENTS:
            self._trim()

    def _trim(self) -> None:
        """Drop the oldest events held, keeping at least `RECENT_EVENTS - CHUNK_EVENTS`, so
        that the window starts right after a whole chunk (module doc)."""
        keep_from = self.seq - (RECENT_EVENTS - CHUNK_EVENTS) + 1
        first = (keep_from - 1) // CHUNK_EVENTS * CHUNK_EVENTS + 1
        del self.events[: first - self.events[0].seq]
        self.encoded.drop_before(first)

    def drop_window(self) -> None:
        """Keep only the events after the last whole chunk (fewer than `CHUNK_EVENTS`).

        Called by the hub's sweep when it first finds a finished table quiet (hub.py,
        `evict_quiet_tables`). Why: until it is evicted (`evict_after`, 10 minutes by
        default) such a table waited with its whole window of recent events, the largest
        part of what a table costs; with tables finishing all day long, those windows were
        the memory of the soak (docs/performance.md, "Soak", issue 33). What it keeps is what
        a finished table needs: its state and `last_events`; a join from further back reads
        the older events from the store a page at a time, as any join from before a window.
        """
        first = self.seq // CHUNK_EVENTS * CHUNK_EVENTS + 1
        if self.events and self.events[0].seq < first:
            del self.events[: first - self.events[0].seq]
            self.encoded.drop_before(first)

    def start(self, recovering: bool = True, cause: str = RECOVERY_CAUSE) -> Deferred[None]:
        """Go live: after a restart, pause a table whose timers were running, then schedule.

        Why only those: a timer is what could flag a student for time the server was down;
        a table waiting for its proctor (no live timer) simply goes on where it stood.
        `cause` is the pause's: `server_restart`, or `failover` when this node took the
        table from another one (server/cluster).
        """
        recovery = self.game.RECOVERY_COMMAND
        timed = not self.is_over() and bool(self.game.deadlines(self.state))
        if not recovering or recovery is None or not timed:
            self._reschedule()
            return succeed(None)
        command = Command(recovery, {"cause": cause}, SERVER_ACTOR)
        d = self.submit(command, now_us(self.clock), "recovery", from_deadline=True)
        d.addErrback(lambda _failure: None)  # refusals are logged by the queue
        return d.addBoth(lambda _: self._reschedule())

    def is_over(self) -> bool:
        """Whether the game has ended (no more commands will change it)."""
        return bool(self.state is not None and self.game.is_over(self.state))

    def is_quiet(self) -> bool:
        """Over, nobody subscribed or joining, nothing queued or in flight: safe to drop
        from memory."""
        return not self._busy and not self.subscribers and not self.joining and self.is_over()

    # -- subscribers -------------------------------------------------------------------------

    def join(
        self, subscriber: Subscriber, after_seq: int | None = None, presence: bool = False
    ) -> Deferred[Snapshot]:
        """`subscribe`, with the older pushes read first when the catch-up starts before the
        window: a Deferred of the `Snapshot` (catch_up.py, `join_table`)."""
        return join_table(self, subscriber, after_seq, presence)

    def subscribe(
        self,
        subscriber: Subscriber,
        after_seq: int | None = None,
        presence: bool = False,
        older: OlderPushes | None = None,
    ) -> Snapshot:
        """Register `subscriber`; return its view now and the pushes it missed.

        `presence`: also push it who is connected whenever that changes (`presence()`).
        `older`: the events after `after_seq` that are before the window, to be read a page
        at a time (`join` makes it, catch_up.py); its range ends where the window starts now.

        Why synchronous: the part of the catch-up in memory is taken in the same reactor
        turn as the registration, so no live push can fall between them (no gap, no
        duplicate); the older part is fixed now and read later (a recorded event never
        changes).
        """
        if after_seq is not None and after_seq > self.seq:
            raise BadSeq(f"after_seq {after_seq} is beyond the last seq {self.seq}")
        start = self.seq if after_seq is None else after_seq
        viewer = subscriber.viewer
        catch_up: list[Push] = []
        if start + 1 < self.first_seq:  # the part before the window: `older`
            if older is None or older.after_seq != start:
                raise ValueError(f"{self.table}: events {start + 1} on are not in memory")
            older.upto = self.first_seq - 1
            start = self.first_seq - 1
        else:
            older = None
        if start < self.seq:
            catch_up = self.encoded.catch_up(self.events, viewer, start)
        if presence and subscriber not in self._presence_listeners:
            self._presence_listeners.append(subscriber)
        elif not presence and subscriber in self._presence_listeners:
            self._presence_listeners.remove(subscriber)
        if subscriber not in self.subscribers:
            self.subscribers.append(subscriber)
            self._audience = self._seats_connected = None
            self._presence_changed(skip=subscriber)  # the joiner is told after its snapshot
            if viewer.role == "player":
                self._timers.seats_changed()
                if self._asks_presence:  # a seat joined: it may be the last one awaited
                    # in a later turn: the joiner's snapshot goes out before any event it causes
                    self.clock.callLater(0, self._on_presence)
        view = self.view(viewer)
        self._views.setdefault(self._view_group(viewer), (viewer, view))  # a group's views
        return Snapshot(self.seq, view, catch_up, self.deadline_data(), older)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        """Stop pushing to `subscriber` (harmless if it was not subscribed)."""
        if subscriber in self._presence_listeners:
            self._presence_listeners.remove(subscriber)
        if subscriber in self.subscribers:
            self.subscribers.remove(subscriber)
            self._audience = self._seats_connected = None
            group = self._view_group(subscriber.viewer)
            if all(self._view_group(other.viewer) != group for other in self.subscribers):
                self._views.pop(group, None)
            self._presence_changed()
            if subscriber.viewer.role == "player":
                self._timers.seats_changed()

    def seated(self) -> bool:
        """Whether a seat has a connection (timers.py: what a game holds while none has)."""
        return any(s.viewer.role == "player" for s in self.subscribers)

    def deadline_data(self) -> list[dict[str, Any]]:
        """The live deadlines as pushed to clients (server/runtime/views.py)."""
        return live_deadlines(self.game, self.state)

    def presence(self) -> Push:
        """Who is connected now, as a `presence` push (not an event: never recorded)."""
        lag = {
            s.viewer.id: s.lag_data()
            for s in self.subscribers
            if s.viewer.role == "player" and hasattr(s, "lag_data")
        }
        message = presence_of(self.table, (s.viewer for s in self.subscribers), lag)
        return Push(message, encode(message))

    def _on_presence(self) -> None:
        """Submit the command the game asks for now that who is joined (or the state) changed
        (`presence.presence_command`), once at a time; a refusal (the state moved meanwhile)
        is dropped like a stale deadline's."""
        if self.closed or self._asked is not None or not self._asks_presence:
            return
        seats = self._seats_connected
        if seats is None:  # kept until the subscribers change: asked after every append
            seats = self._seats_connected = connected_seats(s.viewer for s in self.subscribers)
        command = presence_command(self.game, self.state, seats)
        if command is None:
            return
        self._asked = command

        def done(_result: object) -> None:
            self._asked = None

        d = self.submit(command, now_us(self.clock), "presence", from_deadline=True)
        d.addBoth(done)

    def lag_changed(self) -> None:
        """A subscriber's lag estimate moved (issue 19): tell the presence listeners."""
        if self._presence_listeners:
            self._presence_changed()

    def _presence_changed(self, skip: Subscriber | None = None) -> None:
        """Tell the subscribers who asked (but `skip`) who is connected, when that changed."""
        push = self.presence()
        if push.message == self._last_presence:
            return
        self._last_presence = push.message
        for subscriber in list(self._presence_listeners):
            if subscriber is skip:
                continue
            try:
                subscriber.push(push)
            except Exception:  # one broken subscriber must not starve the others
                log.failure("presence push to a subscriber of {table} failed", table=self.table)

    def query(self, name: str, args: Mapping[str, Any], viewer: Actor, now: int) -> tuple[int, Any]:
        """The game's answer to query `name` on the current state, with the seq it is after;
        nothing is decided, recorded or published. Raises the game's RuleViolation."""
        answer = getattr(self.game, "query", None)
        if answer is None:
            raise RuleViolation("unknown_query", f"the game {self.game.NAME} answers no queries")
        return self.seq, answer(self.state, name, args, viewer, now)

    def view(self, viewer: Actor) -> dict[str, Any]:
        """The game's view of the current state for `viewer`."""
        return self.game.view(self.state, viewer)

    def _publish(self, recorded: list[RecordedEvent]) -> None:
        self._push(recorded)
        self.published(recorded)

    def published(self, recorded: list[RecordedEvent]) -> None:
        """After each batch of recorded events is pushed: nothing for a table; a process
        manager's actor (process_actor.py) opens and listens to its tables from here."""

    def _push(self, recorded: list[RecordedEvent]) -> None:
        """Push each event to every subscriber, redacted for its viewer; the append's last
        event also carries each viewer's view after the append (server/runtime/views.py).

        Why per event and shared: most events look the same to every viewer, so each distinct
        redaction is encoded (and framed by the transport) once, not once per subscriber.
        """
        audience = self._audience
        if audience is None:
            audience = self._audience = self._group_by_viewer()
        if not recorded or not audience:
            return
        redact = self.redact
        views = view_bodies(self.game, self.state, self._views, audience, self._view_group)
        groups = [self.redaction_group(viewer) for viewer, _subscribers in audience]
        last = recorded[-1]
        for event in recorded:
            plain = Event(event.type, event.data)
            distinct: list[Push] = []
            # (redaction group, view body) -> its push: viewers of one redaction group get the
            # same data (the game's promise, checked by the contract suite), and equal bodies
            # are one object (`view_bodies`), so the group's other viewers reuse the push.
            known: dict[tuple[Hashable, int], Push] = {}
            for (viewer, subscribers), view, group in zip(audience, views, groups, strict=True):
                body = view if event is last else None
                push = known.get((group, id(body)))
                if push is None:
                    data = redacted_data(redact, plain, viewer)
                    for push in distinct:
                        if push.message["data"] == data and (body is None or same_view(push, body)):
                            break
                    else:
                        push = self.encoded.push_of(event, data, body)
                        distinct.append(push)
                    known[(group, id(body))] = push
                for subscriber in subscribers:
                    try:
                        subscriber.push(push)
                    except Exception:  # one broken subscriber must not starve the others
                        log.failure("push to a subscriber of {table} failed", table=self.table)

    def _group_by_viewer(self) -> list[tuple[Actor, list[Subscriber]]]:
        """The subscribers grouped by viewer, in subscription order (redacted once per viewer)."""
        groups: dict[Actor, list[Subscriber]] = {}
        for subscriber in self.subscribers:
            groups.setdefault(subscriber.viewer, []).append(subscriber)
        return list(groups.items())

    # -- commands ----------------------------------------------------------------------------

    def submit(
        self, command: Command, arrival_us: int, causation: str = "", from_deadline: bool = False
    ) -> Deferred[list[RecordedEvent]]:
        """Queue a command; the Deferred fires with its recorded events once published.

        It fails with the game's `RuleViolation`, `TableClosed`, a `ConcurrencyError` after
        `MAX_ATTEMPTS`, or the store's error (nothing was published in every failure case).
        """
        if self.closed:
            return fail(TableClosed(f"table {self.table} is closed"))
        pending = _Pending(command, arrival_us, causation, Deferred(), from_deadline)
        self._queue.append(pending)
        if not self._busy:
            self._busy = True
            self._drain()
        return pending.deferred

    def _drain(self) -> None:
        # Runs with _busy set. A synchronous store (memory) completes appends inside the loop;
        # _draining keeps that from recursing, so a long queue never deepens the stack.
        self._draining = True
        try:
            while self._queue:
                batch = self._decide_batch()
                if not batch.new:
                    self._resolve(batch, [])
                    continue
                self._in_flight = True
                started = self.clock.seconds()
                d = self.store.append(self.stream, self.seq, batch.new)
                d.addCallbacks(
                    self._appended,
                    self._append_failed,
                    callbackArgs=(batch, started),
                    errbackArgs=(batch,),
                )
                d.addBoth(self._append_done)
                if self._in_flight:
                    return  # _append_done resumes the queue
        finally:
            self._draining = False
        if not self._in_flight:
            self._busy = False
            waiters, self._idle_waiters = self._idle_waiters, []
            for waiter in waiters:
                waiter.callback(None)

    def _append_done(self, _result: object) -> None:
        self._in_flight = False
        if not self._draining:
            self._drain()

    def _decide_batch(self) -> _Batch:
        """Decide the queued commands in arrival order, each on the state the previous ones
        lead to, until the queue is empty or the batch is full; their events go to the store
        in one atomic append. Outcomes wait for that append (a refusal too: it was judged on
        events that are not durable yet)."""
        batch = _Batch()
        state = self.state
        while self._queue and len(batch.items) < MAX_BATCH:
            pending = self._queue.popleft()
            command = pending.command
            try:
                events = self.game.decide(state, command, pending.arrival)
                actor, causation = command.actor.as_dict(), pending.causation
                new = [
                    NewEvent(e.type, dict(e.data), actor=actor, causation=causation) for e in events
                ]
                if new and self._queue:  # later commands of the batch see these events
                    tentative = state
                    for event in events:
                        tentative = self.game.evolve(tentative, event)
                    state = tentative
            except RuleViolation as violation:
                batch.items.append((pending, violation))
                continue
            except Exception as exc:  # a bug in a game (or unrecordable data) must not kill it
                log.failure("decide failed on {table}", table=self.table)
                batch.items.append((pending, exc))
                continue
            batch.items.append((pending, len(new)))
            batch.new.extend(new)
        return batch

    def _resolve(self, batch: _Batch, recorded: list[RecordedEvent]) -> None:
        """Fire each command's Deferred, in order, with its own slice of the recorded events."""
        now = self.clock.seconds()
        offset = 0
        for pending, outcome in batch.items:
            if isinstance(outcome, RuleViolation):
                self._refused(pending, outcome)
            elif isinstance(outcome, Exception):
                self.metrics.count_command("failed")
                pending.deferred.errback(outcome)
            else:
                self.metrics.count_command("accepted")
                self.metrics.command_latency.observe(max(0.0, now - pending.arrival / 1e6))
                pending.deferred.callback(recorded[offset : offset + outcome])
                offset += outcome

    def _refused(self, pending: _Pending, violation: RuleViolation) -> None:
        self.metrics.count_command("refused")
        if pending.from_deadline:  # a stale deadline, or nothing to recover: dropped
            log.debug(
                "{table}: server command {name} refused ({code}), dropped",
                table=self.table,
                name=pending.command.name,
                code=violation.code,
            )
        pending.deferred.errback(violation)

    def _appended(self, recorded: list[RecordedEvent], batch: _Batch, started: float) -> None:
        self.metrics.append_latency.observe(self.clock.seconds() - started)
        self.metrics.events_appended.inc(len(recorded))
        self._timers.store_recovered()
        was_over = self.is_over()
        try:
            self._apply(recorded)
        except Exception as exc:
            # evolve must be total; if it is not, the table stops rather than diverge from its log
            log.failure("evolve failed on {table}; closing it", table=self.table)
            self.close()
            broken = TableBroken(f"{self.table}: {type(exc).__name__} applying recorded events")
            broken.__cause__ = exc
            self._fail_all(batch, Failure(broken))
            return
        if not was_over and self.is_over():
            # The head hash outside the database: what an official checks an export against.
            last = recorded[-1]
            log.info(
                "table {table} is over at seq {seq}, head {head}",
                table=self.table,
                seq=last.seq,
                head=last.hash.hex(),
                event="table_over",
            )
        self._publish(recorded)
        self._reschedule()
        self._resolve(batch, recorded)
        self._on_presence()  # a mark may have made every seat there

    def _append_failed(self, failure: Failure, batch: _Batch) -> Deferred[None] | None:
        attempts = max(pending.attempts for pending, _ in batch.items) + 1
        if failure.check(ConcurrencyError) and attempts < MAX_ATTEMPTS:
            log.warn("{table}: concurrent writer, catching up", table=self.table)
            d = self.store.read(self.stream, after_seq=self.seq)

            def caught_up(missed: list[RecordedEvent]) -> None:
                self._apply(missed)
                self._publish(missed)
                self._reschedule()
                for pending, _outcome in reversed(batch.items):  # decided again, in order
                    pending.attempts = attempts
                    self._queue.appendleft(pending)

            return d.addCallback(caught_up).addErrback(lambda f: self._fail_all(batch, f))
        self._fail_all(batch, failure)
        return None

    def _fail_all(self, batch: _Batch, failure: Failure) -> None:
        if not failure.check(ConcurrencyError):
            log.failure("append to {stream} failed", failure, stream=self.stream)
        for pending, _outcome in batch.items:
            self.metrics.count_command("failed")
            pending.deferred.errback(failure)

    def idle(self) -> Deferred[None]:
        """A Deferred that fires when no command is queued or in flight (for shutdown)."""
        if not self._busy:
            return succeed(None)
        d: Deferred[None] = Deferred()
        self._idle_waiters.append(d)
        return d

    # -- timers ----------------------------------------------------------------------------

    def _reschedule(self) -> None:
        self._timers.reschedule()

    @property
    def store_failures(self) -> int:
        """Server commands in a row whose append the store failed (timers.py)."""
        return self._timers.store_failures

    @property
    def store_failing_since(self) -> float | None:
        """When the store began failing this table's server commands, or None (`/healthz`)."""
        return self._timers.store_failing_since

    def timers(self) -> dict[str, int]:
        """The scheduled deadlines: key -> when (microseconds). For tests and metrics."""
        return self._timers.scheduled()

    def close(self) -> None:
        """Refuse new commands and cancel every timer (queued commands still finish)."""
        self.closed = True
        self._timers.cancel_all()
