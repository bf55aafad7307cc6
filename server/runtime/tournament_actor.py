"""A live tournament: the table actor of `tournament/<id>`, plus the tables it runs.

What it keeps: the tournament's stream is an ordinary actor's stream (commands queued,
decided by `server.tournament.decide`, appended, published to whoever joined it), so the
director's commands, the `join` for standings and the recovery after a restart are the
table actor's. What this subclass adds is the tournament's hands and ears:

- Hands: when the stream records `RoundStarted` or `TieBreakSeated`, it creates each table
  of the round through the hub (`<id>.<name>`, game `challenge`, the options from
  `server.tournament.tables.table_options_for`) and starts its round. A table that exists
  already (a restart) is only started, and a refusal of that start is dropped.
- Ears: it subscribes to each table of a round that is not advanced yet, as an auditor, and
  whenever a table's stream records a result event it reads the table's result from the
  table's events (`server.tournament.results.table_result`) and submits `record_result` to
  the tournament as the server. It never reads a table's state. A refusal (the result is
  unchanged, the round is advanced) is logged and dropped.

`_sync()` is idempotent and runs at start-up and after every published batch that may change
which tables exist or are listened to; it is the only place that decides it.
"""

from __future__ import annotations

from typing import Any

from twisted.internet.defer import Deferred
from twisted.logger import Logger
from twisted.python.failure import Failure

from protocol.messages import TOURNAMENT_PREFIX
from server.eventlog.envelope import RecordedEvent
from server.games.base import RECOVERY_CAUSE, SERVER_ACTOR, Actor, Command, RuleViolation
from server.runtime.pushes import Push
from server.runtime.table_actor import TableActor, TableClosed, now_us
from server.tournament.results import SIGNED, table_result
from server.tournament.tables import table_id, table_options_for

log = Logger(namespace="t24.tournament")

LISTENER = Actor("auditor", "tournament")
RESULT_EVENTS = frozenset({SIGNED})  # R-ROUND-7: a table's result is final when signed
SYNC_EVENTS = frozenset({"RoundStarted", "TieBreakSeated", "Advanced", "RoundReopened"})


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


class TournamentActor(TableActor):
    """The actor of one tournament stream (see the module doc)."""

    def __init__(self, table: str, game: Any, store: Any, clock: Any, metrics=None, *, hub) -> None:
        super().__init__(table, game, store, clock, metrics)
        self.hub = hub
        self.tournament_id = table[len(TOURNAMENT_PREFIX) :]
        self._known: dict[str, str] = {}  # table name -> "opening" | "open" | "done"
        self._listeners: dict[str, _TableListener] = {}

    # -- the table actor's hooks -------------------------------------------------------------

    def start(self, recovering: bool = True, cause: str = RECOVERY_CAUSE) -> Deferred:
        d = super().start(recovering, cause)
        self._sync()
        return d

    def _publish(self, recorded: list[RecordedEvent]) -> None:
        super()._publish(recorded)
        if any(event.type in SYNC_EVENTS for event in recorded):
            self._sync()

    def close(self) -> None:
        super().close()
        for listener in self._listeners.values():
            listener.actor.unsubscribe(listener)
        self._listeners.clear()

    # -- which tables exist and are listened to -----------------------------------------------

    def _wanted(self) -> dict[str, bool]:
        """Every table the tournament has started: name -> whether its round still listens
        (results of an advanced round are refused until it is reopened)."""
        state = self.state
        wanted: dict[str, bool] = {}
        for round_ in state.rounds.values():
            if round_.started:
                for table in round_.tables:
                    wanted[table.table] = not round_.advanced
        for tie in state.tie_breaks:
            for table in tie.tables:
                wanted[table.table] = not state.round(tie.round).advanced
        return wanted

    def _sync(self) -> None:
        if self.closed or self.state is None:
            return
        for name, listening in self._wanted().items():
            status = self._known.get(name)
            if status is None and not listening and name in self.state.results:
                self._known[name] = "done"  # an advanced round after a restart: left on disk
            elif status is None or (status == "done" and listening):
                self._known[name] = "opening"
                self._open(name)
            elif status == "open":
                self._listen(name, listening)

    def _open(self, name: str) -> None:
        """Create the table (or find it after a restart), start its round, listen."""
        hub_id = table_id(self.tournament_id, name)
        options = table_options_for(self.state, name)
        d = self.hub.create_table(hub_id, "challenge", options, SERVER_ACTOR, causation=self.table)

        def exists(failure: Failure) -> Deferred:
            from server.runtime.hub import TableExists

            failure.trap(TableExists)
            return self.hub.get(hub_id)

        def opened(actor: TableActor) -> Deferred:
            self._known[name] = "open"
            start = Command("start_round", {}, Actor("director", self.table))
            started = actor.submit(start, now_us(self.clock), f"{self.table}:start")
            started.addErrback(lambda f: f.trap(RuleViolation))  # started before a restart
            self._listen(name, self._wanted().get(name, False))
            return started

        d.addErrback(exists)
        d.addCallback(opened)
        d.addErrback(self._failed, f"opening table {hub_id}")

    def _listen(self, name: str, listening: bool) -> None:
        listener = self._listeners.get(name)
        if listening and listener is None:
            actor = self.hub.actors.get(table_id(self.tournament_id, name))
            if actor is None:  # evicted before the tournament came back to it: load it again
                self._known[name] = "opening"
                self._open(name)
                return
            listener = self._listeners[name] = _TableListener(self, name, actor)
            actor.subscribe(listener)
            self.check_result(name, actor)  # what it recorded while nobody listened
        elif not listening and listener is not None:
            listener.actor.unsubscribe(listener)
            del self._listeners[name]

    # -- results -----------------------------------------------------------------------------

    def check_result(self, name: str, actor: TableActor) -> None:
        """Record the table's result when its events show a new one."""
        result = table_result(actor.events)
        if result is None or self.closed:
            return
        recorded = self.state.results.get(name)
        if recorded is not None and recorded.seq == result["seq"]:
            return
        command = Command("record_result", {"table": name, **result}, SERVER_ACTOR)
        d = self.submit(command, now_us(self.clock), f"{actor.stream}@{result['seq']}", True)
        d.addErrback(self._refused_result, name)

    def _refused_result(self, failure: Failure, name: str) -> None:
        if failure.check(RuleViolation):
            log.info(
                "{tournament}: result of {table} not recorded: {why}",
                tournament=self.table,
                table=name,
                why=failure.value.code,
            )
            return
        self._failed(failure, f"recording the result of {name}")

    def _failed(self, failure: Failure, what: str) -> None:
        if failure.check(TableClosed):
            return
        log.failure("{tournament}: {what} failed", failure, tournament=self.table, what=what)
