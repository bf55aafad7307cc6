"""The whole server (`T24Server`) on the real global reactor, in this process, with Autobahn
clients on the same reactor: after `stop`, nothing of it may be left on the reactor (issue 18).

The other in-process tests drive the shell with a `task.Clock`, so a timer the server leaves
on the real reactor, or a socket it never closes, is invisible to them. Here the tests wait on
the real reactor (they return Deferreds) and trial's dirty-reactor check fails any test after
which a DelayedCall is pending or a port or connection is open.
"""

from __future__ import annotations

from typing import Any

from autobahn.twisted.websocket import WebSocketClientFactory, WebSocketClientProtocol, connectWS
from postgres_schemas import fresh_schema
from shell_testcase import ShellTestCase
from twisted.internet import defer, protocol, reactor, task
from twisted.internet.defer import inlineCallbacks
from twisted.internet.endpoints import TCP4ClientEndpoint, connectProtocol
from twisted.logger import globalLogPublisher

from protocol.client import ClientSession
from protocol.messages import SUBPROTOCOL
from server.app import T24Server
from server.config import load_config
from server.eventlog.store import StoreUnavailable

DECK = [
    {"card_id": "c1", "numbers": [1, 2, 3, 4], "dots": 1},
    {"card_id": "c2", "numbers": [3, 3, 8, 8], "dots": 3},
]
SEATS = [{"seat": f"s{i}", "name": f"Student {i}"} for i in range(1, 4)]


class _ClientProtocol(WebSocketClientProtocol):
    def onOpen(self) -> None:  # noqa: N802 - Autobahn's name
        self.factory.owner.opened(self)

    def onMessage(self, payload: bytes, isBinary: bool) -> None:  # noqa: N802, N803
        self.factory.owner.received(payload)

    def onClose(self, wasClean: bool, code: int | None, reason: str | None) -> None:  # noqa: N802, N803
        self.factory.owner.gone(self.remoteCloseCode if self.remoteCloseCode else code)


class Client:
    """An Autobahn client on the global reactor; every wait is a Deferred."""

    def __init__(self, url: str) -> None:
        self.session = ClientSession()
        self.messages: list[dict[str, Any]] = []
        self.protocol: _ClientProtocol | None = None
        self.open: defer.Deferred = defer.Deferred()
        self.closed: defer.Deferred = defer.Deferred()
        self._waiting: list[tuple[Any, defer.Deferred]] = []
        factory = WebSocketClientFactory(url, protocols=[SUBPROTOCOL])
        factory.protocol = _ClientProtocol
        factory.owner = self
        factory.setProtocolOptions(autoPingInterval=0, openHandshakeTimeout=5)
        connectWS(factory, timeout=5)

    def opened(self, proto: _ClientProtocol) -> None:
        self.protocol = proto
        self.open.callback(self)

    def received(self, payload: bytes) -> None:
        message = self.session.receive(payload)
        for waiting in list(self._waiting):
            predicate, d = waiting
            if predicate(message):
                self._waiting.remove(waiting)
                d.callback(message)
                return
        self.messages.append(message)

    def gone(self, code: int | None) -> None:
        if not self.closed.called:
            self.closed.callback(code)

    def wait_for(self, predicate: Any) -> defer.Deferred:
        for message in self.messages:
            if predicate(message):
                self.messages.remove(message)
                return defer.succeed(message)
        d: defer.Deferred = defer.Deferred()
        self._waiting.append((predicate, d))
        return d

    def request(self, kind: str, **fields: Any) -> defer.Deferred:
        """Send a request; fires with its reply (event pushes are kept meanwhile)."""
        assert self.protocol is not None
        request_id, frame = self.session.request(kind, **fields)
        self.protocol.sendMessage(frame, isBinary=True)
        return self.wait_for(lambda m: m.get("id") == request_id and m["type"] != "event")

    def close(self) -> defer.Deferred:
        assert self.protocol is not None
        self.protocol.sendClose(1000)
        return self.closed


class ServerCase(ShellTestCase):
    """A `T24Server` on the real reactor (stopped after the test if it is not yet), and
    clients that said hello."""

    timeout = 60  # seconds, per test (trial's), on a loaded machine

    @inlineCallbacks
    def start_server(self, **settings: Any) -> Any:
        flags = {
            "host": "127.0.0.1",
            "port": "0",
            "store": f"sqlite:///{self.tmp_path / 'events.sqlite'}",
            "secret_file": str(self.tmp_path / "secret"),
            **settings,
        }
        server = T24Server(load_config(flags, {}), reactor)
        url = yield server.start()
        self.addCleanup(server.stop)  # idempotent: a test may stop it first
        return server, url

    def token(self, server: T24Server, role: str, **claims: str) -> str:
        return server.signer.issue(role, now=reactor.seconds(), **claims)[0]

    @inlineCallbacks
    def connect(self, server: T24Server, url: str, role: str, **claims: str) -> Any:
        client = yield Client(url).open
        welcome = yield client.request("hello", token=self.token(server, role, **claims))
        assert welcome["type"] == "welcome", welcome
        return client


class ServerInProcessTests(ServerCase):
    @inlineCallbacks
    def test_a_round_played_then_closed_and_stopped_leaves_nothing_behind(self):
        server, url = yield self.start_server()
        director = yield self.connect(server, url, "director", name="d")
        options = {"seats": SEATS, "deck": DECK}
        created = yield director.request("create_table", table="t1", options=options)
        assert created["type"] == "table_created", created
        proctor = yield self.connect(server, url, "proctor", name="p", table="t1")
        player = yield self.connect(server, url, "player", table="t1", seat="s1")
        for client in (proctor, player):
            snapshot = yield client.request("join", table="t1")
            assert snapshot["type"] == "snapshot" and snapshot["seq"] == 1
        for name in ("start_round", "place_card", "reveal_card"):
            reply = yield proctor.request("command", table="t1", name=name, args={})
            assert reply["type"] == "accepted", reply
        reply = yield player.request("command", table="t1", name="touch_card", args={})
        assert reply["type"] == "accepted", reply
        for client in (director, proctor, player):
            code = yield client.close()
            assert code == 1000
        yield server.stop()

    @inlineCallbacks
    def test_a_stop_closes_connected_clients_with_1001_and_timed_tables(self):
        """Clients still connected (one not yet identified), a table with its auto-proctor
        deadline pending."""
        server, url = yield self.start_server()
        director = yield self.connect(server, url, "director", name="d")
        options = {"seats": SEATS, "deck": DECK, "auto_proctor": 30}
        created = yield director.request("create_table", table="t1", options=options)
        assert created["type"] == "table_created", created
        reply = yield director.request("command", table="t1", name="start_round", args={})
        assert reply["type"] == "accepted", reply
        spectator = yield self.connect(server, url, "spectator", name="w", table="t1")
        player = yield self.connect(server, url, "player", table="t1", seat="s2")
        for client in (spectator, player):  # a player's lag is probed, on a timer
            snapshot = yield client.request("join", table="t1")
            assert snapshot["type"] == "snapshot"
        unnamed = yield Client(url).open  # no hello yet: its hello deadline is pending
        yield server.stop()
        everyone = (director, spectator, player, unnamed)
        codes = yield defer.gatherResults([client.closed for client in everyone])
        assert codes == [1001] * 4

    @inlineCallbacks
    def test_the_keep_alive_pings_measure_a_player_that_is_not_probed(self):
        """Issue 32: a player of a table without `touch_compensation` gets a few probes after
        its hello, then only Autobahn's keep-alive pings, whose RTTs feed its estimate."""
        from server.net.lag import INITIAL_PROBES

        server, url = yield self.start_server(auto_ping_interval="1")
        director = yield self.connect(server, url, "director", name="d")
        created = yield director.request(
            "create_table", table="t1", options={"seats": SEATS, "deck": DECK}
        )
        assert created["type"] == "table_created", created
        player = yield self.connect(server, url, "player", table="t1", seat="s1")
        snapshot = yield player.request("join", table="t1")
        assert snapshot["type"] == "snapshot"
        (session,) = [s for s in server.factory.sessions if s.viewer.role == "player"]
        for _ in range(200):  # up to 10 s on a loaded machine
            if len(session.lag.rtts) > INITIAL_PROBES:
                break
            yield task.deferLater(reactor, 0.05, lambda: None)
        assert session.lag.next_number - 1 <= INITIAL_PROBES  # probes sent: the first few
        assert len(session.lag.rtts) > INITIAL_PROBES  # the keep-alives' samples on top
        for client in (director, player):
            yield client.close()
        yield server.stop()

    @inlineCallbacks
    def test_a_pocket_tables_deck_is_drawn_in_the_worker_before_the_table_is_recorded(self):
        """Issue 32: a pocket table with a fresh seed draws its Double Digits stack at
        `start_game`; the server draws that deck in its worker process before it records the
        table, so `decide` finds it cached and draws nothing on the reactor."""
        from server.puzzles.editions import tournament_deck

        server, url = yield self.start_server()
        director = yield self.connect(server, url, "director", name="d")
        options = {"edition": "double-digits", "seats": [{"seat": "s1", "name": "Ada"}]}
        misses = tournament_deck.cache_info().misses
        created = yield director.request("create_table", table="p1", game="pocket", options=options)
        assert created["type"] == "table_created", created
        seed = server.hub.actors["p1"].options["seed"]  # drawn by the shell: fresh, secret
        assert tournament_deck.cached("double-digits", seed, 1)
        started = yield director.request("command", table="p1", name="start_game", args={})
        assert started["type"] == "accepted", started
        assert tournament_deck.cache_info().misses == misses  # never drawn in this process
        yield director.close()
        yield server.stop()

    @inlineCallbacks
    def test_a_dropped_client_is_let_go(self):
        server, url = yield self.start_server()
        dropped = yield self.connect(server, url, "director", name="d")
        assert dropped.protocol is not None
        dropped.protocol.transport.abortConnection()  # no close handshake: the TCP link goes
        yield dropped.closed
        yield server.stop()

    @inlineCallbacks
    def test_a_stop_closes_the_sockets_that_are_not_websockets(self):
        """A socket that never sends its upgrade, and an HTTP client that keeps its connection
        after a /healthz: `stop` closes them, not their idle or handshake timeouts (set long
        here, so that only the stop can have closed them)."""
        server, _url = yield self.start_server(open_handshake_timeout="60")
        endpoint = TCP4ClientEndpoint(reactor, "127.0.0.1", server.listening.getHost().port)
        silent = yield connectProtocol(endpoint, Peer())  # never sends a byte
        keeping = yield connectProtocol(endpoint, Peer())
        keeping.transport.write(b"GET /healthz HTTP/1.1\r\nHost: t24\r\n\r\n")
        response = yield keeping.wait_for(b"\r\n\r\n")
        assert response.startswith(b"HTTP/1.1 200"), response
        yield server.stop()
        assert not server.gate.protocols  # no socket left, none of their timers
        yield defer.gatherResults([silent.lost, keeping.lost])

    @inlineCallbacks
    def test_a_node_on_postgresql_stops_with_its_lease_timers(self):
        """On PostgreSQL the server holds table leases, renewed on a timer (server/cluster)."""
        url, _schema = self.enterContext(fresh_schema())
        server, ws_url = yield self.start_server(store=url, lease_seconds="2")
        director = yield self.connect(server, ws_url, "director", name="d")
        created = yield director.request(
            "create_table", table="t1", options={"seats": SEATS, "deck": DECK}
        )
        assert created["type"] == "table_created", created
        assert server.ownership is not None and server.ownership.held()
        yield server.stop()
        yield director.closed


class Peer(protocol.Protocol):
    """A raw TCP client: what it received, and a Deferred for its end."""

    def __init__(self) -> None:
        self.received = b""
        self.lost: defer.Deferred = defer.Deferred()
        self._waiting: tuple[bytes, defer.Deferred] | None = None

    def dataReceived(self, data: bytes) -> None:  # noqa: N802 - Twisted's name
        self.received += data
        if self._waiting is not None and self._waiting[0] in self.received:
            d, self._waiting = self._waiting[1], None
            d.callback(self.received)

    def wait_for(self, marker: bytes) -> defer.Deferred:
        if marker in self.received:
            return defer.succeed(self.received)
        d: defer.Deferred = defer.Deferred()
        self._waiting = (marker, d)
        return d

    def connectionLost(self, reason: Any) -> None:  # noqa: N802 - Twisted's name
        self.lost.callback(None)


class ServerStoreFailureTests(ServerCase):
    @inlineCallbacks
    def test_a_stop_while_a_deadline_waits_to_retry_a_failed_append(self):
        """The store fails the auto-proctor's append: the retry timer must go with the stop."""
        server, url = yield self.start_server()
        director = yield self.connect(server, url, "director", name="d")
        options = {"seats": SEATS, "deck": DECK, "auto_proctor": 1}
        created = yield director.request("create_table", table="t1", options=options)
        assert created["type"] == "table_created", created
        reply = yield director.request("command", table="t1", name="start_round", args={})
        assert reply["type"] == "accepted", reply
        failing: defer.Deferred = defer.Deferred()

        def watch(event: dict) -> None:
            if event.get("event") == "store_failing" and not failing.called:
                failing.callback(event)

        globalLogPublisher.addObserver(watch)
        self.addCleanup(globalLogPublisher.removeObserver, watch)

        def refuse(*_args: Any) -> Any:
            raise StoreUnavailable("disk gone")

        # place_card, due 1 s after the round started, cannot be appended
        self.monkeypatch.setattr(server.store.engine, "append_batch", refuse)
        event = yield failing
        assert event["table"] == "t1"
        yield task.deferLater(reactor, 0, lambda: None)  # the turn that set the retry timer
        assert server.hub.actors["t1"].store_failures >= 1
        pending = [str(call) for call in reactor.getDelayedCalls()]
        assert any("_retry_after_store_failure" in call for call in pending), pending
        yield server.stop()
        yield director.closed
        assert self.flushLoggedErrors(StoreUnavailable)  # the store's own log of the failure
