"""A 24 Challenge tournament (R-DECK-1/2/5, R-ROUND-1..8, R-FLAG-4) as a Decider.

The stream `tournament/<id>` follows `server.games.base.Game` like a table does: its first
event is the shell's `TableCreated {game: "tournament", options}` (options:
`tournament/options.py`), then the events `decide` produces. This file holds `decide` and the
registration commands (the game kit, `server.games.kit`, builds `decide` and `evolve` from
its table); `rounds.py` the round commands, `refusals.py` the refusal codes. Modules:
`state.py` (state, evolve), `roster.py` (registration, CSV), `seating.py` (R-ROUND-2),
`decks.py` (R-DECK), `ranking.py` (advancement, ties), `tables.py` (the tables' options),
`standings.py` (score cards and standings, R-ROUND-7), `results.py` (a table's result from
its own events).

What it hides: nothing about students or scores (standings are public at a tournament), but
the cards of a round (`RoundStarted.deck`, `orders`) and of a tie-break (`TieBreakSeated.deck`)
and the seed they all derive from (`deck_seed`, in the stream's `TableCreated.options` and
the view) are seen only by the director, auditors and the server: players must not learn the
deck order (`secrets` says it in one place).

Who sends what: the director every command of `COMMANDS` but `record_result`, which the shell
sends (as the server) when a table's stream shows a final result: the tournament learns
results from the tables' events and from nothing else; and `report_table_failure`, which the
shell sends when it could not create a table of a started round, so the director sees why
the round cannot close (`TableCreationFailed`) instead of a table nobody can join.

`check_new_table` (options.py, `check_new_tournament`): what only a new tournament must
meet (a real date; table options a new table takes).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from typing import Any

from server.games.base import (
    NO_SECRETS,
    SERVER,
    Actor,
    Command,
    Deadline,
    Event,
    Secrets,
    hidden_card_values,
)
from server.games.kit import TIMER, Hold, Kit, Rule
from server.tournament import decks, roster, rounds
from server.tournament.options import DEFAULT_OPTIONS as DEFAULT_OPTIONS
from server.tournament.options import check_new_tournament
from server.tournament.refusals import MAX_TEXT, open_registration, refuse, seatable
from server.tournament.refusals import REFUSALS as REFUSALS
from server.tournament.standings import standings as standings
from server.tournament.standings import view as view
from server.tournament.state import EVENT_TYPES as EVENT_TYPES
from server.tournament.state import EVOLVERS, TournamentDecision, TournamentState
from server.tournament.state import FINAL_EVENTS as FINAL_EVENTS
from server.tournament.state import initial_state as initial_state

NAME = "tournament"
check_new_table = check_new_tournament  # what only a new tournament must meet
RECOVERY_COMMAND: str | None = None
SEED_OPTION: str | None = None  # `deck_seed` is the director's to choose and publish (R-DECK-1)
DIRECTOR = frozenset({"director"})


# -- registration ------------------------------------------------------------------------------


def _merge_grades(decision: TournamentDecision, command: Command) -> None:
    """R-ROUND-2: "by grade level or section level (i.e. 4th & 5th grades combined)"."""
    state = decision.state
    open_registration(state, command)
    grades = command.args.get("grades")
    section = refuse.text_arg(command, "section", MAX_TEXT)
    if not isinstance(grades, list) or len(grades) < 2:
        raise refuse("bad_args", "merge_grades: 'grades' lists two or more grades")
    for grade in grades:
        if grade not in state.options.grades:
            raise refuse("unknown_grade", f"merge_grades: no grade {grade!r}")
    decision.emit("GradesMerged", grades=list(grades), section=section, rule="R-ROUND-2")


def _register(decision: TournamentDecision, command: Command) -> None:
    state = decision.state
    open_registration(state, command)
    row: dict[str, Any] = {column: command.args.get(column) for column in roster.COLUMNS}
    problem = roster.row_problem(state, row, roster.registered_keys(state))
    if problem:
        code, why = problem
        raise refuse(code, f"register: {why}")
    decision.emit("StudentsRegistered", students=roster.new_entries(state, [row]))


def _import_students(decision: TournamentDecision, command: Command) -> None:
    """Every bad row reported by line; nothing imported if any row is bad."""
    state = decision.state
    open_registration(state, command)
    text = command.args.get("csv")
    if not isinstance(text, str):
        raise refuse("bad_args", "import_students: 'csv' is the file's text")
    rows, problems = roster.read_csv(state, text)
    if problems:
        raise refuse("bad_rows", "; ".join(problems))
    decision.emit("StudentsRegistered", students=roster.new_entries(state, rows), source="csv")


def _rename(decision: TournamentDecision, command: Command) -> None:
    """A student's name corrected (a typo in the roster): the id, school, grade, seats and
    points stay; every table seated from now on shows the new name (a table already created
    keeps the name its options recorded)."""
    state = decision.state
    student_id = command.args.get("student")
    student = state.students.get(student_id) if isinstance(student_id, str) else None
    if student is None:
        raise refuse("unknown_student", f"rename_student: no student {student_id!r}")
    name = refuse.text_arg(command, "name", MAX_TEXT)
    row = {"name": name, "school": student.school, "grade": student.grade}
    others = roster.registered_keys(state) - {roster.key_of(student)}
    problem = roster.row_problem(state, row, others)
    if problem:
        raise refuse(problem[0], f"rename_student: {problem[1]}")
    decision.emit("StudentRenamed", student=student.student_id, name=name, previous=student.name)


def _withdraw(decision: TournamentDecision, command: Command) -> None:
    """A withdrawn student keeps their seat at tables already seated (they no longer play)
    and takes no place still to be decided (`ranking`); a tie they were part of becomes a
    tie of the others, seated at once (R-ROUND-6)."""
    student_id = command.args.get("student")
    student = decision.state.students.get(student_id) if isinstance(student_id, str) else None
    if student is None:
        raise refuse("unknown_student", f"withdraw: no student {command.args.get('student')!r}")
    if student.withdrawn:
        raise refuse("already_withdrawn", f"withdraw: {student.student_id} has withdrawn")
    decision.emit("StudentWithdrawn", student=student.student_id)
    rounds.seat_tie_breaks(decision)


def _close_registration(decision: TournamentDecision, command: Command) -> None:
    """R-ROUND-2: students sit 3 or 4 to a table; a tournament of nobody would close and
    seat round 1 with no table, then refuse to start it, so it is refused here."""
    open_registration(decision.state, command)
    if not decision.state.active():
        raise refuse(
            "no_students",
            "close_registration: nobody is registered (or everyone has withdrawn); register "
            "students first: they sit 3 or 4 to a table (R-ROUND-2)",
        )
    seatable(decision.state)
    decision.emit("RegistrationClosed", students=len(decision.state.active()))


MAX_REASON = 500  # a creation failure's words, as the shell gives them


def _report_table_failure(decision: TournamentDecision, command: Command) -> None:
    """The shell could not create a table of a started round or tie-break: say so in the
    stream the director follows (the table's round cannot close without it, R-ROUND-7)."""
    name, reason = command.args.get("table"), command.args.get("reason")
    if not isinstance(name, str) or decision.state.table(name) is None:
        raise refuse("unknown_table", f"report_table_failure: no table {name!r}")
    if not isinstance(reason, str) or not 0 < len(reason) <= MAX_REASON:
        raise refuse("bad_args", f"report_table_failure: 'reason' is a text of 1..{MAX_REASON}")
    decision.emit("TableCreationFailed", table=name, reason=reason)


def _sent_by(
    roles: frozenset[str], handler: Callable[[TournamentDecision, Command], None]
) -> Rule[TournamentDecision]:
    """A tournament command: no phases (each handler says what a round's state allows) and no
    seats (the tournament's senders are the director and the shell)."""
    return Rule(roles, (), lambda decision, command, _seat: handler(decision, command))


COMMANDS: dict[str, Rule[TournamentDecision]] = {
    "merge_grades": _sent_by(DIRECTOR, _merge_grades),
    "register": _sent_by(DIRECTOR, _register),
    "import_students": _sent_by(DIRECTOR, _import_students),
    "rename_student": _sent_by(DIRECTOR, _rename),
    "withdraw": _sent_by(DIRECTOR, _withdraw),
    "close_registration": _sent_by(DIRECTOR, _close_registration),
    "seat_round": _sent_by(DIRECTOR, rounds.seat_round),
    "swap_seats": _sent_by(DIRECTOR, rounds.swap_seats),
    "assign_proctor": _sent_by(DIRECTOR, rounds.assign_proctor),
    "start_round": _sent_by(DIRECTOR, rounds.start_round),
    "close_round": _sent_by(DIRECTOR, rounds.close_round),
    "advance": _sent_by(DIRECTOR, rounds.advance),
    "reopen_round": _sent_by(DIRECTOR, rounds.reopen_round),
    "record_result": _sent_by(TIMER, rounds.record_result),
    "report_table_failure": _sent_by(TIMER, _report_table_failure),
}
# Checks run in this order: the command, the sender, its arguments map, the tournament's end,
# then the handler's own.
GAME = Kit(
    COMMANDS,
    refuse,
    EVOLVERS,
    TournamentDecision,
    ("sender", "args", "over"),
    holds=(
        Hold("over", lambda state: state.finished, "tournament_over", "the tournament is over"),
    ),
)
decide, evolve, COMMANDS_BY_ROLE = GAME.decide, GAME.evolve, GAME.commands_by_role


PREVIEW_STUDENTS, PREVIEW_PROBLEMS, PREVIEW_TEXT = 500, 100, 240  # a preview's bounds


def _preview_import(
    state: TournamentState, args: Mapping[str, Any], viewer: Actor, now: int
) -> dict[str, Any]:
    """What `import_students` with this file would register, and every bad row by its line,
    before anything is recorded (the director's console shows it, then imports). Why the
    answer is bounded (`PREVIEW_STUDENTS`, `PREVIEW_PROBLEMS`, each problem cut to
    `PREVIEW_TEXT` characters): a reply must never grow with what a client sent, as an
    error's message does not (a bad header is quoted in its problem)."""
    text = args.get("csv")
    if not isinstance(text, str):
        raise refuse("bad_args", "preview_import: 'csv' is the file's text")
    rows, problems = roster.read_csv(state, text)
    cut = [p if len(p) <= PREVIEW_TEXT else p[: PREVIEW_TEXT - 3] + "..." for p in problems]
    return {
        "students": roster.new_entries(state, rows)[:PREVIEW_STUDENTS] if not problems else [],
        "rows": len(rows),
        "problems": cut[:PREVIEW_PROBLEMS],
        "problem_count": len(problems),
        "registration_open": state.registration_open,
    }


Query = Callable[[TournamentState, Mapping[str, Any], Actor, int], dict[str, Any]]
QUERIES: dict[str, Query] = {"preview_import": _preview_import}


def query(
    state: TournamentState, name: str, args: Mapping[str, Any], viewer: Actor, now: int
) -> dict[str, Any]:
    """Answer query `name` (never recorded); only the director asks the tournament."""
    answer = QUERIES.get(name)
    if answer is None:
        raise refuse("unknown_query", f"unknown query {name!r}")
    if viewer.role not in DIRECTOR:
        raise refuse("not_allowed", f"{viewer.role!r} may not ask {name}")
    if not isinstance(args, Mapping):
        raise refuse("bad_args", f"{name}: arguments are a map")
    return answer(state, args, viewer, now)


def deadlines(state: TournamentState) -> list[Deadline]:
    """A tournament has no timers of its own (its tables have theirs)."""
    return []


def is_over(state: TournamentState) -> bool:
    return state.finished


HIDDEN_FIELDS = {"RoundStarted": ("deck", "orders"), "TieBreakSeated": ("deck",)}
HIDDEN_OPTIONS = ("deck_seed",)  # of the stream's first event, `TableCreated`
FULL_VIEW_ROLES = frozenset({"director", "auditor", SERVER})


def event_view(event: Event, viewer: Actor) -> Event:
    """The cards of a round or tie-break, and the seed every deck derives from (in the
    shell's `TableCreated`), are hidden from everyone but the officials."""
    if viewer.role in FULL_VIEW_ROLES:
        return event
    if event.type == "TableCreated":
        options = event.data.get("options")
        shown = (
            {k: v for k, v in options.items() if k not in HIDDEN_OPTIONS}
            if isinstance(options, Mapping)
            else {}  # fail closed: options that are not a map are not shown
        )
        return Event(event.type, {**event.data, "options": shown})
    hidden = HIDDEN_FIELDS.get(event.type)
    if not hidden:
        return event
    return Event(event.type, {k: v for k, v in event.data.items() if k not in hidden})


SECRET_KEYS = frozenset({"deck_seed", "deck", "orders"})


def secrets(state: TournamentState, viewer: Actor) -> Secrets:
    """What everyone but the officials may not learn (server.games.base.Secrets), stated
    apart from `event_view` and `view`: the deck seed and the tie-breaks' seeds derived
    from it (played, and the next), and every card of a started round or a tie-break (its
    id, its numbers, and a table's own order), whose order the seed gives. Why the seating
    is not listed: it is public, so it is not derived from the seed (`rounds.seat_round`)."""
    if viewer.role in FULL_VIEW_ROLES:
        return NO_SECRETS
    seed = state.options.deck_seed
    values: set[Hashable] = {seed}
    values |= {decks.tie_break_seed(seed, n) for n in range(1, len(state.tie_breaks) + 2)}
    cards = [card for round_ in state.rounds.values() for card in round_.deck]
    cards += [card for tie in state.tie_breaks for card in tie.deck]
    values |= hidden_card_values(((card["card_id"], card["numbers"]) for card in cards), ())
    for round_ in state.rounds.values():
        values |= {tuple(order) for order in round_.orders.values()}
    return Secrets(SECRET_KEYS, frozenset(values))
