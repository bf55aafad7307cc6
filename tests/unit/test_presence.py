"""Presence (issue 17): who is connected to a table, pushed to the joins that ask for it
(`join {presence: true}`), changed by joins, leaves and dropped connections, and never
written to the table's log (docs/protocol.md, `presence`)."""

from __future__ import annotations

from shell_testcase import ShellTestCase
from twisted.internet.task import Clock

from protocol.codec import decode, encode
from server.eventlog.backends import open_store
from server.games.base import Actor
from server.net.session import NetConfig, Session
from server.net.tokens import TokenSigner
from server.runtime.hub import Hub
from server.runtime.presence import presence_of

T0 = 1_700_000_000.0
SECRET = b"p" * 32
DECK = [{"card_id": i, "numbers": [1, 2, 3, 4], "dots": 1} for i in range(1, 4)]
OPTIONS = {"seats": [{"seat": f"s{i}", "name": ""} for i in range(1, 5)], "deck": DECK}


class Connection:
    """One session and what it was sent."""

    def __init__(self, hub: Hub, clock: Clock, role: str, **claims: str) -> None:
        self.frames: list[bytes] = []
        self.session = Session(
            hub=hub,
            signer=TokenSigner(SECRET),
            clock=clock,
            send=self.frames.append,
            close=lambda code, reason: None,
            config=NetConfig(),
        )
        self.session.opened()
        token = TokenSigner(SECRET).issue(role, now=T0, **claims)[0]
        self.say("hello", id=1, token=token)

    def say(self, kind: str, **fields) -> None:
        self.session.frame_received(encode({"type": kind, **fields}), True)

    def messages(self) -> list[dict]:
        out = [decode(frame) for frame in self.frames]
        self.frames.clear()
        return out

    def presences(self) -> list[tuple[list[str], bool, int]]:
        return [
            (m["seats"], m["proctor"], m["watchers"])
            for m in self.messages()
            if m["type"] == "presence"
        ]


def make_table():
    """A hub with table t1, and its clock."""
    clock = Clock()
    clock.advance(T0)
    hub = Hub(open_store("memory:", clock=clock.seconds), clock)
    director = Connection(hub, clock, "director")
    director.say("create_table", id=2, table="t1", options=OPTIONS)
    return hub, clock


class PresenceCase(ShellTestCase):
    """Table t1 on a hub of its own, and that hub's clock (`table`)."""

    def setUp(self):
        super().setUp()
        self.table = make_table()


class PresenceTests(PresenceCase):
    def test_presence_follows_joins_leaves_and_dropped_connections_and_is_never_logged(self):
        table = self.table
        hub, clock = table
        proctor = Connection(hub, clock, "proctor", table="t1")
        proctor.say("join", id=2, table="t1", presence=True)
        kinds = [m["type"] for m in proctor.messages()]
        assert kinds == ["welcome", "snapshot", "presence"]  # right after the snapshot
        ada = Connection(hub, clock, "player", table="t1", seat="s1")
        ada.say("join", id=2, table="t1", presence=True)
        assert ada.presences() == [(["s1"], True, 0)]
        assert proctor.presences() == [(["s1"], True, 0)]  # pushed on the change
        # A second terminal of the same seat and a join that did not ask change nothing pushed
        # to Ada, except the watcher count.
        twin = Connection(hub, clock, "player", table="t1", seat="s1")
        twin.say("join", id=2, table="t1")
        assert [m["type"] for m in twin.messages()] == ["welcome", "snapshot"]
        assert ada.presences() == []
        watcher = Connection(hub, clock, "spectator", table="t1")
        watcher.say("join", id=2, table="t1")
        assert ada.presences() == [(["s1"], True, 1)]
        # Leaving, then a dropped connection: an empty seat shows.
        watcher.say("leave", id=3, table="t1")
        assert proctor.presences() == [(["s1"], True, 1), (["s1"], True, 0)]
        twin.session.connection_lost()
        ada.session.connection_lost()
        assert proctor.presences() == [([], True, 0)]
        assert [event.type for event in hub.actors["t1"].events] == ["TableCreated"]

    def test_a_rejoin_without_presence_stops_its_pushes(self):
        table = self.table
        hub, clock = table
        proctor = Connection(hub, clock, "proctor", table="t1")
        proctor.say("join", id=2, table="t1", presence=True)
        proctor.say("join", id=3, table="t1")
        proctor.messages()
        Connection(hub, clock, "player", table="t1", seat="s2").say("join", id=2, table="t1")
        assert proctor.presences() == []

    def test_presence_names_seats_counts_watchers_and_knows_runners(self):
        viewers = [
            Actor("player", "s3"),
            Actor("player", "s1"),
            Actor("player", "s3"),
            Actor("spectator", "w"),
            Actor("auditor", "a"),
            Actor("director", "d"),
        ]
        assert presence_of("t", viewers) == {
            "type": "presence",
            "table": "t",
            "seats": ["s1", "s3"],
            "proctor": True,
            "watchers": 2,
        }
        assert presence_of("t", [])["proctor"] is False
