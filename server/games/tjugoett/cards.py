"""The cards of Tjugoett: the 52-card deck, what a hand is worth, and how a deck is shuffled.

What this module keeps (shared/rules/tjugoett.md):
- R-21-1: a French-English deck of 52 cards, four suits (clubs C, diamonds D, hearts H,
  spades S), thirteen ranks (A, 2..10, J, Q, K). A card is a short code, rank then suit:
  `AC`, `10H`, `QS`. Codes are what events record.
- R-21-2: an ace counts 1 or 14, king 13, queen 12, jack 11, a number card its number. A
  hand's value is the best total not over 21 over all the ace choices; if there is none, the
  smallest total (the hand is bust). Two aces at 14 already make 28, so at most one ace ever
  counts 14: the value is the all-ones total, plus 13 when the hand has an ace and that
  still fits under 22.
- R-21-3 / R-21-21: `shuffled(cards, seed, label)` is the one shuffle of the game. It is a
  Fisher-Yates shuffle driven by SHA-256 of the table's secret seed and a label naming the
  shuffle (`round 3`, `round 3 reshuffle 1`), so it is a pure function: `decide` calls it and
  records the order it gives in the event (`RoundStarted.order`, `DiscardsReshuffled.order`);
  `evolve` reads only the recorded order. Replay therefore never shuffles, and a change to
  this function can never change a recorded game.
- The server dealer's stand policy (`server_dealer_stands`): it looks at the dealer's own
  cards only, never at the player's (R-21-19 holds for the server's dealer too).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import count

SUITS = ("C", "D", "H", "S")  # clubs, diamonds, hearts, spades (R-21-1)
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
FACE_VALUES = {"J": 11, "Q": 12, "K": 13}  # R-21-2
ACE_LOW, ACE_HIGH = 1, 14  # R-21-2
TWENTY_ONE = 21
MAX_CARDS = 5  # R-21-6, R-21-8, R-21-16
MIN_STAND_CARDS = 2  # R-21-11 (and, by decision, the dealer's stand)

DECK: tuple[str, ...] = tuple(rank + suit for suit in SUITS for rank in RANKS)
CARDS = frozenset(DECK)


def rank_of(card: str) -> str:
    """The rank part of a card code (`10H` -> `10`)."""
    return card[:-1]


def card_points(card: str) -> int:
    """R-21-2: a card's points with an ace counted low (1); `hand_value` decides the ace."""
    rank = rank_of(card)
    if rank == "A":
        return ACE_LOW
    return FACE_VALUES.get(rank) or int(rank)


def hand_value(cards: Iterable[str]) -> int:
    """R-21-2: the best total not over 21 over every ace choice; else the smallest (bust).

    Why only one ace is ever raised: raising an ace adds 13, and two raised aces already make
    28 > 21, so "best not over 21" means "raise one ace if the total still fits".
    """
    cards = list(cards)
    low = sum(card_points(card) for card in cards)
    has_ace = any(rank_of(card) == "A" for card in cards)
    if has_ace and low + (ACE_HIGH - ACE_LOW) <= TWENTY_ONE:
        return low + (ACE_HIGH - ACE_LOW)
    return low


def is_deck_order(order: object) -> bool:
    """True when `order` is a list of the 52 card codes, each once (R-21-1)."""
    return (
        isinstance(order, list | tuple)
        and len(order) == len(DECK)
        and all(isinstance(card, str) for card in order)
        and set(order) == CARDS
    )


# -- the shuffle (R-21-3, R-21-21) -------------------------------------------------------------


DRAW = 1 << 64  # each draw of the shuffle is a 64-bit number


def _draws(seed: str, label: str) -> Iterator[int]:
    """The stream of draws of the shuffle named `label` of a table with `seed`: the first 8
    bytes, big-endian, of SHA-256 of (seed, label, n) for n = 0, 1, 2, ..."""
    for n in count():
        yield int.from_bytes(hashlib.sha256(f"{seed}\x00{label}\x00{n}".encode()).digest()[:8])


def _below(draws: Iterator[int], bound: int) -> int:
    """A uniform integer in [0, bound) from the next draws.

    Rejection sampling keeps it exactly uniform: a draw in the last, incomplete run of
    `bound` values below 2**64 (at or above `limit`) is skipped for the next one.
    """
    limit = DRAW - DRAW % bound
    while True:
        value = next(draws)
        if value < limit:
            return value % bound


def shuffled(cards: Sequence[str], seed: str, label: str) -> list[str]:
    """`cards` in the order the shuffle named `label` of a table with `seed` gives (top first).

    A pure function of its arguments (see the module docstring): the caller records the
    result as event data, so replay reads the order instead of shuffling again.
    """
    order = list(cards)
    draws = _draws(seed, label)
    for index in range(len(order) - 1, 0, -1):
        other = _below(draws, index + 1)
        order[index], order[other] = order[other], order[index]
    return order


def round_label(round_number: int) -> str:
    """The label of the shuffle before round `round_number` (R-21-3)."""
    return f"round {round_number}"


def reshuffle_label(round_number: int, reshuffle: int) -> str:
    """The label of the `reshuffle`-th rebuild of the draw pile in a round (R-21-21)."""
    return f"round {round_number} reshuffle {reshuffle}"


# -- the dealer's policy --------------------------------------------------------------------


def server_dealer_stands(cards: Sequence[str], stands_at: int) -> bool:
    """The server dealer stands with at least two cards and a value of `stands_at` or more.

    Why only the dealer's own cards: R-21-19, the player's cards and sum are unknown to the
    dealer until after the dealer has stood, and the server's dealer keeps that rule too.
    """
    return len(cards) >= MIN_STAND_CARDS and hand_value(cards) >= stands_at


# -- outcomes of a turn (R-21-7..9, R-21-15..18) ----------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """Who won a turn, why (a stable reason code) and the rule that says so."""

    winner: str  # "player" or "dealer"
    reason: str
    rule: str


def player_verdict(cards: Sequence[str]) -> Verdict | None:
    """The outcome a player's hand decides at once, or None while the player plays on.

    R-21-7: 21 wins. R-21-9: over 21 is bust and loses. R-21-8: five cards under 21 win.
    """
    value = hand_value(cards)
    if value > TWENTY_ONE:
        return Verdict("dealer", "bust", "R-21-9")
    if value == TWENTY_ONE:
        return Verdict("player", "twenty_one", "R-21-7")
    if len(cards) == MAX_CARDS:
        return Verdict("player", "five_cards", "R-21-8")
    return None


def dealer_verdict(cards: Sequence[str]) -> Verdict | None:
    """The outcome the dealer's hand decides at once, or None while the dealer plays on.

    R-21-15: 21 wins for the dealer. R-21-17: over 21 the dealer is bust and loses.
    R-21-16: five cards under 21 win for the dealer.
    """
    value = hand_value(cards)
    if value > TWENTY_ONE:
        return Verdict("player", "dealer_bust", "R-21-17")
    if value == TWENTY_ONE:
        return Verdict("dealer", "dealer_twenty_one", "R-21-15")
    if len(cards) == MAX_CARDS:
        return Verdict("dealer", "dealer_five_cards", "R-21-16")
    return None


def stand_verdict(dealer_sum: int, player_sum: int) -> Verdict:
    """R-21-18: a standing dealer under 21 wins at or above the player's sum; below it, the
    player wins (the decision for the case the rule leaves open)."""
    if dealer_sum >= player_sum:
        return Verdict("dealer", "dealer_at_or_above", "R-21-18")
    return Verdict("player", "dealer_below", "R-21-18")
