"""One connection's protocol session: authentication, limits, requests and pushes.

What it keeps: who the connection is (the verified token's `Claims`), the tables it joined,
its rate-limit buckets and its hello deadline. It knows nothing of sockets: the transport
(server/net/ws.py) hands it frames and gives it `send(frame)` and `close(code, reason)`, so
the unit tests drive it with a `task.Clock` and plain lists.

Theory of operation, per frame (the order is deliberate):
1. The arrival time is taken first: it is the `now` of a game command (R-PLAY-2: arrival
   order and time decide who touched first), whatever happens after.
2. Text frames, bad msgpack and maps that fail the message table get an `error` with the
   documented code; the connection stays open, nothing reaches a table.
3. Rate limit: a token bucket (`rate_per_second`, `rate_burst`). A request over the limit is
   dropped with `rate_limited`; every such drop takes a token from a second, slower bucket,
   and when that one is empty the connection is closed with 1008 (sustained abuse). After
   a drop the connection is not read for `RATE_LIMITED_PAUSE` seconds (`hold_reading`): a
   client over its limit waits in its own socket buffer instead of costing the server a
   decode and a reply for each frame it floods (docs/performance.md, "Floods").
   Then the server-wide budget (`budget`, one bucket shared by every connection): a request
   it cannot pay for gets `rate_limited` "the server is busy", without a pause or a strike,
   as the connection is within its own limit (tests/unit/test_server_budget.py).
4. Before `hello` only `hello` and `ping` are served; a connection that has not said hello
   within `hello_timeout` seconds is closed with 1008.
5. The role check (`MessageSpec.roles`) and the table binding of the token come next
   (`forbidden` / `unauthorized`); the game's own rules come last, in `decide`.

Replies are sent in the order the work completes; each names its request `id`. A command's
event pushes are sent before its `accepted` (publication happens when the append is durable,
the reply after that). Everything goes out through `output` (server/net/output.py), which
streams a join's catch-up as the transport drains and keeps what is sent meanwhile behind
it, in order.

Faults (an exception nobody expected: a bug, an input the checks missed) never escape into
Autobahn, which would drop the TCP connection without a word. Each handler computes first and
commits last (sets the claims, subscribes, submits), so:
- a fault while serving a request, before its effect, is logged with its traceback (server
  side only) and answered `internal`; the connection stays open and nothing was written;
- a fault after the effect (the reply or a push could not be built or sent) leaves the client
  with a wrong picture (a missing snapshot, a gap in the pushes, a command it believes
  failed): the session leaves every table and closes with 1011, and the client reconnects
  and resumes with `after_seq` (docs/protocol.md, "Reconnect and resume").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from protocol.codec import CodecError, decode, encode
from protocol.messages import (
    PROTOCOL_VERSION,
    SPECS,
    ProtocolError,
    Request,
    error_message,
    make,
    parse_request,
)
from server import __version__
from server.games.base import Actor
from server.metrics import Metrics
from server.net.errors import INTERNAL_MESSAGE, error_for
from server.net.lag import (
    INITIAL_PROBES,
    KEEPALIVE_STALE_INTERVALS,
    PROBE_INTERVAL_S,
    STALE_AFTER_US,
    LagEstimator,
)
from server.net.links import LinkMaker
from server.net.output import OrderedOutput
from server.net.rate_limits import NetConfig, TokenBucket
from server.net.requests import TableRequests
from server.net.tokens import Claims, TokenError, TokenSigner
from server.runtime.hub import Hub, TableMoved
from server.runtime.pushes import Push
from server.runtime.table_actor import TableActor
from server.runtime.timers import now_us

log = Logger(namespace="t24.net")

CLOSE_GOING_AWAY = 1001
CLOSE_POLICY = 1008
CLOSE_INTERNAL = 1011
CLOSE_SERVICE_RESTART = 1012  # another node took a joined table (docs/protocol.md)
MAX_ERROR_MESSAGE = 240  # characters of an error's message, at most (it may quote input)
LAG_PUSH_STEP_MS = 5  # a presence push when a seat's shown delay moves this much
RATE_LIMITED_PAUSE = 0.25  # seconds a connection is not read after a `rate_limited` drop


class Session(TableRequests):
    """The protocol state of one connection (see module doc). Also a table `Subscriber`.

    The handlers of the requests served after hello are in server/net/requests.py.
    """

    def __init__(
        self,
        *,
        hub: Hub,
        signer: TokenSigner,
        clock: IReactorTime,
        send: Callable[[bytes], None],
        close: Callable[[int, str], None],
        send_push: Callable[[Push], None] | None = None,
        send_pushes: Callable[[list[Push]], None] | None = None,
        config: NetConfig | None = None,
        metrics: Metrics | None = None,
        conn_id: int = 0,
        peer: str | None = "",
        budget: TokenBucket | None = None,
        on_abuse: Callable[[], None] | None = None,
        send_probe: Callable[[bytes], None] | None = None,
        hold_reading: Callable[[bool], None] | None = None,
        output_full: Callable[[], bool] | None = None,
        unread_limit: int = 0,
        on_unread: Callable[[int], None] | None = None,
        keepalive_interval: float = 0.0,
        links: LinkMaker | None = None,
    ) -> None:
        self.hub = hub
        self.signer = signer
        self.links = links  # the printed links of a tournament's tables (`table_links`)
        self.clock = clock
        self._send = send
        self._send_push = send_push or (lambda push: send(push.frame))
        self._send_pushes = send_pushes or self._push_each
        # The transport's writes in order, a catch-up streamed as it drains (`output_full`:
        # its buffer is full; past `unread_limit` bytes queued behind a catch-up, `on_unread`).
        self.output = OrderedOutput(
            # the sends are looked up at each call: a test may replace one on the session
            send_frame=lambda frame: self._send(frame),
            send_push=lambda push: self._send_push(push),
            send_pushes=lambda pushes: self._send_pushes(pushes),
            full=output_full,
            limit=unread_limit,
            overflow=on_unread,
            failed=lambda failure: self.broken(failure, "a catch-up could not be sent"),
        )
        self._close = close
        self.config = config or NetConfig()
        self.metrics = metrics or hub.metrics
        self.conn_id = conn_id
        self.peer = peer
        self.claims: Claims | None = None
        self.viewer = Actor("anonymous", "")
        self.joined: dict[str, TableActor] = {}
        self.closed = False
        self.closing = False  # a close was sent; the connection is going away
        now = clock.seconds()
        self._bucket = TokenBucket(self.config.rate_per_second, self.config.rate_burst, now)
        self._strikes = TokenBucket(
            self.config.abuse_strikes / self.config.abuse_window, self.config.abuse_strikes, now
        )
        self._hello_timer: IDelayedCall | None = None
        self._expiry_timer: IDelayedCall | None = None  # set by hello: the token's end
        self._budget = budget  # the server-wide request budget, shared by every connection
        self._on_abuse = on_abuse or (lambda: None)  # the transport's cool-down of the address
        # The transport's reading of this connection: held (True) after a rate_limited drop,
        # released (False) by `_rate_timer` (see the module doc, step 3).
        self._hold_reading = hold_reading
        self._rate_timer: IDelayedCall | None = None
        # Issue 19: a player's connection is probed with a WebSocket ping the transport sends
        # (`send_probe`); its pongs feed `lag` (server/net/lag.py), and each command to a
        # table that judges by lag carries the estimate at its arrival (`Command.delay_us`).
        # Issue 32: once a second only while it has joined such a table; otherwise
        # `INITIAL_PROBES` after hello, then the transport's keep-alive pings
        # (`keepalive_rtt`, every `keepalive_interval` seconds, 0: none) measure it.
        self.lag = LagEstimator()
        self._send_probe = send_probe
        self._probe_timer: IDelayedCall | None = None
        self._probes_left = 0
        self._keepalive_stale_us = int(KEEPALIVE_STALE_INTERVALS * keepalive_interval * 1e6)
        self._lag_shown: dict[str, Any] | None = None

    # -- transport events --------------------------------------------------------------------

    def opened(self) -> None:
        """The WebSocket is open: start the hello deadline."""
        self._hello_timer = self.clock.callLater(self.config.hello_timeout, self._hello_late)

    def _hello_late(self) -> None:
        self._hello_timer = None
        if self.claims is None and not self.closed:
            self.close(CLOSE_POLICY, "no hello within the hello timeout")

    def connection_lost(self) -> None:
        """The connection is gone: leave every table, cancel timers."""
        self.closed = True
        for timer in (self._hello_timer, self._expiry_timer, self._probe_timer, self._rate_timer):
            if timer is not None and timer.active():
                timer.cancel()
        self._hello_timer = self._expiry_timer = self._probe_timer = self._rate_timer = None
        self.output.stop()
        for actor in self.joined.values():
            actor.unsubscribe(self)
        self.joined.clear()

    def _probe(self) -> None:
        """Send the next lag probe and schedule the one after, while this player's first
        probes last or it has joined a table that judges by lag (see `__init__`)."""
        self._probe_timer = None
        if self.closed or self.closing or self._send_probe is None:
            return
        self._probes_left = max(0, self._probes_left - 1)
        self._send_probe(self.lag.probe(now_us(self.clock)))
        if self._probes_left or self._judged_by_lag():
            self.lag.stale_after_us = STALE_AFTER_US
            self._probe_timer = self.clock.callLater(PROBE_INTERVAL_S, self._probe)
        else:  # from now on the keep-alive pings measure it, a sample per interval
            self.lag.stale_after_us = max(STALE_AFTER_US, self._keepalive_stale_us)

    def _judged_by_lag(self) -> bool:
        """Whether a table this connection joined judges its commands by lag."""
        return any(getattr(actor, "measures_lag", False) for actor in self.joined.values())

    def table_joined(self, actor: TableActor) -> None:
        """A join took effect: a player joining a table that judges by lag is probed once a
        second from now on (unless it already is)."""
        if (
            self.viewer.role == "player"
            and self._probe_timer is None
            and getattr(actor, "measures_lag", False)
        ):
            self._probe_timer = self.clock.callLater(0, self._probe)

    def keepalive_rtt(self, rtt_us: int) -> None:
        """The transport's keep-alive ping was answered after `rtt_us`: a lag sample, for a
        connection that is not being probed. Why not for one that is: the keep-alives of
        every connection go out together, and mixed into the estimates of a compensated
        table's players they made its verdicts worse (`bench/fair_touch.py`, interleaved
        runs: 89% of races with a true gap >= 20 ms won by the first presser with them,
        94% without; docs/performance.md, "Per command, layer by layer")."""
        if self.viewer.role != "player" or self.closed or self._probe_timer is not None:
            return
        self.lag.keepalive_rtt(rtt_us, now_us(self.clock))
        self._rtt_measured(rtt_us)

    def pong_received(self, payload: bytes) -> None:
        """A WebSocket pong: one RTT for the lag estimate if it answers one of our probes."""
        rtt = self.lag.pong(payload, now_us(self.clock))
        if rtt is not None:
            self._rtt_measured(rtt)

    def _rtt_measured(self, rtt: int) -> None:
        self.metrics.lag_rtt.observe(rtt / 1e6)
        shown = self.lag_data()
        before = self._lag_shown
        moved = before is None or before["stale"] != shown["stale"]
        if not moved and shown["delay_ms"] is not None and before is not None:
            moved = abs(shown["delay_ms"] - before["delay_ms"]) >= LAG_PUSH_STEP_MS
        if moved:  # the proctor's presence view follows a real change, not every probe
            self._lag_shown = shown
            for actor in self.joined.values():
                actor.lag_changed()

    def lag_data(self) -> dict[str, Any]:
        """This connection's lag now, as plain data (presence pushes, docs/protocol.md)."""
        return self.lag.estimate(now_us(self.clock)).as_data()

    def delay_for_command(self, arrival: int) -> int | None:
        """The one-way delay credited to a player's command arriving at `arrival`, or None
        (another role, or no fresh estimate): the game records it (issue 19)."""
        if self.viewer.role != "player":
            return None
        delay = self.lag.estimate(arrival).delay_us
        if delay is None:
            self.metrics.lag_stale.inc()
        else:
            self.metrics.lag_delay.observe(delay / 1e6)
        return delay

    def close(self, code: int, reason: str) -> None:
        """Close the connection with a WebSocket close code (1001, 1008, ...), once.

        Why once: a client that goes on sending after an abuse close must not make the
        server log (and try) the close again for every frame (issue 18: 398,888 log lines
        in 5 s). Frames that arrive while the close handshake runs are dropped unread.
        """
        if not self.closed and not self.closing:
            self.closing = True
            log.info(
                "closing connection {conn} ({peer}): {code} {reason}",
                conn=self.conn_id,
                peer=self.peer,
                code=code,
                reason=reason,
            )
            self._close(code, reason)
            self.output.stop()  # what waits behind a catch-up is not sent after the close

    def send(self, message: dict[str, Any]) -> None:
        """Encode and send one message (dropped once the connection is closed)."""
        if not self.closed:
            self.output.frame(encode(message))

    def push(self, push: Push) -> None:
        """A table's event push (encoded once by the actor, shared by equal viewers).

        A push that cannot be sent is a gap in the client's stream: the session breaks (1011)
        rather than go on with a hole the client cannot see.
        """
        if not self.closed:
            try:
                self.output.push(push)
            except Exception:
                self.broken(Failure(), "an event push could not be sent")

    def reply_error(
        self, request_id: int | None, code: str, message: str, rule: str | None = None
    ) -> None:
        """Send an `error` reply and count it.

        Why the message is cut: a refusal may quote the request (a table id, an argument),
        and a reply must never grow with what a client chose to send.
        """
        self.metrics.protocol_errors.inc()
        if len(message) > MAX_ERROR_MESSAGE:
            message = message[: MAX_ERROR_MESSAGE - 3] + "..."
        self.send(error_message(request_id, code, message, rule))

    def fault(self, request_id: int | None, failure: Failure) -> None:
        """An unexpected exception while serving a request, before it had any effect.

        Why keep the connection: one bad request must not cost the client its other tables
        and requests. The traceback goes to the server log only; the client gets `internal`
        and a message that holds nothing of the exception. If even that reply cannot be
        sent, the session breaks (1011).
        """
        log.failure(
            "unexpected failure serving request {request} on connection {conn}",
            failure,
            request=request_id,
            conn=self.conn_id,
        )
        try:
            self.reply_error(request_id, "internal", INTERNAL_MESSAGE)
        except Exception:
            self.broken(Failure(), "an error reply could not be sent")

    def table_moved(self, table: str) -> None:
        """This node stopped serving a joined table (another node took it): close with 1012.

        Why the whole connection: the client's one way back is a reconnect and a join with
        `after_seq`; the `moved` reply to that join names the node serving the table now.
        """
        if self.closed:
            return
        for actor in self.joined.values():
            actor.unsubscribe(self)
        self.joined.clear()
        self.close(CLOSE_SERVICE_RESTART, f"table {table} moved to another node")
        self.closed = True

    def broken(self, failure: Failure, why: str) -> None:
        """The session can no longer vouch for what the client was told: close with 1011.

        Why close: after a lost push, reply or snapshot the client's picture of its tables is
        wrong, and only a fresh join (a reconnect with `after_seq`) makes it right again. The
        session leaves every table first, so nothing more is pushed into the broken stream.
        """
        log.failure(
            "connection {conn} broken: {why}; closing with 1011",
            failure,
            conn=self.conn_id,
            why=why,
        )
        if self.closed:
            return
        for actor in self.joined.values():
            actor.unsubscribe(self)
        self.joined.clear()
        try:
            self.close(CLOSE_INTERNAL, "internal server error")
        except Exception:
            log.failure("connection {conn}: the 1011 close failed", conn=self.conn_id)
        self.closed = True  # nothing more is read, sent or pushed on this connection

    def _delivering(self, deliver: Callable[[Any], None], why: str) -> Callable[[Any], None]:
        """Wrap the callback that tells the client a request's outcome, which already
        happened (a table recorded, a command's events durable): a fault there breaks the
        session instead of answering `internal` for something that took effect."""

        def run(result: Any) -> None:
            try:
                deliver(result)
            except Exception:
                self.broken(Failure(), why)

        return run

    # -- frames ------------------------------------------------------------------------------

    def frame_received(self, payload: bytes, is_binary: bool) -> None:
        """One WebSocket message from the client (see the module doc for the order)."""
        arrival = now_us(self.clock)
        self.metrics.messages_received.inc()
        if self.closed or self.closing:
            return
        request_id: int | None = None
        try:
            if not is_binary:
                self.reply_error(None, "bad_encoding", "text frames are not accepted: send binary")
                return
            try:
                message = decode(payload, self.config.limits)
            except CodecError as exc:
                self.reply_error(None, exc.code, exc.message)
                return
            raw_id = message.get("id")
            if isinstance(raw_id, int) and not isinstance(raw_id, bool):
                request_id = raw_id
            now = self.clock.seconds()
            if not self._bucket.take(now):
                if not self._strikes.take(now):
                    self.close(CLOSE_POLICY, "sustained rate-limit abuse")
                    self._on_abuse()
                    return
                self.reply_error(request_id, "rate_limited", "too many requests; slow down")
                self._pause_reading()
                return
            if self._budget is not None and not self._budget.take(now):
                self.reply_error(request_id, "rate_limited", "the server is busy; retry shortly")
                return
            try:
                request = parse_request(message)
            except ProtocolError as exc:
                self.reply_error(exc.request_id, exc.code, exc.message)
                return
            self._dispatch(request, arrival)
        except Exception:  # the catch-all: see "Faults" in the module doc
            self.fault(request_id, Failure())

    def _pause_reading(self) -> None:
        """Stop reading this connection for `RATE_LIMITED_PAUSE` seconds (module doc, 3)."""
        if self._hold_reading is None or self._rate_timer is not None:
            return
        self._hold_reading(True)
        self._rate_timer = self.clock.callLater(RATE_LIMITED_PAUSE, self._resume_reading)

    def _resume_reading(self) -> None:
        self._rate_timer = None
        if self._hold_reading is not None and not self.closed:
            self._hold_reading(False)

    def _dispatch(self, request: Request, arrival: int) -> None:
        kind = request.type
        if kind == "ping":
            self.send(make("pong", id=request.id))
            return
        if kind == "hello":
            self._hello(request)
            return
        claims = self.claims
        if claims is None:
            self.reply_error(request.id, "hello_required", "say hello with a token first")
            return
        if self.clock.seconds() >= claims.expires:
            self.reply_error(request.id, "unauthorized", "token expired")
            return
        if claims.role not in SPECS[kind].roles:
            self.reply_error(request.id, "forbidden", f"a {claims.role} may not send {kind}")
            return
        table = request.get("table")
        if table is not None and kind in ("join", "command", "query") and not claims.may_see(table):
            self.reply_error(request.id, "unauthorized", f"this token is not valid for {table}")
            return
        self.REQUEST_HANDLERS[kind](self, request, arrival)

    def _fail(self, failure: Failure, request_id: int) -> None:
        try:
            moved = failure.value
            if isinstance(moved, TableMoved):  # another node serves it: point there (`moved`)
                self.send(make("moved", id=request_id, table=moved.table, url=moved.url))
                return
            code, message, rule = error_for(failure)
            self.reply_error(request_id, code, message, rule)
        except Exception:  # an errback that raised would be an unhandled error, no reply
            self.broken(Failure(), "an error reply could not be sent")

    # -- requests ----------------------------------------------------------------------------

    def _hello(self, request: Request) -> None:
        if self.claims is not None:
            self.reply_error(request.id, "already_authenticated", "hello was already accepted")
            return
        try:
            claims = self.signer.verify(request.get("token"), self.clock.seconds())
        except TokenError as exc:
            self.reply_error(request.id, "unauthorized", str(exc))
            return
        welcome = make(  # built before the claims are taken: a fault here changes nothing
            "welcome",
            id=request.id,
            role=claims.role,
            identity=claims.actor.as_dict(),
            table=claims.table,
            seat=claims.seat,
            server=__version__,
            protocol=PROTOCOL_VERSION,
            limits=self.config.announced(),
        )
        self.claims = claims
        self.viewer = claims.actor
        if self._hello_timer is not None and self._hello_timer.active():
            self._hello_timer.cancel()
        self._hello_timer = None
        self._expiry_timer = self.clock.callLater(
            max(0.0, claims.expires - self.clock.seconds()), self._token_expired
        )
        if claims.role == "player" and self._send_probe is not None:
            self._probes_left = INITIAL_PROBES
            self._probe_timer = self.clock.callLater(0, self._probe)
        self._delivering(self.send, "the welcome could not be sent")(welcome)

    def _token_expired(self) -> None:
        """The token's lifetime is over: its subscriptions end with it.

        Why: a token is the only proof of who the connection is; a spectator whose token
        expired must not go on receiving a table's pushes. The client is told (an `error`
        without id, code `unauthorized`), every table is left, and the connection closes
        with 1008; the client reconnects with a fresh token and resumes with `after_seq`.
        """
        self._expiry_timer = None
        if self.closed or self.closing:
            return
        for actor in self.joined.values():
            actor.unsubscribe(self)
        self.joined.clear()
        self.reply_error(None, "unauthorized", "token expired: every table was left; reconnect")
        self.close(CLOSE_POLICY, "token expired")

    def _push_each(self, pushes: list[Push]) -> None:
        for push in pushes:
            self._send_push(push)
