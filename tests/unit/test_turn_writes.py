"""server/net/turn_writes.py over real loopback sockets: a turn's writes reach every socket,
also when one of them is lost within the turn (issue 32's batched sends; found by the flood
test: a socket closed in the turn made the flush raise, and every socket after it in the
turn's list kept its mark and was never flushed again, a 6-7 s stall of another player)."""

from __future__ import annotations

from twisted.internet import defer, protocol, reactor, tcp
from twisted.internet.error import ConnectionDone
from twisted.python.failure import Failure
from twisted.trial import unittest

from server.net.turn_writes import TurnWrites


class Collect(protocol.Protocol):
    """The client's end: what it received, and a Deferred fired once `wanted` bytes came."""

    def __init__(self) -> None:
        self.received = b""
        self.wanted = 0
        self.arrived: defer.Deferred[bytes] | None = None

    def expect(self, size: int) -> defer.Deferred[bytes]:
        self.wanted, self.arrived = size, defer.Deferred()
        self._check()
        return self.arrived

    def dataReceived(self, data: bytes) -> None:
        self.received += data
        self._check()

    def _check(self) -> None:
        if self.arrived is not None and len(self.received) >= self.wanted:
            arrived, self.arrived = self.arrived, None
            arrived.callback(self.received)


class TurnWritesTests(unittest.TestCase):
    """Three real loopback connections: the server's ends in `servers`, the clients'
    collectors in `clients`, in the same order."""

    @defer.inlineCallbacks
    def setUp(self):  # type: ignore[no-untyped-def]
        self.servers: list[tcp.Server] = []
        servers = self.servers

        class Accept(protocol.Protocol):
            def connectionMade(self) -> None:
                servers.append(self.transport)

        self.port = reactor.listenTCP(
            0, protocol.Factory.forProtocol(Accept), interface="127.0.0.1"
        )
        self.addCleanup(self.port.stopListening)
        self.clients: list[Collect] = []
        for count in range(1, 4):
            client = Collect()
            creator = protocol.ClientCreator(reactor, lambda client=client: client)
            yield creator.connectTCP("127.0.0.1", self.port.getHost().port)
            yield self._until(lambda count=count: len(servers) == count)
            self.clients.append(client)

    def _until(self, condition) -> defer.Deferred[None]:  # type: ignore[no-untyped-def]
        """A Deferred fired once `condition()` holds, polled every millisecond (5 s bound)."""
        waited: defer.Deferred[None] = defer.Deferred()
        deadline = reactor.seconds() + 5

        def poll() -> None:
            if condition():
                waited.callback(None)
            elif reactor.seconds() > deadline:
                waited.errback(AssertionError("timed out"))
            else:
                reactor.callLater(0.001, poll)

        poll()
        return waited

    def tearDown(self) -> None:
        for server in self.servers:
            server.abortConnection()
        for client in self.clients:
            if client.transport is not None:
                client.transport.abortConnection()

    @defer.inlineCallbacks
    def test_every_socket_of_the_turn_gets_its_bytes_in_one_flush(self):  # type: ignore[no-untyped-def]
        writes = TurnWrites(reactor)
        for index, server in enumerate(self.servers):
            writes.write(server, b"turn %d" % index)
        for index, client in enumerate(self.clients):
            got = yield client.expect(6)
            self.assertEqual(got, b"turn %d" % index)

    @defer.inlineCallbacks
    def test_a_socket_lost_within_the_turn_holds_back_no_other(self):  # type: ignore[no-untyped-def]
        writes = TurnWrites(reactor)
        first, lost, last = self.servers
        writes.write(first, b"first")
        writes.write(lost, b"gone!")
        writes.write(last, b"last!")
        lost.connectionLost(Failure(ConnectionDone()))  # its socket closes before the flush
        self.assertEqual(lost.fileno(), -1)
        writes.flush()  # what the turn's callLater(0) runs
        self.assertEqual(self.flushLoggedErrors(), [])
        self.assertEqual((yield self.clients[0].expect(5)), b"first")
        self.assertEqual((yield self.clients[2].expect(5)), b"last!")
        # the next turn's writes to the survivors are flushed too (no mark left behind)
        writes.write(last, b" again")
        self.assertEqual((yield self.clients[2].expect(11)), b"last! again")
