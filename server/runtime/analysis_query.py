"""The `analysis` query: a table's analysis after the round (server/analysis, issue 31),
answered by the shell for the asking viewer, never recorded.

Why the shell and not the game: the analysis reads the table's whole log (every touch, every
answer), which a game's `query` never sees (it gets the state); the fold is the pure
`server.analysis.table.analyse_table`, and what a viewer may read of it is
`server.analysis.table.for_viewer` (a student: their own report, once the round is over).

Why the work is charged: the answer folds every event of the table (read from the store when
older than the table's window), so the session charges it like a join's catch-up, one
request more per 50 events (`ViewAt.folded`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from twisted.internet.defer import Deferred, succeed

from server.analysis.table import analyse_table, for_viewer
from server.eventlog.envelope import RecordedEvent
from server.games.base import Actor, RuleViolation
from server.runtime.view_at import ViewAt

ANALYSIS = "analysis"  # the query's name: answered by the shell, never by a game


def analysis(actor: Any, args: Any, viewer: Actor) -> Deferred:
    """The answer to `analysis` on `actor` (a `TableActor`) for `viewer`: a Deferred of a
    `ViewAt` whose result is the analysis as data. Raises the protocol's RuleViolation."""
    if not isinstance(args, Mapping) or args:
        raise RuleViolation("bad_message", "analysis: args are an empty map")
    if actor.game.NAME != "challenge":
        raise RuleViolation("bad_message", f"analysis: a 24 Challenge table, not {actor.game.NAME}")
    if viewer.role not in ("player", "proctor", "director", "auditor"):
        raise RuleViolation("forbidden", "analysis: for the students and their coaches")
    last = actor.seq

    def answer(events: Sequence[RecordedEvent]) -> ViewAt:
        seat = viewer.id if viewer.role == "player" else None
        result = for_viewer(analyse_table(events), viewer.role, seat)
        if result is None:
            raise RuleViolation("forbidden", "analysis: a student reads it once the round is over")
        return ViewAt(last, result, len(events))

    if actor.first_seq == 1:  # every event is in memory
        return succeed(actor.events[:last]).addCallback(answer)
    return actor.store.read(actor.stream, after_seq=0, limit=last).addCallback(answer)
