"""A 24 Challenge tournament (R-DECK-1/2/5, R-ROUND-1..8, R-FLAG-4) as a Decider.

The stream `tournament/<id>` follows `server.games.base.Game` like a table does: its first
event is the shell's `TableCreated {game: "tournament", options}` (options:
`tournament/options.py`), then the events `decide` produces. This file holds `decide` and the
registration commands; `rounds.py` the round commands, `checks.py` the refusal codes. Modules:
`state.py` (state, evolve), `roster.py` (registration, CSV), `seating.py` (R-ROUND-2),
`decks.py` (R-DECK), `ranking.py` (advancement, ties), `tables.py` (the tables' options),
`standings.py` (score cards and standings, R-ROUND-7), `results.py` (a table's result from
its own events).

What it hides: nothing about students or scores (standings are public at a tournament), but
the cards of a round (`RoundStarted.deck`, `orders`) and of a tie-break (`TieBreakSeated.deck`)
are seen only by the director, auditors and the server: players must not learn the deck order.

Who sends what: the director every command of `COMMANDS` but `record_result`, which the shell
sends (as the server) when a table's stream shows a final result: the tournament learns
results from the tables' events and from nothing else; and `report_table_failure`, which the
shell sends when it could not create a table of a started round, so the director sees why
the round cannot close (`TableCreationFailed`) instead of a table nobody can join.

`check_new_table` (options.py, `check_new_tournament`): what only a new tournament must
meet (a real date; table options a new table takes).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from server.games.base import SERVER, Actor, Command, Deadline, Event
from server.tournament import roster, rounds
from server.tournament.checks import (
    REFUSALS,
    Batch,
    open_registration,
    refuse,
    seatable,
    text_arg,
)
from server.tournament.options import DEFAULT_OPTIONS
from server.tournament.options import check_new_tournament as check_new_table
from server.tournament.standings import standings, view
from server.tournament.state import (
    EVENT_TYPES,
    FINAL_EVENTS,
    TournamentState,
    evolve,
    initial_state,
)

NAME = "tournament"
RECOVERY_COMMAND = None
SEED_OPTION = None  # `deck_seed` is the director's to choose and publish (R-DECK-1)
DIRECTOR = frozenset({"director"})
TIMER = frozenset({SERVER})

__all__ = [
    "COMMANDS_BY_ROLE",
    "DEFAULT_OPTIONS",
    "EVENT_TYPES",
    "FINAL_EVENTS",
    "NAME",
    "RECOVERY_COMMAND",
    "SEED_OPTION",
    "REFUSALS",
    "check_new_table",
    "decide",
    "deadlines",
    "event_view",
    "evolve",
    "initial_state",
    "is_over",
    "standings",
    "view",
]

# -- registration ------------------------------------------------------------------------------


def _merge_grades(batch: Batch, command: Command) -> None:
    """R-ROUND-2: "by grade level or section level (i.e. 4th & 5th grades combined)"."""
    state = batch.state
    open_registration(state, command)
    grades = command.args.get("grades")
    section = text_arg(command, "section")
    if not isinstance(grades, list) or len(grades) < 2:
        raise refuse("bad_args", "merge_grades: 'grades' lists two or more grades")
    for grade in grades:
        if grade not in state.options.grades:
            raise refuse("unknown_grade", f"merge_grades: no grade {grade!r}")
    batch.emit("GradesMerged", grades=list(grades), section=section, rule="R-ROUND-2")


def _register(batch: Batch, command: Command) -> None:
    state = batch.state
    open_registration(state, command)
    row: dict[str, Any] = {column: command.args.get(column) for column in roster.COLUMNS}
    problem = roster.row_problem(state, row, roster.registered_keys(state))
    if problem:
        code, why = problem
        raise refuse(code, f"register: {why}")
    batch.emit("StudentsRegistered", students=roster.new_entries(state, [row]))


def _import_students(batch: Batch, command: Command) -> None:
    """Every bad row reported by line; nothing imported if any row is bad."""
    state = batch.state
    open_registration(state, command)
    text = command.args.get("csv")
    if not isinstance(text, str):
        raise refuse("bad_args", "import_students: 'csv' is the file's text")
    rows, problems = roster.read_csv(state, text)
    if problems:
        raise refuse("bad_rows", "; ".join(problems))
    batch.emit("StudentsRegistered", students=roster.new_entries(state, rows), source="csv")


def _withdraw(batch: Batch, command: Command) -> None:
    student_id = command.args.get("student")
    student = batch.state.students.get(student_id) if isinstance(student_id, str) else None
    if student is None:
        raise refuse("unknown_student", f"withdraw: no student {command.args.get('student')!r}")
    if student.withdrawn:
        raise refuse("already_withdrawn", f"withdraw: {student.student_id} has withdrawn")
    batch.emit("StudentWithdrawn", student=student.student_id)


def _close_registration(batch: Batch, command: Command) -> None:
    """R-ROUND-2: students sit 3 or 4 to a table; a tournament of nobody would close and
    seat round 1 with no table, then refuse to start it, so it is refused here."""
    open_registration(batch.state, command)
    if not batch.state.active():
        raise refuse(
            "no_students",
            "close_registration: nobody is registered (or everyone has withdrawn); register "
            "students first: they sit 3 or 4 to a table (R-ROUND-2)",
        )
    seatable(batch.state)
    batch.emit("RegistrationClosed", students=len(batch.state.active()))


MAX_REASON = 500  # a creation failure's words, as the shell gives them


def _report_table_failure(batch: Batch, command: Command) -> None:
    """The shell could not create a table of a started round or tie-break: say so in the
    stream the director follows (the table's round cannot close without it, R-ROUND-7)."""
    name, reason = command.args.get("table"), command.args.get("reason")
    if not isinstance(name, str) or batch.state.table(name) is None:
        raise refuse("unknown_table", f"report_table_failure: no table {name!r}")
    if not isinstance(reason, str) or not 0 < len(reason) <= MAX_REASON:
        raise refuse("bad_args", f"report_table_failure: 'reason' is a text of 1..{MAX_REASON}")
    batch.emit("TableCreationFailed", table=name, reason=reason)


Handler = Callable[[Batch, Command], None]


@dataclass(frozen=True)
class CommandRule:
    roles: frozenset[str]
    handler: Handler


COMMANDS: dict[str, CommandRule] = {
    "merge_grades": CommandRule(DIRECTOR, _merge_grades),
    "register": CommandRule(DIRECTOR, _register),
    "import_students": CommandRule(DIRECTOR, _import_students),
    "withdraw": CommandRule(DIRECTOR, _withdraw),
    "close_registration": CommandRule(DIRECTOR, _close_registration),
    "seat_round": CommandRule(DIRECTOR, rounds.seat_round),
    "swap_seats": CommandRule(DIRECTOR, rounds.swap_seats),
    "assign_proctor": CommandRule(DIRECTOR, rounds.assign_proctor),
    "start_round": CommandRule(DIRECTOR, rounds.start_round),
    "close_round": CommandRule(DIRECTOR, rounds.close_round),
    "advance": CommandRule(DIRECTOR, rounds.advance),
    "reopen_round": CommandRule(DIRECTOR, rounds.reopen_round),
    "record_result": CommandRule(TIMER, rounds.record_result),
    "report_table_failure": CommandRule(TIMER, _report_table_failure),
}
COMMANDS_BY_ROLE: Mapping[str, frozenset[str]] = {
    name: rule.roles for name, rule in COMMANDS.items()
}


def decide(state: TournamentState, command: Command, now: int) -> list[Event]:
    """The events a tournament command causes at `now`, or a RuleViolation saying why not."""
    rule = COMMANDS.get(command.name)
    if rule is None:
        raise refuse("unknown_command", f"unknown command {command.name!r}")
    if command.actor.role not in rule.roles:
        raise refuse("not_allowed", f"{command.actor.role!r} may not send {command.name}")
    if not isinstance(command.args, Mapping):
        raise refuse("bad_args", f"{command.name}: arguments are a map")
    if state.finished:
        raise refuse("tournament_over", f"{command.name}: the tournament is over")
    batch = Batch(state, max(now, state.clock))
    rule.handler(batch, command)
    return batch.events


def deadlines(state: TournamentState) -> list[Deadline]:
    """A tournament has no timers of its own (its tables have theirs)."""
    return []


def is_over(state: TournamentState) -> bool:
    return state.finished


HIDDEN_FIELDS = {"RoundStarted": ("deck", "orders"), "TieBreakSeated": ("deck",)}
FULL_VIEW_ROLES = frozenset({"director", "auditor", SERVER})


def event_view(event: Event, viewer: Actor) -> Event:
    """The cards of a round or tie-break are hidden from everyone but the officials."""
    hidden = HIDDEN_FIELDS.get(event.type)
    if not hidden or viewer.role in FULL_VIEW_ROLES:
        return event
    return Event(event.type, {k: v for k, v in event.data.items() if k not in hidden})
