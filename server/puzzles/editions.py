"""Deck generators: the same seed gives the same deck on every machine, years later.

What this module keeps:
- R-DECK-1: a tournament deck is 96 double-sided cards (red side, white side) in two halves of
  48, made from one seed; on each side of each half 12 cards are worth 1 dot, 24 are worth 2,
  12 are worth 3 (the seed states the mix for the first half's red side; the rest is our
  decision). Both sides of one card carry the same dots, as on the printed cards. No side is
  repeated anywhere in the 96 cards. The first half is the same as when a deck was 48 cards
  (the second half is drawn after it from the same generator), so recorded decks still match.
- R-DECK-2: *Single Digits* uses whole numbers 1..9; *Double Digits* uses 1..24 with at least
  one number of 10 or more on each side.
- R-PUZ-4: every side is solvable under R-PUZ-2 (three binary steps), which for four numbers
  is exactly `solver.solvable`. No two sides of one deck show the same four numbers.
- R-DECK40-1: the casual 40-card deck is ace (1) to 10 in four suits.

How: candidate sides are drawn from a seeded generator and kept when they are solvable, new,
and their dot class still has room; then the sides of each class are paired into cards and the
cards shuffled. Only `random.Random.random()` is used (with our own Fisher-Yates shuffle and
index picking), because Python guarantees that sequence for a given seed across versions, while
`randrange`, `choice` and `shuffle` carry no such promise. String seeds use Python's stable
version-2 seeding (SHA-512 of the text).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeVar

from server.puzzles.difficulty import dots as card_dots
from server.puzzles.solver import solvable

CARDS_PER_HALF = 48
HALVES = (1, 2)  # R-DECK-1: a 96-card deck in two halves
DOT_MIX = {1: 12, 2: 24, 3: 12}  # R-DECK-1, per side
EDITIONS = ("single-digits", "double-digits")
SUITS = ("clubs", "diamonds", "hearts", "spades")
MAX_DRAWS = 50_000  # a deck needs a few hundred draws; this only guards against a bad rule
DECKS_CACHED = 16  # `tournament_deck`'s cache: a deck is about 30 KB of objects

T = TypeVar("T")


@dataclass(frozen=True)
class CardSide:
    """One printed side: four numbers and the dots it is worth (R-DECK-3)."""

    numbers: tuple[int, ...]
    dots: int

    def as_dict(self) -> dict[str, object]:
        return {"numbers": list(self.numbers), "dots": self.dots}


@dataclass(frozen=True)
class TournamentCard:
    """A double-sided 24 Challenge card (R-DECK-1)."""

    card_id: str
    red: CardSide
    white: CardSide

    def side(self, colour: str) -> CardSide:
        """The side by name, "red" or "white" (R-DECK-5 picks it per round)."""
        if colour not in ("red", "white"):
            raise ValueError(f"a side is 'red' or 'white', not {colour!r}")
        return self.red if colour == "red" else self.white

    def as_dict(self) -> dict[str, object]:
        return {"card_id": self.card_id, "red": self.red.as_dict(), "white": self.white.as_dict()}


@dataclass(frozen=True)
class PlayingCard:
    """An ordinary playing card of the 40-card deck; its number is its rank (R-DECK40-1)."""

    suit: str
    rank: int  # ace = 1 .. 10

    def as_dict(self) -> dict[str, object]:
        return {"suit": self.suit, "rank": self.rank}


def _pick(rng: random.Random, count: int) -> int:
    """An index in range(count) from `random()` alone (stable across Python versions)."""
    return min(int(rng.random() * count), count - 1)


def _shuffled(rng: random.Random, items: Sequence[T]) -> list[T]:
    """Fisher-Yates over `random()` alone."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = _pick(rng, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def _draw_sides(
    rng: random.Random,
    low: int,
    high: int,
    rule: Callable[[tuple[int, ...]], bool],
    seen: set[tuple[int, ...]],
) -> dict[int, list[tuple[int, ...]]]:
    """Two sides per card for each dot class, each side solvable and new in the deck (`seen`
    holds every side drawn so far, kept or not, and grows)."""
    wanted = {d: 2 * count for d, count in DOT_MIX.items()}
    chosen: dict[int, list[tuple[int, ...]]] = {d: [] for d in DOT_MIX}
    for _ in range(MAX_DRAWS):
        if all(len(chosen[d]) == wanted[d] for d in DOT_MIX):
            return chosen
        numbers = tuple(low + _pick(rng, high - low + 1) for _ in range(4))
        key = tuple(sorted(numbers))
        if key in seen:
            continue
        seen.add(key)
        if not rule(numbers) or not solvable(numbers):
            continue
        value = card_dots(numbers)
        if len(chosen[value]) < wanted[value]:
            chosen[value].append(numbers)
    raise RuntimeError(f"could not fill the dot mix from {low}..{high} in {MAX_DRAWS} draws")


def _tournament_deck(
    edition: str,
    prefix: str,
    seed: int,
    low: int,
    high: int,
    rule: Callable[[tuple[int, ...]], bool],
    half: int = 1,
) -> tuple[TournamentCard, ...]:
    """Half `half` (1 or 2) of the edition's 96-card deck for `seed` (R-DECK-1)."""
    if half not in HALVES:
        raise ValueError(f"a deck has halves 1 and 2, not {half!r}")
    rng = random.Random(f"t24/{edition}/{seed}")
    seen: set[tuple[int, ...]] = set()
    cards: tuple[TournamentCard, ...] = ()
    for number in range(1, half + 1):  # the second half is drawn after the first
        sides = _draw_sides(rng, low, high, rule, seen)
        pairs: list[tuple[CardSide, CardSide]] = []
        for value, count in DOT_MIX.items():
            group = sides[value]
            pairs.extend(
                (CardSide(group[i], value), CardSide(group[count + i], value)) for i in range(count)
            )
        first = 1 + (number - 1) * CARDS_PER_HALF
        cards = tuple(
            TournamentCard(f"{prefix}-{index:02d}", red, white)
            for index, (red, white) in enumerate(_shuffled(rng, pairs), start=first)
        )
    return cards


def single_digits(seed: int, half: int = 1) -> tuple[TournamentCard, ...]:
    """48 Single Digits cards (numbers 1..9, R-DECK-2), 12/24/12 dots per side (R-DECK-1):
    half 1 (SD-01..SD-48) or half 2 (SD-49..SD-96) of the seed's 96-card deck."""
    return _tournament_deck("single-digits", "SD", seed, 1, 9, lambda numbers: True, half)


def double_digits(seed: int, half: int = 1) -> tuple[TournamentCard, ...]:
    """48 Double Digits cards (1..24, at least one number >= 10 per side, R-DECK-2)."""
    return _tournament_deck(
        "double-digits", "DD", seed, 1, 24, lambda numbers: max(numbers) >= 10, half
    )


@lru_cache(maxsize=DECKS_CACHED, typed=True)
def tournament_deck(edition: str, seed: int, half: int = 1) -> tuple[TournamentCard, ...]:
    """Half `half` (1 or 2) of an edition's 96-card deck: "single-digits" or "double-digits".

    Cached (the last `DECKS_CACHED`; a deck is immutable): a pocket table draws its stack
    here on every `start_game` decided, and a draw scores every candidate side (a Single
    Digits half 0.05-0.2 s, a Double Digits half 0.6-0.8 s); tables and tests that start
    again from one seed draw it once. `typed`: the seed's text seeds the generator, so 1 and
    True (or 1.0) are other decks, never one cached for the other."""
    if edition == "single-digits":
        return single_digits(seed, half)
    if edition == "double-digits":
        return double_digits(seed, half)
    raise ValueError(f"unknown edition {edition!r}; known: {', '.join(EDITIONS)}")


def playing_card_deck(seed: int) -> tuple[PlayingCard, ...]:
    """The 40 cards ace..10 of four suits, shuffled by the seed (R-DECK40-1)."""
    rng = random.Random(f"t24/deck40/{seed}")
    cards = [PlayingCard(suit, rank) for suit in SUITS for rank in range(1, 11)]
    return tuple(_shuffled(rng, cards))
