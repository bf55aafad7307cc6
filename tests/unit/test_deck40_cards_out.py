"""R-DECK40-6: a game played to its last card ends exactly with `cards_out` (issue 14).

A stacked deck in which every set of four that comes up has a solution: each set is taken,
none goes back under a pile, and after ten sets no card is left to turn up. Every layout
turns up the deck's cards four by four in deck order (two players: two each from piles dealt
alternately; four players: one each; the common pile: four from its top), so a deck whose
consecutive fours are all solvable is such a deck for each of them; the test checks that
each set on the table is the next four of the deck.
"""

from __future__ import annotations

import random

import pytest
from casual_tables import Table, player, seats_data

from server.games import deck40
from server.games.deck40.options import CARD_NAMES, rank
from server.puzzles.solver import solve


def solvable_fours_deck(seed: int) -> list[str]:
    """A deck order whose consecutive fours each have a solution (shuffles tried in turn)."""
    shuffler = random.Random(seed)
    deck = list(CARD_NAMES)
    for _ in range(2000):
        shuffler.shuffle(deck)
        fours = [deck[i : i + 4] for i in range(0, 40, 4)]
        if all(solve([rank(card) for card in four]) for four in fours):
            return list(deck)
    raise AssertionError("no such deck found")


@pytest.mark.parametrize(
    ("players", "layout"),
    [(2, "pairs"), (4, "singles"), (3, "common_pile"), (2, "common_pile")],
)
def test_r_deck40_6_the_last_set_taken_ends_the_game_with_cards_out(players, layout):
    deck = solvable_fours_deck(24)
    options = {"seats": seats_data(players), "deck": deck, "scoring": "simple"}
    if layout == "common_pile" and players == 2:
        options["layout"] = "common_pile"
    table = Table.started(deck40, options)
    assert table.state.options.layout == layout
    seats = [seat["seat"] for seat in options["seats"]]
    for number in range(10):
        assert not deck40.is_over(table.state)
        cards = [on.card for on in table.state.table]
        assert sorted(cards) == sorted(deck[4 * number : 4 * number + 4])  # the next four
        expression = solve([rank(card) for card in cards])[0].ascii_expression
        table.do("call_24", player(seats[number % players]), expression=expression)
    ended = table.events[-1]
    assert ended.type == "GameEnded", [event.type for event in table.events[-3:]]
    assert ended.data["reason"] == "cards_out"
    assert set(ended.data["cards_left"].values()) == {0}
    assert sum(ended.data["scores"].values()) == 10  # every set taken, one point each
    assert sum(ended.data["won"].values()) == 40
    best = max(ended.data["scores"].values())
    assert ended.data["winners"] == [s for s in seats if ended.data["scores"][s] == best]
    assert ended.data["tie"] == (len(ended.data["winners"]) > 1)
    assert deck40.is_over(table.state) and deck40.deadlines(table.state) == []
