"""Score cards and standings: projections of the tournament's recorded state (R-ROUND-7).

What this module keeps:
- A student's score card: one line per table they sat at (round, table, points, flags,
  disqualified, the proctor's initials from the table's signature), as the seed says "Score
  card travels with him/her throughout the tournament".
- Standings per section: the qualifying table (rounds 1 + 2, R-ROUND-3) with ranks where
  equal totals share a rank (a tie that decides nothing is shown as a tie), who advanced and
  why (`top`, `tie_break N`, `all advance`); the semi-final tables (R-ROUND-4) and the final
  (R-ROUND-5) with the winner of each; the tie-breaks played (R-ROUND-6), with each
  student's points and rank at their own table (what orders them, decision 12).
- `view(state, viewer)`: what a `join` of `tournament/<id>` shows; everyone sees standings
  (they are public), only officials see the round's cards.

Every figure here is re-derived by `t24 audit verify` from the same events.
"""

from __future__ import annotations

from typing import Any

from server.games.base import DEFAULT_LANG, Actor
from server.tournament import ranking
from server.tournament.state import SeatedTable, TournamentState

FULL_VIEW_ROLES = frozenset({"director", "auditor", "server"})


def score_cards(state: TournamentState) -> dict[str, list[dict[str, Any]]]:
    """Student id -> their score card lines, in round order then tie-breaks."""
    cards: dict[str, list[dict[str, Any]]] = {s: [] for s in state.students}
    tables: list[tuple[int, SeatedTable, int | None]] = [
        (n, t, None) for n in sorted(state.rounds) for t in state.round(n).tables
    ]
    tables += [(tie.round, t, tie.number) for tie in state.tie_breaks for t in tie.tables]
    for number, table, tie in tables:
        result = state.results.get(table.table)
        for student in table.students:
            cards.setdefault(student, []).append(
                {
                    "round": number,
                    "tie_break": tie,
                    "table": table.table,
                    "points": result.scores[student] if result else None,  # all its students
                    "flags": result.flags.get(student, 0) if result else None,
                    "disqualified": bool(result and student in result.disqualified),
                    "initials": result.initials if result else None,
                    "proctor": state.proctors.get(table.table, {}).get("name"),
                }
            )
    return cards


def _why(state: TournamentState, round_number: int, section: str, student: str) -> str | None:
    advanced = state.advanced.get(round_number)
    if advanced is None:
        return None
    if student not in advanced.get(section, ()):
        return "eliminated"
    won = [
        tie.number
        for tie in state.tie_breaks
        if tie.round == round_number and tie.section == section and student in tie.students
    ]
    return f"tie_break {won[-1]}" if won else "top"


def _qualifying(state: TournamentState, section: str) -> list[dict[str, Any]]:
    first, second = ranking.round_points(state, 1), ranking.round_points(state, 2)
    students = [s for s in state.students.values() if state.section_of(s.grade) == section]
    totals = {
        s.student_id: first.get(s.student_id, 0) + second.get(s.student_id, 0) for s in students
    }
    ranks = ranking.rank_with_ties(
        {s: p for s, p in totals.items() if not state.students[s].withdrawn}
    )
    rows = []
    for student in students:
        sid = student.student_id
        rows.append(
            {
                "student": sid,
                "name": student.name,
                "school": student.school,
                "grade": student.grade,
                "r1": first.get(sid),
                "r2": second.get(sid),
                "total": totals[sid],
                "rank": ranks.get(sid),
                "withdrawn": student.withdrawn,
                "advanced": _why(state, 2, section, sid),
            }
        )
    # The withdrawn (no rank) last; two of them tie on both first keys, so their ranks (None)
    # are never compared and they go by id.
    rows.sort(key=lambda row: (row["rank"] is None, row["rank"], row["student"]))
    return rows


def _face_off(state: TournamentState, number: int, section: str) -> list[dict[str, Any]]:
    out = []
    for table in state.round(number).tables:
        if table.section != section:
            continue
        result = state.results.get(table.table)
        # a result scores exactly its table's students; without one, nothing is shown yet
        scores = dict(result.scores) if result else {}
        ranks = ranking.rank_with_ties(scores)
        if result:
            ordered = sorted(table.students, key=lambda s: (ranks[s], s))
        else:
            ordered = sorted(table.students)
        out.append(
            {
                "table": table.table,
                "rows": [
                    {
                        "student": s,
                        "name": state.students[s].name,
                        "points": scores.get(s),
                        "rank": ranks.get(s),
                        "advanced": _why(state, number, section, s),
                    }
                    for s in ordered
                ],
            }
        )
    return out


def _tie_breaks(state: TournamentState, section: str) -> list[dict[str, Any]]:
    out = []
    for tie in state.tie_breaks:
        if tie.section != section:
            continue
        done = state.tie_break_done(tie)
        out.append(
            {
                "number": tie.number,
                "round": tie.round,
                "places": tie.places,
                "tables": [t.table for t in tie.tables],
                "students": list(tie.students),
                "points": ranking.tie_break_points(state, tie) if done else None,
                # what orders them (decision 12): the rank at one's own table
                "ranks": ranking.tie_break_ranks(state, tie) if done else None,
            }
        )
    return out


def standings(state: TournamentState) -> dict[str, dict[str, Any]]:
    """Section -> its standings (see the module doc)."""
    return {
        section: {
            "qualifying": _qualifying(state, section),
            "semi_final": _face_off(state, 3, section),
            "final": _face_off(state, 4, section),
            "tie_breaks": _tie_breaks(state, section),
            "champion": state.champions.get(section),
        }
        for section in state.sections()
    }


def _round_view(state: TournamentState, number: int) -> dict[str, Any]:
    round_ = state.round(number)
    return {
        "round": number,
        "started": round_.started,
        "closed": round_.closed,
        "advanced": round_.advanced,
        "tables": [
            {
                **table.as_data(),
                "result": state.results[table.table].as_data()
                if table.table in state.results
                else None,
                "proctor": state.proctors.get(table.table),
            }
            for table in round_.tables
        ],
    }


def view(state: TournamentState, viewer: Actor) -> dict[str, Any]:
    """The tournament as `viewer` may see it: everything but the round's cards, which only
    the officials see."""
    options = state.options
    snapshot: dict[str, Any] = {
        "game": "tournament",
        "name": options.name,
        "date": options.date,
        "rules": options.rules,
        **({"lang": options.lang} if options.lang != DEFAULT_LANG else {}),
        "grades": list(options.grades),
        "sections": list(state.sections()),
        "merges": dict(state.merges),
        "registration_open": state.registration_open,
        "students": [s.as_data() for s in state.students.values()],
        "rounds": [_round_view(state, n) for n in (1, 2, 3, 4)],
        "tie_breaks": [
            {
                "number": t.number,
                "round": t.round,
                "section": t.section,
                "students": list(t.students),
                "places": t.places,
                "tables": [x.as_data() for x in t.tables],
            }
            for t in state.tie_breaks
        ],
        "standings": standings(state),
        "champions": dict(state.champions),
        "finished": state.finished,
        "tables_not_created": dict(state.not_created),  # table -> why (TableCreationFailed)
    }
    if viewer.role in FULL_VIEW_ROLES:
        snapshot["deck_seed"] = options.deck_seed
    return snapshot
