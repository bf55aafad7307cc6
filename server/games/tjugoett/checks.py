"""Who may act at a Tjugoett table, and every refusal code.

What this module keeps: the stable refusal codes (`REFUSALS`, each with the rule id it
cites), the senders of each kind of command (`SENDERS`) and the checks `decide` runs before
a command's handler: the acting seat (only the player whose turn it is draws or stands,
R-21-5; only a person dealer sends the dealer's moves) and the refusal for a command sent in
the wrong phase. `may_send` answers the same question for views, so a client offers exactly
the commands the server would take.
"""

from __future__ import annotations

from server.games.base import SERVER, Actor, Command, RuleViolation
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

# Every refusal code: the rule it cites and what it means. Stable: clients act on them.
REFUSALS: dict[str, tuple[str, str]] = {
    "unknown_command": ("", "no such command at a Tjugoett table"),
    "bad_args": ("", "a command argument is missing or of the wrong type"),
    "bad_options": ("", "the table options are invalid (from initial_state)"),
    "not_allowed": ("", "this role may not send this command"),
    "unknown_seat": ("", "no such seat at this table"),
    "not_your_turn": ("R-21-5", "the players face the dealer one at a time, in seat order"),
    "not_dealer": ("R-21-14", "only the dealer draws and stands for the dealer"),
    "server_dealer": ("R-21-14", "the server deals at this table; its moves are its own"),
    "no_round": ("R-21-3", "no round is in play"),
    "round_in_play": ("R-21-3", "a round is in play; the next starts when it has ended"),
    "dealer_turn": ("R-21-14", "the player has stood: it is the dealer's turn"),
    "player_turn": ("R-21-14", "the dealer draws only after the player has stood"),
    "too_few_cards": ("R-21-11", "the dealer stands with at least two cards"),
    "table_over": ("", "the director has ended the table"),
    "stale_deadline": ("", "the deadline is no longer live (the shell ignores it)"),
    "deadline_not_due": ("", "the deadline's time has not come"),
}


def refuse(code: str, message: str) -> RuleViolation:
    """A RuleViolation with a code of `REFUSALS`, citing its rule."""
    return RuleViolation(code, message, REFUSALS[code][0])


def is_dealer(state: TjugoettState, actor: Actor) -> bool:
    """True when `actor` is the person dealer of this table."""
    seat = state.options.dealer_seat
    return seat is not None and actor.role == "player" and actor.id == seat


def acting_seat(state: TjugoettState, sender: str, command: Command) -> str | None:
    """The seat a command is for (the turn's player, the dealer's seat), or None for an
    official's command; refuses anyone the sender kind does not allow."""
    actor = command.actor
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


def phase_refusal(name: str, phase: str) -> RuleViolation:
    """The refusal for command `name` sent in `phase`, saying what is wrong."""
    if phase == TABLE_OVER:
        return refuse("table_over", f"{name}: the table has ended")
    if phase == BETWEEN_ROUNDS:
        return refuse("no_round", f"{name}: no round is in play; start one first")
    if name == "start_round":
        return refuse("round_in_play", "a round is in play")
    if phase == DEALER_TURN:
        return refuse("dealer_turn", f"{name}: the player has stood; the dealer plays")
    return refuse("player_turn", f"{name}: the dealer draws only after the player stood")


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
