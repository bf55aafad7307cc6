"""Replaying a table's recorded stream to any point: what a protest is settled with.

What it keeps: the one fold an official, a proctor settling a protest (R-ROUND-8) and the
`t24 replay` command all rely on. The stream's first event is the shell's `TableCreated`
(`{game, options}`); every later event is folded with the game's `evolve`, exactly as the
live table did, and after each event the table is recorded as the given viewer sees it
(an auditor by default: everything, hidden cards included).

Why replay trusts only what verifies: a stream whose hash chain breaks is replayed up to its
last good event and the report says where it broke; nothing after a broken link is shown as
if it had happened.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from protocol.messages import TABLE_STREAM_PREFIX
from protocol.views import deadline_data
from server.audit.export import CheckedExport
from server.eventlog.store import BlockingStore, VerifyReport
from server.games import games
from server.games.base import Actor, Event

AUDITOR = Actor("auditor", "replay")
TABLE_CREATED = "TableCreated"


class ReplayError(Exception):
    """The stream cannot be replayed: unknown stream, not a table, or an unknown game."""


@dataclass(frozen=True)
class Moment:
    """One recorded event and the table right after it."""

    seq: int
    at: int  # the game's time of the event (its data's `at`), else the log's `at`
    recorded_at: int  # when the store recorded it
    actor: Mapping[str, str]
    type: str
    data: Mapping[str, Any]
    state: Any
    view: Mapping[str, Any]
    # the live deadlines after it, as a client is told them (protocol.views.deadline_data)
    deadlines: Sequence[Mapping[str, Any]] = ()


@dataclass(frozen=True)
class TableReplay:
    """A stream replayed: its verification report and one moment per good event."""

    stream: str
    game: str
    report: VerifyReport
    moments: tuple[Moment, ...]

    def at_seq(self, seq: int) -> Moment:
        """The table as it stood right after event `seq`."""
        for moment in self.moments:
            if moment.seq == seq:
                return moment
        last = self.moments[-1].seq
        raise ReplayError(f"{self.stream} has seqs 1..{last}, not {seq}")


def fold_table(events: Sequence[Any], viewer: Actor = AUDITOR) -> tuple[str, list[Moment]]:
    """(game name, one `Moment` per event) for recorded events starting at `TableCreated`."""
    if not events or events[0].type != TABLE_CREATED:
        raise ReplayError("the stream does not start with TableCreated: not a table")
    created = events[0].data
    game = games().get(created.get("game"))
    if game is None:
        raise ReplayError(f"unknown game {created.get('game')!r}")
    state = game.initial_state(created.get("options", {}))
    moments = []
    for recorded in events:
        if recorded.seq > 1:
            state = game.evolve(state, Event(recorded.type, recorded.data))
        moments.append(
            Moment(
                seq=recorded.seq,
                at=recorded.data.get("at", recorded.at),
                recorded_at=recorded.at,
                actor=recorded.actor,
                type=recorded.type,
                data=recorded.data,
                state=state,
                view=game.view(state, viewer),
                deadlines=[
                    deadline_data(deadline.key, deadline.command.name, deadline.at)
                    for deadline in game.deadlines(state)
                ],
            )
        )
    return game.NAME, moments


def replay_export(checked: CheckedExport, viewer: Actor = AUDITOR) -> TableReplay:
    """Replay an audit export (checked from the file alone) as `replay_table` replays a store.

    Why: an official settling a protest from an export needs no access to the server's
    database; only the events that verified are folded, as from a store.
    """
    report = checked.report
    if not checked.events:
        raise ReplayError(report.describe())
    game, moments = fold_table(checked.events, viewer)
    return TableReplay(report.stream, game, report, tuple(moments))


def replay_table(store: BlockingStore, stream: str, viewer: Actor = AUDITOR) -> TableReplay:
    """Verify `stream` in a blocking store, then fold every event up to the last good one."""
    report = store.verify(stream)
    if report.ok and report.events == 0:
        known = ", ".join(store.streams(TABLE_STREAM_PREFIX)) or "none"
        raise ReplayError(f"no stream {stream!r} (tables: {known})")
    if not report.ok and report.events == 0:
        raise ReplayError(report.describe())
    # Read only the verified prefix: the bytes after a broken link may not even decode.
    events = store.read(stream, limit=report.events)
    game, moments = fold_table(events, viewer)
    return TableReplay(stream, game, report, tuple(moments))
