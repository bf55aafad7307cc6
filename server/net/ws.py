"""The Autobahn WebSocket endpoint: subprotocol `t24.v1`, binary frames, deliberate options.

What it keeps: the glue between Autobahn and a `Session` (one per connection), the set of
open sessions (for the connection gauge and for closing them all with 1001 on shutdown), and
every Autobahn option we rely on, set in one call (`transport_options`). Field notes:
Autobahn's defaults are unlimited payloads, no keep-alive, unlimited connections, and an
HTML status page; and `allowNullOrigin` is reset to False by *every* `setProtocolOptions`
call that omits it. So the options are one explicit map, applied once, and a unit test reads
them back from a built factory.

A client must offer the `t24.v1` subprotocol; a handshake without it is refused with HTTP
400 before any frame is read. So is a handshake whose `Origin` the origin policy refuses
(`allowed_origins`, `allow_null_origin`); a client that sends no `Origin` (not a browser) is
not subject to it. Autobahn matches each origin pattern against `scheme://host:port` with
the port always written (443 for https), so `origin_patterns` gives a pattern without a port
its scheme's default one: `https://play.example.org` means what an operator expects.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol
from autobahn.websocket.protocol import PreparedMessage
from autobahn.websocket.types import ConnectionDeny
from twisted.internet.interfaces import IDelayedCall
from twisted.logger import Logger

from protocol.messages import SUBPROTOCOL
from server import SERVER_HEADER
from server.metrics import Metrics
from server.net import masking
from server.net.backpressure import OutputBound
from server.net.links import LinkMaker
from server.net.rate_limits import NetConfig, TokenBucket
from server.net.session import CLOSE_GOING_AWAY, Session
from server.net.sockets import socket_of
from server.net.tokens import TokenSigner
from server.net.turn_writes import TurnWrites
from server.runtime.hub import Hub
from server.runtime.pushes import Push

log = Logger(namespace="t24.ws")

masking.install()  # client frames unmasked without a cffi masker each (server/net/masking.py)


@dataclass(frozen=True)
class TransportConfig:
    """The transport limits (docs/protocol.md, "Limits"); each maps to an Autobahn option."""

    max_connections: int = 5000
    open_handshake_timeout: float = 5.0
    close_handshake_timeout: float = 2.0
    auto_ping_interval: float = 20.0
    auto_ping_timeout: float = 10.0
    allowed_origins: tuple[str, ...] = ("*",)
    allow_null_origin: bool = True
    max_unread_bytes: int = 512 * 1024  # output held for a client that does not read
    server_rate_per_second: float = 20000.0  # requests/s of all connections together
    # the socket gate's (server/net/limits.py)
    max_connections_per_address: int = 1000
    abuse_cooldown: float = 5.0  # seconds an address is refused after an abuse close
    net: NetConfig = field(default_factory=NetConfig)


DEFAULT_PORTS = {"http": "80", "https": "443"}
_ENDS_WITH_PORT = re.compile(r":(\d+|\*)$")


def origin_patterns(origins: Sequence[str]) -> list[str]:
    """The `allowedOrigins` patterns Autobahn needs for the origins an operator writes.

    Why: Autobahn compares a pattern with `scheme://host:port`, the port always present, so
    `https://play.example.org` alone would refuse the very site it names. A pattern that ends
    in a port or in `*` is kept; any other gets its scheme's default port (80, 443), or any
    port (`:*`) when the scheme is another one or absent.
    """
    patterns = []
    for origin in origins:
        pattern = origin.rstrip("/")
        if pattern.endswith("*") or _ENDS_WITH_PORT.search(pattern):
            patterns.append(pattern)
            continue
        scheme, separator, _rest = pattern.partition("://")
        port = DEFAULT_PORTS.get(scheme.lower(), "*") if separator else "*"
        patterns.append(f"{pattern}:{port}")
    return patterns


def transport_options(config: TransportConfig) -> dict[str, Any]:
    """Every Autobahn server option we set, as one map (applied in a single call)."""
    max_bytes = config.net.limits.max_message_bytes
    return {
        "webStatus": False,  # no HTML page with the Autobahn version on a plain GET
        "maxFramePayloadSize": max_bytes,  # over it: close 1009
        "maxMessagePayloadSize": max_bytes,  # over it (fragmented): close 1009
        "autoFragmentSize": 0,
        "openHandshakeTimeout": config.open_handshake_timeout,
        "closeHandshakeTimeout": config.close_handshake_timeout,
        "autoPingInterval": config.auto_ping_interval,
        "autoPingTimeout": config.auto_ping_timeout,
        "autoPingSize": 12,
        "allowedOrigins": origin_patterns(config.allowed_origins),  # refused: HTTP 400
        "allowNullOrigin": config.allow_null_origin,  # reset by every call that omits it
        "maxConnections": config.max_connections,  # extra handshakes get HTTP 503
        "perMessageCompressionAccept": lambda offers: None,  # no compression bombs
        "utf8validateIncoming": False,  # text frames get `bad_encoding`, valid UTF-8 or not
        "failByDrop": False,
        "tcpNoDelay": True,
    }


class T24ServerProtocol(WebSocketServerProtocol):
    """One WebSocket connection: hands frames to its `Session`."""

    session: Session | None = None
    _output: OutputBound
    _socket: Any = None  # the TCP connection its frames are written to at the turn's end

    def onConnect(self, request: Any) -> str:
        if SUBPROTOCOL not in request.protocols:
            raise ConnectionDeny(
                ConnectionDeny.BAD_REQUEST, f"the {SUBPROTOCOL} subprotocol is required"
            )
        if self.factory.closing:
            raise ConnectionDeny(503, "the server is shutting down")
        return SUBPROTOCOL

    def onOpen(self) -> None:
        factory = self.factory
        self.session = Session(
            hub=factory.hub,
            signer=factory.signer,
            clock=factory.clock,
            send=self._send_frame,
            send_push=self._send_push,
            send_pushes=self._send_pushes,
            close=self._close,
            config=factory.config.net,
            metrics=factory.metrics,
            conn_id=next(factory.ids),
            peer=self.peer,
            budget=factory.budget,
            on_abuse=self._abuse,
            send_probe=self._send_probe,
            hold_reading=self._hold_reading,
            output_full=lambda: self._output.full,
            unread_limit=factory.config.max_unread_bytes,
            on_unread=self._unread_overflow,
            keepalive_interval=factory.config.auto_ping_interval,
            links=factory.links,
        )
        factory.sessions.add(self.session)
        self._output = OutputBound.install(
            self.transport, factory.config.max_unread_bytes, self._unread_overflow, self._drained
        )
        self._socket = TurnWrites.socket_of(self.transport)
        upgraded = getattr(self.transport, "upgraded", None)
        if callable(upgraded):  # the socket gate's opening deadline stops (server/net/limits.py)
            upgraded()
        self.session.opened()

    def _send_probe(self, payload: bytes) -> None:
        """A lag probe (server/net/lag.py): a WebSocket ping the client's stack answers."""
        if self.state == self.STATE_OPEN:
            self.sendPing(payload)

    def onAutoPong(
        self, ping_sent: int, ping_seq: int, pong_received: int, pong_rtt: int, payload: bytes
    ) -> None:
        """Autobahn's keep-alive ping was answered (its times in ns): a free lag sample for
        a connection that is not probed (issue 32, server/net/lag.py)."""
        if self.session is not None:
            self.session.keepalive_rtt((pong_received - ping_sent) // 1000)

    def onPong(self, payload: bytes) -> None:
        if self.session is not None:
            self.session.pong_received(payload)

    def _hold_reading(self, held: bool) -> None:
        """Stop (or resume) reading this connection for its rate limit: through the socket
        gate's reasons when there is one (server/net/limits.py), so each pause is released by
        its own cause."""
        hold = getattr(self.transport, "hold_reading", None)
        release = getattr(self.transport, "release_reading", None)
        if hold is not None and release is not None:
            hold("rate") if held else release("rate")
        elif held:
            socket_of(self).pauseProducing()
        else:
            socket_of(self).resumeProducing()

    def _abuse(self) -> None:
        penalize = getattr(self.transport, "penalize", None)
        if callable(penalize):  # the socket gate cools the address down (server/net/limits.py)
            penalize()

    def _drained(self) -> None:
        """The transport sent what it held: a catch-up being streamed goes on."""
        if self.session is not None:
            self.session.output.drained()

    def _unread_overflow(self, held: int) -> None:
        """The client has not read its output: drop the connection (a close frame would
        wait behind everything it did not read)."""
        log.info(
            "closing connection {conn} ({peer}): {held} bytes unread past the buffer",
            conn=self.session.conn_id if self.session else 0,
            peer=self.peer,
            held=held,
            event="unread_overflow",
        )
        if self.session is not None:
            self.session.closed = True  # nothing more is pushed into a connection going away
        socket_of(self).abortConnection()

    def _send_frame(self, frame: bytes) -> None:
        if self.state == self.STATE_OPEN:
            self._write_prepared(self.factory.prepareMessage(frame, isBinary=True), len(frame))

    def _send_push(self, push: Push) -> None:
        if self.state == self.STATE_OPEN:
            prepared = push.wire
            if prepared is None:  # the first subscriber frames it; the others reuse the bytes
                prepared = push.wire = self.factory.prepareMessage(push.frame, isBinary=True)
            socket = self._socket
            if socket is None or self._perMessageCompress is not None or self.send_queue:
                self._write_prepared(prepared, len(push.frame))
                return
            # `_write_prepared` and `_write` inline: this runs once per subscriber and event
            data = prepared.payloadHybi
            self.factory.turn_writes.write(socket, data)
            self._output.wrote(len(data))

    def _send_pushes(self, pushes: list[Push]) -> None:
        """A slice of a join's catch-up (server/net/output.py): each push framed once
        (shared, as live pushes are) and all of them written in one call. Why: a catch-up
        written push by push cost a write call each (docs/performance.md, "Soak")."""
        if self.state != self.STATE_OPEN or not pushes:
            return
        if self._perMessageCompress is not None or self.send_queue:
            for push in pushes:
                self._send_push(push)
            return
        framed = []
        for push in pushes:
            prepared = push.wire
            if prepared is None:
                prepared = push.wire = self.factory.prepareMessage(push.frame, isBinary=True)
            framed.append(prepared.payloadHybi)
        data = b"".join(framed)
        self._write(data)
        self._output.wrote(len(data))

    def _write_prepared(self, prepared: PreparedMessage, size: int) -> None:
        """Write one framed message: what `sendMessage` does, minus its per-call overhead.

        Why not `sendPreparedMessage`: its `sendData` formats debug-log arguments on every
        call, a third of the cost of a push (docs/performance.md, "Server load"). Without
        compression (refused, see `transport_options`) and with nothing in Autobahn's send
        queue (only chopped or synchronous sends use it, and we make none), it writes exactly
        these bytes to the transport, as here.

        No size limit here: `max_message_bytes` bounds what a client sends; what the server
        sends is bounded by the protocol itself (`list_tables` pages, refusal messages cut,
        views and events of bounded games), and the unread-output bound (`OutputBound`).
        """
        if self._perMessageCompress is None and not self.send_queue:
            self._write(prepared.payloadHybi)
        else:
            self.sendPreparedMessage(prepared)
        self._output.wrote(len(prepared.payloadHybi))

    def _write(self, data: bytes) -> None:
        """Frames to the socket: sent at the end of the reactor's turn, one `send` for all
        of the turn's (server/net/turn_writes.py), or written as usual when it is not a
        plain TCP connection."""
        if self._socket is not None:
            self.factory.turn_writes.write(self._socket, data)
        else:
            socket_of(self).write(data)

    def _close(self, code: int, reason: str) -> None:
        # `sendClose` only takes 1000 and 3000-4999; the codes we document (1001 going away,
        # 1008 policy) are the standard ones a server may send, so we frame them ourselves,
        # as Autobahn's own `_fail_connection` does.
        if self.state == self.STATE_OPEN:
            self.sendCloseFrame(code=code, reasonUtf8=reason.encode("utf-8")[:123], isReply=False)
            if code != CLOSE_GOING_AWAY:
                # A policy or internal close: nothing more is read from this client (a flood
                # would go on costing the reactor until the close handshake timed out); the
                # close frame is flushed, then the socket closes.
                socket = socket_of(self)
                if getattr(socket, "producer", None) is not None:
                    socket.unregisterProducer()
                socket.pauseProducing()
                socket.loseConnection()

    def dataReceived(self, data: bytes) -> None:
        # Autobahn's version formats the arguments of a debug log line on every read (the
        # line is dropped unless debug logging is on): 5 of the 21 us an incoming frame costs.
        self._dataReceived(data)

    def onMessageEnd(self) -> None:
        # Autobahn's version also fires its observer event "message", which builds a Deferred
        # per message whether or not anyone listens (another 5 us). Nobody listens here; if
        # someone ever does, Autobahn's own method runs (`_listeners`: None until then,
        # though Autobahn's annotation says a dict).
        if cast("dict[str, Any] | None", self._listeners) is not None:
            super().onMessageEnd()
            return
        if not self.failedByMe:
            self._onMessage(b"".join(self.message_data), self.message_is_binary)
        self.message_data = None  # type: ignore[assignment]  # as Autobahn's own; typed a list

    def onMessage(self, payload: bytes, isBinary: bool) -> None:
        if self.session is not None:
            self.session.frame_received(payload, isBinary)

    def onClose(self, wasClean: bool, code: int | None, reason: str | None) -> None:
        # Autobahn leaves its close-handshake timer pending when the socket goes first (its
        # `_connectionLost` cancels every other timer); found by trial's dirty-reactor check.
        # None once it fired (Autobahn resets it; its annotation says it is always None)
        pending = cast("IDelayedCall | None", self.closeHandshakeTimeoutCall)
        if pending is not None:
            pending.cancel()
        self.closeHandshakeTimeoutCall = None
        if self.session is not None:
            self.session.connection_lost()
            self.factory.sessions.discard(self.session)
            self.session = None


class T24WebSocketFactory(WebSocketServerFactory):
    """Builds `T24ServerProtocol`s sharing one hub, signer, clock and metrics."""

    protocol = T24ServerProtocol

    def __init__(
        self,
        *,
        hub: Hub,
        signer: TokenSigner,
        reactor: Any,
        config: TransportConfig | None = None,
        metrics: Metrics | None = None,
    ) -> None:
        super().__init__(protocols=[SUBPROTOCOL], server=SERVER_HEADER, reactor=reactor)
        self.hub = hub
        self.signer = signer
        self.clock = reactor
        self.config = config or TransportConfig()
        self.metrics = metrics or hub.metrics
        self.sessions: set[Session] = set()
        self.ids = itertools.count(1)
        self.closing = False
        self.turn_writes = TurnWrites(reactor)
        # the printed links (server/net/links.py): set once the server knows its public URL
        self.links: LinkMaker | None = None
        rate = self.config.server_rate_per_second
        self.budget = TokenBucket(rate, rate, reactor.seconds()) if rate > 0 else None
        self.setProtocolOptions(**transport_options(self.config))
        self.metrics.gauge(
            "t24_connections", "Open WebSocket connections.", lambda: len(self.sessions)
        )

    def close_all(self, code: int = CLOSE_GOING_AWAY, reason: str = "server shutting down") -> None:
        """Refuse new handshakes and close every open connection (1001 on shutdown)."""
        self.closing = True
        for session in list(self.sessions):
            session.close(code, reason)
