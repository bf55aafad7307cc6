"""The tournament as a process manager, pure (server/tournament/process.py): which tables a
state wants, how each is made, and which command a table's events call for. The shell that
runs it (server/runtime/process_actor.py) is tested with a hub in test_tournament_actor.py;
here every answer comes from a tournament played through its own `decide`, with no Twisted."""

from __future__ import annotations

from tournament_support import Tourney, ended_stream

from server.games.base import SERVER_ACTOR, Actor
from server.tournament import MAX_REASON
from server.tournament import process as p
from server.tournament.results import SIGNED

TID = "tournament/spring"


def seated_and_started() -> Tourney:
    tourney = Tourney()
    tourney.register_many(7)
    tourney.do("close_registration")
    tourney.do("seat_round", round=1)
    return tourney


def last_events(stream) -> dict:
    return {event.type: event for event in stream}


def test_no_table_is_wanted_before_a_round_starts():
    tourney = seated_and_started()
    assert tourney.state.round(1).tables  # seated, not started
    assert p.wanted(tourney.state) == {}


def test_a_started_round_wants_each_of_its_tables_and_listens_until_it_advances():
    tourney = seated_and_started()
    tourney.do("start_round", round=1)
    names = [table.table for table in tourney.state.round(1).tables]
    assert p.wanted(tourney.state) == {name: True for name in names}
    ranks = {student: rank for rank, student in enumerate(sorted(tourney.state.students))}
    for table in tourney.state.round(1).tables:
        tourney.table_ends(table.table, {s: ranks[s] % 7 for s in table.students})
    tourney.do("close_round", round=1)
    tourney.play_round(2, lambda student: ranks[student])  # no two alike: no tie-break
    tourney.do("advance", round=2)
    wanted = p.wanted(tourney.state)
    second = [table.table for table in tourney.state.round(2).tables]
    assert {name: wanted[name] for name in second} == {name: False for name in second}
    assert all(p.settled(tourney.state, name) for name in second)
    assert all(wanted[name] for name in names)  # round 1 advances nobody (R-ROUND-3)


def test_a_new_table_is_a_started_challenge_table_with_its_rounds_options():
    tourney = seated_and_started()
    tourney.do("start_round", round=1)
    first = tourney.state.round(1).tables[0]
    table = p.new_table(tourney.state, TID, first.table)
    assert table.game == "challenge"
    assert [seat["name"] for seat in table.options["seats"]]  # the seated students
    assert len(table.options["seats"]) == len(first.students)
    assert table.start.name == "start_round" and table.start.actor == Actor("director", TID)
    assert p.table_of(TID, first.table) == f"spring.{first.table}"


def test_a_signed_score_card_calls_for_record_result_once():
    tourney = seated_and_started()
    tourney.do("start_round", round=1)
    first = tourney.state.round(1).tables[0]
    stream = ended_stream({s: 2 for s in first.students}, seq=9)
    command = p.result_command(tourney.state, first.table, last_events(stream))
    assert command is not None and command.name == "record_result"
    assert command.actor == SERVER_ACTOR and command.args["seq"] == 9
    assert command.args["table"] == first.table
    tourney.do("record_result", SERVER_ACTOR, **command.args)
    assert p.result_command(tourney.state, first.table, last_events(stream)) is None
    resigned = ended_stream({s: 3 for s in first.students}, seq=12)  # a ruling, signed again
    again = p.result_command(tourney.state, first.table, last_events(resigned))
    assert again is not None and again.args["seq"] == 12


def test_a_table_without_a_signed_card_calls_for_nothing():
    tourney = seated_and_started()
    tourney.do("start_round", round=1)
    name = tourney.state.round(1).tables[0].table
    unsigned = [event for event in ended_stream({"x": 1}) if event.type != SIGNED]
    assert p.result_command(tourney.state, name, last_events(unsigned)) is None


def test_a_table_not_created_is_reported_once_per_reason_in_at_most_max_reason_characters():
    tourney = seated_and_started()
    tourney.do("start_round", round=1)
    name = tourney.state.round(1).tables[0].table
    command = p.failure_command(tourney.state, name, "x" * (MAX_REASON + 50))
    assert command is not None and command.name == "report_table_failure"
    assert len(command.args["reason"]) == MAX_REASON
    tourney.do("report_table_failure", SERVER_ACTOR, **command.args)
    assert p.failure_command(tourney.state, name, "x" * (MAX_REASON + 50)) is None
    assert p.failure_command(tourney.state, name, "the store failed") is not None


def test_only_the_tournaments_own_table_creation_counts_as_its():
    created = {"game": "challenge", "options": {}}
    server = SERVER_ACTOR.as_dict()
    assert p.created_by(TID, TID, server, created)
    assert not p.created_by(TID, "", server, created)  # made by hand
    assert not p.created_by(TID, TID, Actor("director", "d").as_dict(), created)
    assert not p.created_by(TID, TID, server, {**created, "game": "pocket"})


def test_ids_the_tournament_reserves_and_allows():
    assert p.reserving("spring.r1.s1.t01") == TID
    assert p.reserving("spring.tb2.t1") == TID
    assert p.reserving("spring-final") is None
    assert p.id_refusal(TID) is None
    assert p.id_refusal("tournament/" + "x" * 41) == "a tournament id has at most 40 characters"


def test_an_unstarted_table_is_told_by_its_events():
    assert p.needs_start({"TableCreated": object()})
    assert not p.needs_start({"TableCreated": object(), "RoundStarted": object()})
