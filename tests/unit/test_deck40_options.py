"""The options of a Kortspillet 24 (deck40) table at their edges (issue 20): every refusal
exactly (code and message, which names the option), both sides of every limit, the defaults
read whole, and the layout each player count gets (R-DECK40-1, R-DECK40-5, R-DECK40-6)."""

from __future__ import annotations

from typing import Any

import pytest
from casual_tables import seats_data

from server.games import deck40
from server.games.base import RuleViolation, SeatInfo
from server.games.deck40.options import (
    CARD_NAMES,
    MAX_TARGET,
    Deck40Options,
    card_data,
    is_card,
    rank,
    shuffled_deck,
    table_options,
    the_deck,
)
from server.puzzles.editions import playing_card_deck

DECK_WHY = "the 40 card names (AC..10S), each once, top first (R-DECK40-1)"
HOUSE_WHY = "a house option of the card version with two players (R-DECK40-6)"

# (options besides two seats, the option named, why)
REFUSED: list[tuple[dict[str, Any], str, str]] = [
    ({"jokers": 2, "colour": "red"}, "colour", "unknown option"),
    ({"seats": seats_data(1)}, "seats", "a list of 2..8 seats"),
    ({"seats": seats_data(9)}, "seats", "a list of 2..8 seats"),
    # every seat refusal of the reader deck40 shares with pocket cites deck40's rule
    (
        {"seats": [{"seat": "s1"}, "s2"]},
        "seats",
        "each seat is a map with 'seat' and 'name', not 's2'",
    ),
    (
        {"seats": [{"seat": "s1"}, {"seat": ""}]},
        "seats",
        "a seat id is a string of 1..64 characters",
    ),
    (
        {"seats": [{"seat": "s1"}, {"seat": "s2", "name": "n" * 65}]},
        "seats",
        "a name is a string of at most 64 characters",
    ),
    ({"seats": [{"seat": "s1"}, {"seat": "s1"}]}, "seats", "seat ids must be distinct"),
    ({"seed": -1}, "seed", "a whole number >= 0"),
    ({"seed": 2**63}, "seed", "a whole number >= 0"),
    ({"seed": True}, "seed", "a whole number >= 0"),
    ({"seed": 1.0}, "seed", "a whole number >= 0"),
    ({"layout": "circle"}, "layout", "one of auto, common_pile"),
    ({"layout": None}, "layout", "one of auto, common_pile"),
    ({"scoring": "golf"}, "scoring", "one of simple, advanced, cards (R-DECK40-3, R-DECK40-6)"),
    ({"target_points": 0}, "target_points", f"a whole number 1..{MAX_TARGET}, or null"),
    (
        {"target_points": MAX_TARGET + 1},
        "target_points",
        f"a whole number 1..{MAX_TARGET}, or null",
    ),
    ({"target_points": True}, "target_points", f"a whole number 1..{MAX_TARGET}, or null"),
    ({"target_points": 2.0}, "target_points", f"a whole number 1..{MAX_TARGET}, or null"),
    (
        {"scoring": "cards", "target_points": 10},
        "target_points",
        "the card version has no points (R-DECK40-6)",
    ),
    (
        {"scoring": "cards", "layout": "common_pile"},
        "scoring",
        "the card version needs own piles: 2 or 4 players (R-DECK40-6)",
    ),
    (
        {"scoring": "cards", "seats": seats_data(3)},
        "scoring",
        "the card version needs own piles: 2 or 4 players (R-DECK40-6)",
    ),
    ({"house_loser_takes": True}, "house_loser_takes", HOUSE_WHY),
    ({"scoring": "advanced", "house_loser_takes": True}, "house_loser_takes", HOUSE_WHY),
    (
        {"scoring": "cards", "seats": seats_data(4), "house_loser_takes": True},
        "house_loser_takes",
        HOUSE_WHY,
    ),
    ({"house_loser_takes": 1}, "house_loser_takes", "true or false"),
    ({"reveal_unsolvable": "yes"}, "reveal_unsolvable", "true or false"),
    ({"reveal_unsolvable": None}, "reveal_unsolvable", "true or false"),
    ({"deck": list(CARD_NAMES[:39])}, "deck", DECK_WHY),
    ({"deck": [*CARD_NAMES, "AS"]}, "deck", DECK_WHY),
    ({"deck": [*CARD_NAMES[:39], "AS"]}, "deck", DECK_WHY),
    ({"deck": [*CARD_NAMES[:39], "KS"]}, "deck", DECK_WHY),
    ({"deck": [*CARD_NAMES[:39], 5]}, "deck", DECK_WHY),
    ({"deck": " ".join(CARD_NAMES)}, "deck", DECK_WHY),
]


@pytest.mark.parametrize(("more", "name", "why"), REFUSED)
def test_every_option_refusal_exactly(more, name, why):
    with pytest.raises(RuleViolation) as caught:
        deck40.initial_state({"seats": seats_data(2), **more})
    assert caught.value.as_dict() == {
        "code": "invalid_options",
        "rule": "R-DECK40-1",
        "message": f"option {name!r}: {why}",
    }


def test_options_that_are_not_a_map_are_refused():
    with pytest.raises(RuleViolation) as caught:
        table_options(["seats"])  # type: ignore[arg-type]
    assert caught.value.as_dict() == {
        "code": "invalid_options",
        "rule": "R-DECK40-1",
        "message": "options are a map",
    }


@pytest.mark.parametrize(
    "more",
    [
        {"seats": seats_data(8)},
        {"seed": 0},
        {"seed": 2**63 - 1},
        {"target_points": 1},
        {"target_points": MAX_TARGET},
        {"target_points": None},
        {"scoring": "cards", "seats": seats_data(4)},
        {"scoring": "cards", "house_loser_takes": True},
        {"scoring": "advanced", "layout": "common_pile"},
        {"house_loser_takes": False, "reveal_unsolvable": True},
        {"deck": tuple(reversed(CARD_NAMES))},
        {"deck": None},
    ],
)
def test_both_sides_of_every_limit_the_allowed_side(more):
    read = table_options({"seats": seats_data(2), **more})
    for name, value in more.items():
        if name == "seats":
            assert len(read.seats) == len(value)
        elif name == "deck":
            assert read.deck == (None if value is None else tuple(value))
        else:
            assert getattr(read, name) == value


def test_the_defaults_read_whole():
    """Two seats and nothing else: the seed 0's shuffle, own piles of 20, simple scoring to
    the last card, no house option, the players agree alone (R-DECK40-1..7)."""
    assert table_options({"seats": seats_data(2)}) == Deck40Options(
        seats=(SeatInfo("s1", "Player 1"), SeatInfo("s2", "Player 2")),
        deck=None,
        seed=0,
        layout="pairs",
        scoring="simple",
        target_points=None,
        house_loser_takes=False,
        reveal_unsolvable=False,
    )
    defaults = dict(deck40.DEFAULT_OPTIONS)
    assert table_options(defaults) == table_options({"seats": defaults["seats"]})


@pytest.mark.parametrize(
    ("players", "layout", "per_player"),
    [
        (2, "pairs", 2),
        (3, "common_pile", 0),
        (4, "singles", 1),
        (5, "common_pile", 0),
        (8, "common_pile", 0),
    ],
)
def test_the_layout_follows_the_player_count(players, layout, per_player):
    """R-DECK40-1/5: two own piles, four own piles, else the dealer's common pile."""
    read = table_options({"seats": seats_data(players), "layout": "auto"})
    assert (read.layout, read.per_player) == (layout, per_player)
    common = table_options({"seats": seats_data(players), "layout": "common_pile"})
    assert (common.layout, common.per_player) == ("common_pile", 0)


def test_the_deck_is_the_given_order_or_the_seeds():
    given = tuple(reversed(CARD_NAMES))
    assert the_deck(table_options({"seats": seats_data(2), "deck": list(given)})) == given
    seeded = the_deck(table_options({"seats": seats_data(2), "seed": 3}))
    assert seeded == tuple(shuffled_deck(3))
    assert [rank(name) for name in seeded] == [card.rank for card in playing_card_deck(3)]
    assert [card_data(name)["suit"] for name in seeded] == [c.suit for c in playing_card_deck(3)]


def test_the_cards_by_name():
    """R-DECK40-1: `<rank><suit>`, ace = 1, ten written 10."""
    assert card_data("AC") == {"card": "AC", "suit": "clubs", "rank": 1}
    assert card_data("10H") == {"card": "10H", "suit": "hearts", "rank": 10}
    assert (rank("7D"), rank("10S")) == (7, 10)
    assert is_card("AS") and not is_card("1S") and not is_card("KS") and not is_card(None)
    assert CARD_NAMES[:3] == ("AC", "2C", "3C") and CARD_NAMES[-1] == "10S"


def test_the_public_options_leave_out_the_shuffle_and_the_seed():
    read = table_options(
        {"seats": seats_data(2), "seed": 9, "deck": list(CARD_NAMES), "target_points": 5}
    )
    assert read.public_data() == {
        "seats": [{"seat": "s1", "name": "Player 1"}, {"seat": "s2", "name": "Player 2"}],
        "layout": "pairs",
        "scoring": "simple",
        "target_points": 5,
        "house_loser_takes": False,
        "reveal_unsolvable": False,
    }
