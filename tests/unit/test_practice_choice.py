"""Which card a practice seat gets next (server/games/practice/choice.py), exactly: the card
chosen for a seed, a seat, a rating and an aim, written out, so a change of the target, the
order of the candidates or the generator's seed is seen."""

from __future__ import annotations

from dataclasses import replace

import pytest

from server.games.practice.choice import Choice, card_id_of, choose
from server.games.practice.state import PracticeState, initial_state
from server.ratings import Rating

TWO = [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}]


def table(**options: object) -> PracticeState:
    return initial_state({"seats": TWO, **options})


def test_a_card_id_is_its_numbers_sorted_with_spaces():
    assert card_id_of((8, 1, 13, 1)) == "1 1 8 13"


@pytest.mark.parametrize(
    ("options", "first", "second"),
    [
        ({"seed": 3}, ("10 11 12 13", 20.5471, 1500.0), "2 10 11 11"),
        ({"seed": 3, "aim": 600}, ("2 5 9 10", 25.5471, 2090.18), "3 4 7 8"),
        ({"seed": 3, "aim": -600}, ("2 10 10 12", 15.5323, 908.06), "2 3 3 12"),
        (
            {"seed": 4, "ratings": {"s1": {"mu": 75, "sigma": 100}}},
            ("1 5 8 11", 8.3907, 65.09),
            "5 11 12",
        ),
    ],
)
def test_the_card_chosen_for_a_seed_a_seat_and_a_target(options, first, second):
    state = table(**options)
    card_id, score, mu = first
    numbers = tuple(int(n) for n in card_id.split())
    assert choose(state, state.seats[0]) == Choice(card_id, numbers, score, Rating(mu, 120.0))
    assert choose(state, state.seats[1]).card_id.endswith(second)


def test_cards_the_same_distance_away_are_ordered_by_their_id_as_text():
    """At a target of 75, "1 2 10 12" and "1 2 9 13" have the same rating; their ids as text
    put "1 2 10 12" first (as numbers it would come second), and this seed takes the second."""
    state = table(seed=5, ratings={"s1": {"mu": 75, "sigma": 100}})
    assert choose(state, state.seats[0]).card_id == "1 2 9 13"


def test_a_card_rated_at_this_table_is_chosen_by_that_rating():
    """ "1 1 1 8" (its prior 791.77) rated 1500 at this table: at a target of 1500 it is first
    in the list (before "1 5 11 12", the first card rated 1500 by its prior), which seed 18
    takes; without that rating seed 18 takes "1 5 11 12"."""
    state = replace(table(seed=18), card_ratings={"1 1 1 8": Rating(1500.0, 60.0)})
    assert choose(state, state.seats[0]) == Choice(
        "1 1 1 8", (1, 1, 1, 8), 14.5471, Rating(1500.0, 60.0)
    )
    assert choose(table(seed=18), state.seats[0]).card_id == "1 5 11 12"
