"""A tournament's analysis per grade (server/analysis/grades.py, issue 31): the tournament's
stream says who is in which grade and which table is which round's; each student's summary
gathers their tables in round order, with a rating carried from table to table by the
tables' recorded results."""

from __future__ import annotations

from tournament_support import Recorded, Tourney, tournament_options

from server.analysis.grades import analyse_tournament, table_names
from server.games.base import Event


def played() -> tuple[Tourney, dict[str, list[Recorded]]]:
    """Two grades of four, round 1 played: in each table the students score 3, 2, 1, 0 in
    registration order."""
    tourney = Tourney(tournament_options(grades=["4th", "5th"]))
    tourney.register_many(4)
    rank = {s: i for grade in ("4th", "5th") for i, s in enumerate(tourney.students_of(grade))}
    tourney.play_round(1, lambda student: 3 - rank[student])
    tables = {}
    for table in tourney.state.round(1).tables:
        seats = [{"seat": s, "name": tourney.state.students[s].name} for s in table.students]
        created = Recorded("TableCreated", {"game": "challenge", "options": {"seats": seats}}, 1)
        tables[table.table] = [created, *tourney.streams[table.table]]
    return tourney, tables


def tournament_log(tourney: Tourney) -> list[Event]:
    created = Event("TableCreated", {"game": "tournament", "options": tourney.raw_options})
    return [created, *tourney.events]


def test_each_grade_lists_its_students_with_their_tables_in_round_order():
    tourney, tables = played()
    analysis = analyse_tournament(tournament_log(tourney), tables)
    assert [grade for grade, _ in analysis.grades] == ["4th", "5th"]
    fourth = analysis.grade("4th")
    assert [s.student for s in fourth] == tourney.students_of("4th")
    for summary in fourth:
        assert [row["round"] for row in summary.tables] == [1]
        assert summary.grade == "4th" and summary.school.startswith("School")
    assert set(analysis.tables) == set(tables) == set(table_names(tourney.state))


def test_the_rating_follows_the_recorded_scores_table_by_table():
    tourney, tables = played()
    fourth = analyse_tournament(tournament_log(tourney), tables).grade("4th")
    ratings = [s.rating.mu for s in fourth]  # scored 3, 2, 1, 0
    assert ratings == sorted(ratings, reverse=True) and ratings[0] > 1500 > ratings[-1]
    for summary in fourth:
        (step,) = summary.rating_history
        assert step["round"] == 1 and step["mu"] == summary.rating.mu


def test_a_table_without_a_signed_result_moves_no_rating():
    tourney, tables = played()
    unsigned = {name: events[:-1] for name, events in tables.items()}  # no ScoreCardSigned
    for summary in analyse_tournament(tournament_log(tourney), unsigned).grade("5th"):
        assert summary.rating_history == () and summary.rating.mu == 1500


def test_the_analysis_is_the_same_from_plain_events_and_recorded_ones():
    tourney, tables = played()
    log = tournament_log(tourney)
    again = [Recorded(e.type, dict(e.data), i) for i, e in enumerate(log, 1)]
    first = analyse_tournament(log, tables).as_data(with_tables=True)
    assert analyse_tournament(again, tables).as_data(with_tables=True) == first
