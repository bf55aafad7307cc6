"""Who may act at a Kortspillet 24 table, what the arguments must be, and every refusal code.

What this module keeps: the stable refusal codes (`REFUSALS`, each with the rule id it cites),
the acting seat (a player acts only for its own seat), the argument readers (among them the
set a call answers, `check_set`), and the refusal for a command sent in the wrong phase.
"""

from __future__ import annotations

from server.games.base import Command, RuleViolation
from server.games.deck40.options import OPTIONS_RULE
from server.games.deck40.state import ENDED, SETUP, Deck40State
from server.puzzles.expressions import MAX_TEXT

# Every refusal code: the rule it cites and what it means. Stable: clients act on them.
REFUSALS: dict[str, tuple[str, str]] = {
    "unknown_command": ("", "no such command at a deck40 table"),
    "bad_args": ("", "a command argument is missing or of the wrong type"),
    "invalid_options": (OPTIONS_RULE, "the table options are invalid (from initial_state)"),
    "not_allowed": ("", "this role may not send this command"),
    "not_your_seat": ("", "a player acts only for its own seat"),
    "unknown_seat": ("", "no such seat at this table"),
    "game_not_started": ("R-DECK40-1", "the game has not started"),
    "game_already_started": ("R-DECK40-1", "the game has already started"),
    "game_over": ("R-DECK40-6", "the game has ended"),
    "excluded": ("R-DECK40-2", "a wrong '24!' excluded this player from these four cards"),
    "already_called": ("R-DECK40-3", "this player already called 'no solution' on these cards"),
    "not_your_card": ("R-DECK40-4", "a player returns one of his own face-up cards"),
    "stale_set": ("R-DECK40-2", "the call answers another set of four than the one on the table"),
}


def refuse(code: str, message: str) -> RuleViolation:
    """A RuleViolation with a code of `REFUSALS`, citing its rule."""
    return RuleViolation(code, message, REFUSALS[code][0])


def expression_arg(command: Command) -> str:
    """The spoken solution (free-form, R-DECK40-2): a non-blank text of at most MAX_TEXT
    characters; what it says is judged by `check_expression`."""
    value = command.args.get("expression")
    if not isinstance(value, str) or not 0 < len(value.strip()) <= MAX_TEXT:
        raise refuse("bad_args", f"{command.name}: 'expression' is a text of 1..{MAX_TEXT} chars")
    return value.strip()


def check_set(command: Command, current: int) -> None:
    """A call answers the four cards its player saw: the optional `set` names them (the view's
    `set`). Why: a "24!" or a "no solution" sent for one set can arrive after the next set was
    dealt (another player won the set first); judged on cards its player never saw, a right
    call would be wrong and exclude him (R-DECK40-2), a "no solution" would count as agreement
    on the new cards (R-DECK40-3). Such a call is refused `stale_set` instead, and nothing is
    recorded. Without `set` (or with none) a call answers the cards on the table, as before."""
    named = command.args.get("set")
    if named is None:
        return
    if isinstance(named, bool) or not isinstance(named, int):
        raise refuse("bad_args", f"{command.name}: 'set' is the number of a set of four cards")
    if named != current:
        raise refuse(
            "stale_set",
            f"{command.name} answers set {named}, but set {current} is on the table (R-DECK40-2)",
        )


def acting_seat(state: Deck40State, command: Command) -> str:
    """The player's own seat; a player names no other seat."""
    actor = command.actor
    named = command.args.get("seat", actor.id)
    if named != actor.id:
        raise refuse("not_your_seat", f"player {actor.id!r} cannot act for seat {named!r}")
    if state.seat(actor.id) is None:
        raise refuse("unknown_seat", f"no seat {actor.id!r} at this table")
    return actor.id


def phase_refusal(name: str, phase: str) -> RuleViolation:
    """The refusal for command `name` sent in `phase`."""
    if phase == ENDED:
        return refuse("game_over", f"{name}: the game has ended")
    if phase == SETUP:
        return refuse("game_not_started", f"{name}: the game has not started")
    return refuse("game_already_started", f"{name}: the game has already started")
