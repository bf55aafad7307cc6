"""What a client author found wrong or silent in docs/protocol.md and docs/rules.md (issue 10),
each fixed in the doc or the code, and tested here against the code that keeps it."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import msgpack
from challenge_tables import PROCTOR, SPECTATOR, Table, options, player, types
from shell_testcase import ShellTestCase
from test_net import make_session, say, token
from twisted.internet.task import Clock

from server.eventlog.backends import open_store
from server.games import challenge
from server.net.tokens import TokenSigner
from server.runtime.hub import Hub

DOCS = Path(__file__).resolve().parents[2] / "docs"
PROTOCOL = (DOCS / "protocol.md").read_text(encoding="utf-8")
RULES = (DOCS / "rules.md").read_text(encoding="utf-8")
T0 = 1_700_000_000.0


def make_session_and_wire():
    clock = Clock()
    clock.advance(T0)
    hub = Hub(open_store("memory:", clock=clock.seconds), clock)
    session, wire = make_session(hub, clock)
    say(session, "hello", id=1, token=token("director"))
    wire.messages()
    return session, wire


class ClientAuthorDocsCase(ShellTestCase):
    """A director's session on a fresh hub, hello said (`session_and_wire`)."""

    def setUp(self):
        super().setUp()
        self.session_and_wire = make_session_and_wire()


def raw(session, payload: bytes, binary: bool = True) -> None:
    session.frame_received(payload, binary)


class ClientAuthorDocsTests(ClientAuthorDocsCase):
    def test_a_top_level_value_that_is_not_a_map_is_bad_message_as_documented(self):
        session_and_wire = self.session_and_wire
        session, wire = session_and_wire
        for value in ([1, 2], 7, "ping"):
            raw(session, msgpack.packb(value))
            (error,) = wire.messages()
            assert (error["code"], error["id"]) == ("bad_message", None)
        raw(session, b"\xc1")  # never valid msgpack
        raw(session, b'{"type": "ping"}', binary=False)
        assert [error["code"] for error in wire.messages()] == ["bad_encoding", "bad_encoding"]
        assert "whose top level is not a map (an array, a number, a string) is `bad_message`" in (
            PROTOCOL.replace("\n  ", " ")
        )

    def test_too_complex_answers_id_nil_even_when_the_frame_had_an_id(self):
        session_and_wire = self.session_and_wire
        session, wire = session_and_wire
        deep: object = 1
        for _ in range(40):
            deep = [deep]
        raw(session, msgpack.packb({"type": "ping", "id": 9, "x": deep}))
        (error,) = wire.messages()
        assert (error["code"], error["id"]) == ("too_complex", None)
        assert "`too_complex` (`id` nil)" in PROTOCOL

    def test_issue_token_for_a_table_not_created_yet_succeeds_and_join_says_unknown_table(self):
        session_and_wire = self.session_and_wire
        session, wire = session_and_wire
        say(session, "issue_token", id=2, role="player", table="later", seat="s1")
        (issued,) = wire.messages()
        assert issued["type"] == "token" and issued["table"] == "later"
        say(session, "join", id=3, table="later")
        (refused,) = wire.messages()
        assert refused["code"] == "unknown_table"
        assert "A token may name a table that does not exist" in PROTOCOL.replace("\n", " ")

    def test_token_claims_are_unpadded_base64url_json_with_iat_and_exp(self):
        signed, claims = TokenSigner(b"s" * 32).issue("player", now=T0, table="t1", seat="s2")
        prefix, body, signature = signed.split(".")
        assert prefix == "t24v1" and "=" not in body and "=" not in signature
        assert set(body + signature) <= set(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        )
        decoded = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
        assert decoded["iat"] == int(T0) and decoded["exp"] == claims.expires
        assert {"role", "name", "table", "seat", "iat", "exp"} == set(decoded)
        assert "**unpadded base64url**" in PROTOCOL

    def test_a_late_pattern_is_too_late_until_the_deadline_fires_then_no_card_in_play(self):
        """R-PLAY-4: which refusal a late answer gets depends on whether the deadline fired."""
        table = Table.started(cards=["c1", "c2"])
        table.next_card()
        table.do("touch_card", player("s1"))
        table.advance(3.5)  # the window has closed; the server's timer has not fired yet
        assert table.refused("declare_pattern", player("s1"), pattern="3 × 8").code == "too_late"
        table.fire("pattern_deadline")  # flagged; the card leaves play (R-FLAG-2)
        late = table.refused("declare_pattern", player("s1"), pattern="3 × 8")
        assert late.code == "no_card_in_play"
        assert '"code": "no_card_in_play"' in PROTOCOL

    def test_card_touched_is_recorded_for_a_foul_touch_too(self):
        table = Table.started(cards=["c1", "c2"])
        table.do("place_card")
        events = table.do("touch_card", player("s1"))  # before the reveal
        assert types(events) == ["CardTouched", "FlagIssued", "CardReturnedToDeck"]
        assert challenge.view(table.state, SPECTATOR)["toucher"] is None  # nobody holds it
        assert 'must not read `CardTouched` alone as "this student holds the card"' in RULES

    def test_hidden_fields_are_lengths_absent_keys_or_nulls_as_documented(self):
        table = Table(options(seats=3))
        (started,) = table.do("start_round")
        seen = challenge.event_view(started, SPECTATOR).data
        assert seen["deck"] == 8 and seen["removed"] == 2  # lengths, never null
        assert started.data["removed"] == ["c9", "c8"]  # nearest the bottom first
        (placed,) = table.do("place_card")
        assert {"card_id", "numbers", "dots"}.isdisjoint(
            challenge.event_view(placed, SPECTATOR).data
        )
        view = challenge.view(table.state, SPECTATOR)
        assert view["card"]["numbers"] is None and "numbers" in view["card"]
        assert "deck" not in view and "removed" not in view
        (ended,) = table.do("end_round")
        assert ended.data["unplayed"][0] == placed.data["card_id"]  # the card in play first
        assert challenge.event_view(ended, SPECTATOR).data["unplayed"] == len(
            ended.data["unplayed"]
        )
        assert "a hidden list becomes its **length** (an\nint, never null)" in RULES

    def test_stated_steps_are_public(self):
        """Decision 25: steps are said aloud at a physical table; every viewer sees them."""
        table = Table.started(cards=["c1", "c2"])
        table.next_card()
        table.do("touch_card", player("s1"))
        table.do("declare_pattern", player("s1"), pattern="3 × 8")
        (stated,) = table.do("state_steps", player("s1"), steps=["1 + 1 = 2"])
        for viewer in (SPECTATOR, player("s2"), PROCTOR):
            assert challenge.event_view(stated, viewer) == stated
            assert challenge.view(table.state, viewer)["steps"] == ["1 + 1 = 2"]
        assert "**Stated steps are public**" in RULES

    def test_the_game_code_bad_options_is_invalid_options_on_the_wire(self):
        row = next(line for line in RULES.splitlines() if line.startswith("| `bad_options` |"))
        assert "`invalid_options`" in row
        assert "| `invalid_options` | the game refused the table options" in PROTOCOL
