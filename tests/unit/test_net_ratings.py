"""The `ratings` query over a session (server/runtime/ratings_query.py, docs/protocol.md
`query`): a student's rating across every table of the store, by the name their seat has; a
player asks for their own, an official names the student; every refusal path; nothing
recorded."""

from __future__ import annotations

from test_net import say
from test_net_view_at import ViewAtCase, connected, one

from server.eventlog.envelope import NewEvent
from server.ratings import Rating, rate_table
from server.runtime.ratings_query import cache_of

T0 = 1_700_000_000_000_000
PRACTICE = {"seats": [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": ""}], "cards": 5}


def ask(session, wire, table="pr", args=None, request_id=9):
    say(session, "query", id=request_id, table=table, name="ratings", args=args or {})
    return one(wire)


class RatingsQueryTests(ViewAtCase):
    def given_a_practice(self):
        director, wire = connected(self.hub, self.clock, "director")
        say(director, "create_table", id=10, table="pr", game="practice", options=PRACTICE)
        assert wire.messages()[0]["type"] == "table_created"
        return director, wire

    def given_a_pocket_game_ada_won(self):
        """A finished pocket game in the store (its log written out): Ada (as s2) beat Bo."""
        seats = [{"seat": "s1", "name": "Bo"}, {"seat": "s2", "name": "ada"}]
        events = [
            NewEvent("TableCreated", {"game": "pocket", "options": {"seats": seats}}),
            NewEvent(
                "GameEnded", {"at": T0, "reason": "stack_used_up", "scores": {"s1": 1, "s2": 5}}
            ),
        ]
        self.successResultOf(self.hub.store.append("table/pk", 0, events))

    def test_a_student_new_to_the_log_is_1500_with_no_history(self):
        self.given_a_practice()
        ada, wire = connected(self.hub, self.clock, "player", table="pr", seat="s1")
        answer = ask(ada, wire)
        assert answer["type"] == "answer" and answer["name"] == "ratings", answer
        result = answer["result"]
        assert (result["name"], result["history"], result["tables"]) == ("Ada", [], 0)
        assert result["rating"] == {"mu": 1500.0, "sigma": 350.0, "provisional": True}

    def test_a_students_rating_joins_her_casual_game_and_her_practice_by_name(self):
        self.given_a_pocket_game_ada_won()
        director, _ = self.given_a_practice()
        ada, wire = connected(self.hub, self.clock, "player", table="pr", seat="s1")
        for request_id, name in enumerate(("next_card", "give_up"), 20):
            say(ada, "command", id=request_id, table="pr", name=name)
        assert [m["type"] for m in wire.messages()] == ["accepted", "accepted"]
        seq = self.hub.actors["pr"].seq
        result = ask(ada, wire)["result"]
        assert [(h["table"], h["kind"]) for h in result["history"]] == [
            ("pk", "result"),
            ("pr", "practice"),
        ]
        _bo, won = rate_table([Rating(), Rating()], [1, 5])
        assert (result["history"][0]["mu"], result["history"][0]["place"]) == (won.mu, 1)
        assert result["history"][1]["solved"] is False and result["tables"] == 2
        assert result["rating"]["mu"] == result["history"][-1]["mu"] < won.mu
        assert self.hub.actors["pr"].seq == seq  # nothing recorded
        # an official names her, any case
        proctor, proctor_wire = connected(self.hub, self.clock, "proctor", table="pr")
        named = ask(proctor, proctor_wire, args={"name": "ADA"})["result"]
        assert named["history"] == result["history"]
        bo = ask(director, _, args={"name": "Bo"}, request_id=11)["result"]
        assert [h["place"] for h in bo["history"]] == [2]

    def test_a_student_renamed_in_a_tournament_joins_her_later_tables_under_her_new_name(self):
        seats = [{"seat": "p1", "name": "Ada"}, {"seat": "p2", "name": "Bo"}]
        signed = {"at": T0, "scores": {"p1": 3, "p2": 0}, "initials": "PK"}
        table = [
            NewEvent("TableCreated", {"game": "challenge", "options": {"seats": seats}}),
            NewEvent("ScoreCardSigned", signed),
        ]
        self.successResultOf(self.hub.store.append("table/spring.r1.s1.t01", 0, table))
        students = [{"student": "p1", "name": "Ada"}, {"student": "p2", "name": "Bo"}]
        renamed = {"student": "p1", "name": "Ada Lovelace", "previous": "Ada"}
        tournament = [
            NewEvent("TableCreated", {"game": "tournament", "options": {}}),
            NewEvent("StudentsRegistered", {"students": students}),
            NewEvent("StudentRenamed", renamed),
        ]
        self.successResultOf(self.hub.store.append("tournament/spring", 0, tournament))
        director, wire = connected(self.hub, self.clock, "director")
        options = {"seats": [{"seat": "s1", "name": "Ada Lovelace"}]}
        say(director, "create_table", id=10, table="pr", game="practice", options=options)
        wire.messages()
        ada, ada_wire = connected(self.hub, self.clock, "player", table="pr", seat="s1")
        result = ask(ada, ada_wire)["result"]
        assert [h["table"] for h in result["history"]] == ["spring.r1.s1.t01"]
        assert result["history"][0]["seat"] == "p1" and result["name"] == "Ada Lovelace"
        assert ask(director, wire, args={"name": "Ada"})["result"]["history"] == []

    def given_a_settled_bo_who_tried_one_card(self):
        """A practice log written out: Bo tries 1 1 1 8 forty times (settling as he goes:
        its later tries move it), then solves 2 4 10 11 once, settled."""
        events = [
            NewEvent(
                "TableCreated",
                {"game": "practice", "options": {"seats": [{"seat": "s1", "name": "Bo"}]}},
            )
        ]
        for number in range(1, 42):
            card_id = "2 4 10 11" if number == 41 else "1 1 1 8"
            card = {"seat": "s1", "number": number, "card_id": card_id}
            events.append(NewEvent("CardDealt", {**card, "at": T0 + number, "score": 22.0}))
            solved = number % 2 == 0 or number == 41
            events.append(NewEvent("RatingUpdated", {**card, "at": T0 + number, "solved": solved}))
        self.successResultOf(self.hub.store.append("table/bo-before", 0, events))

    def test_from_log_starts_a_practice_at_the_students_and_the_cards_ratings_across_the_log(self):
        self.given_a_pocket_game_ada_won()
        self.given_a_settled_bo_who_tried_one_card()
        director, wire = connected(self.hub, self.clock, "director")
        options = {**PRACTICE, "from_log": True}
        say(director, "create_table", id=10, table="pr", game="practice", options=options)
        assert wire.messages()[0]["type"] == "table_created"
        recorded = self.hub.actors["pr"].events[0].data["options"]
        assert "from_log" not in recorded  # the numbers are recorded, never the flag
        ada = recorded["ratings"]["s1"]
        _bo, won = rate_table([Rating(), Rating()], [1, 5])
        assert ada == won.as_data() and "s2" not in recorded["ratings"]  # s2 has no name
        # the cards a settled student's try moved; none else (the pool's other cards)
        assert set(recorded["card_ratings"]) == {"1 1 1 8", "2 4 10 11"}
        assert (
            self.hub.actors["pr"].state.card_ratings["2 4 10 11"].mu
            == (recorded["card_ratings"]["2 4 10 11"]["mu"])
        )
        # a rating the director gives wins over the log's; false asks nothing
        given = {**PRACTICE, "from_log": True, "ratings": {"s1": {"mu": 900, "sigma": 80}}}
        say(director, "create_table", id=11, table="pr2", game="practice", options=given)
        assert wire.messages()[0]["type"] == "table_created"
        assert self.hub.actors["pr2"].events[0].data["options"]["ratings"]["s1"]["mu"] == 900
        say(
            director,
            "create_table",
            id=12,
            table="pr3",
            game="practice",
            options={**PRACTICE, "from_log": False},
        )
        assert wire.messages()[0]["type"] == "table_created"
        assert "ratings" not in self.hub.actors["pr3"].events[0].data["options"]

    def test_from_log_other_than_true_or_false_and_on_another_game_are_refused(self):
        director, wire = connected(self.hub, self.clock, "director")
        say(
            director,
            "create_table",
            id=10,
            table="pr",
            game="practice",
            options={**PRACTICE, "from_log": "yes"},
        )
        refused = one(wire)
        assert (refused["type"], refused["code"]) == ("error", "invalid_options")
        assert "from_log" in refused["message"] and "pr" not in self.hub.actors
        pocket = {
            "seats": [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}],
            "from_log": True,
        }
        say(director, "create_table", id=11, table="pk2", game="pocket", options=pocket)
        refused = one(wire)
        assert refused["code"] == "invalid_options" and "from_log" in refused["message"]

    def test_a_seat_without_a_name_a_spectator_and_bad_args_are_refused(self):
        director, director_wire = self.given_a_practice()
        nameless, wire = connected(self.hub, self.clock, "player", table="pr", seat="s2")
        refused = ask(nameless, wire)
        assert (refused["type"], refused["code"]) == ("error", "forbidden")
        ada, ada_wire = connected(self.hub, self.clock, "player", table="pr", seat="s1")
        assert ask(ada, ada_wire, args={"name": "Bo"})["code"] == "bad_message"  # only her own
        spectator, watcher = connected(self.hub, self.clock, "spectator", table="pr")
        assert ask(spectator, watcher)["code"] == "forbidden"
        for request_id, args in enumerate(
            ({}, {"name": 3}, {"name": "  "}, {"name": "x" * 65}), 30
        ):
            refused = ask(director, director_wire, args=args, request_id=request_id)
            assert refused["code"] == "bad_message", (args, refused)
        say(director, "query", id=40, table="pr", name="ratings", args=[1])
        assert one(director_wire)["code"] == "bad_message"

    def test_a_second_question_reads_again_only_the_tables_that_grew(self):
        self.given_a_pocket_game_ada_won()
        self.given_a_practice()
        ada, wire = connected(self.hub, self.clock, "player", table="pr", seat="s1")
        store, loaded = self.hub.store, []
        load = store.load

        def counted(stream):
            loaded.append(stream)
            return load(stream)

        store.load = counted
        first = ask(ada, wire)["result"]
        assert sorted(loaded) == ["table/pk", "table/pr"]
        loaded.clear()
        assert ask(ada, wire, request_id=10)["result"] == first
        assert loaded == []  # nothing grew: nothing read, nothing folded again
        say(ada, "command", id=20, table="pr", name="next_card")
        say(ada, "command", id=21, table="pr", name="give_up")
        assert [m["type"] for m in wire.messages()] == ["accepted", "accepted"]
        again = ask(ada, wire, request_id=11)["result"]
        assert loaded == ["table/pr"] and len(again["history"]) == len(first["history"]) + 1


def test_a_store_without_weak_references_gets_a_fresh_cache_each_time():
    class Slotted:
        __slots__ = ()  # no __weakref__: a WeakKeyDictionary cannot keep it

    store = Slotted()
    assert cache_of(store) is not cache_of(store)
    kept = RatingsQueryTests  # any ordinary object keeps its cache
    assert cache_of(kept) is cache_of(kept)
