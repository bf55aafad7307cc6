"""Every refusal code of a pocket table, and the refusal for a command sent in the wrong phase.

What this module keeps: the stable refusal codes (`REFUSALS`, each with the rule id it cites)
and `refuse`, which raises them and reads the arguments (`server.games.kit.Refusals`, among
them the card a claim, an answer or a stumped declaration is for, `refuse.set_arg`); who may
send what is the command table's (`pocket/__init__.py`), the seat reader the kit's.
"""

from __future__ import annotations

from server.games.kit import Refusals, kit_refusals
from server.games.pocket.options import OPTIONS_RULE
from server.games.pocket.state import CLAIMED, ENDED, OPEN, SETUP

# Every refusal code: the rule it cites and what it means. Stable: clients act on them.
REFUSALS: dict[str, tuple[str, str]] = {
    **kit_refusals("a pocket table", seated=True, deadlines=True),
    "invalid_options": (OPTIONS_RULE, "the table options are invalid (from initial_state)"),
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
}


refuse = Refusals(REFUSALS)

# The refusal for a command sent in a phase it is not taken in (the kit's `Refusals.by_phase`).
phase_refusal = refuse.by_phase(
    {
        SETUP: "game_not_started",
        OPEN: "game_already_started",
        CLAIMED: "game_already_started",
        ENDED: "game_over",
    }
)
