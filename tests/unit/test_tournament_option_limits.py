"""Both sides of every limit of a tournament's options and of a registration, each refusal's
exact message, and the options as read.

Why both sides: a limit moved by one accepts a tournament the docs refuse or refuses one they
accept; only a test at the limit itself tells (issue 20). The limits are
tournament/options.py's table and tournament/roster.py's: texts of 1..64 characters, 1..20
grades, a deck seed 0..2**31-1, `advance_count` 3..16, `tie_break_seconds` 1..3600,
`cards_per_round` 4..48.
"""

from __future__ import annotations

import pytest
from tournament_support import Tourney, tournament_options

import server.tournament as tournament
from server.games.base import RuleViolation
from server.tournament.options import TournamentOptions
from server.tournament.options import tournament_options as read_options


def refusal(raw: object) -> dict[str, str]:
    with pytest.raises(RuleViolation) as caught:
        tournament.initial_state(raw)  # type: ignore[arg-type]
    return caught.value.as_dict()


def bad(message: str) -> dict[str, str]:
    return {"code": "bad_options", "rule": "", "message": message}


GRADES_MESSAGE = "option 'grades': 1..20 distinct names of 1..64 characters"


def test_the_options_read_with_every_default():
    assert read_options(tournament_options()) == TournamentOptions(
        name="Spring Challenge", date="2026-03-14", grades=("4th", "5th", "6th"), deck_seed=24
    )


def test_every_option_given_is_read():
    read = read_options(
        tournament_options(
            name="  Fall  ",
            grades=[" 4th", "5th "],
            rules="guidelines",
            per_table_shuffle=True,
            advance_count=3,
            tie_break_seconds=1,
            cards_per_round=4,
            table_options={"mode": "proctored", "auto_proctor": True},
        )
    )
    assert read == TournamentOptions(
        name="Fall",
        date="2026-03-14",
        grades=("4th", "5th"),
        deck_seed=24,
        rules="guidelines",
        per_table_shuffle=True,
        advance_count=3,
        tie_break_seconds=1,
        cards_per_round=4,
        table_options={"mode": "proctored", "auto_proctor": True},
    )


@pytest.mark.parametrize("name", ["N", "N" * 64])
def test_a_name_of_1_to_64_characters(name):
    assert read_options(tournament_options(name=name)).name == name


@pytest.mark.parametrize("name", ["", "   ", "N" * 65, None, 7])
def test_a_name_empty_too_long_or_not_a_text_is_refused(name):
    assert refusal(tournament_options(name=name)) == bad(
        "option 'name': a text of 1..64 characters"
    )


@pytest.mark.parametrize("date", ["2026-3-14", "14/03/2026", "2026-03-14x", None, 20260314])
def test_a_date_that_is_not_yyyy_mm_dd_is_refused(date):
    assert refusal(tournament_options(date=date)) == bad("option 'date': a date YYYY-MM-DD")


def test_rules_are_official_guidelines_or_special_instructions():
    assert refusal(tournament_options(rules="house")) == bad(
        "option 'rules': one of official, guidelines, special_instructions (R-DECK-5)"
    )


@pytest.mark.parametrize("count", [1, 20])
def test_one_to_twenty_grades(count):
    grades = [f"g{i}" for i in range(count)]
    assert len(read_options(tournament_options(grades=grades)).grades) == count


def test_a_grade_name_of_64_characters_and_grades_as_a_tuple():
    read = read_options(tournament_options(grades=("g" * 64, "5th")))
    assert read.grades == ("g" * 64, "5th")


@pytest.mark.parametrize(
    "grades",
    [
        [],
        [f"g{i}" for i in range(21)],
        ["g" * 65],
        [""],
        [" "],
        [4],
        ["4th", "4th"],
        ["4th", " 4th"],  # the same name once stripped
        "4th",
        None,
    ],
)
def test_grades_none_too_many_too_long_or_repeated_are_refused(grades):
    assert refusal(tournament_options(grades=grades)) == bad(GRADES_MESSAGE)


@pytest.mark.parametrize("seed", [0, 2**31 - 1])
def test_a_deck_seed_of_0_to_2_31_minus_1(seed):
    assert read_options(tournament_options(deck_seed=seed)).deck_seed == seed


@pytest.mark.parametrize("seed", [-1, 2**31, True, "24", 2.0, None])
def test_a_deck_seed_out_of_range_or_not_a_whole_number_is_refused(seed):
    assert refusal(tournament_options(deck_seed=seed)) == bad(
        "option 'deck_seed': a whole number 0..2147483647 (R-DECK-1)"
    )


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_per_table_shuffle_is_true_or_false(value):
    assert refusal(tournament_options(per_table_shuffle=value)) == bad(
        "option 'per_table_shuffle': true or false"
    )


@pytest.mark.parametrize(("option", "low", "high"), [
    ("advance_count", 3, 16),
    ("tie_break_seconds", 1, 3600),
    ("cards_per_round", 4, 48),
])  # fmt: skip
def test_whole_number_options_at_both_limits(option, low, high):
    for value in (low, high):
        assert getattr(read_options(tournament_options(**{option: value})), option) == value


@pytest.mark.parametrize(("option", "values", "message"), [
    ("advance_count", [2, 17, True, 16.0],
     "option 'advance_count': a whole number 3..16 (R-ROUND-3: one to four semi tables)"),
    ("tie_break_seconds", [0, 3601, True, 300.0],
     "option 'tie_break_seconds': whole seconds 1..3600 (R-ROUND-6)"),
    ("cards_per_round", [3, 49, True, 48.0],
     "option 'cards_per_round': a whole number 4..48 (R-ROUND-1: 48 by the rules)"),
])  # fmt: skip
def test_whole_number_options_past_their_limits_are_refused(option, values, message):
    for value in values:
        assert refusal(tournament_options(**{option: value})) == bad(message), value


def test_table_options_are_a_map_of_what_a_tournament_passes_on():
    assert refusal(tournament_options(table_options=["mode"])) == bad(
        "option 'table_options': a map of table options"
    )
    assert refusal(tournament_options(table_options={"seats": [], "deck": []})) == bad(
        "option 'table_options': 'deck' is not an option a tournament passes on"
    )


def test_the_first_unknown_option_in_name_order_is_named_and_options_are_a_map():
    assert refusal(tournament_options(zeta=1, colour="red")) == bad(
        "option 'colour': unknown option"
    )
    with pytest.raises(RuleViolation) as caught:
        tournament.initial_state(["name"])  # type: ignore[arg-type]
    assert caught.value.as_dict() == bad("options are a map")


# -- a registration's texts -----------------------------------------------------------------


@pytest.mark.parametrize("column", ["name", "school"])
def test_a_registration_text_of_64_characters_is_taken_stripped(column):
    t = Tourney()
    row = {"name": "Ada", "school": "Hill", "grade": "4th", column: " " + "x" * 64 + " "}
    (event,) = t.do("register", **row)
    assert event.data["students"][0][column] == "x" * 64


@pytest.mark.parametrize("column", ["name", "school", "grade"])
@pytest.mark.parametrize("value", ["x" * 65, "  ", None, 4])
def test_a_registration_text_too_long_blank_or_not_a_text_is_refused(column, value):
    t = Tourney()
    row = {"name": "Ada", "school": "Hill", "grade": "4th", column: value}
    assert t.refused("register", **row).as_dict() == {
        "code": "bad_student",
        "rule": "",
        "message": f"register: {column} must be a text of 1..64 characters",
    }


def test_the_same_name_and_school_in_another_case_is_registered_already():
    t = Tourney()
    t.do("register", name="Ada", school="Hill", grade="4th")
    assert t.refused("register", name=" ADA ", school="hILL", grade="4th").code == "bad_student"
    t.do("register", name="Ada", school="Hill", grade="5th")  # another grade: another student
    assert [s.grade for s in t.state.students.values()] == ["4th", "5th"]


def test_a_grade_name_of_one_character():
    assert read_options(tournament_options(grades=["4", "5th"])).grades == ("4", "5th")
