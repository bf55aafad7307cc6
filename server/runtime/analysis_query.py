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
from typing import TYPE_CHECKING, Any

from twisted.internet.defer import Deferred, gatherResults, succeed

from protocol.messages import TOURNAMENT_PREFIX, table_stream
from server.analysis.grades import analyse_tournament, replay_tournament, table_names
from server.analysis.table import analyse_table, for_viewer
from server.eventlog.envelope import RecordedEvent
from server.games.base import Actor, RuleViolation
from server.runtime.view_at import ANALYSIS as ANALYSIS  # the query's name
from server.runtime.view_at import ViewAt
from server.tournament.tables import table_id

if TYPE_CHECKING:
    from server.runtime.table_actor import TableActor


TOURNAMENT_READERS = frozenset({"director", "auditor"})


def _events(actor: TableActor) -> Deferred[list[RecordedEvent]]:
    """Every event of the actor's stream: from memory when its window holds them all."""
    if actor.first_seq == 1:
        return succeed(actor.events[: actor.seq])
    return actor.store.read(actor.stream, after_seq=0, limit=actor.seq)


def tournament_analysis(
    actor: TableActor, args: Mapping[str, Any], viewer: Actor
) -> Deferred[ViewAt]:
    """A tournament's analysis per grade (`server.analysis.grades`), for the director or an
    auditor: its stream, then each of its tables' streams read from the store. `grade`
    (optional) keeps one grade."""
    if viewer.role not in TOURNAMENT_READERS:
        raise RuleViolation("forbidden", "analysis: a tournament's is for the director")
    grade = args.get("grade")
    if grade is not None and not isinstance(grade, str):
        raise RuleViolation("bad_message", "analysis: `grade` is a grade's name")
    tournament = str(actor.table).removeprefix(TOURNAMENT_PREFIX)

    def tables(
        events: Sequence[RecordedEvent],
    ) -> Deferred[tuple[Sequence[RecordedEvent], dict[str, Any]]]:
        names = table_names(replay_tournament(events))
        reads = [actor.store.load(table_stream(table_id(tournament, name))) for name in names]
        return gatherResults(reads).addCallback(
            lambda found: (events, dict(zip(names, found, strict=True)))
        )

    def answer(read: tuple[Sequence[RecordedEvent], dict[str, Any]]) -> ViewAt:
        events, by_name = read
        data = analyse_tournament(events, by_name).as_data()
        data["tournament"] = tournament
        if grade is not None:
            data["grades"] = [g for g in data["grades"] if g["grade"] == grade]
            if not data["grades"]:
                raise RuleViolation("bad_message", f"analysis: no grade {grade!r}")
        folded = len(events) + sum(len(e) for e in by_name.values())
        return ViewAt(actor.seq, data, folded)

    return _events(actor).addCallback(tables).addCallback(answer)


def analysis(actor: TableActor, args: Any, viewer: Actor) -> Deferred[ViewAt]:
    """The answer to `analysis` on `actor` (a `TableActor`) for `viewer`: a Deferred of a
    `ViewAt` whose result is the analysis as data. Raises the protocol's RuleViolation."""
    if not isinstance(args, Mapping):
        raise RuleViolation("bad_message", "analysis: args are a map")
    if actor.game.NAME == "tournament" and set(args) <= {"grade"}:
        return tournament_analysis(actor, args, viewer)
    if args:
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

    return _events(actor).addCallback(answer)
