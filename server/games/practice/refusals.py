"""Every refusal code of a practice table, and `refuse`, which raises them and reads the
arguments (`server.games.kit.Refusals`); who may send what is the command table's
(`practice/__init__.py`), the seat reader the kit's."""

from __future__ import annotations

from server.games.kit import Refusals, kit_refusals

STEP_COUNT = 3  # R-PUZ-2: exactly three steps; fewer or more are judged wrong, not refused
MAX_STEPS = 6

# Every refusal code: the rule it cites and what it means. Stable: clients act on them.
REFUSALS: dict[str, tuple[str, str]] = {
    **kit_refusals("a practice table", seated=True, deadlines=True),
    "bad_options": ("", "the table options are invalid (from initial_state)"),
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
}


refuse = Refusals(REFUSALS)
