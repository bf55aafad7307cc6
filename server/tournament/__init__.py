"""A 24 Challenge tournament (R-DECK-1/2/5, R-ROUND-1..8, R-FLAG-4) as a Decider.

The stream `tournament/<id>` follows `server.games.base.Game` like a table does: its first
event is the shell's `TableCreated {game: "tournament", options}` (options:
`tournament/options.py`), then the events `decide` produces. Modules: `state.py` (state,
evolve), `roster.py` (registration, CSV), `seating.py` (R-ROUND-2), `decks.py` (R-DECK),
`ranking.py` (advancement, ties), `tables.py` (the tables' options), `standings.py` (score
cards and standings, R-ROUND-7), `results.py` (a table's result from its own events).

What it hides: nothing about students or scores (standings are public at a tournament), but
the cards of a round (`RoundStarted.deck`, `orders`) and of a tie-break (`TieBreakSeated.deck`)
are seen only by the director, auditors and the server: players must not learn the deck order.

Who sends what: the director every command of `COMMANDS` but `record_result`, which the shell
sends (as the server) when a table's stream shows a final result: the tournament learns
results from the tables' events and from nothing else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from server.games.base import SERVER, Actor, Command, Deadline, Event, RuleViolation
from server.tournament import decks, ranking, roster, seating
from server.tournament.options import DEFAULT_OPTIONS
from server.tournament.standings import standings, view
from server.tournament.state import (
    EVENT_TYPES,
    FINAL_EVENTS,
    TournamentState,
    evolve,
    initial_state,
)
from server.tournament.tables import round_table_name, tie_break_table_name

NAME = "tournament"
RECOVERY_COMMAND = None
DIRECTOR = frozenset({"director"})
TIMER = frozenset({SERVER})
MAX_TEXT = 64

__all__ = [
    "COMMANDS_BY_ROLE",
    "DEFAULT_OPTIONS",
    "EVENT_TYPES",
    "FINAL_EVENTS",
    "NAME",
    "RECOVERY_COMMAND",
    "REFUSALS",
    "decide",
    "deadlines",
    "event_view",
    "evolve",
    "initial_state",
    "is_over",
    "standings",
    "view",
]

# Every refusal code and what it means (docs/tournament.md lists them; a test checks it).
REFUSALS: dict[str, tuple[str, str]] = {
    "unknown_command": ("", "no such tournament command"),
    "not_allowed": ("", "this role may not send this command"),
    "bad_args": ("", "an argument is missing or of the wrong kind"),
    "bad_options": ("", "the tournament's creation options are invalid"),
    "registration_closed": ("R-ROUND-2", "registration is closed"),
    "registration_open": ("R-ROUND-2", "close registration before seating round 1 or 2"),
    "bad_student": ("", "a registration is invalid (the message says why)"),
    "bad_rows": ("", "an import has bad rows: each is listed by line; nothing was imported"),
    "unknown_grade": ("R-ROUND-2", "no such grade in this tournament"),
    "unknown_student": ("", "no such student"),
    "already_withdrawn": ("", "the student has withdrawn already"),
    "cannot_seat": ("R-ROUND-2", "a section cannot sit 3 or 4 to a table: merge it"),
    "bad_round": ("R-ROUND-1", "a round is 1, 2, 3 or 4"),
    "round_not_seated": ("R-ROUND-2", "the round has no seating yet"),
    "round_started": ("R-ROUND-2", "the round has started: its seating is fixed"),
    "round_not_started": ("R-ROUND-1", "the round has not started"),
    "round_closed": ("R-ROUND-1", "the round is closed"),
    "round_not_closed": ("R-ROUND-3", "close the round before advancing"),
    "previous_round_open": ("R-ROUND-1", "the previous round is not closed (or advanced)"),
    "not_seated": ("R-ROUND-2", "the student has no seat in this round"),
    "same_table": ("R-ROUND-2", "both students sit at the same table"),
    "different_sections": ("R-ROUND-2", "students change tables within their section only"),
    "unknown_table": ("", "no such table in this tournament"),
    "tables_unsigned": ("R-ROUND-7", "some tables of the round have no final result"),
    "tie_break_pending": ("R-ROUND-6", "a tie that decides a place is not played off yet"),
    "already_advanced": ("R-ROUND-3", "the round was advanced already"),
    "nothing_to_advance": ("R-ROUND-3", "round 1 advances nobody: advance after round 2"),
    "not_advanced": ("R-ROUND-8", "the round has not been advanced"),
    "next_round_started": ("R-ROUND-8", "the next round has started: too late to reopen"),
    "round_advanced": ("R-ROUND-8", "the round is advanced: a changed result needs a reopen"),
    "result_unchanged": ("R-ROUND-7", "this result is recorded already"),
    "bad_result": ("R-ROUND-7", "the result does not match the table's seats"),
    "tournament_over": ("R-ROUND-5", "the champions are declared"),
}


def refuse(code: str, message: str) -> RuleViolation:
    return RuleViolation(code, message, REFUSALS[code][0])


class _Batch:
    """The events one command produces so far, and the state they lead to."""

    def __init__(self, state: TournamentState, now: int) -> None:
        self.state = state
        self.now = now
        self.events: list[Event] = []

    def emit(self, type_: str, **data: Any) -> None:
        event = Event(type_, {"at": self.now, **data})
        self.events.append(event)
        self.state = evolve(self.state, event)


def _text(command: Command, name: str) -> str:
    value = command.args.get(name)
    if not isinstance(value, str) or not 0 < len(value.strip()) <= MAX_TEXT:
        raise refuse("bad_args", f"{command.name}: {name!r} is a text of 1..{MAX_TEXT}")
    return value.strip()


def _round_arg(command: Command) -> int:
    number = command.args.get("round")
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 4:
        raise refuse("bad_round", f"{command.name}: 'round' is 1, 2, 3 or 4, not {number!r}")
    return number


def _open_registration(state: TournamentState, command: Command) -> None:
    if not state.registration_open:
        raise refuse("registration_closed", f"{command.name}: registration is closed")


# -- registration ------------------------------------------------------------------------------


def _merge_grades(batch: _Batch, command: Command) -> None:
    """R-ROUND-2: "by grade level or section level (i.e. 4th & 5th grades combined)"."""
    state = batch.state
    _open_registration(state, command)
    grades = command.args.get("grades")
    section = _text(command, "section")
    if not isinstance(grades, list) or len(grades) < 2:
        raise refuse("bad_args", "merge_grades: 'grades' lists two or more grades")
    for grade in grades:
        if grade not in state.options.grades:
            raise refuse("unknown_grade", f"merge_grades: no grade {grade!r}")
    batch.emit("GradesMerged", grades=list(grades), section=section, rule="R-ROUND-2")


def _register(batch: _Batch, command: Command) -> None:
    state = batch.state
    _open_registration(state, command)
    row: dict[str, Any] = {column: command.args.get(column) for column in roster.COLUMNS}
    problem = roster.row_problem(state, row, roster.registered_keys(state))
    if problem:
        code = "unknown_grade" if problem.startswith("grade ") else "bad_student"
        raise refuse(code, f"register: {problem}")
    batch.emit("StudentsRegistered", students=roster.new_entries(state, [row]))


def _import_students(batch: _Batch, command: Command) -> None:
    """Every bad row reported by line; nothing imported if any row is bad."""
    state = batch.state
    _open_registration(state, command)
    text = command.args.get("csv")
    if not isinstance(text, str):
        raise refuse("bad_args", "import_students: 'csv' is the file's text")
    rows, problems = roster.read_csv(state, text)
    if problems:
        raise refuse("bad_rows", "; ".join(problems))
    batch.emit("StudentsRegistered", students=roster.new_entries(state, rows), source="csv")


def _withdraw(batch: _Batch, command: Command) -> None:
    student_id = command.args.get("student")
    student = batch.state.students.get(student_id) if isinstance(student_id, str) else None
    if student is None:
        raise refuse("unknown_student", f"withdraw: no student {command.args.get('student')!r}")
    if student.withdrawn:
        raise refuse("already_withdrawn", f"withdraw: {student.student_id} has withdrawn")
    batch.emit("StudentWithdrawn", student=student.student_id)


def _seatable(state: TournamentState) -> None:
    for section in state.sections():
        count = len(state.active(section))
        if count == 0:
            continue  # a grade nobody registered for plays no table
        try:
            seating.table_sizes(count)
        except seating.CannotSeat:
            raise refuse(
                "cannot_seat",
                f"section {section!r} has {count} students: they cannot sit 3 or 4 to a "
                "table; merge it with another (merge_grades)",
            ) from None


def _close_registration(batch: _Batch, command: Command) -> None:
    _open_registration(batch.state, command)
    _seatable(batch.state)
    batch.emit("RegistrationClosed", students=len(batch.state.active()))


# -- rounds ------------------------------------------------------------------------------------


def _seat_round(batch: _Batch, command: Command) -> None:
    """R-ROUND-2 seating (see `seating`); R-ROUND-3/4: rounds 3 and 4 seat who advanced."""
    state = batch.state
    number = _round_arg(command)
    if state.round(number).started:
        raise refuse("round_started", f"seat_round: round {number} has started")
    if number <= 2 and state.registration_open:
        raise refuse("registration_open", "seat_round: close registration first")
    if number == 2 and not state.round(1).closed:
        raise refuse("previous_round_open", "seat_round: close round 1 first")
    if number >= 3 and not state.round(number - 1).advanced:
        raise refuse("previous_round_open", f"seat_round: advance round {number - 1} first")
    if number <= 2:
        _seatable(state)
    key = f"t24/tournament/{state.options.deck_seed}/seating/{number}"
    tables: list[dict[str, Any]] = []
    for index, section in enumerate(state.sections(), start=1):
        if number <= 2:
            students = state.active(section)
        else:
            if section in state.champions:
                continue  # decided at a single semi-final table (R-ROUND-5)
            students = list(state.advanced.get(number - 1, {}).get(section, ()))
        if not students:
            continue
        if number == 2:
            previous = [t.students for t in state.round(1).tables if t.section == section]
            groups = seating.reseat(students, previous, f"{key}/{section}")
        elif number == 4 or len(students) < 3:
            groups = [sorted(students)]  # the final: one table of the semi-final winners
        else:
            groups = seating.seat_fresh(students, f"{key}/{section}")
        for table_index, group in enumerate(groups, start=1):
            name = round_table_name(number, index, table_index)
            tables.append({"table": name, "section": section, "students": list(group)})
    batch.emit("RoundSeated", round=number, tables=tables, rule="R-ROUND-2")


def _swap_seats(batch: _Batch, command: Command) -> None:
    """R-ROUND-2: "can be edited by the director before the round starts"."""
    state = batch.state
    number = _round_arg(command)
    round_ = state.round(number)
    if not round_.tables:
        raise refuse("round_not_seated", f"swap_seats: round {number} is not seated")
    if round_.started:
        raise refuse("round_started", f"swap_seats: round {number} has started")
    a, b = command.args.get("a"), command.args.get("b")
    where = {s: t for t in round_.tables for s in t.students}
    for student in (a, b):
        if not isinstance(student, str) or student not in where:
            raise refuse("not_seated", f"swap_seats: {student!r} has no seat in round {number}")
    assert isinstance(a, str) and isinstance(b, str)
    if where[a] is where[b]:
        raise refuse("same_table", f"swap_seats: {a} and {b} sit at {where[a].table}")
    if where[a].section != where[b].section:
        raise refuse("different_sections", f"swap_seats: {a} and {b} are in different sections")
    batch.emit("SeatsSwapped", round=number, a=a, b=b, rule="R-ROUND-2")


def _assign_proctor(batch: _Batch, command: Command) -> None:
    table = command.args.get("table")
    if not isinstance(table, str) or batch.state.table(table) is None:
        raise refuse("unknown_table", f"assign_proctor: no table {table!r}")
    name = _text(command, "name")
    initials = command.args.get("initials") or "".join(w[0] for w in name.split()).upper()
    if not isinstance(initials, str) or not 0 < len(initials) <= 8:
        raise refuse("bad_args", "assign_proctor: 'initials' is a text of 1..8 characters")
    batch.emit("ProctorAssigned", table=table, name=name, initials=initials, rule="R-ROUND-7")


def _start_round(batch: _Batch, command: Command) -> None:
    """R-DECK-1/5: the round's cards, one order for every table (or one per table)."""
    state = batch.state
    number = _round_arg(command)
    round_ = state.round(number)
    if not round_.tables:
        raise refuse("round_not_seated", f"start_round: round {number} is not seated")
    if round_.started:
        raise refuse("round_started", f"start_round: round {number} has started")
    if number > 1 and not state.round(number - 1).closed:
        raise refuse("previous_round_open", f"start_round: close round {number - 1} first")
    options = state.options
    deck = decks.round_cards(options.deck_seed, options.rules, number)
    orders = {}
    if options.per_table_shuffle:
        ids = [card["card_id"] for card in deck]
        for table in round_.tables:
            orders[table.table] = decks.table_order(options.deck_seed, number, table.table, ids)
    half, side = decks.round_half_and_side(options.rules, number)
    batch.emit(
        "RoundStarted",
        round=number,
        tables=[t.table for t in round_.tables],
        half=half,
        side=side,
        deck=deck,
        orders=orders,
        rule="R-DECK-5",
    )


def _seat_tie_breaks(batch: _Batch, number: int) -> None:
    """R-ROUND-6: every tie of a closed round that decides a place and has no tie-break yet
    is seated at once (2 to 4 to a table; more tied students sit at several tables)."""
    state = batch.state
    if not state.round(number).closed or state.round(number).advanced or number == 1:
        return
    for pending in ranking.pending_ties(state, number):
        if pending.seated:
            continue
        tie_number = len(batch.state.tie_breaks) + 1
        students = list(pending.students)
        sizes = [len(students)] if len(students) <= 4 else _tie_sizes(len(students))
        tables, start = [], 0
        for table_index, size in enumerate(sizes, start=1):
            group = students[start : start + size]
            start += size
            name = tie_break_table_name(tie_number, table_index)
            tables.append({"table": name, "section": pending.section, "students": group})
        opts = batch.state.options
        batch.emit(
            "TieBreakSeated",
            number=tie_number,
            round=number,
            section=pending.section,
            students=students,
            places=pending.places,
            tables=tables,
            deck=decks.tie_break_cards(opts.deck_seed, opts.rules, number, tie_number),
            rule="R-ROUND-6",
        )


def _tie_sizes(count: int) -> list[int]:
    sizes = [4] * (count // 4)
    rest = count % 4
    if rest == 1:
        sizes[-1] = 3
        sizes.append(2)
    elif rest:
        sizes.append(rest)
    return sizes


def _close_round(batch: _Batch, command: Command) -> None:
    """R-ROUND-7: a round closes when every table's result is final (signed)."""
    state = batch.state
    number = _round_arg(command)
    round_ = state.round(number)
    if not round_.started:
        raise refuse("round_not_started", f"close_round: round {number} has not started")
    if round_.closed:
        raise refuse("round_closed", f"close_round: round {number} is closed")
    missing = [t.table for t in round_.tables if t.table not in state.results]
    if missing:
        raise refuse("tables_unsigned", f"close_round: no final result yet at {', '.join(missing)}")
    batch.emit("RoundClosed", round=number, rule="R-ROUND-7")
    _seat_tie_breaks(batch, number)


def _advance(batch: _Batch, command: Command) -> None:
    """R-ROUND-3/4/5: who goes on (or is champion), recomputed from the recorded results."""
    state = batch.state
    number = _round_arg(command)
    if number == 1:
        raise refuse("nothing_to_advance", "advance: round 1 advances nobody (R-ROUND-3)")
    round_ = state.round(number)
    if not round_.closed:
        raise refuse("round_not_closed", f"advance: close round {number} first")
    if round_.advanced:
        raise refuse("already_advanced", f"advance: round {number} was advanced")
    pending = ranking.pending_ties(state, number)
    if pending:
        who = "; ".join(f"{p.section}: {', '.join(p.students)}" for p in pending)
        raise refuse("tie_break_pending", f"advance: ties to play off first ({who})")
    advancing, champions = ranking.advancing(state, number)
    rule = {2: "R-ROUND-3", 3: "R-ROUND-4", 4: "R-ROUND-5"}[number]
    batch.emit("Advanced", round=number, advancing=advancing, champions=champions, rule=rule)
    if set(batch.state.champions) >= set(batch.state.sections()):
        batch.emit("TournamentFinished", champions=dict(batch.state.champions), rule="R-ROUND-5")


def _reopen_round(batch: _Batch, command: Command) -> None:
    """R-ROUND-8: the director reopens an advanced round so a late ruling can count."""
    state = batch.state
    number = _round_arg(command)
    if not state.round(number).advanced:
        raise refuse("not_advanced", f"reopen_round: round {number} is not advanced")
    if number < 4 and state.round(number + 1).started:
        raise refuse("next_round_started", f"reopen_round: round {number + 1} has started")
    sections = list(ranking.advancing(state, number)[1])
    batch.emit("RoundReopened", round=number, sections=sections, rule="R-ROUND-8")


def _counts(value: object) -> bool:
    """A map of student id -> a whole number (points or flags)."""
    return isinstance(value, Mapping) and all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
        for k, v in value.items()
    )


def _record_result(batch: _Batch, command: Command) -> None:
    """A table's final result, as its own stream shows it (sent by the shell)."""
    state = batch.state
    name = command.args.get("table")
    if not isinstance(name, str) or (found := state.table(name)) is None:
        raise refuse("unknown_table", f"record_result: no table {name!r}")
    number, table = found
    tie = state.tie_break_of(name)
    owner = tie.round if tie else number
    if state.round(owner).advanced:
        raise refuse("round_advanced", f"record_result: round {owner} is advanced; reopen it")
    args = command.args
    scores, flags = args.get("scores"), args.get("flags") or {}
    disqualified, initials, seq = (
        args.get("disqualified") or [],
        args.get("initials") or "",
        args.get("seq"),
    )
    if (
        not isinstance(scores, Mapping)
        or not _counts(scores)
        or set(scores) != set(table.students)
        or not _counts(flags)
        or not isinstance(disqualified, list)
        or not set(disqualified) <= set(table.students)
        or not isinstance(initials, str)
        or not isinstance(seq, int)
        or isinstance(seq, bool)
    ):
        raise refuse("bad_result", f"record_result: scores for {', '.join(table.students)}")
    old = state.results.get(name)
    if old is not None and old.seq == seq:
        raise refuse("result_unchanged", f"record_result: {name} at seq {old.seq} is recorded")
    batch.emit(
        "TableResultRecorded",
        table=name,
        scores=dict(scores),
        flags=dict(flags),
        disqualified=list(disqualified),
        initials=initials,
        seq=seq,
        rule="R-ROUND-7",
    )
    _seat_tie_breaks(batch, owner)


Handler = Callable[[_Batch, Command], None]


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
    "seat_round": CommandRule(DIRECTOR, _seat_round),
    "swap_seats": CommandRule(DIRECTOR, _swap_seats),
    "assign_proctor": CommandRule(DIRECTOR, _assign_proctor),
    "start_round": CommandRule(DIRECTOR, _start_round),
    "close_round": CommandRule(DIRECTOR, _close_round),
    "advance": CommandRule(DIRECTOR, _advance),
    "reopen_round": CommandRule(DIRECTOR, _reopen_round),
    "record_result": CommandRule(TIMER, _record_result),
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
    batch = _Batch(state, max(now, state.clock))
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
