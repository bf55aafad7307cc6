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
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from server.puzzles import variables
from server.puzzles.difficulty import dots as card_dots
from server.puzzles.difficulty import dots_for_score
from server.puzzles.solver import solvable

CARDS_PER_HALF = 48
HALVES = (1, 2)  # R-DECK-1: a 96-card deck in two halves
DOT_MIX = {1: 12, 2: 24, 3: 12}  # R-DECK-1, per side
SINGLE_DIGITS, DOUBLE_DIGITS, VARIABLES = "single-digits", "double-digits", "variables"
# The editions of four-number cards (what a pocket table or a tournament round can play
# alone); Variables sides show two wheels of three numbers instead (Q1).
EDITIONS = (SINGLE_DIGITS, DOUBLE_DIGITS)
ALL_EDITIONS = (*EDITIONS, VARIABLES)
VARIABLES_HIGH = 24  # a wheel's numbers are 1..24 (the published example: 6 6 2, 20 22 24)
SUITS = ("clubs", "diamonds", "hearts", "spades")
MAX_DRAWS = 50_000  # a deck needs a few hundred draws; this only guards against a bad rule
DECKS_CACHED = 32  # `tournament_deck`'s cache: a deck is about 30 KB of objects; a tournament
# under the Special Instructions needs five (and its next tie-break five more)

T = TypeVar("T")


@dataclass(frozen=True)
class CardSide:
    """One printed side: four numbers and the dots it is worth (R-DECK-3); a Variables side
    (Q1) also has its two `wheels`, and its `numbers` are both wheels' six."""

    numbers: tuple[int, ...]
    dots: int
    wheels: tuple[tuple[int, ...], ...] | None = None

    def as_dict(self) -> dict[str, object]:
        """A table's `deck` entry without its id: `numbers`, or a Variables side's `wheels`."""
        if self.wheels is not None:
            return {"wheels": [list(wheel) for wheel in self.wheels], "dots": self.dots}
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


Drawn = TypeVar("Drawn", tuple[int, ...], tuple[tuple[int, ...], ...])


def _draw_sides(
    rng: random.Random,
    draw: Callable[[random.Random], tuple[Hashable, Drawn]],
    rate: Callable[[Drawn, frozenset[int]], int | None],
    seen: set[Hashable],
) -> dict[int, list[Drawn]]:
    """Two sides per card for each dot class. `draw` makes a candidate and the key that says
    when two are the same side; `rate` gives its dots, or None to drop it (the edition's rule,
    R-PUZ-4). A key in `seen` (every side drawn so far in the deck, kept or not; it grows) is
    drawn again. `rate` is told the dot classes that still have room, so it may stop early
    for a candidate it can tell would not fit (which is then dropped, as it would be)."""
    wanted = {d: 2 * count for d, count in DOT_MIX.items()}
    chosen: dict[int, list[Drawn]] = {d: [] for d in DOT_MIX}
    for _ in range(MAX_DRAWS):
        if all(len(chosen[d]) == wanted[d] for d in DOT_MIX):
            return chosen
        key, drawn = draw(rng)
        if key in seen:
            continue
        seen.add(key)
        room = frozenset(d for d in DOT_MIX if len(chosen[d]) < wanted[d])
        value = rate(drawn, room)
        if value is not None and len(chosen[value]) < wanted[value]:
            chosen[value].append(drawn)
    raise RuntimeError(f"could not fill the dot mix in {MAX_DRAWS} draws")


def _numbers_edition(
    low: int, high: int, rule: Callable[[tuple[int, ...]], bool]
) -> tuple[
    Callable[[random.Random], tuple[Hashable, tuple[int, ...]]],
    Callable[[tuple[int, ...], frozenset[int]], int | None],
    Callable[[tuple[int, ...], int], CardSide],
]:
    """Draw, rate and make the sides of a four-number edition: numbers `low..high` that
    meet `rule` and are solvable (R-PUZ-4)."""

    def draw(rng: random.Random) -> tuple[Hashable, tuple[int, ...]]:
        numbers = tuple(low + _pick(rng, high - low + 1) for _ in range(4))
        return tuple(sorted(numbers)), numbers

    def rate(numbers: tuple[int, ...], room: frozenset[int]) -> int | None:
        if not rule(numbers) or not solvable(numbers):
            return None
        return card_dots(numbers)

    return draw, rate, CardSide


def _variables_edition() -> tuple[
    Callable[[random.Random], tuple[Hashable, tuple[tuple[int, ...], ...]]],
    Callable[[tuple[tuple[int, ...], ...], frozenset[int]], int | None],
    Callable[[tuple[tuple[int, ...], ...], int], CardSide],
]:
    """Draw, rate and make Variables sides (`server.puzzles.variables`): two wheels of three
    numbers 1..24 with exactly one x of 1..9 that makes 24 with each."""

    def draw(rng: random.Random) -> tuple[Hashable, tuple[tuple[int, ...], ...]]:
        numbers = [1 + _pick(rng, VARIABLES_HIGH) for _ in range(2 * variables.WHEEL_SIZE)]
        wheels = (tuple(numbers[:3]), tuple(numbers[3:]))
        return tuple(sorted(tuple(sorted(wheel)) for wheel in wheels)), wheels

    def rate(wheels: tuple[tuple[int, ...], ...], room: frozenset[int]) -> int | None:
        values = variables.variable_values(wheels)
        if len(values) != 1:
            return None
        # A side's dots are those of its harder wheel, so its first wheel's are a floor: a
        # side whose floor leaves no class with room is dropped after one solve, not two.
        floor = dots_for_score(variables.wheel_score(wheels[0], values[0]))
        if not any(value >= floor for value in room):
            return None
        return variables.dots(wheels)

    def make(wheels: tuple[tuple[int, ...], ...], value: int) -> CardSide:
        return CardSide(wheels[0] + wheels[1], value, wheels)

    return draw, rate, make


def _tournament_deck(
    edition: str,
    prefix: str,
    seed: int,
    sides: tuple[Any, Any, Callable[[Any, int], CardSide]],
    half: int = 1,
) -> tuple[TournamentCard, ...]:
    """Half `half` (1 or 2) of the edition's 96-card deck for `seed` (R-DECK-1); `sides` is
    the edition's draw, rate and make (`_numbers_edition`, `_variables_edition`)."""
    if half not in HALVES:
        raise ValueError(f"a deck has halves 1 and 2, not {half!r}")
    draw, rate, make = sides
    rng = random.Random(f"t24/{edition}/{seed}")
    seen: set[Hashable] = set()
    cards: tuple[TournamentCard, ...] = ()
    for number in range(1, half + 1):  # the second half is drawn after the first
        drawn = _draw_sides(rng, draw, rate, seen)
        pairs: list[tuple[CardSide, CardSide]] = []
        for value, count in DOT_MIX.items():
            group = drawn[value]
            pairs.extend(
                (make(group[i], value), make(group[count + i], value)) for i in range(count)
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
    sides = _numbers_edition(1, 9, lambda numbers: True)
    return _tournament_deck(SINGLE_DIGITS, "SD", seed, sides, half)


def double_digits(seed: int, half: int = 1) -> tuple[TournamentCard, ...]:
    """48 Double Digits cards (1..24, at least one number >= 10 per side, R-DECK-2)."""
    sides = _numbers_edition(1, 24, lambda numbers: max(numbers) >= 10)
    return _tournament_deck(DOUBLE_DIGITS, "DD", seed, sides, half)


def variables_cards(seed: int, half: int = 1) -> tuple[TournamentCard, ...]:
    """48 Variables cards (VAR-01..VAR-48, or VAR-49..VAR-96 for half 2), 12/24/12 dots per
    side: two wheels of three numbers 1..24 and exactly one x of 1..9 that makes 24 with
    each (R-DECK-2, Q1; `server.puzzles.variables`). A side's `numbers` are both wheels."""
    return _tournament_deck(VARIABLES, "VAR", seed, _variables_edition(), half)


def draw_deck(edition: str, seed: int, half: int = 1) -> tuple[TournamentCard, ...]:
    """Half `half` (1 or 2) of an edition's 96-card deck, drawn now (not cached): what
    `tournament_deck` caches, and what a worker process draws for the server (issue 32)."""
    if edition == SINGLE_DIGITS:
        return single_digits(seed, half)
    if edition == DOUBLE_DIGITS:
        return double_digits(seed, half)
    if edition == VARIABLES:
        return variables_cards(seed, half)
    raise ValueError(f"unknown edition {edition!r}; known: {', '.join(ALL_EDITIONS)}")


class CacheInfo(NamedTuple):
    """What `functools.lru_cache` reports, for the same questions."""

    hits: int
    misses: int
    maxsize: int
    currsize: int


DeckKey = tuple[object, ...]


class DeckCache:
    """`tournament_deck`: `draw_deck` with the last `maxsize` decks kept, least recently used
    dropped first, and a seed of another type another deck (as `lru_cache(typed=True)`).

    Why not `lru_cache`: the server draws a deck it will need in a worker process, off its
    reactor (server/runtime/offload.py, issue 32), and installs it here (`remember`), so the
    game's own call finds it; `lru_cache` cannot be given a value. A lock, because a CLI or a
    test may draw from threads."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._decks: OrderedDict[DeckKey, tuple[TournamentCard, ...]] = OrderedDict()
        self._lock = threading.Lock()
        self._hits = self._misses = 0

    @staticmethod
    def _key(edition: str, seed: int, half: int) -> DeckKey:
        return (edition, seed, type(seed), half, type(half))

    def __call__(self, edition: str, seed: int, half: int = 1) -> tuple[TournamentCard, ...]:
        key = self._key(edition, seed, half)
        with self._lock:
            found = self._decks.get(key)
            if found is not None:
                self._decks.move_to_end(key)
                self._hits += 1
                return found
            self._misses += 1
        cards = draw_deck(edition, seed, half)
        self.remember(edition, seed, half, cards)
        return cards

    def cached(self, edition: str, seed: int, half: int = 1) -> bool:
        """Whether the deck is kept (a call returns it without drawing)."""
        with self._lock:
            return self._key(edition, seed, half) in self._decks

    def remember(
        self, edition: str, seed: int, half: int, cards: tuple[TournamentCard, ...]
    ) -> None:
        """Keep a deck drawn elsewhere (the same `draw_deck`, in another process)."""
        key = self._key(edition, seed, half)
        with self._lock:
            self._decks[key] = cards
            self._decks.move_to_end(key)
            while len(self._decks) > self.maxsize:
                self._decks.popitem(last=False)

    def cache_clear(self) -> None:
        with self._lock:
            self._decks.clear()
            self._hits = self._misses = 0

    def cache_info(self) -> CacheInfo:
        with self._lock:
            return CacheInfo(self._hits, self._misses, self.maxsize, len(self._decks))


tournament_deck = DeckCache(DECKS_CACHED)
tournament_deck.__doc__ = """Half `half` (1 or 2) of an edition's 96-card deck: "single-digits",
"double-digits" or "variables" (`ALL_EDITIONS`).

Cached (the last `DECKS_CACHED`; a deck is immutable): a pocket table draws its stack here on
every `start_game` decided, and a draw scores every candidate side (a Single Digits half
0.05-0.2 s, a Double Digits half 0.6-0.8 s, a Variables half a few seconds); tables and tests
that start again from one seed draw it once, and the server draws the ones it will need off
its reactor first (server/runtime/offload.py). A seed of another type is another deck, never
one cached for the other: the seed's text seeds the generator, so 1 and True differ."""


def playing_card_deck(seed: int) -> tuple[PlayingCard, ...]:
    """The 40 cards ace..10 of four suits, shuffled by the seed (R-DECK40-1)."""
    rng = random.Random(f"t24/deck40/{seed}")
    cards = [PlayingCard(suit, rank) for suit in SUITS for rank in range(1, 11)]
    return tuple(_shuffled(rng, cards))
