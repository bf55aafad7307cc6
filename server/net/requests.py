"""The requests a session serves after hello, one method each: tables, tokens, commands.

What it holds: `TableRequests`, the part of `Session` (server/net/session.py) that does
what each request type asks (create, list, join and leave tables, issue tokens, submit
commands, ask queries), and `REQUEST_HANDLERS`, the table from type to method. The session
itself keeps the connection: the frame order, limits, authentication, closes and faults.

Each handler computes first and commits last (sets the claims, subscribes, submits), as
the session's "Faults" section requires: a fault before the effect is answered `internal`,
one after it breaks the session (`_delivering`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, cast

from twisted.internet.defer import Deferred, succeed
from twisted.internet.interfaces import IReactorFromThreads, IReactorTime
from twisted.internet.threads import deferToThreadPool
from twisted.python.failure import Failure

from protocol.codec import encode
from protocol.messages import TOURNAMENT_PREFIX, Request, accepted_message, make
from server.eventlog.envelope import RecordedEvent
from server.games.base import Actor, Command
from server.net.links import LinkMaker
from server.net.output import OrderedOutput
from server.net.rate_limits import NetConfig, TokenBucket
from server.net.tokens import Claims, TokenError, TokenSigner
from server.runtime.catch_up import CatchUp
from server.runtime.hub import Hub, TableMoved, UnknownTable
from server.runtime.pushes import Push
from server.runtime.table_actor import Snapshot, TableActor
from server.runtime.timers import now_us
from server.runtime.view_at import ANALYSIS, RATINGS, VIEW_AT, ViewAt, view_at

# Roles that only watch: on a node of several they watch other nodes' tables from a replica.
REPLICA_ROLES = frozenset({"spectator", "auditor"})
# Roles that also command, served a replica only for a `join` that asks to `watch` (a
# director's scoreboard, a proctor's second screen): their commands are still `moved`.
WATCH_ROLES = frozenset({"director", "proctor"})
LIST_PAGE = 200  # tables per `list_tables` reply, at most
# A join's catch-up, or the events a `view_at` query folds: one request more per this many.
JOIN_EVENTS_PER_REQUEST = 50


class TableRequests:
    """The request handlers of a `Session` (see module doc); mixed into it.

    What they use of the session, besides the attributes below: `send`, `reply_error`,
    `delay_for_command`, `table_joined`, `_fail` and `_delivering`.
    """

    hub: Hub
    signer: TokenSigner
    links: LinkMaker | None
    clock: IReactorTime
    config: NetConfig
    claims: Claims | None
    viewer: Actor
    joined: dict[str, TableActor]
    closed: bool
    conn_id: int
    _bucket: TokenBucket
    output: OrderedOutput

    if TYPE_CHECKING:  # the session's own, which mypy checks `Session` against

        def send(self, message: dict[str, Any]) -> None: ...

        def broken(self, failure: Failure, why: str) -> None: ...

        def push(self, push: Push) -> None: ...

        def reply_error(
            self, request_id: int | None, code: str, message: str, rule: str | None = None
        ) -> None: ...

        def delay_for_command(self, arrival: int) -> int | None: ...

        def table_joined(self, actor: TableActor) -> None: ...

        def _fail(self, failure: Failure, request_id: int) -> None: ...

        def _delivering(
            self, deliver: Callable[[Any], None], why: str
        ) -> Callable[[Any], None]: ...

    def _create_table(self, request: Request, arrival: int) -> None:
        name = request.get("game", "challenge")
        game = self.hub.games.get(name) if isinstance(name, str) else None
        # a game's option asking for the log's ratings (practice's `from_log`) is filled
        # here, from the store, and recorded as numbers (server/runtime/ratings_query.py)
        if getattr(game, "LOG_RATINGS_OPTION", None) is None:
            d: Deferred[Any] = succeed(request.get("options"))  # what with_log_ratings says
        else:
            # imported here: the log's ratings (the analysis, openskill) are not for every
            # server's start (issue 29)
            from server.runtime.ratings_query import with_log_ratings

            d = with_log_ratings(self.hub.store, self.clock, game, request.get("options"))
        d.addCallback(
            lambda options: self.hub.create_table(
                request.get("table"),
                name,
                options,
                self.viewer,
                causation=f"conn-{self.conn_id}:req-{request.id}",
            )
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

    def _table_links(self, request: Request, arrival: int) -> None:
        """The printed links of one table of a tournament (server/net/links.py), read from
        the tournament's state (a replica serves it on a node of several: it writes
        nothing)."""
        links = self.links
        if links is None:
            self.reply_error(request.id, "unavailable", "this server prints no links")
            return
        tournament = request.get("tournament")
        stream = TOURNAMENT_PREFIX + tournament
        d = self.hub.get(stream)
        d.addErrback(self._replica, stream)

        def draw(actor: TableActor) -> Any:
            if actor.game.NAME != "tournament":
                raise UnknownTable(f"no tournament {tournament}")
            now = self.clock.seconds()
            # a QR code takes tens of milliseconds to draw: on a thread, off the reactor
            # (the state is immutable; a test clock without threads draws in place)
            make_links = partial(links.table_links, actor.state, tournament, request.get("table"))
            pool = getattr(self.clock, "getThreadPool", None)
            if pool is None:
                return make_links(now)
            reactor = cast(IReactorFromThreads, self.clock)  # a real reactor: it has threads
            return deferToThreadPool(reactor, pool(), make_links, now)

        def answer(fields: dict[str, Any]) -> None:
            self.send(make("links", id=request.id, tournament=tournament, **fields))

        d.addCallback(draw).addCallback(answer).addErrback(self._fail, request.id)

    def _list_tables(self, request: Request, arrival: int) -> None:
        """One page of the visible tables, in id order, after the cursor `after`.

        Why pages: a server with 702 tables answered `internal` (the reply outgrew the
        frame limit); a page of `LIST_PAGE` rows stays well under it, however many tables.
        """
        assert self.claims is not None
        after = request.get("after")
        limit = request.get("limit", LIST_PAGE)
        if not 1 <= limit <= LIST_PAGE:  # as documented: 0 asks for nothing, not for one row
            self.reply_error(
                request.id, "bad_message", f"list_tables: `limit` is 1 to {LIST_PAGE}, not {limit}"
            )
            return
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
        if self._watches(request):
            d.addErrback(self._replica, table)

        presence = bool(request.get("presence", False))

        def subscribe(actor: TableActor) -> Deferred[None] | None:
            if self.closed:
                return None
            rejoin = table in self.joined
            # A catch-up from before the table's window waits for its older pushes (the
            # shared cache, or the store): `join` registers in the turn they arrive.
            joined = actor.join(self, request.get("after_seq"), presence=presence)
            return joined.addCallback(send, actor, rejoin)

        def send(snapshot: Snapshot, actor: TableActor, rejoin: bool) -> None:
            if self.closed:  # it closed while the older pushes were read: registered since
                actor.unsubscribe(self)
                return
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
            self.table_joined(actor)
            # A join costs by the work it causes: one request more per JOIN_EVENTS_PER_REQUEST
            # events of catch-up (issue 18: re-joins with after_seq 0 were a cheap way to make
            # the server push its whole log again and again).
            extra = snapshot.missed // JOIN_EVENTS_PER_REQUEST
            if extra:
                self._bucket.charge(extra, self.clock.seconds())
            recent = [*snapshot.catch_up, actor.presence()] if presence else snapshot.catch_up
            self._delivering(self._send_snapshot, "the snapshot or catch-up could not be sent")(
                (frame, CatchUp(snapshot.older, recent))
            )

        d.addCallback(subscribe)
        d.addErrback(self._fail, request.id)

    def _watches(self, request: Request) -> bool:
        """Whether this `join` of another node's table is served from a replica: always for
        a role that only watches; for a director or proctor when it asks to `watch`, but
        not with `presence` (who is connected is known only where the table is served).
        Why not every director's join: a director also commands, and a connection that
        will command its table is better on the owner at once than `moved` later."""
        if self.claims is None:
            return False
        if self.claims.role in REPLICA_ROLES:
            return True
        wants = bool(request.get("watch")) and not request.get("presence")
        return wants and self.claims.role in WATCH_ROLES

    def _replica(self, failure: Failure, table: str) -> Any:
        """A viewer who only watches gets another node's table from a replica here, kept
        current through the store (server/cluster/feed.py), instead of a `moved`."""
        failure.trap(TableMoved)
        return self.hub.replica(table)

    def _send_snapshot(self, snapshot: tuple[bytes, CatchUp]) -> None:
        frame, catch_up = snapshot
        if not self.closed:  # streamed as the transport drains (server/net/output.py)
            self.output.catch_up(frame, catch_up)

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
        live = self.hub.actors.get(table)
        # The lag estimate only for a table that judges by it (issue 32: its cost per
        # command, and its metrics, belong to those tables).
        judged = live is None or live.measures_lag
        command = Command(
            request.get("name"),
            request.get("args", {}),
            self.viewer,
            delay_us=self.delay_for_command(arrival) if judged else None,
        )
        causation = f"conn-{self.conn_id}:req-{request.id}"
        if live is not None:  # the common case: no Deferred to chain through
            d = live.submit(command, arrival, causation)
        else:
            d = self.hub.get(table).addCallback(
                lambda actor: actor.submit(command, arrival, causation)
            )

        d.addCallbacks(
            self._accepted,
            self._fail,
            callbackArgs=(request.id, table),
            errbackArgs=(request.id,),
        )

    def _accepted(self, recorded: list[RecordedEvent], request_id: int, table: str) -> None:
        """A command's events are durable: reply `accepted`. What `_delivering` does for the
        other requests, written out: a fault here breaks the session, as the command took
        effect. Why not `_delivering`: two closures built for every command (issue 32)."""
        try:
            actor = self.hub.actors.get(table)
            seq = recorded[-1].seq if recorded else (actor.seq if actor else 0)
            self.send(accepted_message(request_id, table, seq, len(recorded)))
        except Exception:
            self.broken(Failure(), "the accepted reply could not be sent")

    def _query(self, request: Request, arrival: int) -> None:
        """A question to a table's game, answered from its state and never recorded; or the
        shell's own `view_at` (server/runtime/view_at.py), `analysis`
        (server/runtime/analysis_query.py) or `ratings` (server/runtime/ratings_query.py),
        charged by the events they fold."""
        table = request.get("table")
        d = self.hub.get(table)
        if self.claims is not None and self.claims.role in REPLICA_ROLES:
            d.addErrback(self._replica, table)  # a query never writes: a replica answers

        def answer(actor: TableActor) -> Deferred[None] | None:
            if request.get("name") == VIEW_AT:  # an older step's events may be read first
                return view_at(actor, request.get("args", {}), self.viewer).addCallback(charged)
            # the two below are imported by their first query, not at every server's start
            # (issue 29): the analysis and openskill
            if request.get("name") == ANALYSIS:  # the whole log, folded by the analysis
                from server.runtime.analysis_query import analysis

                return analysis(actor, request.get("args", {}), self.viewer).addCallback(charged)
            if request.get("name") == RATINGS:  # every table's log, folded into ratings
                from server.runtime.ratings_query import ratings

                return ratings(actor, request.get("args", {}), self.viewer).addCallback(charged)
            seq, result = actor.query(
                request.get("name"), request.get("args", {}), self.viewer, arrival
            )
            reply_with(seq, result)
            return None

        def charged(found: ViewAt) -> None:
            if found.folded >= JOIN_EVENTS_PER_REQUEST:  # as a join's catch-up is charged
                self._bucket.charge(found.folded // JOIN_EVENTS_PER_REQUEST, self.clock.seconds())
            reply_with(found.seq, found.result)

        def reply_with(seq: int, result: Any) -> None:
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
    REQUEST_HANDLERS: ClassVar[dict[str, Callable[[TableRequests, Request, int], None]]] = {
        "create_table": _create_table,
        "issue_token": _issue_token,
        "table_links": _table_links,
        "list_tables": _list_tables,
        "join": _join,
        "leave": _leave,
        "command": _command,
        "query": _query,
    }
