"""What a `t24 tournament` command did, in words with counts (pure; issue 26).

A director reads "7 students imported (4 in 4th, 3 in 5th)", not a command name and an
event count. The words come from the tournament's views just before and just after the
command (the `view_at` answers for `seq - events` and `seq` of its `accepted`): the server
computed both from the recorded events, so the words say what was recorded, not what was
sent. Names are shown where a student id alone would be ("Ada (Hill, 4th)").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

View = Mapping[str, Any]


def plural(count: int, word: str, many: str | None = None) -> str:
    """`1 student`, `7 students` (`many` for an irregular plural)."""
    return f"{count} {word if count == 1 else (many or word + 's')}"


def _listing(parts: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    if len(parts) <= 1:
        return "".join(parts)
    return f"{', '.join(parts[:-1])} and {parts[-1]}"


def _by(counts: Counter[str], order: Sequence[str]) -> str:
    """`4 in 4th, 3 in 5th` in the tournament's order of grades or sections."""
    known = [key for key in order if counts[key]] + sorted(set(counts) - set(order))
    return ", ".join(f"{counts[key]} in {key}" for key in known)


def _students(view: View) -> dict[str, Mapping[str, Any]]:
    return {s["student"]: s for s in view.get("students", [])}


def who(view: View, student: str) -> str:
    """`Ada (Hill, 4th)`, or the id when the view does not know it."""
    entry = _students(view).get(student)
    if entry is None:
        return student
    return f"{entry['name']} ({entry['school']}, {entry['grade']})"


def _round(view: View, number: int) -> Mapping[str, Any]:
    for entry in view.get("rounds", []):
        if entry.get("round") == number:
            return entry
    return {"round": number, "tables": []}


def _imported(before: View, after: View) -> str:
    known = set(_students(before))
    new = [s for s in after.get("students", []) if s["student"] not in known]
    if len(new) == 1:
        return f"{who(after, new[0]['student'])} registered as {new[0]['student']}"
    grades = Counter(s["grade"] for s in new)
    return f"{plural(len(new), 'student')} imported ({_by(grades, after.get('grades', []))})"


def _registration_closed(after: View) -> str:
    students = _students(after)
    merges = after.get("merges", {})
    active = [s for s in students.values() if not s.get("withdrawn")]
    sections = Counter(merges.get(s["grade"], s["grade"]) for s in active)
    order = after.get("sections", [])
    return (
        f"registration closed: {plural(len(active), 'student')} in "
        f"{plural(len(sections), 'section')} ({_by(sections, order)})"
    )


def _seated(after: View, number: int) -> str:
    tables = _round(after, number).get("tables", [])
    sections = Counter(t["section"] for t in tables)
    where = ", ".join(f"{n} in {s}" for s, n in sections.items())
    return f"round {number} seated: {plural(len(tables), 'table')} ({where})"


def _started(after: View, number: int) -> str:
    tables = [t["table"] for t in _round(after, number).get("tables", [])]
    span = tables[0] if len(tables) == 1 else f"{tables[0]} to {tables[-1]}" if tables else ""
    return f"round {number} started: {plural(len(tables), 'table')} created ({span})"


def _tie_breaks(before: View, after: View) -> str:
    old = {t["number"] for t in before.get("tie_breaks", [])}
    new = [t for t in after.get("tie_breaks", []) if t["number"] not in old]
    if not new:
        return ""
    parts = [
        f"{t['section']}: {_listing([who(after, s) for s in t['students']])} for "
        f"{plural(t['places'], 'place')}"
        for t in new
    ]
    return f"; {plural(len(new), 'tie-break')} seated ({'; '.join(parts)})"


def _champions(before: View, after: View) -> str:
    old = before.get("champions", {})
    new = {k: v for k, v in after.get("champions", {}).items() if old.get(k) != v}
    if not new:
        return ""
    named = [f"{section}: {who(after, student)}" for section, student in new.items()]
    return f"; {plural(len(new), 'champion')} ({', '.join(named)})"


def _advancing(standing: Mapping[str, Any], number: int) -> int:
    """How many of a section's standings rows say they advanced from round `number`."""
    if number == 2:
        rows = standing.get("qualifying", [])
    else:
        key = "semi_final" if number == 3 else "final"
        rows = [row for table in standing.get(key, []) for row in table.get("rows", [])]
    return sum(1 for row in rows if row.get("advanced") not in (None, "eliminated"))


def _advanced(before: View, after: View, number: int) -> str:
    decided = after.get("champions", {})  # a section with one semi-final table ends there
    counts = Counter(
        {
            section: _advancing(standing, number)
            for section, standing in after.get("standings", {}).items()
            if section not in decided
        }
    )
    to = {2: "the semi-finals (round 3)", 3: "the final (round 4)"}.get(number)
    words = f"round {number} advanced"
    if to and sum(counts.values()):
        words += f": {_by(counts, after.get('sections', []))} go to {to}"
    return words + _tie_breaks(before, after) + _champions(before, after)


def _swapped(after: View, number: int, a: str, b: str) -> str:
    seat = {s: t["table"] for t in _round(after, number).get("tables", []) for s in t["students"]}
    return (
        f"round {number}: {who(after, a)} now sits at {seat.get(a, '?')}, "
        f"{who(after, b)} at {seat.get(b, '?')}"
    )


def command_words(name: str, args: Mapping[str, Any], before: View, after: View) -> str:
    """What the command `name` with `args` did, from the views before and after it."""
    number = args.get("round")
    if name in ("register", "import_students"):
        return _imported(before, after)
    if name == "withdraw":
        return f"{who(after, args['student'])} withdrawn"
    if name == "merge_grades":
        return f"{_listing(list(args['grades']))} play as one section: {args['section']}"
    if name == "close_registration":
        return _registration_closed(after)
    if name == "seat_round":
        return _seated(after, number)
    if name == "start_round":
        return _started(after, number)
    if name == "close_round":
        return f"round {number} closed" + _tie_breaks(before, after)
    if name == "advance":
        return _advanced(before, after, number)
    if name == "reopen_round":
        return f"round {number} reopened: its results may change until it is advanced again"
    if name == "swap_seats":
        return _swapped(after, number, args["a"], args["b"])
    return "done"


# A command that was accepted but changed nothing (`accepted` with 0 events).
NOTHING_TO_DO = "nothing to change: the tournament is that way already"


def created_words(tournament: str, options: Mapping[str, Any]) -> str:
    """`tournament spring created: Spring Cup on 2026-03-14, 3 grades (4th, 5th, 6th), ...`."""
    grades = list(options.get("grades", []))
    cards = options.get("cards_per_round", 48)
    return (
        f"tournament {tournament} created: {options.get('name')} on {options.get('date')}, "
        f"{plural(len(grades), 'grade')} ({', '.join(grades)}), "
        f"{plural(cards, 'card')} a round"
    )
