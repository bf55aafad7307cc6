"""The options of a Tjugoett table: the defaults, and a `bad_options` refusal naming the
field for every way an option can be wrong (nothing is recorded for refused options)."""

from __future__ import annotations

import pytest
from tjugoett_tables import SEED, options, seats_data

from server.games import tjugoett
from server.games.base import RuleViolation
from server.games.tjugoett.options import DEFAULT_OPTIONS, table_options


def test_defaults_fill_what_the_table_leaves_out():
    read = table_options({"seats": seats_data(1), "seed": SEED})
    assert read.dealer is None and read.dealer_seat is None
    assert read.dealer_stands_at == DEFAULT_OPTIONS["dealer_stands_at"] == 17
    assert read.dealer_us == 1_000_000
    assert read.public_hands == "turn_over"
    assert read.turn_us is None and read.next_round_us is None
    assert tjugoett.DEFAULT_OPTIONS is DEFAULT_OPTIONS


def test_a_person_dealer_and_seven_players():
    read = table_options(
        options(players=7, person_dealer=True, turn_seconds=20, next_round_seconds=3)
    )
    assert read.dealer_seat == "dl" and len(read.seat_ids()) == 7
    assert read.turn_us == 20_000_000 and read.next_round_us == 3_000_000
    assert read.as_data()["dealer"] == {"seat": "dl", "name": "Dora"}
    assert "seed" not in read.as_data()


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        ({"seats": seats_data(1)}, "seed"),
        ({"seats": seats_data(1), "seed": "short"}, "seed"),
        ({"seats": seats_data(1), "seed": -1}, "seed"),
        ({"seats": seats_data(1), "seed": True}, "seed"),
        ({"seats": seats_data(1), "seed": 2.5}, "seed"),
        ({"seed": SEED}, "seats"),
        ({"seats": [], "seed": SEED}, "seats"),
        ({"seats": seats_data(7) + [{"seat": "s8"}], "seed": SEED}, "seats"),
        ({"seats": [{"seat": "s1"}, {"seat": "s1"}], "seed": SEED}, "seats"),
        ({"seats": ["s1"], "seed": SEED}, "seats"),
        ({"seats": [{"seat": ""}], "seed": SEED}, "seats"),
        ({"seats": [{"seat": "s1", "name": 7}], "seed": SEED}, "seats"),
        (options(dealer={"seat": "s1", "name": "X"}), "dealer"),
        (options(dealer="robot"), "dealer"),
        (options(dealer_stands_at=22), "dealer_stands_at"),
        (options(dealer_stands_at=True), "dealer_stands_at"),
        (options(dealer_seconds=None), "dealer_seconds"),
        (options(dealer_seconds=0), "dealer_seconds"),
        (options(public_hands="always"), "public_hands"),
        (options(turn_seconds=-1), "turn_seconds"),
        (options(next_round_seconds="soon"), "next_round_seconds"),
        (options(deck=[]), "deck"),
    ],
)
def test_bad_options_are_refused_naming_the_field(raw, field):
    with pytest.raises(RuleViolation) as caught:
        tjugoett.initial_state(raw)
    assert caught.value.code == "bad_options"
    assert repr(field) in caught.value.message


def test_options_must_be_a_map():
    with pytest.raises(RuleViolation) as caught:
        tjugoett.initial_state(["seats"])  # type: ignore[arg-type]
    assert caught.value.code == "bad_options"
