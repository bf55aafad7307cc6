"""A practice table's options (server/games/practice/options.py): every refusal exact (code and
message), both sides of every limit, the defaults and what a player may see of them."""

from __future__ import annotations

import pytest

from server.games.base import RuleViolation, SeatInfo
from server.games.practice.options import (
    MAX_CARDS,
    MAX_NAME,
    MAX_SEATS,
    PracticeOptions,
    practice_options,
)
from server.ratings import Rating

ADA = {"seat": "s1", "name": "Ada"}


def read(**options: object) -> PracticeOptions:
    return practice_options({"seats": [ADA], **options})


def refusal(options: object) -> str:
    with pytest.raises(RuleViolation) as caught:
        practice_options(options)
    assert caught.value.code == "bad_options"
    return caught.value.message


def test_the_defaults_fill_what_is_left_out():
    assert read() == PracticeOptions(
        seats=(SeatInfo("s1", "Ada"),),
        cards=20,
        touch_us=15_000_000,
        answer_us=15_000_000,
        aim=0,
        ratings={},
        seed=0,
    )


def test_given_options_win_over_the_defaults():
    options = read(
        cards=7,
        touch_seconds=2.5,
        answer_seconds=30,
        aim=-40,
        ratings={"s1": {"mu": 1800, "sigma": 90}},
        seed=11,
    )
    assert options == PracticeOptions(
        seats=(SeatInfo("s1", "Ada"),),
        cards=7,
        touch_us=2_500_000,
        answer_us=30_000_000,
        aim=-40,
        ratings={"s1": Rating(1800.0, 90.0)},
        seed=11,
    )
    assert isinstance(options.ratings["s1"].mu, float)


def test_a_player_sees_every_option_but_the_seed():
    options = read(cards=3, touch_seconds=2.5, answer_seconds=10, aim=5, seed=99)
    assert options.public_data() == {
        "seats": [{"seat": "s1", "name": "Ada"}],
        "cards": 3,
        "touch_seconds": 2.5,
        "answer_seconds": 10.0,
        "aim": 5,
        "stream": "own",
    }


def test_options_that_are_not_a_map_are_refused():
    assert refusal(["seats"]) == "options are a map"


def test_the_first_unknown_option_in_order_is_named():
    assert refusal({"seats": [ADA], "zeta": 1, "colour": 2}) == "option 'colour': unknown option"


def test_a_missing_seats_list_is_refused():
    assert refusal({}) == "option 'seats': a list of 1..40 seats"


@pytest.mark.parametrize("count", [1, MAX_SEATS])
def test_one_to_forty_seats_are_accepted(count):
    seats = [{"seat": f"s{n}", "name": ""} for n in range(count)]
    assert len(practice_options({"seats": seats}).seats) == count
    assert len(practice_options({"seats": tuple(seats)}).seats) == count


@pytest.mark.parametrize("seats", [[], [{"seat": f"s{n}"} for n in range(41)], "s1"])
def test_no_seat_more_than_forty_or_no_list_is_refused(seats):
    assert refusal({"seats": seats}) == "option 'seats': a list of 1..40 seats"


def test_a_seat_that_is_not_a_map_is_refused():
    message = refusal({"seats": [ADA, "s2"]})
    assert message == "option 'seats': each seat is a map with 'seat' and 'name', not 's2'"


@pytest.mark.parametrize("seat", [None, 7, "", "x" * (MAX_NAME + 1)])
def test_a_seat_id_of_1_to_64_characters_only(seat):
    message = refusal({"seats": [{"seat": seat, "name": "Ada"}]})
    assert message == "option 'seats': a seat id is a string of 1..64 characters"


def test_a_seat_id_of_one_or_64_characters_is_accepted():
    seats = [{"seat": "x", "name": "Ada"}, {"seat": "y" * MAX_NAME, "name": "Bo"}]
    assert practice_options({"seats": seats}).seats == (
        SeatInfo("x", "Ada"),
        SeatInfo("y" * MAX_NAME, "Bo"),
    )


@pytest.mark.parametrize("name", [None, 3, "n" * (MAX_NAME + 1)])
def test_a_name_of_at_most_64_characters_only(name):
    message = refusal({"seats": [{"seat": "s1", "name": name}]})
    assert message == "option 'seats': a name is a string of at most 64 characters"


def test_a_name_of_64_characters_or_none_given_is_accepted():
    seats = [{"seat": "s1", "name": "n" * MAX_NAME}, {"seat": "s2"}]
    assert practice_options({"seats": seats}).seats == (
        SeatInfo("s1", "n" * MAX_NAME),
        SeatInfo("s2", ""),
    )


def test_two_seats_with_one_id_are_refused():
    assert refusal({"seats": [ADA, ADA]}) == "option 'seats': seat ids must be distinct"


@pytest.mark.parametrize(
    ("name", "low", "high"),
    [("cards", 1, MAX_CARDS), ("aim", -600, 600), ("seed", 0, 2**63 - 1)],
)
def test_whole_number_options_both_sides_of_their_limits(name, low, high):
    assert getattr(read(**{name: low}), name) == low
    assert getattr(read(**{name: high}), name) == high
    for bad in (low - 1, high + 1, True, 2.0, None, "3"):
        expected = f"option {name!r}: a whole number {low}..{high}, not {bad!r}"
        assert refusal({"seats": [ADA], name: bad}) == expected


@pytest.mark.parametrize(
    ("name", "field"), [("touch_seconds", "touch_us"), ("answer_seconds", "answer_us")]
)
def test_seconds_both_sides_of_their_limits(name, field):
    assert getattr(read(**{name: 600}), field) == 600_000_000
    assert getattr(read(**{name: 0.5}), field) == 500_000
    assert getattr(read(**{name: 1}), field) == 1_000_000
    assert getattr(read(**{name: 0.0000025}), field) == 2  # rounded to a microsecond
    for bad in (0, -1, 600.001, True, None, "15"):
        expected = f"option {name!r}: seconds in (0, 600], not {bad!r}"
        assert refusal({"seats": [ADA], name: bad}) == expected


def test_ratings_that_are_not_a_map_are_refused():
    expected = "option 'ratings': a map from seat id to {mu, sigma}"
    assert refusal({"seats": [ADA], "ratings": [1500, 100]}) == expected


def test_a_rating_for_a_seat_not_at_the_table_is_refused():
    assert refusal({"seats": [ADA], "ratings": {"s9": {}}}) == "option 'ratings': no seat 's9'"


def test_ratings_both_sides_of_their_limits():
    low = read(ratings={"s1": {"mu": 0, "sigma": 1}}).ratings
    high = read(ratings={"s1": {"mu": 4000, "sigma": 350}}).ratings
    assert (low, high) == ({"s1": Rating(0.0, 1.0)}, {"s1": Rating(4000.0, 350.0)})
    expected = "option 'ratings': seat 's1': {mu: 0..4000, sigma: 1..350}"
    for rating in (
        {"mu": -0.5, "sigma": 100},
        {"mu": 4000.5, "sigma": 100},
        {"mu": 1500, "sigma": 0.5},
        {"mu": 1500, "sigma": 350.5},
        {"mu": True, "sigma": 100},
        {"mu": 1500, "sigma": None},
        {"sigma": 100},
        {"mu": 1500},
        "1500",
    ):
        assert refusal({"seats": [ADA], "ratings": {"s1": rating}}) == expected
