"""Who may act at a practice table, what the arguments must be, and every refusal code."""

from __future__ import annotations

from server.games.base import Command, RuleViolation
from server.games.practice.state import PracticeState, SeatPractice
from server.puzzles.expressions import MAX_TEXT

STEP_COUNT = 3  # R-PUZ-2: exactly three steps; fewer or more are judged wrong, not refused
MAX_STEPS = 6
MAX_CAUSE = 64

# Every refusal code: the rule it cites and what it means. Stable: clients act on them.
REFUSALS: dict[str, tuple[str, str]] = {
    "unknown_command": ("", "no such command at a practice table"),
    "bad_args": ("", "a command argument is missing or of the wrong type"),
    "bad_options": ("", "the table options are invalid (from initial_state)"),
    "not_allowed": ("", "this role may not send this command"),
    "not_your_seat": ("", "a player acts only for its own seat"),
    "unknown_seat": ("", "no such seat at this table"),
    "practice_over": ("", "the practice has ended"),
    "practice_paused": ("", "the practice is paused: resume it first"),
    "card_in_play": ("", "this student's card is still in play: answer it or give up"),
    "no_card": ("", "this student has no card in play: ask for the next one"),
    "all_cards_played": ("", "this student has played all the table's cards"),
    "already_touched": ("R-PLAY-2", "the card is touched already"),
    "touch_first": ("R-PLAY-4", "touch the card before answering"),
    "too_late": ("R-PLAY-5", "the time to answer has run out (the deadline misses the card)"),
    "already_paused": ("", "the practice is already paused"),
    "not_paused": ("", "the practice is not paused"),
    "stale_deadline": ("", "the deadline is no longer live (the shell ignores it)"),
    "deadline_not_due": ("", "the deadline's time has not come"),
}


def refuse(code: str, message: str) -> RuleViolation:
    """A RuleViolation with a code of `REFUSALS`, citing its rule."""
    return RuleViolation(code, message, REFUSALS[code][0])


def acting_seat(state: PracticeState, command: Command) -> SeatPractice:
    """The player's own seat (a player names no other seat)."""
    actor = command.actor
    named = command.args.get("seat", actor.id)
    if named != actor.id:
        raise refuse("not_your_seat", f"player {actor.id!r} cannot act for seat {named!r}")
    seat = state.seat(actor.id)
    if seat is None:
        raise refuse("unknown_seat", f"no seat {actor.id!r} at this table")
    return seat


def text_arg(command: Command, name: str) -> str:
    value = command.args.get(name)
    if not isinstance(value, str) or not 0 < len(value.strip()) <= MAX_TEXT:
        raise refuse("bad_args", f"{command.name}: {name!r} is a text of 1..{MAX_TEXT} chars")
    return value.strip()


def steps_arg(command: Command) -> tuple[str, ...]:
    """The steps: 1..6 texts (three make an answer, R-PUZ-2; the judge says what is wrong)."""
    value = command.args.get("steps")
    if (
        not isinstance(value, list | tuple)
        or not 0 < len(value) <= MAX_STEPS
        or not all(isinstance(step, str) and 0 < len(step.strip()) <= MAX_TEXT for step in value)
    ):
        raise refuse(
            "bad_args",
            f"{command.name}: 'steps' is a list of 1..{MAX_STEPS} texts of 1..{MAX_TEXT} chars",
        )
    return tuple(step.strip() for step in value)


def cause_arg(command: Command, default: str) -> str:
    value = command.args.get("cause", default)
    if not isinstance(value, str) or not 0 < len(value) <= MAX_CAUSE:
        raise refuse("bad_args", f"{command.name}: 'cause' is a text of 1..{MAX_CAUSE} chars")
    return value
