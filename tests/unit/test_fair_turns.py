"""Fair reading under floods (issue 18): the socket gate's turns are per address, and a
connection over its rate limit is not read for a while (server/net/limits.py,
server/net/session.py). Time from a `task.Clock`; `one_turn` runs one reactor turn's timed
calls (`advance(0)` would also run the calls they schedule at the same time: all turns).
"""

from __future__ import annotations

from collections import Counter

from shell_testcase import ShellTestCase
from twisted.internet.address import IPv4Address
from twisted.internet.error import ConnectionDone
from twisted.internet.protocol import Factory, Protocol
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.python.failure import Failure

from protocol.codec import encode
from server.eventlog.backends import open_store
from server.net.limits import READ_SLICE, TURN_BUDGET, ConnectionGate, GatedConnection
from server.net.rate_limits import NetConfig
from server.net.session import RATE_LIMITED_PAUSE, Session
from server.net.tokens import TokenSigner
from server.runtime.hub import Hub

FULL = b"x" * READ_SLICE
SLICES = TURN_BUDGET // READ_SLICE  # full slices of one address per turn (K)


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
        Named(log), clock, max_connections=200, max_per_address=200, handshake_timeout=60.0
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

    def test_an_address_gets_its_budget_per_turn_whatever_its_number_of_connections(self):
        clock, gate, log = setup()
        flood = [accept(gate, "10.0.0.9") for _ in range(SLICES + 2)]
        prober, _ = accept(gate, "10.0.0.1")
        for connection, _transport in flood:
            connection.dataReceived(FULL * 2)  # the same poll: all of them are readable
        prober.dataReceived(b"ping")
        # the flooding address had its budget; the prober's, read after it, went straight on
        assert log == [(f"10.0.0.9#{n}", READ_SLICE) for n in range(1, SLICES + 1)] + [
            (f"10.0.0.1#{SLICES + 3}", 4)
        ]
        assert all(transport.producerState == "paused" for _c, transport in flood)
        turns = []
        for _ in range(4):
            log.clear()
            one_turn(clock)
            turns.append([int(name.split("#")[1]) for name, _ in log])
        # round-robin, one slice per connection per turn: those not served in the last turn
        # first, then the others in their order; all 2 * (SLICES + 2) slices in ceil(.. / SLICES)
        assert turns == [
            [SLICES + 1, SLICES + 2, *range(1, SLICES - 1)],
            [SLICES - 1, SLICES, SLICES + 1, SLICES + 2],
            [],
            [],
        ]
        assert all(transport.producerState == "producing" for _c, transport in flood)
        assert clock.getDelayedCalls() == []  # no turn is marked when nothing waits

    def test_a_command_waiting_for_its_turn_leaves_its_socket_readable(self):
        """Issue 32: behind a busy address a command or two wait for the next turn; their
        sockets stay readable (pausing and resuming cost two epoll_ctl calls each), and only
        a whole slice waiting pauses one (a flood: the test above)."""
        clock, gate, log = setup()
        busy = [accept(gate, "10.0.0.9") for _ in range(SLICES)]
        for connection, _transport in busy:
            connection.dataReceived(FULL)  # the address's budget of this turn
        waiting, transport = accept(gate, "10.0.0.9")
        waiting.dataReceived(b"c" * 60)  # a command over the budget: waits for the next turn
        assert len(log) == SLICES and transport.producerState == "producing"
        waiting.dataReceived(b"c" * 60)  # more of it read meanwhile, still less than a slice
        one_turn(clock)
        assert log[-1] == (f"10.0.0.9#{SLICES + 1}", 120)
        assert transport.producerState == "producing"

    def test_n_connections_of_one_address_are_served_in_ceil_n_over_k_turns(self):
        for n in (1, SLICES - 1, SLICES, SLICES + 1, 5 * SLICES, 5 * SLICES + 3):
            clock, gate, log = setup()
            connections = [accept(gate, "10.0.0.9") for _ in range(n)]
            for connection, _transport in connections:
                connection.dataReceived(FULL)
            per_turn = [len(log)]  # the poll that read them is the first turn
            while clock.getDelayedCalls():
                log.clear()
                one_turn(clock)
                per_turn.append(len(log))
            served = [count for count in per_turn if count]
            assert len(served) == -(-n // SLICES), (n, per_turn)
            assert all(count <= SLICES for count in served) and sum(served) == n

    def test_a_class_behind_one_address_has_its_small_commands_read_in_one_turn(self):
        """The budget is in bytes: a school's students behind one NAT address, each with a
        command of 40 bytes waiting, are all served in the poll that read them."""
        clock, gate, log = setup()
        count = -(-TURN_BUDGET // 40)  # served while the address has spent under its budget
        for _ in range(count):
            connection, _transport = accept(gate, "10.0.0.9")
            connection.dataReceived(b"c" * 40)
        assert len(log) == count
        late, _ = accept(gate, "10.0.0.9")
        late.dataReceived(b"c" * 40)  # over the budget of this turn: the next
        assert len(log) == count
        one_turn(clock)
        assert len(log) == count + 1 and log[-1][0] == f"10.0.0.9#{count + 1}"

    def test_another_address_gets_its_slice_every_turn_while_one_address_floods(self):
        clock, gate, log = setup()
        flood = [accept(gate, "10.0.0.9") for _ in range(40)]
        prober, _ = accept(gate, "10.0.0.1")
        for connection, _transport in flood:
            connection.dataReceived(FULL * 50)
        served: list[str] = []
        for turn in range(20):
            if turn:  # (the first turn's flood slices were handed on as they were read)
                log.clear()
                one_turn(clock)  # the flood's waiting slices, then the poll
            prober.dataReceived(b"ping%d" % turn)
            flooded = [name for name, _ in log if name.startswith("10.0.0.9#")]
            assert len(flooded) <= SLICES  # the flood's slices before the ping: the budget
            assert log[-1] == ("10.0.0.1#41", len(b"ping%d" % turn))  # served this turn
            served += flooded
        counts = Counter(served)  # round-robin: each flooding connection as often as the next
        assert len(counts) == 40 and set(counts.values()) == {20 * SLICES // 40}

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
        others = [accept(gate, "10.0.0.9")[0] for _ in range(SLICES - 1)]
        for other in others:  # the address's budget of this turn, with `first`'s slice
            other.dataReceived(FULL)
        second, _ = accept(gate, "10.0.0.9")
        first.dataReceived(FULL * 3)
        second.dataReceived(FULL)  # over the budget: waits for the next turn
        log.clear()
        second.connectionLost(Failure(ConnectionDone()))
        for _ in range(4):
            one_turn(clock)
        assert [name for name, _ in log] == ["10.0.0.9#1", "10.0.0.9#1"]
        for connection in [first, *others]:
            connection.connectionLost(Failure(ConnectionDone()))
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
