"""What a `t24 tournament` command did, in words with counts (pure; issue 26).

A director reads "7 students imported (4 in 4th, 3 in 5th)", not a command name and an
event count. The words come from the tournament's views just before and just after the
command (the `view_at` answers for `seq - events` and `seq` of its `accepted`): the server
computed both from the recorded events, so the words say what was recorded, not what was
sent. Names are shown where a student id alone would be ("Ada (Hill, 4th)"). The words are the
`tournament` vocabulary's `command.*` entries of the shared catalogue (protocol/words), in the
language the terminal speaks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from clients.reference_cli.words import Vocabulary, names_list

WORDS = Vocabulary("tournament")
View = Mapping[str, Any]


def plural(count: int, word: str) -> str:
    """`1 student`, `7 students`: the count and its noun (`count.<word>`, a plural entry)."""
    return WORDS.say(f"count.{word}", count)


def _listing(parts: Sequence[str]) -> str:
    """`a`, `a and b`, `a, b and c`."""
    return names_list(list(parts)) if parts else ""


def _by(counts: Counter[str], order: Sequence[str]) -> str:
    """`4 in 4th, 3 in 5th` in the tournament's order of grades or sections."""
    known = [key for key in order if counts[key]] + sorted(set(counts) - set(order))
    return ", ".join(WORDS.say("command.in", count=counts[key], where=key) for key in known)


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
        return WORDS.say(
            "command.registered", who=who(after, new[0]["student"]), id=new[0]["student"]
        )
    grades = Counter(s["grade"] for s in new)
    return WORDS.say("command.imported", len(new), by=_by(grades, after.get("grades", [])))


def _registration_closed(after: View) -> str:
    students = _students(after)
    merges = after.get("merges", {})
    active = [s for s in students.values() if not s.get("withdrawn")]
    sections = Counter(merges.get(s["grade"], s["grade"]) for s in active)
    order = after.get("sections", [])
    return WORDS.say(
        "command.registration_closed",
        students=plural(len(active), "student"),
        sections=plural(len(sections), "section"),
        by=_by(sections, order),
    )


def _seated(after: View, number: int) -> str:
    tables = _round(after, number).get("tables", [])
    sections = Counter(t["section"] for t in tables)
    where = ", ".join(WORDS.say("command.in", count=n, where=s) for s, n in sections.items())
    return WORDS.say("command.seated", len(tables), round=number, by=where)


def _started(after: View, number: int) -> str:
    tables = [t["table"] for t in _round(after, number).get("tables", [])]
    span = (
        tables[0]
        if len(tables) == 1
        else WORDS.say("command.span", first=tables[0], last=tables[-1])
        if tables
        else ""
    )
    return WORDS.say("command.started", len(tables), round=number, span=span)


def _tie_breaks(before: View, after: View) -> str:
    old = {t["number"] for t in before.get("tie_breaks", [])}
    new = [t for t in after.get("tie_breaks", []) if t["number"] not in old]
    if not new:
        return ""
    parts = [
        WORDS.say(
            "command.tie_break",
            t["places"],
            section=t["section"],
            students=_listing([who(after, s) for s in t["students"]]),
        )
        for t in new
    ]
    return "; " + WORDS.say("command.tie_breaks", len(new), parts="; ".join(parts))


def _champions(before: View, after: View) -> str:
    old = before.get("champions", {})
    new = {k: v for k, v in after.get("champions", {}).items() if old.get(k) != v}
    if not new:
        return ""
    named = [f"{section}: {who(after, student)}" for section, student in new.items()]
    return "; " + WORDS.say("command.champions", len(new), names=", ".join(named))


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
    to = {2: "command.to_semi_finals", 3: "command.to_final"}.get(number)
    words = WORDS.say("command.advanced", round=number)
    if to and sum(counts.values()):
        words = WORDS.say(to, round=number, by=_by(counts, after.get("sections", [])))
    return words + _tie_breaks(before, after) + _champions(before, after)


def _swapped(after: View, number: int, a: str, b: str) -> str:
    seat = {s: t["table"] for t in _round(after, number).get("tables", []) for s in t["students"]}
    return WORDS.say(
        "command.swapped",
        round=number,
        a=who(after, a),
        table_a=seat.get(a, "?"),
        b=who(after, b),
        table_b=seat.get(b, "?"),
    )


def command_words(name: str, args: Mapping[str, Any], before: View, after: View) -> str:
    """What the command `name` with `args` did, from the views before and after it."""
    number = args.get("round")
    if name in ("register", "import_students"):
        return _imported(before, after)
    if name == "withdraw":
        return WORDS.say("command.withdrawn", who=who(after, args["student"]))
    if name == "merge_grades":
        return WORDS.say(
            "command.merged", grades=_listing(list(args["grades"])), section=args["section"]
        )
    if name == "close_registration":
        return _registration_closed(after)
    if name == "seat_round":
        return _seated(after, number)
    if name == "start_round":
        return _started(after, number)
    if name == "close_round":
        return WORDS.say("command.closed", round=number) + _tie_breaks(before, after)
    if name == "advance":
        return _advanced(before, after, number)
    if name == "reopen_round":
        return WORDS.say("command.reopened", round=number)
    if name == "swap_seats":
        return _swapped(after, number, args["a"], args["b"])
    return WORDS.say("command.done")


def nothing_to_do() -> str:
    """A command that was accepted but changed nothing (`accepted` with 0 events)."""
    return WORDS.say("command.nothing_to_do")


def created_words(tournament: str, options: Mapping[str, Any]) -> str:
    """`tournament spring created: Spring Cup on 2026-03-14, 3 grades (4th, 5th, 6th), ...`."""
    grades = list(options.get("grades", []))
    cards = options.get("cards_per_round", 48)
    return WORDS.say(
        "command.created",
        tournament=tournament,
        name=options.get("name"),
        date=options.get("date"),
        grades=plural(len(grades), "grade"),
        listed=", ".join(grades),
        cards=plural(cards, "card"),
    )
