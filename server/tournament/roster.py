"""Registering students: one at a time, or a CSV file where every bad row is reported.

What this module keeps: the checks on a student's registration (a name and a school of 1..64
characters, a grade the tournament was created with, not the same name, school and grade as
someone registered already) and the CSV import: a header line naming the columns `name`,
`school` and `grade` (any order, other columns are refused), then one student a line. Every bad
row is reported with its line number (the header is line 1) and *nothing* is imported if any
row is bad, so a director fixes the file and imports it again without duplicates.
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


def read_csv(state: TournamentState, text: str) -> tuple[list[dict[str, str]], list[str]]:
    """(rows, problems): `problems` lists every bad line as "line N: why" (empty when good)."""
    if len(text) > MAX_CSV:
        return [], [f"line 1: the file is longer than {MAX_CSV} characters"]
    reader = csv.reader(io.StringIO(text))
    try:
        lines = list(reader)
    except csv.Error as error:  # e.g. a field over the csv module's limit (128 KiB)
        return [], [f"line {reader.line_num}: not a line of CSV ({error})"]
    if not lines:
        return [], ["line 1: the file is empty; the first line names the columns"]
    header = [cell.strip().lower() for cell in lines[0]]
    if sorted(header) != sorted(COLUMNS):
        return [], [f"line 1: the columns are {', '.join(COLUMNS)} (found {', '.join(header)})"]
    if len(lines) - 1 > MAX_ROWS:
        return [], [f"line {MAX_ROWS + 2}: at most {MAX_ROWS} students in one import"]
    rows, problems = [], []
    seen = registered_keys(state)
    for number, cells in enumerate(lines[1:], start=2):
        if not any(cell.strip() for cell in cells):
            continue  # a blank line
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
