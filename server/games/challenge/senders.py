"""Who sends a student's command at a 24 Challenge table (R-PLAY-2, R-FLAG-4).

What this module keeps: the game's sender reader the kit's `decide` runs for a student's
command (`acting_seat`: a player acts only for its own seat at a networked table; the proctor
records for a named seat at a proctored one; a disqualified student acts no more, R-FLAG-4),
and `named_seat`, the seat a proctor's command names.
"""

from __future__ import annotations

from server.games.base import Command
from server.games.challenge.refusals import refuse
from server.games.challenge.state import ChallengeState

PROCTORS = frozenset({"proctor", "director"})
STUDENT = "student"  # the sender kind of a student's own command (`acting_seat`)
# A student's own command is sent by the player (networked) or recorded by a proctor
# (proctored); `acting_seat` tells which applies at a table.
STUDENT_SENDERS = frozenset({"player"}) | PROCTORS


def named_seat(state: ChallengeState, command: Command) -> str:
    """The seat a proctor names; it must exist and still be in play (R-FLAG-4)."""
    seat_id = command.args.get("seat")
    if seat_id is None:
        raise refuse("seat_required", f"{command.name}: name the 'seat'")
    seat = state.seat(seat_id)
    if seat is None:
        raise refuse("unknown_seat", f"{command.name}: no seat {seat_id!r} at this table")
    if seat.disqualified:
        raise refuse("disqualified", f"seat {seat.seat} is disqualified (R-FLAG-4)")
    if not state.acts_on_card(seat):
        raise refuse(
            "not_yet_reinstated", f"seat {seat.seat} plays again from play {seat.reinstated_from}"
        )
    return seat.seat


def acting_seat(state: ChallengeState, command: Command, sender: str = STUDENT) -> str:
    """The seat a student's command is for: a player's own seat (networked), or the seat the
    proctor names (proctored). Refuses other roles and disqualified students (R-FLAG-4)."""
    actor = command.actor
    if state.options.mode == "networked":
        if actor.role != "player":
            raise refuse(
                "not_allowed",
                f"{command.name}: at a networked table students send it themselves",
            )
        named = command.args.get("seat", actor.id)
        if named != actor.id:
            raise refuse("not_your_seat", f"player {actor.id!r} cannot act for seat {named!r}")
        if state.seat(actor.id) is None:
            raise refuse("unknown_seat", f"no seat {actor.id!r} at this table")
        return named_seat(state, Command(command.name, {"seat": actor.id}, actor))
    if actor.role not in PROCTORS:
        raise refuse("not_allowed", f"{command.name}: at a proctored table the proctor records it")
    return named_seat(state, command)
