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
   and when that one is empty the connection is closed with 1008 (sustained abuse).
4. Before `hello` only `hello` and `ping` are served; a connection that has not said hello
   within `hello_timeout` seconds is closed with 1008.
5. The role check (`MessageSpec.roles`) and the table binding of the token come next
   (`forbidden` / `unauthorized`); the game's own rules come last, in `decide`.

Replies are sent in the order the work completes; each names its request `id`. A command's
event pushes are sent before its `accepted` (publication happens when the append is durable,
the reply after that).

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
from dataclasses import dataclass, field
from typing import Any, ClassVar

from twisted.internet.interfaces import IDelayedCall, IReactorTime
from twisted.logger import Logger
from twisted.python.failure import Failure

from protocol.codec import CodecError, Limits, decode, encode
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
from server.eventlog.envelope import EventLogError
from server.eventlog.store import ConcurrencyError
from server.games.base import Actor, Command, RuleViolation
from server.metrics import Metrics
from server.net.lag import PROBE_INTERVAL_S, LagEstimator
from server.net.tokens import Claims, TokenError, TokenSigner
from server.runtime.hub import (
    Hub,
    InvalidOptions,
    TableExists,
    TableMoved,
    UnknownGame,
    UnknownTable,
)
from server.runtime.table_actor import (
    BadSeq,
    Push,
    TableActor,
    TableBroken,
    TableClosed,
    now_us,
)
from server.runtime.view_at import VIEW_AT, view_at

log = Logger(namespace="t24.net")

CLOSE_GOING_AWAY = 1001
CLOSE_POLICY = 1008
CLOSE_INTERNAL = 1011
CLOSE_SERVICE_RESTART = 1012  # another node took a joined table (docs/protocol.md)
# Roles that only watch: on a node of several they watch other nodes' tables from a replica.
REPLICA_ROLES = frozenset({"spectator", "auditor"})
INTERNAL_MESSAGE = "internal server error; nothing was written"
LIST_PAGE = 200  # tables per `list_tables` reply, at most
MAX_ERROR_MESSAGE = 240  # characters of an error's message, at most (it may quote input)
LAG_PUSH_STEP_MS = 5  # a presence push when a seat's shown delay moves this much
# A join's catch-up, or the events a `view_at` query folds: one request more per this many.
JOIN_EVENTS_PER_REQUEST = 50
RECORDED_BUT_BROKEN_MESSAGE = (
    "internal server error after the command was recorded: the table stopped taking "
    "commands; its log is intact"
)


@dataclass(frozen=True)
class NetConfig:
    """The per-connection limits (all documented in docs/protocol.md, "Limits")."""

    limits: Limits = field(default_factory=Limits)
    rate_per_second: float = 50.0
    rate_burst: int = 100
    abuse_strikes: int = 100  # rate-limited requests tolerated per `abuse_window` seconds
    abuse_window: float = 10.0
    hello_timeout: float = 10.0
    max_joins: int = 16

    def announced(self) -> dict[str, Any]:
        """The limits a client is told in `welcome`."""
        return {
            **self.limits.as_dict(),
            "rate_per_second": self.rate_per_second,
            "rate_burst": self.rate_burst,
            "max_joins": self.max_joins,
        }


class TokenBucket:
    """`capacity` tokens refilled at `rate` per second; `take(now)` spends one if it can."""

    def __init__(self, rate: float, capacity: float, now: float) -> None:
        self.rate = rate
        self.capacity = capacity
        self.tokens = capacity
        self.stamp = now

    def take(self, now: float) -> bool:
        """Spend one token; False when the bucket is empty (the caller is over the limit)."""
        self._refill(now)
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def charge(self, cost: float, now: float) -> None:
        """Spend `cost` more tokens for work already done (the bucket may go into debt, down
        to `-capacity`): the requests that follow wait until it has refilled."""
        self._refill(now)
        self.tokens = max(-self.capacity, self.tokens - cost)

    def _refill(self, now: float) -> None:
        elapsed = max(0.0, now - self.stamp)
        self.stamp = now
        self.tokens = min(self.capacity, self.tokens + elapsed * self.rate)


def error_for(failure: Failure) -> tuple[str, str, str | None]:
    """Map a failed request to (code, message, rule). Messages never hold hidden data: the
    game writes its own refusal texts; anything unexpected becomes a generic `internal`."""
    exc = failure.value
    if isinstance(exc, RuleViolation):
        return exc.code, exc.message, exc.rule or None
    for kind, code in (
        (UnknownTable, "unknown_table"),
        (TableExists, "table_exists"),
        (UnknownGame, "unknown_game"),
        (InvalidOptions, "invalid_options"),
        (BadSeq, "bad_seq"),
    ):
        if isinstance(exc, kind):
            return code, str(exc), None
    if isinstance(exc, TableClosed):
        return "unavailable", "the server is shutting down", None
    if isinstance(exc, TableBroken):
        log.failure("a table failed after recording a command", failure)
        return "internal", RECORDED_BUT_BROKEN_MESSAGE, None
    if isinstance(exc, ConcurrencyError):
        return "conflict", "another writer extended the table's log; retry", None
    if isinstance(exc, EventLogError):
        log.failure("event store failure", failure)
        return "unavailable", "the event store failed; nothing was written", None
    log.failure("unexpected failure while serving a request", failure)
    return "internal", INTERNAL_MESSAGE, None


class Session:
    """The protocol state of one connection (see module doc). Also a table `Subscriber`."""

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
        peer: str = "",
        budget: TokenBucket | None = None,
        on_abuse: Callable[[], None] | None = None,
        send_probe: Callable[[bytes], None] | None = None,
    ) -> None:
        self.hub = hub
        self.signer = signer
        self.clock = clock
        self._send = send
        self._send_push = send_push or (lambda push: send(push.frame))
        self._send_pushes = send_pushes or self._push_each
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
        # Issue 19: a player's connection is probed once a second with a WebSocket ping the
        # transport sends (`send_probe`); its pongs feed `lag` (server/net/lag.py), and each
        # command carries the estimate at its arrival (`Command.delay_us`).
        self.lag = LagEstimator()
        self._send_probe = send_probe
        self._probe_timer: IDelayedCall | None = None
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
        for timer in (self._hello_timer, self._expiry_timer, self._probe_timer):
            if timer is not None and timer.active():
                timer.cancel()
        self._hello_timer = self._expiry_timer = self._probe_timer = None
        for actor in self.joined.values():
            actor.unsubscribe(self)
        self.joined.clear()

    def _probe(self) -> None:
        """Send the next lag probe and schedule the one after (players only, after hello)."""
        self._probe_timer = None
        if self.closed or self.closing or self._send_probe is None:
            return
        self._send_probe(self.lag.probe(now_us(self.clock)))
        self._probe_timer = self.clock.callLater(PROBE_INTERVAL_S, self._probe)

    def pong_received(self, payload: bytes) -> None:
        """A WebSocket pong: one RTT for the lag estimate if it answers one of our probes."""
        rtt = self.lag.pong(payload, now_us(self.clock))
        if rtt is None:
            return
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
            self.metrics.lag_stale += 1
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

    def send(self, message: dict[str, Any]) -> None:
        """Encode and send one message (dropped once the connection is closed)."""
        if not self.closed:
            self._send(encode(message))

    def push(self, push: Push) -> None:
        """A table's event push (encoded once by the actor, shared by equal viewers).

        A push that cannot be sent is a gap in the client's stream: the session breaks (1011)
        rather than go on with a hole the client cannot see.
        """
        if not self.closed:
            try:
                self._send_push(push)
            except Exception:
                self.broken(Failure(), "an event push could not be sent")

    def reply_error(
        self, request_id: int | None, code: str, message: str, rule: str | None = None
    ) -> None:
        """Send an `error` reply and count it.

        Why the message is cut: a refusal may quote the request (a table id, an argument),
        and a reply must never grow with what a client chose to send.
        """
        self.metrics.protocol_errors += 1
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
        self.metrics.messages_received += 1
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
            if failure.check(TableMoved):  # another node serves it: point there (`moved`)
                moved = failure.value
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

    def _create_table(self, request: Request, arrival: int) -> None:
        d = self.hub.create_table(
            request.get("table"),
            request.get("game", "challenge"),
            request.get("options"),
            self.viewer,
            causation=f"conn-{self.conn_id}:req-{request.id}",
        )
        d.addCallbacks(
            self._delivering(
                lambda actor: self.send(
                    make("table_created", id=request.id, table=actor.table, seq=actor.seq)
                ),
                "the table_created reply could not be sent",
            ),
            self._fail,
            errbackArgs=(request.id,),
        )

    def _issue_token(self, request: Request, arrival: int) -> None:
        try:
            token, claims = self.signer.issue(
                request.get("role"),
                now=self.clock.seconds(),
                name=request.get("name"),
                table=request.get("table"),
                seat=request.get("seat"),
                ttl_seconds=request.get("ttl_seconds", 12 * 3600),
            )
        except TokenError as exc:
            self.reply_error(request.id, "bad_message", str(exc))
            return
        self.send(
            make(
                "token",
                id=request.id,
                token=token,
                role=claims.role,
                table=claims.table,
                seat=claims.seat,
                expires=claims.expires,
            )
        )

    def _list_tables(self, request: Request, arrival: int) -> None:
        """One page of the visible tables, in id order, after the cursor `after`.

        Why pages: a server with 702 tables answered `internal` (the reply outgrew the
        frame limit); a page of `LIST_PAGE` rows stays well under it, however many tables.
        """
        assert self.claims is not None
        after = request.get("after")
        limit = max(1, min(LIST_PAGE, request.get("limit", LIST_PAGE)))
        visible = [
            info
            for info in self.hub.tables()
            if (after is None or info["table"] > after) and self.claims.may_see(info["table"])
        ]
        page = visible[:limit]
        cursor = page[-1]["table"] if len(visible) > limit else None
        self.send(make("tables", id=request.id, tables=page, next=cursor))

    def _join(self, request: Request, arrival: int) -> None:
        table = request.get("table")
        if table not in self.joined and len(self.joined) >= self.config.max_joins:
            self.reply_error(
                request.id, "too_many_joins", f"at most {self.config.max_joins} tables"
            )
            return
        d = self.hub.get(table)
        if self.claims is not None and self.claims.role in REPLICA_ROLES:
            d.addErrback(self._replica, table)

        def subscribe(actor: TableActor) -> None:
            if self.closed:
                return
            rejoin = table in self.joined
            presence = bool(request.get("presence", False))
            snapshot = actor.subscribe(self, request.get("after_seq"), presence=presence)
            try:
                frame = encode(
                    make(
                        "snapshot",
                        id=request.id,
                        table=table,
                        game=actor.game.NAME,
                        seq=snapshot.seq,
                        view=snapshot.view,
                        deadlines=snapshot.deadlines,
                        server_time=now_us(self.clock),
                    )
                )
            except Exception:
                if not rejoin:  # undone: the join had no effect, its reply is `internal`
                    actor.unsubscribe(self)
                raise
            self.joined[table] = actor
            # A join costs by the work it causes: one request more per JOIN_EVENTS_PER_REQUEST
            # events of catch-up (issue 18: re-joins with after_seq 0 were a cheap way to make
            # the server push its whole log again and again).
            extra = len(snapshot.catch_up) // JOIN_EVENTS_PER_REQUEST
            if extra:
                self._bucket.charge(extra, self.clock.seconds())
            self._delivering(self._send_snapshot, "the snapshot or catch-up could not be sent")(
                (frame, [*snapshot.catch_up, actor.presence()] if presence else snapshot.catch_up)
            )

        d.addCallback(subscribe)
        d.addErrback(self._fail, request.id)

    def _push_each(self, pushes: list[Push]) -> None:
        for push in pushes:
            self._send_push(push)

    def _replica(self, failure: Failure, table: str) -> Any:
        """A viewer who only watches gets another node's table from a replica here, kept
        current through the store (server/cluster/feed.py), instead of a `moved`."""
        failure.trap(TableMoved)
        return self.hub.replica(table)

    def _send_snapshot(self, snapshot: tuple[bytes, list[Push]]) -> None:
        frame, catch_up = snapshot
        if not self.closed:
            self._send(frame)
            self._send_pushes(catch_up)  # in one write: a catch-up may be the whole log

    def _leave(self, request: Request, arrival: int) -> None:
        table = request.get("table")
        actor = self.joined.pop(table, None)
        if actor is None:
            self.reply_error(request.id, "not_joined", f"not joined to {table}")
            return
        actor.unsubscribe(self)
        self.send(make("left", id=request.id, table=table))

    def _command(self, request: Request, arrival: int) -> None:
        table = request.get("table")
        command = Command(
            request.get("name"),
            request.get("args", {}),
            self.viewer,
            delay_us=self.delay_for_command(arrival),
        )
        causation = f"conn-{self.conn_id}:req-{request.id}"
        live = self.hub.actors.get(table)
        if live is not None:  # the common case: no Deferred to chain through
            d = live.submit(command, arrival, causation)
        else:
            d = self.hub.get(table)
            d.addCallback(lambda actor: actor.submit(command, arrival, causation))

        def accepted(recorded: list) -> None:
            actor = self.hub.actors.get(table)
            seq = recorded[-1].seq if recorded else (actor.seq if actor else 0)
            self.send(make("accepted", id=request.id, table=table, seq=seq, events=len(recorded)))

        d.addCallbacks(
            self._delivering(accepted, "the accepted reply could not be sent"),
            self._fail,
            errbackArgs=(request.id,),
        )

    def _query(self, request: Request, arrival: int) -> None:
        """A question to a table's game, answered from its state and never recorded; or the
        shell's own `view_at` (server/runtime/view_at.py), charged by the events it folds."""
        table = request.get("table")
        d = self.hub.get(table)
        if self.claims is not None and self.claims.role in REPLICA_ROLES:
            d.addErrback(self._replica, table)  # a query never writes: a replica answers

        def answer(actor: TableActor) -> None:
            if request.get("name") == VIEW_AT:
                found = view_at(actor, request.get("args", {}), self.viewer)
                seq, result = found.seq, found.result
                if found.folded >= JOIN_EVENTS_PER_REQUEST:  # as a join's catch-up is charged
                    self._bucket.charge(
                        found.folded // JOIN_EVENTS_PER_REQUEST, self.clock.seconds()
                    )
            else:
                seq, result = actor.query(
                    request.get("name"), request.get("args", {}), self.viewer, arrival
                )
            reply = make(
                "answer",
                id=request.id,
                table=table,
                seq=seq,
                name=request.get("name"),
                result=result,
            )
            self.send(reply)

        d.addCallback(answer)
        d.addErrback(self._fail, request.id)

    # The requests served after hello, by type: an explicit table (not a name built from the
    # type), so a message type without a handler is a test failure, never an AttributeError.
    REQUEST_HANDLERS: ClassVar[dict[str, Callable[[Session, Request, int], None]]] = {
        "create_table": _create_table,
        "issue_token": _issue_token,
        "list_tables": _list_tables,
        "join": _join,
        "leave": _leave,
        "command": _command,
        "query": _query,
    }
