"""The socket gate (server/net/limits.py, issue 18): counts, caps, the absolute opening
deadline, reading in slices, the abuse cool-down. Time from a `task.Clock`."""

from __future__ import annotations

from shell_testcase import ShellTestCase
from twisted.internet.address import IPv4Address
from twisted.internet.error import ConnectionDone
from twisted.internet.protocol import Factory, Protocol
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.python.failure import Failure

from server.net.limits import READ_SLICE, ConnectionGate


class Chunks(Protocol):
    """Keeps what the gate hands on, chunk by chunk."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []

    def dataReceived(self, data: bytes) -> None:  # noqa: N802 - Twisted's name
        self.chunks.append(data)


def gate(clock: Clock, **limits: float) -> ConnectionGate:
    settings = {"max_connections": 3, "max_per_address": 2, "handshake_timeout": 5.0}
    return ConnectionGate(Factory.forProtocol(Chunks), clock, **{**settings, **limits})


def accept(gate_: ConnectionGate, host: str) -> tuple[object, StringTransport]:
    protocol = gate_.buildProtocol(IPv4Address("TCP", host, 40000))
    transport = StringTransport()
    protocol.makeConnection(transport)
    return protocol, transport


class SocketGateTests(ShellTestCase):
    def test_input_is_handed_on_a_slice_per_reactor_turn_with_reading_paused_meanwhile(self):
        clock = Clock()
        connection, transport = accept(gate(clock), "10.0.0.1")
        connection.dataReceived(b"x" * (2 * READ_SLICE + 100))
        chunks = connection.wrappedProtocol.chunks
        assert [len(c) for c in chunks] == [READ_SLICE] and transport.producerState == "paused"
        clock.advance(0)  # the other connections had their turn
        clock.advance(0)
        assert [len(c) for c in chunks] == [READ_SLICE, READ_SLICE, 100]
        assert transport.producerState == "producing"

    def test_every_socket_counts_per_address_and_in_all_and_the_extra_get_503(self):
        clock = Clock()
        gate_ = gate(clock)
        accept(gate_, "10.0.0.1")
        accept(gate_, "10.0.0.1")
        _refused, wire = accept(gate_, "10.0.0.1")  # a third from one address
        assert wire.value().startswith(b"HTTP/1.1 503") and wire.disconnecting
        accept(gate_, "10.0.0.2")
        _refused, wire = accept(gate_, "10.0.0.3")  # a fourth in all
        assert wire.value().startswith(b"HTTP/1.1 503")
        assert gate_.refused == 2 and len(gate_.protocols) == 3

    def test_the_opening_deadline_is_absolute_and_ends_once_upgraded(self):
        clock = Clock()
        gate_ = gate(clock)
        slow, slow_wire = accept(gate_, "10.0.0.1")
        upgraded, upgraded_wire = accept(gate_, "10.0.0.2")
        upgraded.upgraded()
        for _ in range(9):  # a byte every half second resets no deadline
            clock.advance(0.5)
            slow.dataReceived(b"G")
        assert not slow_wire.disconnecting
        clock.advance(0.5)
        assert slow_wire.disconnecting and not upgraded_wire.disconnecting
        slow.connectionLost(Failure(ConnectionDone()))
        upgraded.connectionLost(Failure(ConnectionDone()))
        assert gate_.by_address == {} and clock.getDelayedCalls() == []

    def test_an_address_closed_for_abuse_is_refused_for_the_cooldown(self):
        clock = Clock()
        gate_ = gate(clock, abuse_cooldown=5.0)
        abuser, _wire = accept(gate_, "10.0.0.9")
        abuser.penalize()
        assert gate_.buildProtocol(IPv4Address("TCP", "10.0.0.9", 1)) is None  # closed at once
        assert gate_.buildProtocol(IPv4Address("TCP", "10.0.0.8", 1)) is not None
        clock.advance(5.0)
        assert gate_.buildProtocol(IPv4Address("TCP", "10.0.0.9", 1)) is not None


class Unsent(StringTransport):
    """A transport holding unsent output in Twisted's own buffers (abstract.FileDescriptor)."""

    def __init__(self) -> None:
        super().__init__()
        self.dataBuffer = b"x" * 1000
        self.offset = 100  # 100 bytes of dataBuffer were sent already
        self._tempDataBuffer = [b"y" * 50]
        self._tempDataLen = 50


class OutputHeldTests(ShellTestCase):
    def test_unsent_output_is_counted_and_dropped_when_the_socket_is_lost(self):
        """What `t24_output_buffered_bytes` reads: unsent bytes of every transport still in
        memory. A lost socket's are dropped at once, though its objects live on: a
        connection that never read gives its buffer back at its close (issue 18)."""
        gate_ = gate(Clock())
        connection = gate_.buildProtocol(IPv4Address("TCP", "10.0.0.1", 40000))
        transport = Unsent()
        connection.makeConnection(transport)
        other = gate_.buildProtocol(IPv4Address("TCP", "10.0.0.2", 40000))
        other.makeConnection(Unsent())
        assert gate_.buffered_output() == 2 * 950
        connection.connectionLost(Failure(ConnectionDone()))
        assert gate_.buffered_output() == 950  # the lost one's output is gone, not its object
        assert transport.dataBuffer == b"" and transport._tempDataBuffer == []
        kept = Unsent()  # had it been kept, it would still count while referenced
        gate_.transports.add(kept)
        assert gate_.buffered_output() == 2 * 950
