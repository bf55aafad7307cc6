"""Registration: create, register, import a CSV, withdraw, merge grades, close (R-ROUND-2)."""

from __future__ import annotations

import pytest
from tournament_support import DIRECTOR, Tourney, csv_of, tournament_options, types

import server.tournament as tournament
from server.games.base import SERVER_ACTOR, Actor, RuleViolation


@pytest.mark.parametrize(
    "change, field",
    [
        ({"name": ""}, "name"),
        ({"date": "14/03/2026"}, "date"),
        ({"rules": "house"}, "rules"),
        ({"grades": []}, "grades"),
        ({"grades": ["4th", "4th"]}, "grades"),
        ({"deck_seed": -1}, "deck_seed"),
        ({"deck_seed": True}, "deck_seed"),
        ({"advance_count": 17}, "advance_count"),
        ({"tie_break_seconds": 0}, "tie_break_seconds"),
        ({"cards_per_round": 3}, "cards_per_round"),
        ({"cards_per_round": 49}, "cards_per_round"),
        ({"table_options": {"seats": []}}, "table_options"),
        ({"per_table_shuffle": "yes"}, "per_table_shuffle"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_create_refuses_bad_options_naming_the_field(change, field):
    with pytest.raises(RuleViolation) as refused:
        tournament.initial_state(tournament_options(**change))
    assert refused.value.code == "bad_options"
    assert repr(field) in refused.value.message


def test_create_fills_the_defaults_official_rules_sixteen_advance_five_minute_tie_breaks():
    options = tournament.initial_state(tournament_options()).options
    assert (options.rules, options.advance_count, options.tie_break_seconds) == (
        "official",
        16,
        300,
    )


def test_given_a_tournament_when_a_student_registers_then_they_get_the_next_id():
    t = Tourney()
    events = t.do("register", name="Ada", school="Hill", grade="4th")
    assert types(events) == ["StudentsRegistered"]
    assert events[0].data["students"] == [
        {"student": "p1", "name": "Ada", "school": "Hill", "grade": "4th"}
    ]
    t.do("register", name="Bo", school="Hill", grade="5th")
    assert list(t.state.students) == ["p1", "p2"]


def test_register_refuses_an_unknown_grade_a_duplicate_and_a_missing_name():
    t = Tourney()
    t.do("register", name="Ada", school="Hill", grade="4th")
    assert t.refused("register", name="Bo", school="Hill", grade="9th").code == "unknown_grade"
    assert t.refused("register", name="ada", school="hill", grade="4th").code == "bad_student"
    assert t.refused("register", name="", school="Hill", grade="4th").code == "bad_student"


def test_import_registers_every_row_of_a_good_file():
    t = Tourney()
    rows = [(f"S{i}", "Hill", "4th") for i in range(5)]
    t.do("import_students", csv=csv_of(rows))
    assert len(t.state.students) == 5


def test_import_reports_every_bad_row_by_line_and_imports_nothing():
    t = Tourney()
    text = (
        "name,school,grade\n"
        "Ada,Hill,4th\n"
        "Bo,Hill,9th\n"  # line 3: unknown grade
        "Cy,Hill\n"  # line 4: two fields
        "Di,Hill,5th\n"
        "Ada,Hill,4th\n"  # line 6: duplicate of line 2
        ",Hill,6th\n"  # line 7: no name
    )
    refused = t.refused("import_students", csv=text)
    assert refused.code == "bad_rows"
    for line in (3, 4, 6, 7):
        assert f"line {line}:" in refused.message
    for line in (2, 5):
        assert f"line {line}:" not in refused.message
    assert t.state.students == {}


def test_import_refuses_a_file_with_wrong_columns_or_no_rows():
    t = Tourney()
    assert "line 1:" in t.refused("import_students", csv="who,where\nAda,Hill\n").message
    assert t.refused("import_students", csv="name,school,grade\n").code == "bad_rows"
    assert t.refused("import_students", csv=7).code == "bad_args"


def test_import_refuses_a_student_registered_before():
    t = Tourney()
    t.do("register", name="Ada", school="Hill", grade="4th")
    refused = t.refused("import_students", csv=csv_of([("Ada", "Hill", "4th")]))
    assert "line 2:" in refused.message


def test_withdraw_marks_the_student_and_refuses_twice_or_unknown():
    t = Tourney()
    t.do("register", name="Ada", school="Hill", grade="4th")
    assert types(t.do("withdraw", student="p1")) == ["StudentWithdrawn"]
    assert t.state.students["p1"].withdrawn
    assert t.refused("withdraw", student="p1").code == "already_withdrawn"
    assert t.refused("withdraw", student="p9").code == "unknown_student"


def test_r_round_2_a_grade_too_small_to_seat_cannot_close_registration_until_merged():
    """R-ROUND-2: "by grade level or section level (i.e. 4th & 5th grades combined)"."""
    t = Tourney()
    t.register_many(3, grades=["4th"])
    t.register_many(4, grades=["5th"])
    t.register_many(2, grades=["6th"])  # ... but 6th has 2: cannot sit 3 or 4 to a table
    refused = t.refused("close_registration")
    assert refused.code == "cannot_seat" and "'6th'" in refused.message
    t.do("merge_grades", grades=["5th", "6th"], section="5th & 6th")
    assert t.state.sections() == ("4th", "5th & 6th")
    assert types(t.do("close_registration")) == ["RegistrationClosed"]


def test_merge_grades_refusals():
    t = Tourney()
    assert t.refused("merge_grades", grades=["4th", "9th"], section="x").code == "unknown_grade"
    assert t.refused("merge_grades", grades=["4th"], section="x").code == "bad_args"
    assert t.refused("merge_grades", grades=["4th", "5th"], section="").code == "bad_args"


def test_after_closing_registration_is_refused():
    t = Tourney()
    t.register_many(4)
    t.do("close_registration")
    assert t.refused("register", name="Late", school="Hill", grade="4th").code == (
        "registration_closed"
    )
    assert t.refused("import_students", csv=csv_of([("L", "H", "4th")])).code == (
        "registration_closed"
    )
    assert t.refused("merge_grades", grades=["4th", "5th"], section="x").code == (
        "registration_closed"
    )
    assert t.refused("close_registration").code == "registration_closed"


def test_only_the_director_sends_commands_and_only_the_server_records_results():
    t = Tourney()
    proctor = Actor("proctor", "p")
    assert t.refused("register", proctor, name="A", school="B", grade="4th").code == ("not_allowed")
    assert t.refused("record_result", DIRECTOR, table="r1.s1.t01").code == "not_allowed"
    assert t.refused("record_result", SERVER_ACTOR, table="r1.s1.t01").code == "unknown_table"
    assert t.refused("shuffle_everyone").code == "unknown_command"
