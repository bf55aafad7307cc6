"""Both sides of every limit of a Tjugoett table's options, each refusal's exact message, and
the options as read and as shown (`TableOptions.as_data`).

Why both sides: a limit moved by one (`<` for `<=`) accepts a table the docs refuse or
refuses one they accept; only a test at the limit itself tells (issue 20). The limits are
tjugoett/options.py's table: 1..7 seats, seat ids of 1..64 characters, names of at most 64,
a seed of 8..128 characters or a whole number 0..2**63-1, `dealer_stands_at` 2..21, seconds
in (0, 3600].
"""

from __future__ import annotations

import pytest
from tjugoett_tables import SEED, options, seats_data

from server.games import tjugoett
from server.games.base import RuleViolation
from server.games.tjugoett.options import SeatInfo, TableOptions, table_options


def refusal(raw: object) -> dict[str, str]:
    with pytest.raises(RuleViolation) as caught:
        tjugoett.initial_state(raw)  # type: ignore[arg-type]
    return caught.value.as_dict()


def bad(message: str) -> dict[str, str]:
    return {"code": "bad_options", "rule": "", "message": message}


SEATS_MESSAGE = "option 'seats': a list of 1..7 players"
SEAT_ID_MESSAGE = "option 'seats': a seat id is a text of 1..64 characters"
NAME_MESSAGE = "option 'seats': a name is a text of at most 64 characters"
SEED_MESSAGE = (
    "option 'seed': a secret text of 8..128 characters (or a whole number), picked at "
    "random by the table's creator (every shuffle is derived from it)"
)
STANDS_MESSAGE = "option 'dealer_stands_at': a whole number 2..21"


def seconds_message(name: str, value: object) -> str:
    return f"option {name!r}: seconds in (0, 3600], or null, not {value!r}"


# -- seats ----------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 7])
def test_one_to_seven_seats(count):
    assert len(table_options(options(players=count)).seats) == count


@pytest.mark.parametrize("seats", [[], [{"seat": f"s{i}"} for i in range(8)], "s1", None])
def test_no_seat_eight_seats_or_not_a_list_is_refused(seats):
    assert refusal({"seats": seats, "seed": SEED}) == bad(SEATS_MESSAGE)


def test_seats_may_be_a_tuple():
    read = table_options({"seats": tuple(seats_data(2)), "seed": SEED})
    assert read.seats == (SeatInfo("s1", "Ada"), SeatInfo("s2", "Bo"))


@pytest.mark.parametrize("length", [1, 64])
def test_a_seat_id_of_1_to_64_characters(length):
    read = table_options({"seats": [{"seat": "x" * length, "name": "Ada"}], "seed": SEED})
    assert read.seat_ids() == ("x" * length,)


@pytest.mark.parametrize("seat", ["", "x" * 65, 7, None])
def test_a_seat_id_empty_too_long_or_not_a_text_is_refused(seat):
    assert refusal({"seats": [{"seat": seat}], "seed": SEED}) == bad(SEAT_ID_MESSAGE)


def test_a_seat_without_a_name_has_an_empty_name_and_a_name_may_have_64_characters():
    read = table_options(
        {"seats": [{"seat": "s1"}, {"seat": "s2", "name": "n" * 64}], "seed": SEED}
    )
    assert read.seats == (SeatInfo("s1", ""), SeatInfo("s2", "n" * 64))


@pytest.mark.parametrize("name", ["n" * 65, 7, None])
def test_a_name_too_long_or_not_a_text_is_refused(name):
    assert refusal({"seats": [{"seat": "s1", "name": name}], "seed": SEED}) == bad(NAME_MESSAGE)


def test_a_seat_that_is_not_a_map_is_refused():
    assert refusal({"seats": ["s1"], "seed": SEED}) == bad(
        "option 'seats': a seat is a map with 'seat' and 'name', not 's1'"
    )


def test_two_seats_with_one_id_are_refused():
    assert refusal({"seats": [{"seat": "s1"}, {"seat": "s1"}], "seed": SEED}) == bad(
        "option 'seats': seat ids must be distinct"
    )


# -- the dealer -------------------------------------------------------------------------------


def test_a_person_dealer_is_read_with_its_name():
    read = table_options(options(dealer={"seat": "dl", "name": "Dora"}))
    assert read.dealer == SeatInfo("dl", "Dora") and read.dealer_seat == "dl"


def test_a_dealer_on_a_players_seat_is_refused():
    assert refusal(options(dealer={"seat": "s2", "name": "X"})) == bad(
        "option 'dealer': the dealer's seat 's2' is also a player's"
    )


@pytest.mark.parametrize(
    ("dealer", "message"),
    [
        ("robot", "option 'dealer': a seat is a map with 'seat' and 'name', not 'robot'"),
        ({"seat": ""}, "option 'dealer': a seat id is a text of 1..64 characters"),
        (
            {"seat": "dl", "name": "n" * 65},
            "option 'dealer': a name is a text of at most 64 characters",
        ),
    ],
)
def test_a_dealer_that_is_not_a_seat_is_refused_naming_the_dealer(dealer, message):
    assert refusal(options(dealer=dealer)) == bad(message)


# -- the seed -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seed", "read"),
    [
        ("s" * 8, "s" * 8),
        ("s" * 128, "s" * 128),
        (0, "0"),
        (7, "7"),
        (2**63 - 1, str(2**63 - 1)),
    ],
)
def test_a_seed_of_8_to_128_characters_or_a_whole_number_below_2_63(seed, read):
    assert table_options({"seats": seats_data(1), "seed": seed}).seed == read


@pytest.mark.parametrize("seed", ["s" * 7, "s" * 129, -1, 2**63, True, False, 2.5, None])
def test_a_seed_too_short_too_long_negative_too_big_or_not_a_number_is_refused(seed):
    assert refusal({"seats": seats_data(1), "seed": seed}) == bad(SEED_MESSAGE)


# -- the server dealer's stand and the timers -----------------------------------------------


@pytest.mark.parametrize("stands_at", [2, 21])
def test_dealer_stands_at_2_to_21(stands_at):
    assert table_options(options(dealer_stands_at=stands_at)).dealer_stands_at == stands_at


@pytest.mark.parametrize("stands_at", [1, 22, True, 17.0, "17"])
def test_dealer_stands_at_out_of_range_or_not_a_whole_number_is_refused(stands_at):
    assert refusal(options(dealer_stands_at=stands_at)) == bad(STANDS_MESSAGE)


@pytest.mark.parametrize(
    ("seconds", "micro"), [(0.000001, 1), (0.5, 500_000), (1, 1_000_000), (3600, 3_600_000_000)]
)
@pytest.mark.parametrize("name", ["dealer_seconds", "turn_seconds", "next_round_seconds"])
def test_seconds_in_0_to_3600_read_as_microseconds(name, seconds, micro):
    read = table_options(options(**{name: seconds}))
    field = {"dealer_seconds": "dealer_us", "turn_seconds": "turn_us"}.get(name, "next_round_us")
    assert getattr(read, field) == micro
    assert isinstance(getattr(read, field), int)


@pytest.mark.parametrize("seconds", [0, -1, 3600.5, 3601, True, "5", [5]])
@pytest.mark.parametrize("name", ["dealer_seconds", "turn_seconds", "next_round_seconds"])
def test_seconds_of_zero_over_an_hour_or_not_a_number_are_refused(name, seconds):
    assert refusal(options(**{name: seconds})) == bad(seconds_message(name, seconds))


def test_the_server_dealer_needs_a_pace():
    assert refusal(options(dealer_seconds=None)) == bad(
        "option 'dealer_seconds': the server dealer needs a pace in seconds"
    )


def test_public_hands_is_turn_over_or_live():
    assert table_options(options(public_hands="live")).public_hands == "live"
    assert table_options(options(public_hands="turn_over")).public_hands == "turn_over"
    assert refusal(options(public_hands="always")) == bad(
        "option 'public_hands': one of turn_over, live, not 'always'"
    )


# -- unknown options, and the options as data ----------------------------------------------


def test_the_first_unknown_option_in_name_order_is_named():
    assert refusal(options(zeta=1, deck=[])) == bad("option 'deck': unknown option")


def test_options_that_are_not_a_map_are_refused():
    assert refusal(["seats"]) == bad("options are a map")


def test_the_options_as_data_with_the_server_dealer_and_no_timers():
    read = table_options({"seats": seats_data(2), "seed": SEED})
    assert read == TableOptions(seats=(SeatInfo("s1", "Ada"), SeatInfo("s2", "Bo")), seed=SEED)
    assert read.as_data() == {
        "seats": [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}],
        "dealer": "server",
        "dealer_stands_at": 17,
        "dealer_seconds": 1.0,
        "public_hands": "turn_over",
        "turn_seconds": None,
        "next_round_seconds": None,
    }


def test_the_options_as_data_with_a_person_dealer_and_timers():
    raw = options(
        players=1,
        person_dealer=True,
        dealer_stands_at=16,
        dealer_seconds=0.25,
        public_hands="live",
        turn_seconds=20,
        next_round_seconds=2.5,
    )
    assert table_options(raw).as_data() == {
        "seats": [{"seat": "s1", "name": "Ada"}],
        "dealer": {"seat": "dl", "name": "Dora"},
        "dealer_stands_at": 16,
        "dealer_seconds": 0.25,
        "public_hands": "live",
        "turn_seconds": 20.0,
        "next_round_seconds": 2.5,
    }
