"""A table that waits for its students: no card is placed before they are there.

What this module keeps (docs/rules.md, decision 30; docs/tournament.md, decision 15): a table
created with the option `wait_for_students` (a tournament's tables are) starts its round
*waiting*: `RoundStarted` is recorded, but no card may be placed, by hand or by
`auto_proctor`, and no timer runs, until play begins (`PlayBegan`). Play begins

- when every student is there: each seat has a connection joined to the table (a student's
  page, `t24 play`, a bot), or the proctor or director marked the student present or absent
  (`mark_seat`), and at least one student is connected or marked present. Presence is a fact
  of connections, never recorded (server/runtime/presence.py), so the shell asks
  `presence_command` whenever who is connected or the marks change, and submits the
  `begin_play` it returns as the server, naming the connected seats; `decide` checks them
  again here (`missing`), so the rule is judged in one place, on recorded data;
- or when a person begins it (`begin_play` by the table's proctor or the director): a table
  whose student cannot come, a proctored table (its students never connect).

Why marks: a student marked absent is not waited for (the table plays on without them:
they keep their seat and score what they win if they come later, as a student who withdrew
after the seating keeps theirs, docs/tournament.md decision 3); one marked present is there
in person at a proctored table. Why at least one: a table whose every student is marked
absent would otherwise play all its cards to nobody; a person begins it, or the director
withdraws them.

`PlayBegan` moves the table's clocks to the moment play began (`timer_from`, and
`started_at`: a timed tie-break runs its whole `round_seconds` from there).
"""

from __future__ import annotations

from collections.abc import Iterable

from server.games.base import SERVER, SERVER_ACTOR, Command
from server.games.challenge.consequences import ChallengeDecision
from server.games.challenge.refusals import refuse
from server.games.challenge.state import ChallengeState

BEGIN = "begin_play"
MARKS = ("present", "absent")


def missing(state: ChallengeState, connected: Iterable[str]) -> list[str]:
    """The seats play still waits for: neither connected nor marked (in seat order)."""
    here = set(connected) | set(state.attendance)
    return [seat.seat for seat in state.seats if seat.seat not in here]


def _someone_here(state: ChallengeState, connected: Iterable[str]) -> bool:
    present = {seat for seat, mark in state.attendance.items() if mark == "present"}
    return bool((set(connected) | present) & {seat.seat for seat in state.seats})


def presence_command(state: ChallengeState, connected: frozenset[str]) -> Command | None:
    """The command the shell submits (as the server) now that `connected` are the seats with
    a connection: `begin_play` when the table waits and every student is there, else None."""
    if not state.waiting or state.ended or missing(state, connected):
        return None
    if not _someone_here(state, connected):
        return None
    seats = sorted(seat.seat for seat in state.seats if seat.seat in connected)
    return Command(BEGIN, {"seats": seats}, SERVER_ACTOR)


def _waiting(state: ChallengeState, name: str) -> None:
    if not state.waiting:
        raise refuse("play_begun", f"{name}: play has begun at this table")


def begin_play(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """Play begins: the server's when every student is there (the seats it names are the
    connected ones), a proctor's or the director's at once."""
    state = decision.state
    _waiting(state, command.name)
    if command.actor.role == SERVER:
        connected = command.args.get("seats")
        if not isinstance(connected, list) or not all(isinstance(s, str) for s in connected):
            raise refuse("bad_args", "begin_play: 'seats' lists the connected seats")
        absent = missing(state, connected)
        if absent or not _someone_here(state, connected):
            names = ", ".join(_name(state, seat) for seat in absent) or "every student"
            raise refuse("students_missing", f"begin_play: waiting for {names}")
        by = "students"
        seats = sorted(s for s in set(connected) if state.seat(s) is not None)
    else:
        by, seats = command.actor.role, []
    decision.emit("PlayBegan", by=by, connected=seats, attendance=dict(state.attendance))


def mark_seat(decision: ChallengeDecision, command: Command, seat: str | None) -> None:
    """The proctor or director marks a student present or absent while the table waits."""
    _waiting(decision.state, command.name)
    target = command.args.get("seat")
    if decision.state.seat(target) is None:
        raise refuse("unknown_seat", f"mark_seat: no seat {target!r} at this table")
    mark = command.args.get("mark")
    if mark not in MARKS:
        raise refuse("bad_args", f"mark_seat: 'mark' is one of {', '.join(MARKS)}")
    decision.emit("SeatMarked", seat=target, mark=mark)


def _name(state: ChallengeState, seat_id: str) -> str:
    seat = state.seat(seat_id)
    return seat.name if seat is not None and seat.name else seat_id
