"""The state of a tournament and how each recorded event changes it.

What this module keeps: everything a tournament *is* after some events: its options, the
students, the grade merges, each round's seating and whether it started, closed, advanced,
each table's final result as learnt from the table's own stream, the tie-breaks and the
champions. `decide` (in `tournament/__init__.py`) only reads it; `evolve` alone changes it,
one recorded event at a time, so a replay of the stream is the live state.

Rounds: 1 and 2 seat every student of a section (R-ROUND-2); 3 is the semi-final of those
who advanced (R-ROUND-3); 4 the final of the semi-table winners (R-ROUND-4/5). A tie-break
(R-ROUND-6) is numbered across the tournament and belongs to the round whose tie it breaks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from server.games.base import Decision
from server.tournament.options import TournamentOptions, tournament_options


@dataclass(frozen=True)
class Student:
    """A registered student; the id is their seat id at every table they sit at."""

    student_id: str
    name: str
    school: str
    grade: str
    withdrawn: bool = False

    def as_data(self) -> dict[str, Any]:
        return {
            "student": self.student_id,
            "name": self.name,
            "school": self.school,
            "grade": self.grade,
            "withdrawn": self.withdrawn,
        }


@dataclass(frozen=True)
class SeatedTable:
    """One table of a round or a tie-break: its id, its section and who sits there."""

    table: str
    section: str
    students: tuple[str, ...]

    def as_data(self) -> dict[str, Any]:
        return {"table": self.table, "section": self.section, "students": list(self.students)}


@dataclass(frozen=True)
class TableResult:
    """A table's final result, as its own stream says (see `tournament.results`)."""

    table: str
    scores: Mapping[str, int]
    flags: Mapping[str, int]
    disqualified: tuple[str, ...]
    initials: str
    seq: int

    def as_data(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "scores": dict(self.scores),
            "flags": dict(self.flags),
            "disqualified": list(self.disqualified),
            "initials": self.initials,
            "seq": self.seq,
        }


@dataclass(frozen=True)
class RoundState:
    """One of the four rounds."""

    number: int
    tables: tuple[SeatedTable, ...] = ()
    seated: bool = False  # (a round may seat no table: every section left with one or none)
    started: bool = False
    closed: bool = False
    advanced: bool = False
    deck: tuple[Mapping[str, Any], ...] = ()
    orders: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # per-table shuffle


@dataclass(frozen=True)
class TieBreak:
    """R-ROUND-6: tied students replaying a timed round for `places` places."""

    number: int
    round: int
    section: str
    students: tuple[str, ...]
    places: int
    tables: tuple[SeatedTable, ...]
    deck: tuple[Mapping[str, Any], ...] = ()


@dataclass(frozen=True)
class TournamentState:
    options: TournamentOptions
    students: Mapping[str, Student] = field(default_factory=dict)
    merges: Mapping[str, str] = field(default_factory=dict)  # grade -> section
    registration_open: bool = True
    rounds: Mapping[int, RoundState] = field(default_factory=dict)
    tie_breaks: tuple[TieBreak, ...] = ()
    results: Mapping[str, TableResult] = field(default_factory=dict)
    proctors: Mapping[str, Mapping[str, str]] = field(default_factory=dict)  # table -> who
    advanced: Mapping[int, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    champions: Mapping[str, str] = field(default_factory=dict)
    finished: bool = False
    clock: int = 0
    not_created: Mapping[str, str] = field(default_factory=dict)  # table -> why (the shell's)

    def section_of(self, grade: str) -> str:
        """The section a grade plays in: itself, or the merge the director made."""
        return self.merges.get(grade, grade)

    def sections(self) -> tuple[str, ...]:
        """Every section, in the order of the grades they come from."""
        seen: list[str] = []
        for grade in self.options.grades:
            section = self.section_of(grade)
            if section not in seen:
                seen.append(section)
        return tuple(seen)

    def active(self, section: str | None = None) -> list[str]:
        """Students not withdrawn (of one section), in registration order."""
        return [
            s.student_id
            for s in self.students.values()
            if not s.withdrawn and (section is None or self.section_of(s.grade) == section)
        ]

    def round(self, number: int) -> RoundState:
        return self.rounds.get(number) or RoundState(number)

    def table(self, table_id: str) -> tuple[int, SeatedTable] | None:
        """(round, table) for a table of a round or of a tie-break; a tie-break's table
        belongs to the round whose tie it breaks (its result counts for that round)."""
        for number, round_ in self.rounds.items():
            for table in round_.tables:
                if table.table == table_id:
                    return number, table
        for tie in self.tie_breaks:
            for table in tie.tables:
                if table.table == table_id:
                    return tie.round, table
        return None

    def tie_break_of(self, table_id: str) -> TieBreak | None:
        for tie in self.tie_breaks:
            if any(table.table == table_id for table in tie.tables):
                return tie
        return None

    def tie_break_done(self, tie: TieBreak) -> bool:
        return all(table.table in self.results for table in tie.tables)


def initial_state(options: Mapping[str, Any]) -> TournamentState:
    """The tournament as created; raises RuleViolation `bad_options` on bad options."""
    return TournamentState(options=tournament_options(options))


def _tables(data: list[Mapping[str, Any]]) -> tuple[SeatedTable, ...]:
    return tuple(SeatedTable(t["table"], t["section"], tuple(t["students"])) for t in data)


def _with_round(state: TournamentState, number: int, **changes: Any) -> TournamentState:
    rounds = dict(state.rounds)
    rounds[number] = replace(state.round(number), **changes)
    return replace(state, rounds=rounds)


def _registered(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    students = dict(state.students)
    for entry in data["students"]:
        students[entry["student"]] = Student(
            entry["student"], entry["name"], entry["school"], entry["grade"]
        )
    return replace(state, students=students)


def _renamed(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    students = dict(state.students)
    students[data["student"]] = replace(students[data["student"]], name=data["name"])
    return replace(state, students=students)


def _withdrawn(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    students = dict(state.students)
    students[data["student"]] = replace(students[data["student"]], withdrawn=True)
    return replace(state, students=students)


def _merged(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    merges = dict(state.merges)
    for grade in data["grades"]:
        merges[grade] = data["section"]
    return replace(state, merges=merges)


def _seated(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    return _with_round(state, data["round"], tables=_tables(data["tables"]), seated=True)


def _swapped(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    a, b = data["a"], data["b"]
    swap = {a: b, b: a}
    tables = tuple(
        replace(t, students=tuple(swap.get(s, s) for s in t.students))
        for t in state.round(data["round"]).tables
    )
    return _with_round(state, data["round"], tables=tables)


def _proctor(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    proctors = dict(state.proctors)
    proctors[data["table"]] = {"name": data["name"], "initials": data["initials"]}
    return replace(state, proctors=proctors)


def _started(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    orders = {table: tuple(order) for table, order in data.get("orders", {}).items()}
    return _with_round(state, data["round"], started=True, deck=tuple(data["deck"]), orders=orders)


def _result(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    results = dict(state.results)
    results[data["table"]] = TableResult(
        data["table"],
        dict(data["scores"]),
        dict(data["flags"]),
        tuple(data["disqualified"]),
        data["initials"],
        data["seq"],
    )
    return replace(state, results=results)


def _tie_break(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    tie = TieBreak(
        data["number"],
        data["round"],
        data["section"],
        tuple(data["students"]),
        data["places"],
        _tables(data["tables"]),
        tuple(data["deck"]),
    )
    return replace(state, tie_breaks=state.tie_breaks + (tie,))


def _advanced(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    advanced = dict(state.advanced)
    advanced[data["round"]] = {k: tuple(v) for k, v in data["advancing"].items()}
    champions = dict(state.champions)
    champions.update(data.get("champions", {}))
    state = replace(state, advanced=advanced, champions=champions)
    return _with_round(state, data["round"], advanced=True)


def _reopened(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    advanced = dict(state.advanced)
    advanced.pop(data["round"], None)
    champions = {k: v for k, v in state.champions.items() if k not in data.get("sections", [])}
    state = replace(state, advanced=advanced, champions=champions)
    return _with_round(state, data["round"], advanced=False)


def _not_created(state: TournamentState, data: Mapping[str, Any]) -> TournamentState:
    return replace(state, not_created={**state.not_created, data["table"]: data["reason"]})


Evolver = Callable[[TournamentState, Mapping[str, Any]], TournamentState]
EVOLVERS: dict[str, Evolver] = {
    "GradesMerged": _merged,
    "StudentsRegistered": _registered,
    "StudentRenamed": _renamed,
    "StudentWithdrawn": _withdrawn,
    "RegistrationClosed": lambda s, d: replace(s, registration_open=False),
    "RoundSeated": _seated,
    "SeatsSwapped": _swapped,
    "ProctorAssigned": _proctor,
    "RoundStarted": _started,
    "TableResultRecorded": _result,
    "RoundClosed": lambda s, d: _with_round(s, d["round"], closed=True),
    "TieBreakSeated": _tie_break,
    "Advanced": _advanced,
    "RoundReopened": _reopened,
    "TournamentFinished": lambda s, d: replace(s, finished=True),
    "TableCreationFailed": _not_created,
}
EVENT_TYPES = frozenset(EVOLVERS)
FINAL_EVENTS = frozenset({"TournamentFinished"})


# The events one command produces so far, and the state they lead to (`base.Decision`): a
# follow-up is judged on the state the earlier events of the same command produced.
TournamentDecision = Decision[TournamentState]
