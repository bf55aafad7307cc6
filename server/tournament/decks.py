"""A tournament's cards: the cards each round plays, in which order (R-DECK-1, R-DECK-2,
R-DECK-5, R-ROUND-6).

What this module keeps:
- Which cards each round plays, on which side, is `server.puzzles.round_decks` (the one
  table, shared with a single table's deck and the reference CLI), read with the
  tournament's `rules` document and `edition`; this module adds what only a tournament does
  with it:
- "Make sure that all tables are using the same cards": every table of a round gets the same
  cards in the same shuffled order, unless the tournament's `per_table_shuffle` is set.
- R-ROUND-6: a tie-break plays "a fresh deck of the same edition": the cards of the round it
  breaks (same edition, half and side) drawn from a seed derived from the tournament's seed
  and the tie-break's number.

Why derived from the seed and still recorded: the shuffle is a pure function of the recorded
seed (no random choice in `decide`), and the round's cards are written in `RoundStarted` and
each table's `TableCreated`, so a replay never depends on the generator.
"""

from __future__ import annotations

import random
from typing import Any

from server.puzzles.round_decks import RoundPlan, draws_needed, round_deck, round_plan
from server.tournament.options import TournamentOptions

__all__ = [
    "draws_ahead",
    "plan_of",
    "round_cards",
    "table_order",
    "tie_break_cards",
    "tie_break_seed",
]

TIE_BREAK_SEED_STRIDE = 1_000_003  # a tie-break's fresh deck: seed + n * stride (mod 2**31)


def plan_of(options: TournamentOptions, round_number: int) -> RoundPlan:
    """R-DECK-5: the edition, half and side the tournament's round plays."""
    return round_plan(options.rules, round_number, options.edition)


def _shuffled(items: list[Any], key: str) -> list[Any]:
    """Fisher-Yates over `random()` alone (stable across Python versions), seeded by text."""
    rng = random.Random(key)
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = min(int(rng.random() * (i + 1)), i)
        out[i], out[j] = out[j], out[i]
    return out


def round_cards(options: TournamentOptions, round_number: int) -> list[dict[str, Any]]:
    """The round's 48 card sides (`round_decks.round_deck`) in the round's shuffled order."""
    seed = options.deck_seed
    cards = round_deck(seed, options.rules, round_number, edition=options.edition)
    return _shuffled(cards, f"t24/tournament/{seed}/round/{round_number}")


def table_order(seed: int, round_number: int, table: str, card_ids: list[str]) -> list[str]:
    """A per-table shuffle (option `per_table_shuffle`): the table's own order of the cards."""
    return _shuffled(card_ids, f"t24/tournament/{seed}/round/{round_number}/table/{table}")


def tie_break_seed(seed: int, number: int) -> int:
    """The seed of tie-break `number`'s fresh deck (R-ROUND-6)."""
    return (seed + number * TIE_BREAK_SEED_STRIDE) % 2**31


def tie_break_cards(
    options: TournamentOptions, round_number: int, number: int
) -> list[dict[str, Any]]:
    """R-ROUND-6: a fresh deck of the broken round's edition, half and side, for tie-break
    `number` (card ids prefixed `TB<number>-`)."""
    fresh = tie_break_seed(options.deck_seed, number)
    cards = [
        {**card, "card_id": f"TB{number}-{card['card_id']}"}
        for card in round_deck(fresh, options.rules, round_number, edition=options.edition)
    ]
    return _shuffled(cards, f"t24/tournament/{options.deck_seed}/tie-break/{number}")


def draws_ahead(options: TournamentOptions, tie_breaks: int) -> list[tuple[str, int, int]]:
    """The (edition, seed, half) draws the next `start_round` or tie-break may need: the
    tournament's own, then those of tie-break `tie_breaks + 1` (`editions.tournament_deck`
    takes them; drawn ahead, they are cached)."""
    next_tie_break = tie_break_seed(options.deck_seed, tie_breaks + 1)
    return draws_needed(options.rules, options.edition, options.deck_seed) + draws_needed(
        options.rules, options.edition, next_tie_break
    )
