"""The options of a Tjugoett table: the defaults, their validation, and the table's seats.

What this module keeps: a table's options are plain data the shell records in `TableCreated`;
`table_options(raw)` reads them into a frozen `TableOptions` (defaults from `DEFAULT_OPTIONS`)
or refuses them with `RuleViolation("bad_options")` naming the field, before anything is
recorded, so recorded options always read back.

| option | default | meaning |
|---|---|---|
| seats | (required) | 1..7 `{"seat", "name"}`, in the order they face the dealer (R-21-5) |
| seed | (required) | the secret shuffle seed: 8..128 characters, or a number (R-21-3/21) |
| dealer | "server" | the server's dealer, or `{"seat", "name"}`: a person at a client |
| dealer_stands_at | 17 | the server dealer stands at this value or more, with >= 2 cards |
| dealer_seconds | 1 | the server dealer's pace: seconds before each of its moves |
| public_hands | "turn_over" | when other players and spectators see a hand (see below) |
| turn_seconds | None | a time limit per move (see below); None: no limit |
| next_round_seconds | None | the server starts the next round this long after one ends |

`turn_seconds`: a player who waits this long stands (always allowed while asked); a person
dealer who waits this long gets the server dealer's move. `next_round_seconds` None: the
director, the proctor or a person dealer starts each round.

`public_hands`: `turn_over` (a hand becomes public when its turn is over) or `live` (other
players and spectators see each card as it is dealt). The dealer never sees a player's card
or sum while that player's turn is live (R-21-19), whatever this option says.

Why the seed is an option without a default: every shuffle is derived from it (see
`tjugoett.cards.shuffled`) and recorded; a default seed would make every table's deck
known in advance. Whoever creates the table picks it at random (`t24 admin create-table`
does when none is given). It is hidden from everyone but the director, the proctor, auditors
and the server (`tjugoett.view`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
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

MIN_PLAYERS, MAX_PLAYERS = 1, 7
MIN_SEED, MAX_SEED = 8, 128
MAX_NAME = 64
SERVER_DEALER = "server"
PUBLIC_HANDS = ("turn_over", "live")

DEFAULT_OPTIONS: Mapping[str, Any] = {
    "dealer": SERVER_DEALER,
    "dealer_stands_at": 17,
    "dealer_seconds": 1,
    "public_hands": PUBLIC_HANDS[0],
    "turn_seconds": None,
    "next_round_seconds": None,
    "lang": DEFAULT_LANG,
}
REQUIRED = ("seats", "seed")


@dataclass(frozen=True)
class TableOptions:
    """Everything fixed about a table; durations in microseconds."""

    seats: tuple[SeatInfo, ...]
    seed: str
    dealer: SeatInfo | None = None  # None: the server's dealer
    dealer_stands_at: int = 17
    dealer_us: int = MICROSECONDS
    public_hands: str = PUBLIC_HANDS[0]
    turn_us: int | None = None
    next_round_us: int | None = None
    lang: str = DEFAULT_LANG  # the language the table opens in (docs/protocol.md, "Words")

    @property
    def dealer_seat(self) -> str | None:
        """The seat id of a person dealer, or None for the server's dealer."""
        return self.dealer.seat if self.dealer else None

    def seat_ids(self) -> tuple[str, ...]:
        """The players' seats in the order they face the dealer (R-21-5)."""
        return tuple(seat.seat for seat in self.seats)

    def as_data(self) -> dict[str, Any]:
        """The public options as plain data (no seed), durations in seconds."""

        def seconds(value: int | None) -> float | None:
            return None if value is None else value / MICROSECONDS

        return {
            "seats": [seat.as_data() for seat in self.seats],
            "dealer": self.dealer.as_data() if self.dealer else SERVER_DEALER,
            "dealer_stands_at": self.dealer_stands_at,
            "dealer_seconds": seconds(self.dealer_us),
            "public_hands": self.public_hands,
            "turn_seconds": seconds(self.turn_us),
            "next_round_seconds": seconds(self.next_round_us),
            **({"lang": self.lang} if self.lang != DEFAULT_LANG else {}),
        }


def _bad(name: str, why: str) -> RuleViolation:
    return RuleViolation("bad_options", f"option {name!r}: {why}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _seconds(raw: Mapping[str, Any], name: str) -> int | None:
    value: object = raw[name]
    if value is None:
        return None
    us = seconds_us(value)
    if us is None:
        raise _bad(name, f"seconds in (0, {MAX_SECONDS}], or null, not {value!r}")
    return us


def _seat(name: str, entry: object) -> SeatInfo:
    if not isinstance(entry, Mapping):
        raise _bad(name, f"a seat is a map with 'seat' and 'name', not {entry!r}")
    seat, who = entry.get("seat"), entry.get("name", "")
    if not isinstance(seat, str) or not 0 < len(seat) <= MAX_NAME:
        raise _bad(name, f"a seat id is a text of 1..{MAX_NAME} characters")
    if not isinstance(who, str) or len(who) > MAX_NAME:
        raise _bad(name, f"a name is a text of at most {MAX_NAME} characters")
    return SeatInfo(seat, who)


def _read_seats(value: object) -> tuple[SeatInfo, ...]:
    if not isinstance(value, list | tuple) or not MIN_PLAYERS <= len(value) <= MAX_PLAYERS:
        raise _bad("seats", f"a list of {MIN_PLAYERS}..{MAX_PLAYERS} players")
    seats = tuple(_seat("seats", entry) for entry in value)
    if len({seat.seat for seat in seats}) != len(seats):
        raise _bad("seats", "seat ids must be distinct")
    return seats


def _read_dealer(value: object, seats: tuple[SeatInfo, ...]) -> SeatInfo | None:
    if value == SERVER_DEALER:
        return None
    dealer = _seat("dealer", value)
    if dealer.seat in {seat.seat for seat in seats}:
        raise _bad("dealer", f"the dealer's seat {dealer.seat!r} is also a player's")
    return dealer


def _read_seed(value: object) -> str:
    """The seed as the text every shuffle is derived from: a text of 8..128 characters, or a
    whole number (`t24 admin create-table --seed 7`, for a table anyone may replay; a number
    is easy to guess, so the CLI's default is 128 random bits as text)."""
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**63:
        return str(value)
    if isinstance(value, str) and MIN_SEED <= len(value) <= MAX_SEED:
        return value
    raise _bad(
        "seed",
        f"a secret text of {MIN_SEED}..{MAX_SEED} characters (or a whole number), picked at "
        "random by the table's creator (every shuffle is derived from it)",
    )


def table_options(raw: Mapping[str, Any]) -> TableOptions:
    """Read and validate recorded options, filling the defaults.

    Why it refuses instead of repairing: options are recorded before play; options that do not
    read back could never be replayed, so bad options must never be recorded.
    """
    if not isinstance(raw, Mapping):
        raise RuleViolation("bad_options", "options are a map")
    unknown = sorted(
        str(name) for name in raw if name not in DEFAULT_OPTIONS and name not in REQUIRED
    )
    if unknown:
        raise _bad(unknown[0], "unknown option")
    raw = {**DEFAULT_OPTIONS, **raw}
    seats = _read_seats(raw.get("seats"))
    seed = _read_seed(raw.get("seed"))
    stands_at = raw["dealer_stands_at"]
    if not _is_int(stands_at) or not 2 <= stands_at <= 21:
        raise _bad("dealer_stands_at", "a whole number 2..21")
    public = raw["public_hands"]
    if public not in PUBLIC_HANDS:
        raise _bad("public_hands", f"one of {', '.join(PUBLIC_HANDS)}, not {public!r}")
    dealer_us = _seconds(raw, "dealer_seconds")
    if dealer_us is None:
        raise _bad("dealer_seconds", "the server dealer needs a pace in seconds")
    lang = read_lang(raw["lang"])
    if lang is None:
        raise _bad("lang", LANG_WHY)
    return TableOptions(
        seats=seats,
        seed=seed,
        dealer=_read_dealer(raw["dealer"], seats),
        dealer_stands_at=stands_at,
        dealer_us=dealer_us,
        public_hands=public,
        turn_us=_seconds(raw, "turn_seconds"),
        next_round_us=_seconds(raw, "next_round_seconds"),
        lang=lang,
    )


DURATIONS = ("dealer_seconds", "turn_seconds", "next_round_seconds")


def check_new_table(raw: Mapping[str, Any]) -> None:
    """What a *new* table must meet that its recorded options are not judged by again:
    durations of at least `base.MIN_SECONDS` (docs/protocol.md, "Durations"). Raises
    `bad_options`; the options must read (`table_options`)."""
    table_options(raw)
    problem = short_duration(raw, DURATIONS)
    if problem:
        raise RuleViolation("bad_options", problem)
