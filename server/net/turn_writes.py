"""A reactor turn's writes to each socket, sent at the end of the turn by one `send` each.

What it keeps: the TCP transports written to since the last flush (each once) and the one
`callLater(0)` that flushes them.

Why (issue 32): Twisted's `write` buffers the bytes and registers the socket for writing
(`epoll_ctl`); the next poll reports it writable, the reactor dispatches its `doWrite`
(through its logging context wrappers), which sends and unregisters it (`epoll_ctl` again).
That is two system calls and a dispatch for every connection each turn that writes to it:
a command's pushes reach four players, so about five of each per command, a tenth of the
server's CPU per command. A socket's send buffer is nearly always empty here, so the flush
calls `doWrite` itself at the end of the turn: the same one `send` of everything the turn
wrote, without the registration. Only a socket whose buffer is full (a slow client) is
registered, by the flush, as Twisted would have done; and a transport that is closing, or
already registered, or not a plain TCP connection, is written the usual way.

The bytes go into the transport's own buffer (`_tempDataBuffer`, as `write` does, the
producer told when it is full), so they keep their order with every other write to it
(Autobahn's pings and closes), and `output_held` and the unread-output bound
(server/net/backpressure.py) see them as before.
"""

from __future__ import annotations

from typing import Any

from twisted.internet import tcp
from twisted.logger import Logger

log = Logger(namespace="t24.net")


class TurnWrites:
    """The writes of one reactor's turn (see the module doc)."""

    def __init__(self, reactor: Any) -> None:
        self.reactor = reactor
        self._dirty: list[tcp.Connection] = []
        self._call: Any = None

    @staticmethod
    def socket_of(transport: Any) -> tcp.Connection | None:
        """The TCP connection under a protocol's transport (the socket gate wraps it), or
        None when it is not one (a test's transport, TLS): then it is written directly."""
        raw = getattr(transport, "transport", transport)  # a ProtocolWrapper's
        return raw if type(raw) is tcp.Server else None

    def write(self, connection: tcp.Connection, data: bytes) -> None:
        """Buffer `data` on `connection`, sent at the end of this turn."""
        if (
            not connection.connected
            or connection.disconnecting
            or connection._writeDisconnected
            or connection._writeDisconnecting
        ):
            connection.write(data)
            return
        connection._tempDataBuffer.append(data)
        connection._tempDataLen += len(data)
        connection._maybePauseProducer()
        if not getattr(connection, "_t24_turn_dirty", False):
            connection._t24_turn_dirty = True  # type: ignore[attr-defined]
            self._dirty.append(connection)
            if self._call is None:
                self._call = self.reactor.callLater(0, self.flush)

    def flush(self) -> None:
        """Send what each socket was written this turn (see the module doc).

        Every socket's mark is cleared first: a socket left marked would never be flushed
        again (its later writes see the mark and schedule nothing), so one fault must not
        leave the rest of the list behind (it did: a socket closed within the turn raised,
        and every socket after it in the list stalled until it was closed)."""
        self._call = None
        dirty, self._dirty = self._dirty, []
        for connection in dirty:
            connection._t24_turn_dirty = False  # type: ignore[attr-defined]
        for connection in dirty:
            try:
                self._send(connection)
            except Exception:  # one socket's fault must not keep the others' bytes back
                log.failure("flushing a connection's output failed")
                if connection.connected and connection.fileno() != -1:
                    connection.startWriting()  # the reactor sends the rest, as it would

    @staticmethod
    def _send(connection: tcp.Connection) -> None:
        if not connection.connected:
            return  # lost within the turn (its socket is closed): nothing can be sent
        if connection.disconnecting:
            connection.startWriting()  # the reactor finishes what it does with it
            return
        if not connection._tempDataLen and len(connection.dataBuffer) == connection.offset:
            return  # sent already (the reactor's own doWrite came first)
        result = connection.doWrite()
        if result is not None or connection._tempDataLen or connection.dataBuffer:
            # an error (the reactor's next doWrite sees it and closes), or the kernel's
            # buffer is full: the reactor sends the rest when the socket is writable
            connection.startWriting()
