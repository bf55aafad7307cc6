"""Every refusal code of a Tjugoett table, and the refusal for a command sent in the wrong
phase.

What this module keeps: the stable refusal codes (`REFUSALS`, each with the rule id it
cites), `refuse`, which raises them (`server.games.kit.Refusals`), and `phase_refusal`; who
may send what is `tjugoett/senders.py`'s.
"""

from __future__ import annotations

from server.games.base import RuleViolation
from server.games.kit import Refusals, kit_refusals
from server.games.tjugoett.state import BETWEEN_ROUNDS, DEALER_TURN, TABLE_OVER

# Every refusal code: the rule it cites and what it means. Stable: clients act on them.
REFUSALS: dict[str, tuple[str, str]] = {
    **kit_refusals("a Tjugoett table", seats=True, deadlines=True),
    "bad_options": ("", "the table options are invalid (from initial_state)"),
    "not_your_turn": ("R-21-5", "the players face the dealer one at a time, in seat order"),
    "not_dealer": ("R-21-14", "only the dealer draws and stands for the dealer"),
    "server_dealer": ("R-21-14", "the server deals at this table; its moves are its own"),
    "no_round": ("R-21-3", "no round is in play"),
    "round_in_play": ("R-21-3", "a round is in play; the next starts when it has ended"),
    "dealer_turn": ("R-21-14", "the player has stood: it is the dealer's turn"),
    "player_turn": ("R-21-14", "the dealer draws only after the player has stood"),
    "too_few_cards": ("R-21-11", "the dealer stands with at least two cards"),
    "table_over": ("", "the director has ended the table"),
}


refuse = Refusals(REFUSALS)


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
