"""Who may act at a pocket table, what the arguments must be, and every refusal code.

What this module keeps: the stable refusal codes (`REFUSALS`, each with the rule id it cites),
the acting seat (a player acts only for its own seat), the readers of each argument (among
them the card a claim, an answer or a stumped declaration is for, `check_set`), and the
refusal for a command sent in the wrong phase.
"""

from __future__ import annotations

from server.games.base import Command, RuleViolation
from server.games.pocket.options import OPTIONS_RULE
from server.games.pocket.state import CLAIMED, ENDED, OPEN, SETUP, PocketState
from server.puzzles.expressions import MAX_TEXT

# Every refusal code: the rule it cites and what it means. Stable: clients act on them.
REFUSALS: dict[str, tuple[str, str]] = {
    "unknown_command": ("", "no such command at a pocket table"),
    "bad_args": ("", "a command argument is missing or of the wrong type"),
    "invalid_options": (OPTIONS_RULE, "the table options are invalid (from initial_state)"),
    "not_allowed": ("", "this role may not send this command"),
    "not_your_seat": ("", "a player acts only for its own seat"),
    "unknown_seat": ("", "no such seat at this table"),
    "game_not_started": ("R-POCKET-1", "the game has not started"),
    "game_already_started": ("R-POCKET-1", "the game has already started"),
    "game_over": ("R-POCKET-5", "the game has ended"),
    "excluded": ("R-POCKET-3", "a wrong or late answer excluded this player from this card"),
    "claim_in_progress": ("R-POCKET-3", "another player claimed this card first"),
    "already_claimed": ("R-POCKET-3", "this player's claim on this card is running"),
    "too_late": ("R-POCKET-3", "the time to answer has run out"),
    "already_stumped": ("R-POCKET-4", "this player already declared stumped on this card"),
    "stale_set": ("R-POCKET-3", "the command is for another card than the one up"),
    "game_paused": ("", "the game is paused: resume it first"),
    "already_paused": ("", "the game is already paused"),
    "not_paused": ("", "the game is not paused"),
    "stale_deadline": ("", "the deadline is no longer live (the shell ignores it)"),
    "deadline_not_due": ("", "the deadline's time has not come"),
}


def refuse(code: str, message: str) -> RuleViolation:
    """A RuleViolation with a code of `REFUSALS`, citing its rule."""
    return RuleViolation(code, message, REFUSALS[code][0])


def expression_arg(command: Command) -> str:
    """The free-form answer (R-POCKET-2): a non-blank text of at most MAX_TEXT characters;
    what it says is judged by `check_expression`, not here."""
    value = command.args.get("expression")
    if not isinstance(value, str) or not 0 < len(value.strip()) <= MAX_TEXT:
        raise refuse("bad_args", f"{command.name}: 'expression' is a text of 1..{MAX_TEXT} chars")
    return value.strip()


def check_set(command: Command, current: int) -> None:
    """A claim, an answer or a stumped declaration is for the card its player saw: the
    optional `set` names it (the view's `card.number`; `set` as in deck40, so that a client
    sends the same argument to both games). Why: one sent for a card can arrive after the next
    card turned up (another player won it first); an answer judged on a card its player never
    saw would be wrong and exclude him (R-POCKET-3), a claim would hold that card, a stumped
    declaration would count on it (R-POCKET-4). Such a command is refused `stale_set`
    instead, and nothing is recorded. Without `set` (or with none) it is for the card up."""
    named = command.args.get("set")
    if named is None:
        return
    if isinstance(named, bool) or not isinstance(named, int):
        raise refuse("bad_args", f"{command.name}: 'set' is the number of a card")
    if named != current:
        raise refuse(
            "stale_set",
            f"{command.name} is for card {named}, but card {current} is up (R-POCKET-3)",
        )


def acting_seat(state: PocketState, command: Command) -> str:
    """The player's own seat; a player names no other seat. Only players send the commands
    that act for a seat (`decide` checks the role first)."""
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
    assert phase in (OPEN, CLAIMED)
    return refuse("game_already_started", f"{name}: the game has already started")
