"""Lag probes on a session (issue 19): a player's connection is probed once a second with a
WebSocket ping, its pongs give the estimate, each command carries it, the proctor sees it in
`presence`, and /metrics counts it. Driven by a `task.Clock`: no socket, no sleep."""

from __future__ import annotations

from shell_testcase import ShellTestCase
from twisted.internet.task import Clock

from protocol.codec import decode, encode
from server.eventlog.backends import open_store
from server.games.base import Command
from server.metrics import Metrics
from server.net.lag import PROBE_INTERVAL_S, STALE_AFTER_US, probe_number
from server.net.session import Session
from server.net.tokens import TokenSigner
from server.runtime.hub import Hub

T0 = 1_700_000_000.0
SECRET = b"s" * 32
DECK = [{"card_id": i, "numbers": [1, 2, 3, 4], "dots": 1} for i in range(1, 4)]
OPTIONS = {"seats": [{"seat": f"s{i}", "name": ""} for i in range(1, 4)], "deck": DECK}


def make_clock() -> Clock:
    c = Clock()
    c.advance(T0)
    return c


def make_hub(clock: Clock) -> Hub:
    return Hub(open_store("memory:", clock=clock.seconds), clock, metrics=Metrics())


class LagCase(ShellTestCase):
    """A hub (with metrics) on the memory store, driven by a task.Clock at T0."""

    def setUp(self):
        super().setUp()
        self.clock = make_clock()
        self.hub = make_hub(self.clock)


class Wire:
    def __init__(self) -> None:
        self.frames: list[dict] = []
        self.pings: list[bytes] = []
        self.closed: list[tuple[int, str]] = []

    def send(self, frame: bytes) -> None:
        self.frames.append(decode(frame))

    def close(self, code: int, reason: str) -> None:
        self.closed.append((code, reason))


def connect(hub: Hub, clock: Clock, role: str, **claims: str) -> tuple[Session, Wire]:
    wire = Wire()
    session = Session(
        hub=hub,
        signer=TokenSigner(SECRET),
        clock=clock,
        send=wire.send,
        close=wire.close,
        send_probe=wire.pings.append,
    )
    session.opened()
    token = TokenSigner(SECRET).issue(role, now=clock.seconds(), **claims)[0]
    session.frame_received(encode({"type": "hello", "id": 1, "token": token}), True)
    return session, wire


def answer_after(session: Session, wire: Wire, clock: Clock, seconds: float) -> None:
    """The client's stack answers the newest probe `seconds` after it was sent."""
    clock.advance(seconds)
    session.pong_received(wire.pings[-1])


class LagTests(LagCase):
    def test_a_player_is_probed_once_a_second_and_its_commands_carry_the_estimate(self):
        hub, clock = self.hub, self.clock
        player, wire = connect(hub, clock, "player", table="t1", seat="s1")
        clock.advance(0)
        assert [probe_number(p) for p in wire.pings] == [1]
        answer_after(player, wire, clock, 0.060)
        clock.advance(PROBE_INTERVAL_S - 0.060)
        assert len(wire.pings) == 2
        answer_after(player, wire, clock, 0.080)
        # half the minimum RTT (30 ms) + half (median 60 - min 60) = 30 ms
        assert player.lag.estimate(int(clock.seconds() * 1e6)).delay_us == 30_000
        captured: list[Command] = []

        class Table:
            def submit(self, command, arrival, causation):
                from twisted.internet.defer import Deferred

                captured.append(command)
                return Deferred()

        hub.actors["t1"] = Table()  # type: ignore[assignment]
        player.frame_received(
            encode({"type": "command", "id": 2, "table": "t1", "name": "touch_card", "args": {}}),
            True,
        )
        assert captured[0].delay_us == 30_000 and captured[0].actor.id == "s1"
        assert hub.metrics.value("t24_lag_rtt_seconds_count") == 2
        assert hub.metrics.value("t24_lag_delay_seconds_count") == 1

    def test_a_stale_estimate_gives_a_command_no_delay(self):
        hub, clock = self.hub, self.clock
        player, wire = connect(hub, clock, "player", table="t1", seat="s1")
        clock.advance(0)
        answer_after(player, wire, clock, 0.02)
        clock.advance(1)
        answer_after(player, wire, clock, 0.02)
        assert player.delay_for_command(int(clock.seconds() * 1e6)) == 10_000
        later = int(clock.seconds() * 1e6) + STALE_AFTER_US + 1  # the client stopped answering
        assert player.delay_for_command(later) is None
        assert hub.metrics.value("t24_lag_stale_commands_total") == 1

    def test_other_roles_are_not_probed_and_get_no_delay(self):
        hub, clock = self.hub, self.clock
        proctor, wire = connect(hub, clock, "proctor", table="t1")
        clock.advance(5)
        assert wire.pings == []
        assert proctor.delay_for_command(int(clock.seconds() * 1e6)) is None

    def test_probing_stops_with_the_connection(self):
        hub, clock = self.hub, self.clock
        player, wire = connect(hub, clock, "player", table="t1", seat="s1")
        clock.advance(0)
        player.connection_lost()
        clock.advance(10)
        assert len(wire.pings) == 1  # no probe after the connection is gone

    def test_the_proctor_sees_each_seats_lag_in_presence(self):
        hub, clock = self.hub, self.clock
        director, _ = connect(hub, clock, "director")
        director.frame_received(
            encode({"type": "create_table", "id": 2, "table": "t1", "options": OPTIONS}), True
        )
        proctor, proctor_wire = connect(hub, clock, "proctor", table="t1")
        proctor.frame_received(
            encode({"type": "join", "id": 2, "table": "t1", "presence": True}), True
        )
        player, wire = connect(hub, clock, "player", table="t1", seat="s1")
        player.frame_received(encode({"type": "join", "id": 2, "table": "t1"}), True)
        clock.advance(0)
        answer_after(player, wire, clock, 0.04)
        clock.advance(1)
        answer_after(player, wire, clock, 0.04)
        pushes = [m for m in proctor_wire.frames if m["type"] == "presence"]
        assert pushes[-1]["seats"] == ["s1"]
        assert pushes[-1]["lag"]["s1"] == {
            "delay_ms": 20,
            "jitter_ms": 0,
            "samples": 2,
            "stale": False,
        }
        count = len(pushes)
        clock.advance(1)
        answer_after(player, wire, clock, 0.041)  # a 1 ms wobble: no new presence push
        assert len([m for m in proctor_wire.frames if m["type"] == "presence"]) == count
