"""Which cards each round of a 24 Challenge tournament plays (R-DECK-1, R-DECK-2, R-DECK-5):
the one table, for a tournament (`server.tournament.decks`) and a single table
(`server.games.challenge.options`, `t24 admin create-table`) alike.

What it keeps:
- R-DECK-1: a tournament plays one 96-card deck: two halves of 48 double-sided cards. Half 1
  is the *Single Digits* edition, half 2 the *Double Digits* edition (R-DECK-2), both drawn
  by `server.puzzles.editions` from the same seed (the first 48 cards of each edition's deck;
  their sides cannot repeat across halves: a Double Digits side has a number of 10 or more).
- R-DECK-5, per rules document, the (half, side) of each round:

  | round | official (default) | guidelines |
  |---|---|---|
  | 1 | half 1, red | half 1 (Single Digits), white |
  | 2 | half 1, white ("the same 48 cards flipped") | half 2 (Double Digits), red |
  | 3 | half 2, red ("the second half") | half 1, red (decision: the side not played yet) |
  | 4 | half 2, white | half 2, white (decision: the side not played yet) |

Why this reading (docs/rules.md, "Which cards a round plays"): the Official Rules play the same
48 cards in rounds 1 and 2 and the second half in rounds 3-4; the Guidelines play two
editions in rounds 1 and 2 ("Single Digits cards white side up", "Double Digits cards red
side up"), which in one 96-card deck are its two halves. Reading the Guidelines' round 2 as
"the first half again" would play the round-1 cards flipped, not Double Digits cards, or
need a second 96-card deck. Under both documents every side of the deck is played once.

Why in `server/puzzles`: the reference CLI builds a table's deck too, and it may import only
the protocol and the pure arithmetic of 24 (docs/architecture.md).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from server.puzzles.editions import TournamentCard, double_digits, single_digits

DOCUMENTS = ("official", "guidelines")  # R-DECK-5: the tournament picks one; the first is default
HALF_EDITIONS = {1: "single-digits", 2: "double-digits"}  # R-DECK-1/2: the deck's two halves
# (half, side) per round, per rules document (R-DECK-5; the module table).
ROUND_SIDES: dict[str, dict[int, tuple[int, str]]] = {
    "official": {1: (1, "red"), 2: (1, "white"), 3: (2, "red"), 4: (2, "white")},
    "guidelines": {1: (1, "white"), 2: (2, "red"), 3: (1, "red"), 4: (2, "white")},
}


def round_half_and_side(document: str, round_number: int) -> tuple[int, str]:
    """R-DECK-5: which half of the 96-card deck, on which side, round `round_number` plays."""
    if document not in ROUND_SIDES:
        raise ValueError(f"a rules document is one of {', '.join(DOCUMENTS)}, not {document!r}")
    if round_number not in ROUND_SIDES[document]:
        raise ValueError(f"a round is 1, 2, 3 or 4, not {round_number!r}")
    return ROUND_SIDES[document][round_number]


@lru_cache(maxsize=16)
def half_deck(seed: int, half: int) -> tuple[TournamentCard, ...]:
    """Half 1 (Single Digits) or half 2 (Double Digits) of the 96-card deck (R-DECK-1/2).

    Cached: a Double Digits half takes seconds to draw, and every round uses one."""
    return single_digits(seed) if half == 1 else double_digits(seed)


def round_deck(
    seed: int, document: str, round_number: int, side: str | None = None
) -> list[dict[str, Any]]:
    """The round's 48 card sides in deck order, as table `deck` entries (`card_id`,
    `numbers`, `dots`): its half on its side (R-DECK-5), or on `side` when given."""
    half, round_side = round_half_and_side(document, round_number)
    chosen = side or round_side
    return [
        {"card_id": card.card_id, **card.side(chosen).as_dict()} for card in half_deck(seed, half)
    ]
