"""The gaps an outside attack run found between docs/protocol.md (and docs/rules.md) and the
code (issue 33), each closed on one side and checked here: the games `unknown_game` names,
`list_tables`'s `limit`, the 500-character texts of protests and rulings, and what `view_at`'s
`at` is. Over real sessions on a memory hub with a task.Clock where the behaviour is the
server's."""

from __future__ import annotations

import re
from pathlib import Path

import toygame
from shell_testcase import ShellTestCase
from test_net import OPTIONS, make_session, say, token
from test_protocol_doc import DOC, section, table_rows
from twisted.internet.task import Clock

from protocol.messages import table_stream
from server.eventlog.backends import open_store
from server.eventlog.envelope import NewEvent
from server.games import games
from server.games.challenge.protests import MAX_REASON
from server.runtime.hub import Hub

T0 = 1_700_000_000.0
US = 1_000_000
RULES_DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def connected(hub, clock, role, **claims):
    session, wire = make_session(hub, clock, rate_burst=1000, rate_per_second=1000)
    say(session, "hello", id=1, token=token(role, **claims))
    assert wire.messages()[0]["type"] == "welcome"
    return session, wire


class DocGapsCase(ShellTestCase):
    def setUp(self):
        super().setUp()
        self.clock = Clock()
        self.clock.advance(T0)
        self.store = open_store("memory:", clock=self.clock.seconds)
        self.hub = Hub(self.store, self.clock)


class UnknownGameTests(DocGapsCase):
    def test_unknown_game_points_to_the_games_the_server_runs(self):
        """The row points to the registry, a game's folder (a new game needs no word here),
        and every game it names as an example is one the server runs."""
        [row] = [r for r in table_rows(section("Error codes")) if r[0] == "`unknown_game`"]
        named = set(re.findall(r"`([a-z0-9]+)`", row[2]))
        assert "`server/games/`" in row[2] and "tournament" in named
        assert named <= set(self.hub.games), sorted(named - set(self.hub.games))
        assert set(self.hub.games) == {*games(), "tournament"}
        director, wire = connected(self.hub, self.clock, "director")
        say(director, "create_table", id=2, game="chess", options={})
        [reply] = wire.messages()
        assert reply["type"] == "error" and reply["code"] == "unknown_game"


class ListTablesLimitTests(DocGapsCase):
    def given_three_tables(self):
        director, wire = connected(self.hub, self.clock, "director")
        for number, table in enumerate(("a1", "a2", "a3"), start=2):
            say(director, "create_table", id=number, table=table, options=OPTIONS)
        assert [m["type"] for m in wire.messages()] == ["table_created"] * 3
        return director, wire

    def test_a_limit_outside_1_to_200_is_refused_not_turned_into_one_row(self):
        director, wire = self.given_three_tables()
        for limit in (0, -1, 201, 10**6):
            say(director, "list_tables", id=9, limit=limit)
            [reply] = wire.messages()
            assert reply["type"] == "error" and reply["code"] == "bad_message", (limit, reply)
            if limit >= 0:  # a negative int is the codec's `bad_message` already
                assert reply["message"] == f"list_tables: `limit` is 1 to 200, not {limit}"
        say(director, "list_tables", id=10, limit=1)
        [one] = wire.messages()
        assert [row["table"] for row in one["tables"]] == ["a1"] and one["next"] == "a1"
        say(director, "list_tables", id=11, limit=200, after="a1")
        [rest] = wire.messages()
        assert [row["table"] for row in rest["tables"]] == ["a2", "a3"] and rest["next"] is None

    def test_the_doc_says_so(self):
        text = DOC.split("### `list_tables`\n", 1)[1].split("\n### ", 1)[0]
        [row] = [r for r in table_rows(text) if r[0] == "`limit`"]
        assert "1 to 200 (default 200)" in row[3] and "`bad_message`" in row[3]
        assert "a `limit` outside 1 to 200,\n0 included" in text


class TextCapsTests(ShellTestCase):
    def test_the_500_character_texts_are_documented(self):
        """docs/rules.md's command table gives each protest and ruling text its cap."""
        rows = {r[0].strip("`"): r[1] for r in table_rows(RULES_DOC.read_text()) if r}
        cap = f"text of 1..{MAX_REASON} characters"
        for command, argument in [
            ("file_protest", "reason"),
            ("rule_protest", "ruling_text"),
            ("reopen_score_card", "reason"),
        ]:
            assert f"`{argument}` ({cap}" in rows[command], (command, rows[command])
        assert f'"why": <{cap}>' in RULES_DOC.read_text()


class ViewAtTimeTests(DocGapsCase):
    def test_at_is_the_events_own_time_else_when_the_log_recorded_it(self):
        """Given a toy table whose `Started` was decided at T0 + 1 s and recorded at T0 + 5 s
        (its data's `at` and its envelope's differ); `view_at` of it answers its data's `at`,
        and of `TableCreated` (no `at` in its data) the time the log recorded it."""
        hub = Hub(self.store, self.clock, games={toygame.NAME: toygame})
        options = {"seats": [{"seat": "s1", "name": "Ada"}], "secret": 7}
        stream = table_stream("toy1")
        created = NewEvent("TableCreated", {"game": "toy", "options": options})
        self.store.append(stream, 0, [created])
        self.clock.advance(5)
        started = NewEvent("Started", {"at": int(T0 * US) + US, "first": "s1"})
        self.store.append(stream, 1, [started])
        player, wire = connected(hub, self.clock, "player", table="toy1", seat="s1")
        answers = []
        for seq in (1, 2):
            say(player, "query", id=10 + seq, table="toy1", name="view_at", args={"seq": seq})
            [answer] = wire.messages()
            answers.append(answer["result"]["at"])
        assert answers == [int(T0 * US), int(T0 * US) + US]
        say(player, "join", id=20, table="toy1", after_seq=0)
        pushes = [m for m in wire.messages() if m["type"] == "event"]
        assert [m["at"] for m in pushes[:2]] == [int(T0 * US), int((T0 + 5) * US)]  # the log's
