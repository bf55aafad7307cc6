"""The round commands of a tournament: seat, swap, proctor, start, close, tie-breaks, advance,
reopen, and the results the shell records (R-ROUND-1..8, R-DECK-1/5, R-FLAG-4).

Each handler appends events to a `TournamentDecision` (tournament/state.py) and raises
`RuleViolation` with a code of `REFUSALS` when the command may not happen. Who advances and
which ties must be played off is `ranking`'s; this module turns it into events.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from server.games.base import Command
from server.tournament import decks, ranking, seating
from server.tournament.refusals import MAX_TEXT, refuse, round_arg
from server.tournament.state import TournamentDecision, TournamentState
from server.tournament.tables import round_table_name, tie_break_table_name


def seating_key(state: TournamentState, number: int) -> str:
    """What round `number`'s seating shuffle is seeded by: the tournament's name and date.

    Why not the deck seed (as until issue 33): the seating is public (every student must find
    a table) and the seed is secret, and a public function of a seed of 31 bits gives the
    seed away to anyone who tries them all (2**31 seatings: ten hours of one core in plain
    Python, minutes on a few dozen), and with it every card of every round, in order, before
    it is placed. The seating needs no secret: it
    needs only to be fixed by the recorded data, so that replay agrees."""
    return f"{_public_key(state)}/seating/{number}"


def _public_key(state: TournamentState) -> str:
    """The tournament's public name and date: what every public shuffle is seeded by."""
    return f"t24/tournament/{state.options.name}/{state.options.date}"


def seat_round(decision: TournamentDecision, command: Command) -> None:
    """R-ROUND-2 seating (see `seating`); R-ROUND-3/4: rounds 3 and 4 seat who advanced.

    Registration closed only when every section could sit 3 or 4 to a table (`seatable`);
    whoever is left after withdrawals is seated by `seating.stage_sizes` (decision 11 of
    docs/tournament.md: 5 sit 3 + 2, 2 at one table, a lone student at none), so one
    section's withdrawals never stop the round of every section."""
    state = decision.state
    number = round_arg(command)
    if state.round(number).started:
        raise refuse("round_started", f"seat_round: round {number} has started")
    if number <= 2 and state.registration_open:
        raise refuse("registration_open", "seat_round: close registration first")
    if number == 2 and not state.round(1).closed:
        raise refuse("previous_round_open", "seat_round: close round 1 first")
    if number >= 3 and not state.round(number - 1).advanced:
        raise refuse("previous_round_open", f"seat_round: advance round {number - 1} first")
    key = seating_key(state, number)
    tables: list[dict[str, Any]] = []
    for index, section in enumerate(state.sections(), start=1):
        students = ranking.stage_students(state, number, section)
        if number == 2:
            previous = [t.students for t in state.round(1).tables if t.section == section]
            groups = seating.reseat(students, previous, f"{key}/{section}")
        elif number == 4 or (number == 3 and len(students) < seating.MIN_TABLE):
            # the final (at most four semi-final winners, advance_count <= 16), or a
            # semi-final of two; a lone student sits at no table (ranking: a walkover)
            groups = [sorted(students)] if len(students) >= seating.PAIR else []
        else:
            groups = seating.seat_fresh(students, f"{key}/{section}")
        for table_index, group in enumerate(groups, start=1):
            name = round_table_name(number, index, table_index)
            tables.append({"table": name, "section": section, "students": list(group)})
    decision.emit("RoundSeated", round=number, tables=tables, rule="R-ROUND-2")


def swap_seats(decision: TournamentDecision, command: Command) -> None:
    """R-ROUND-2: "can be edited by the director before the round starts"."""
    state = decision.state
    number = round_arg(command)
    round_ = state.round(number)
    if not round_.seated:
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
    decision.emit("SeatsSwapped", round=number, a=a, b=b, rule="R-ROUND-2")


def assign_proctor(decision: TournamentDecision, command: Command) -> None:
    table = command.args.get("table")
    if not isinstance(table, str) or decision.state.table(table) is None:
        raise refuse("unknown_table", f"assign_proctor: no table {table!r}")
    name = refuse.text_arg(command, "name", MAX_TEXT)
    initials = command.args.get("initials") or "".join(w[0] for w in name.split()).upper()
    # Never empty: left out or empty, they are the first letters of a name (1..64 characters,
    # stripped, so at least one word).
    if not isinstance(initials, str) or len(initials) > 8:
        raise refuse("bad_args", "assign_proctor: 'initials' is a text of 1..8 characters")
    decision.emit("ProctorAssigned", table=table, name=name, initials=initials, rule="R-ROUND-7")


def start_round(decision: TournamentDecision, command: Command) -> None:
    """R-DECK-1/5: the round's cards, one order for every table (or one per table)."""
    state = decision.state
    number = round_arg(command)
    round_ = state.round(number)
    if not round_.seated:
        raise refuse("round_not_seated", f"start_round: round {number} is not seated")
    if round_.started:
        raise refuse("round_started", f"start_round: round {number} has started")
    # R-ROUND-8: round 3 or 4 was seated once the round before advanced, but a reopen undoes
    # that advance while the seating stays: the late ruling may change who advances, so the
    # round waits for the advance again (and the tournament cannot finish before it).
    if number >= 3 and not state.round(number - 1).advanced:
        raise refuse("previous_round_open", f"start_round: advance round {number - 1} first")
    if number >= 3 and (stale := _outdated_sections(state, number)):
        raise refuse(
            "round_not_seated",
            f"start_round: round {number} was seated before round {number - 1} was advanced "
            f"again and no longer seats who advanced ({', '.join(stale)}): seat it again",
        )
    # That round 2's round 1 is closed needs no check: round 2 is seated only once round 1
    # closed (`seat_round`), and a close is never undone (a reopen undoes `advance` only).
    options = state.options
    # R-ROUND-1: a fixed number of cards (48; fewer when the tournament says so), the same
    # cards for every table: the first ones of the round's shuffle.
    deck = decks.round_cards(options, number)[: options.cards_per_round]
    orders = {}
    if options.per_table_shuffle:
        ids = [card["card_id"] for card in deck]
        for table in round_.tables:
            orders[table.table] = decks.table_order(options.deck_seed, number, table.table, ids)
    plan = decks.plan_of(options, number)
    decision.emit(
        "RoundStarted",
        round=number,
        tables=[t.table for t in round_.tables],
        edition=plan.edition,
        half=plan.half,
        side=plan.side,
        deck=deck,
        orders=orders,
        rule="R-DECK-5",
    )


def _outdated_sections(state: TournamentState, number: int) -> list[str]:
    """The sections whose round-`number` seating (3 or 4) is not who is left of those who
    advanced: after a reopen (R-ROUND-8) the advance again may name other students. Students
    who withdrew since the seating keep their seat (they do not play), and a section seated
    at no table has at most one student left (a walkover)."""
    outdated = []
    for section in state.sections():
        seated = [s for t in state.round(number).tables if t.section == section for s in t.students]
        left = set(ranking.stage_students(state, number, section))
        present = {s for s in seated if not state.students[s].withdrawn}
        if present != left and (seated or len(left) > 1):
            outdated.append(section)
    return outdated


def seat_tie_breaks(decision: TournamentDecision) -> None:
    """R-ROUND-6: every tie of a closed round not yet advanced that decides a place and has
    no tie-break yet is seated at once (after a result, the close, or a withdrawal that
    changes who is tied); four or fewer at one table, more at tables of 3 or 4 (five: 3 + 2),
    a seeded shuffle, compared by rank at each table (`ranking.tie_break_standing`)."""
    state = decision.state
    for number in (2, 3, 4):  # round 1 decides no place: `pending_ties` has none for it
        if not state.round(number).closed or state.round(number).advanced:
            continue
        for pending in ranking.pending_ties(decision.state, number):
            if pending.seated:
                continue
            tie_number = len(decision.state.tie_breaks) + 1
            students = list(pending.students)
            tables = []
            for table_index, group in enumerate(
                _tie_tables(decision.state, tie_number, students), 1
            ):
                name = tie_break_table_name(tie_number, table_index)
                tables.append({"table": name, "section": pending.section, "students": group})
            opts = decision.state.options
            decision.emit(
                "TieBreakSeated",
                number=tie_number,
                round=number,
                section=pending.section,
                students=students,
                places=pending.places,
                tables=tables,
                deck=decks.tie_break_cards(opts, number, tie_number),
                rule="R-ROUND-6",
            )


def _tie_tables(state: TournamentState, number: int, students: list[str]) -> list[list[str]]:
    """R-ROUND-6: the tied students (two or more): four or fewer at one table, in order;
    more at the tables of `seating.stage_sizes` (3 or 4; five sit 3 + 2), shuffled by the
    tournament's public name and date and the tie-break's number (decision 12 of
    docs/tournament.md; never by the secret deck seed, see `seating_key`)."""
    if len(students) <= seating.MAX_TABLE:
        return [list(students)]
    key = f"{_public_key(state)}/tie-break/{number}/seating"
    return seating.seat_fresh(students, key)


def close_round(decision: TournamentDecision, command: Command) -> None:
    """R-ROUND-7: a round closes when every table's result is final (signed)."""
    state = decision.state
    number = round_arg(command)
    round_ = state.round(number)
    if not round_.started:
        raise refuse("round_not_started", f"close_round: round {number} has not started")
    if round_.closed:
        raise refuse("round_closed", f"close_round: round {number} is closed")
    missing = [t.table for t in round_.tables if t.table not in state.results]
    if missing:
        failed = state.not_created  # the shell could not create these (TableCreationFailed)
        where = [f"{t} (not created: {failed[t]})" if t in failed else t for t in missing]
        raise refuse("tables_unsigned", f"close_round: no final result yet at {', '.join(where)}")
    decision.emit("RoundClosed", round=number, rule="R-ROUND-7")
    seat_tie_breaks(decision)


def advance(decision: TournamentDecision, command: Command) -> None:
    """R-ROUND-3/4/5: who goes on (or is champion), recomputed from the recorded results."""
    state = decision.state
    number = round_arg(command)
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
    decision.emit("Advanced", round=number, advancing=advancing, champions=champions, rule=rule)
    # A grade nobody registered for, or whose students all withdrew, is owed no champion.
    if not ranking.sections_owed_a_champion(decision.state):
        decision.emit(
            "TournamentFinished", champions=dict(decision.state.champions), rule="R-ROUND-5"
        )


def reopen_round(decision: TournamentDecision, command: Command) -> None:
    """R-ROUND-8: the director reopens an advanced round so a late ruling can count."""
    state = decision.state
    number = round_arg(command)
    if not state.round(number).advanced:
        raise refuse("not_advanced", f"reopen_round: round {number} is not advanced")
    if state.round(number + 1).started:  # (no round 5 is ever seated, let alone started)
        raise refuse("next_round_started", f"reopen_round: round {number + 1} has started")
    sections = list(ranking.advancing(state, number)[1])
    decision.emit("RoundReopened", round=number, sections=sections, rule="R-ROUND-8")


def _counts(value: object) -> bool:
    """A map of student id -> a whole number (points or flags)."""
    return isinstance(value, Mapping) and all(
        isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool)
        for k, v in value.items()
    )


def record_result(decision: TournamentDecision, command: Command) -> None:
    """A table's final result, as its own stream shows it (sent by the shell)."""
    state = decision.state
    name = command.args.get("table")
    if not isinstance(name, str) or (found := state.table(name)) is None:
        raise refuse("unknown_table", f"record_result: no table {name!r}")
    owner, table = found  # a tie-break's table: the round whose tie it breaks
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
        or not all(isinstance(student, str) for student in disqualified)  # set() hashes them
        or not set(disqualified) <= set(table.students)
        or not isinstance(initials, str)
        or not isinstance(seq, int)
        or isinstance(seq, bool)
    ):
        raise refuse("bad_result", f"record_result: scores for {', '.join(table.students)}")
    old = state.results.get(name)
    if old is not None and old.seq == seq:
        raise refuse("result_unchanged", f"record_result: {name} at seq {old.seq} is recorded")
    decision.emit(
        "TableResultRecorded",
        table=name,
        scores=dict(scores),
        flags=dict(flags),
        disqualified=list(disqualified),
        initials=initials,
        seq=seq,
        rule="R-ROUND-7",
    )
    seat_tie_breaks(decision)
