"""The server-wide request budget (`server_rate_per_second`, issue 18), driven by a task.Clock.

The budget is one token bucket the WebSocket factory builds (server/net/ws.py) and every
connection's session spends from (server/net/session.py): many connections, each within its
own limit, are together held to it. A request it cannot pay for is answered `rate_limited`
("the server is busy"); the connection is neither paused nor struck, unlike one over its own
limit. tests/e2e/test_server_budget.py shows the same against a real server process.
"""

from __future__ import annotations

from test_net import _OPENED, NetCase, client_frame, server_frame
from twisted.internet.testing import StringTransport

from protocol.codec import decode, encode
from server.net.rate_limits import NetConfig
from server.net.tokens import TokenSigner
from server.net.ws import T24WebSocketFactory, TransportConfig

SECRET = b"s" * 32
BUSY = {"type": "error", "code": "rate_limited", "message": "the server is busy; retry shortly"}
OWN_LIMIT = {"type": "error", "code": "rate_limited", "message": "too many requests; slow down"}


def opened(factory: T24WebSocketFactory) -> tuple[object, StringTransport]:
    """A connection of `factory` through a real opening handshake, on a StringTransport."""
    protocol = factory.buildProtocol(None)
    transport = StringTransport()
    protocol.makeConnection(transport)
    protocol.dataReceived(
        b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        b"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: t24.v1\r\n\r\n"
    )
    assert protocol.state == protocol.STATE_OPEN
    transport.clear()
    _OPENED.append(protocol)  # closed after the test (NetCase's cleanup)
    return protocol, transport


def ping(connection: tuple[object, StringTransport], request_id: int) -> dict:
    """Send a ping on `connection`; the one message the server wrote back."""
    protocol, transport = connection
    transport.clear()
    protocol.dataReceived(client_frame({"type": "ping", "id": request_id}))
    written = transport.value()
    message = decode(written[2:])  # a short binary frame: 2 bytes of header (RFC 6455)
    assert written == server_frame(encode(message))  # exactly one frame, nothing else
    return message


class ServerBudgetTests(NetCase):
    def factory(self, rate: float, **net: float) -> T24WebSocketFactory:
        config = TransportConfig(server_rate_per_second=rate, net=NetConfig(**net))
        return T24WebSocketFactory(
            hub=self.hub, signer=TokenSigner(SECRET), reactor=self.clock, config=config
        )

    def test_connections_within_their_limits_share_the_budget_and_busy_is_no_strike(self):
        factory = self.factory(3, rate_per_second=50, rate_burst=100, abuse_strikes=2)
        first, second = opened(factory), opened(factory)
        # capacity: one second's worth (3), spent by the first connection
        for n in range(3):
            assert ping(first, n) == {"type": "pong", "id": n}
        # the second is far within its own limit, and still refused: the server is busy
        for n in range(10):  # more refusals than its abuse strikes (2): no close, no pause
            assert ping(second, n) == {**BUSY, "id": n}
        for protocol, transport in (first, second):
            assert protocol.state == protocol.STATE_OPEN
            assert transport.producerState == "producing"
        self.clock.advance(0.34)  # refilled at the rate: one request, for whoever asks first
        assert ping(second, 10) == {"type": "pong", "id": 10}
        assert ping(first, 3) == {**BUSY, "id": 3}
        self.clock.advance(5)  # never more than one second's worth (5 s: before hello_timeout)
        replies = [ping(first, n) for n in range(4, 8)]
        assert replies[:3] == [{"type": "pong", "id": n} for n in range(4, 7)]
        assert replies[3] == {**BUSY, "id": 7}

    def test_over_its_own_limit_a_connection_is_paused_the_budget_untouched(self):
        """The contrast: the per-connection refusal pauses reading; it costs no budget."""
        factory = self.factory(100, rate_per_second=1, rate_burst=1, abuse_strikes=50)
        first, second = opened(factory), opened(factory)
        assert ping(first, 1) == {"type": "pong", "id": 1}
        assert ping(first, 2) == {**OWN_LIMIT, "id": 2}
        assert first[1].producerState == "paused"
        assert factory.budget is not None and factory.budget.tokens == 99
        assert ping(second, 1) == {"type": "pong", "id": 1}
        self.clock.advance(0.25)  # the pause ends (RATE_LIMITED_PAUSE)
        assert first[1].producerState == "producing"

    def test_a_budget_of_zero_is_no_budget(self):
        factory = self.factory(0, rate_per_second=1000, rate_burst=1000)
        assert factory.budget is None
        connection = opened(factory)
        for n in range(500):
            assert ping(connection, n) == {"type": "pong", "id": n}
