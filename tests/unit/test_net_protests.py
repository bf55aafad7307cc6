"""Protests, rulings and the score card over a session (R-ROUND-7, R-ROUND-8), and the `query`
message (`preview_ruling`: answered, never recorded): every refusal path of the wire."""

from __future__ import annotations

import toygame
from shell_testcase import ShellTestCase
from test_net import OPTIONS, TOY_OPTIONS, make_session, say, token
from twisted.internet.task import Clock

from server.eventlog.backends import open_store
from server.games import games
from server.runtime.hub import Hub

T0 = 1_700_000_000.0


def make_clock():
    c = Clock()
    c.advance(T0)
    return c


def make_hub(clock):
    return Hub(
        open_store("memory:", clock=clock.seconds),
        clock,
        games={**games(), toygame.NAME: toygame},
    )


def connected(hub, clock, role, **claims):
    session, wire = make_session(hub, clock)
    say(session, "hello", id=1, token=token(role, **claims))
    assert wire.messages()[0]["type"] == "welcome"
    return session, wire


def one(wire):
    (message,) = wire.messages()
    return message


def make_tables(hub, clock):
    """Given: tables t1 and t2 whose round has started."""
    director, wire = connected(hub, clock, "director")
    for number, table in enumerate(("t1", "t2")):
        say(director, "create_table", id=10 + number, table=table, options=OPTIONS)
        say(director, "command", id=20 + number, table=table, name="start_round")
    wire.messages()
    return director, wire


class ProtestCase(ShellTestCase):
    """A hub on the memory store with a task.Clock (`make_tables` is the tests' Given)."""

    def setUp(self):
        super().setUp()
        self.clock = make_clock()
        self.hub = make_hub(self.clock)


class ProtestTests(ProtestCase):
    def test_a_protest_is_filed_ruled_and_the_card_signed_over_the_wire(self):
        hub, clock = self.hub, self.clock
        tables = make_tables(hub, clock)
        player, player_wire = connected(hub, clock, "player", table="t1", seat="s1")
        proctor, proctor_wire = connected(hub, clock, "proctor", table="t1")
        say(
            player,
            "command",
            id=2,
            table="t1",
            name="file_protest",
            args={"seqs": [2], "reason": "x"},
        )
        accepted = one(player_wire)
        assert accepted["type"] == "accepted" and accepted["seq"] == 3
        say(proctor, "command", id=3, table="t1", name="end_round")
        say(proctor, "command", id=4, table="t1", name="sign_score_card", args={"initials": "PK"})
        _ended, refused = proctor_wire.messages()
        assert refused["code"] == "protests_open" and refused["rule"] == "R-ROUND-8"
        ruling = {"protest": 1, "upheld": False, "ruling_text": "no"}
        say(proctor, "command", id=5, table="t1", name="rule_protest", args=ruling)
        say(proctor, "command", id=6, table="t1", name="sign_score_card", args={"initials": "PK"})
        assert [reply["type"] for reply in proctor_wire.messages()] == ["accepted", "accepted"]
        director, wire = tables
        say(director, "list_tables", id=7)
        rows = {row["table"]: row["over"] for row in one(wire)["tables"]}
        assert rows == {"t1": True, "t2": False}  # over when signed (R-ROUND-7)

    def test_a_protest_on_another_table_or_by_a_spectator_is_refused(self):
        hub, clock = self.hub, self.clock
        make_tables(hub, clock)
        player, wire = connected(hub, clock, "player", table="t1", seat="s1")
        args = {"seqs": [2], "reason": "x"}
        say(player, "command", id=2, table="t2", name="file_protest", args=args)
        assert one(wire)["code"] == "unauthorized"  # a token is bound to its own table
        spectator, spectator_wire = connected(hub, clock, "spectator", table="t1")
        say(spectator, "command", id=2, table="t1", name="file_protest", args=args)
        assert one(spectator_wire)["code"] == "forbidden"
        say(
            player,
            "command",
            id=3,
            table="t1",
            name="file_protest",
            args={"seqs": [99], "reason": "x"},
        )
        refused = one(wire)
        assert refused["code"] == "unknown_seq" and refused["rule"] == "R-ROUND-8"

    def test_preview_ruling_is_answered_and_never_recorded(self):
        hub, clock = self.hub, self.clock
        make_tables(hub, clock)
        player, _ = connected(hub, clock, "player", table="t1", seat="s1")
        say(
            player,
            "command",
            id=2,
            table="t1",
            name="file_protest",
            args={"seqs": [2], "reason": "x"},
        )
        proctor, wire = connected(hub, clock, "proctor", table="t1")
        say(proctor, "join", id=2, table="t1")
        assert one(wire)["type"] == "snapshot"
        before = hub.actors["t1"].seq
        args = {
            "protest": 1,
            "upheld": True,
            "ruling_text": "one point",
            "corrections": [{"kind": "adjust_score", "seat": "s1", "delta": 1, "why": "x"}],
        }
        say(proctor, "query", id=3, table="t1", name="preview_ruling", args=args)
        answer = one(wire)  # no event push: nothing was recorded
        assert answer["type"] == "answer" and answer["id"] == 3 and answer["seq"] == before
        assert answer["name"] == "preview_ruling"
        assert answer["result"]["after"]["scores"]["s1"] == 1
        assert [event["type"] for event in answer["result"]["events"]] == [
            "ProtestRuled",
            "ScoreAdjusted",
        ]
        assert hub.actors["t1"].seq == before
        assert hub.actors["t1"].state.protests[0].status == "open"

    def test_query_refusals(self):
        hub, clock = self.hub, self.clock
        tables = make_tables(hub, clock)
        director, director_wire = tables
        say(director, "create_table", id=30, table="toy", game=toygame.NAME, options=TOY_OPTIONS)
        director_wire.messages()
        player, wire = connected(hub, clock, "player", table="t1", seat="s1")
        say(player, "query", id=2, table="t1", name="preview_ruling", args={"protest": 1})
        assert one(wire)["code"] == "not_allowed"  # only the proctor or director previews
        say(player, "query", id=3, table="t2", name="preview_ruling", args={})
        assert one(wire)["code"] == "unauthorized"
        say(director, "query", id=4, table="nowhere", name="preview_ruling", args={})
        assert one(director_wire)["code"] == "unknown_table"
        say(director, "query", id=5, table="t1", name="what_if", args={})
        assert one(director_wire)["code"] == "unknown_query"
        say(director, "query", id=6, table="toy", name="preview_ruling", args={})
        assert one(director_wire)["code"] == "unknown_query"  # a game without queries
        say(director, "query", id=7, table="t1", name="preview_ruling", args={"protest": 1})
        assert one(director_wire)["code"] == "unknown_protest"
        say(director, "query", id=8, table="t1")
        assert one(director_wire)["code"] == "bad_message"  # `name` is required
        unknown, unknown_wire = make_session(hub, clock)
        say(unknown, "query", id=1, table="t1", name="preview_ruling")
        assert one(unknown_wire)["code"] == "hello_required"

    def test_create_table_refuses_a_hand_made_deck_with_a_card_without_a_solution(self):
        """R-PUZ-4 at `create_table`: `invalid_options` naming the card; a casual table may."""
        hub, clock = self.hub, self.clock
        director, wire = connected(hub, clock, "director")
        deck = [{"card_id": "ok", "numbers": [1, 2, 3, 4], "dots": 1}]
        deck.append({"card_id": "dud", "numbers": [1, 1, 1, 1], "dots": 1})
        say(director, "create_table", id=2, table="hand", options={**OPTIONS, "deck": deck})
        refused = one(wire)
        assert refused["code"] == "invalid_options"
        assert "card 'dud' (1 1 1 1) has no solution (R-PUZ-4)" in refused["message"]
        assert "hand" not in hub.actors  # nothing recorded
        casual = {**OPTIONS, "deck": deck, "casual": True}
        say(director, "create_table", id=3, table="hand", options=casual)
        assert one(wire)["type"] == "table_created"
