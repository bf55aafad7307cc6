"""A failed request's documented error: the one mapping from an exception to a code.

Messages never hold hidden data: the game writes its own refusal texts; anything unexpected
becomes a generic `internal` (its traceback goes to the server log only).
"""

from __future__ import annotations

from twisted.logger import Logger
from twisted.python.failure import Failure

from server.eventlog.envelope import EventLogError
from server.eventlog.store import ConcurrencyError, LeaseLost
from server.games.base import RuleViolation
from server.net.links import DayOver, UnknownTournamentTable
from server.runtime.hub import (
    InvalidOptions,
    ReservedTable,
    TableExists,
    UnknownGame,
    UnknownTable,
)
from server.runtime.table_actor import BadSeq, TableBroken
from server.runtime.timers import TableClosed

log = Logger(namespace="t24.net")

INTERNAL_MESSAGE = "internal server error; nothing was written"
LEASE_LOST_MESSAGE = (
    "this node no longer serves the table (another node took it over); nothing was written: "
    "reconnect and join again"
)
RECORDED_BUT_BROKEN_MESSAGE = (
    "internal server error after the command was recorded: the table stopped taking "
    "commands; its log is intact"
)


def error_for(failure: Failure) -> tuple[str, str, str | None]:
    """Map a failed request to (code, message, rule). Messages never hold hidden data: the
    game writes its own refusal texts; anything unexpected becomes a generic `internal`."""
    exc = failure.value
    if isinstance(exc, RuleViolation):
        return exc.code, exc.message, exc.rule or None
    if isinstance(exc, InvalidOptions):  # the game's refusal of the options, with its rule
        return "invalid_options", str(exc), exc.rule or None
    for kind, code in (
        (UnknownTable, "unknown_table"),
        (TableExists, "table_exists"),
        (ReservedTable, "reserved_table"),
        (UnknownGame, "unknown_game"),
        (BadSeq, "bad_seq"),
        (UnknownTournamentTable, "unknown_table"),
        (DayOver, "day_over"),
    ):
        if isinstance(exc, kind):
            return code, str(exc), None
    if isinstance(exc, TableClosed):
        return "unavailable", "the server is shutting down", None
    if isinstance(exc, TableBroken):
        log.failure("a table failed after recording a command", failure)
        return "internal", RECORDED_BUT_BROKEN_MESSAGE, None
    if isinstance(exc, ConcurrencyError):
        return "conflict", "another writer extended the table's log; retry", None
    if isinstance(exc, LeaseLost):  # the fence at work (server/cluster/leases.py), not a fault
        return "unavailable", LEASE_LOST_MESSAGE, None
    if isinstance(exc, EventLogError):
        log.failure("event store failure", failure)
        return "unavailable", "the event store failed; nothing was written", None
    log.failure("unexpected failure while serving a request", failure)
    return "internal", INTERNAL_MESSAGE, None
