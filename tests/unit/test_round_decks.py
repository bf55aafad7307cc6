"""Which cards each round plays (R-DECK-1, R-DECK-2, R-DECK-5), one table for everyone:
`server.puzzles.round_decks`, read by the tournament (`server.tournament.decks`) and by a
single 24 Challenge table (`challenge.options.tournament_table_deck`, `default_side`,
`default_half`). docs/rules.md, "Which cards a round plays", records the reading.

Why these tests: the two used to hold a model each, agreeing on the sides but not on the
halves under the Guidelines; a single table of round N must play the tournament's round-N
cards under either document.
"""

from __future__ import annotations

import pytest
from tournament_support import Tourney, tournament_options

from server.games import challenge
from server.games.challenge.options import default_half, default_side, tournament_table_deck
from server.puzzles.editions import double_digits, single_digits
from server.puzzles.round_decks import round_deck, round_half_and_side
from server.tournament.tables import table_options_for

SEED = 24  # tournament_options' deck_seed
# R-DECK-5 as the rule text reads (docs/rules.md): round -> (edition, side).
EXPECTED = {
    "official": {
        1: ("single-digits", "red"),  # "round 1 the first half red side up"
        2: ("single-digits", "white"),  # "the same 48 cards flipped, white side"
        3: ("double-digits", "red"),  # "rounds 3-4 the second half"
        4: ("double-digits", "white"),
    },
    "guidelines": {
        1: ("single-digits", "white"),  # "round 1 Single Digits cards white side up"
        2: ("double-digits", "red"),  # "round 2 Double Digits cards red side up"
        3: ("single-digits", "red"),  # silent: the side of each half not played yet
        4: ("double-digits", "white"),
    },
}
EDITION_CARDS = {"single-digits": single_digits, "double-digits": double_digits}
ROUNDS = [(document, n) for document in EXPECTED for n in (1, 2, 3, 4)]


def expected_deck(document: str, round_number: int) -> list[dict]:
    edition, side = EXPECTED[document][round_number]
    return [
        {"card_id": card.card_id, **card.side(side).as_dict()}
        for card in EDITION_CARDS[edition](SEED)
    ]


def as_set(deck: list[dict]) -> set[tuple]:
    return {(card["card_id"], tuple(card["numbers"]), card["dots"]) for card in deck}


@pytest.mark.parametrize("document, round_number", ROUNDS)
def test_each_round_plays_its_edition_on_its_side_R_DECK_5(document, round_number):
    deck = round_deck(SEED, document, round_number)
    assert deck == expected_deck(document, round_number)
    edition, side = EXPECTED[document][round_number]
    assert round_half_and_side(document, round_number) == (1 if edition[0] == "s" else 2, side)
    if edition == "double-digits":  # R-DECK-2: a number of 10 or more on every card
        assert all(max(card["numbers"]) >= 10 for card in deck)
    else:
        assert all(max(card["numbers"]) <= 9 for card in deck)


@pytest.mark.parametrize("document, round_number", ROUNDS)
def test_a_single_table_of_a_round_plays_the_tournaments_cards_of_that_round(
    document, round_number
):
    """A plain challenge table made for round N (`tournament_table_deck`) reads back with the
    tournament's round-N cards and sides; its default side and half are the same table's."""
    deck = tournament_table_deck(None, SEED, round_number, document=document)
    assert deck == expected_deck(document, round_number)
    seats = [{"seat": f"s{i}", "name": ""} for i in (1, 2, 3, 4)]
    read = challenge.initial_state({"seats": seats, "deck": deck, "round": round_number})
    assert as_set([card.as_data() for card in read.options.deck]) == as_set(deck)
    half, side = round_half_and_side(document, round_number)
    assert (default_half(round_number, document), default_side(round_number, document)) == (
        half,
        side,
    )


def test_a_single_table_refuses_an_edition_its_round_does_not_play():
    assert tournament_table_deck("single-digits", SEED, 1) == expected_deck("official", 1)
    with pytest.raises(ValueError) as wrong:
        tournament_table_deck("single-digits", SEED, 3)
    assert str(wrong.value) == (
        "round 3 under the official rules plays double-digits (R-DECK-5), not single-digits"
    )
    with pytest.raises(ValueError, match="a side is"):
        tournament_table_deck(None, SEED, 1, side="blue")
    with pytest.raises(ValueError, match="a rules document is one of official, guidelines"):
        default_side(1, "hearsay")
    with pytest.raises(ValueError, match="a round is 1, 2, 3 or 4"):
        round_deck(SEED, "official", 5)


def points(student: str) -> int:
    """Distinct points per student (no ties, so no tie-break rounds): ids are p1, p2, ..."""
    return int(student[1:])


@pytest.mark.parametrize("document", list(EXPECTED))
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
        half, side = round_half_and_side(document, number)
        assert (started.data["half"], started.data["side"]) == (half, side)
        single = tournament_table_deck(None, SEED, number, document=document)
        tables = t.state.round(number).tables
        grades = {t.state.students[s].grade for table in tables for s in table.students}
        assert grades == {"4th", "5th"}
        for table in tables:
            deck = table_options_for(t.state, table.table)["deck"]
            assert as_set(deck) == as_set(single), (document, number, table.table)
            assert deck == list(t.state.round(number).deck)  # every table, the same order
        for table in tables:
            t.table_ends(table.table, {s: points(s) for s in table.students})
        t.do("close_round", round=number)
