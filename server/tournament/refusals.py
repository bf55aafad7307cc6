"""The tournament's refusal codes and the checks every command handler shares.

What this module keeps: the stable refusal codes (`REFUSALS`, each with the rule id it cites
and its meaning; docs/tournament.md lists them and a test checks it), `refuse`, which raises
them and reads the arguments (`server.games.kit.Refusals`), and the tournament's own readers
and checks (a round's number, open registration, sections that can be seated).
"""

from __future__ import annotations

from server.games.base import Command
from server.games.kit import Refusals
from server.tournament import seating
from server.tournament.state import TournamentState

MAX_TEXT = 64

# Every refusal code and what it means (docs/tournament.md lists them; a test checks it).
REFUSALS: dict[str, tuple[str, str]] = {
    "unknown_command": ("", "no such tournament command"),
    "unknown_query": ("", "no such tournament query"),
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
    "no_students": ("R-ROUND-2", "nobody is registered: no table can be seated"),
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


refuse = Refusals(REFUSALS)


def round_arg(command: Command) -> int:
    number = command.args.get("round")
    if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 4:
        raise refuse("bad_round", f"{command.name}: 'round' is 1, 2, 3 or 4, not {number!r}")
    return number


def open_registration(state: TournamentState, command: Command) -> None:
    if not state.registration_open:
        raise refuse("registration_closed", f"{command.name}: registration is closed")


def seatable(state: TournamentState) -> None:
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
