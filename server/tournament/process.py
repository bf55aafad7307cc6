"""The tournament as a process manager (pure): which tables a tournament's state wants, how
each is made, and which command of the tournament a table's event calls for.

What it keeps: every tournament rule the shell's process runner
(server/runtime/process_actor.py) needs, as pure functions over the tournament's state and a
table's recorded events. The runner knows no tournament: it creates the tables `wanted`
names, with `new_table`'s game, options and first command, listens to those whose round
still listens, and submits to the tournament whatever `result_command` and
`failure_command` say. Nothing here reads a table's state: a table's result comes from its
own events (`results.table_result`, issue 11).

Why: the tournament was woven into the runtime (the hub knew its ids and streams, its actor
read `TournamentState` and overrode the table actor), and the hub and that actor imported
each other. As data and pure functions it is tested without Twisted, and the runtime runs any
process manager of this shape (`server.runtime.process_actor.ProcessManager`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import server.tournament as tournament
from protocol.messages import TOURNAMENT_PREFIX
from server.games.base import SERVER_ACTOR, Actor, Command
from server.tournament.decks import draws_ahead
from server.tournament.results import SIGNED, table_result
from server.tournament.state import TournamentState
from server.tournament.tables import reserving_tournament, table_id, table_options_for

NAME = tournament.NAME  # the game of the process's own stream
GAME = tournament  # its Decider: the stream runs like a table's
STREAM_PREFIX = TOURNAMENT_PREFIX  # its streams' ids: `tournament/<id>`
MAX_ID = 40  # a tournament id's characters: its tables are `<id>.r1.s12.t03`, at most 64
TABLE_GAME = "challenge"  # the game of every table it runs
# Its own events after which the tables it wants, or listens to, may change.
SYNC_EVENTS = frozenset({"RoundStarted", "TieBreakSeated", "Advanced", "RoundReopened"})
# A table's events it reads (R-ROUND-7: a table's result is final when signed).
TABLE_EVENTS = frozenset({SIGNED})
ROUND_STARTED = "RoundStarted"  # a table's: its round was started (by the tournament)
TABLE_CREATED = "TableCreated"


@dataclass(frozen=True)
class NewTable:
    """A table to create: its game and options, and the first command decided on it, whose
    events are recorded with its `TableCreated` (the table exists only started)."""

    game: str
    options: dict[str, Any]
    start: Command


def tournament_id(stream_id: str) -> str:
    """`tournament/<id>` -> `<id>`."""
    return stream_id[len(STREAM_PREFIX) :]


def id_refusal(stream_id: str) -> str | None:
    """Why `stream_id` cannot be a tournament's, or None."""
    if len(tournament_id(stream_id)) > MAX_ID:
        return f"a tournament id has at most {MAX_ID} characters"
    return None


def reserving(table: str) -> str | None:
    """The stream id of the tournament whose tables' ids `table` is among (only it creates
    that table: the hub refuses anyone else, `ReservedTable`), or None."""
    owner = reserving_tournament(table)
    return STREAM_PREFIX + owner if owner is not None else None


def table_of(stream_id: str, name: str) -> str:
    """The hub's id of the tournament's table `name` (`<id>.r1.s1.t01`)."""
    return table_id(tournament_id(stream_id), name)


def wanted(state: TournamentState) -> dict[str, bool]:
    """Every table the tournament has started: name -> whether it still listens to it (the
    results of an advanced round are refused until the round is reopened)."""
    found: dict[str, bool] = {}
    for round_ in state.rounds.values():
        if round_.started:
            for table in round_.tables:
                found[table.table] = not round_.advanced
    for tie in state.tie_breaks:
        for table in tie.tables:
            found[table.table] = not state.round(tie.round).advanced
    return found


def settled(state: TournamentState, name: str) -> bool:
    """Whether a table nobody listens to has its result in (an advanced round after a
    restart): it stays on disk, unopened."""
    return name in state.results


def start_command(stream_id: str) -> Command:
    """The command that starts a table's round, as the tournament's director."""
    return Command("start_round", {}, Actor("director", stream_id))


def new_table(state: TournamentState, stream_id: str, name: str) -> NewTable:
    """The table `name` as the tournament creates it: a 24 Challenge table with the options
    of its round and seats, started."""
    return NewTable(TABLE_GAME, table_options_for(state, name), start_command(stream_id))


def created_by(
    stream_id: str, causation: str, actor: Mapping[str, Any], data: Mapping[str, Any]
) -> bool:
    """Whether a table's `TableCreated` (its causation, actor and data) shows the tournament
    made it: recorded by the server, caused by the tournament's stream, for its game. A table
    made by hand under a round's id is never taken for the tournament's (issue 33)."""
    return (
        causation == stream_id
        and dict(actor) == SERVER_ACTOR.as_dict()
        and data.get("game") == TABLE_GAME
    )


def needs_start(last_events: Mapping[str, Any]) -> bool:
    """Whether a table it made is still unstarted (recorded by a version that started it in a
    second append, and stopped between the two), from the table's last event of each type."""
    return ROUND_STARTED not in last_events


def result_command(
    state: TournamentState, name: str, last_events: Mapping[str, Any]
) -> Command | None:
    """`record_result` for the table's last signed score card when the tournament has not
    recorded that one yet, else None."""
    signed = last_events.get(SIGNED)
    result = table_result([signed] if signed is not None else [])
    if result is None:
        return None
    recorded = state.results.get(name)
    if recorded is not None and recorded.seq == result["seq"]:
        return None
    return Command("record_result", {"table": name, **result}, SERVER_ACTOR)


def failure_command(state: TournamentState, name: str, reason: str) -> Command | None:
    """`report_table_failure` for a table the shell could not create, once per reason."""
    reason = reason[: tournament.MAX_REASON]
    if state.not_created.get(name) == reason:
        return None
    return Command("report_table_failure", {"table": name, "reason": reason}, SERVER_ACTOR)


def decks_ahead(state: TournamentState) -> list[tuple[str, int, int]]:
    """The deck halves its next `start_round` or tie-break will draw (`decks.draws_ahead`),
    for the shell to draw off the reactor first."""
    return draws_ahead(state.options, len(state.tie_breaks))
