"""The options of a pocket-edition casual table (R-POCKET-1, R-POCKET-3): defaults, validation,
and the stack drawn from a deck edition.

What this module keeps:
- Options are plain msgpack-able data recorded in `TableCreated`. `table_options(raw)` reads
  them into a frozen `PocketOptions` or refuses them with `RuleViolation("invalid_options")`
  naming the field, before anything is recorded.
- A given stack must hold only cards with a solution (R-PUZ-4, the card text's "every card
  has at least one solution"): `check_new_table`, run when a table is created, never when its
  recorded options are read back.
- The stack is either given in order (`stack`: a list of `{card_id, numbers, dots}`, top
  first) or drawn by `stack_from_edition` from an edition, a seed, a size and the dot values
  wanted. Either way `start_game` records the stack, in order, in `GameStarted`, so a replay
  never depends on the edition generator.

| option | default | rule |
|---|---|---|
| seats | (required) 1..8 `{"seat", "name"}` | R-POCKET-1 (1 = practice) |
| stack | none: drawn from `edition`/`seed`/`size`/`dots` | R-POCKET-1 |
| edition | "single-digits" | R-POCKET-1 |
| seed | 0 | R-POCKET-1 |
| size | 24 (1..96: the card text only suggests 12..24) | R-POCKET-1 |
| dots | [1, 2, 3] (which dot values to draw) | R-POCKET-1 |
| answer_seconds | 15 | R-POCKET-3 |
| stumped_seconds | none: a card is stumped only when every player agrees | R-POCKET-4 |
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from server.games.base import (
    DEFAULT_LANG,
    LANG_WHY,
    MAX_SECONDS,
    MICROSECONDS,
    RuleViolation,
    SeatInfo,
    read_lang,
    seconds_us,
    short_duration,
)
from server.games.table_options import MAX_NAME, is_int, read_seats
from server.games.table_options import invalid as shared_invalid
from server.puzzles.editions import EDITIONS, tournament_deck
from server.puzzles.solver import solvable

MIN_SEATS, MAX_SEATS = 1, 8
MAX_STACK = 96  # both sides of an edition's 48 cards
MAX_NUMBER = 99

DEFAULT_OPTIONS: Mapping[str, Any] = {
    "seats": [{"seat": "s1", "name": "Seat 1"}, {"seat": "s2", "name": "Seat 2"}],
    "edition": "single-digits",
    "seed": 0,
    "size": 24,
    "dots": [1, 2, 3],
    "answer_seconds": 15,
    "stumped_seconds": None,
    "lang": DEFAULT_LANG,
}
KNOWN = frozenset(DEFAULT_OPTIONS) | {"stack"}


@dataclass(frozen=True)
class PocketCard:
    """One card side of the stack: its id, four numbers and its dots (1, 2 or 3)."""

    card_id: str
    numbers: tuple[int, ...]
    dots: int

    def as_data(self) -> dict[str, Any]:
        """The card as plain data (a `stack` entry, a `CardTurnedUp` payload)."""
        return {"card_id": self.card_id, "numbers": list(self.numbers), "dots": self.dots}


@dataclass(frozen=True)
class PocketOptions:
    """Everything fixed about a pocket table; durations in microseconds."""

    seats: tuple[SeatInfo, ...]
    stack: tuple[PocketCard, ...] | None  # given in order, or None: drawn at start_game
    edition: str = "single-digits"
    seed: int = 0
    size: int = 24
    dots: tuple[int, ...] = (1, 2, 3)
    answer_us: int = 15 * MICROSECONDS
    stumped_us: int | None = None
    lang: str = DEFAULT_LANG  # the language the table opens in (docs/protocol.md, "Words")
    seat_ids: tuple[str, ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "seat_ids", tuple(seat.seat for seat in self.seats))

    def public_data(self) -> dict[str, Any]:
        """The options a player may see (not the stack, nor the seed that would give it)."""
        return {
            "seats": [seat.as_data() for seat in self.seats],
            "edition": self.edition,
            "size": self.size,
            "dots": list(self.dots),
            "answer_seconds": self.answer_us / MICROSECONDS,
            "stumped_seconds": None if self.stumped_us is None else self.stumped_us / MICROSECONDS,
            **({"lang": self.lang} if self.lang != DEFAULT_LANG else {}),
        }


# The rule a refusal of the table's options cites (checks.REFUSALS["invalid_options"] reads it).
OPTIONS_RULE = "R-POCKET-1"


def invalid(name: str, why: str) -> RuleViolation:
    """The refusal of one option, naming it and citing R-POCKET-1."""
    return shared_invalid(name, why, OPTIONS_RULE)


def read_seconds(raw: Mapping[str, Any], name: str, default: float | None) -> int | None:
    """A duration in seconds (0, MAX_SECONDS], kept in microseconds; None stays None."""
    value = raw.get(name, default)
    if value is None:
        return None
    us = seconds_us(value)
    if us is None:
        raise invalid(name, f"seconds in (0, {MAX_SECONDS}], not {value!r}")
    return us


def read_card(entry: object) -> PocketCard:
    """One stack entry from plain data."""
    if not isinstance(entry, Mapping):
        raise invalid("stack", f"each card is a map, not {entry!r}")
    card_id, numbers, dots = entry.get("card_id"), entry.get("numbers"), entry.get("dots")
    if not isinstance(card_id, str) or not 0 < len(card_id) <= MAX_NAME:
        raise invalid("stack", f"a card_id is a string of 1..{MAX_NAME} characters")
    if (
        not isinstance(numbers, list | tuple)
        or len(numbers) != 4
        or not all(is_int(n) and 0 <= n <= MAX_NUMBER for n in numbers)
    ):
        raise invalid("stack", f"card {card_id!r}: four whole numbers 0..{MAX_NUMBER}")
    if not is_int(dots) or dots not in (1, 2, 3):
        raise invalid("stack", f"card {card_id!r}: dots are 1, 2 or 3")
    return PocketCard(card_id, tuple(numbers), dots)


def _read_stack(value: object) -> tuple[PocketCard, ...] | None:
    if value is None:
        return None
    if not isinstance(value, list | tuple) or not 0 < len(value) <= MAX_STACK:
        raise invalid("stack", f"a list of 1..{MAX_STACK} cards")
    stack = tuple(read_card(entry) for entry in value)
    if len({card.card_id for card in stack}) != len(stack):
        raise invalid("stack", "card ids must be distinct")
    return stack


def _read_dots(value: object) -> tuple[int, ...]:
    if (
        not isinstance(value, list | tuple)
        or not value
        or not all(is_int(d) and d in (1, 2, 3) for d in value)
    ):
        raise invalid("dots", "a non-empty list of dot values 1, 2, 3")
    return tuple(sorted(set(value)))


def table_options(raw: Mapping[str, Any]) -> PocketOptions:
    """Read and validate recorded options, filling the defaults (refuses, never repairs: a
    table whose options do not read back could never be replayed)."""
    if not isinstance(raw, Mapping):
        raise RuleViolation("invalid_options", "options are a map", OPTIONS_RULE)
    unknown = sorted(str(name) for name in raw if name not in KNOWN)
    if unknown:
        raise invalid(unknown[0], "unknown option")
    edition = raw.get("edition", DEFAULT_OPTIONS["edition"])
    if edition not in EDITIONS:
        raise invalid("edition", f"one of {', '.join(EDITIONS)}")
    seed = raw.get("seed", 0)
    if not is_int(seed) or not 0 <= seed < 2**63:
        raise invalid("seed", "a whole number >= 0")
    size = raw.get("size", DEFAULT_OPTIONS["size"])
    if not is_int(size) or not 1 <= size <= MAX_STACK:
        raise invalid("size", f"a whole number 1..{MAX_STACK} (R-POCKET-1)")
    answer_us = read_seconds(raw, "answer_seconds", DEFAULT_OPTIONS["answer_seconds"])
    if answer_us is None:  # a claim always has its time (R-POCKET-3); None is for stumped
        raise invalid("answer_seconds", f"seconds in (0, {MAX_SECONDS}], not None")
    lang = read_lang(raw.get("lang", DEFAULT_LANG))
    if lang is None:
        raise invalid("lang", LANG_WHY)
    return PocketOptions(
        seats=read_seats(raw.get("seats"), MIN_SEATS, MAX_SEATS, invalid),
        stack=_read_stack(raw.get("stack")),
        edition=edition,
        seed=seed,
        size=size,
        dots=_read_dots(raw.get("dots", DEFAULT_OPTIONS["dots"])),
        answer_us=answer_us,
        stumped_us=read_seconds(raw, "stumped_seconds", None),
        lang=lang,
    )


DURATIONS = ("answer_seconds", "stumped_seconds")


def check_new_table(raw: Mapping[str, Any]) -> None:
    """Rules a table must meet to be *created*, which its recorded options are not re-judged
    by: durations of at least `base.MIN_SECONDS` (docs/protocol.md, "Durations"), and every
    card of a given `stack` has a solution (R-PUZ-4: the pocket edition's card text says
    "every card has at least one solution"). Raises `invalid_options` naming the option or
    the card; the options must read (`table_options`).

    Why at creation only (the contract's optional `check_new_table`, called by the shell's
    `create_table` and never at replay): the recorded `TableCreated` is the truth a replay
    trusts, so a log recorded before these checks still loads and plays its card (stumped by
    all, set aside as any other). Why no opt-out: unlike a tournament table (`casual`), the
    pocket game *is* the card text's game, and an edition's stack is solvable anyway.
    """
    options = table_options(raw)
    problem = short_duration(raw, DURATIONS)
    if problem:
        raise RuleViolation("invalid_options", problem, OPTIONS_RULE)
    for card in options.stack or ():
        if not solvable(card.numbers):
            numbers = " ".join(map(str, card.numbers))
            raise RuleViolation(
                "invalid_options",
                f"option 'stack': card {card.card_id!r} ({numbers}) has no solution (R-PUZ-4); "
                "every card of the pocket edition has one",
                "R-PUZ-4",
            )


def stack_from_edition(
    edition: str, seed: int, size: int, dots: Sequence[int]
) -> tuple[PocketCard, ...]:
    """R-POCKET-1: count off `size` card sides of the wanted dot values from an edition.

    Why sides and this order: pocket cards are printed on both sides, each side a card of its
    own in play; every red side (in the edition's shuffled order) comes before any white side,
    so a stack of up to 48 never shows two sides of one printed card. Fewer matching sides than
    `size` gives a shorter stack (the option is a suggestion, R-POCKET-1).
    """
    cards = tournament_deck(edition, seed)
    sides = [
        PocketCard(f"{card.card_id}{colour[0]}", card.side(colour).numbers, card.side(colour).dots)
        for colour in ("red", "white")
        for card in cards
    ]
    return tuple(side for side in sides if side.dots in dots)[:size]


def decks_drawn(raw: Mapping[str, Any]) -> list[tuple[str, int, int]]:
    """The edition decks `start_game` will draw (`editions.tournament_deck`'s arguments):
    the shell draws them off its reactor before it records the table (the contract's
    optional `decks_drawn`, server/runtime/offload.py). None for a given stack."""
    options = table_options(raw)
    return [] if options.stack is not None else [(options.edition, options.seed, 1)]


def the_stack(options: PocketOptions) -> tuple[PocketCard, ...]:
    """The stack `start_game` records: the given one, or the one drawn from the edition."""
    if options.stack is not None:
        return options.stack
    return stack_from_edition(options.edition, options.seed, options.size, options.dots)
