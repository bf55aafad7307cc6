"""The cards of Tjugoett at their edges: every rank's points, a hand's value where the ace
stops counting 14, what counts as a deck order, the server dealer's stand at its limit, each
verdict whole, and the shuffle's output for known seeds.

Why golden shuffles: a table created with a number seed (`t24 admin create-table --seed 7`)
is meant to be re-derivable by anyone; the orders below are what the shuffle gave when it
was written, so a changed shuffle (a counter, the label's bytes, the bound) is noticed
instead of silently dealing other games from the same seed.
"""

from __future__ import annotations

import hashlib
from itertools import islice

import pytest

from server.games.tjugoett.cards import (
    DECK,
    Verdict,
    _below,
    _draws,
    card_points,
    dealer_verdict,
    hand_value,
    is_deck_order,
    player_verdict,
    reshuffle_label,
    round_label,
    server_dealer_stands,
    shuffled,
    stand_verdict,
)


def test_every_ranks_points_with_the_ace_low():
    points = {card[:-1]: card_points(card) for card in DECK if card.endswith("S")}
    assert points == {
        "A": 1,
        "2": 2,
        "3": 3,
        "4": 4,
        "5": 5,
        "6": 6,
        "7": 7,
        "8": 8,
        "9": 9,
        "10": 10,
        "J": 11,
        "Q": 12,
        "K": 13,
    }


@pytest.mark.parametrize(
    ("cards", "worth"),
    [
        ((), 0),
        (("AS", "7H"), 21),  # 1 + 7 + 13 = 21 exactly: the ace counts 14
        (("AS", "8H"), 9),  # 1 + 8 + 13 = 22: the ace counts 1
        (("AS", "3H", "4D"), 21),
        (("AS", "3H", "5D"), 9),
        (("2S", "3H"), 5),  # no ace: nothing added
    ],
)
def test_the_ace_counts_14_up_to_exactly_21(cards, worth):
    assert hand_value(cards) == worth
    assert hand_value(iter(cards)) == worth  # any iterable, read once


@pytest.mark.parametrize(
    "order",
    [list(DECK), tuple(DECK), list(reversed(DECK))],
)
def test_a_deck_order_is_the_52_codes_each_once_in_a_list_or_tuple(order):
    assert is_deck_order(order)


@pytest.mark.parametrize(
    "order",
    [
        list(DECK[:51]),
        [*DECK, "AS"],
        [*DECK[:51], "AS"],
        [*DECK[:51], 1],
        " ".join(DECK),
        set(DECK),
        None,
        [],
    ],
)
def test_anything_else_is_not_a_deck_order(order):
    assert not is_deck_order(order)


@pytest.mark.parametrize(
    ("cards", "stands_at", "stands"),
    [
        (("10S", "7H"), 17, True),  # 17 at 17
        (("10S", "6H"), 17, False),  # 16 under 17
        (("10S", "8H"), 17, True),
        (("KS",), 13, False),  # one card: always draws, whatever its value
        (("2S", "3H"), 5, True),  # two cards at the limit
        (("2S", "3H"), 6, False),
    ],
)
def test_the_server_dealer_stands_at_its_limit_with_two_cards(cards, stands_at, stands):
    assert server_dealer_stands(cards, stands_at) is stands


@pytest.mark.parametrize(
    ("cards", "verdict"),
    [
        (("AS", "7H"), Verdict("player", "twenty_one", "R-21-7")),
        (("KS", "QH"), Verdict("dealer", "bust", "R-21-9")),
        (("KS", "9H"), Verdict("dealer", "bust", "R-21-9")),  # 22: one over
        (("2S", "3H", "4D", "5S", "6H"), Verdict("player", "five_cards", "R-21-8")),
        (("2S", "3H", "4D", "5S"), None),  # four cards: plays on
        (("KS", "7H"), None),  # 20 on two cards
        (("2S", "3H", "4D", "5S", "7H"), Verdict("player", "twenty_one", "R-21-7")),
    ],
)
def test_a_players_hand_decides_at_once_exactly(cards, verdict):
    assert player_verdict(cards) == verdict


@pytest.mark.parametrize(
    ("cards", "verdict"),
    [
        (("AS", "7H"), Verdict("dealer", "dealer_twenty_one", "R-21-15")),
        (("KS", "9H"), Verdict("player", "dealer_bust", "R-21-17")),
        (("2S", "3H", "4D", "5S", "6H"), Verdict("dealer", "dealer_five_cards", "R-21-16")),
        (("2S", "3H", "4D", "5S"), None),
        (("KS", "7H"), None),
        (("AS",), None),
    ],
)
def test_the_dealers_hand_decides_at_once_exactly(cards, verdict):
    assert dealer_verdict(cards) == verdict


def test_a_standing_dealer_at_below_and_above_the_player_exactly():
    assert stand_verdict(18, 17) == Verdict("dealer", "dealer_at_or_above", "R-21-18")
    assert stand_verdict(17, 17) == Verdict("dealer", "dealer_at_or_above", "R-21-18")
    assert stand_verdict(16, 17) == Verdict("player", "dealer_below", "R-21-18")


def test_the_labels_of_the_shuffles():
    assert round_label(3) == "round 3"
    assert reshuffle_label(3, 2) == "round 3 reshuffle 2"


def test_the_shuffle_of_known_seeds_and_labels():
    assert shuffled(DECK, "test-seed-0001", "round 1")[:10] == [
        "10D", "3H", "JS", "JH", "9D", "8H", "4H", "AC", "QH", "6H",
    ]  # fmt: skip
    assert shuffled(DECK, "7", "round 2")[:6] == ["QD", "10S", "JC", "10D", "10C", "3S"]
    # the last swap of the shuffle (positions 0 and 1) is a swap here: both top cards moved
    assert shuffled(DECK, "test-seed-0001", "round 2")[:2] == ["3S", "8S"]
    assert shuffled(["AS", "2S", "3S"], "seed-abcdefgh", "round 1 reshuffle 1") == [
        "AS",
        "3S",
        "2S",
    ]


def test_the_shuffle_keeps_every_card_and_leaves_its_argument_alone():
    cards = list(DECK)
    order = shuffled(cards, "seed-one-1", "round 1")
    assert sorted(order) == sorted(DECK) and order != cards and cards == list(DECK)
    assert shuffled(["AS"], "seed-one-1", "round 1") == ["AS"]
    assert shuffled([], "seed-one-1", "round 1") == []


def test_the_draws_are_the_first_8_bytes_big_endian_of_sha256_of_seed_label_and_count():
    expected = [
        int.from_bytes(hashlib.sha256(f"seed-x\x00round 1\x00{n}".encode()).digest()[:8], "big")
        for n in range(3)
    ]
    assert list(islice(_draws("seed-x", "round 1"), 3)) == expected


# For a bound of 52, 2**64 % 52 == 16: the draws 2**64 - 16 .. 2**64 - 1 (the last,
# incomplete run of 52) are skipped, and 2**64 - 17 is the last one kept, worth 51.
LIMIT_52 = 2**64 - 16


@pytest.mark.parametrize(
    ("draws", "bound", "value"),
    [
        ([LIMIT_52 - 1], 52, 51),  # the last draw below the limit is kept
        ([LIMIT_52, 5], 52, 5),  # a draw exactly at the limit is skipped
        ([2**64 - 1, LIMIT_52 + 3, 104], 52, 0),  # every draw above it too
        ([2**64 - 1], 2, 1),  # 2**64 is a whole number of runs of 2: nothing is skipped
        ([2**64 - 1, 7], 3, 1),  # 2**64 % 3 == 1: only the last draw is skipped
        ([2**64 - 2], 3, 2),
    ],
)
def test_a_uniform_draw_skips_exactly_the_last_incomplete_run_below_2_to_the_64(
    draws, bound, value
):
    stream = iter(draws)
    assert _below(stream, bound) == value
    assert list(stream) == []  # no draw more than needed
