"""Who may act at a 24 Challenge table, what its arguments must be, and every refusal code.

What this module keeps: the stable refusal codes (`REFUSALS`, each with the rule id it cites),
the five flag causes (R-FLAG-1), and the checks `decide` runs before a command's handler: the
acting seat (R-PLAY-2: a player acts only for its own seat at a networked table; the proctor
records for a named seat at a proctored one; a disqualified student acts no more, R-FLAG-4),
the readers of each argument, and the refusal for a command sent in the wrong phase.
"""

from __future__ import annotations

from server.games.base import Command, RuleViolation
from server.games.challenge.state import (
    BETWEEN,
    ENDED,
    PLACED,
    REVEALED,
    SETUP,
    SOLVING,
    ChallengeState,
)
from server.puzzles.expressions import MAX_TEXT

PROCTORS = frozenset({"proctor", "director"})
STUDENT = None  # a student's own command: see `acting_seat`
SCORE_CARD_COMMANDS = frozenset({"sign_score_card", "reopen_score_card"})  # R-ROUND-7
MAX_STEPS = 3  # R-PUZ-2: a solution is three steps; more is refused before it is recorded

# R-FLAG-1: the five causes of a penalty flag, each with the rule it enforces.
FLAG_CAUSES: dict[str, str] = {
    "no_pattern": "R-PLAY-4",
    "no_solution": "R-PLAY-5",
    "incorrect_solution": "R-PLAY-5",
    "too_many_fingertips": "R-PLAY-3",
    "touched_before_reveal": "R-PLAY-3",
}

# Every refusal code: the rule it cites and what it means. Stable: clients act on them.
REFUSALS: dict[str, tuple[str, str]] = {
    "unknown_command": ("", "no such command at a 24 Challenge table"),
    "bad_args": ("", "a command argument is missing or of the wrong type"),
    "bad_options": ("", "the table options are invalid (from initial_state)"),
    "not_allowed": ("R-PLAY-2", "this role may not send this command at this table"),
    "not_your_seat": ("R-PLAY-2", "a player acts only for its own seat"),
    "seat_required": ("R-PLAY-2", "the proctor must name the seat it records for"),
    "unknown_seat": ("", "no such seat at this table"),
    "round_not_started": ("R-ROUND-1", "the round has not started"),
    "round_already_started": ("R-ROUND-1", "the round has already started"),
    "round_over": ("R-ROUND-1", "the round has ended"),
    "table_paused": ("", "the table is paused"),
    "waiting_for_students": ("", "the table waits for its students: play has not begun"),
    "students_missing": ("", "play cannot begin by itself: a student is not there yet"),
    "play_begun": ("", "play has begun: the wait for the students is over"),
    "already_paused": ("", "the table is already paused"),
    "not_paused": ("", "the table is not paused"),
    "card_in_play": ("R-PLAY-1", "a card is already in play"),
    "no_card_in_play": ("R-PLAY-1", "no card is in play"),
    "no_card_placed": ("R-PLAY-1", "no card has been placed to reveal"),
    "already_revealed": ("R-PLAY-1", "the card is already revealed"),
    "card_not_revealed": ("R-PLAY-1", "the card has not been revealed"),
    "no_touch_in_progress": ("R-PLAY-2", "nobody holds the card"),
    "touch_in_progress": ("R-PLAY-2", "a student holds the card"),
    "disqualified": ("R-FLAG-4", "a disqualified student takes no further part in the round"),
    "already_touched": ("R-PLAY-2", "this student's touch on this card is already recorded"),
    "not_toucher": ("R-PLAY-2", "only the first student to touch the card may answer"),
    "already_first": ("R-PLAY-2", "that student already holds the card"),
    "pattern_cannot_change": ("R-PLAY-5", "the pattern is declared and cannot change"),
    "bad_pattern": ("R-PUZ-3", "the pattern cannot be read as 'a op b'"),
    "pattern_first": ("R-PLAY-4", "the pattern is announced before the solution"),
    "too_late": ("R-PLAY-4", "the time for this answer has run out"),
    "no_steps": ("R-PLAY-5", "there are no steps to fix"),
    "no_x": ("R-PLAY-5", "a Variables card's solution names x: there is none to fix"),
    "already_stumped": ("R-PLAY-7", "this student already declared stumped"),
    "foul_touch": (
        "R-PLAY-2",
        "that student's touch was a foul (R-PLAY-3): it cannot hold the card",
    ),
    "not_yet_reinstated": ("R-ROUND-8", "a reinstated student plays again from the next card"),
    "unknown_seq": ("R-ROUND-8", "a protest names a seq that is not an event of this table"),
    "too_many_protests": ("R-ROUND-8", "this filer has too many open protests"),
    "unknown_protest": ("R-ROUND-8", "no protest has this number at this table"),
    "already_ruled": ("R-ROUND-8", "the protest is already ruled on"),
    "bad_correction": ("R-ROUND-8", "a correction is malformed, or a rejected protest has some"),
    "unknown_flag": ("R-ROUND-8", "that seat has no standing flag with this seq"),
    "no_slap": ("R-ROUND-8", "that seat is not disqualified for a slap"),
    "unknown_card": ("R-ROUND-8", "no card of this table's deck has this id"),
    "card_already_won": ("R-ROUND-8", "the card is already won (revoke it first)"),
    "card_not_won": ("R-ROUND-8", "that seat has not won this card"),
    "negative_score": ("R-ROUND-8", "the corrections would make a score negative"),
    "round_not_over": ("R-ROUND-7", "the score card is signed once the round has ended"),
    "protests_open": ("R-ROUND-8", "a protest is open: rule on it before signing"),
    "score_card_signed": ("R-ROUND-7", "the score card is signed: only the director may reopen it"),
    "not_signed": ("R-ROUND-7", "the score card is not signed"),
    "unknown_query": ("", "no such query at a 24 Challenge table"),
    "stale_deadline": ("", "the deadline is no longer live (the shell ignores it)"),
    "deadline_not_due": ("", "the deadline's time has not come"),
}


def refuse(code: str, message: str, rule: str | None = None) -> RuleViolation:
    """A RuleViolation with a code of `REFUSALS`, citing its rule unless `rule` says better."""
    return RuleViolation(code, message, REFUSALS[code][0] if rule is None else rule)


# -- arguments and actors -------------------------------------------------------------------


def text_arg(command: Command, name: str, limit: int, default: str | None = None) -> str:
    """A non-blank text argument, stripped; anything else is `bad_args` before it is logged."""
    value = command.args.get(name, default)
    if not isinstance(value, str) or not 0 < len(value.strip()) <= limit:
        raise refuse("bad_args", f"{command.name}: {name!r} is a text of 1..{limit} characters")
    return value.strip()


def int_arg(command: Command, name: str, low: int, high: int, default: int) -> int:
    """A whole-number argument in [low, high] (a bool is not a number here)."""
    value = command.args.get(name, default)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise refuse("bad_args", f"{command.name}: {name!r} is a whole number {low}..{high}")
    return value


def steps_arg(command: Command, required: bool, most: int = MAX_STEPS) -> tuple[str, ...]:
    """The `steps` argument: 1..3 texts (R-PUZ-2; 1..6 on a Variables card, `most`); what
    they say is judged only when fixed."""
    value = command.args.get("steps")
    if value is None and not required:
        return ()
    if (
        not isinstance(value, list | tuple)
        or not 0 < len(value) <= most
        or not all(isinstance(step, str) and 0 < len(step.strip()) <= MAX_TEXT for step in value)
    ):
        raise refuse(
            "bad_args",
            f"{command.name}: 'steps' is a list of 1..{most} texts of 1..{MAX_TEXT} "
            "characters (R-PUZ-2)",
        )
    return tuple(step.strip() for step in value)


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


def acting_seat(state: ChallengeState, command: Command) -> str:
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


def phase_refusal(name: str, phase: str) -> RuleViolation:
    """The refusal for command `name` sent in `phase`, with a code that says what is wrong
    (no card yet, card not revealed, somebody holds it, ...) rather than a generic one."""
    if phase == SETUP:
        return refuse("round_not_started", f"{name}: the round has not started")
    if name in SCORE_CARD_COMMANDS and phase != ENDED:
        return refuse("round_not_over", f"{name}: the round has not ended")
    if phase == ENDED:
        return refuse("round_over", f"{name}: the round has ended")
    if name == "start_round":
        return refuse("round_already_started", "the round has already started")
    if name == "place_card":
        return refuse("card_in_play", "a card is already in play")
    if name == "reveal_card":
        if phase == BETWEEN:
            return refuse("no_card_placed", "place a card before revealing it")
        return refuse("already_revealed", "the card is already revealed")
    code = {
        BETWEEN: "no_card_in_play",
        PLACED: "card_not_revealed",
        REVEALED: "no_touch_in_progress",
        SOLVING: "touch_in_progress",
    }[phase]
    return refuse(code, f"{name}: {REFUSALS[code][1]}")
