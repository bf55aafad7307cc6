"""Table options: the rule defaults (R-FLAG-3, R-PLAY-4/5/7), their validation, and the deck
built from an edition's double-sided cards (R-DECK-1, R-DECK-5)."""

from __future__ import annotations

import pytest
from challenge_tables import PROCTOR, Table, options

from server.games import challenge
from server.games.base import RuleViolation
from server.games.challenge.options import (
    MICROSECONDS,
    deck_from_cards,
    default_flag_limit,
    table_options,
    tournament_table_deck,
)
from server.puzzles.editions import CardSide, TournamentCard, tournament_deck


def test_defaults_follow_the_rules():
    read = table_options(options())
    assert (read.round, read.flag_limit) == (1, 3)
    assert read.pattern_us == 3 * MICROSECONDS
    assert read.solution_us == 15 * MICROSECONDS
    assert read.no_touch_us == 15 * MICROSECONDS
    assert (read.stumped_cards, read.mode) == ("replay_at_end", "networked")  # R-PLAY-7
    assert read.casual is False  # R-PUZ-4
    assert read.auto_proctor_us is None


@pytest.mark.parametrize(("round_number", "limit"), [(1, 3), (2, 3), (3, 2), (4, 2)])
def test_flag_limit_follows_the_round(round_number, limit):
    assert default_flag_limit(round_number) == limit
    assert table_options(options(round=round_number)).flag_limit == limit


def test_durations_may_be_fractions_of_a_second():
    read = table_options(options(pattern_seconds=0.25, auto_proctor=1.5))
    assert read.pattern_us == 250_000 and read.auto_proctor_us == 1_500_000


def test_options_read_back_from_their_plain_form():
    read = table_options(options(round=3, mode="proctored", auto_proctor=2))
    again = table_options({**read.as_data(), "deck": [card.as_data() for card in read.deck]})
    assert again == read


BAD_OPTIONS = [
    ({"seats": [{"seat": "s1", "name": "A"}, {"seat": "s2", "name": "B"}]}, "seats"),
    ({"seats": "s1 s2 s3"}, "seats"),
    ({"seats": [{"seat": "s1"}, {"seat": "s1"}, {"seat": "s2"}]}, "seats"),
    ({"seats": [{"seat": ""}, {"seat": "s1"}, {"seat": "s2"}]}, "seats"),
    ({"seats": [{"seat": "a", "name": 7}, {"seat": "b"}, {"seat": "c"}]}, "seats"),
    ({"seats": ["s1", "s2", "s3"]}, "seats"),
    ({"deck": []}, "deck"),
    ({"deck": [{"card_id": "x", "numbers": [1, 2, 3], "dots": 1}]}, "deck"),
    ({"deck": [{"card_id": "x", "numbers": [1, 2, 3, 100], "dots": 1}]}, "deck"),
    ({"deck": [{"card_id": "x", "numbers": [1, 2, 3, 4], "dots": 4}]}, "deck"),
    ({"deck": [{"card_id": None, "numbers": [1, 2, 3, 4], "dots": 1}]}, "deck"),
    ({"deck": [{"card_id": "x", "numbers": [1, 2, 3, 4], "dots": 1}] * 2}, "deck"),
    ({"deck": ["1 2 3 4"]}, "deck"),
    ({"round": 5}, "round"),
    ({"round": True}, "round"),
    ({"pattern_seconds": 0}, "pattern_seconds"),
    ({"solution_seconds": "15"}, "solution_seconds"),
    ({"no_touch_seconds": 99999}, "no_touch_seconds"),
    ({"stumped_cards": "shuffle_back"}, "stumped_cards"),
    ({"mode": "remote"}, "mode"),
    ({"flag_limit": 0}, "flag_limit"),
    ({"auto_proctor": -1}, "auto_proctor"),
    ({"colour": "red"}, "colour"),
]


@pytest.mark.parametrize(("change", "field"), BAD_OPTIONS)
def test_bad_options_are_refused_naming_the_field(change, field):
    with pytest.raises(RuleViolation) as caught:
        challenge.initial_state({**options(), **change})
    assert caught.value.code == "bad_options"
    assert repr(field) in caught.value.message


def test_options_must_be_a_map():
    with pytest.raises(RuleViolation) as caught:
        challenge.initial_state(["seats"])
    assert caught.value.code == "bad_options"


def test_round_three_table_records_its_flag_limit_when_it_starts():
    table = Table.started(round=3)
    assert table.events[0].data["options"]["flag_limit"] == 2
    assert challenge.view(table.state, PROCTOR)["flag_limit"] == 2


def test_deck_plays_the_chosen_side_of_each_card():
    cards = [
        TournamentCard("a", CardSide((1, 1, 1, 8), 1), CardSide((3, 3, 8, 8), 3)),
        TournamentCard("b", CardSide((2, 2, 2, 3), 2), CardSide((4, 4, 4, 4), 2)),
    ]
    assert deck_from_cards(cards, "white") == [
        {"card_id": "a", "numbers": [3, 3, 8, 8], "dots": 3},
        {"card_id": "b", "numbers": [4, 4, 4, 4], "dots": 2},
    ]
    assert deck_from_cards(cards, "red")[0]["numbers"] == [1, 1, 1, 8]
    with pytest.raises(ValueError):
        deck_from_cards(cards, "blue")


def test_an_edition_deck_plays_a_round_at_a_three_student_table():
    deck = tournament_table_deck("single-digits", 7, round_number=2)
    cards = tournament_deck("single-digits", 7)
    assert [entry["numbers"] for entry in deck] == [list(card.white.numbers) for card in cards]
    table = Table(options(seats=3) | {"deck": deck, "round": 2})
    (started,) = table.do("start_round")
    assert len(started.data["deck"]) == 46  # R-DECK-4: 48 less two 2-dot cards
    assert {table.state.options.card(card_id).dots for card_id in started.data["removed"]} == {2}
    assert tournament_table_deck("single-digits", 7, 1, side="white") == deck
