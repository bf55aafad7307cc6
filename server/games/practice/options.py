"""The options of a practice table: who practises, how many cards, the clock, the start
ratings, and the seed of the choice among equally fitting cards.

| option | default | meaning |
|---|---|---|
| seats | (required) | 1..40 `{"seat", "name"}`: one student alone, or a class |
| cards | 20 | cards each student plays, 1..200 |
| touch_seconds | 15 | the time to touch a card (the tournament's no-touch window, R-PLAY-7) |
| answer_seconds | 15 | the time from the touch to the answer (R-PLAY-5) |
| aim | 0 | rating points above (or below) the student's rating the cards are chosen at, -600..600 |
| ratings | {} | a seat's start rating `{"mu", "sigma"}`; else 1500 +/- 350 |
| seed | 0 | the choice among the cards nearest the rating (hidden from players) |
| stream | own | `own`: each student's cards follow their own rating; `class`: the class plays one
|        |     | stream, card n the same for everyone (chosen at the class's mean rating) |
| card_ratings | {} | a card's start rating `{"mu", "sigma"}` by card id ("1 1 1 8"); else |
|              |    | its prior |

`from_log: true` (`LOG_RATINGS_OPTION`) is the shell's, never recorded: it fills `ratings` and
`card_ratings` from the ratings across the log (server/runtime/ratings_query.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from server.games.base import DEFAULT_LANG, LANG_WHY, RuleViolation, SeatInfo, read_lang
from server.games.table_options import MAX_NAME, read_seats
from server.ratings import START_SIGMA, Rating

MICROSECONDS = 1_000_000
MAX_SEATS = 40
MAX_CARDS = 200
MAX_SECONDS = 600
MAX_AIM = 600
SEED_LIMIT = 2**63
RATING_RANGE = (0.0, 4000.0)
MAX_CARD_RATINGS = 2000  # more than the pool's 1,362 cards
OWN_STREAM, CLASS_STREAM = "own", "class"
STREAMS = (OWN_STREAM, CLASS_STREAM)

DEFAULT_OPTIONS: Mapping[str, Any] = {
    "cards": 20,
    "touch_seconds": 15,
    "answer_seconds": 15,
    "aim": 0,
    "ratings": {},
    "seed": 0,
    "stream": OWN_STREAM,
    "card_ratings": {},
    "lang": DEFAULT_LANG,
}


@dataclass(frozen=True)
class PracticeOptions:
    """Everything fixed about a practice table; durations in microseconds."""

    seats: tuple[SeatInfo, ...]
    cards: int = 20
    touch_us: int = 15 * MICROSECONDS
    answer_us: int = 15 * MICROSECONDS
    aim: int = 0
    ratings: Mapping[str, Rating] = field(default_factory=dict)
    seed: int = 0
    stream: str = OWN_STREAM
    card_ratings: Mapping[str, Rating] = field(default_factory=dict)
    lang: str = DEFAULT_LANG  # the language the table opens in (docs/protocol.md, "Words")

    def public_data(self) -> dict[str, Any]:
        """The options a player may see (all but the seed)."""
        return {
            "seats": [seat.as_data() for seat in self.seats],
            "cards": self.cards,
            "touch_seconds": self.touch_us / MICROSECONDS,
            "answer_seconds": self.answer_us / MICROSECONDS,
            "aim": self.aim,
            "stream": self.stream,
            **({"lang": self.lang} if self.lang != DEFAULT_LANG else {}),
        }


def _bad(name: str, why: str) -> RuleViolation:
    return RuleViolation("bad_options", f"option {name!r}: {why}")


def _whole(raw: Mapping[str, Any], name: str, low: int, high: int) -> int:
    value = raw.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(name, f"a whole number {low}..{high}, not {value!r}")
    return value


def _seconds(raw: Mapping[str, Any], name: str) -> int:
    value = raw.get(name)
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise _bad(name, f"seconds in (0, {MAX_SECONDS}], not {value!r}")
    if not 0 < value <= MAX_SECONDS:
        raise _bad(name, f"seconds in (0, {MAX_SECONDS}], not {value!r}")
    return round(value * MICROSECONDS)


def _number(value: object, low: float, high: float) -> float | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and low <= value <= high:
        return float(value)
    return None


def _rating(value: object) -> Rating | None:
    if not isinstance(value, Mapping):
        return None
    mu = _number(value.get("mu"), *RATING_RANGE)
    sigma = _number(value.get("sigma"), 1.0, START_SIGMA)
    return None if mu is None or sigma is None else Rating(mu, sigma)


def _card_ratings(value: object) -> dict[str, Rating]:
    if not isinstance(value, Mapping) or len(value) > MAX_CARD_RATINGS:
        raise _bad("card_ratings", f"a map of at most {MAX_CARD_RATINGS} card ids to {{mu, sigma}}")
    read = {}
    for card, rating in value.items():
        found = _rating(rating)
        if not isinstance(card, str) or not 0 < len(card) <= MAX_NAME or found is None:
            raise _bad("card_ratings", f"card {card!r}: {{mu: 0..4000, sigma: 1..{START_SIGMA:g}}}")
        read[card] = found
    return read


def _ratings(value: object, seats: tuple[SeatInfo, ...]) -> dict[str, Rating]:
    if not isinstance(value, Mapping):
        raise _bad("ratings", "a map from seat id to {mu, sigma}")
    ids = {seat.seat for seat in seats}
    read = {}
    for seat, rating in value.items():
        if seat not in ids:
            raise _bad("ratings", f"no seat {seat!r}")
        mu = _number(rating.get("mu"), *RATING_RANGE) if isinstance(rating, Mapping) else None
        sigma = (
            _number(rating.get("sigma"), 1.0, START_SIGMA) if isinstance(rating, Mapping) else None
        )
        if mu is None or sigma is None:
            raise _bad("ratings", f"seat {seat!r}: {{mu: 0..4000, sigma: 1..{START_SIGMA:g}}}")
        read[str(seat)] = Rating(mu, sigma)
    return read


def practice_options(raw: Mapping[str, Any]) -> PracticeOptions:
    """Read and validate recorded options, filling the defaults; `bad_options` otherwise."""
    if not isinstance(raw, Mapping):
        raise RuleViolation("bad_options", "options are a map")
    unknown = sorted(str(name) for name in raw if name not in {"seats", *DEFAULT_OPTIONS})
    if unknown:
        raise _bad(unknown[0], "unknown option")
    raw = {**DEFAULT_OPTIONS, **raw}
    seats = read_seats(raw.get("seats"), 1, MAX_SEATS, _bad)
    lang = read_lang(raw["lang"])
    if lang is None:
        raise _bad("lang", LANG_WHY)
    return PracticeOptions(
        seats=seats,
        cards=_whole(raw, "cards", 1, MAX_CARDS),
        touch_us=_seconds(raw, "touch_seconds"),
        answer_us=_seconds(raw, "answer_seconds"),
        aim=_whole(raw, "aim", -MAX_AIM, MAX_AIM),
        ratings=_ratings(raw.get("ratings"), seats),
        seed=_whole(raw, "seed", 0, SEED_LIMIT - 1),
        stream=_stream(raw.get("stream")),
        card_ratings=_card_ratings(raw.get("card_ratings")),
        lang=lang,
    )


def _stream(value: object) -> str:
    if value not in STREAMS:
        raise _bad("stream", f"one of {', '.join(STREAMS)}, not {value!r}")
    return str(value)
