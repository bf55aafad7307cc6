"""A roster file whose header is wrong (server/tournament/roster.py): the cells found are shown
so that an odd one never looks like what was expected: a stray space, an invisible character
or an empty cell is quoted with its escapes, a plain one is shown as it is."""

from __future__ import annotations

from tournament_support import tournament_options

import server.tournament as tournament
from server.tournament.roster import read_csv


def header_problem(text: str) -> str:
    rows, problems = read_csv(tournament.initial_state(tournament_options()), text)
    assert rows == []
    (problem,) = problems
    return problem


def test_odd_cells_are_quoted_and_plain_ones_shown_as_they_are():
    problem = header_problem(" name,\u200bschool,,grade\nA,B,,4th\n")
    assert problem == (
        "line 1: the columns are name, school, grade (found ' name', '\\u200bschool', '', grade)"
    )


def test_a_cell_with_a_trailing_space_is_quoted():
    assert header_problem("name,school ,grade,age\n").endswith(
        "(found name, 'school ', grade, age)"
    )
