"""Table options on both sides of every limit, and every `bad_options` refusal exactly (code,
message): seats 3..4 with ids of 1..64 characters and names of at most 64, a deck of 1..200
cards with numbers 0..99 and dots 1..3, durations in (0, 3600] s, flag_limit 1..10, round 1..4.

Why: the options are recorded before play and must read back on replay; a limit moved by one
or a refusal without its message would go unnoticed by tests that stay inside the limits.
"""

from __future__ import annotations

import pytest
from challenge_tables import deck_data, options, seats_data

from server.games.base import RuleViolation
from server.games.challenge.options import (
    MAX_DECK,
    MAX_NAME,
    MAX_NUMBER,
    MAX_SECONDS,
    MICROSECONDS,
    deck_from_cards,
    table_options,
)
from server.puzzles.editions import tournament_deck


def card(card_id: object = "k", numbers: object = (1, 2, 3, 4), dots: object = 1) -> dict:
    return {"card_id": card_id, "numbers": numbers, "dots": dots}


def seat(seat_id: object, name: object = "Ada") -> dict:
    return {"seat": seat_id, "name": name}


def bad(message: str, **raw: object) -> tuple[dict, str]:
    return options(**raw), message


def with_seats(*seats: dict) -> dict:
    return {"seats": list(seats), "deck": deck_data()}


def with_deck(*cards: object) -> dict:
    return {"seats": seats_data(), "deck": list(cards)}


THREE = [seat("s1"), seat("s2")]
REFUSED = [
    ([], "options are a map"),
    ({**options(), "speed": 1}, "option 'speed': unknown option"),
    (options(round=0), "option 'round': 1, 2, 3 or 4 (R-ROUND-1)"),
    (options(round=5), "option 'round': 1, 2, 3 or 4 (R-ROUND-1)"),
    (options(flag_limit=0), "option 'flag_limit': a whole number 1..10 (R-FLAG-3)"),
    (options(flag_limit=11), "option 'flag_limit': a whole number 1..10 (R-FLAG-3)"),
    (options(seats=2), "option 'seats': a list of 3 or 4 seats (R-ROUND-2)"),
    (
        with_seats(*THREE, seat("s3"), seat("s4"), seat("s5")),
        "option 'seats': a list of 3 or 4 seats (R-ROUND-2)",
    ),
    (
        with_seats(*THREE, "s3"),
        "option 'seats': each seat is a map with 'seat' and 'name', not 's3'",
    ),
    (with_seats(*THREE, seat("")), "option 'seats': a seat id is a string of 1..64 characters"),
    (
        with_seats(*THREE, seat("s" * (MAX_NAME + 1))),
        "option 'seats': a seat id is a string of 1..64 characters",
    ),
    (
        with_seats(*THREE, seat("s3", "n" * (MAX_NAME + 1))),
        "option 'seats': a name is a string of at most 64 characters",
    ),
    (
        with_seats(*THREE, seat("s3", None)),
        "option 'seats': a name is a string of at most 64 characters",
    ),
    (with_seats(*THREE, seat("s1")), "option 'seats': seat ids must be distinct"),
    (with_deck(), "option 'deck': a list of 1..200 cards"),
    (
        with_deck(*[card(i) for i in range(MAX_DECK + 1)]),
        "option 'deck': a list of 1..200 cards",
    ),
    (with_deck("k"), "option 'deck': each card is a map, not 'k'"),
    (with_deck(card("")), "option 'deck': a card_id is an int or a short string, not ''"),
    (
        with_deck(card("k" * (MAX_NAME + 1))),
        f"option 'deck': a card_id is an int or a short string, not {'k' * 65!r}",
    ),
    (
        with_deck(card(numbers=(1, 2, 3, MAX_NUMBER + 1))),
        "option 'deck': card 'k': four whole numbers 0..99 (R-PUZ-1)",
    ),
    (
        with_deck(card(numbers=(1, 2, 3, -1))),
        "option 'deck': card 'k': four whole numbers 0..99 (R-PUZ-1)",
    ),
    (with_deck(card(dots=4)), "option 'deck': card 'k': dots are 1, 2 or 3 (R-DECK-3)"),
    (with_deck(card(dots=True)), "option 'deck': card 'k': dots are 1, 2 or 3 (R-DECK-3)"),
    (with_deck(card(), card()), "option 'deck': card ids must be distinct"),
    (options(mode="loud"), "option 'mode': one of networked, proctored, not 'loud'"),
    (
        options(stumped_cards="burn"),
        "option 'stumped_cards': one of replay_at_end, set_aside, not 'burn'",
    ),
    (options(pattern_seconds=0), "option 'pattern_seconds': seconds in (0, 3600], not 0"),
    (
        options(solution_seconds=MAX_SECONDS + 0.5),
        "option 'solution_seconds': seconds in (0, 3600], not 3600.5",
    ),
    (options(auto_proctor="1"), "option 'auto_proctor': seconds in (0, 3600], not '1'"),
    (
        options(min_seats=4),
        "option 'min_seats': 2 (a tie-break table, R-ROUND-6) or 3 (R-ROUND-2)",
    ),
    (
        options(min_seats=True),
        "option 'min_seats': 2 (a tie-break table, R-ROUND-6) or 3 (R-ROUND-2)",
    ),
    (options(seats=1, min_seats=2), "option 'seats': a list of 2 to 4 seats (R-ROUND-2)"),
]


@pytest.mark.parametrize("raw, message", REFUSED)
def test_every_bad_option_is_refused_exactly(raw, message):
    with pytest.raises(RuleViolation) as caught:
        table_options(raw)
    assert caught.value.as_dict() == {"code": "bad_options", "rule": "", "message": message}


def test_the_largest_options_are_accepted():
    raw = {
        "seats": [seat("s" * MAX_NAME, "n" * MAX_NAME), seat("b", ""), seat("c"), seat("d")],
        "deck": [card(i, (0, 0, MAX_NUMBER, MAX_NUMBER), 3) for i in range(MAX_DECK - 1)]
        + [card("k" * MAX_NAME, (0, 1, 2, 3), 2)],
        "round": 4,
        "flag_limit": 10,
        "pattern_seconds": MAX_SECONDS,
        "solution_seconds": MAX_SECONDS,
        "no_touch_seconds": MAX_SECONDS,
        "auto_proctor": MAX_SECONDS,
        "auto_reveal_seconds": MAX_SECONDS,
        "casual": True,  # 0 0 99 99 has no solution: only a casual table plays it (R-PUZ-4)
    }
    read = table_options(raw)
    assert (read.round, read.flag_limit) == (4, 10)
    assert len(read.deck) == MAX_DECK and read.deck[-1].card_id == "k" * MAX_NAME
    assert read.deck[0].numbers == (0, 0, 99, 99)
    assert read.seats[0].seat == "s" * MAX_NAME and read.seats[1].name == ""
    durations = (read.pattern_us, read.solution_us, read.no_touch_us, read.auto_proctor_us)
    assert durations == (MAX_SECONDS * MICROSECONDS,) * 4
    assert read.auto_reveal_us == MAX_SECONDS * MICROSECONDS


def test_the_smallest_options_are_accepted():
    raw = {
        "seats": [{"seat": "a"}, seat("b"), seat("c")],
        "deck": [card("k", (0, 0, 0, 0), 1)],
        "round": 1,
        "flag_limit": 1,
        "pattern_seconds": 0.000001,
        "casual": True,  # 0 0 0 0 has no solution (R-PUZ-4)
    }
    read = table_options(raw)
    assert read.seats[0].name == ""  # a seat's name defaults to empty
    assert read.pattern_us == 1 and read.flag_limit == 1 and read.round == 1
    assert read.auto_reveal_us == MICROSECONDS  # the default: one second


@pytest.mark.parametrize("round_number", [1, 2, 3, 4])
def test_the_round_is_read_back(round_number):
    assert table_options(options(round=round_number)).round == round_number


def test_a_deck_of_one_side_needs_a_known_side():
    cards = tournament_deck("single-digits", 1)[:2]
    assert [entry["card_id"] for entry in deck_from_cards(cards, "white")] == [
        cards[0].card_id,
        cards[1].card_id,
    ]
    with pytest.raises(ValueError, match=r"a side is one of \('red', 'white'\), not 'blue'"):
        deck_from_cards(cards, "blue")


def test_a_tie_break_table_of_two_with_a_timed_round_reads_back():
    """R-ROUND-6: `min_seats` 2 and `round_seconds` are kept and recorded as given."""
    read = table_options(options(seats=2, min_seats=2, round_seconds=90))
    assert (read.min_seats, read.round_us) == (2, 90 * MICROSECONDS)
    recorded = read.as_data()
    assert (recorded["min_seats"], recorded["round_seconds"]) == (2, 90.0)
    assert table_options(recorded | {"deck": options()["deck"]}) == read
