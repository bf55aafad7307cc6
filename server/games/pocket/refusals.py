"""Every refusal code of a pocket table, and the refusal for a command sent in the wrong phase.

What this module keeps: the stable refusal codes (`REFUSALS`, each with the rule id it cites)
and `refuse`, which raises them and reads the arguments (`server.games.kit.Refusals`, among
them the card a claim, an answer or a stumped declaration is for, `refuse.set_arg`); who may
send what is the command table's (`pocket/__init__.py`), the seat reader the kit's.
"""

from __future__ import annotations

from server.games.base import RuleViolation
from server.games.kit import Refusals
from server.games.pocket.options import OPTIONS_RULE
from server.games.pocket.state import CLAIMED, ENDED, OPEN, SETUP

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


refuse = Refusals(REFUSALS)


def phase_refusal(name: str, phase: str) -> RuleViolation:
    """The refusal for command `name` sent in `phase`."""
    if phase == ENDED:
        return refuse("game_over", f"{name}: the game has ended")
    if phase == SETUP:
        return refuse("game_not_started", f"{name}: the game has not started")
    assert phase in (OPEN, CLAIMED)
    return refuse("game_already_started", f"{name}: the game has already started")
