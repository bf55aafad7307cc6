"""A table's live timers: its game's deadlines scheduled on the clock, and store retries.

What it keeps: the scheduled deadline calls by key, the keys the game refused while listing
them live, and the state of a store failure (how many attempts in a row, since when, the
retry call). The `TableActor` (table_actor.py) owns one and calls `reschedule()` after every
change of state; a deadline that fires is submitted to the actor like any other command, as
the server.

Reschedule: `deadlines(state)` is compared with the scheduled timers by key; changed ones
are cancelled or scheduled on the injected `IReactorTime`.

Nobody seated: a game may name deadline commands that only start new play
(`UNATTENDED_HOLD`, e.g. Tjugoett's next round); while no seat of the table has a
connection (`TimedTable.seated()`) those are not scheduled, and the actor reschedules when
a seat connects again, so an overdue one fires at once. Why: a Tjugoett table with every
timer set plays round after round for ever with nobody at it (issue 33), writing events
nobody reads; the round in play still ends by its own timers, then the table waits. Tables
whose timers are rules (a tournament table whose students' Wi-Fi dropped) name nothing and
run on (docs/protocol.md, "Durations").

Store failures: a deadline whose append failed because the store did (an `EventLogError`,
e.g. PostgreSQL went away) is not a refusal: the game never said no. It is retried with a
doubling delay (`STORE_RETRY_BASE` up to `STORE_RETRY_MAX` seconds). After
`STORE_PAUSE_AFTER` failed attempts in a row the store counts as down, and the next attempt
is `pause_table` with cause `store_failure` instead (retried the same way until the store
answers), so the table does not run its timers on while nothing can be recorded, and the
proctor sees why it stopped and resumes it. While a table retries, `failing_since` is set,
and `/healthz` answers 503 (server/net/http.py). Only a `RuleViolation` (stale, or nothing
to do) or a game bug marks a deadline refused until the next event.
"""

from __future__ import annotations

from typing import Any, Protocol

from twisted.internet.defer import Deferred
from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from server.eventlog.envelope import EventLogError, RecordedEvent
from server.games.base import SERVER_ACTOR, Command, Deadline, Game, RuleViolation

STORE_FAILURE_CAUSE = "store_failure"
STORE_RETRY_BASE = 0.25  # seconds before the first retry of a deadline the store failed
STORE_RETRY_MAX = 8.0  # the longest wait between two retries
STORE_PAUSE_AFTER = 3  # failed attempts in a row before the table is paused instead

log = Logger(namespace="t24.runtime")


def now_us(clock: IReactorTime) -> int:
    """The clock's time as int microseconds since the epoch (the core's unit of time)."""
    return int(clock.seconds() * 1_000_000)


class TableClosed(Exception):
    """The table no longer takes commands (the server is shutting down)."""


class TimedTable(Protocol):
    """What the timers need of their table: its game and state, and a way to submit."""

    table: str
    game: Game
    state: Any
    clock: IReactorTime
    closed: bool

    def submit(
        self, command: Command, arrival_us: int, causation: str = "", from_deadline: bool = False
    ) -> Deferred[list[RecordedEvent]]: ...

    def seated(self) -> bool:
        """Whether at least one seat of the table has a connection now."""
        ...


class TableTimers:
    """The deadline timers and store retries of one table (see module doc)."""

    def __init__(self, owner: TimedTable) -> None:
        self.owner = owner
        self.clock = owner.clock
        self._timers: dict[str, tuple[int, IDelayedCall]] = {}
        self._refused_keys: set[str] = set()
        self.store_failures = 0  # server commands in a row whose append the store failed
        self.store_failing_since: float | None = None
        self._retry_call: IDelayedCall | None = None

    def state_changed(self) -> None:
        """An event was applied: a refused deadline may be due again."""
        self._refused_keys.clear()

    def reschedule(self) -> None:
        """Schedule the game's live deadlines; cancel the ones that changed or ended."""
        owner = self.owner
        if owner.closed or self._retry_call is not None:
            return  # while the store is failing, the retry timer decides what fires next
        held: frozenset[str] = getattr(owner.game, "UNATTENDED_HOLD", frozenset())
        hold = bool(held) and not owner.seated()
        live = {
            deadline.key: deadline
            for deadline in owner.game.deadlines(owner.state)
            if not (hold and deadline.command.name in held)
        }
        for key in list(self._timers):
            at, call = self._timers[key]
            if key not in live or live[key].at != at:
                if call.active():
                    call.cancel()
                del self._timers[key]
        now = self.clock.seconds()
        for key, deadline in live.items():
            if key in self._timers or key in self._refused_keys:
                continue
            delay = max(0.0, deadline.at / 1_000_000 - now)
            call = self.clock.callLater(delay, self._fire, key, deadline)
            self._timers[key] = (deadline.at, call)

    def seats_changed(self) -> None:
        """A seat connected or left: deadlines held while nobody is seated may start (or
        stop); only a game that holds some (`UNATTENDED_HOLD`) is rescheduled."""
        if getattr(self.owner.game, "UNATTENDED_HOLD", None):
            self.reschedule()

    def _fire(self, key: str, deadline: Deadline) -> None:
        self._timers.pop(key, None)
        # A float timer may wake a few microseconds early; the deadline's command arrives at
        # its moment at the earliest, so the game never sees it "not yet due".
        arrival = max(now_us(self.clock), deadline.at)
        d = self.owner.submit(deadline.command, arrival, f"deadline:{key}", from_deadline=True)
        d.addErrback(self._deadline_failed, key)

    def _deadline_failed(self, failure: Failure, key: str) -> None:
        if failure.check(EventLogError):  # the store failed, the game did not refuse: retry
            self._store_failed(failure)
            return
        if not failure.check(RuleViolation, TableClosed):
            log.failure(
                "deadline {key} of {table} failed", failure, key=key, table=self.owner.table
            )
        # Not fired again in this state: a deadline the game refuses while listing it live
        # would otherwise spin at delay 0. The next event clears the set.
        self._refused_keys.add(key)

    # -- store failures ----------------------------------------------------------------------

    def _store_failed(self, failure: Failure) -> None:
        """A server command's append failed in the store: try again after a doubling delay."""
        if self.owner.closed:
            return
        self.store_failures += 1
        if self.store_failing_since is None:
            self.store_failing_since = self.clock.seconds()
        delay = min(STORE_RETRY_MAX, STORE_RETRY_BASE * 2 ** (self.store_failures - 1))
        log.warn(
            "{table}: the store failed a server command ({why}); attempt {attempts}, "
            "retrying in {delay} s",
            table=self.owner.table,
            why=failure.getErrorMessage(),
            attempts=self.store_failures,
            delay=delay,
            event="store_failing",
        )
        if self._retry_call is not None and self._retry_call.active():
            self._retry_call.cancel()
        self._retry_call = self.clock.callLater(delay, self._retry_after_store_failure)

    def _retry_after_store_failure(self) -> None:
        """Fire the due deadlines again; once the store counts as down, pause the table."""
        self._retry_call = None
        owner = self.owner
        if owner.closed:
            return
        pause = owner.game.RECOVERY_COMMAND
        if (
            self.store_failures < STORE_PAUSE_AFTER
            or pause is None
            or not owner.game.deadlines(owner.state)
        ):
            self.reschedule()  # the failed deadline is not scheduled any more: due at once
            return
        command = Command(pause, {"cause": STORE_FAILURE_CAUSE}, SERVER_ACTOR)
        d = owner.submit(command, now_us(self.clock), "store-failure", from_deadline=True)

        def not_paused(failure: Failure) -> None:
            if failure.check(EventLogError):
                self._store_failed(failure)
            else:  # the game has nothing to pause (or refused): its deadlines fire again
                self.reschedule()

        d.addErrback(not_paused)

    def store_recovered(self) -> None:
        """An append went through: the store answers again."""
        if self.store_failing_since is not None:
            log.info(
                "{table}: the store answers again after {attempts} failed attempt(s)",
                table=self.owner.table,
                attempts=self.store_failures,
                event="store_recovered",
            )
        self.store_failures = 0
        self.store_failing_since = None
        if self._retry_call is not None:
            if self._retry_call.active():
                self._retry_call.cancel()
            self._retry_call = None

    def scheduled(self) -> dict[str, int]:
        """The scheduled deadlines: key -> when (microseconds)."""
        return {key: at for key, (at, _call) in self._timers.items()}

    def cancel_all(self) -> None:
        """Cancel every timer and the store retry (the table is closing)."""
        if self._retry_call is not None and self._retry_call.active():
            self._retry_call.cancel()
        self._retry_call = None
        for _at, call in self._timers.values():
            if call.active():
                call.cancel()
        self._timers.clear()
