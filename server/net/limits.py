"""Limits at the socket, before HTTP or WebSocket parsing: what one source may take.

What it keeps: every accepted socket of the server's port (`ConnectionGate`, wrapping the
twisted.web `Site`), by peer address, and each one's opening deadline and unread input.

Why at the socket (issue 18, found by an adversarial run):
- `max_connections` counted only open WebSockets, so 300 half-open upgrades locked every
  legitimate client out at `ulimit -n 256`. The gate counts every accepted socket: past
  `max_connections` in all, or `max_connections_per_address` from one address, a new socket
  gets `HTTP 503` and is closed before anything is parsed.
- twisted.web's timeout is an idle timeout: an upgrade dripped one byte every 2 s never timed
  out (slowloris). The gate gives each socket an absolute deadline: a socket that is not an
  open WebSocket `open_handshake_timeout` seconds after it was accepted is dropped (plain
  HTTP requests, `/healthz` and `/metrics`, are served well within it).
- A connection closed for sustained rate-limit abuse (1008) would simply reconnect and start
  again: its address is refused at accept (the socket closed unread, the cheapest answer)
  for `abuse_cooldown` seconds. Behind a NAT that is everyone of the address, which is why
  the cool-down is short.
- One connection sending flat out handed the reactor 64 KiB of frames per read, thousands of
  requests in one turn, while every other table waited. The gate hands the protocol at most
  `READ_SLICE` bytes per reactor turn and stops reading the socket while a whole slice or
  more waits (a source's flood waits in its own kernel buffer, not in the others' latency).
  Less than a slice waiting (a command for the next turn) leaves the socket readable:
  stopping and restarting the reading cost two `epoll_ctl` calls each time (issue 32).
- Slices per connection were not enough: 40 connections from one address, each sending flat
  out, got 40 slices in every reactor turn, and another table's ping waited behind all of
  them (p99 ~1 s). The gate's turns are fair between *addresses*, not connections: each
  address gets a budget of `TURN_BUDGET` bytes (8 slices) per reactor turn, whatever number
  of connections it holds, handed on one slice per connection, round-robin between its
  connections with input waiting (those not served in the last turn first; the others wait
  unread). A source with 40 connections then costs another address's request at most 8
  slices of waiting (a source with one, one slice), not 40 (docs/performance.md, "Floods").
- Why a budget of bytes and not one slice per address (the first version): everyone behind
  one NAT address (a class, a tournament venue) was served one connection per reactor turn,
  so each command paid a whole reactor loop of its own and waited behind up to as many turns
  as the address had connections: 400 bots from 127.0.0.1 halved the server's commands/s
  (docs/performance.md, "One address, many connections"). A command is tens of bytes, so
  a class's commands of one poll fit in one turn's budget, while a flood's full slices are
  cut at 8 per turn. The budget is checked before each slice, so an address may overrun it
  by less than one slice.

Output held: the gate also knows every accepted socket's transport (`transports`, weakly:
open or closed, as long as it is in memory), so `buffered_output()` says how many bytes
written to them wait unsent (the gauge `t24_output_buffered_bytes`). When a socket is lost
its unsent output is dropped at once (`drop_output`): the peer will never get it, and a
client that never read (dropped past `max_unread_bytes`) must not keep its buffer alive
until the garbage collector finds the connection's cycles. A buffer still counted after
its connection closed is memory kept for nobody (the never-reading client's test).

Turns: the gate cannot see the reactor's turns, so it marks them itself. The first slice it
hands on schedules `callLater(0, _next_turn)`, which runs when the reactor has dispatched
the input of its current poll; `_next_turn` gives each address with input waiting its slices
of the new turn, then the poll that follows serves, as they are read, the connections not
served in this turn of the addresses with budget left.
"""

from __future__ import annotations

import resource
from collections import Counter, deque
from typing import Any, cast
from weakref import WeakSet

from twisted.internet.interfaces import IDelayedCall, IProtocol
from twisted.internet.protocol import Protocol, connectionDone
from twisted.logger import Logger
from twisted.protocols.policies import ProtocolWrapper, WrappingFactory
from twisted.python.failure import Failure

from server import SERVER_HEADER
from server.net.sockets import socket_of

READ_SLICE = 512  # bytes of one connection's input handed on per reactor turn, at most
TURN_BUDGET = 8 * READ_SLICE  # bytes of one address's input handed on per turn (about)
BUSY_RESPONSE = (
    b"HTTP/1.1 503 Service Unavailable\r\nServer: " + SERVER_HEADER.encode("ascii") + b"\r\n"
    b"Connection: close\r\n"
    b"Content-Type: text/plain; charset=utf-8\r\nContent-Length: 29\r\n\r\n"
    b"too many connections; retry\r\n"
)

log = Logger(namespace="t24.net")


RESERVED_DESCRIPTORS = 64  # the store, the log, the listening socket, the thread pool


def descriptors_short(max_connections: int) -> str | None:
    """Why `max_connections` cannot be reached, if the process's open-file limit is lower.

    Why it matters: past the limit, `accept` fails and every client is locked out, whatever
    the connection limits say (issue 18: 300 half-open sockets at `ulimit -n 256`).
    """
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or max_connections + RESERVED_DESCRIPTORS <= soft:
        return None
    return (
        f"max_connections is {max_connections} but the open-file limit is {soft}: raise it "
        f"(ulimit -n, systemd LimitNOFILE) to at least {max_connections + RESERVED_DESCRIPTORS}"
        f" or lower max_connections to {max(1, soft - RESERVED_DESCRIPTORS)}"
    )


class _Refused(Protocol):
    """A socket over a connection limit: a 503, then closed, nothing read."""

    def connectionMade(self) -> None:
        socket = socket_of(self)
        socket.write(BUSY_RESPONSE)
        socket.loseConnection()


class GatedConnection(ProtocolWrapper):
    """One accepted socket: counted, deadline-bound until it is a WebSocket, read in slices."""

    def __init__(self, factory: ConnectionGate, wrapped: Any, address: str) -> None:
        super().__init__(factory, wrapped)
        self.address = address
        self.gate = factory
        self._deadline: IDelayedCall | None = None
        self._pending = bytearray()
        self.queued = False  # waiting in the gate for its address's next turn
        self.turn = -1  # the gate's turn in which its last slice was handed on
        self._holds: set[str] = set()  # why reading is paused ("slice", "output")

    def makeConnection(self, transport: Any) -> None:
        self.gate.transports.add(transport)
        self._deadline = self.gate.clock.callLater(
            self.gate.handshake_timeout, self._handshake_late
        )
        super().makeConnection(transport)

    # -- the opening deadline ----------------------------------------------------------------

    def penalize(self) -> None:
        """This connection was closed for abuse: its address cools down (see module doc)."""
        self.gate.cool_down(self.address)

    def upgraded(self) -> None:
        """The WebSocket is open (called by server/net/ws.py): the deadline no longer runs."""
        if self._deadline is not None and self._deadline.active():
            self._deadline.cancel()
        self._deadline = None

    def _handshake_late(self) -> None:
        self._deadline = None
        log.debug("closing {peer}: no WebSocket within the handshake timeout", peer=self.address)
        socket_of(self).loseConnection()

    # -- reading in slices -------------------------------------------------------------------

    def hold_reading(self, why: str) -> None:
        """Stop reading the socket for `why` (each reason is released on its own)."""
        if not self._holds:
            socket_of(self).pauseProducing()
        self._holds.add(why)

    def release_reading(self, why: str) -> None:
        """Drop the reason `why`; reading resumes once no reason is left. Input that waited
        in the gate meanwhile is handed on first, in the address's next turns."""
        if why not in self._holds:
            return
        self._holds.discard(why)
        if cast("IProtocol | None", self.wrappedProtocol) is None:  # Twisted's, once lost
            return
        if not self._holds:
            socket_of(self).resumeProducing()
        if why != "slice" and self.has_input():
            self.gate.wake(self)

    def dataReceived(self, data: bytes) -> None:
        self._pending += data
        self.gate.offer(self)

    def pending(self) -> int:
        """Bytes received and not handed on yet."""
        return len(self._pending)

    def has_input(self) -> bool:
        """Whether input is waiting to be handed on now: the connection is still there and
        nothing but its turn holds it (not its rate limit, nor its unread output)."""
        return (
            bool(self._pending)
            and self.wrappedProtocol is not None
            and not self.disconnecting
            and self._holds <= {"slice"}
        )

    def feed_slice(self) -> int:
        """Hand the protocol the next `READ_SLICE` bytes (how many: the return); keep the
        socket unread while more is waiting (for its next turn), read it again once all is
        handed on."""
        if len(self._pending) <= READ_SLICE:  # the common case: a command or two, all of it
            chunk = bytes(self._pending)
            self._pending.clear()
        else:
            chunk = bytes(self._pending[:READ_SLICE])
            del self._pending[:READ_SLICE]
        self.wrappedProtocol.dataReceived(chunk)
        if len(self._pending) >= READ_SLICE:
            self.hold_reading("slice")  # held until less than a slice waits
        else:
            self.release_reading("slice")
        return len(chunk)

    def connectionLost(self, reason: Failure = connectionDone) -> None:
        if self._deadline is not None and self._deadline.active():
            self._deadline.cancel()
        self._deadline = None
        self._pending = bytearray()
        drop_output(self.transport)
        super().connectionLost(reason)


def output_held(transport: Any) -> int:
    """Bytes written to a Twisted transport and not sent yet (its write buffers)."""
    buffered = len(getattr(transport, "dataBuffer", b"")) - getattr(transport, "offset", 0)
    return buffered + getattr(transport, "_tempDataLen", 0)


def drop_output(transport: Any) -> None:
    """Forget a lost socket's unsent output (see module doc: nobody will read it)."""
    if hasattr(transport, "_tempDataBuffer"):
        transport.dataBuffer = b""
        transport.offset = 0
        transport._tempDataBuffer = []
        transport._tempDataLen = 0


class ConnectionGate(WrappingFactory[GatedConnection]):
    """Wraps the server's `Site`: counts and limits every accepted socket (see module doc)."""

    protocol = GatedConnection

    def __init__(
        self,
        wrapped: Any,
        clock: Any,
        *,
        max_connections: int,
        max_per_address: int,
        handshake_timeout: float,
        abuse_cooldown: float = 0.0,
    ) -> None:
        super().__init__(wrapped)
        self.clock = clock
        self.max_connections = max_connections
        self.max_per_address = max_per_address
        self.handshake_timeout = handshake_timeout
        self.by_address: Counter[str] = Counter()
        self.abuse_cooldown = abuse_cooldown
        self.cooling: dict[str, float] = {}  # address -> until when it is refused
        self.refused = 0
        self.noisy = False
        self.transports: WeakSet[Any] = WeakSet()  # every accepted socket's, while in memory
        # The fair turns (see module doc): the addresses served in this turn, and per address
        # its connections whose input waits for a later turn (each at most once).
        self._turn = 0  # counts the turns marked (`GatedConnection.turn`: its last slice's)
        self._spent: dict[str, int] = {}  # address -> bytes handed on in this turn
        self._waiting: dict[str, deque[GatedConnection]] = {}
        self._turn_call: IDelayedCall | None = None

    def buffered_output(self) -> int:
        """Bytes written to the sockets and not sent yet, over every transport still in
        memory, its connection open or closed (see module doc)."""
        return sum(output_held(transport) for transport in list(self.transports))

    # -- fair turns --------------------------------------------------------------------------

    def offer(self, connection: GatedConnection) -> None:
        """`connection` has new input: hand on a slice now if it has not had one in this turn,
        is not waiting in its address's queue and its address has budget left in this turn;
        otherwise it waits its turn (or, held for its rate or its output, until `wake`)."""
        if (
            connection.has_input()
            and not connection.queued
            and connection.turn != self._turn
            and self._spent.get(connection.address, 0) < TURN_BUDGET
        ):
            self._serve(connection)
        if connection.has_input():
            # Its socket is left readable while less than a slice waits (issue 32): a
            # command or two waiting for the next turn is the usual case behind one busy
            # address, and stopping and restarting the reading cost two `epoll_ctl` calls
            # each time; from a whole slice on (a flood) the input waits in the kernel.
            if connection.pending() >= READ_SLICE:
                connection.hold_reading("slice")
            self.wake(connection)
        elif connection.pending():
            connection.hold_reading("slice")  # held otherwise: woken when that ends

    def wake(self, connection: GatedConnection) -> None:
        """Queue `connection`'s waiting input for its address's next turns (new input over
        the turn's slice, or input that waited while a hold on it lasted)."""
        if connection.queued:
            return
        connection.queued = True
        self._waiting.setdefault(connection.address, deque()).append(connection)
        if self._turn_call is None:
            self._turn_call = self.clock.callLater(0, self._next_turn)

    def _serve(self, connection: GatedConnection) -> None:
        connection.turn = self._turn
        if self._turn_call is None:
            self._turn_call = self.clock.callLater(0, self._next_turn)
        address = connection.address
        self._spent[address] = self._spent.get(address, 0) + connection.feed_slice()

    def _next_turn(self) -> None:
        """A new reactor turn: each address with input waiting gets slices up to its budget,
        one per connection, round-robin between its connections (those not served in the
        last turn first)."""
        self._turn_call = None
        last = self._turn
        self._turn += 1
        self._spent = {}
        for address, queue in list(self._waiting.items()):
            # Those served in the last turn (or queued after its slice) come after the
            # others: set aside as they come up, served once the others are, if the budget
            # lasts, and kept in order at the end of the queue if not. O(served), not a sort
            # of the whole queue every turn (1,000 connections behind one address: issue 32).
            again: list[GatedConnection] = []
            budget_left = True
            for _ in range(len(queue)):  # one pass: a connection served queues again behind
                if self._spent.get(address, 0) >= TURN_BUDGET:
                    budget_left = False
                    break
                connection = queue.popleft()
                if connection.turn == last:
                    again.append(connection)
                    continue
                self._serve_queued(connection, queue)
            while again and budget_left and self._spent.get(address, 0) < TURN_BUDGET:
                self._serve_queued(again.pop(0), queue)
            queue.extend(again)
            if not queue:
                del self._waiting[address]

    def _serve_queued(self, connection: GatedConnection, queue: deque[GatedConnection]) -> None:
        """Hand a queued connection its slice; it queues again at the end if more waits."""
        if not connection.has_input():
            connection.queued = False  # gone, or held (`wake` queues it again)
            return
        self._serve(connection)
        if connection.has_input():
            queue.append(connection)  # its next slice after the address's others
        else:
            connection.queued = False

    def stopFactory(self) -> None:
        """The port stopped listening: no turn is marked any more."""
        if self._turn_call is not None and self._turn_call.active():
            self._turn_call.cancel()
        self._turn_call = None
        self._waiting.clear()
        super().stopFactory()

    def cool_down(self, address: str) -> None:
        """Refuse new sockets from `address` for `abuse_cooldown` seconds."""
        if self.abuse_cooldown > 0:
            self.cooling[address] = self.clock.seconds() + self.abuse_cooldown
            log.info(
                "address {address} refused for {seconds} s after an abuse close",
                address=address,
                seconds=self.abuse_cooldown,
                event="abuse_cooldown",
            )

    def buildProtocol(self, addr: Any) -> Any:
        address = getattr(addr, "host", str(addr))
        until = self.cooling.get(address)
        if until is not None:
            if self.clock.seconds() < until:
                self.refused += 1
                return None  # closed at once, nothing read nor written
            del self.cooling[address]
        over_all = 0 < self.max_connections <= len(self.protocols)
        over_one = 0 < self.max_per_address <= self.by_address[address]
        if over_all or over_one:
            self.refused += 1
            refused = _Refused()
            refused.factory = self
            return refused
        wrapped = self.wrappedFactory.buildProtocol(addr)
        if wrapped is None:
            return None
        return self.protocol(self, wrapped, address)

    def registerProtocol(self, p: Any) -> None:
        super().registerProtocol(p)
        self.by_address[p.address] += 1

    def unregisterProtocol(self, p: Any) -> None:
        super().unregisterProtocol(p)
        self.by_address[p.address] -= 1
        if self.by_address[p.address] <= 0:
            del self.by_address[p.address]
