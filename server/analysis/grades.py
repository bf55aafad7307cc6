"""The analysis of a whole tournament: each grade's students over every table they sat at.

What it keeps: the tournament's stream says who is in which grade and which table belongs to
which round (`server.tournament`'s own fold); each table's stream is analysed on its own
(`table.analyse_table`); this module gathers, per student, the figures a coach compares
across a grade: points and cards won, how many cards they touched first and how fast, the
level they showed, the cards at or below it they missed, their wrong answers and flags by
cause, and a rating carried from table to table (`ratings.rate_table`, Plackett-Luce on the
tables' final scores, in round order).

Why the rating is recomputed here and not read from the log: a tournament table records its
result (the signed score card), not a rating; the rating is a pure function of those
recorded results in their recorded order, so anyone recomputes it from a bundle. Tables
without a result (not signed yet) do not move a rating.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import server.tournament as tournament
from server.analysis.log import log_events
from server.analysis.table import TableAnalysis, analyse_table
from server.games.base import Event
from server.ratings import Rating, rate_table
from server.tournament.results import table_result
from server.tournament.state import TournamentState


@dataclass(frozen=True)
class StudentSummary:
    """One student over the tournament (see the module doc); times in microseconds."""

    student: str
    name: str
    school: str
    grade: str
    tables: tuple[dict[str, Any], ...]  # {round, table, points, cards_won, flags}
    points: int
    cards_won: int
    touches: int
    first_touches: int
    median_touch_us: int | None  # of their first touches
    level: float | None
    missed: tuple[Any, ...]  # (table, card id) of cards at or below their level not won
    wrong_answers: int
    flags: Mapping[str, int]  # cause -> count (rescinded flags not counted)
    rating: Rating
    rating_history: tuple[dict[str, Any], ...]  # {round, table, mu, sigma}

    def as_data(self) -> dict[str, Any]:
        return {
            "student": self.student,
            "name": self.name,
            "school": self.school,
            "grade": self.grade,
            "tables": [dict(t) for t in self.tables],
            "points": self.points,
            "cards_won": self.cards_won,
            "touches": self.touches,
            "first_touches": self.first_touches,
            "median_touch_us": self.median_touch_us,
            "level": None if self.level is None else round(self.level, 2),
            "missed": [list(m) for m in self.missed],
            "wrong_answers": self.wrong_answers,
            "flags": dict(self.flags),
            "rating": self.rating.as_data(),
            "rating_history": [dict(h) for h in self.rating_history],
        }


@dataclass(frozen=True)
class TournamentAnalysis:
    """Every grade's summaries, and each table's own analysis by the table's name."""

    tournament: str
    name: str
    grades: tuple[tuple[str, tuple[StudentSummary, ...]], ...]
    tables: Mapping[str, TableAnalysis]

    def grade(self, grade: str) -> tuple[StudentSummary, ...]:
        for name, students in self.grades:
            if name == grade:
                return students
        raise KeyError(grade)

    def as_data(self, with_tables: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "tournament": self.tournament,
            "name": self.name,
            "grades": [
                {"grade": grade, "students": [s.as_data() for s in students]}
                for grade, students in self.grades
            ],
        }
        if with_tables:
            data["tables"] = {name: t.as_data() for name, t in sorted(self.tables.items())}
        return data


def replay_tournament(events: Iterable[Any]) -> TournamentState:
    """The tournament's state from its stream (the first event is `TableCreated`)."""
    log = log_events(events)
    if not log or log[0].type != "TableCreated":
        raise ValueError("a tournament stream starts with TableCreated")
    state = tournament.initial_state(log[0].data["options"])
    for event in log[1:]:
        state = tournament.evolve(state, Event(event.type, event.data))
    return state


def table_names(state: TournamentState) -> list[str]:
    """The name of every table the tournament started: its rounds' and its tie-breaks'."""
    names = [t.table for r in state.rounds.values() if r.started for t in r.tables]
    return names + [t.table for tie in state.tie_breaks for t in tie.tables]


def _table_order(state: TournamentState, names: Iterable[str]) -> list[tuple[int, str]]:
    """(round, table) for each known table, in the order their results count."""
    placed = []
    for name in names:
        found = state.table(name)
        if found is not None:
            placed.append((found[0], name))
    return sorted(placed)


def analyse_tournament(
    tournament_events: Iterable[Any], tables: Mapping[str, Iterable[Any]]
) -> TournamentAnalysis:
    """The analysis of a tournament from its stream and its tables' streams (by table name,
    as `server.audit.bundle.table_streams` names them)."""
    stream_events = list(tournament_events)
    state = replay_tournament(stream_events)
    stream = str(getattr(stream_events[0], "stream", "")) if stream_events else ""
    table_events = {name: list(events) for name, events in tables.items()}
    analysed = {name: analyse_table(events) for name, events in table_events.items()}
    ratings: dict[str, Rating] = {}
    history: dict[str, list[dict[str, Any]]] = {}
    for number, name in _table_order(state, analysed):
        result = table_result(table_events[name])
        if result is None:
            continue
        seats = [seat for seat, _ in analysed[name].seats if seat in result["scores"]]
        before = [ratings.get(seat, Rating()) for seat in seats]
        after = rate_table(before, [result["scores"][seat] for seat in seats])
        for seat, rating in zip(seats, after, strict=True):
            ratings[seat] = rating
            history.setdefault(seat, []).append(
                {"round": number, "table": name, "mu": rating.mu, "sigma": rating.sigma}
            )
    grades = []
    for grade in state.options.grades:
        students = [s for s in state.students.values() if s.grade == grade]
        summaries = tuple(
            _summary(state, analysed, student.student_id, ratings, history) for student in students
        )
        grades.append((grade, summaries))
    return TournamentAnalysis(
        tournament=stream.removeprefix("tournament/"),
        name=state.options.name,
        grades=tuple(grades),
        tables=analysed,
    )


def _summary(
    state: TournamentState,
    analysed: Mapping[str, TableAnalysis],
    student_id: str,
    ratings: Mapping[str, Rating],
    history: Mapping[str, list[dict[str, Any]]],
) -> StudentSummary:
    student = state.students[student_id]
    rows = []
    points = cards_won = touches = firsts = wrong = 0
    first_times: list[int] = []
    levels: list[float] = []
    missed: list[tuple[str, Any]] = []
    flags: dict[str, int] = {}
    for number, name in _table_order(state, analysed):
        table = analysed[name]
        if student_id not in {seat for seat, _ in table.seats}:
            continue
        report = table.student(student_id)
        rows.append(
            {
                "round": number,
                "table": name,
                "points": report.points,
                "cards_won": len(report.cards_won),
                "flags": sum(1 for f in report.flags if not f["rescinded"]),
            }
        )
        points += report.points
        cards_won += len(report.cards_won)
        touches += len(report.touches)
        for touch in report.touches:
            if touch["first"]:
                firsts += 1
                first_times.append(touch["after_us"])
        if report.level is not None:
            levels.append(report.level)
        missed.extend((name, card["card_id"]) for card in report.missed)
        wrong += len(report.wrong_answers)
        for flag in report.flags:
            if not flag["rescinded"]:
                flags[flag["cause"]] = flags.get(flag["cause"], 0) + 1
    return StudentSummary(
        student=student_id,
        name=student.name,
        school=student.school,
        grade=student.grade,
        tables=tuple(rows),
        points=points,
        cards_won=cards_won,
        touches=touches,
        first_touches=firsts,
        median_touch_us=int(statistics.median(first_times)) if first_times else None,
        level=max(levels) if levels else None,
        missed=tuple(missed),
        wrong_answers=wrong,
        flags=flags,
        rating=ratings.get(student_id, Rating()),
        rating_history=tuple(history.get(student_id, ())),
    )
