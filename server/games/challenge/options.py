"""The options of a 24 Challenge table: the rule defaults, their validation, and the deck.

What this module keeps:
- A table's options are plain msgpack-able data that the shell records in the stream's first
  event (`TableCreated`). `table_options(raw)` reads them into a frozen `TableOptions`, filling
  the defaults of `shared/rules/24-challenge.md`, or refuses them with a `RuleViolation` of
  code `bad_options` that names the field. The shell calls it (through `initial_state`) before
  it records anything, so recorded options always read back. What only a *new* table must
  meet (R-PUZ-4: every card solvable) is `check_new_table`, never run on recorded options.
- Durations are given in seconds (int or float) and kept in microseconds, the unit of `now`.
- The deck is options data too: a list of `{"card_id", "numbers": [4 ints], "dots"}` (a
  Variables side: `{"card_id", "wheels": [[3 ints], [3 ints]], "dots"}`), the side in play
  already chosen, in deck order (top first). `deck_from_cards` builds it from
  `server.puzzles.editions` cards and a side; `tournament_table_deck` reads R-DECK-5's
  table in `server.puzzles.round_decks` (`round_plan`: a round's edition, half and side), the
  one a tournament reads too, so a single table of round N plays the tournament's round-N
  cards.

| option | default | rule |
|---|---|---|
| seats | (required) 3 or 4 `{"seat", "name"}` | R-ROUND-2 |
| round | 1 (1..4) | R-FLAG-3, R-DECK-5 |
| deck | (required) 1..200 cards | R-DECK-1, R-DECK-4 |
| pattern_seconds | 3 | R-PLAY-4 |
| solution_seconds | 15 | R-PLAY-5 |
| no_touch_seconds | 15 | R-PLAY-7 |
| stumped_cards | "replay_at_end" (Official Rules) or "set_aside" | R-PLAY-7 |
| mode | "networked" or "proctored" | R-PLAY-2 |
| flag_limit | 3 in rounds 1-2, 2 in rounds 3-4 | R-FLAG-3 |
| auto_proctor | None, or seconds after a card is resolved to place the next | (decision) |
| auto_reveal_seconds | 1: seconds from an automatic placing to its reveal | (decision) |
| round_seconds | None, or a timed round: it ends this many seconds after it starts | R-ROUND-6 |
| min_seats | 3; 2 at a tie-break table (R-ROUND-6) or a final of two | R-ROUND-2 |
| touch_compensation | false: who touched first by arrival; true: by compensated time | R-PLAY-2 |
| max_credit_ms | 100 (0..250): the most lag credited; the arbitration window | R-PLAY-2 |
| wait_for_students | false; true: no card before the students are there (arrival.py) | (decision) |
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

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
from server.games.table_options import read_seats
from server.puzzles.editions import TournamentCard
from server.puzzles.round_decks import DOCUMENTS, edition_choices, round_deck, round_plan
from server.puzzles.solver import solvable
from server.puzzles.variables import WHEEL_SIZE, WHEELS, has_solution

MODES = ("networked", "proctored")
STUMPED_POLICIES = ("replay_at_end", "set_aside")  # the first is the default (R-PLAY-7)
SIDES = ("red", "white")
MIN_SEATS, MAX_SEATS = 3, 4  # R-ROUND-2: "three or four to a table"
MAX_DECK = 200
MAX_NUMBER = 99  # R-DECK-2: Single Digits 1-9, Double Digits up to 24; 99 leaves headroom
MAX_NAME = 64
MAX_CREDIT_MS = 250  # issue 19: more credit than this would hold every first touch too long

CardId = str | int

# The option defaults of the table above (the seats and the deck have none: a table names its
# own). `flag_limit` None means R-FLAG-3's limit for the round. The game's DEFAULT_OPTIONS.
DEFAULT_OPTIONS: Mapping[str, Any] = {
    "round": 1,
    "pattern_seconds": 3,
    "solution_seconds": 15,
    "no_touch_seconds": 15,
    "stumped_cards": STUMPED_POLICIES[0],
    "mode": MODES[0],
    "flag_limit": None,
    "auto_proctor": None,
    "casual": False,
    "auto_reveal_seconds": 1,
    "round_seconds": None,
    "min_seats": MIN_SEATS,
    "touch_compensation": False,
    "max_credit_ms": 100,
    "wait_for_students": False,
    "lang": DEFAULT_LANG,
}


@dataclass(frozen=True)
class Card:
    """One card side in play: its id, its four numbers (R-PUZ-1) and its dots (R-DECK-3).

    A Variables side (R-DECK-2, Q1: `server.puzzles.variables`) has two `wheels` of three
    numbers instead, and its `numbers` are the six of both wheels, in order."""

    card_id: CardId
    numbers: tuple[int, ...]
    dots: int
    wheels: tuple[tuple[int, ...], ...] | None = None

    def as_data(self) -> dict[str, Any]:
        """The card as a `deck` option entry (plain msgpack-able data)."""
        if self.wheels is not None:
            wheels = [list(wheel) for wheel in self.wheels]
            return {"card_id": self.card_id, "wheels": wheels, "dots": self.dots}
        return {"card_id": self.card_id, "numbers": list(self.numbers), "dots": self.dots}

    def shown(self) -> dict[str, Any]:
        """What a card's placing and reveal say of it besides its id and dots: `numbers`, and
        a Variables side's `wheels` (R-PLAY-1)."""
        if self.wheels is None:
            return {"numbers": list(self.numbers)}
        return {"numbers": list(self.numbers), "wheels": [list(w) for w in self.wheels]}


@dataclass(frozen=True)
class TableOptions:
    """Everything fixed about a table for one round; durations in microseconds."""

    seats: tuple[SeatInfo, ...]
    deck: tuple[Card, ...]
    round: int = 1
    pattern_us: int = 3 * MICROSECONDS
    solution_us: int = 15 * MICROSECONDS
    no_touch_us: int = 15 * MICROSECONDS
    stumped_cards: str = STUMPED_POLICIES[0]
    mode: str = "networked"
    flag_limit: int = 3
    auto_proctor_us: int | None = None
    auto_reveal_us: int = 1 * MICROSECONDS
    casual: bool = False  # R-PUZ-4: a casual table may play a card without a solution
    round_us: int | None = None  # R-ROUND-6: a timed round (tie-breaks)
    min_seats: int = MIN_SEATS
    touch_compensation: bool = False  # R-PLAY-2 over the network (issue 19)
    max_credit_us: int = 100_000
    wait_for_students: bool = False  # no card before the students are there (arrival.py)
    lang: str = DEFAULT_LANG  # the language the table opens in (docs/protocol.md, "Words")
    cards_by_id: Mapping[CardId, Card] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards_by_id", {card.card_id: card for card in self.deck})

    def card(self, card_id: CardId) -> Card:
        """The card with this id (every id in the log comes from the deck)."""
        return self.cards_by_id[card_id]

    def as_data(self) -> dict[str, Any]:
        """The options as plain data with durations in seconds, without the deck (which is
        secret from players and recorded, in order, by `RoundStarted`)."""
        return {
            "seats": [seat.as_data() for seat in self.seats],
            "round": self.round,
            "pattern_seconds": self.pattern_us / MICROSECONDS,
            "solution_seconds": self.solution_us / MICROSECONDS,
            "no_touch_seconds": self.no_touch_us / MICROSECONDS,
            "stumped_cards": self.stumped_cards,
            "mode": self.mode,
            "flag_limit": self.flag_limit,
            "auto_proctor": None
            if self.auto_proctor_us is None
            else self.auto_proctor_us / MICROSECONDS,
            "auto_reveal_seconds": self.auto_reveal_us / MICROSECONDS,
            "casual": self.casual,
            "round_seconds": None if self.round_us is None else self.round_us / MICROSECONDS,
            "min_seats": self.min_seats,
            # Only a compensated table names its compensation: the options every other
            # table records stay exactly as they were (golden payloads, old logs).
            **(
                {"touch_compensation": True, "max_credit_ms": self.max_credit_us // 1000}
                if self.touch_compensation
                else {}
            ),
            **({"wait_for_students": True} if self.wait_for_students else {}),
            **({"lang": self.lang} if self.lang != DEFAULT_LANG else {}),
        }


def _bad(name: str, why: str) -> RuleViolation:
    return RuleViolation("bad_options", f"option {name!r}: {why}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seconds(raw: Mapping[str, Any], name: str) -> int:
    value = raw.get(name)
    us = seconds_us(value)
    if us is None:
        raise _bad(name, f"seconds in (0, {MAX_SECONDS}], not {value!r}")
    return us


def _choice(raw: Mapping[str, Any], name: str, allowed: Sequence[str]) -> str:
    value = raw.get(name)
    if value not in allowed:
        raise _bad(name, f"one of {', '.join(allowed)}, not {value!r}")
    return str(value)


def _read_seats(value: object, min_seats: int = MIN_SEATS) -> tuple[SeatInfo, ...]:
    fewest = f"{min_seats} or" if min_seats == MAX_SEATS - 1 else f"{min_seats} to"
    count = f"a list of {fewest} {MAX_SEATS} seats (R-ROUND-2)"
    return read_seats(value, min_seats, MAX_SEATS, _bad, count)


def read_card(entry: object) -> Card:
    """One deck entry from plain data; raises `bad_options` naming what is wrong."""
    if not isinstance(entry, Mapping):
        raise _bad("deck", f"each card is a map, not {entry!r}")
    card_id, numbers, dots = entry.get("card_id"), entry.get("numbers"), entry.get("dots")
    if not (_is_int(card_id) or (isinstance(card_id, str) and 0 < len(card_id) <= MAX_NAME)):
        raise _bad("deck", f"a card_id is an int or a short string, not {card_id!r}")
    if dots not in (1, 2, 3) or not _is_int(dots):
        raise _bad("deck", f"card {card_id!r}: dots are 1, 2 or 3 (R-DECK-3)")
    if "wheels" in entry:  # a Variables side (R-DECK-2, Q1)
        wheels = entry["wheels"]
        if (
            numbers is not None
            or not isinstance(wheels, list | tuple)
            or len(wheels) != WHEELS
            or not all(_numbers(wheel, WHEEL_SIZE) for wheel in wheels)
        ):
            raise _bad(
                "deck",
                f"card {card_id!r}: 'wheels' is two lists of three whole numbers "
                f"0..{MAX_NUMBER}, without 'numbers' (R-DECK-2)",
            )
        read = tuple(tuple(wheel) for wheel in wheels)
        return Card(cast(CardId, card_id), read[0] + read[1], dots, read)
    if not _numbers(numbers, 4):
        raise _bad("deck", f"card {card_id!r}: four whole numbers 0..{MAX_NUMBER} (R-PUZ-1)")
    return Card(cast(CardId, card_id), tuple(cast(list[int], numbers)), dots)


def _numbers(value: object, count: int) -> bool:
    """`count` whole numbers 0..MAX_NUMBER in a list."""
    return (
        isinstance(value, list | tuple)
        and len(value) == count
        and all(_is_int(n) and 0 <= n <= MAX_NUMBER for n in value)
    )


def _read_deck(value: object) -> tuple[Card, ...]:
    if not isinstance(value, list | tuple) or not 0 < len(value) <= MAX_DECK:
        raise _bad("deck", f"a list of 1..{MAX_DECK} cards")
    deck = tuple(read_card(entry) for entry in value)
    if len({card.card_id for card in deck}) != len(deck):
        raise _bad("deck", "card ids must be distinct")
    return deck


# The duration options (seconds); the last two may be None: no such timer.
DURATIONS = (
    "pattern_seconds",
    "solution_seconds",
    "no_touch_seconds",
    "auto_proctor",
    "auto_reveal_seconds",
    "round_seconds",
)
OPTIONAL_TIMERS = ("auto_proctor", "round_seconds")


def _settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The table's timers, `stumped_cards` and `mode` read (defaults filled in), as
    `TableOptions` fields: what a tournament passes on to its tables too (`check_settings`).
    Read in the order of the module's table, so a refusal names the first bad option."""
    raw = {**DEFAULT_OPTIONS, **raw}

    def duration(name: str) -> int | None:
        if raw[name] is None and name in OPTIONAL_TIMERS:
            return None
        return _seconds(raw, name)

    return {
        "pattern_us": duration("pattern_seconds"),
        "solution_us": duration("solution_seconds"),
        "no_touch_us": duration("no_touch_seconds"),
        "stumped_cards": _choice(raw, "stumped_cards", STUMPED_POLICIES),
        "mode": _choice(raw, "mode", MODES),
        "auto_proctor_us": duration("auto_proctor"),
        "auto_reveal_us": duration("auto_reveal_seconds"),
        "round_us": duration("round_seconds"),
    }


def _short_duration(raw: Mapping[str, Any]) -> None:
    problem = short_duration(raw, DURATIONS)
    if problem:
        raise RuleViolation("bad_options", problem)


def check_settings(raw: Mapping[str, Any]) -> None:
    """The checks a new table's options get, on its settings alone (the options of
    `DURATIONS`, `stumped_cards`, `mode`): what a tournament passes on to every table of its
    rounds (`table_options`), checked when the tournament is created
    (server/tournament/options.py) so that no round starts tables that cannot be created.
    Raises `bad_options` naming the option; other options are not looked at."""
    _settings({name: raw[name] for name in raw if name in DEFAULT_OPTIONS})
    _short_duration(raw)


def check_new_table(raw: Mapping[str, Any]) -> None:
    """Rules a table must meet to be *created*, which its recorded options are not re-judged
    by: durations of at least `base.MIN_SECONDS` (docs/protocol.md, "Durations"), and
    R-PUZ-4, "every card has at least one solution". A tournament table refuses a deck
    given by hand with a card that has none (three binary steps, R-PUZ-2), naming it; a
    `casual` table may play it. Raises `bad_options` (rule R-PUZ-4 for a card); the options
    must read (`table_options`).

    Why at creation only (the contract's optional `check_new_table`, called by the shell's
    `create_table` and never when a log is replayed): the recorded `TableCreated` is the
    truth a replay trusts. Judging it again at every load would make replay depend on the
    solver, and a change of this check would make an old log fail to load. Why at all, and
    not only in the generators: a deck file is typed by people; a card with no solution
    would be stumped by everyone and could never be won.
    """
    read = table_options(raw)
    _short_duration(raw)
    if read.casual:
        return
    for card in read.deck:
        if not (solvable(card.numbers) if card.wheels is None else has_solution(card.wheels)):
            numbers = " ".join(map(str, card.numbers))
            raise RuleViolation(
                "bad_options",
                f"option 'deck': card {card.card_id!r} ({numbers}) has no solution (R-PUZ-4); "
                "only a casual table may play it",
                rule="R-PUZ-4",
            )


def default_flag_limit(round_number: int) -> int:
    """R-FLAG-3: three flags disqualify in rounds 1-2, two in rounds 3-4."""
    return 3 if round_number <= 2 else 2


def table_options(raw: Mapping[str, Any]) -> TableOptions:
    """Read and validate recorded options, filling the rule defaults.

    Why it refuses instead of repairing: options are recorded before play; a table whose
    options do not read back could never be replayed, so bad options must never be recorded.
    """
    if not isinstance(raw, Mapping):
        raise RuleViolation("bad_options", "options are a map")
    known = {"seats", "deck", *DEFAULT_OPTIONS}
    unknown = sorted(str(name) for name in raw if name not in known)
    if unknown:
        raise _bad(unknown[0], "unknown option")
    raw = {**DEFAULT_OPTIONS, **raw}
    round_number = raw["round"]
    if not _is_int(round_number) or not 1 <= round_number <= 4:
        raise _bad("round", "1, 2, 3 or 4 (R-ROUND-1)")
    flag_limit = raw.get("flag_limit")
    if flag_limit is None:
        flag_limit = default_flag_limit(round_number)
    elif not _is_int(flag_limit) or not 1 <= flag_limit <= 10:
        raise _bad("flag_limit", "a whole number 1..10 (R-FLAG-3)")
    min_seats = raw["min_seats"]
    if min_seats not in (2, 3) or not _is_int(min_seats):
        raise _bad("min_seats", "2 (a tie-break table, R-ROUND-6) or 3 (R-ROUND-2)")
    casual = raw["casual"]
    if not isinstance(casual, bool):
        raise _bad("casual", "true or false (R-PUZ-4)")
    compensation, max_credit = raw["touch_compensation"], raw["max_credit_ms"]
    if not isinstance(compensation, bool):
        raise _bad("touch_compensation", "true or false (R-PLAY-2)")
    if not _is_int(max_credit) or not 0 <= max_credit <= MAX_CREDIT_MS:
        raise _bad("max_credit_ms", f"whole milliseconds 0..{MAX_CREDIT_MS} (R-PLAY-2)")
    wait = raw["wait_for_students"]
    if not isinstance(wait, bool):
        raise _bad("wait_for_students", "true or false")
    deck = _read_deck(raw.get("deck"))
    lang = read_lang(raw["lang"])
    if lang is None:
        raise _bad("lang", LANG_WHY)
    return TableOptions(
        seats=_read_seats(raw.get("seats"), min_seats),
        deck=deck,
        round=round_number,
        flag_limit=flag_limit,
        casual=casual,
        min_seats=min_seats,
        **_settings(raw),
        touch_compensation=compensation,
        max_credit_us=max_credit * 1000,
        wait_for_students=wait,
        lang=lang,
    )


def deck_from_cards(cards: Sequence[TournamentCard], side: str) -> list[dict[str, Any]]:
    """The `deck` option from an edition's double-sided cards, playing `side` of each.

    Why a separate step: the edition generator makes double-sided cards; a round plays one side
    of each (R-DECK-1, R-DECK-5), and the options record only that side, so a replay never
    depends on the generator.
    """
    if side not in SIDES:
        raise ValueError(f"a side is one of {SIDES}, not {side!r}")
    return [{"card_id": card.card_id, **card.side(side).as_dict()} for card in cards]


def tournament_table_deck(
    edition: str | None,
    seed: int,
    round_number: int,
    side: str | None = None,
    document: str = DOCUMENTS[0],
) -> list[dict[str, Any]]:
    """The deck option of a single table for a round: exactly the cards (and side) a
    tournament with `deck_seed` `seed` plays that round under `document`
    (`round_decks.round_deck`, in deck order; a tournament shuffles it), on `side` if given.

    `edition`: under the Official Rules the tournament's edition (None: Single Digits, or
    "double-digits"), whose 96-card deck the four rounds play; under another document None
    or the edition its round plays (the Guidelines: Single Digits in rounds 1 and 3, Double
    Digits in 2 and 4). Another is refused (ValueError), so a caller never gets another
    edition's cards than it named.
    """
    if side is not None and side not in SIDES:
        raise ValueError(f"a side is one of {SIDES}, not {side!r}")
    if edition not in edition_choices(document):  # the round's own edition, named
        plays = round_plan(document, round_number).edition
        if edition != plays:
            raise ValueError(
                f"round {round_number} under the {document} rules plays {plays} "
                f"(R-DECK-5), not {edition}"
            )
        edition = None
    return round_deck(seed, document, round_number, side, edition)
