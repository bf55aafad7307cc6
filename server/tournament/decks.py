"""A tournament's 96-card deck and the cards each round plays (R-DECK-1, R-DECK-2, R-DECK-5).

What this module keeps:
- Which half of the 96-card deck each round plays, on which side, is
  `server.puzzles.round_decks` (the one table, shared with a single table's deck and the
  reference CLI); this module adds what only a tournament does with it:
- "Make sure that all tables are using the same cards": every table of a round gets the same
  cards in the same shuffled order, unless the tournament's `per_table_shuffle` is set.
- R-ROUND-6: a tie-break plays "a fresh deck of the same edition": the edition of the round
  it breaks, generated from a seed derived from the tournament's seed and the tie-break's
  number, on the same side as that round.

Why derived from the seed and still recorded: the shuffle is a pure function of the recorded
seed (no random choice in `decide`), and the round's cards are written in `RoundStarted` and
each table's `TableCreated`, so a replay never depends on the generator.
"""

from __future__ import annotations

import random
from typing import Any

from server.puzzles.editions import TournamentCard
from server.puzzles.round_decks import half_deck, round_deck, round_half_and_side

__all__ = [
    "half_deck",
    "round_cards",
    "round_half_and_side",
    "table_order",
    "tie_break_cards",
    "tie_break_seed",
    "tournament_deck",
]

TIE_BREAK_SEED_STRIDE = 1_000_003  # a tie-break's fresh deck: seed + n * stride (mod 2**31)


def tournament_deck(seed: int) -> tuple[TournamentCard, ...]:
    """The whole 96-card deck: half 1 then half 2 (R-DECK-1)."""
    return half_deck(seed, 1) + half_deck(seed, 2)


def _shuffled(items: list[Any], key: str) -> list[Any]:
    """Fisher-Yates over `random()` alone (stable across Python versions), seeded by text."""
    rng = random.Random(key)
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = min(int(rng.random() * (i + 1)), i)
        out[i], out[j] = out[j], out[i]
    return out


def round_cards(seed: int, rules: str, round_number: int) -> list[dict[str, Any]]:
    """The round's 48 card sides (`round_decks.round_deck`) in the round's shuffled order."""
    cards = round_deck(seed, rules, round_number)
    return _shuffled(cards, f"t24/tournament/{seed}/round/{round_number}")


def table_order(seed: int, round_number: int, table: str, card_ids: list[str]) -> list[str]:
    """A per-table shuffle (option `per_table_shuffle`): the table's own order of the cards."""
    return _shuffled(card_ids, f"t24/tournament/{seed}/round/{round_number}/table/{table}")


def tie_break_seed(seed: int, number: int) -> int:
    """The seed of tie-break `number`'s fresh deck (R-ROUND-6)."""
    return (seed + number * TIE_BREAK_SEED_STRIDE) % 2**31


def tie_break_cards(seed: int, rules: str, round_number: int, number: int) -> list[dict[str, Any]]:
    """R-ROUND-6: a fresh deck of the broken round's edition and side, for tie-break `number`."""
    half, side = round_half_and_side(rules, round_number)
    cards = [
        {"card_id": f"TB{number}-{card.card_id}", **card.side(side).as_dict()}
        for card in half_deck(tie_break_seed(seed, number), half)
    ]
    return _shuffled(cards, f"t24/tournament/{seed}/tie-break/{number}")
