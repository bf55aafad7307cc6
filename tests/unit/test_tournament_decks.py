"""R-DECK-1/2/5: one 96-card deck per tournament, the cards and side each round plays."""

from __future__ import annotations

from collections import Counter

import pytest
from tournament_support import Tourney, tournament_options

from server.games import challenge
from server.tournament import decks
from server.tournament.tables import table_options_for

SEED = 24


def test_r_deck_1_one_96_card_deck_two_halves_of_48_no_side_repeated_12_24_12_per_side():
    deck = decks.tournament_deck(SEED)
    assert len(deck) == 96
    halves = (deck[:48], deck[48:])
    sides = [tuple(sorted(c.side(colour).numbers)) for c in deck for colour in ("red", "white")]
    assert len(set(sides)) == 192  # no side repeated anywhere in the deck
    for half in halves:
        assert len(half) == 48
        for colour in ("red", "white"):
            assert Counter(card.side(colour).dots for card in half) == {1: 12, 2: 24, 3: 12}
    assert len({card.card_id for card in deck}) == 96


def test_r_deck_2_half_one_is_single_digits_and_half_two_double_digits():
    deck = decks.tournament_deck(SEED)
    for card in deck[:48]:
        assert max(card.red.numbers + card.white.numbers) <= 9
    for card in deck[48:]:
        assert max(card.red.numbers) >= 10 and max(card.white.numbers) >= 10


def test_the_same_seed_gives_the_same_deck_and_another_seed_another():
    assert decks.tournament_deck(SEED) == decks.tournament_deck(SEED)
    assert decks.tournament_deck(SEED) != decks.tournament_deck(SEED + 1)


@pytest.mark.parametrize(
    "rules, expected",
    [
        ("official", {1: (1, "red"), 2: (1, "white"), 3: (2, "red"), 4: (2, "white")}),
        ("guidelines", {1: (1, "white"), 2: (2, "red"), 3: (1, "red"), 4: (2, "white")}),
    ],
)
def test_r_deck_5_the_side_per_round_follows_the_rules_document(rules, expected):
    for number, (half, side) in expected.items():
        assert decks.round_half_and_side(rules, number) == (half, side)
        cards = decks.round_cards(SEED, rules, number)
        source = decks.half_deck(SEED, half)
        by_id = {card.card_id: card for card in source}
        assert sorted(c["card_id"] for c in cards) == sorted(by_id)
        for entry in cards:
            assert entry["numbers"] == list(by_id[entry["card_id"]].side(side).numbers)


def test_r_deck_5_under_both_documents_every_side_is_played_exactly_once_in_four_rounds():
    for rules in ("official", "guidelines"):
        played = [decks.round_half_and_side(rules, n) for n in (1, 2, 3, 4)]
        assert sorted(played) == [(1, "red"), (1, "white"), (2, "red"), (2, "white")]


def started_round_one(**more) -> Tourney:
    t = Tourney(tournament_options(**more))
    t.register_many(8)
    t.do("close_registration")
    t.do("seat_round", round=1)
    t.do("start_round", round=1)
    return t


def test_r_deck_1_every_table_of_a_round_plays_the_same_cards_in_the_same_order():
    t = started_round_one()
    decks_ = [table_options_for(t.state, table.table)["deck"] for table in t.state.round(1).tables]
    assert all(deck == decks_[0] for deck in decks_)
    assert len(decks_[0]) == 48
    for table in t.state.round(1).tables:  # the options are a valid challenge table
        challenge.initial_state(table_options_for(t.state, table.table))


def test_r_deck_1_option_per_table_shuffle_gives_each_table_its_own_order_of_the_same_cards():
    t = started_round_one(per_table_shuffle=True)
    decks_ = [table_options_for(t.state, table.table)["deck"] for table in t.state.round(1).tables]
    orders = {tuple(card["card_id"] for card in deck) for deck in decks_}
    assert len(orders) == len(decks_)
    assert all(sorted(map(str, deck)) == sorted(map(str, decks_[0])) for deck in decks_)


def test_the_round_cards_are_hidden_from_players_and_spectators_in_the_tournament_stream():
    import server.tournament as tournament
    from server.games.base import Actor

    t = started_round_one()
    started = t.events[-1]
    assert started.type == "RoundStarted" and started.data["deck"]
    for role in ("player", "spectator", "proctor"):
        seen = tournament.event_view(started, Actor(role, "x"))
        assert "deck" not in seen.data and "orders" not in seen.data
        assert "deck_seed" not in tournament.view(t.state, Actor(role, "x"))
    assert tournament.event_view(started, Actor("director", "d")) == started


def test_start_round_refusals():
    t = Tourney()
    t.register_many(4)
    t.do("close_registration")
    assert t.refused("start_round", round=1).code == "round_not_seated"
    t.do("seat_round", round=1)
    t.do("start_round", round=1)
    assert t.refused("start_round", round=1).code == "round_started"


def test_r_round_1_a_tournament_may_play_fewer_cards_a_round_the_same_at_every_table():
    t = started_round_one(cards_per_round=12, per_table_shuffle=True)
    decks_ = [table_options_for(t.state, table.table)["deck"] for table in t.state.round(1).tables]
    assert all(len(deck) == 12 for deck in decks_)
    ids = [sorted(card["card_id"] for card in deck) for deck in decks_]
    assert all(these == ids[0] for these in ids)
    full = decks.round_cards(SEED, "official", 1)
    assert ids[0] == sorted(card["card_id"] for card in full[:12])
