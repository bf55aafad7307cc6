"""The network layer without sockets: tokens, the secret file, sessions driven by a task.Clock
over a memory-store hub, the Autobahn options, /healthz and /metrics."""

from __future__ import annotations

import json
import os
import stat

import pytest
import toygame
from autobahn.twisted.websocket import WebSocketClientFactory
from prometheus_client.parser import text_string_to_metric_families
from shell_testcase import ShellTestCase
from twisted.internet import defer
from twisted.internet.error import ConnectionDone
from twisted.internet.task import Clock
from twisted.internet.testing import StringTransport
from twisted.logger import globalLogPublisher
from twisted.python.failure import Failure
from twisted.web.server import NOT_DONE_YET
from twisted.web.test.requesthelper import DummyRequest

from protocol.codec import Limits, decode, encode
from server.eventlog.backends import open_store
from server.eventlog.store import ConcurrencyError, StoreClosed, StoreUnavailable
from server.games.base import RuleViolation
from server.metrics import Metrics
from server.net.http import HealthResource, MetricsResource, build_site
from server.net.session import INTERNAL_MESSAGE, NetConfig, Session, TokenBucket, error_for
from server.net.tokens import (
    Claims,
    SecretFileError,
    TokenError,
    TokenSigner,
    _b64,
    check_claims,
    load_or_create_secret,
)
from server.net.ws import T24WebSocketFactory, TransportConfig, origin_patterns, transport_options
from server.runtime.hub import Hub
from server.runtime.table_actor import Push, TableClosed

T0 = 1_700_000_000.0
SECRET = b"s" * 32
DECK = [{"card_id": i, "numbers": [1, 2, 3, 4], "dots": 1} for i in range(1, 4)]
OPTIONS = {"seats": [{"seat": f"s{i}", "name": ""} for i in range(1, 5)], "deck": DECK}
TOY_OPTIONS = {"seats": [{"seat": "s1", "name": "Ada"}], "secret": 7}  # tests/toygame


# -- tokens --------------------------------------------------------------------------------


class TokensTests(ShellTestCase):
    def test_tokens_round_trip_for_every_role(self):
        for role, claims in [
            ("director", {}),
            ("auditor", {"name": "aud"}),
            ("spectator", {}),
            ("spectator", {"table": "t1"}),
            ("proctor", {"table": "t1"}),
            ("player", {"table": "t1", "seat": "s1"}),
        ]:
            signer = TokenSigner(SECRET)
            token, issued = signer.issue(role, now=T0, **claims)
            verified = signer.verify(token, T0 + 1)
            assert verified == issued and verified.role == role
            if role == "player":
                assert verified.actor.as_dict() == {"role": "player", "id": "s1"}

    def test_claims_that_break_the_role_rules_are_refused(self):
        for claims in [
            Claims("wizard", "x"),
            Claims("player", "s1", table="t1"),  # no seat
            Claims("player", "s1", seat="s1"),  # no table
            Claims("proctor", "p"),  # no table
            Claims("director", "d", table="t1"),
            Claims("auditor", "a", table="t1"),
            Claims("spectator", "w", seat="s1"),
            Claims("spectator", ""),
            Claims("spectator", "w", table="../x"),
        ]:
            with pytest.raises(TokenError):
                check_claims(claims)

    def test_forged_expired_and_malformed_tokens_are_refused(self):
        signer = TokenSigner(SECRET)
        token, _ = signer.issue("director", now=T0, ttl_seconds=60)
        with pytest.raises(TokenError, match="expired"):
            signer.verify(token, T0 + 60)
        with pytest.raises(TokenError, match="signature"):
            TokenSigner(b"o" * 32).verify(token, T0)
        prefix, body, mac = token.split(".")
        claims = json.loads(__import__("base64").urlsafe_b64decode(body + "=="))
        claims["role"] = "director"
        claims["exp"] += 10**6  # extending a token breaks its signature
        tampered = f"{prefix}.{_b64(json.dumps(claims).encode())}.{mac}"
        with pytest.raises(TokenError, match="signature"):
            signer.verify(tampered, T0)
        for bad in ("", "a.b", "x.y.z", "t24v1..", "t24v1.a.b.c"):
            with pytest.raises(TokenError):
                signer.verify(bad, T0)
        # well signed but not a claims object
        body = "t24v1." + _b64(b"[1, 2]")
        with pytest.raises(TokenError, match="claims"):
            signer.verify(body + "." + signer._mac(body), T0)
        with pytest.raises(TokenError):
            signer.issue("director", now=T0, ttl_seconds=0)
        with pytest.raises(ValueError):
            TokenSigner(b"short")

    def test_secret_file_is_created_0600_and_a_readable_one_is_refused(self):
        tmp_path = self.tmp_path
        path = tmp_path / "var" / "t24.secret"
        secret = load_or_create_secret(path)
        assert len(secret) == 32 and stat.S_IMODE(os.stat(path).st_mode) == 0o600
        assert load_or_create_secret(path) == secret  # the same on the next start
        os.chmod(path, 0o644)
        with pytest.raises(SecretFileError, match="chmod 600"):
            load_or_create_secret(path)
        os.chmod(path, 0o600)
        path.write_text("not hex")
        with pytest.raises(SecretFileError):
            load_or_create_secret(path)
        path.write_text("abcd")
        with pytest.raises(SecretFileError, match="16 bytes"):
            load_or_create_secret(path)


# -- sessions ------------------------------------------------------------------------------


class Wire:
    """What a session sent and how it was closed."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.closed: list[tuple[int, str]] = []

    def send(self, frame: bytes) -> None:
        self.frames.append(frame)

    def close(self, code: int, reason: str) -> None:
        self.closed.append((code, reason))

    def messages(self) -> list[dict]:
        out = [decode(frame) for frame in self.frames]
        self.frames.clear()
        return out


def make_clock():
    c = Clock()
    c.advance(T0)
    return c


def make_hub(clock):
    return Hub(open_store("memory:", clock=clock.seconds), clock)


class NetCase(ShellTestCase):
    """A hub on the memory store with a task.Clock; `logged`: the log events emitted during
    the test (what the server log would show)."""

    def setUp(self):
        super().setUp()
        self.clock = make_clock()
        self.hub = make_hub(self.clock)
        self.logged: list[dict] = []
        globalLogPublisher.addObserver(self.logged.append)
        self.addCleanup(globalLogPublisher.removeObserver, self.logged.append)
        self.addCleanup(close_opened_protocols)


def make_session(hub, clock, **config):
    wire = Wire()
    session = Session(
        hub=hub,
        signer=TokenSigner(SECRET),
        clock=clock,
        send=wire.send,
        close=wire.close,
        config=NetConfig(**config),
        conn_id=7,
    )
    session.opened()
    return session, wire


def say(session, kind, **fields):
    session.frame_received(encode({"type": kind, **fields}), True)


def token(role, **claims):
    return TokenSigner(SECRET).issue(role, now=T0, **claims)[0]


class SessionsTests(NetCase):
    def test_hello_welcome_announces_identity_and_limits(self):
        hub, clock = self.hub, self.clock
        session, wire = make_session(hub, clock)
        say(session, "hello", id=1, token=token("player", table="t1", seat="s2"))
        [welcome] = wire.messages()
        assert welcome["type"] == "welcome" and welcome["id"] == 1
        assert welcome["identity"] == {"role": "player", "id": "s2"}
        assert welcome["table"] == "t1" and welcome["seat"] == "s2" and welcome["protocol"] == 1
        assert welcome["limits"]["max_message_bytes"] == Limits().max_message_bytes
        clock.advance(60)
        assert wire.closed == []  # the hello timer was cancelled

    def test_no_hello_closes_with_1008_after_the_timeout(self):
        hub, clock = self.hub, self.clock
        session, wire = make_session(hub, clock, hello_timeout=2)
        say(session, "ping", id=1)
        clock.advance(1.9)
        assert wire.closed == []
        clock.advance(0.1)
        assert wire.closed and wire.closed[0][0] == 1008

    def test_a_token_that_expires_mid_session_is_refused(self):
        hub, clock = self.hub, self.clock
        session, wire = make_session(hub, clock)
        short = TokenSigner(SECRET).issue("director", now=T0, ttl_seconds=5)[0]
        say(session, "hello", id=1, token=short)
        clock.advance(5)
        say(session, "list_tables", id=2)
        assert wire.messages()[-1]["code"] == "unauthorized"

    def test_rate_limit_then_close_on_sustained_abuse(self):
        hub, clock = self.hub, self.clock
        session, wire = make_session(hub, clock, rate_per_second=1, rate_burst=3, abuse_strikes=2)
        for i in range(5):
            say(session, "ping", id=i)
        replies = wire.messages()
        assert [m["type"] for m in replies] == ["pong"] * 3 + ["error"] * 2
        assert replies[3] == {
            "type": "error",
            "id": 3,
            "code": "rate_limited",
            "message": "too many requests; slow down",
        }
        say(session, "ping", id=9)
        assert wire.closed[0][0] == 1008
        # a well-behaved client refills: one per second
        calm, calm_wire = make_session(hub, clock, rate_per_second=1, rate_burst=1, abuse_strikes=1)
        for i in range(3):
            say(calm, "ping", id=i)
            clock.advance(1)
        assert [m["type"] for m in calm_wire.messages()] == ["pong"] * 3

    def test_token_bucket(self):
        bucket = TokenBucket(rate=2, capacity=2, now=0)
        assert bucket.take(0) and bucket.take(0) and not bucket.take(0)
        assert bucket.take(0.5) and not bucket.take(0.5)
        assert bucket.take(100) and bucket.take(100) and not bucket.take(100)

    def test_join_command_pushes_then_accepted(self):
        hub, clock = self.hub, self.clock
        director, director_wire = make_session(hub, clock)
        say(director, "hello", id=1, token=token("director"))
        say(director, "create_table", id=2, table="t1", options=OPTIONS)
        assert director_wire.messages()[-1] == {
            "type": "table_created",
            "id": 2,
            "table": "t1",
            "seq": 1,
        }
        proctor, wire = make_session(hub, clock)
        say(proctor, "hello", id=1, token=token("proctor", table="t1"))
        say(proctor, "join", id=2, table="t1")
        say(proctor, "command", id=3, table="t1", name="start_round")
        messages = wire.messages()
        assert [m["type"] for m in messages] == ["welcome", "snapshot", "event", "accepted"]
        assert messages[2]["event_type"] == "RoundStarted" and messages[3]["seq"] == 2
        # the append's last event carries the view after it, as a patch of the snapshot's view
        snapshot, event = messages[1], messages[2]
        assert event["patch"]["set"]["phase"] == "between_cards" and event["deadlines"] == []
        assert snapshot["view"]["phase"] == "setup" and snapshot["deadlines"] == []
        recorded = hub.actors["t1"].events[-1]
        assert recorded.causation == "conn-7:req-3" and recorded.actor == {
            "role": "proctor",
            "id": "proctor",
        }
        say(proctor, "leave", id=4, table="t1")
        say(director, "command", id=5, table="t1", name="place_card")
        assert wire.messages() == [{"type": "left", "id": 4, "table": "t1"}]

    def test_a_command_loads_a_table_that_is_not_live_and_refuses_an_unknown_one(self):
        hub, clock = self.hub, self.clock
        other = Hub(hub.store, clock)  # another process created the table in the same store
        other.create_table("elsewhere", "challenge", OPTIONS, Claims("director", "d").actor)
        session, wire = make_session(hub, clock)
        say(session, "hello", id=1, token=token("director"))
        say(session, "command", id=2, table="elsewhere", name="start_round")
        say(session, "command", id=3, table="nowhere", name="start_round")
        accepted, refused = wire.messages()[1:]
        assert accepted == {
            "type": "accepted",
            "id": 2,
            "table": "elsewhere",
            "seq": 2,
            "events": 1,
        }
        assert refused["id"] == 3 and refused["code"] == "unknown_table"
        assert "elsewhere" in hub.actors

    def test_an_evicted_table_is_still_listed_and_a_join_replays_it(self):
        clock = self.clock
        hub = Hub(open_store("memory:", clock=clock.seconds), clock, evict_after=60)
        session, wire = make_session(hub, clock)
        say(session, "hello", id=1, token=token("director"))
        say(session, "create_table", id=2, table="t1", options=OPTIONS)
        say(session, "join", id=3, table="t1")
        say(session, "command", id=4, table="t1", name="start_round")
        say(session, "command", id=5, table="t1", name="end_round")
        say(session, "command", id=51, table="t1", name="sign_score_card", args={"initials": "PK"})
        say(session, "leave", id=6, table="t1")
        wire.messages()
        assert hub.evict_quiet_tables() == []  # the first sweep to see it quiet
        clock.advance(60)
        assert hub.evict_quiet_tables() == ["t1"] and "t1" not in hub.actors
        say(session, "list_tables", id=7)
        say(session, "join", id=8, table="t1")
        listed, snapshot = wire.messages()
        assert listed["tables"] == [{"table": "t1", "game": "challenge", "seq": 4, "over": True}]
        assert snapshot["type"] == "snapshot" and snapshot["seq"] == 4
        assert "t1" in hub.actors

    def test_a_command_with_no_events_is_accepted_with_zero(self):
        hub, clock = self.hub, self.clock

        class Quiet:
            """The toy game (tests/toygame) deciding nothing for any command."""

            NAME = "quiet"

            def __getattr__(self, name):
                return getattr(toygame, name)

            @staticmethod
            def decide(state, command, now):
                return []

        hub.games["quiet"] = Quiet()
        session, wire = make_session(hub, clock)
        say(session, "hello", id=1, token=token("director"))
        say(session, "create_table", id=2, table="q", game="quiet", options=TOY_OPTIONS)
        say(session, "command", id=3, table="q", name="anything")
        assert wire.messages()[-1] == {
            "type": "accepted",
            "id": 3,
            "table": "q",
            "seq": 1,
            "events": 0,
        }

    def test_too_many_joins_and_join_after_close(self):
        hub, clock = self.hub, self.clock
        session, wire = make_session(hub, clock, max_joins=1)
        say(session, "hello", id=1, token=token("director"))
        for name in ("a", "b"):
            say(session, "create_table", id=2, table=name, options=OPTIONS)
        say(session, "join", id=3, table="a")
        say(session, "join", id=4, table="b")
        assert wire.messages()[-1]["code"] == "too_many_joins"
        say(session, "join", id=5, table="a")  # re-joining the same table is a resync
        assert wire.messages()[-1]["type"] == "snapshot"
        session.connection_lost()
        assert hub.actors["a"].subscribers == []
        say(session, "join", id=6, table="b")  # frames after the close are ignored
        assert wire.messages() == [] and hub.actors["b"].subscribers == []

    def test_text_frames_and_bad_frames_keep_the_session(self):
        hub, clock = self.hub, self.clock
        session, wire = make_session(hub, clock)
        session.frame_received(b"hello", False)
        session.frame_received(b"\xc1", True)
        say(session, "ping", id=3)
        assert [m.get("code", m["type"]) for m in wire.messages()] == [
            "bad_encoding",
            "bad_encoding",
            "pong",
        ]

    def test_error_mapping_never_leaks_internals(self):
        for exc, code in [
            (RuleViolation("not_first", "late", "R-PLAY-2"), "not_first"),
            (TableClosed("closing"), "unavailable"),
            (ConcurrencyError("table/t", 1, 2), "conflict"),
            (StoreUnavailable("db down"), "unavailable"),
            (KeyError("secret card 3 4 6 8"), "internal"),
        ]:
            got, message, _rule = error_for(Failure(exc))
            assert got == code
            assert "secret" not in message
        self.flushLoggedErrors()  # an unexpected failure is logged, with its traceback

    def test_store_failure_during_a_command_is_unavailable(self):
        hub, clock = self.hub, self.clock
        session, wire = make_session(hub, clock)
        say(session, "hello", id=1, token=token("director"))
        say(session, "create_table", id=2, table="t1", options=OPTIONS)
        hub.store.engine.close()
        say(session, "command", id=3, table="t1", name="start_round")
        assert wire.messages()[-1]["code"] == "unavailable"
        assert self.flushLoggedErrors(StoreClosed)  # logged with its traceback, server side


# -- faults: nothing unexpected escapes into Autobahn -----------------------------------------


def failures(events, kind):
    return [e for e in events if "log_failure" in e and e["log_failure"].check(kind)]


def explode(*_args):
    raise KeyError("secret card 3 4 6 8")


class HandlerFaultTests(NetCase):
    def test_a_fault_in_a_handler_is_internal_logged_and_the_connection_stays(self):
        hub, clock, logged, monkeypatch = self.hub, self.clock, self.logged, self.monkeypatch
        session, wire = make_session(hub, clock)
        say(session, "hello", id=1, token=token("director"))
        monkeypatch.setitem(Session.REQUEST_HANDLERS, "list_tables", explode)  # a bug in a handler
        say(session, "list_tables", id=2)
        say(session, "ping", id=3)
        assert wire.messages()[1:] == [
            {"type": "error", "id": 2, "code": "internal", "message": INTERNAL_MESSAGE},
            {"type": "pong", "id": 3},
        ]
        assert wire.closed == [] and not session.closed
        [event] = failures(logged, KeyError)  # the traceback stays in the server log
        assert "secret card" in event["log_failure"].getTraceback() and event["request"] == 2
        assert self.flushLoggedErrors(KeyError)  # logged with its traceback, server side

    def test_a_fault_before_dispatch_answers_with_the_raw_id(self):
        hub, clock, monkeypatch, logged = self.hub, self.clock, self.monkeypatch, self.logged
        session, wire = make_session(hub, clock)
        monkeypatch.setattr("server.net.session.parse_request", explode)
        say(session, "ping", id=41)
        monkeypatch.undo()
        say(session, "ping", id=42)
        assert [(m["type"], m["id"], m.get("code")) for m in wire.messages()] == [
            ("error", 41, "internal"),
            ("pong", 42, None),
        ]
        assert wire.closed == [] and failures(logged, KeyError)
        assert self.flushLoggedErrors(KeyError)  # logged with its traceback, server side

    def test_a_fault_whose_error_reply_cannot_be_sent_closes_with_1011(self):
        hub, clock, monkeypatch = self.hub, self.clock, self.monkeypatch
        session, wire = make_session(hub, clock)
        say(session, "hello", id=1, token=token("director"))
        monkeypatch.setitem(Session.REQUEST_HANDLERS, "list_tables", explode)
        session.reply_error = explode  # the error reply itself fails
        say(session, "list_tables", id=2)
        assert [code for code, _reason in wire.closed] == [1011] and session.closed
        say(session, "ping", id=3)  # a broken session serves nothing more
        assert wire.messages()[1:] == []
        assert self.flushLoggedErrors(KeyError)  # logged with its traceback, server side


class Unencodable:
    """The toy game (tests/toygame) with a view that msgpack cannot encode (a set): a bug."""

    NAME = "unencodable"

    def __getattr__(self, name):
        return getattr(toygame, name)

    @staticmethod
    def view(state, viewer):
        return {"seats": {"s1", "s2"}}


class PushFaultTests(NetCase):
    def test_a_join_whose_snapshot_cannot_be_built_is_undone_and_internal(self):
        hub, clock, logged = self.hub, self.clock, self.logged
        hub.games["unencodable"] = Unencodable()
        session, wire = make_session(hub, clock)
        say(session, "hello", id=1, token=token("director"))
        say(session, "create_table", id=2, table="u", game="unencodable", options=TOY_OPTIONS)
        say(session, "join", id=3, table="u")
        assert wire.messages()[-1] == {
            "type": "error",
            "id": 3,
            "code": "internal",
            "message": INTERNAL_MESSAGE,
        }
        assert hub.actors["u"].subscribers == [] and session.joined == {}  # no half-join
        say(session, "command", id=4, table="u", name="start")
        assert [m["type"] for m in wire.messages()] == ["accepted"]  # no push to a non-member
        assert wire.closed == [] and failures(logged, TypeError)
        assert self.flushLoggedErrors(TypeError)  # logged with its traceback, server side

    def test_a_push_that_cannot_be_sent_breaks_the_session_with_1011(self):
        hub, clock, logged = self.hub, self.clock, self.logged
        director, director_wire = make_session(hub, clock)
        say(director, "hello", id=1, token=token("director"))
        say(director, "create_table", id=2, table="t1", options=OPTIONS)
        say(director, "join", id=3, table="t1")
        watcher, watcher_wire = make_session(hub, clock)
        say(watcher, "hello", id=1, token=token("spectator", table="t1"))
        say(watcher, "join", id=2, table="t1")
        director_wire.messages()

        def lost(frame):
            raise ConnectionError("the transport refused the frame")

        watcher._send_push = lost
        say(director, "command", id=4, table="t1", name="start_round")
        # the watcher's stream would have a gap: it leaves the table and is closed with 1011
        assert [code for code, _ in watcher_wire.closed] == [1011]
        assert watcher not in hub.actors["t1"].subscribers and watcher.joined == {}
        # the table and the other viewers are unaffected
        assert [m["type"] for m in director_wire.messages()] == ["event", "accepted"]
        assert failures(logged, ConnectionError)
        assert self.flushLoggedErrors(ConnectionError)  # logged with its traceback, server side

    def test_a_reply_lost_after_the_command_took_effect_breaks_the_session(self):
        hub, clock = self.hub, self.clock
        session, wire = make_session(hub, clock)
        say(session, "hello", id=1, token=token("director"))
        say(session, "create_table", id=2, table="t1", options=OPTIONS)
        original = session.send

        def send(message):
            if message["type"] == "accepted":
                raise ValueError("cannot send")
            original(message)

        session.send = send
        say(session, "command", id=3, table="t1", name="start_round")
        # not `internal` ("nothing was written" would be false): 1011, the client resumes
        assert [m["type"] for m in wire.messages()[2:]] == []
        assert [code for code, _ in wire.closed] == [1011]
        assert hub.actors["t1"].events[-1].type == "RoundStarted"

        # -- Autobahn options ----------------------------------------------------------------------
        assert self.flushLoggedErrors(ValueError)  # logged with its traceback, server side

    def test_autobahn_options_are_set_deliberately(self):
        hub, clock = self.hub, self.clock
        config = TransportConfig(max_connections=7)
        factory = T24WebSocketFactory(
            hub=hub, signer=TokenSigner(SECRET), reactor=clock, config=config
        )
        assert factory.webStatus is False
        assert factory.allowNullOrigin is True  # the trap: any call that omits it resets it
        assert factory.maxFramePayloadSize == factory.maxMessagePayloadSize == 64 * 1024
        assert factory.autoPingInterval == 20.0 and factory.autoPingTimeout == 10.0
        assert factory.maxConnections == 7 and factory.openHandshakeTimeout == 5.0
        assert factory.protocols == ["t24.v1"] and factory.server.startswith("t24/")
        assert set(transport_options(config)) >= {"allowNullOrigin", "webStatus", "maxConnections"}
        assert factory.perMessageCompressionAccept([object()]) is None

    def test_origin_patterns_get_the_port_autobahn_compares(self):
        assert origin_patterns(
            ["*", "https://play.example", "http://a.example/", "https://*.school.example", "x.org"]
        ) == [
            "*",
            "https://play.example:443",
            "http://a.example:80",
            "https://*.school.example:443",
            "x.org:*",
        ]
        assert origin_patterns(["https://b.example:8443", "http://c.example:*", "https://*"]) == [
            "https://b.example:8443",
            "http://c.example:*",
            "https://*",
        ]

    def test_the_origin_policy_as_autobahn_applies_it(self):
        hub, clock = self.hub, self.clock
        from autobahn.websocket.protocol import _is_same_origin, _url_to_origin

        for origin, allowed in [
            ("https://play.example", True),
            ("https://play.example:443", True),
            ("https://room-4.school.example", True),
            ("http://play.example", False),  # another scheme is another origin
            ("https://play.example:8443", False),
            ("https://play.example.evil.example", False),
            ("https://evil.example", False),
        ]:
            config = TransportConfig(
                allowed_origins=("https://play.example", "https://*.school.example")
            )
            factory = T24WebSocketFactory(
                hub=hub, signer=TokenSigner(SECRET), reactor=clock, config=config
            )
            patterns = factory.allowedOriginsPatterns
            assert _is_same_origin(_url_to_origin(origin), "http", 8024, patterns) is allowed


_OPENED: list = []  # protocols opened by open_protocol, closed after each test (NetCase)


def close_opened_protocols():
    """Close what `open_protocol` opened: an open Autobahn protocol keeps its keep-alive
    timer on the global reactor (trial's dirty-reactor check found them left)."""
    while _OPENED:
        _OPENED.pop().connectionLost(Failure(ConnectionDone()))


def open_protocol(hub, clock):
    """A `T24ServerProtocol` through a real opening handshake, on a StringTransport."""
    factory = T24WebSocketFactory(hub=hub, signer=TokenSigner(SECRET), reactor=clock)
    protocol = factory.buildProtocol(None)
    transport = StringTransport()
    protocol.makeConnection(transport)
    protocol.dataReceived(
        b"GET /ws HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        b"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: t24.v1\r\n\r\n"
    )
    assert protocol.state == protocol.STATE_OPEN
    transport.clear()
    _OPENED.append(protocol)
    return protocol, transport


class AutobahnFaultTests(NetCase):
    def test_over_autobahn_a_fault_is_answered_and_a_broken_session_sends_1011(self):
        hub, clock = self.hub, self.clock
        protocol, wire = open_protocol(hub, clock)
        protocol.session._hello = explode
        protocol.dataReceived(client_frame({"type": "hello", "id": 1, "token": "x"}))
        assert decode(wire.value()[2:]) == {
            "type": "error",
            "id": 1,
            "code": "internal",
            "message": INTERNAL_MESSAGE,
        }
        assert protocol.state == protocol.STATE_OPEN
        wire.clear()
        protocol.session.broken(Failure(ValueError("gap")), "a push could not be sent")
        assert wire.value()[:4] == bytes([0x88, 23]) + (1011).to_bytes(2, "big")
        assert protocol.state == protocol.STATE_CLOSING
        # the peer goes away: Autobahn's close-handshake timer (on the global reactor) finds the
        # protocol closed and leaves this StringTransport alone
        protocol.connectionLost(Failure(ConnectionDone()))
        assert protocol.state == protocol.STATE_CLOSED
        assert self.flushLoggedErrors(
            KeyError, ValueError
        )  # logged with its traceback, server side


def server_frame(payload: bytes) -> bytes:
    """RFC 6455: a final, unmasked binary frame (what a server sends)."""
    size = len(payload)
    if size <= 125:
        return bytes([0x82, size]) + payload
    if size < 65536:
        return bytes([0x82, 126]) + size.to_bytes(2, "big") + payload
    return bytes([0x82, 127]) + size.to_bytes(8, "big") + payload


class FramingTests(NetCase):
    def test_a_push_is_framed_once_and_written_as_a_plain_binary_frame(self):
        hub, clock = self.hub, self.clock
        (first, wire1), (second, wire2) = open_protocol(hub, clock), open_protocol(hub, clock)
        push = Push({"type": "event"}, encode({"type": "event", "seq": 1, "pad": "x" * 200}))
        first._send_push(push)
        prepared = push.wire
        second._send_push(push)
        assert push.wire is prepared  # framed by the first send, reused by the second
        assert wire1.value() == wire2.value() == server_frame(push.frame)
        first._send_frame(encode({"type": "pong", "id": 1}))  # replies take the same path
        assert wire1.value().endswith(server_frame(encode({"type": "pong", "id": 1})))

    def test_outgoing_frames_keep_autobahns_queue_and_ignore_the_inbound_limit(self):
        """Issue 18: the inbound `max_message_bytes` is no limit on what the server sends."""
        hub, clock = self.hub, self.clock
        protocol, wire = open_protocol(hub, clock)
        big = Push({"type": "event"}, b"x" * (64 * 1024 + 1))
        protocol._send_push(big)
        assert wire.value() == server_frame(big.frame)
        wire.clear()
        handed: list[bytes] = []  # while Autobahn's own send queue holds data, it keeps the order
        protocol.sendPreparedMessage = lambda prepared: handed.append(prepared.payloadHybi)
        protocol.send_queue.append((b"queued", False))
        protocol._send_frame(b"\x81\xa1a\x01")
        assert handed == [server_frame(b"\x81\xa1a\x01")] and wire.value() == b""
        protocol.send_queue.clear()
        protocol.state = protocol.STATE_CLOSED
        protocol._send_frame(b"\x80")  # a closed connection sends nothing
        protocol._send_push(Push({}, b"\x80"))
        assert wire.value() == b""


def client_frame(message: dict) -> bytes:
    """A masked binary frame, as a client sends it."""
    return WebSocketClientFactory().prepareMessage(encode(message), isBinary=True).payloadHybi


class IncomingFrameTests(NetCase):
    def test_incoming_frames_reach_the_session_and_observers_still_work(self):
        hub, clock = self.hub, self.clock
        protocol, wire = open_protocol(hub, clock)
        frame = client_frame({"type": "ping", "id": 1})
        protocol.dataReceived(frame[:3])  # a frame split across reads
        protocol.dataReceived(frame[3:] + client_frame({"type": "ping", "id": 2}))
        assert wire.value() == b"".join(
            server_frame(encode({"type": "pong", "id": n})) for n in (1, 2)
        )
        heard: list[bytes] = []  # Autobahn's observer API still sees every message
        protocol.on("message", lambda payload, is_binary: heard.append(payload))
        protocol.dataReceived(client_frame({"type": "ping", "id": 3}))
        assert heard == [encode({"type": "ping", "id": 3})]
        assert wire.value().endswith(server_frame(encode({"type": "pong", "id": 3})))


# -- HTTP ----------------------------------------------------------------------------------


def render(resource):
    request = DummyRequest([b""])
    result = resource.render(request)
    if result is not NOT_DONE_YET:
        request.write(result)
        request.finish()
    return request


class HTTPTests(NetCase):
    def test_healthz_is_200_when_the_store_answers_and_503_otherwise(self):
        clock = self.clock
        store = open_store("memory:", clock=clock.seconds)
        ok = render(HealthResource(store, clock))
        assert (ok.responseCode or 200, b"".join(ok.written)) == (200, b"ok\n")
        store.engine.close()
        down = render(HealthResource(store, clock))
        assert down.responseCode == 503 and b"StoreClosed" in b"".join(down.written)

        class Silent:
            def last_seq(self, stream):
                return defer.Deferred()

        hung = render(HealthResource(Silent(), clock))
        assert not hung.finished
        clock.advance(2.0)
        assert hung.responseCode == 503 and hung.finished

        class Raising:
            def last_seq(self, stream):
                raise OSError("gone")

        assert render(HealthResource(Raising(), clock)).responseCode == 503

    def test_metrics_exposition_is_prometheus_text_parsed_by_prometheus_client(self):
        metrics = Metrics()
        metrics.gauge("t24_connections", "Open connections.", lambda: 3)
        metrics.counter("t24_redirects_total", "Answered moved.", lambda: 2)
        metrics.events_appended.inc(5)
        metrics.count_command("accepted")
        metrics.append_latency.observe(0.0007)
        metrics.append_latency.observe(3.0)
        request = render(MetricsResource(metrics))
        assert request.responseHeaders.getRawHeaders(b"content-type")[0].startswith(
            b"text/plain; version=0.0.4"
        )
        families = {
            family.name: family
            for family in text_string_to_metric_families(b"".join(request.written).decode())
        }
        samples = {
            (sample.name, tuple(sorted(sample.labels.items()))): sample.value
            for family in families.values()
            for sample in family.samples
        }
        assert samples[("t24_connections", ())] == 3
        assert samples[("t24_redirects_total", ())] == 2
        assert samples[("t24_events_appended_total", ())] == 5
        assert samples[("t24_commands_total", (("outcome", "accepted"),))] == 1
        assert samples[("t24_commands_total", (("outcome", "refused"),))] == 0  # known, unseen
        assert samples[("t24_append_latency_seconds_bucket", (("le", "0.001"),))] == 1
        assert samples[("t24_append_latency_seconds_bucket", (("le", "+Inf"),))] == 2
        assert families["t24_command_latency_seconds"].type == "histogram"
        assert families["t24_redirects"].type == "counter"
        assert not [name for name in samples if name[0].endswith("_created")]

    def test_metrics_are_per_server_and_openmetrics_when_asked(self):
        """Each `Metrics` has its own registry: two servers in one process never share a count
        (nor collide on a name); a scraper that asks for OpenMetrics gets it."""
        one, two = Metrics(), Metrics()
        for metrics in (one, two):
            metrics.gauge("t24_connections", "Open connections.", lambda: 1)
        one.gauge("t24_connections", "Open connections.", lambda: 7)  # a new reader replaces
        one.messages_received.inc()
        assert one.value("t24_messages_received_total") == 1
        assert two.value("t24_messages_received_total") == 0
        assert (one.value("t24_connections"), two.value("t24_connections")) == (7, 1)
        body, content_type = one.exposition("application/openmetrics-text; version=1.0.0")
        assert content_type.startswith("application/openmetrics-text")
        assert body.endswith(b"# EOF\n")

    def test_site_routes(self):
        hub, clock = self.hub, self.clock
        factory = T24WebSocketFactory(hub=hub, signer=TokenSigner(SECRET), reactor=clock)
        site = build_site(factory, hub.store, hub.metrics, clock)
        root = site.resource
        assert set(root.children) == {b"ws", b"healthz", b"metrics", b"bundle", b"words"}
        assert site.displayTracebacks is False

    def test_every_request_after_hello_has_exactly_one_handler(self):
        """Session dispatch is an explicit table: every client message type but hello and ping
        (served before it) has a handler, and nothing else does."""
        from protocol.messages import CLIENT_TYPES

        assert set(Session.REQUEST_HANDLERS) == CLIENT_TYPES - {"hello", "ping"}
