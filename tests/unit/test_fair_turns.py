"""Fair reading under floods (issue 18): the socket gate's turns are per address, and a
connection over its rate limit is not read for a while (server/net/limits.py,
server/net/session.py). Time from a `task.Clock`; `one_turn` runs one reactor turn's timed
calls (`advance(0)` would also run the calls they schedule at the same time: all turns).
"""

from __future__ import annotations

from shell_testcase import ShellTestCase
from twisted.internet.address import IPv4Address
from twisted.internet.error import ConnectionDone
from twisted.internet.protocol import Factory, Protocol
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.python.failure import Failure

from protocol.codec import encode
from server.eventlog.store import open_store
from server.net.limits import READ_SLICE, ConnectionGate, GatedConnection
from server.net.rate_limits import NetConfig
from server.net.session import RATE_LIMITED_PAUSE, Session
from server.net.tokens import TokenSigner
from server.runtime.hub import Hub

FULL = b"x" * READ_SLICE


class Chunks(Protocol):
    """Keeps what the gate hands on (one shared list: the order across connections)."""

    def __init__(self, name: str, log: list[tuple[str, int]]) -> None:
        self.name = name
        self.log = log

    def dataReceived(self, data: bytes) -> None:  # noqa: N802 - Twisted's name
        self.log.append((self.name, len(data)))


class Named(Factory):
    def __init__(self, log: list[tuple[str, int]]) -> None:
        self.log = log
        self.count = 0

    def buildProtocol(self, addr):  # noqa: N802 - Twisted's name
        self.count += 1
        return Chunks(f"{addr.host}#{self.count}", self.log)


def one_turn(clock: Clock) -> None:
    """Run the calls due now, not those they schedule (a reactor runs them next turn)."""
    due = [call for call in clock.getDelayedCalls() if call.getTime() <= clock.seconds()]
    for call in due:
        clock.calls.remove(call)
        call.called = 1
        call.func(*call.args, **call.kw)


def setup() -> tuple[Clock, ConnectionGate, list[tuple[str, int]]]:
    clock = Clock()
    log: list[tuple[str, int]] = []
    gate = ConnectionGate(
        Named(log), clock, max_connections=100, max_per_address=100, handshake_timeout=60.0
    )
    return clock, gate, log


def accept(gate: ConnectionGate, host: str) -> tuple[GatedConnection, StringTransport]:
    connection = gate.buildProtocol(IPv4Address("TCP", host, 40000))
    transport = StringTransport()
    connection.makeConnection(transport)
    connection.upgraded()  # an open WebSocket: no opening deadline pending
    return connection, transport


class Wire:
    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.holds: list[bool] = []

    def send(self, frame: bytes) -> None:
        self.frames.append(frame)

    def close(self, code: int, reason: str) -> None:
        pass

    def hold(self, held: bool) -> None:
        self.holds.append(held)


class FairTurnsTests(ShellTestCase):
    """The socket gate's turns and the rate pause (module doc)."""

    def test_an_address_gets_one_slice_per_turn_whatever_its_number_of_connections(self):
        clock, gate, log = setup()
        flood = [accept(gate, "10.0.0.9") for _ in range(3)]
        prober, _ = accept(gate, "10.0.0.1")
        for connection, _transport in flood:
            connection.dataReceived(FULL * 2)  # the same poll: all three are readable
        prober.dataReceived(b"ping")
        # the flooding address had its one slice; the prober's, read after it, went straight on
        assert log == [("10.0.0.9#1", READ_SLICE), ("10.0.0.1#4", 4)]
        assert all(transport.producerState == "paused" for _c, transport in flood)
        log.clear()
        one_turn(clock)
        assert log == [("10.0.0.9#2", READ_SLICE)]  # the next turn: the address's next connection
        one_turn(clock)
        one_turn(clock)
        one_turn(clock)
        assert [name for name, _ in log] == ["10.0.0.9#2", "10.0.0.9#3", "10.0.0.9#1", "10.0.0.9#2"]
        for _ in range(5):
            one_turn(clock)
        assert sum(size for _, size in log) == 5 * READ_SLICE  # all six slices, one per turn
        assert all(transport.producerState == "producing" for _c, transport in flood)
        assert clock.getDelayedCalls() == []  # no turn is marked when nothing waits

    def test_a_connection_held_for_its_rate_waits_and_is_served_once_released(self):
        clock, gate, log = setup()
        connection, transport = accept(gate, "10.0.0.9")
        connection.dataReceived(FULL * 2)
        connection.hold_reading("rate")  # as the session does after a rate_limited drop
        for _ in range(3):
            one_turn(clock)
        assert log == [("10.0.0.9#1", READ_SLICE)] and transport.producerState == "paused"
        connection.release_reading("rate")
        assert transport.producerState == "paused"  # its waiting input first
        one_turn(clock)
        assert log[-1] == ("10.0.0.9#1", READ_SLICE) and len(log) == 2
        assert transport.producerState == "producing"

    def test_a_connection_gone_while_waiting_is_dropped_from_its_turns(self):
        clock, gate, log = setup()
        first, _ = accept(gate, "10.0.0.9")
        second, _ = accept(gate, "10.0.0.9")
        first.dataReceived(FULL * 3)
        second.dataReceived(FULL)
        second.connectionLost(Failure(ConnectionDone()))
        for _ in range(4):
            one_turn(clock)
        assert [name for name, _ in log] == ["10.0.0.9#1", "10.0.0.9#1", "10.0.0.9#1"]
        first.connectionLost(Failure(ConnectionDone()))
        assert gate.by_address == {} and clock.getDelayedCalls() == []

    def test_a_rate_limited_drop_stops_reading_the_connection_for_a_while(self):
        clock = Clock()
        wire = Wire()
        session = Session(
            hub=Hub(open_store("memory:", clock=clock.seconds), clock),
            signer=TokenSigner(b"s" * 32),
            clock=clock,
            send=wire.send,
            close=wire.close,
            config=NetConfig(rate_per_second=1, rate_burst=2, abuse_strikes=50),
            hold_reading=wire.hold,
        )
        session.opened()
        for n in range(4):  # frames of one slice: already read, each answered
            session.frame_received(encode({"type": "ping", "id": n}), True)
        assert len(wire.frames) == 4 and wire.holds == [True]  # held once, not per drop
        clock.advance(RATE_LIMITED_PAUSE - 0.01)
        assert wire.holds == [True]
        clock.advance(0.01)
        assert wire.holds == [True, False]
        session.frame_received(encode({"type": "ping", "id": 9}), True)  # refused again: held
        assert wire.holds == [True, False, True]
        session.connection_lost()
        assert clock.getDelayedCalls() == []  # the pause's timer ends with the connection
