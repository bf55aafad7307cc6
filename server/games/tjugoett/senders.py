"""Who may act at a Tjugoett table: the kinds of sender a command may have.

What this module keeps: the kinds of sender (`SENDER_ROLES`) and the game's sender reader the
kit's `decide` runs for them (`acting_seat`: only the player whose turn it is draws or
stands, R-21-5; only a person dealer sends the dealer's moves; a timer's command is the
server's alone). `may_send` answers the same question for views, so a client offers exactly
the commands the server would take. The refusal codes are in `tjugoett/refusals.py`.
"""

from __future__ import annotations

from server.games.base import SERVER, Actor, Command
from server.games.tjugoett.refusals import refuse
from server.games.tjugoett.state import (
    BETWEEN_ROUNDS,
    DEALER_TURN,
    PLAYER_TURN,
    TABLE_OVER,
    TjugoettState,
)

OFFICIALS = frozenset({"director", "proctor"})

# The kinds of sender a command may have (see `acting_seat`).
OFFICIAL = "official"  # the director or the proctor
OFFICIAL_OR_DEALER = "official_or_dealer"  # ... or a person dealer
TURN_PLAYER = "turn_player"  # the player whose turn it is
PERSON_DEALER = "person_dealer"  # the dealer's seat at a table with a person dealer
TIMER = "timer"  # the server, firing a deadline

# Which roles each kind of sender has, for COMMANDS_BY_ROLE.
SENDER_ROLES: dict[str, frozenset[str]] = {
    OFFICIAL: OFFICIALS,
    OFFICIAL_OR_DEALER: OFFICIALS | {"player"},
    TURN_PLAYER: frozenset({"player"}),
    PERSON_DEALER: frozenset({"player"}),
    TIMER: frozenset({SERVER}),
}


def is_dealer(state: TjugoettState, actor: Actor) -> bool:
    """True when `actor` is the person dealer of this table."""
    seat = state.options.dealer_seat
    return seat is not None and actor.role == "player" and actor.id == seat


def acting_seat(state: TjugoettState, command: Command, sender: str) -> str | None:
    """The seat a command is for (the turn's player, the dealer's seat), or None for an
    official's command; refuses anyone the sender kind does not allow (`Kit.sender`)."""
    actor = command.actor
    if sender == TIMER:
        raise refuse("not_allowed", f"{command.name} is the server's, fired by a deadline")
    if sender == OFFICIAL:
        if actor.role not in OFFICIALS:
            raise refuse("not_allowed", f"{actor.role!r} may not send {command.name}")
        return None
    if sender == OFFICIAL_OR_DEALER:
        if actor.role in OFFICIALS:
            return None
        if not is_dealer(state, actor):
            raise refuse("not_allowed", f"{command.name}: the director or the dealer sends it")
        return actor.id
    if actor.role != "player":
        raise refuse("not_allowed", f"{actor.role!r} may not send {command.name}")
    if sender == PERSON_DEALER:
        if state.options.dealer is None:
            raise refuse("server_dealer", f"{command.name}: the server is this table's dealer")
        if not is_dealer(state, actor):
            raise refuse("not_dealer", f"seat {actor.id!r} is not the dealer")
        return actor.id
    # TURN_PLAYER
    if is_dealer(state, actor):
        raise refuse("not_allowed", f"{command.name}: the dealer does not play a player's hand")
    if actor.id not in state.options.seat_ids():
        raise refuse("unknown_seat", f"no seat {actor.id!r} at this table")
    if state.phase == PLAYER_TURN and state.turn != actor.id:
        raise refuse("not_your_turn", f"it is seat {state.turn}'s turn, not {actor.id}'s")
    return actor.id


def may_send(state: TjugoettState, viewer: Actor) -> list[str]:
    """The commands `viewer` may send now (what a thin client offers); `decide` still judges.

    Why here: the same facts as `acting_seat` and the phases of `decide`'s table, asked the
    other way round.
    """
    phase = state.phase
    official = viewer.role in OFFICIALS
    dealer = is_dealer(state, viewer)
    commands: list[str] = []
    if phase == TABLE_OVER:
        return commands
    if phase == BETWEEN_ROUNDS and (official or dealer):
        commands.append("start_round")
    if phase == PLAYER_TURN and viewer.role == "player" and viewer.id == state.turn:
        commands += ["draw_card", "stand"]
    if phase == DEALER_TURN and dealer:
        commands.append("dealer_draw")
        if len(state.dealer_cards) >= 2:
            commands.append("dealer_stand")
    if official:
        commands.append("end_table")
    return commands
