"""A tournament whose tables cannot be created says so to the director (issue 33, item 3).

Given a tournament recorded with `table_options {pattern_seconds: -1}` (as a server before
the creation check took it: the hub now refuses it at `create_table`, see
test_tournament_creation_checks.py), when its round starts, the shell cannot create its
tables: the tournament's own stream records `TableCreationFailed` for each (the director
follows that stream), its view lists them, `close_round` names them and why, and nothing is
logged as an error (trial fails a test that logs one): never a silent traceback.
"""

from __future__ import annotations

from shell_testcase import ShellTestCase
from test_tournament_actor import DIRECTOR, TID, command, result_of
from tournament_support import csv_of, tournament_options
from twisted.internet.task import Clock

import server.tournament as tournament
from server.eventlog.backends import open_store
from server.eventlog.envelope import NewEvent
from server.games.base import SERVER_ACTOR, Command, RuleViolation
from server.runtime.hub import Hub
from server.runtime.table_actor import TABLE_CREATED

T0 = 1_700_000_000.0


class TableFailureTests(ShellTestCase):
    def setUp(self):
        super().setUp()
        self.clock = Clock()
        self.clock.advance(T0)
        self.store = open_store("memory:", clock=self.clock.seconds)

    def recorded_tournament(self, table_options):
        options = tournament_options(grades=["4th"], table_options=table_options)
        created = NewEvent(TABLE_CREATED, {"game": "tournament", "options": options})
        result_of(self.store.append(TID, 0, [created]))
        hub = Hub(self.store, self.clock)
        actor = result_of(hub.get(TID))
        students = [(f"S{i}", "Hill", "4th") for i in range(7)]
        command(actor, "import_students", csv=csv_of(students))
        command(actor, "close_registration")
        command(actor, "seat_round", round=1)
        return hub, actor

    def test_tables_that_cannot_be_created_are_reported_in_the_tournament_stream(self):
        hub, actor = self.recorded_tournament({"pattern_seconds": -1})
        command(actor, "start_round", round=1)
        names = [t.table for t in actor.state.round(1).tables]
        failed = [e for e in actor.events if e.type == "TableCreationFailed"]
        assert sorted(e.data["table"] for e in failed) == sorted(names)
        why = "'pattern_seconds': seconds in (0, 3600], not -1"
        assert all(why in e.data["reason"] for e in failed)
        assert not any(name.startswith("spring.") for name in hub.actors)
        view = actor.view(DIRECTOR)
        assert sorted(view["tables_not_created"]) == sorted(names)
        refused = actor.submit(Command("close_round", {"round": 1}, DIRECTOR), 0)
        error = []
        refused.addErrback(lambda f: error.append(f.trap(RuleViolation) and f.value))
        (violation,) = error
        assert violation.code == "tables_unsigned"
        assert f"{names[0]} (not created: option 'pattern_seconds'" in violation.message

    def test_a_restart_tries_again_and_reports_a_failure_once(self):
        hub, actor = self.recorded_tournament({"pattern_seconds": -1})
        command(actor, "start_round", round=1)
        count = len([e for e in actor.events if e.type == "TableCreationFailed"])
        actor.close()
        again = Hub(self.store, self.clock)
        result_of(again.load_all())
        reloaded = again.actors[TID]
        assert [e.type for e in reloaded.events].count("TableCreationFailed") == count == 2


def test_the_report_names_a_table_of_the_tournament_and_a_reason():
    options = tournament_options(grades=["4th"])
    state = tournament.initial_state(options)
    for args, code in (
        ({"table": "r1.s1.t01", "reason": "x"}, "unknown_table"),  # not seated: no such table
        ({"table": 7, "reason": "x"}, "unknown_table"),
    ):
        try:
            tournament.decide(state, Command("report_table_failure", args, SERVER_ACTOR), 0)
        except RuleViolation as refused:
            assert refused.code == code
        else:
            raise AssertionError(args)


def test_only_the_server_reports_a_failure():
    state = tournament.initial_state(tournament_options(grades=["4th"]))
    try:
        tournament.decide(state, Command("report_table_failure", {}, DIRECTOR), 0)
    except RuleViolation as refused:
        assert refused.code == "not_allowed"
    else:
        raise AssertionError("a director may not report")
