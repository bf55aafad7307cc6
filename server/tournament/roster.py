"""Registering students: one at a time, or a CSV file where every bad row is reported.

What this module keeps: the checks on a student's registration (a name and a school of 1..64
characters, a grade the tournament was created with, not the same name, school and grade as
someone registered already) and the CSV import: a header line naming the columns `name`,
`school` and `grade` (any order, other columns are refused), then one student a line. Every bad
row is reported with its line number (the header is line 1) and *nothing* is imported if any
row is bad, so a director fixes the file and imports it again without duplicates.

The file as a spreadsheet saves it: a UTF-8 byte order mark before the header is dropped; the
separator is `,` or `;` (Excel in Norway, Sweden and most of Europe writes `;`), whichever
makes the header the three columns (`SEPARATORS`); Windows line endings (CRLF) are lines like
any other; trailing empty cells (a spreadsheet's blank columns) are ignored. A header that is
none of these is shown with its invisible characters spelled out, so "found" never looks like
what was expected.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping
from typing import Any

from server.tournament.state import Student, TournamentState

MAX_TEXT = 64
MAX_CSV = 512 * 1024
MAX_ROWS = 5000
COLUMNS = ("name", "school", "grade")
SEPARATORS = (",", ";")  # `;`: a spreadsheet where `,` is the decimal comma
BOM = "\ufeff"  # what Excel's "CSV UTF-8" puts before the first column's name


def row_problem(
    state: TournamentState, row: Mapping[str, Any], seen: set[tuple[str, str, str]]
) -> tuple[str, str] | None:
    """Why this registration is refused, as (refusal code, why), or None; adds a good row to
    `seen`. The code is `unknown_grade` only for a grade that is a proper text but not one of
    the tournament's; a blank or overlong grade is a bad registration like a blank name."""
    values = {}
    for column in COLUMNS:
        value = row.get(column)
        if not isinstance(value, str) or not 0 < len(value.strip()) <= MAX_TEXT:
            return "bad_student", f"{column} must be a text of 1..{MAX_TEXT} characters"
        values[column] = value.strip()
    if values["grade"] not in state.options.grades:
        known = ", ".join(state.options.grades)
        why = f"grade {values['grade']!r} is not one of this tournament's ({known})"
        return "unknown_grade", why
    key = (values["name"].casefold(), values["school"].casefold(), values["grade"])
    if key in seen:
        why = f"{values['name']} ({values['school']}, {values['grade']}) is registered already"
        return "bad_student", why
    seen.add(key)
    return None


def key_of(student: Student) -> tuple[str, str, str]:
    """What makes two registrations the same student: name, school (any case) and grade."""
    return (student.name.casefold(), student.school.casefold(), student.grade)


def registered_keys(state: TournamentState) -> set[tuple[str, str, str]]:
    return {key_of(s) for s in state.students.values()}


def new_entries(state: TournamentState, rows: Iterable[Mapping[str, Any]]) -> list[dict[str, str]]:
    """The `StudentsRegistered` entries for checked rows: ids continue the registration."""
    start = len(state.students)
    return [
        {
            "student": f"p{start + index}",
            "name": row["name"].strip(),
            "school": row["school"].strip(),
            "grade": row["grade"].strip(),
        }
        for index, row in enumerate(rows, start=1)
    ]


def _shown(cells: list[str]) -> str:
    """Header cells as a person should read them: an odd one (a stray mark, a space, an
    invisible character) quoted with its escapes, so it never looks like what was expected."""
    return ", ".join(c if c.isprintable() and c == c.strip() and c else repr(c) for c in cells)


def _trimmed(cells: list[str]) -> list[str]:
    """The cells without the empty ones at the end (a spreadsheet's blank columns)."""
    end = len(cells)
    while end and not cells[end - 1].strip():
        end -= 1
    return cells[:end]


def _header(cells: list[str]) -> list[str]:
    return [cell.strip().lower() for cell in _trimmed(cells)]


def _separator(first_line: str) -> str:
    """The separator that makes the header line the three columns; when none does, the one
    that splits it into the most cells (so a refusal shows the columns found)."""
    split = {sep: _header(next(csv.reader([first_line], delimiter=sep), [])) for sep in SEPARATORS}
    for separator, header in split.items():
        if sorted(header) == sorted(COLUMNS):
            return separator
    return max(SEPARATORS, key=lambda separator: len(split[separator]))


def read_csv(state: TournamentState, text: str) -> tuple[list[dict[str, str]], list[str]]:
    """(rows, problems): `problems` lists every bad line as "line N: why" (empty when good)."""
    if len(text) > MAX_CSV:
        return [], [f"line 1: the file is longer than {MAX_CSV} characters"]
    text = text.removeprefix(BOM)
    separator = _separator(text.splitlines()[0] if text else "")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator)
    records: list[tuple[int, list[str]]] = []  # (the line a record starts on, its cells)
    end = 0  # the line the previous record ended on (a quoted field may hold a newline)
    try:
        for cells in reader:
            records.append((end + 1, cells))
            end = reader.line_num
    except csv.Error as error:  # e.g. a field over the csv module's limit (128 KiB)
        return [], [f"line {reader.line_num}: not a line of CSV ({error})"]
    if not records:
        return [], ["line 1: the file is empty; the first line names the columns"]
    found = _trimmed(records[0][1])
    header = _header(found)
    if sorted(header) != sorted(COLUMNS):
        why = f"the columns are {', '.join(COLUMNS)} (found {_shown(found)})"
        if len(found) == 1 and not any(s in found[0] for s in SEPARATORS):
            why += f"; separate them with {' or '.join(SEPARATORS)}"
        return [], [f"line 1: {why}"]
    if len(records) - 1 > MAX_ROWS:
        return [], [f"line {MAX_ROWS + 2}: at most {MAX_ROWS} students in one import"]
    rows, problems = [], []
    seen = registered_keys(state)
    for number, cells in records[1:]:
        if not any(cell.strip() for cell in cells):
            continue  # a blank line
        if len(cells) > len(header) and not any(c.strip() for c in cells[len(header) :]):
            cells = cells[: len(header)]  # a spreadsheet's blank columns
        if len(cells) != len(header):
            problems.append(f"line {number}: {len(cells)} fields, expected {len(header)}")
            continue
        row = {column: cells[index] for index, column in enumerate(header)}
        problem = row_problem(state, row, seen)
        if problem:
            problems.append(f"line {number}: {problem[1]}")
        else:
            rows.append(row)
    if not rows and not problems:
        problems.append("line 2: no students in the file")
    return rows, problems
