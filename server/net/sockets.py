"""The socket under a connection's protocol, as the network layer drives it.

Why: Twisted types a protocol's `transport` as an `ITransport | None`, which names neither
the producer calls (`pauseProducing`, `resumeProducing`, `unregisterProducer`) nor
`abortConnection`; the TCP transports (and the socket gate's wrapper, server/net/limits.py)
have them all. `socket_of` says so once, for a protocol that is connected (a transport is set
by `makeConnection`, before any of these calls).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

if TYPE_CHECKING:
    from twisted.internet.protocol import Protocol as TwistedProtocol

__all__ = ["Socket", "socket_of"]


class Socket(Protocol):
    """What the network layer calls on a connection's transport."""

    def write(self, data: bytes) -> None:
        """Queue `data` for sending."""
        ...

    def loseConnection(self) -> None:
        """Close once what is queued is sent."""
        ...

    def abortConnection(self) -> None:
        """Close now, dropping what is queued."""
        ...

    def pauseProducing(self) -> None:
        """Stop reading the socket."""
        ...

    def resumeProducing(self) -> None:
        """Read the socket again."""
        ...

    def unregisterProducer(self) -> None:
        """Drop the producer registered on the transport."""
        ...


def socket_of(protocol: TwistedProtocol) -> Socket:
    """The transport of a connected `protocol` (see the module doc)."""
    return cast(Socket, protocol.transport)
