"""A roster as a spreadsheet saves it (issue 26): Excel's "CSV UTF-8" (a byte order mark),
its "CSV" in Norway or Sweden (`;` between columns, Windows-1252), Windows line endings; every
bad row named by its line before anything is recorded; a header that is wrong is shown so that
"found" never looks like what was expected. And registration cannot close with nobody."""

from __future__ import annotations

import pytest
from tournament_support import Tourney, tournament_options

from clients.reference_cli.admin_commands import AdminInputError
from clients.reference_cli.tournament_commands import read_roster

GRADES = ["4th", "5th"]


def tourney() -> Tourney:
    return Tourney(tournament_options(grades=GRADES))


def imported(text: str) -> list[tuple[str, str, str]]:
    t = tourney()
    t.do("import_students", csv=text)
    return [(s.name, s.school, s.grade) for s in t.state.students.values()]


EXPECTED = [("Åse Ødegård", "Bergen skole", "4th"), ("Bo", "Hill; North", "5th")]


@pytest.mark.parametrize(
    "text",
    [
        "name,school,grade\nÅse Ødegård,Bergen skole,4th\nBo,Hill; North,5th\n",
        "\ufeffname,school,grade\r\nÅse Ødegård,Bergen skole,4th\r\nBo,Hill; North,5th\r\n",
        'name;school;grade\r\nÅse Ødegård;Bergen skole;4th\r\nBo;"Hill; North";5th\r\n',
        "\ufeffName;School;Grade;;\r\nÅse Ødegård;Bergen skole;4th;;\r\n"
        'Bo;"Hill; North";5th;;\r\n\r\n',
        'grade;name;school\n4th;Åse Ødegård;Bergen skole\n5th;Bo;"Hill; North"\n',
    ],
    ids=["comma", "bom-crlf", "semicolon-crlf", "bom-semicolon-blank-columns", "any-order"],
)
def test_a_spreadsheets_csv_is_read(text):
    assert imported(text) == EXPECTED


def test_every_bad_row_is_named_by_its_line_and_nothing_is_recorded():
    t = tourney()
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
    )
    refused = t.refused("import_students", csv=text)
    assert refused.code == "bad_rows"
    assert refused.message == (
        "line 3: grade '9th' is not one of this tournament's (4th, 5th); "
        "line 4: 2 fields, expected 3; "
        "line 8: 4 fields, expected 3; "
        "line 9: Ada (Hill, 4th) is registered already; "
        "line 10: name must be a text of 1..64 characters"
    )
    assert t.state.students == {} and t.events == []


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("\u200bname,school,grade\nA,B,4th\n", "(found '\\u200bname', school, grade)"),
        (
            "name\tschool\tgrade\nA\tB\t4th\n",
            "(found 'name\\tschool\\tgrade'); separate them with , or ;",
        ),
        ("name;school\nA;B\n", "(found name, school)"),
        ("name ,school,grade,age\n", "(found 'name ', school, grade, age)"),
    ],
)
def test_a_wrong_header_is_shown_as_it_is(text, found):
    refused = tourney().refused("import_students", csv=text)
    assert refused.message == f"line 1: the columns are name, school, grade {found}"


def test_registration_cannot_close_with_nobody():
    t = tourney()
    refused = t.refused("close_registration")
    assert (refused.code, refused.rule) == ("no_students", "R-ROUND-2")
    assert "nobody is registered" in refused.message
    t.do("register", name="Ada", school="Hill", grade="4th")
    t.do("withdraw", student="p1")
    assert t.refused("close_registration").code == "no_students"  # everyone withdrew


def test_the_cli_reads_utf8_with_a_bom_and_windows_1252(tmp_path):
    bom = tmp_path / "bom.csv"
    bom.write_bytes("\ufeffname;school;grade\r\nÅse;Hill;4th\r\n".encode())
    assert read_roster(str(bom)) == ("\ufeffname;school;grade\r\nÅse;Hill;4th\r\n", "")
    ansi = tmp_path / "ansi.csv"
    ansi.write_bytes("name;school;grade\r\nØrjan;Ås;4th\r\n".encode("cp1252"))
    text, note = read_roster(str(ansi))
    assert text == "name;school;grade\r\nØrjan;Ås;4th\r\n"
    assert note == f"note: {ansi} is not UTF-8; read as Windows-1252 (Excel's CSV)"
    assert imported(text) == [("Ørjan", "Ås", "4th")]
    neither = tmp_path / "neither.csv"
    neither.write_bytes(b"name,school,grade\nA\x81,B,4th\n")
    with pytest.raises(AdminInputError, match=r"line 2: byte 0x81 is neither UTF-8 nor"):
        read_roster(str(neither))
    with pytest.raises(AdminInputError, match="cannot read"):
        read_roster(str(tmp_path / "missing.csv"))
