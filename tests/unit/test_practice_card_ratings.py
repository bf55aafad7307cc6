"""A practice table's start ratings for cards (option `card_ratings`, docs/games/practice.md):
the cards are chosen and rated from them, as from the ratings the table's own attempts give;
bad ones are refused naming the option. The shell fills them from the log when a director
asks (`from_log`, tests/unit/test_net_ratings.py)."""

from __future__ import annotations

import pytest
from test_practice_rules import Practice

from server.games import practice
from server.games.base import RuleViolation, replay
from server.games.practice.choice import NEAREST
from server.ratings import Rating


def test_a_card_rated_in_the_options_is_chosen_and_dealt_at_that_rating():
    """Every card of the pool is at its prior but 1 1 1 8, the easiest, set at 1500: a new
    student at 1500 is dealt it among the nearest (the seed picks; one seed of several does)."""
    dealt = set()
    for seed in range(3 * NEAREST):
        table = Practice(seed=seed, card_ratings={"1 1 1 8": {"mu": 1500, "sigma": 40}})
        (event,) = table.do("next_card")
        if event.data["card_id"] == "1 1 1 8":
            assert event.data["card_rating"] == {"mu": 1500.0, "sigma": 40.0}
            dealt.add(seed)
    assert dealt  # without the option 1 1 1 8 (prior far below 1500) is never near


def test_the_start_ratings_are_the_tables_before_any_card_and_replay_to_the_live_state():
    table = Practice(card_ratings={"2 4 10 11": {"mu": 1510.5, "sigma": 60}})
    assert table.state.card_ratings == {"2 4 10 11": Rating(1510.5, 60.0)}
    table.do("next_card")
    table.do("give_up")
    assert replay(practice, table.options, table.events) == table.state


@pytest.mark.parametrize(
    "card_ratings",
    [
        [],
        {"1 1 1 8": {"mu": 1500}},
        {"1 1 1 8": {"mu": 5000, "sigma": 50}},
        {"1 1 1 8": {"mu": 1500, "sigma": 0}},
        {"": {"mu": 1500, "sigma": 50}},
        {str(i): {"mu": 1500, "sigma": 50} for i in range(2001)},
    ],
)
def test_bad_card_ratings_are_refused_naming_the_option(card_ratings):
    with pytest.raises(RuleViolation) as caught:
        Practice(card_ratings=card_ratings)
    assert caught.value.code == "bad_options" and "'card_ratings'" in caught.value.message


def test_from_log_is_the_shells_and_never_reaches_the_game():
    assert practice.LOG_RATINGS_OPTION == "from_log"
    with pytest.raises(RuleViolation) as caught:
        Practice(from_log=True)
    assert caught.value.code == "bad_options" and "'from_log'" in caught.value.message
