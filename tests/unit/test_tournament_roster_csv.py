"""A roster file as a spreadsheet saves it, read by the core (server/tournament/roster.py,
`read_csv`; issue 26): a byte order mark, `;` between columns, Windows line endings, a quoted
line break, blank columns; every bad row named by its line; a header that is one cell told how
to separate its columns. (test_tournament_roster_files.py reads the same through the director's
command and the CLI; this file is the core's, which the mutation run runs.)"""

from __future__ import annotations

from tournament_support import tournament_options

import server.tournament as tournament
from server.tournament.roster import read_csv

STATE = tournament.initial_state(tournament_options(grades=["4th", "5th"]))


def test_a_semicolon_file_with_a_bom_crlf_a_quoted_line_break_and_blank_columns_is_read():
    text = 'name;school;grade;\r\nAda;Hill;4th;;\r\n"Di\r\nDa";"Hill; North";5th\r\n'
    assert read_csv(STATE, "\ufeff" + text) == (
        [
            {"name": "Ada", "school": "Hill", "grade": "4th"},
            {"name": "Di\r\nDa", "school": "Hill; North", "grade": "5th"},
        ],
        [],
    )


def test_a_header_with_one_blank_column_at_the_end_is_the_three_columns():
    rows, problems = read_csv(STATE, "Name,School,Grade,\nAda,Hill,4th\n")
    assert (rows, problems) == ([{"name": "Ada", "school": "Hill", "grade": "4th"}], [])


def test_every_bad_row_is_named_by_its_line():
    text = (
        "\ufeffname;school;grade\r\n"
        "Ada;Hill;4th\r\n"
        "Bo;Hill;9th\r\n"  # line 3: no such grade
        "Cy;Hill\r\n"  # line 4: a field missing
        "\r\n"  # line 5: blank, skipped
        '"Di\r\nDa";Hill;5th\r\n'  # lines 6-7: one record (a quoted line break)
        "Ek;Hill;4th;extra\r\n"  # line 8: a field too many
        "Ada;Hill;4th\r\n"  # line 9: the same as line 2
        ";Hill;5th\r\n"  # line 10: no name
        "Fay;Hill;5th;;\r\n"  # line 11: blank columns, read
    )
    rows, problems = read_csv(STATE, text)
    assert [row["name"] for row in rows] == ["Ada", "Di\r\nDa", "Fay"]
    assert problems == [
        "line 3: grade '9th' is not one of this tournament's (4th, 5th)",
        "line 4: 2 fields, expected 3",
        "line 8: 4 fields, expected 3",
        "line 9: Ada (Hill, 4th) is registered already",
        "line 10: name must be a text of 1..64 characters",
    ]


def test_a_header_of_one_cell_without_a_separator_is_told_how_to_separate_them():
    assert read_csv(STATE, "name\tschool\tgrade\nA\tB\t4th\n") == (
        [],
        [
            "line 1: the columns are name, school, grade (found 'name\\tschool\\tgrade');"
            " separate them with , or ;"
        ],
    )


def test_a_header_of_one_cell_that_has_a_separator_is_only_shown():
    assert read_csv(STATE, '"name,school,grade"\nA,B,4th\n') == (
        [],
        ["line 1: the columns are name, school, grade (found name,school,grade)"],
    )


def test_an_empty_file_is_refused_naming_the_header_it_needs():
    assert read_csv(STATE, "") == (
        [],
        ["line 1: the file is empty; the first line names the columns"],
    )


def test_a_file_with_carriage_returns_alone_between_lines_is_read():
    """Excel for the Mac's "CSV (Macintosh)" ends its lines with a carriage return alone."""
    assert read_csv(STATE, "name,school,grade\rAda,Hill,4th\rBo,Hill,5th\r") == (
        [
            {"name": "Ada", "school": "Hill", "grade": "4th"},
            {"name": "Bo", "school": "Hill", "grade": "5th"},
        ],
        [],
    )
