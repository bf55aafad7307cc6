"""R-DECK-1/2/5: one 96-card deck per tournament, the cards and side each round plays."""

from __future__ import annotations

from collections import Counter

import pytest
from tournament_support import Tourney, tournament_options

from server.games import challenge
from server.puzzles.editions import tournament_deck
from server.puzzles.round_decks import RoundPlan
from server.tournament import decks
from server.tournament.options import TournamentOptions
from server.tournament.options import tournament_options as read_options
from server.tournament.tables import table_options_for

SEED = 24


def official(**more) -> TournamentOptions:
    return read_options(tournament_options(**more))


def test_r_deck_1_one_96_card_deck_two_halves_of_48_no_side_repeated_12_24_12_per_side():
    options = official()
    halves = [decks.round_cards(options, 1), decks.round_cards(options, 3)]
    assert all(len(half) == 48 for half in halves)
    ids = {card["card_id"] for half in halves for card in half}
    assert len(ids) == 96
    sides = [
        tuple(sorted(c["numbers"])) for n in (1, 2, 3, 4) for c in decks.round_cards(options, n)
    ]
    assert len(set(sides)) == 192  # no side repeated anywhere in the deck
    for number in (1, 2, 3, 4):
        dots = Counter(card["dots"] for card in decks.round_cards(options, number))
        assert dots == {1: 12, 2: 24, 3: 12}


def test_r_deck_2_the_official_deck_is_one_edition_single_digits_unless_named():
    for number in (1, 2, 3, 4):
        assert all(max(c["numbers"]) <= 9 for c in decks.round_cards(official(), number))
        double = decks.round_cards(official(edition="double-digits"), number)
        assert all(max(c["numbers"]) >= 10 for c in double)


def test_the_same_seed_gives_the_same_deck_and_another_seed_another():
    assert decks.round_cards(official(), 3) == decks.round_cards(official(), 3)
    assert decks.round_cards(official(), 3) != decks.round_cards(official(deck_seed=SEED + 1), 3)


@pytest.mark.parametrize(
    "rules, expected",
    [
        (
            "official",
            {
                1: ("single-digits", 1, "red"),
                2: ("single-digits", 1, "white"),
                3: ("single-digits", 2, "red"),
                4: ("single-digits", 2, "white"),
            },
        ),
        (
            "guidelines",
            {
                1: ("single-digits", 1, "white"),
                2: ("double-digits", 1, "red"),
                3: ("single-digits", 1, "red"),
                4: ("double-digits", 1, "white"),
            },
        ),
    ],
)
def test_r_deck_5_the_side_per_round_follows_the_rules_document(rules, expected):
    options = official(rules=rules)
    for number, (edition, half, side) in expected.items():
        assert decks.plan_of(options, number) == RoundPlan(edition, half, side)
        cards = decks.round_cards(options, number)
        by_id = {card.card_id: card for card in tournament_deck(edition, SEED, half)}
        assert sorted(c["card_id"] for c in cards) == sorted(by_id)
        for entry in cards:
            assert entry["numbers"] == list(by_id[entry["card_id"]].side(side).numbers)


def test_r_deck_5_under_both_documents_every_side_is_played_exactly_once_in_four_rounds():
    for rules in ("official", "guidelines"):
        options = official(rules=rules)
        played = [decks.plan_of(options, n) for n in (1, 2, 3, 4)]
        assert len({(p.edition, p.half, p.side) for p in played}) == 4
        assert len({(p.edition, p.half) for p in played}) == 2  # two sets of 48, both sides


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
    full = decks.round_cards(t.state.options, 1)
    assert ids[0] == sorted(card["card_id"] for card in full[:12])


def test_given_an_edition_the_rules_do_not_take_when_created_then_bad_options_R_DECK_5():
    """The Official Rules' deck is Single Digits or Double Digits; the Guidelines name their
    editions themselves, so an `edition` there is refused rather than ignored."""
    from server.games.base import RuleViolation

    assert official(edition="double-digits").edition == "double-digits"
    for more, why in (
        ({"edition": "variables"}, "'edition': one of single-digits, double-digits (R-DECK-5)"),
        (
            {"rules": "guidelines", "edition": "single-digits"},
            "'edition': the guidelines rules name their editions themselves (R-DECK-5)",
        ),
        (
            {"rules": "special_instructions", "edition": "double-digits"},
            "'edition': the special_instructions rules name their editions themselves",
        ),
    ):
        with pytest.raises(RuleViolation) as refused:
            official(**more)
        assert refused.value.code == "bad_options"
        assert why in str(refused.value)


@pytest.mark.parametrize(
    "rules, passed_on, policy",
    [
        ("official", {}, "replay_at_end"),  # "the proctor removes that card for later play"
        ("guidelines", {}, "set_aside"),  # "set that card aside in a separate pile"
        ("guidelines", {"stumped_cards": "replay_at_end"}, "replay_at_end"),  # chosen
        ("special_instructions", {}, "replay_at_end"),  # part of the Official Rules
    ],
)
def test_given_a_rules_document_when_a_table_is_made_then_its_stumped_policy_R_PLAY_7(
    rules, passed_on, policy
):
    """R-PLAY-7: a stumped card under the Proctor Guidelines is set aside, never replayed;
    under the Official Rules it is played again at the end; a director's own choice
    (`table_options.stumped_cards`) stands under either document."""
    t = started_round_one(rules=rules, table_options=passed_on)
    for table in t.state.round(1).tables:
        options = table_options_for(t.state, table.table)
        assert options["stumped_cards"] == policy
        assert challenge.initial_state(options).options.stumped_cards == policy
