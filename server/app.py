"""Wiring: the store, the hub, the WebSocket and HTTP endpoints, in the order that is safe.

What it keeps:
- `T24Server`: `start()` takes the store's ownership (server/cluster), opens the store,
  listens, and only then rebuilds every table from its log (recovery: a table whose timers
  were running is paused), and sets up the demo tables when asked (`server.demo`); a start
  that fails before recovery has written nothing;
  `stop()` (run on SIGTERM/SIGINT, before reactor shutdown) is the one shutdown sequence, in
  this order: stop accepting connections; let every table decide its queued commands and
  finish its in-flight appends (their replies and pushes go out; commands arriving meanwhile
  get `unavailable`); close every WebSocket with 1001, then every other socket (HTTP, or
  one that never upgraded: their idle and handshake timers go with them); close the store,
  last. The store's own
  safety-net trigger is handed over at start, or it would close alongside the tables'
  drain and refuse the appends still queued.

The settings are `server.config` (`ServerConfig`, `load_config`); the demo of `make run` is
`server.demo`.
"""

from __future__ import annotations

import json
import os
import socket
from collections.abc import Callable, Generator, Mapping
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from twisted.internet.defer import Deferred, inlineCallbacks
from twisted.logger import Logger

from protocol.messages import WS_PATH
from server.cluster.ownership import LeaseManager
from server.cluster.store_lock import StoreLock, acquire_store_lock
from server.config import ServerConfig
from server.demo import setup_demo
from server.eventlog.backends import open_store
from server.eventlog.store import EventStore
from server.eventlog.threaded import ThreadedStore
from server.metrics import Metrics
from server.net.http import build_site
from server.net.limits import ConnectionGate, descriptors_short
from server.net.links import LinkMaker
from server.net.tokens import TokenSigner, load_or_create_secret
from server.net.ws import T24WebSocketFactory
from server.runtime.hub import Hub
from server.runtime.offload import ProcessOffload

if TYPE_CHECKING:
    from server.eventlog.postgres import PostgresEngine

log = Logger(namespace="t24.app")


SOCKET_LINGER = 1.0  # seconds `stop` waits for a socket it closed before it cuts it


class T24Server:
    """One server process: store, hub, endpoints; `start` and `stop` (see module doc)."""

    def __init__(self, config: ServerConfig, reactor: Any) -> None:
        self.config = config
        self.reactor = reactor
        self.metrics = Metrics()
        self.store: EventStore | None = None
        self.hub: Hub | None = None
        self.factory: T24WebSocketFactory | None = None
        self.listening: Any = None
        self.gate: ConnectionGate | None = None
        self.url = ""
        self.demo_tokens: dict[str, Any] | None = None
        self.store_lock: StoreLock | None = None
        self.ownership: LeaseManager | None = None
        self._stopping = False

    @inlineCallbacks
    def start(self) -> Generator[Deferred[Any], Any, str]:
        """Open everything and listen; fires with the ws:// URL clients should use.

        The order is the safety of a start (issue 16): take the store's ownership, bind the
        port, and only then recover anything. A start that fails (the store owned by another
        server, the port taken) has appended nothing: recovery is what writes
        (`TablePaused server_restart`), and it runs last.
        """
        config = self.config
        signer = TokenSigner(load_or_create_secret(config.secret_file))
        self.signer = signer
        self.store_lock = acquire_store_lock(config.store)  # StoreOwned: nothing opened
        try:
            self._open(signer)
            if self.ownership is not None:
                yield self.ownership.open()
            self.listening = self.reactor.listenTCP(config.port, self.gate, interface=config.host)
        except BaseException:
            yield self._close_store()
            raise
        port = self.listening.getHost().port
        self.url = config.public_url or f"ws://{_url_host(config.host)}:{port}{WS_PATH}"
        if self.factory is not None:  # the printed links name the public address
            self.factory.links = LinkMaker(signer, self.url)
        if self.ownership is not None:  # same reactor turn as the bind: no client yet
            # default id: the host and the *configured* port, stable across restarts, so a
            # restarted node takes its own tables back at once (docs/operations.md)
            node_id = config.node_id or f"{socket.gethostname()}:{config.port}"
            self.ownership.set_node(node_id, config.advertise_url or self.url)
        hub = self.hub
        assert hub is not None
        loaded = yield hub.load_all()
        log.info("recovered {count} table(s) from {store}", count=loaded, store=config.store)
        hub.start_evicting()
        if self.ownership is not None:
            self.ownership.start_timers()
        if config.demo:
            self.demo_tokens = yield setup_demo(
                hub, signer, self.url, config, self.reactor.seconds()
            )
        if config.ready_file:
            _write_private(config.ready_file, {"url": self.url, "port": port, "pid": os.getpid()})
        log.info("listening on {url}", url=self.url, port=port, event="listening")
        return self.url

    def _open(self, signer: TokenSigner) -> None:
        """Open the store and build the hub and the endpoints; nothing is recovered yet."""
        config = self.config
        self.store = open_store(config.store, clock=self.reactor.seconds, reactor=self.reactor)
        if isinstance(self.store, ThreadedStore):
            self.store.hand_over_shutdown()  # `stop` closes it, after the tables drained
        engine = self.store.engine if isinstance(self.store, ThreadedStore) else None
        if getattr(engine, "conninfo", None) is not None:  # PostgreSQL: table leases
            engine = cast("PostgresEngine", engine)  # the one engine with a conninfo
            self.ownership = LeaseManager(engine, self.reactor, ttl=config.lease_seconds)
        self.hub = Hub(
            self.store,
            self.reactor,
            metrics=self.metrics,
            evict_after=config.evict_after,
            ownership=self.ownership,
            catch_up_cache_bytes=config.catch_up_cache_bytes,
            offload=ProcessOffload(self.reactor),
        )
        hub = self.hub
        if self.ownership is not None:
            self.ownership.hub = hub
            self._lease_metrics(self.ownership)
        self.metrics.gauge(
            "t24_live_tables", "Tables live in this process.", lambda: len(hub.actors)
        )
        self.metrics.gauge(
            "t24_events_in_memory",
            "Recorded events the live tables hold in memory (each its window of recent "
            "events, at most RECENT_EVENTS).",
            lambda: sum(len(actor.events) for actor in hub.actors.values()),
        )
        self.metrics.gauge(
            "t24_catch_up_cache_bytes",
            "Bytes held by the cache of older events' encoded pushes (catch_up_cache_bytes).",
            lambda: hub.chunks.bytes,
        )
        self.metrics.gauge(
            "t24_store_failing_tables",
            "Tables retrying a server command the event store failed.",
            lambda: len(hub.store_failing()),
        )
        transport = config.transport()
        self.factory = T24WebSocketFactory(
            hub=hub, signer=signer, reactor=self.reactor, config=transport, metrics=self.metrics
        )
        site = build_site(
            self.factory,
            self.store,
            self.metrics,
            self.reactor,
            idle_timeout=config.open_handshake_timeout,
            signing_key_file=config.signing_key_file,
        )
        short = descriptors_short(config.max_connections)
        if short is not None:
            log.warn("{why}", why=short, event="descriptors_short")
        self.gate = ConnectionGate(
            site,
            self.reactor,
            max_connections=config.max_connections,
            max_per_address=config.max_connections_per_address,
            handshake_timeout=config.open_handshake_timeout,
            abuse_cooldown=config.abuse_cooldown,
        )
        gate = self.gate
        self.metrics.gauge(
            "t24_sockets", "Accepted sockets (HTTP and WebSocket).", lambda: len(gate.protocols)
        )
        self.metrics.gauge(
            "t24_output_buffered_bytes",
            "Bytes written to sockets and not sent yet, over every socket still in memory, "
            "open or closed.",
            gate.buffered_output,
        )

    def _lease_metrics(self, ownership: LeaseManager) -> None:
        """`/metrics` of a node: leases held, and the redirects and failovers it made."""
        counts = ownership.counts
        self.metrics.gauge(
            "t24_leases_held", "Table leases this node holds.", lambda: len(ownership.held())
        )
        for name, key, help_text in (
            ("t24_redirects_total", "redirects", "Requests answered `moved` (another node)."),
            ("t24_failovers_total", "failovers", "Tables taken over from a node that was gone."),
            ("t24_leases_lost_total", "lost", "Leases this node lost (its tables dropped)."),
        ):
            self.metrics.counter(name, help_text, partial(counts.__getitem__, key))

    @inlineCallbacks
    def _close_store(self) -> Generator[Deferred[Any], Any, None]:
        """Close the leases and the store, then drop the store's lock (only once the store is
        closed): the last step of `stop`, and the undoing of a start that failed before
        recovery."""
        try:
            if self.ownership is not None:
                yield self.ownership.close()
            if self.store is not None:
                yield self.store.close()
        finally:
            if self.store_lock is not None:
                self.store_lock.release()

    @inlineCallbacks
    def stop(self) -> Generator[Deferred[Any], Any, None]:
        """Graceful stop, in order (see module doc): no new connections; queued commands and
        in-flight appends finish and are answered; sockets close with 1001; the store closes.

        Why this order: a command the server accepted into a table's queue is a promise; the
        store must outlive the drain, and the sockets must outlive the replies.
        """
        if self._stopping:
            return
        self._stopping = True
        log.info("shutting down")
        try:
            if self.factory is not None:
                self.factory.closing = True  # handshakes in progress get 503
            if self.listening is not None:
                yield self.listening.stopListening()
            if self.hub is not None:
                yield self.hub.shutdown()
            if self.ownership is not None:  # drained: other nodes may take the tables now
                yield self.ownership.release_all()
            if self.factory is not None:
                self.factory.close_all()
                yield self._sockets_closed(self.config.shutdown_grace)
            yield self._close_other_sockets()
        finally:
            yield self._close_store()
        log.info("stopped")

    def _sockets_closed(self, grace: float) -> Deferred[None]:
        """Fires when every WebSocket is closed, or after `grace` seconds."""
        assert self.factory is not None
        factory = self.factory
        return self._until(lambda: not factory.sessions, grace)

    @inlineCallbacks
    def _close_other_sockets(self) -> Generator[Deferred[Any], Any, None]:
        """Close the sockets still open once the WebSockets had their goodbye: HTTP
        connections kept alive, sockets that never sent their upgrade, WebSockets past the
        grace. Why: each holds a timer (idle, handshake) and a descriptor that would outlive
        the stop until that timer fired; in process, the reactor is only clean without them.
        Closed politely first (a response being written is sent), then cut."""
        gate = self.gate
        if gate is None:
            return
        for connection in list(gate.protocols):
            connection.transport.loseConnection()
        yield self._until(lambda: not gate.protocols, SOCKET_LINGER)
        for connection in list(gate.protocols):
            connection.transport.abortConnection()
        yield self._until(lambda: not gate.protocols, SOCKET_LINGER)

    def _until(self, condition: Callable[[], bool], seconds: float) -> Deferred[None]:
        """Fires once `condition()` holds (checked every 50 ms), or after `seconds`."""
        done: Deferred[None] = Deferred()
        deadline = self.reactor.seconds() + seconds

        def check() -> None:
            if condition() or self.reactor.seconds() >= deadline:
                done.callback(None)
            else:
                self.reactor.callLater(0.05, check)

        check()
        return done


def _url_host(host: str) -> str:
    if host in ("", "0.0.0.0", "::"):
        return "127.0.0.1"
    return f"[{host}]" if ":" in host else host


def _write_private(path: str, payload: Mapping[str, Any]) -> None:
    """Write JSON atomically with mode 0600 (it may hold credentials)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    temp = target.with_name(target.name + ".tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        json.dump(payload, handle, indent=2)
        handle.write("\n")
    os.replace(temp, target)
