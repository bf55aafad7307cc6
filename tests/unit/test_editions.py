"""server.puzzles.editions: deterministic decks (R-DECK-1, R-DECK-2, R-PUZ-4, R-DECK40-1)."""

import subprocess
import sys
from collections import Counter

import pytest

from server.puzzles import editions
from server.puzzles.difficulty import dots
from server.puzzles.editions import (
    CardSide,
    PlayingCard,
    TournamentCard,
    double_digits,
    playing_card_deck,
    single_digits,
    tournament_deck,
)
from server.puzzles.solver import solvable


@pytest.fixture(scope="module", params=[("single-digits", 7), ("double-digits", 7)])
def deck(request):
    edition, seed = request.param
    return edition, tournament_deck(edition, seed)


def test_48_cards_with_12_24_12_dots_on_each_side(deck):
    _, cards = deck
    assert len(cards) == editions.CARDS_PER_HALF == 48
    for colour in ("red", "white"):
        mix = Counter(card.side(colour).dots for card in cards)
        assert mix == {1: 12, 2: 24, 3: 12}  # R-DECK-1


def test_every_side_is_solvable_and_rated_by_the_model(deck):
    _, cards = deck
    for card in cards:
        for side in (card.red, card.white):
            assert solvable(side.numbers)  # R-PUZ-4
            assert side.dots == dots(side.numbers)  # R-DECK-3
            assert card.red.dots == card.white.dots


def test_numbers_follow_the_edition(deck):
    # R-DECK-2: Single Digits 1..9; Double Digits 1..24 with a number >= 10 on every side
    edition, cards = deck
    for card in cards:
        for side in (card.red, card.white):
            assert len(side.numbers) == 4
            if edition == "single-digits":
                assert all(1 <= n <= 9 for n in side.numbers)
            else:
                assert all(1 <= n <= 24 for n in side.numbers)
                assert max(side.numbers) >= 10


def test_no_two_sides_show_the_same_numbers_and_ids_are_unique(deck):
    _, cards = deck
    sides = [tuple(sorted(s.numbers)) for card in cards for s in (card.red, card.white)]
    assert len(set(sides)) == 96
    assert len({card.card_id for card in cards}) == 48


def test_same_seed_same_deck_other_seed_other_deck():
    assert single_digits(7) == single_digits(7)
    assert single_digits(7) != single_digits(8)
    assert double_digits(3) != single_digits(3)
    assert tournament_deck("single-digits", 7) == single_digits(7)


def test_an_editions_deck_is_drawn_once_per_edition_seed_and_seed_type():
    """`tournament_deck` is cached (a pocket table draws its stack on every `start_game`):
    the same object comes back, a seed of another type is another deck (its text seeds the
    generator: "True" is not "1"), and at most `DECKS_CACHED` decks are kept."""
    tournament_deck.cache_clear()
    first = tournament_deck("single-digits", 11)
    assert tournament_deck("single-digits", 11) is first
    assert tournament_deck("single-digits", 12) is not first
    assert tournament_deck("single-digits", True) != tournament_deck("single-digits", 1)
    assert tournament_deck("single-digits", 1) == single_digits(1)
    assert tournament_deck.cache_info().maxsize == editions.DECKS_CACHED == 32


def test_fixed_vector_guards_against_drift():
    # A deck recorded in a log must be regenerated identically years later, on any machine.
    deck = single_digits(7)
    assert deck[0] == TournamentCard("SD-01", CardSide((2, 6, 4, 2), 2), CardSide((1, 4, 3, 1), 2))
    assert deck[2] == TournamentCard("SD-03", CardSide((5, 8, 7, 9), 3), CardSide((2, 1, 3, 3), 3))
    assert playing_card_deck(1)[:3] == (
        PlayingCard("spades", 3),
        PlayingCard("spades", 1),
        PlayingCard("clubs", 9),
    )


def test_decks_do_not_depend_on_hash_randomisation():
    code = (
        "from server.puzzles.editions import double_digits, playing_card_deck;"
        "print(repr(double_digits(5)), repr(playing_card_deck(5)))"
    )
    outputs = {
        subprocess.run(
            [sys.executable, "-c", code],
            env={"PYTHONHASHSEED": hashseed, "PATH": ""},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for hashseed in ("1", "2")
    }
    assert len(outputs) == 1
    assert outputs.pop() == f"{double_digits(5)!r} {playing_card_deck(5)!r}\n"


def test_playing_card_deck_is_40_cards_ace_to_ten():
    deck = playing_card_deck(11)
    assert len(deck) == 40
    assert set(deck) == {PlayingCard(s, r) for s in editions.SUITS for r in range(1, 11)}
    assert playing_card_deck(11) == deck
    assert playing_card_deck(12) != deck


def test_unknown_edition_and_side_are_refused():
    with pytest.raises(ValueError, match="unknown edition"):
        tournament_deck("algebra", 1)
    with pytest.raises(ValueError, match="'red' or 'white'"):
        single_digits(1)[0].side("blue")


def test_an_impossible_rule_stops_instead_of_looping(monkeypatch):
    monkeypatch.setattr(editions, "MAX_DRAWS", 200)
    with pytest.raises(RuntimeError, match="could not fill"):
        draw, _rate, _make = editions._numbers_edition(1, 9, lambda numbers: True)
        editions._draw_sides(editions.random.Random(1), draw, lambda drawn, room: None, set())


def test_as_dict_is_plain_data():
    card = single_digits(7)[0]
    assert card.as_dict() == {
        "card_id": "SD-01",
        "red": {"numbers": [2, 6, 4, 2], "dots": 2},
        "white": {"numbers": [1, 4, 3, 1], "dots": 2},
    }
    assert PlayingCard("hearts", 1).as_dict() == {"suit": "hearts", "rank": 1}
