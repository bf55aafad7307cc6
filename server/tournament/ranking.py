"""Who advances, who is champion, and which ties must be played off (R-ROUND-3..6, R-FLAG-4).

What this module keeps (pure functions of the state, so advancement always recomputes from
the logs: a protest upheld before `advance` changes who advances):
- R-ROUND-3: after round 2, rounds 1 + 2 points per student; the `advance_count` (16) highest
  of each section advance; fewer students than that: all advance.
- R-ROUND-4: round 3 is a face-off: only its points count; the highest at each semi-final
  table advances to the final.
- R-ROUND-5: the highest in the final (round 4) is the section's champion. A section with a
  single semi-final table has its champion decided there (there is nobody to meet in a final).
- R-FLAG-4: disqualified students keep their points (a table's result lists them, with their
  points), so they rank like everyone else.
- R-ROUND-6: a tie that decides a place (the last advancing place, a semi-final table, the
  final) is played off by the tied students at a timed tie-break; still tied, they play again
  (a new tie-break of exactly the students still tied). Ties that decide nothing are shown as
  ties (`rank_with_ties`). A tie-break of more than four sits at several tables, and those
  are compared by each student's rank at their own table, never by points
  (`tie_break_standing`, decision 12 of docs/tournament.md): the winners of the tables are
  level, so when places remain for some of them only, they play off again.
- After registration closed, withdrawals may leave any number in a stage (decision 11):
  `stage_students` says who is left; a section whose qualifying round sat a table of two
  advances whole (its points cannot be compared with a larger table's); a section left with
  one student at a face-off stage has that student as champion by walkover, and one left
  with nobody has no champion and holds nobody up (`sections_owed_a_champion`).
- Withdrawn students take no place: they are left out of every group still to be decided
  (the qualifying, a face-off table, a tie), so the next student takes the place.

How: `take(group, places, points, ...)` gives the students of `group` who take `places`
places by `points`; when the cut falls inside a tie it looks for the tie-break of exactly the
tied students (the n-th one for the n-th time that same group is tied) and goes on with its
points; without one (or before it is finished) the tie is *pending*.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from server.tournament import seating
from server.tournament.state import TieBreak, TournamentState

QUALIFYING, SEMI, FINAL = 2, 3, 4


@dataclass(frozen=True)
class Pending:
    """A tie that decides places and is not played off yet."""

    round: int
    section: str
    students: tuple[str, ...]
    places: int
    seated: bool  # a tie-break for it is seated and not finished


@dataclass(frozen=True)
class Outcome:
    """Who of a group took the places, and the tie still pending if any."""

    winners: frozenset[str]
    pending: Pending | None
    tie_breaks: tuple[int, ...]  # the tie-breaks that decided it


def round_points(state: TournamentState, number: int) -> dict[str, int]:
    """Each student's points in one round, from the tables' recorded results."""
    points: dict[str, int] = {}
    for table in state.round(number).tables:
        result = state.results.get(table.table)
        if result is not None:
            for student, score in result.scores.items():
                points[student] = points.get(student, 0) + score
    return points


def tie_break_points(state: TournamentState, tie: TieBreak) -> dict[str, int]:
    """Each tied student's points at a finished tie-break (`tie_break_done`: every table of it
    has its result, which scores exactly the table's students, each seated at one table)."""
    return {s: p for table in tie.tables for s, p in state.results[table.table].scores.items()}


def tie_break_ranks(state: TournamentState, tie: TieBreak) -> dict[str, int]:
    """Each tied student's rank at their own table of a finished tie-break (1 = the most
    points there; equal points share a rank)."""
    ranks: dict[str, int] = {}
    for table in tie.tables:
        ranks.update(rank_with_ties(state.results[table.table].scores))
    return ranks


def tie_break_standing(state: TournamentState, tie: TieBreak) -> dict[str, int]:
    """What orders the students of a finished tie-break: the higher, the better (`take`).

    Decision 12 (R-ROUND-6): the rank at one's own table, not the points. With one table it
    orders them as the points do. With several, points are not comparable: a smaller table
    plays the same timed round with fewer hands on the cards (in one simulated tie-break the
    two students of a table of two scored 17 and 8, the four of the other 4, 1, 2, 1), so
    the winners of the tables are level, the seconds are level, and so on; level students
    for fewer places play off again, at one table when they are four or fewer."""
    return {student: -rank for student, rank in tie_break_ranks(state, tie).items()}


def take(
    state: TournamentState,
    round_number: int,
    section: str,
    group: Sequence[str],
    places: int,
    points: Mapping[str, int],
    used: dict[frozenset[str], int] | None = None,
) -> Outcome:
    """The students of `group` who take `places` places by `points` (see the module doc).

    `points` scores every student of `group`: the qualifying points every student in play, a
    closed round's points everyone it seated, a tie-break's points everyone it tied.
    """
    used = {} if used is None else used
    places = min(places, len(group))  # all of them take part when places are as many or more
    if places <= 0:
        return Outcome(frozenset(), None, ())
    ranked = sorted(group, key=lambda s: -points[s])
    cut = points[ranked[places - 1]]
    above = frozenset(s for s in group if points[s] > cut)
    tied = tuple(sorted(s for s in group if points[s] == cut))
    remaining = places - len(above)
    if len(tied) == remaining:
        return Outcome(above | frozenset(tied), None, ())
    key = frozenset(tied)
    nth = used.get(key, 0)
    candidates = [
        tie
        for tie in state.tie_breaks
        if (tie.round, tie.section, frozenset(tie.students)) == (round_number, section, key)
    ]
    if nth >= len(candidates):
        return Outcome(above, Pending(round_number, section, tied, remaining, False), ())
    tie = candidates[nth]
    if not state.tie_break_done(tie):
        return Outcome(above, Pending(round_number, section, tied, remaining, True), ())
    used[key] = nth + 1
    standing = tie_break_standing(state, tie)
    inner = take(state, round_number, section, tied, remaining, standing, used)
    return Outcome(above | inner.winners, inner.pending, (tie.number,) + inner.tie_breaks)


def qualifying_points(state: TournamentState) -> dict[str, int]:
    """R-ROUND-3: rounds 1 + 2 points per student in play, once round 2 is closed. A student
    in play sat both rounds (registration closed before round 1 was seated, a withdrawal is
    never undone), unless a section was left with them alone: no table, no points."""
    first, second = round_points(state, 1), round_points(state, 2)
    return {s: first.get(s, 0) + second.get(s, 0) for s in state.active()}


def stage_students(state: TournamentState, number: int, section: str) -> list[str]:
    """Who of `section` is to be seated in round `number`, withdrawn students left out:
    everyone in rounds 1-2; in round 3 who advanced from round 2; in round 4 the semi-final
    winners of a section whose semi-final had two tables or more (else the semi-final decided
    its champion, R-ROUND-5)."""
    if number <= QUALIFYING:
        return state.active(section)
    if number == FINAL and decided_at_semi(state, section):
        return []
    advanced = state.advanced.get(number - 1, {}).get(section, ())
    return [s for s in advanced if not state.students[s].withdrawn]


def decided_at_semi(state: TournamentState, section: str) -> bool:
    """R-ROUND-5: a section with one semi-final table (or none: one student or nobody left)
    has its champion decided at round 3; it has no final."""
    return sum(1 for t in state.round(SEMI).tables if t.section == section) <= 1


def _advances_whole(state: TournamentState, section: str) -> bool:
    """Decision 11: a qualifying round that sat a table of two (five left sit 3 + 2, two at
    one table) makes the section's points incomparable (a table of two plays the same cards
    with half the hands of a table of four), so nobody of it is eliminated on them."""
    return any(
        t.section == section and len(t.students) < seating.MIN_TABLE
        for number in (1, QUALIFYING)
        for t in state.round(number).tables
    )


def stage_outcomes(state: TournamentState, round_number: int) -> list[tuple[str, Outcome, bool]]:
    """Each decision the close of `round_number` makes: (section, outcome, whether it decides
    the champion).

    Round 2: one per section (the advancing places). Rounds 3 and 4: one per table of the
    round (the champion at a section's single semi-final table and at the final), and one
    per section of the stage that sits at no table: its one student left wins by walkover,
    or nobody is left (no winner, no champion).
    """
    outcomes: list[tuple[str, Outcome, bool]] = []
    if round_number == QUALIFYING:
        points = qualifying_points(state)
        for section in state.sections():
            group = state.active(section)
            places = len(group) if _advances_whole(state, section) else state.options.advance_count
            outcome = take(state, QUALIFYING, section, group, places, points)
            outcomes.append((section, outcome, False))
    elif round_number in (SEMI, FINAL):
        points = round_points(state, round_number)
        for section in _stage_sections(state, round_number):
            tables = [t for t in state.round(round_number).tables if t.section == section]
            champion = round_number == FINAL or len(tables) <= 1
            for table in tables:
                group = [s for s in table.students if not state.students[s].withdrawn]
                outcome = take(state, round_number, table.section, group, 1, points)
                outcomes.append((section, outcome, champion))
            if not tables:
                left = stage_students(state, round_number, section)
                # Seated with one student or nobody (a seating that no longer matches who is
                # left cannot start: `rounds.start_round`), and withdrawals only remove.
                walkover = frozenset(left) if len(left) == 1 else frozenset()
                outcomes.append((section, Outcome(walkover, None, ()), champion))
    return outcomes


def _stage_sections(state: TournamentState, round_number: int) -> list[str]:
    """The sections that play round 3 (someone advanced from round 2) or round 4 (someone
    advanced from a semi-final of two tables or more), in the order of the grades."""
    previous = state.advanced.get(round_number - 1, {})
    return [
        section
        for section in state.sections()
        if previous.get(section) and not (round_number == FINAL and decided_at_semi(state, section))
    ]


def sections_owed_a_champion(state: TournamentState) -> set[str]:
    """The sections whose champion is still to be played for: someone advanced from round 2,
    no champion yet, and neither the semi-final (at one table or none) nor the final has
    decided it; a stage that left nobody of a section owes it nothing."""
    owed = set()
    for section in state.sections():
        if section in state.champions or not state.advanced.get(QUALIFYING, {}).get(section):
            continue
        if SEMI in state.advanced:
            if decided_at_semi(state, section) or not state.advanced[SEMI].get(section):
                continue
            if FINAL in state.advanced:
                continue
        owed.add(section)
    return owed


def pending_ties(state: TournamentState, round_number: int) -> list[Pending]:
    """The ties of a closed round that still decide a place (seated or not)."""
    return [o.pending for _, o, _ in stage_outcomes(state, round_number) if o.pending]


def advancing(
    state: TournamentState, round_number: int
) -> tuple[dict[str, list[str]], dict[str, str]]:
    """({section: advancing students}, {section: champion}) once no tie is pending."""
    advancing_: dict[str, list[str]] = {}
    champions: dict[str, str] = {}
    for section, outcome, champion in stage_outcomes(state, round_number):
        winners = sorted(outcome.winners, key=_registration_order(state))
        if champion and winners:  # (none: everyone of the stage withdrew)
            champions[section] = winners[0]
        advancing_.setdefault(section, []).extend(winners)
    return advancing_, champions


def _registration_order(state: TournamentState) -> Callable[[str], int]:
    order = {student: i for i, student in enumerate(state.students)}
    return lambda student: order.get(student, len(order))


def rank_with_ties(points: Mapping[str, int]) -> dict[str, int]:
    """Standard competition ranks ("1, 2, 2, 4"): equal points share a rank (a tie shown)."""
    ranks: dict[str, int] = {}
    ordered = sorted(points.items(), key=lambda item: -item[1])
    for index, (student, value) in enumerate(ordered):
        if index and value == ordered[index - 1][1]:
            ranks[student] = ranks[ordered[index - 1][0]]
        else:
            ranks[student] = index + 1
    return ranks
