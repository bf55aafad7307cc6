"""Every refusal code of a Kortspillet 24 table, and the refusal for a command sent in the
wrong phase.

What this module keeps: the stable refusal codes (`REFUSALS`, each with the rule id it cites)
and `refuse`, which raises them and reads the arguments (`server.games.kit.Refusals`); who
may send what is the command table's (`deck40/__init__.py`), the seat reader the kit's.
"""

from __future__ import annotations

from server.games.deck40.options import OPTIONS_RULE
from server.games.deck40.state import ENDED, PLAYING, SETUP
from server.games.kit import Refusals, kit_refusals

# Every refusal code: the rule it cites and what it means. Stable: clients act on them.
REFUSALS: dict[str, tuple[str, str]] = {
    **kit_refusals("a deck40 table", seated=True),
    "invalid_options": (OPTIONS_RULE, "the table options are invalid (from initial_state)"),
    "game_not_started": ("R-DECK40-1", "the game has not started"),
    "game_already_started": ("R-DECK40-1", "the game has already started"),
    "game_over": ("R-DECK40-6", "the game has ended"),
    "excluded": ("R-DECK40-2", "a wrong '24!' excluded this player from these four cards"),
    "already_called": ("R-DECK40-3", "this player already called 'no solution' on these cards"),
    "not_your_card": ("R-DECK40-4", "a player returns one of his own face-up cards"),
    "stale_set": ("R-DECK40-2", "the call answers another set of four than the one on the table"),
}


refuse = Refusals(REFUSALS)

# The refusal for a command sent in a phase it is not taken in (the kit's `Refusals.by_phase`).
phase_refusal = refuse.by_phase(
    {SETUP: "game_not_started", PLAYING: "game_already_started", ENDED: "game_over"}
)
