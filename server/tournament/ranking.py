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
  final) is played off by the tied students at a timed tie-break; the tie-break's points order
  them; still tied, they play again (a new tie-break of exactly the students still tied).
  Ties that decide nothing are shown as ties (`rank_with_ties`).

How: `take(group, places, points, ...)` gives the students of `group` who take `places`
places by `points`; when the cut falls inside a tie it looks for the tie-break of exactly the
tied students (the n-th one for the n-th time that same group is tied) and goes on with its
points; without one (or before it is finished) the tie is *pending*.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

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
    inner = take(state, round_number, section, tied, remaining, tie_break_points(state, tie), used)
    return Outcome(above | inner.winners, inner.pending, (tie.number,) + inner.tie_breaks)


def qualifying_points(state: TournamentState) -> dict[str, int]:
    """R-ROUND-3: rounds 1 + 2 points per student in play, once round 2 is closed. Every
    student in play sat both rounds: registration closed before round 1 was seated, round 1
    and round 2 each seated every student in play then, and a withdrawal is never undone."""
    first, second = round_points(state, 1), round_points(state, 2)
    return {s: first[s] + second[s] for s in state.active()}


def stage_outcomes(state: TournamentState, round_number: int) -> list[tuple[str, Outcome, bool]]:
    """Each decision the close of `round_number` makes: (section, outcome, whether it decides
    the champion).

    Round 2: one per section (the advancing places). Round 3: one per semi-final table (the
    champion at a section's single semi-final table). Round 4: one per final table (the
    champion).
    """
    outcomes = []
    if round_number == QUALIFYING:
        points = qualifying_points(state)
        for section in state.sections():
            group = state.active(section)
            outcome = take(state, QUALIFYING, section, group, state.options.advance_count, points)
            outcomes.append((section, outcome, False))
    elif round_number in (SEMI, FINAL):
        points = round_points(state, round_number)
        for table in state.round(round_number).tables:
            outcome = take(state, round_number, table.section, table.students, 1, points)
            single = round_number == SEMI and _single_semi(state, table.section)
            outcomes.append((table.section, outcome, round_number == FINAL or single))
    return outcomes


def _single_semi(state: TournamentState, section: str) -> bool:
    return sum(1 for t in state.round(SEMI).tables if t.section == section) == 1


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
        if champion:
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
