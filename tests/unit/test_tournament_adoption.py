"""Only a tournament creates its tables, and it adopts only the tables it created (issue 33).

The attack run found: a director created a challenge table under a round's table id
(`<id>.r1.s1.t01`) before the round started; the tournament took it for its own when the
round started, and the result the director forged and signed there closed the round. Now the
hub refuses such an id to everyone but the tournament (`reserved_table`), and a table that
exists under it anyway (a store from before) is not adopted: never started by the
tournament, never listened to, its result never recorded.
"""

from __future__ import annotations

import pytest
from shell_testcase import ShellTestCase
from test_net import make_session, say, token
from test_tournament_actor import DIRECTOR, PROCTOR, TID, command, make_clock, result_of
from tournament_support import csv_of, tournament_options
from twisted.logger import globalLogPublisher

from server.eventlog.backends import open_store
from server.eventlog.envelope import NewEvent
from server.games.base import SERVER_ACTOR, RuleViolation
from server.runtime.hub import Hub, ReservedTable

SEATS = [{"seat": f"p{i}", "name": f"S{i}"} for i in range(1, 5)]
DECK = [{"card_id": f"F{i}", "numbers": [1, 2, 3, 4], "dots": 1} for i in range(4)]
FORGED = {"seats": SEATS, "deck": DECK, "auto_proctor": None}


class ReservedIdsTests(ShellTestCase):
    def setUp(self):
        super().setUp()
        self.clock = make_clock()
        self.hub = Hub(open_store("memory:", clock=self.clock.seconds), self.clock)

    def test_nobody_but_the_tournament_creates_a_table_under_its_tables_ids(self):
        for table in ("spring.r1.s1.t01", "spring.tb2.t1", "a.b.r3.s12.t100"):
            with pytest.raises(ReservedTable, match="only the tournament creates it"):
                result_of(self.hub.create_table(table, "challenge", FORGED, DIRECTOR))
        # not even as the server, unless caused by the tournament's own stream
        with pytest.raises(ReservedTable):
            result_of(self.hub.create_table("spring.r1.s1.t01", "challenge", FORGED, SERVER_ACTOR))
        with pytest.raises(ReservedTable):  # nor for another tournament's id
            result_of(
                self.hub.create_table(
                    "spring.r1.s1.t01", "challenge", FORGED, SERVER_ACTOR, causation="tournament/x"
                )
            )
        assert self.hub.actors == {}
        # ids that only look alike are anyone's
        for table in ("spring.r1.s1", "spring-r1-s1-t01", "r1.s1.t01", "spring.r1.s1.t01.b"):
            assert result_of(self.hub.create_table(table, "challenge", FORGED, DIRECTOR))

    def test_the_session_answers_reserved_table(self):
        session, wire = make_session(self.hub, self.clock)
        say(session, "hello", id=1, token=token("director"))
        wire.messages()
        say(session, "create_table", id=2, table="spring.r1.s1.t01", options=FORGED)
        [reply] = wire.messages()
        assert reply["type"] == "error" and reply["id"] == 2, reply
        assert reply["code"] == "reserved_table"
        assert "spring.r1.s1.t01" in reply["message"]
        assert self.hub.tables() == []


class AdoptionTests(ShellTestCase):
    def setUp(self):
        super().setUp()
        self.clock = make_clock()
        self.store = open_store("memory:", clock=self.clock.seconds)
        self.logged: list[dict] = []
        globalLogPublisher.addObserver(self.logged.append)
        self.addCleanup(globalLogPublisher.removeObserver, self.logged.append)

    def test_a_table_made_under_a_rounds_id_before_is_never_adopted_nor_its_result_recorded(
        self,
    ):
        """Given a store from before the reservation, holding the director's own table under
        round 1's first table id; when round 1 starts, the tournament creates its other
        table, leaves that one alone (not started, not listened to), and the result signed
        there never reaches the round."""
        hub = Hub(self.store, self.clock)
        tournament = result_of(
            hub.create_table(TID, "tournament", tournament_options(grades=["4th"]), DIRECTOR)
        )
        rows = [(f"S{i}", "Hill", "4th") for i in range(7)]
        command(tournament, "import_students", csv=csv_of(rows))
        command(tournament, "close_registration")
        command(tournament, "seat_round", round=1)
        squatted, honest = [t.table for t in tournament.state.round(1).tables]
        forged = NewEvent(
            "TableCreated",
            {"game": "challenge", "options": FORGED},
            actor=DIRECTOR.as_dict(),
            causation="conn-9:req-2",
        )
        result_of(self.store.append(f"table/spring.{squatted}", 0, [forged]))

        command(tournament, "start_round", round=1)

        fake = hub.actors[f"spring.{squatted}"]
        assert not fake.state.started  # the tournament sent it no start_round
        assert [e["event"] for e in self.logged if e.get("event") == "foreign_table"] == [
            "foreign_table"
        ]
        assert hub.actors[f"spring.{honest}"].state.started
        for actor in (fake, hub.actors[f"spring.{honest}"]):
            if not actor.state.started:
                command(actor, "start_round", DIRECTOR)
            command(actor, "end_round", PROCTOR)
            command(actor, "sign_score_card", PROCTOR, initials="ZZ")
        assert set(tournament.state.results) == {honest}
        with pytest.raises(RuleViolation) as refused:
            command(tournament, "close_round", round=1)
        assert refused.value.code == "tables_unsigned"
        assert squatted in refused.value.message

        again = Hub(self.store, self.clock)  # after a restart: still not adopted
        result_of(again.load_all())
        assert set(again.actors[TID].state.results) == {honest}
        assert again.actors[TID]._known[squatted] == "foreign"
