"""Wiring: configuration, the store, the hub, the WebSocket and HTTP endpoints, the demo.

What it keeps:
- `ServerConfig`, every setting of `t24-server`, and `load_config`, which layers them:
  defaults < TOML file (`--config` or `T24_CONFIG`) < environment (`T24_<NAME>`) < flags.
- `T24Server`: `start()` takes the store's ownership (server/cluster), opens the store,
  listens, and only then rebuilds every table from its log (recovery: a table whose timers
  were running is paused), and sets up the demo table when asked; a start that fails before
  recovery has written nothing;
  `stop()` (run on SIGTERM/SIGINT, before reactor shutdown) is the one shutdown sequence, in
  this order: stop accepting connections; let every table decide its queued commands and
  finish its in-flight appends (their replies and pushes go out; commands arriving meanwhile
  get `unavailable`); close every WebSocket with 1001, then every other socket (HTTP, or
  one that never upgraded: their idle and handshake timers go with them); close the store,
  last. The store's own
  safety-net trigger is handed over at start, or it would close alongside the tables'
  drain and refuse the appends still queued.
- The demo (`make run`): table `demo`, four seats, a Single Digits deck, `auto_proctor`,
  and a pocket table `demo-pocket`; a demo table that is finished is kept and the next run
  plays on a fresh one (`demo-2`, `demo-pocket-2`, ...: `demo_table_id`);
  its tokens written one file per person to `var/demo-tokens/` (`protocol.token_files`,
  mode 0600: the tokens are credentials) and ready-to-paste client commands printed that
  read them from those files (never a token on a command line: `ps`, shell history).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import os
import shlex
import socket
import sys
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from twisted.internet.defer import Deferred, inlineCallbacks
from twisted.logger import Logger

from protocol.codec import Limits
from protocol.messages import WS_PATH
from protocol.token_files import person_files, write_token_files
from server.cluster.leases import DEFAULT_LEASE_SECONDS
from server.cluster.ownership import LeaseManager
from server.cluster.store_lock import StoreLock, acquire_store_lock
from server.eventlog.store import DEFAULT_STORE_URL, open_store
from server.eventlog.threaded import ThreadedStore
from server.games.base import Actor
from server.metrics import Metrics
from server.net.http import build_site
from server.net.limits import ConnectionGate, descriptors_short
from server.net.rate_limits import NetConfig
from server.net.static import page_url
from server.net.tokens import TokenSigner, load_or_create_secret
from server.net.ws import T24WebSocketFactory, TransportConfig
from server.runtime.hub import Hub
from server.runtime.pushes import CATCH_UP_CACHE_BYTES

log = Logger(namespace="t24.app")

ENV_PREFIX = "T24_"
DEMO_TABLE = "demo"
DEMO_SEATS = ("s1", "s2", "s3", "s4")
DEMO_TOKEN_TTL = 7 * 24 * 3600
# A casual table beside the demo's 24 Challenge table: its players' browser links are
# printed too (a terminal only), so `make run` shows the casual games' pages as well.
DEMO_POCKET_TABLE = "demo-pocket"
DEMO_POCKET_SEATS = ("s1", "s2")


class ConfigError(Exception):
    """A setting that cannot be used (unknown key, wrong type, unreadable TOML file)."""


@dataclass(frozen=True)
class ServerConfig:
    """Every setting of `t24-server` (docs/operations.md lists them with their env vars)."""

    store: str = DEFAULT_STORE_URL
    host: str = "127.0.0.1"
    port: int = 8024
    public_url: str = ""  # the ws:// URL clients are told; default ws://HOST:PORT/ws
    secret_file: str = "var/t24.secret"
    ready_file: str = ""  # written (JSON: url, port, pid) once listening; for scripts/tests
    demo: bool = False
    demo_tokens_dir: str = "var/demo-tokens"
    demo_seed: int = 24
    demo_auto_proctor: float = 5.0
    log_format: str = "auto"  # json | text | auto (text on a terminal, json otherwise)
    log_level: str = "info"  # debug | info | warn | error
    # The network limits: each default is written once, where the layer that applies it
    # declares it (protocol.codec.Limits, server.net.rate_limits.NetConfig, server.net.ws.
    # TransportConfig); the server's settings only name them.
    max_message_bytes: int = Limits.max_message_bytes
    max_connections: int = TransportConfig.max_connections
    max_connections_per_address: int = TransportConfig.max_connections_per_address
    server_rate_per_second: float = TransportConfig.server_rate_per_second
    abuse_cooldown: float = TransportConfig.abuse_cooldown
    max_unread_bytes: int = TransportConfig.max_unread_bytes
    rate_per_second: float = NetConfig.rate_per_second
    rate_burst: int = NetConfig.rate_burst
    abuse_strikes: int = NetConfig.abuse_strikes
    hello_timeout: float = NetConfig.hello_timeout
    open_handshake_timeout: float = TransportConfig.open_handshake_timeout
    auto_ping_interval: float = TransportConfig.auto_ping_interval
    auto_ping_timeout: float = TransportConfig.auto_ping_timeout
    allowed_origins: tuple[str, ...] = TransportConfig.allowed_origins
    allow_null_origin: bool = TransportConfig.allow_null_origin
    max_joins: int = NetConfig.max_joins
    shutdown_grace: float = 5.0
    evict_after: float = 600.0  # seconds a finished, unwatched table stays in memory; 0: never
    catch_up_cache_bytes: int = CATCH_UP_CACHE_BYTES  # older events' pushes, all tables
    # Several nodes on one PostgreSQL (server/cluster, docs/operations.md).
    node_id: str = ""  # this node's name in the leases; default HOSTNAME:PORT
    advertise_url: str = ""  # the ws:// URL other nodes redirect clients to; default the URL
    lease_seconds: float = DEFAULT_LEASE_SECONDS  # a dead node's tables move after this

    def transport(self) -> TransportConfig:
        """The network limits as the WebSocket layer takes them."""
        return TransportConfig(
            max_connections=self.max_connections,
            open_handshake_timeout=self.open_handshake_timeout,
            auto_ping_interval=self.auto_ping_interval,
            auto_ping_timeout=self.auto_ping_timeout,
            allowed_origins=self.allowed_origins,
            allow_null_origin=self.allow_null_origin,
            max_unread_bytes=self.max_unread_bytes,
            server_rate_per_second=self.server_rate_per_second,
            max_connections_per_address=self.max_connections_per_address,
            abuse_cooldown=self.abuse_cooldown,
            net=NetConfig(
                limits=Limits(max_message_bytes=self.max_message_bytes),
                rate_per_second=self.rate_per_second,
                rate_burst=self.rate_burst,
                abuse_strikes=self.abuse_strikes,
                hello_timeout=self.hello_timeout,
                max_joins=self.max_joins,
            ),
        )


FIELDS = {f.name: f for f in dataclasses.fields(ServerConfig)}
SOCKET_LINGER = 1.0  # seconds `stop` waits for a socket it closed before it cuts it
# Settings Autobahn times with txaio's batched timer, which rounds every deadline down to a
# whole second (`int(now + delay)`): such a timer fires up to 1 s early.
AUTOBAHN_TIMERS = ("open_handshake_timeout", "auto_ping_interval", "auto_ping_timeout")


def convert(name: str, value: Any) -> Any:
    """Convert a raw setting (a TOML value or an env/flag string) to the field's type."""
    kind = FIELDS[name].type
    try:
        if kind == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise ValueError(f"not a boolean: {value!r}")
        if kind == "int":
            if isinstance(value, bool):
                raise ValueError("not an integer")
            return int(value)
        if kind == "float":
            if isinstance(value, bool):
                raise ValueError("not a number")
            return float(value)
        if kind == "tuple[str, ...]":
            items = value if isinstance(value, list | tuple) else str(value).split(",")
            return tuple(str(item).strip() for item in items if str(item).strip())
        if not isinstance(value, str):
            raise ValueError(f"not a string: {value!r}")
        return value
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"setting {name}: {exc}") from exc


def read_toml(path: str) -> dict[str, Any]:
    """The settings of a TOML file (top level, or a `[server]` table), names checked."""
    try:
        with open(path, "rb") as handle:
            raw = tomllib.load(handle)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"config file {path}: {exc}") from exc
    raw = raw.get("server", raw)
    settings = {}
    for key, value in raw.items():
        name = key.replace("-", "_")
        if name not in FIELDS:
            raise ConfigError(f"config file {path}: unknown setting {key!r}")
        settings[name] = convert(name, value)
    return settings


def load_config(
    flags: Mapping[str, Any], environ: Mapping[str, str], config_file: str | None = None
) -> ServerConfig:
    """Layer defaults < TOML < environment < flags (flags given as None are absent).

    Why this order: a file holds the deployment, the environment adapts it per host or
    container, and a flag typed by hand wins.
    """
    settings: dict[str, Any] = {}
    path = config_file or environ.get(ENV_PREFIX + "CONFIG")
    if path:
        settings.update(read_toml(path))
    for name in FIELDS:
        env = environ.get(ENV_PREFIX + name.upper())
        if env is not None:
            settings[name] = convert(name, env)
    for name, value in flags.items():
        if value is not None:
            if name not in FIELDS:
                raise ConfigError(f"unknown setting {name!r}")
            settings[name] = convert(name, value)
    config = ServerConfig(**settings)
    if config.log_format not in ("json", "text", "auto"):
        raise ConfigError("log_format is json, text or auto")
    if config.log_level not in ("debug", "info", "warn", "error"):
        raise ConfigError("log_level is debug, info, warn or error")
    if not 0 <= config.port <= 65535:
        raise ConfigError("port is 0..65535 (0: any free port)")
    if config.lease_seconds < 0.3:
        raise ConfigError("lease_seconds is at least 0.3 (renewed every third of it)")
    if config.evict_after < 0:
        raise ConfigError("evict_after is 0 (never evict) or a number of seconds")
    if config.catch_up_cache_bytes < 0:
        raise ConfigError("catch_up_cache_bytes is 0 (no cache) or a number of bytes")
    for name in AUTOBAHN_TIMERS:
        if getattr(config, name) < 1.0:
            raise ConfigError(
                f"{name} is at least 1 second: Autobahn's timers count whole seconds and fire "
                "up to 1 s early, so a shorter one could fire at once"
            )
    return config


class T24Server:
    """One server process: store, hub, endpoints; `start` and `stop` (see module doc)."""

    def __init__(self, config: ServerConfig, reactor: Any) -> None:
        self.config = config
        self.reactor = reactor
        self.metrics = Metrics()
        self.store: Any = None
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
    def start(self) -> Any:
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
            yield self._abandon()
            raise
        port = self.listening.getHost().port
        self.url = config.public_url or f"ws://{_url_host(config.host)}:{port}{WS_PATH}"
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
            self.demo_tokens = yield self.setup_demo()
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
        engine = getattr(self.store, "engine", None)
        if getattr(engine, "conninfo", None) is not None:  # PostgreSQL: table leases
            self.ownership = LeaseManager(engine, self.reactor, ttl=config.lease_seconds)
        self.hub = Hub(
            self.store,
            self.reactor,
            metrics=self.metrics,
            evict_after=config.evict_after,
            ownership=self.ownership,
            catch_up_cache_bytes=config.catch_up_cache_bytes,
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
            self.metrics.counter(name, help_text, lambda key=key: counts[key])

    @inlineCallbacks
    def _abandon(self) -> Any:
        """Undo a start that failed before recovery: close the store, drop the lock."""
        try:
            if self.ownership is not None:
                yield self.ownership.close()
            if self.store is not None:
                yield self.store.close()
        finally:
            if self.store_lock is not None:
                self.store_lock.release()

    @inlineCallbacks
    def stop(self) -> Any:
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
            try:
                if self.ownership is not None:
                    yield self.ownership.close()
                if self.store is not None:
                    yield self.store.close()
            finally:
                if self.store_lock is not None:
                    self.store_lock.release()  # only once the store is closed
        log.info("stopped")

    def _sockets_closed(self, grace: float) -> Deferred:
        """Fires when every WebSocket is closed, or after `grace` seconds."""
        assert self.factory is not None
        factory = self.factory
        return self._until(lambda: not factory.sessions, grace)

    @inlineCallbacks
    def _close_other_sockets(self) -> Any:
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

    def _until(self, condition: Any, seconds: float) -> Deferred:
        """Fires once `condition()` holds (checked every 50 ms), or after `seconds`."""
        done: Deferred = Deferred()
        deadline = self.reactor.seconds() + seconds

        def check() -> None:
            if condition() or self.reactor.seconds() >= deadline:
                done.callback(None)
            else:
                self.reactor.callLater(0.05, check)

        check()
        return done

    # -- the demo ----------------------------------------------------------------------------

    def demo_table_id(self, base: str) -> str:
        """The demo's table id for this run: `base`, or `base-2`, `base-3`, ... when the
        earlier ones are finished.

        Why: a second `make run` on the same store should give a playable demo. A demo table
        still in play (the server was restarted mid-round) is kept, so its players resume;
        one nobody can play again (`demo_finished`) is left as it is (its log, its replay)
        and the next id is used.
        """
        assert self.hub is not None
        listed = {row["table"] for row in self.hub.tables()}
        for number in itertools.count(1):
            table = base if number == 1 else f"{base}-{number}"
            actor = self.hub.actors.get(table)
            if actor is not None and not demo_finished(actor):
                return table
            if actor is None and table not in listed:
                return table
        raise AssertionError("unreachable")  # pragma: no cover - count() never ends

    @inlineCallbacks
    def setup_demo(self) -> Any:
        """Create (or reuse) the demo tables; write and print their tokens."""
        from server.games.challenge.options import tournament_table_deck

        assert self.hub is not None
        config = self.config
        table = self.demo_table_id(DEMO_TABLE)
        pocket_table = self.demo_table_id(DEMO_POCKET_TABLE)
        if table not in self.hub.actors:
            options = {
                "seats": [{"seat": seat, "name": f"Seat {seat[1:]}"} for seat in DEMO_SEATS],
                "deck": tournament_table_deck("single-digits", config.demo_seed, 1),
                "auto_proctor": config.demo_auto_proctor,
            }
            director = Actor("director", "demo")
            yield self.hub.create_table(table, "challenge", options, director)
        if pocket_table not in self.hub.actors:
            pocket = {
                "seats": [{"seat": seat, "name": f"Seat {seat[1:]}"} for seat in DEMO_POCKET_SEATS],
                "size": 12,
            }
            director = Actor("director", "demo")
            yield self.hub.create_table(pocket_table, "pocket", pocket, director)
        now = self.reactor.seconds()

        def issue(role: str, **claims: Any) -> str:
            return self.signer.issue(role, now=now, ttl_seconds=DEMO_TOKEN_TTL, **claims)[0]

        files = person_files(
            self.url,
            table,
            proctor=issue("proctor", name="proctor", table=table),
            spectator=issue("spectator", name="spectator", table=table),
            seats=[
                {
                    "seat": seat,
                    "name": f"Seat {seat[1:]}",
                    "token": issue("player", table=table, seat=seat),
                }
                for seat in DEMO_SEATS
            ],
            director=issue("director", name="director"),
        )
        write_token_files(config.demo_tokens_dir, files)
        # The browser links hold tokens: printed to a terminal only, never into a log file
        # or a journal that stdout may be (issue 13: no server log holds a token).
        links = sys.stdout.isatty()
        banner = demo_banner(files, config.demo_tokens_dir, links=links)
        if table != DEMO_TABLE:
            banner = (
                f"\nthe earlier demo tables are finished (kept for replay): this run's is "
                f"{table!r}{banner}"
            )
        if links:
            pocket = [
                (seat, issue("player", table=pocket_table, seat=seat)) for seat in DEMO_POCKET_SEATS
            ]
            banner += "\n" + "\n".join(casual_demo_lines(self.url, pocket_table, pocket))
        print(banner, flush=True)
        return files


def demo_finished(actor: Any) -> bool:
    """A demo table nobody can play again: its game is over (a signed score card, an ended
    pocket game) or its one round has ended (a 24 Challenge table plays a single round)."""
    return bool(actor.is_over() or getattr(actor.state, "phase", None) == "ended")


def client_program() -> str:
    """How to call `t24` from here: the one installed beside this interpreter, if any.

    Why: `make run` starts the server from `.venv` without activating it, so a bare `t24`
    is usually not on the PATH of the terminal the commands are pasted into.
    """
    beside = Path(sys.executable).parent / "t24"
    if not beside.exists():
        return "t24"
    try:
        return str(beside.relative_to(Path.cwd()))
    except ValueError:
        return str(beside)


def demo_banner(files: Mapping[str, Mapping[str, Any]], directory: str, links: bool = True) -> str:
    """The text `make run` prints: one command per client, each reading its own file.

    Why files: a token on a command line is seen by `ps` and kept in shell history; the
    files are mode 0600 and each holds one person's token (`protocol.token_files`).
    """
    t24 = client_program()

    def tokens(name: str) -> str:
        return shlex.quote(str(Path(directory) / name))

    proctor = files["proctor.json"]
    seat_files = [(name, data["seats"][0]) for name, data in files.items() if "seats" in data]
    lines = [
        "",
        f"t24 demo: table {proctor['table']!r} (4 seats, Single Digits, auto_proctor) at "
        f"{proctor['url']}",
        "",
        f"tokens, one file per person (mode 0600), in {directory}/: hand each person only",
        "theirs. director.json is yours (it creates tables and signs tokens): never hand it out.",
        "",
        "proctor (start the round, resume after a restart):",
        f"  {t24} proctor --tokens {tokens('proctor.json')}",
    ]
    for name, seat in seat_files:
        lines += [
            f"player {seat['seat']} ({seat['name']}):",
            f"  {t24} play --tokens {tokens(name)}",
        ]
    lines += [
        "spectator:",
        f"  {t24} watch --tokens {tokens('spectator.json')}",
        "a bot for an empty seat (skills: perfect, human, random):",
        f"  {t24} bot --tokens {tokens(seat_files[-1][0])} --skill human",
        "",
        "on another machine: copy that person's file, or set T24_URL and T24_TOKEN",
        "",
    ]
    if not links:
        lines += [
            "browser links (http://HOST:PORT/#token=...) are printed to a terminal only: they",
            "hold tokens, and this output may be a log. Run `make run` in a terminal for them.",
            "",
        ]
        return "\n".join(lines)
    return "\n".join(lines + browser_lines(files))


def browser_lines(files: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The banner's browser part (issue 13): one web-client link per person, the token in
    the link's fragment, which the browser never sends to the server (no access log holds
    it). Each link is that person's token: hand it only to them."""
    proctor = files["proctor.json"]
    url = str(proctor["url"])
    lines = ["in a browser (each link holds that person's token: hand it only to them):"]
    lines.append(f"- proctor console: {page_url(url, str(proctor['proctor']))}")
    for data in files.values():
        for seat in data.get("seats", []):
            link = page_url(url, str(seat["token"]))
            lines.append(f"- player {seat['seat']} ({seat['name']}): {link}")
    spectator = files["spectator.json"]
    lines.append(f"- spectator scoreboard: {page_url(url, str(spectator['spectator']))}")
    director = files.get("director.json")
    if director is not None:
        lines.append(
            f"- director (yours only: every table): {page_url(url, str(director['director']))}"
        )
    return [*lines, ""]


def casual_demo_lines(url: str, table: str, seats: Sequence[tuple[str, str]]) -> list[str]:
    """The banner's lines for the demo's pocket table: one browser link per player (each
    holds that player's token, like the other links)."""
    lines = [f"a casual game in a browser, pocket table {table!r} (any player starts it):"]
    lines += [f"- pocket player {seat}: {page_url(url, token)}" for seat, token in seats]
    return [*lines, ""]


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
