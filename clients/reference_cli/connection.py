"""One client connection to a t24 server that survives drops: hello, join, requests, pushes.

What it keeps (`TableLink`): the URL and token, the `protocol.client.ClientSession` (request
ids, and the last seq seen per table, which outlives every single connection), the requests
waiting for a reply, and the reconnect schedule (`Backoff`). It uses only `protocol/` and
Autobahn on Twisted: never the server's code, so it is the reference any client is checked
against.

Theory of operation:
1. `start()` connects; on open it sends `hello`; on `welcome` it joins the table (the one
   given, else the token's). The first join asks for `after_seq=0`, so the catch-up pushes
   bring the whole history (the feed, the table's timings); every later join, after a
   reconnect, asks for `after_seq=<last seq seen>` and receives exactly what it missed
   (docs/protocol.md, "Reconnect and resume"). A push whose seq is not the next one
   (`SequenceGap`) drops the connection, and the resume fills the gap.
2. A drop (server restart, network, close 1001) fails the waiting requests with `LinkLost`
   (the server may or may not have applied them: the pushes after the resume tell) and
   schedules a reconnect after `Backoff.next_delay()`: 0.25 s, 0.5 s, 1 s ... capped at 8 s,
   with jitter so that a room full of clients does not reconnect in lock-step. A snapshot
   resets the backoff.
   A `moved` reply (another node serves the table) sets the URL to the one it names and
   reconnects there the same way (docs/protocol.md, `moved`); a request answered `moved`
   was not applied, so it is sent again there once the link is up, and its caller gets the
   new node's reply. When that node cannot be reached any more (it died: its tables fail
   over to another node), the link goes back to the URL it was given, which answers `moved`
   to the new owner, or takes the table itself.
3. Refusals that no retry can cure (a forged or expired token, a table that does not exist,
   a role that may not join) end the link: `link_fatal` lets the command exit with code 3.
   With `retries=N` the link also gives up after N reconnect attempts in a row (code 4).

The listener gets `link_status(text)`, `link_welcome(msg)`, `link_snapshot(msg, after_seq)`,
`link_event(msg)` and `link_fatal(code, message)`, always on the reactor thread.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from autobahn.twisted.websocket import (
    WebSocketClientFactory,
    WebSocketClientProtocol,
    connectWS,
)
from twisted.internet.defer import Deferred, fail, succeed
from twisted.internet.interfaces import IDelayedCall
from twisted.logger import Logger

from clients.reference_cli.words import COMMON, language, refusal_sentence
from protocol.client import ClientSession, SequenceGap
from protocol.codec import CodecError
from protocol.messages import SUBPROTOCOL, ProtocolError
from protocol.words import FALLBACK

# Codes after which reconnecting cannot help: the command exits with code 3.
FATAL_CODES = frozenset({"unauthorized", "forbidden", "unknown_table"})
CLOSE_NORMAL = 1000

log = Logger(namespace="t24.client")


class ServerRefused(Exception):
    """The server answered a request with `error`: its code, its words, the rule it cites."""

    def __init__(self, code: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rule = rule

    def words(self) -> str:
        """The refusal as a person reads it: `the pattern came after 3 s (too_late, R-PLAY-4)`."""
        cite = (
            f"{self.code}, {self.rule}"
            if self.rule and self.rule not in self.message
            else self.code
        )
        return f"{self.message} ({cite})"


class LinkLost(Exception):
    """The connection dropped before the reply came; the request may or may not have applied."""

    def words(self) -> str:
        return COMMON.say("link.lost")


class NotConnected(Exception):
    """A request while no connection is up (the link is reconnecting)."""

    def words(self) -> str:
        return COMMON.say("link.not_connected")


def refusal_words(error: BaseException, table: Mapping[str, Any] | None = None) -> str:
    """Any request failure in words (never a traceback): a refusal in the game's words
    (`table`, its part's `words`: `refusal.<code>`), else the protocol's, else the server's
    message, citing the rule (`words.refusal_sentence`); a lost link as `words()` says it."""
    if isinstance(error, ServerRefused):
        return refusal_sentence(table or {}, error.code, error.message, error.rule)
    words = getattr(error, "words", None)
    return words() if callable(words) else COMMON.say("link.request_failed", error=error)


def refused_detail(code: str, message: str) -> str:
    """Why the server refused, for a person: its own message in English (it names what is
    wrong), else the catalogue's sentence for the code (`common` `refusal.<code>`)."""
    if language() == FALLBACK:
        return message
    return refusal_sentence(COMMON, code, message)


def director_refusal(error: ServerRefused, table: Mapping[str, Any] | None = None) -> str:
    """A refusal of a director's one-shot command (`t24 admin`, `t24 tournament`): the code
    always (the director looks it up in docs/protocol.md); in English the server's own
    message beside it, which names the row, option or step at fault (as the web pages add
    it on an English page only), else the catalogue's sentence for the code."""
    if language() == FALLBACK:
        return error.words()
    sentence = refusal_sentence(table or {}, error.code, error.message, error.rule)
    return COMMON.say("refused.with_code", words=sentence, code=error.code)


@dataclass
class Backoff:
    """Reconnect delays: `initial * factor**n` capped at `maximum`, each +/- `jitter` share."""

    initial: float = 0.25
    factor: float = 2.0
    maximum: float = 8.0
    jitter: float = 0.2
    failures: int = 0

    def next_delay(self, rand: float) -> float:
        """The delay before the next attempt (`rand` in [0, 1)); counts one failure."""
        base = min(self.maximum, self.initial * self.factor**self.failures)
        self.failures += 1
        return base * (1 - self.jitter + 2 * self.jitter * rand)

    def reset(self) -> None:
        """A connection succeeded (a snapshot arrived): start again from `initial`."""
        self.failures = 0


class LinkListener(Protocol):
    """What a `TableLink` tells its owner (see module doc)."""

    def link_status(self, status: str) -> None: ...

    def link_welcome(self, welcome: dict[str, Any]) -> None: ...

    def link_snapshot(self, snapshot: dict[str, Any], after_seq: int | None) -> None: ...

    def link_event(self, push: dict[str, Any]) -> None: ...

    def link_presence(self, presence: dict[str, Any]) -> None:
        """Who is connected to the table (only for a link made with `presence=True`)."""

    def link_fatal(self, code: str, message: str) -> None: ...


class _Protocol(WebSocketClientProtocol):
    """Autobahn's callbacks, handed to the factory's `TableLink`."""

    def onOpen(self) -> None:  # noqa: N802 - Autobahn's name
        self.factory.link._opened(self)

    def onMessage(self, payload: bytes, isBinary: bool) -> None:  # noqa: N802, N803
        self.factory.link._frame(self, payload, isBinary)

    def onClose(self, wasClean: bool, code: int | None, reason: str | None) -> None:  # noqa: N802, N803
        self.factory.link._closed(self, code, reason)


class _Factory(WebSocketClientFactory):
    protocol = _Protocol
    link: TableLink

    def clientConnectionFailed(self, connector: Any, reason: Any) -> None:  # noqa: N802
        self.link._failed(reason.getErrorMessage())


# Seconds a ping waits for its pong. A person's terminal notices a dead connection soon. A
# process that plays many seats on one reactor (`t24 tournament simulate`, the tournament's
# bots) waits longer (BUSY_PING_TIMEOUT): when its reactor is held by its own work for longer
# than the timeout on a loaded machine, the timeout's timer runs before the pong that came
# meanwhile is read, and a live connection was closed as dead (1006, "ping timeout"; seen at
# load 30 in the suite).
PING_TIMEOUT = 5.0
BUSY_PING_TIMEOUT = 60.0


def autobahn_connect(link: TableLink) -> None:
    """Open one WebSocket connection for `link` (the default `connector`)."""
    factory = _Factory(link.url, protocols=[SUBPROTOCOL], reactor=link.reactor)
    factory.setProtocolOptions(
        openHandshakeTimeout=link.connect_timeout,
        autoPingInterval=10,  # a silently dead connection is noticed within ~15 s
        autoPingTimeout=link.ping_timeout,
    )
    factory.link = link
    connectWS(factory, timeout=link.connect_timeout)


def close_then_stop(link: TableLink | None, reactor: Any) -> None:
    """Say goodbye to the server (close the link), then stop the reactor.

    Why wait for the close: the server learns the client left on purpose (a clean close, not
    a dropped connection it would keep the seat's subscription open for).
    """

    def stop_reactor(_: Any = None) -> None:
        if reactor.running:
            reactor.stop()

    if link is None:
        stop_reactor()
    else:
        link.close().addBoth(stop_reactor)


class TableLink:
    """A self-healing connection for one token (and one table when `join`); see module doc."""

    def __init__(
        self,
        url: str,
        token: str,
        *,
        reactor: Any,
        listener: LinkListener,
        table: str | None = None,
        join: bool = True,
        history: bool = True,
        presence: bool = False,
        backoff: Backoff | None = None,
        retries: int | None = None,
        connect_timeout: float = 5.0,
        ping_timeout: float = PING_TIMEOUT,
        rand: Callable[[], float] = random.random,
        connector: Callable[[TableLink], None] = autobahn_connect,
    ) -> None:
        self.url = url
        self.home_url = url  # the URL given: where the link returns when a `moved` node is gone
        self.token = token
        self.reactor = reactor
        self.listener = listener
        self.table = table
        self.join = join
        self.history = history
        self.presence = presence  # ask for `presence` pushes (who is connected)
        self.backoff = backoff or Backoff()
        self.retries = retries
        self.connect_timeout = connect_timeout
        self.ping_timeout = ping_timeout
        self.rand = rand
        self.connector = connector
        self.session = ClientSession()
        self.proto: Any = None
        self.welcome: dict[str, Any] | None = None
        self.joined = False
        self.stopping = False
        self.finished = False
        self._waiting: dict[int, Deferred] = {}
        self._requests: dict[int, tuple[str, dict[str, Any]]] = {}  # id -> what was asked
        self._moved: list[tuple[str, dict[str, Any], Deferred]] = []  # to ask the new node
        self._hello_id: int | None = None
        self._join_id: int | None = None
        self._join_after: int | None = None
        self._reconnect: IDelayedCall | None = None
        self._closed_waiters: list[Deferred] = []

    # -- life cycle --------------------------------------------------------------------------

    def start(self) -> None:
        """Connect (and keep reconnecting until `close` or a fatal refusal)."""
        self._reconnect = None
        if self.stopping or self.finished:
            return
        self.listener.link_status("connecting")
        self.connector(self)

    def close(self) -> Deferred:
        """Say goodbye (close 1000) and stop reconnecting; fires once the socket is closed."""
        self.stopping = True
        if self._reconnect is not None and self._reconnect.active():
            self._reconnect.cancel()
        self._reconnect = None
        if self.proto is None:
            return succeed(None)
        waiter: Deferred = Deferred()
        self._closed_waiters.append(waiter)
        self.proto.sendClose(CLOSE_NORMAL)
        # A server that never answers the close handshake must not hang the client.
        timeout = self.reactor.callLater(2.0, self._force_closed)
        waiter.addBoth(lambda result: (timeout.active() and timeout.cancel(), result)[1])
        return waiter

    def _force_closed(self) -> None:
        if self.proto is not None:
            self.proto.dropConnection(abort=True)
        self._fire_closed()

    def _fire_closed(self) -> None:
        waiters, self._closed_waiters = self._closed_waiters, []
        for waiter in waiters:
            if not waiter.called:
                waiter.callback(None)

    def _fatal(self, code: str, message: str) -> None:
        self.finished = True
        self._fail_moved(message)
        if self.proto is not None:
            self.proto.sendClose(CLOSE_NORMAL)
        self.listener.link_fatal(code, message)

    # -- transport events --------------------------------------------------------------------

    def _opened(self, proto: Any) -> None:
        self.proto = proto
        self.welcome = None
        self.joined = False
        self.listener.link_status("authenticating")
        self._hello_id = self._send("hello", token=self.token)

    def _failed(self, why: str) -> None:
        if self.url != self.home_url:  # the node a `moved` named is gone: ask the given URL
            self.listener.link_status(
                COMMON.say("status.back_home", url=self.url, home=self.home_url)
            )
            self.url = self.home_url
        self._lost(f"cannot connect: {why}", COMMON.say("status.cannot_connect", url=self.url))

    def _closed(self, proto: Any, code: int | None, reason: str | None) -> None:
        if proto is not self.proto and self.proto is not None:
            return  # an older connection's late close
        self.proto = None
        if code:
            why = f"connection closed ({code}{': ' + reason if reason else ''})"
            self._lost(why, COMMON.say("status.disconnected", code=code))
        else:
            self._lost("no answer", COMMON.say("status.no_answer"))

    def _lost(self, why: str, short: str = "") -> None:
        """The connection is gone: fail the waiting requests, then reconnect (or give up).
        `why` is the whole story (errors, logs), `short` what the status line shows."""
        self.proto = None
        self.welcome = None
        self.joined = False
        waiting, self._waiting = self._waiting, {}
        self._requests.clear()
        self.session.pending.clear()
        for deferred in waiting.values():
            deferred.errback(LinkLost(why))
        if self.stopping or self.finished:
            self._fail_moved(why)
            self._fire_closed()
            return
        if self.retries is not None and self.backoff.failures >= self.retries:
            self.finished = True
            self._fail_moved(why)
            # the whole story is English (the network's own words): said as it is in
            # English, else the status line's words in the language (docs/translating.md)
            spoken = short if short and language() != FALLBACK else f"{self.url}: {why}"
            self.listener.link_fatal("unreachable", spoken)
            return
        delay = self.backoff.next_delay(self.rand())
        log.info("link lost: {why}", why=why)
        self.listener.link_status(
            COMMON.say("status.reconnecting", why=short or why, seconds=f"{delay:.1f}")
        )
        self._reconnect = self.reactor.callLater(delay, self.start)

    # -- frames ------------------------------------------------------------------------------

    def _send(self, kind: str, **fields: Any) -> int:
        request_id, frame = self.session.request(kind, **fields)
        self.proto.sendMessage(frame, isBinary=True)
        return request_id

    def _frame(self, proto: Any, payload: bytes, is_binary: bool) -> None:
        if proto is not self.proto:
            return
        try:
            message = self.session.receive(payload)
        except SequenceGap as gap:
            # Resume from the last seq we hold: the server resends what is missing.
            self.listener.link_status(COMMON.say("status.resuming", gap=gap))
            proto.dropConnection(abort=True)
            return
        except CodecError as error:
            self.listener.link_status(COMMON.say("status.unreadable", code=error.code))
            return
        kind = message.get("type")
        request_id = message.get("id")
        if kind == "event":
            self.listener.link_event(message)
        elif kind == "presence":
            if self.presence:
                self.listener.link_presence(message)
        elif request_id is not None and request_id == self._hello_id:
            self._hello_reply(message)
        elif request_id is not None and request_id == self._join_id:
            self._join_reply(message)
        elif request_id in self._waiting:
            deferred = self._waiting.pop(request_id)
            asked = self._requests.pop(request_id)
            if kind == "moved":  # not applied here: ask the node that serves the table
                self._moved.append((*asked, deferred))
                self._move(message)
            elif kind == "error":
                error = ServerRefused(message["code"], message["message"], message.get("rule"))
                deferred.errback(error)
            else:
                deferred.callback(message)
        elif kind == "error":
            code = str(message.get("code"))
            why = refused_detail(code, str(message.get("message")))
            self.listener.link_status(COMMON.say("status.server_error", why=why, code=code))

    def _hello_reply(self, message: dict[str, Any]) -> None:
        self._hello_id = None
        if message.get("type") == "error":
            code = message["code"]
            why = refused_detail(code, message["message"])
            self._fatal(code, COMMON.say("status.token_refused", why=why))
            return
        self.welcome = message
        self.listener.link_welcome(message)
        if not self.join:
            self.backoff.reset()
            self.listener.link_status("connected")
            self._resend_moved()
            return
        self.table = self.table or message.get("table")
        if not self.table:
            self._fatal("no_table", COMMON.say("status.no_table"))
            return
        self._send_join()

    def _send_join(self) -> None:
        after = self.session.last_seq.get(self.table)
        if after is None and self.history:
            after = 0
        self._join_after = after
        extra = {"presence": True} if self.presence else {}
        self._join_id = self._send("join", table=self.table, after_seq=after, **extra)

    def _move(self, message: dict[str, Any]) -> None:
        """Follow a `moved` reply: reconnect to the node that serves the table, same token;
        the join there resumes with `after_seq` (no gap, no duplicate)."""
        self.url = message["url"]
        self.listener.link_status(COMMON.say("status.moving", table=message["table"], url=self.url))
        if self.proto is not None:
            self.proto.dropConnection(abort=True)

    def _join_reply(self, message: dict[str, Any]) -> None:
        self._join_id = None
        if message.get("type") == "moved":
            self._move(message)
            return
        if message.get("type") == "error":
            code = message["code"]
            if code == "bad_seq":  # the log is shorter than what we saw: start over
                self.session.last_seq.pop(self.table, None)
                self.listener.link_status(COMMON.say("status.rejoining"))
                self._send_join()
            elif code in FATAL_CODES:
                why = refusal_sentence(COMMON, code, message["message"])
                self._fatal(code, COMMON.say("status.cannot_join", table=self.table, why=why))
            else:
                why = refusal_sentence(COMMON, code, message["message"])
                self.listener.link_status(COMMON.say("status.join_refused", why=why, code=code))
                if self.proto is not None:
                    self.proto.dropConnection(abort=True)
            return
        self.joined = True
        self.backoff.reset()
        self.listener.link_snapshot(message, self._join_after)
        self.listener.link_status("connected")
        self._resend_moved()

    def _resend_moved(self) -> None:
        """Ask the node the link moved to what the previous one answered `moved` to."""
        moved, self._moved = self._moved, []
        for kind, fields, deferred in moved:
            if not self.ready:  # dropped again meanwhile: the next connection asks
                self._moved.append((kind, fields, deferred))
                continue
            request_id = self._send(kind, **fields)
            self._waiting[request_id] = deferred
            self._requests[request_id] = (kind, fields)

    def _fail_moved(self, why: str) -> None:
        moved, self._moved = self._moved, []
        for _kind, _fields, deferred in moved:
            deferred.errback(LinkLost(why))

    # -- requests ----------------------------------------------------------------------------

    @property
    def ready(self) -> bool:
        """Connected and authenticated (and joined, for a table link)."""
        return (
            self.proto is not None and self.welcome is not None and (self.joined or not self.join)
        )

    def request(self, kind: str, **fields: Any) -> Deferred:
        """Send one request; the Deferred fires with the reply, or fails with `ServerRefused`,
        `LinkLost` or `NotConnected`."""
        if not self.ready:
            return fail(NotConnected())
        try:
            request_id = self._send(kind, **fields)
        except ProtocolError as error:
            return fail(ServerRefused(error.code, error.message))
        deferred: Deferred = Deferred()
        self._waiting[request_id] = deferred
        self._requests[request_id] = (kind, fields)
        return deferred

    def command(self, name: str, args: dict[str, Any] | None = None) -> Deferred:
        """A game command at the joined table (docs/rules.md lists them)."""
        return self.request("command", table=self.table, name=name, args=args or {})
