"""The `view_at` query over a session (server/runtime/view_at.py, docs/protocol.md `query`):
the table as it stood after a seq, redacted for the asking token exactly as a live snapshot
then; every refusal path; nothing recorded; the work charged to the asker's request bucket."""

from __future__ import annotations

from pathlib import Path

import toygame
from shell_testcase import ShellTestCase
from test_net import OPTIONS, TOY_OPTIONS, make_session, say, token
from twisted.internet.task import Clock

from server.eventlog.backends import open_store
from server.games import games
from server.net.requests import JOIN_EVENTS_PER_REQUEST
from server.runtime.hub import Hub
from server.runtime.view_at import CHECKPOINT_EVERY

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
    session, wire = make_session(hub, clock, rate_burst=1000, rate_per_second=1000)
    say(session, "hello", id=1, token=token(role, **claims))
    assert wire.messages()[0]["type"] == "welcome"
    return session, wire


def one(wire):
    (message,) = wire.messages()
    return message


def view_at(session, wire, table, seq, request_id=9):
    say(session, "query", id=request_id, table=table, name="view_at", args={"seq": seq})
    return one(wire)


def make_card_table(hub, clock):
    """Given: table t1 (proctored by hand) with card 1 placed face down at seq 3 and
    revealed at seq 4; table t2 beside it."""
    director, wire = connected(hub, clock, "director")
    for number, table in enumerate(("t1", "t2")):
        say(director, "create_table", id=10 + number, table=table, options=OPTIONS)
    for request_id, name in enumerate(("start_round", "place_card", "reveal_card"), start=20):
        say(director, "command", id=request_id, table="t1", name=name)
    wire.messages()
    assert [e.type for e in hub.actors["t1"].events] == [
        "TableCreated",
        "RoundStarted",
        "CardPlaced",
        "CardRevealed",
    ]
    return director, wire


class ViewAtCase(ShellTestCase):
    """A hub on the memory store with a task.Clock (`make_card_table` is the tests' Given)."""

    def setUp(self):
        super().setUp()
        self.clock = make_clock()
        self.hub = make_hub(self.clock)


class ViewAtTests(ViewAtCase):
    def test_a_player_sees_the_placed_card_face_down_as_it_was_then_the_proctor_sees_it(self):
        hub, clock = self.hub, self.clock
        make_card_table(hub, clock)
        player, wire = connected(hub, clock, "player", table="t1", seat="s1")
        proctor, proctor_wire = connected(hub, clock, "proctor", table="t1")
        placed = view_at(player, wire, "t1", 3)
        assert placed["type"] == "answer" and placed["seq"] == 3 and placed["name"] == "view_at"
        card = placed["result"]["view"]["card"]
        assert card is not None and not card.get("numbers")  # face down for a player
        assert placed["result"]["view"]["you"] == "s1"  # the asker's own view
        assert placed["result"]["at"] == hub.actors["t1"].events[2].data["at"]
        assert view_at(proctor, proctor_wire, "t1", 3)["result"]["view"]["card"]["numbers"] == [
            1,
            2,
            3,
            4,
        ]
        revealed = view_at(player, wire, "t1", 4)["result"]
        assert revealed["view"]["card"]["numbers"] == [1, 2, 3, 4]
        assert {d["command"] for d in revealed["deadlines"]} == {
            d["command"] for d in hub.actors["t1"].deadline_data()
        }
        # exactly what a join at that moment gave: the snapshot now is the view at the last seq
        say(player, "join", id=30, table="t1")
        assert one(wire)["view"] == revealed["view"]
        before = view_at(player, wire, "t1", 2)["result"]["view"]
        assert before["card"] is None and before["phase"] != revealed["view"]["phase"]

    def test_view_at_records_nothing_and_pushes_nothing(self):
        hub, clock = self.hub, self.clock
        make_card_table(hub, clock)
        spectator, wire = connected(hub, clock, "spectator", table="t1")
        say(spectator, "join", id=2, table="t1")
        assert one(wire)["type"] == "snapshot"
        seq = hub.actors["t1"].seq
        for step in range(1, seq + 1):
            assert view_at(spectator, wire, "t1", step)["seq"] == step  # `one`: no push
        assert hub.actors["t1"].seq == seq

    def test_a_game_without_queries_still_answers_view_at_and_hides_its_secret(self):
        hub, clock = self.hub, self.clock
        director, director_wire = connected(hub, clock, "director")
        say(director, "create_table", id=2, table="toy", game=toygame.NAME, options=TOY_OPTIONS)
        say(director, "command", id=3, table="toy", name="start")
        director_wire.messages()
        player, wire = connected(hub, clock, "player", table="toy", seat="s1")
        assert "secret" not in str(view_at(player, wire, "toy", 1)["result"]["view"])
        assert view_at(director, director_wire, "toy", 1)["result"]["view"]["secret"] == 7
        say(player, "query", id=4, table="toy", name="what_if", args={})
        assert one(wire)["code"] == "unknown_query"  # the game's own queries: none

    def test_view_at_refusals(self):
        for args, code in [
            (None, "bad_message"),  # no args at all
            ({}, "bad_message"),
            ({"seq": 2, "extra": True}, "bad_message"),
            ({"seq": "2"}, "bad_message"),
            ({"seq": 1.5}, "bad_message"),
            ({"seq": False}, "bad_message"),
            ({"seq": -1}, "bad_message"),
            ({"seq": 0}, "bad_seq"),
            ({"seq": 5}, "bad_seq"),  # beyond the log's last seq (4)
            ({"seq": 2**63 - 1}, "bad_seq"),
        ]:
            clock = make_clock()  # a fresh table for each case
            hub = make_hub(clock)
            make_card_table(hub, clock)
            player, wire = connected(hub, clock, "player", table="t1", seat="s1")
            fields = {} if args is None else {"args": args}
            say(player, "query", id=5, table="t1", name="view_at", **fields)
            refused = one(wire)
            assert refused["type"] == "error" and refused["id"] == 5 and refused["code"] == code
            assert "rule" not in refused  # a protocol refusal, not a game rule

    def test_view_at_protocol_refusals(self):
        hub, clock = self.hub, self.clock
        card_table = make_card_table(hub, clock)
        player, wire = connected(hub, clock, "player", table="t1", seat="s1")
        assert view_at(player, wire, "t2", 1)["code"] == "unauthorized"  # bound to t1
        director, director_wire = card_table
        assert view_at(director, director_wire, "nowhere", 1)["code"] == "unknown_table"
        anonymous, anonymous_wire = make_session(hub, clock)
        assert view_at(anonymous, anonymous_wire, "t1", 1)["code"] == "hello_required"

    def test_a_deep_view_at_is_charged_by_the_events_it_folds_once(self):
        """Issue 18: a request costs by the work it causes. The first answer deep in a long
        table folds it (charged like a join's catch-up); the table keeps checkpoints, so the
        steps after it are cheap and are not charged again."""
        hub, clock = self.hub, self.clock
        director, director_wire = connected(hub, clock, "director")
        say(director, "create_table", id=2, table="long", game=toygame.NAME, options=TOY_OPTIONS)
        say(director, "command", id=3, table="long", name="start")
        for request_id in range(4, 4 + 300, 2):  # 300 events of pause and resume
            say(director, "command", id=request_id, table="long", name="pause")
            say(director, "command", id=request_id + 1, table="long", name="resume")
        director_wire.messages()
        last = hub.actors["long"].seq
        assert last > 6 * JOIN_EVENTS_PER_REQUEST
        spectator, wire = make_session(hub, clock, rate_burst=5, rate_per_second=1)
        say(spectator, "hello", id=1, token=token("spectator", name="w"))
        wire.messages()
        assert view_at(spectator, wire, "long", last - 1)["type"] == "answer"
        # the fold of ~300 events cost 6 requests more than the 3 left: in debt now
        assert view_at(spectator, wire, "long", 2, request_id=10)["code"] == "rate_limited"
        clock.advance(10)  # refilled: the burst of 5
        answers = [view_at(spectator, wire, "long", last - n, request_id=20 + n) for n in range(5)]
        assert [a["type"] for a in answers] == ["answer"] * 5  # each folds < 50: one request each

    def test_the_protocol_doc_states_the_checkpoint_spacing_and_the_charge(self):
        """docs/protocol.md (`query`) says what the code does: its numbers are the code's."""
        doc = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
        text = " ".join(doc.split("**`view_at`", 1)[1].split("| field |", 1)[0].split())
        assert f"state after every {CHECKPOINT_EVERY}th event" in text
        assert f"one request more per {JOIN_EVENTS_PER_REQUEST} it folded" in text
        assert "`bad_message`" in text and "`bad_seq`" in text
