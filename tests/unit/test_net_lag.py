"""Lag probes on a session (issue 19): a player's connection is probed with a WebSocket
ping, its pongs give the estimate, each command to a table that judges by lag carries it, the
proctor sees it in `presence`, and /metrics counts it. Issue 32: once a second only while the
player has joined such a table (`touch_compensation`); otherwise a few probes after hello,
then the transport's keep-alive pings. Driven by a `task.Clock`: no socket, no sleep."""

from __future__ import annotations

from shell_testcase import ShellTestCase
from twisted.internet.task import Clock

from protocol.codec import decode, encode
from server.eventlog.backends import open_store
from server.games.base import Command
from server.metrics import Metrics
from server.net.lag import (
    INITIAL_PROBES,
    KEEPALIVE_STALE_INTERVALS,
    PROBE_INTERVAL_S,
    STALE_AFTER_US,
    probe_number,
)
from server.net.session import Session
from server.net.tokens import TokenSigner
from server.runtime.hub import Hub

T0 = 1_700_000_000.0
SECRET = b"s" * 32
DECK = [{"card_id": i, "numbers": [1, 2, 3, 4], "dots": 1} for i in range(1, 4)]
OPTIONS = {"seats": [{"seat": f"s{i}", "name": ""} for i in range(1, 4)], "deck": DECK}
COMPENSATED = {**OPTIONS, "touch_compensation": True}
KEEPALIVE_S = 20.0  # the transport's keep-alive interval the sessions here are told of


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
        keepalive_interval=KEEPALIVE_S,
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
            measures_lag = True  # a table that judges by lag (touch_compensation)

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


def create(hub: Hub, clock: Clock, table: str, options: dict) -> None:
    director, wire = connect(hub, clock, "director")
    director.frame_received(
        encode({"type": "create_table", "id": 2, "table": table, "options": options}), True
    )
    assert wire.frames[-1]["type"] == "table_created", wire.frames[-1]


def join(session: Session, table: str, request_id: int = 2) -> None:
    session.frame_received(encode({"type": "join", "id": request_id, "table": table}), True)


class ProbedWhereJudgedTests(LagCase):
    """Issue 32: the probes once a second cost a ping and a pong per player and second; they
    are kept for the tables whose verdicts use them."""

    def answer_all(self, session: Session, wire: Wire, seconds: float, rtt: float) -> None:
        """Run the clock `seconds`, the client answering each probe after `rtt`."""
        answered = len(wire.pings)
        for _ in range(int(seconds / 0.01)):
            self.clock.advance(0.01)
            while answered < len(wire.pings):
                self.clock.advance(rtt)
                session.pong_received(wire.pings[answered])
                answered += 1

    def test_a_player_of_a_table_without_compensation_gets_a_few_probes_then_keep_alives(self):
        hub, clock = self.hub, self.clock
        create(hub, clock, "t1", OPTIONS)
        player, wire = connect(hub, clock, "player", table="t1", seat="s1")
        join(player, "t1")
        self.answer_all(player, wire, 30, 0.040)
        assert len(wire.pings) == INITIAL_PROBES  # then nothing more of its own
        now = int(clock.seconds() * 1e6)
        assert player.lag.estimate(now).delay_us == 20_000  # still fresh: keep-alive staleness
        # the keep-alive pings (every KEEPALIVE_S) keep the proctor's column current
        for _ in range(4):
            clock.advance(KEEPALIVE_S)
            player.keepalive_rtt(60_000)
        now = int(clock.seconds() * 1e6)
        assert player.lag.estimate(now).samples == INITIAL_PROBES + 4
        assert player.lag.estimate(now).delay_us == 20_000 + 10_000  # floor 20, jitter 10
        assert len(wire.pings) == INITIAL_PROBES
        # without a keep-alive pong for KEEPALIVE_STALE_INTERVALS intervals: stale
        clock.advance(KEEPALIVE_STALE_INTERVALS * KEEPALIVE_S + 1)
        assert player.lag.estimate(int(clock.seconds() * 1e6)).delay_us is None

    def test_its_commands_carry_no_delay_and_are_not_counted_as_lagged(self):
        hub, clock = self.hub, self.clock
        create(hub, clock, "t1", OPTIONS)
        player, wire = connect(hub, clock, "player", table="t1", seat="s1")
        join(player, "t1")
        self.answer_all(player, wire, 3, 0.040)
        captured: list[Command] = []
        actor = hub.actors["t1"]
        real_submit = actor.submit

        def submit(command, arrival, causation=""):
            captured.append(command)
            return real_submit(command, arrival, causation)

        actor.submit = submit  # type: ignore[method-assign]
        player.frame_received(
            encode({"type": "command", "id": 3, "table": "t1", "name": "touch_card"}), True
        )
        assert captured[0].delay_us is None
        assert hub.metrics.value("t24_lag_delay_seconds_count") == 0
        assert hub.metrics.value("t24_lag_stale_commands_total") == 0

    def test_a_player_of_a_compensated_table_is_probed_every_second_while_joined(self):
        hub, clock = self.hub, self.clock
        create(hub, clock, "t1", COMPENSATED)
        player, wire = connect(hub, clock, "player", table="t1", seat="s1")
        self.answer_all(player, wire, 10, 0.040)
        assert len(wire.pings) == INITIAL_PROBES  # before its join: the first probes only
        join(player, "t1")
        self.answer_all(player, wire, 10.005, 0.040)
        assert len(wire.pings) == INITIAL_PROBES + 11  # at once, then once a second
        assert hub.actors["t1"].measures_lag
        # a keep-alive's RTT is not mixed into a probed connection's estimate
        samples = player.lag.estimate(int(clock.seconds() * 1e6)).samples
        player.keepalive_rtt(500_000)
        assert player.lag.estimate(int(clock.seconds() * 1e6)).samples == samples
        # its estimate is judged stale after STALE_AFTER_US, not the keep-alive's staleness
        later = int(clock.seconds() * 1e6) + STALE_AFTER_US + 1
        assert player.delay_for_command(later) is None
        player.frame_received(encode({"type": "leave", "id": 3, "table": "t1"}), True)
        self.answer_all(player, wire, 10, 0.040)
        assert len(wire.pings) == INITIAL_PROBES + 12  # the tick after the leave is the last
