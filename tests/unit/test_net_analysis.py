"""The `analysis` query over a session (server/runtime/analysis_query.py, docs/protocol.md
`query`): a 24 Challenge table's analysis after the round, for the asking token: all of it for
the officials, a student's own report once the round is over, nothing for a spectator; every
refusal path; nothing recorded."""

from __future__ import annotations

from test_net import OPTIONS, TOY_OPTIONS, say
from test_net_view_at import ViewAtCase, connected, one

from server.eventlog.backends import open_store
from server.runtime.hub import Hub


def ask(session, wire, table="t1", args=None, request_id=9):
    say(session, "query", id=request_id, table=table, name="analysis", args=args or {})
    return one(wire)


class AnalysisQueryTests(ViewAtCase):
    def given_a_round(self, end=True):
        """Table t1 (4 seats): card 1 placed and revealed (in play), then, when `end`, the
        round ended by the director."""
        director, wire = connected(self.hub, self.clock, "director")
        say(director, "create_table", id=10, table="t1", options=OPTIONS)
        for request_id, name in enumerate(("start_round", "place_card", "reveal_card"), 20):
            say(director, "command", id=request_id, table="t1", name=name)
        if end:
            say(director, "command", id=30, table="t1", name="end_round")
        wire.messages()
        return director, wire

    def test_an_official_reads_the_whole_analysis_at_any_time(self):
        self.given_a_round(end=False)
        proctor, wire = connected(self.hub, self.clock, "proctor", table="t1")
        seq = self.hub.actors["t1"].seq
        answer = ask(proctor, wire)
        assert answer["type"] == "answer" and answer["name"] == "analysis", answer
        result = answer["result"]
        assert answer["seq"] == seq and len(result["students"]) == 4
        assert [card["card_id"] for card in result["cards"]] == [OPTIONS["deck"][0]["card_id"]]
        assert result["cards"][0]["solutions"]  # the solver's, from the card's numbers
        assert self.hub.actors["t1"].seq == seq  # nothing recorded

    def test_a_student_reads_only_their_own_report_once_the_round_is_over(self):
        self.given_a_round(end=False)
        student, wire = connected(self.hub, self.clock, "player", table="t1", seat="s2")
        refused = ask(student, wire)
        assert (refused["type"], refused["code"]) == ("error", "forbidden")  # a card in play
        director, _ = connected(self.hub, self.clock, "director")
        say(director, "command", id=40, table="t1", name="end_round")
        answer = ask(student, wire, request_id=10)
        assert answer["type"] == "answer", answer
        assert [s["seat"] for s in answer["result"]["students"]] == ["s2"]
        assert answer["result"]["you"] == "s2"

    def test_a_spectator_reads_nothing(self):
        self.given_a_round()
        spectator, wire = connected(self.hub, self.clock, "spectator", table="t1")
        refused = ask(spectator, wire)
        assert (refused["type"], refused["code"]) == ("error", "forbidden")

    def test_bad_args_and_another_game_are_bad_messages(self):
        director, wire = self.given_a_round()
        assert ask(director, wire, args={"seq": 1})["code"] == "bad_message"
        say(director, "create_table", id=50, table="toy1", game="toy", options=TOY_OPTIONS)
        wire.messages()
        refused = ask(director, wire, table="toy1", request_id=11)
        assert refused["code"] == "bad_message" and "24 Challenge" in refused["message"]


class TournamentAnalysisQueryTests(ViewAtCase):
    """The `analysis` query on a tournament's stream: each grade's summary, for the director
    (and auditors); a grade may be named."""

    def setUp(self):
        super().setUp()
        # the server's own games: the registry and the tournament (Hub's default)
        self.hub = Hub(open_store("memory:", clock=self.clock.seconds), self.clock)

    def given_a_tournament(self):
        director, wire = connected(self.hub, self.clock, "director")
        options = {"name": "Spring", "date": "2026-03-14", "grades": ["4th", "5th"]}
        options["deck_seed"] = 24
        say(
            director,
            "create_table",
            id=10,
            table="tournament/spring",
            game="tournament",
            options=options,
        )
        csv = "name,school,grade\nAda,Hill,4th\nBo,Hill,4th\nCy,Dale,5th\n"
        say(
            director,
            "command",
            id=11,
            table="tournament/spring",
            name="import_students",
            args={"csv": csv},
        )
        assert [m["type"] for m in wire.messages()] == ["table_created", "accepted"]
        return director, wire

    def test_the_director_reads_every_grade_or_one(self):
        director, wire = self.given_a_tournament()
        answer = ask(director, wire, table="tournament/spring")
        assert answer["type"] == "answer", answer
        grades = answer["result"]["grades"]
        assert [g["grade"] for g in grades] == ["4th", "5th"]
        assert [s["name"] for s in grades[0]["students"]] == ["Ada", "Bo"]
        assert answer["result"]["tournament"] == "spring"
        one = ask(director, wire, table="tournament/spring", args={"grade": "5th"}, request_id=12)
        assert [g["grade"] for g in one["result"]["grades"]] == ["5th"]

    def test_an_unknown_grade_a_bad_argument_and_another_role_are_refused(self):
        director, wire = self.given_a_tournament()
        unknown = ask(director, wire, table="tournament/spring", args={"grade": "9th"})
        assert unknown["code"] == "bad_message" and "9th" in unknown["message"]
        bad = ask(director, wire, table="tournament/spring", args={"grade": 4}, request_id=13)
        assert bad["code"] == "bad_message"
        other = ask(director, wire, table="tournament/spring", args={"seq": 1}, request_id=14)
        assert other["code"] == "bad_message"
        spectator, watcher = connected(self.hub, self.clock, "spectator", name="w")
        refused = ask(spectator, watcher, table="tournament/spring")
        assert (refused["type"], refused["code"]) == ("error", "forbidden")
