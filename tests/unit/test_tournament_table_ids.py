"""A tournament's table ids and tie-break tables, exactly (server/tournament/tables.py and
rounds.py): which tournament reserves an id (issue 33), and a tie of four or fewer kept at one
table in the order given (R-ROUND-6, docs/tournament.md decision 12)."""

from __future__ import annotations

import pytest
from tournament_support import tournament_options

import server.tournament as tournament
from server.tournament import rounds, seating
from server.tournament.tables import reserving_tournament


@pytest.mark.parametrize(
    ("table", "owner"),
    [
        ("cup.r1.s2.t03", "cup"),
        ("cup.r4.s1.t1", "cup"),
        ("spring.cup.tb4.t1", "spring.cup"),
        ("cup.tb12.t03", "cup"),
    ],
)
def test_a_round_or_tie_break_table_id_names_the_tournament_that_reserves_it(table, owner):
    assert reserving_tournament(table) == owner


@pytest.mark.parametrize(
    "table", ["cup", "cup.r1.s2", "cup.r1.s2.t03.x", ".r1.s1.t01", "cup.tb.t1", "cup.rx.s1.t1"]
)
def test_any_other_id_is_reserved_by_no_tournament(table):
    assert reserving_tournament(table) is None


def test_a_tie_of_four_sits_at_one_table_in_the_order_given():
    state = tournament.initial_state(tournament_options())
    tied = ["p4", "p1", "p3", "p2"]
    assert rounds._tie_tables(state, 1, tied) == [tied]
    # the seeded shuffle of the larger ties would have changed that order
    key = "t24/tournament/Spring Challenge/2026-03-14/tie-break/1/seating"
    assert seating.seat_fresh(tied, key) != [tied]


def test_a_tie_of_five_is_shuffled_by_the_public_key_into_three_and_two():
    state = tournament.initial_state(tournament_options())
    tied = ["p4", "p1", "p3", "p2", "p5"]
    key = "t24/tournament/Spring Challenge/2026-03-14/tie-break/2/seating"
    assert rounds._tie_tables(state, 2, tied) == seating.seat_fresh(tied, key)
    assert [len(table) for table in rounds._tie_tables(state, 2, tied)] == [3, 2]
