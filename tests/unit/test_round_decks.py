"""Which cards each round plays (R-DECK-1, R-DECK-2, R-DECK-5), one table for everyone:
`server.puzzles.round_decks`, read by the tournament (`server.tournament.decks`) and by a
single 24 Challenge table (`challenge.options.tournament_table_deck`). docs/rules.md, "Which
cards a round plays", records the reading.

Why these tests: the two used to hold a model each, agreeing on the sides but not on the
halves under the Guidelines; a single table of round N must play the tournament's round-N
cards under either document. And the Official Rules play one 96-card deck (seed 004: round 3
is "the second half of the 96 card deck"), not a Single Digits half then a Double Digits one.
"""

from __future__ import annotations

from collections import Counter

import pytest
from tournament_support import Tourney, tournament_options

from server.games import challenge
from server.games.challenge.options import tournament_table_deck
from server.puzzles.editions import double_digits, single_digits, variables_cards
from server.puzzles.round_decks import RoundPlan, draws_needed, round_deck, round_plan
from server.tournament.tables import table_options_for

SEED = 24  # tournament_options' deck_seed
# R-DECK-5 as the rule text reads (docs/rules.md): round -> (edition, half, side).
EXPECTED = {
    "official": {
        1: ("single-digits", 1, "red"),  # "the first half of a 96-card deck ... red sides"
        2: ("single-digits", 1, "white"),  # "Flip the above 48 cards over and play the white"
        3: ("single-digits", 2, "red"),  # "the second half of the 96 card deck), red side"
        4: ("single-digits", 2, "white"),  # "Flip over the above 48 cards"
    },
    "guidelines": {
        1: ("single-digits", 1, "white"),  # "Single Digits cards WHITE sides up"
        2: ("double-digits", 1, "red"),  # "Double Digits cards with RED sides up"
        3: ("single-digits", 1, "red"),  # silent: the side of each edition not played yet
        4: ("double-digits", 1, "white"),
    },
}
EDITION_CARDS = {"single-digits": single_digits, "double-digits": double_digits}
ROUNDS = [(document, n) for document in EXPECTED for n in (1, 2, 3, 4)]


def expected_deck(document: str, round_number: int) -> list[dict]:
    edition, half, side = EXPECTED[document][round_number]
    return [
        {"card_id": card.card_id, **card.side(side).as_dict()}
        for card in EDITION_CARDS[edition](SEED, half)
    ]


def as_set(deck: list[dict]) -> set[tuple]:
    """Each card as (id, what it shows, dots); a Variables side shows its wheels."""
    return {
        (card["card_id"], repr(card.get("numbers") or card["wheels"]), card["dots"])
        for card in deck
    }


@pytest.mark.parametrize("document, round_number", ROUNDS)
def test_each_round_plays_its_edition_on_its_side_R_DECK_5(document, round_number):
    deck = round_deck(SEED, document, round_number)
    assert deck == expected_deck(document, round_number)
    assert round_plan(document, round_number) == RoundPlan(*EXPECTED[document][round_number])
    edition = EXPECTED[document][round_number][0]
    if edition == "double-digits":  # R-DECK-2: a number of 10 or more on every card
        assert all(max(card["numbers"]) >= 10 for card in deck)
    else:
        assert all(max(card["numbers"]) <= 9 for card in deck)


def test_given_the_official_rules_when_four_rounds_are_dealt_then_one_96_card_deck_R_DECK_5():
    """Seed 004: round 1 "the first half of a 96-card deck" red, round 2 "flip the above 48
    cards", round 3 "the second half of the 96 card deck", red, round 4 flipped: 96 cards of
    one edition, every side played once, no card in two halves."""
    for edition in (None, "double-digits"):
        decks = {n: round_deck(SEED, "official", n, edition=edition) for n in (1, 2, 3, 4)}
        ids = {n: [card["card_id"] for card in deck] for n, deck in decks.items()}
        assert ids[1] == ids[2] and ids[3] == ids[4] and set(ids[1]).isdisjoint(ids[3])
        assert len(set(ids[1]) | set(ids[3])) == 96
        prefix = "DD-" if edition else "SD-"
        assert all(card_id.startswith(prefix) for card_id in ids[1] + ids[3])
        sides = {tuple(sorted(card["numbers"])) for deck in decks.values() for card in deck}
        assert len(sides) == 192  # every side of the 96 cards, none twice
        assert draws_needed("official", edition, SEED) == [
            (edition or "single-digits", SEED, 1),
            (edition or "single-digits", SEED, 2),
        ]


def test_only_the_official_rules_take_an_edition_R_DECK_5():
    assert round_plan("official", 3, "double-digits") == RoundPlan("double-digits", 2, "red")
    with pytest.raises(ValueError) as unknown:
        round_plan("official", 1, "variables")
    assert str(unknown.value) == (
        "an Official Rules deck is one of single-digits, double-digits, not 'variables'"
    )
    with pytest.raises(ValueError) as named:
        round_plan("guidelines", 1, "double-digits")
    assert str(named.value) == (
        "the guidelines rules name their editions (R-DECK-5), not 'double-digits'"
    )


@pytest.mark.parametrize("document, round_number", ROUNDS)
def test_a_single_table_of_a_round_plays_the_tournaments_cards_of_that_round(
    document, round_number
):
    """A plain challenge table made for round N (`tournament_table_deck`) reads back with the
    tournament's round-N cards and sides."""
    deck = tournament_table_deck(None, SEED, round_number, document=document)
    assert deck == expected_deck(document, round_number)
    seats = [{"seat": f"s{i}", "name": ""} for i in (1, 2, 3, 4)]
    read = challenge.initial_state({"seats": seats, "deck": deck, "round": round_number})
    assert as_set([card.as_data() for card in read.options.deck]) == as_set(deck)


def test_a_single_table_refuses_an_edition_its_round_does_not_play():
    assert tournament_table_deck("single-digits", SEED, 1) == expected_deck("official", 1)
    assert tournament_table_deck("double-digits", SEED, 3) == [
        {"card_id": card.card_id, **card.red.as_dict()} for card in double_digits(SEED, 2)
    ]
    assert tournament_table_deck("double-digits", SEED, 2, document="guidelines") == (
        expected_deck("guidelines", 2)
    )
    with pytest.raises(ValueError) as wrong:
        tournament_table_deck("single-digits", SEED, 2, document="guidelines")
    assert str(wrong.value) == (
        "round 2 under the guidelines rules plays double-digits (R-DECK-5), not single-digits"
    )
    with pytest.raises(ValueError, match="a side is"):
        tournament_table_deck(None, SEED, 1, side="blue")
    with pytest.raises(ValueError, match="a rules document is one of official, guidelines, spec"):
        round_plan("hearsay", 1)
    with pytest.raises(ValueError, match="a round is 1, 2, 3 or 4"):
        round_deck(SEED, "official", 5)


def points(student: str) -> int:
    """Distinct points per student (no ties, so no tie-break rounds): ids are p1, p2, ..."""
    return int(student[1:])


def test_given_the_special_instructions_then_single_then_double_digits_then_a_mix_R_DECK_5():
    """Seed 004's Special Instructions: "Round 1 may be played with 48 Single Digits cards.
    Round 2 may be played with 48 Double Digits cards. Semi-final Round 3 and Final Round 4
    may be played with a combination of Single Digits, Double Digits and Variables cards."
    The mix: 16 cards of each, 4/8/4 by dots, from the decks' parts not played yet; round 4
    the same cards flipped."""
    document = "special_instructions"
    assert round_deck(SEED, document, 1) == [
        {"card_id": card.card_id, **card.red.as_dict()} for card in single_digits(SEED)
    ]
    assert round_deck(SEED, document, 2) == [
        {"card_id": card.card_id, **card.red.as_dict()} for card in double_digits(SEED)
    ]
    third, fourth = round_deck(SEED, document, 3), round_deck(SEED, document, 4)
    assert [card["card_id"] for card in third] == [card["card_id"] for card in fourth]
    sources = {
        "SD": {card.card_id: card for card in single_digits(SEED, 2)},
        "DD": {card.card_id: card for card in double_digits(SEED, 2)},
        "VAR": {card.card_id: card for card in variables_cards(SEED)},
    }
    by_edition: dict[str, Counter] = {}
    for red, white in zip(third, fourth, strict=True):
        prefix = red["card_id"].split("-")[0]
        printed = sources[prefix][red["card_id"]]
        assert red == {"card_id": printed.card_id, **printed.red.as_dict()}
        assert white == {"card_id": printed.card_id, **printed.white.as_dict()}
        by_edition.setdefault(prefix, Counter())[red["dots"]] += 1
    assert by_edition == {p: Counter({1: 4, 2: 8, 3: 4}) for p in ("SD", "DD", "VAR")}
    assert all("wheels" in card for card in third if card["card_id"].startswith("VAR-"))
    played_before = {card["card_id"] for n in (1, 2) for card in round_deck(SEED, document, n)}
    assert played_before.isdisjoint(card["card_id"] for card in third)
    assert third != sorted(third, key=lambda card: card["card_id"])  # shuffled by the seed
    assert round_plan(document, 3) == RoundPlan("mixed", 2, "red")
    assert draws_needed(document, None, SEED) == [
        ("single-digits", SEED, 1),
        ("double-digits", SEED, 1),
        ("single-digits", SEED, 2),
        ("double-digits", SEED, 2),
        ("variables", SEED, 1),
    ]


@pytest.mark.parametrize("document", [*EXPECTED, "special_instructions"])
def test_a_tournament_deals_every_table_of_every_grade_its_rounds_cards(document):
    """Through the tournament's Decider, all four rounds, two grades: every table's options
    (what the shell records in its `TableCreated`) hold the round's cards, the same cards as
    a single table of that round, in the round's shuffled order."""
    t = Tourney(tournament_options(grades=["4th", "5th"], rules=document))
    t.register_many(8)
    for number in (1, 2, 3, 4):
        if number > 2:  # R-ROUND-3/4: rounds 1 and 2 add up; round 1 advances nobody
            t.do("advance", round=number - 1)
        if t.state.registration_open:
            t.do("close_registration")
        if not t.state.round(number).tables:
            t.do("seat_round", round=number)
        (started,) = [e for e in t.do("start_round", round=number) if e.type == "RoundStarted"]
        plan = round_plan(document, number)
        recorded = (started.data["edition"], started.data["half"], started.data["side"])
        assert recorded == (plan.edition, plan.half, plan.side)
        single = tournament_table_deck(None, SEED, number, document=document)
        tables = t.state.round(number).tables
        grades = {t.state.students[s].grade for table in tables for s in table.students}
        assert grades == {"4th", "5th"}
        for table in tables:
            options = table_options_for(t.state, table.table)
            deck = options["deck"]
            assert as_set(deck) == as_set(single), (document, number, table.table)
            challenge.check_new_table(options)  # a table the shell can create (R-PUZ-4)
            assert deck == list(t.state.round(number).deck)  # every table, the same order
        for table in tables:
            t.table_ends(table.table, {s: points(s) for s in table.students})
        t.do("close_round", round=number)
