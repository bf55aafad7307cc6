"""Authorization refusals and bad input over the wire: each gets its documented error code,
the server keeps running, other connections are unaffected, and no event is written."""

from __future__ import annotations

import contextlib
import socket
import time

import msgpack
import pytest
from autobahn.exception import Disconnected
from server_process import ServerProcess
from test_server_play import DECK, SEATS, command, new_table
from wsclients import AutobahnClient, Closed, HandshakeRefused

from protocol.codec import encode
from server import SERVER_HEADER, __version__

pytestmark = pytest.mark.e2e


def error_of(reply, code):
    assert reply["type"] == "error", reply
    assert reply["code"] == code, reply
    return reply


# -- authorization -------------------------------------------------------------------------


def test_forged_expired_and_malformed_tokens_are_unauthorized(server, connect):
    client = connect()
    good = server.token("director", name="d")
    body, _, signature = good.rpartition(".")
    forged = body + "." + ("A" if signature[0] != "A" else "B") + signature[1:]
    error_of(client.request("hello", token=forged), "unauthorized")
    expired = server.signer().issue("director", now=time.time() - 100, ttl_seconds=10)[0]
    assert "expired" in error_of(client.request("hello", token=expired), "unauthorized")["message"]
    error_of(client.request("hello", token="not-a-token"), "unauthorized")
    # a token signed with another secret
    from server.net.tokens import TokenSigner

    other = TokenSigner(b"x" * 32).issue("director", now=time.time())[0]
    error_of(client.request("hello", token=other), "unauthorized")
    # still usable afterwards
    assert client.hello(good)["role"] == "director"
    error_of(client.request("hello", token=good), "already_authenticated")


def test_requests_before_hello_are_refused(server, connect):
    client = connect()
    assert client.request("ping")["type"] == "pong"
    error_of(client.request("list_tables"), "hello_required")
    error_of(client.request("join", table="anything"), "hello_required")


def test_roles_and_table_binding(server, connect):
    table, director = new_table(server, connect)
    other_table, _ = new_table(server, connect)
    proctor = connect(server.token("proctor", name="p", table=table))
    command(proctor, table, "start_round")
    spectator = connect(server.token("spectator", name="w", table=table))
    s1 = connect(server.token("player", table=table, seat="s1"))
    auditor = connect(server.token("auditor", name="a"))
    wrong = connect(server.token("player", table=other_table, seat="s1"))

    # a spectator (and an auditor) cannot send game commands
    error_of(spectator.request("command", table=table, name="start_round"), "forbidden")
    error_of(auditor.request("command", table=table, name="place_card"), "forbidden")
    # only a director creates tables and issues tokens
    options = {"seats": SEATS, "deck": DECK}
    error_of(proctor.request("create_table", options=options), "forbidden")
    error_of(s1.request("issue_token", role="director"), "forbidden")
    # a wrong-table token is unauthorized, for joins and commands
    error_of(wrong.request("join", table=table), "unauthorized")
    error_of(wrong.request("command", table=table, name="touch_card"), "unauthorized")
    # a player cannot act for another seat (the game's rule R-PLAY-2)
    command(proctor, table, "place_card")
    command(proctor, table, "reveal_card")
    refused = s1.request("command", table=table, name="touch_card", args={"seat": "s2"})
    assert error_of(refused, "not_your_seat")["rule"] == "R-PLAY-2"
    # a game refusal carries the rule id
    late = s1.request("command", table=table, name="declare_pattern", args={"pattern": "4*6"})
    assert error_of(late, "no_touch_in_progress")["rule"] == "R-PLAY-2"
    # auditors and spectators may read; list_tables is filtered by the token's table
    assert auditor.request("join", table=table)["type"] == "snapshot"
    listed = {t["table"] for t in spectator.request("list_tables")["tables"]}
    assert listed == {table}
    everything = {t["table"] for t in director.request("list_tables")["tables"]}
    assert {table, other_table} <= everything


def test_issue_token_over_the_wire(server, connect):
    table, director = new_table(server, connect)
    issued = director.request("issue_token", role="player", table=table, seat="s2")
    assert issued["type"] == "token" and issued["seat"] == "s2"
    player = connect(issued["token"])
    assert player.request("join", table=table)["view"]["you"] == "s2"
    error_of(director.request("issue_token", role="player", table=table), "bad_message")
    error_of(director.request("issue_token", role="wizard"), "bad_message")


# -- bad input -----------------------------------------------------------------------------


def last_seq(client, table):
    return client.request("join", table=table)["seq"]


def test_bad_input_gets_error_codes_and_writes_nothing(server, connect):
    table, director = new_table(server, connect)
    bystander = connect(server.token("spectator", name="b", table=table))
    bystander.request("join", table=table)
    before = last_seq(director, table)

    director.send_raw(b"\xc1\xff not msgpack")
    error_of(director.recv(), "bad_encoding")
    director.send_raw(b'{"type": "ping", "id": 1}', binary=False)  # a text frame
    error_of(director.recv(), "bad_encoding")
    director.send_raw(encode({"id": 5, "table": table}))
    assert error_of(director.recv(), "bad_message")["id"] == 5
    director.send_raw(encode({"type": "launch_missiles", "id": 6}))
    assert error_of(director.recv(), "unknown_type")["id"] == 6
    director.send_raw(encode({"type": "join", "id": 7, "table": 12}))
    assert error_of(director.recv(), "bad_message")["id"] == 7
    director.send_raw(encode({"type": "join", "id": "8", "table": table}))
    assert error_of(director.recv(), "bad_message")["id"] is None
    director.send_raw(encode([1, 2, 3]))
    error_of(director.recv(), "bad_message")
    director.send_raw(msgpack.packb({"type": "ping", "id": 9, 1: 2}))
    error_of(director.recv(), "bad_encoding")
    nested: object = "x"
    for _ in range(40):
        nested = [nested]
    director.send_raw(encode({"type": "command", "id": 10, "table": table, "name": "x"}))
    assert "rule" not in error_of(director.recv(), "unknown_command")  # a rule-less refusal
    director.send_raw(
        encode({"type": "command", "id": 11, "table": table, "name": "x", "args": {"a": nested}})
    )
    error_of(director.recv(), "too_complex")
    error_of(
        director.request("command", table="no-such-table", name="start_round"), "unknown_table"
    )
    error_of(director.request("join", table="no-such-table"), "unknown_table")
    error_of(director.request("leave", table="never-joined"), "not_joined")
    error_of(director.request("join", table=table, after_seq=10_000), "bad_seq")
    error_of(
        director.request("create_table", table=table, options={"seats": SEATS, "deck": DECK}),
        "table_exists",
    )
    error_of(
        director.request("create_table", options={"seats": SEATS, "deck": DECK}, game="chess"),
        "unknown_game",
    )
    error_of(director.request("create_table", options={"seats": []}), "invalid_options")

    # the connection, the bystander and the table are unaffected; nothing was written
    assert director.request("ping")["type"] == "pong"
    assert last_seq(director, table) == before
    assert bystander.request("ping")["type"] == "pong"
    assert [m for m in bystander.backlog if m["type"] == "event"] == []


def test_an_oversized_message_closes_with_1009_and_others_are_unaffected(server, connect):
    table, director = new_table(server, connect)
    victim = connect(server.token("spectator", name="v"))
    director.send_raw(encode({"type": "ping", "id": 1, "pad": "x" * 20_000}))
    assert director.wait_closed() == 1009
    assert victim.request("ping")["type"] == "pong"
    assert victim.request("join", table=table)["seq"] == 1


def test_a_flood_is_rate_limited_then_closed_with_1008(server, connect):
    flooder = connect(server.token("spectator", name="f"))
    calm = connect(server.token("spectator", name="c"))
    frame = encode({"type": "ping", "id": 1})
    sent = 0
    with contextlib.suppress(Disconnected):  # the server may close before the flood ends
        for _ in range(200):
            flooder.send_raw(frame)
            sent += 1
    codes = []
    with contextlib.suppress(Closed):
        while True:
            message = flooder.recv()
            codes.append(message.get("code", message["type"]))
    assert sent >= 60  # burst 40 + 20 strikes: the close comes after at least that many
    # the burst of 40 less the hello's token (every frame pays, the hello too), plus what
    # the bucket refills (20/s) while the connection is not read after its drops (0.25 s
    # each, server/net/session.py): a few pauses before the close, or none when the whole
    # flood arrives in one read (39 pongs, seen once on a loaded machine)
    assert "rate_limited" in codes and 39 <= codes.count("pong") <= 70
    assert flooder.close_code == 1008
    assert calm.request("ping")["type"] == "pong"


def test_no_hello_within_the_timeout_closes_with_1008(server, connect):
    silent = connect()
    assert silent.wait_closed(timeout=5) == 1008


def test_the_subprotocol_is_required(server):
    with pytest.raises(HandshakeRefused) as info:
        AutobahnClient(server.url, subprotocols=("chat",))
    assert "400" in str(info.value)


def test_origin_null_is_allowed(server):
    client = AutobahnClient(server.url, origin="null")
    try:
        assert client.request("ping")["type"] == "pong"
    finally:
        client.close()


# -- origin policy, keep-alive, handshake deadline (a server of their own: tight settings) ---

PING_INTERVAL = 1.0  # the shortest allowed: Autobahn's timers count whole seconds
PING_TIMEOUT = 1.0


@pytest.fixture(scope="module")
def guarded(tmp_path_factory):
    """A server with an origin policy, no `Origin: null`, a fast keep-alive and a 1 s
    handshake deadline."""
    process = ServerProcess(
        tmp_path_factory.mktemp("guarded"),
        "--open-handshake-timeout",
        "1",
        "--allowed-origins",
        "https://play.example,https://*.school.example",
        "--no-allow-null-origin",
        "--auto-ping-interval",
        str(PING_INTERVAL),
        "--auto-ping-timeout",
        str(PING_TIMEOUT),
    ).start()
    yield process
    process.terminate()


def test_a_silent_or_slow_handshake_is_dropped(guarded):
    """The open-handshake timeout (1 s on the `guarded` server) closes a socket that sends
    nothing, or only part of the upgrade request. Both at once: each deadline counts from
    its own accept, so they wait the one second together."""
    with contextlib.ExitStack() as stack:
        sockets = []
        for opening in (b"", b"GET /ws HTTP/1.1\r\nHost: x\r\n"):
            raw = stack.enter_context(
                socket.create_connection(("127.0.0.1", guarded.port), timeout=5)
            )
            raw.sendall(opening)
            sockets.append(raw)
        started = time.monotonic()
        for raw in sockets:
            assert raw.recv(1024) == b""  # closed by the server, well before our 5 s
            assert time.monotonic() - started < 4


def test_a_refused_origin_gets_http_400_and_allowed_ones_connect(guarded):
    for origin in ("https://play.example", "https://room-4.school.example", None):
        client = AutobahnClient(guarded.url, origin=origin)  # None: no Origin header
        try:
            assert client.request("ping")["type"] == "pong"
        finally:
            client.close()
    for origin in ("https://evil.example", "http://play.example", "null"):
        with pytest.raises(HandshakeRefused) as info:
            AutobahnClient(guarded.url, origin=origin)
        assert "400" in str(info.value), origin


def read_frame(raw: socket.socket) -> tuple[int, bytes]:
    """One unmasked server frame with a short payload: (first byte, payload)."""
    head = raw.recv(2, socket.MSG_WAITALL)
    assert len(head) == 2 and head[1] < 126, head
    return head[0], raw.recv(head[1], socket.MSG_WAITALL) if head[1] else b""


def test_a_client_that_does_not_answer_pings_is_dropped(guarded):
    answering = AutobahnClient(guarded.url)  # Autobahn answers every ping by itself
    try:
        with socket.create_connection(("127.0.0.1", guarded.port), timeout=5) as raw:
            raw.sendall(
                b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                b"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: t24.v1\r\n\r\n"
            )
            response = b""
            while b"\r\n\r\n" not in response:
                response += raw.recv(1024)
            assert response.startswith(b"HTTP/1.1 101")
            opcode, _payload = read_frame(raw)
            pinged = time.monotonic()
            assert opcode == 0x89  # a final ping frame; we never answer it
            after_ping = b""
            with contextlib.suppress(ConnectionResetError):
                while chunk := raw.recv(1024):
                    after_ping += chunk
            silent_for = time.monotonic() - pinged
            assert after_ping == b""  # dropped: no close frame (docs/protocol.md, "Limits")
        # Autobahn drops it one timeout after the ping (its timer rounds down to the second)
        assert PING_TIMEOUT / 2 <= silent_for < PING_TIMEOUT + 2
        # the client that answered the same pings is still served
        assert answering.request("ping")["type"] == "pong"
    finally:
        answering.close()


# -- HTTP on the same port -----------------------------------------------------------------


def test_healthz_metrics_and_no_version_leaks(server, connect):
    status, body, headers = server.get("/healthz")
    assert (status, body) == (200, b"ok\n")
    assert headers.get("Server") == SERVER_HEADER == f"t24/{__version__}"  # not Twisted's
    status, body, _ = server.get("/metrics")
    text = body.decode()
    assert status == 200
    for name in (
        "t24_connections",
        "t24_live_tables",
        "t24_events_appended_total",
        "t24_append_latency_seconds_bucket",
        "t24_command_latency_seconds_count",
    ):
        assert name in text
    status, body, headers = server.get("/")  # the web client (issue 13): no version either
    assert status == 200 and b"Twisted" not in body and "Twisted" not in str(headers)
    assert server.get("/no-such-file")[0] == 404
    status, body, headers = server.get("/ws")  # a plain GET, no upgrade: no status page
    assert status >= 400 and b"Autobahn" not in body and "Autobahn" not in str(headers)


def test_an_unhashable_argument_is_bad_args_not_internal(server, connect):
    """Issue 18: `issue_flag` with a list `cause` answered `internal` with a traceback."""
    from test_server_play import command, new_table

    table, _director = new_table(server, connect)
    proctor = connect(server.token("proctor", name="p", table=table))
    command(proctor, table, "start_round")
    reply = proctor.request(
        "command", table=table, name="issue_flag", args={"seat": "s2", "cause": ["no_pattern"]}
    )
    assert reply["type"] == "error" and reply["code"] == "bad_args", reply


def test_an_expired_token_ends_its_subscriptions_and_closes_with_1008(server, connect):
    """Issue 18: a token past its expiry kept its subscriptions and received pushes."""
    from test_server_play import command, new_table

    table, _director = new_table(server, connect)
    short = server.signer().issue(
        "spectator", now=time.time(), name="brief", table=table, ttl_seconds=2
    )[0]
    watcher = connect(short)
    assert watcher.request("join", table=table)["type"] == "snapshot"
    proctor = connect(server.token("proctor", name="p", table=table))
    command(proctor, table, "start_round")
    assert watcher.event("RoundStarted")["seq"] == 2  # while valid, pushes arrive
    told = watcher.wait_for(lambda m: m["type"] == "error", timeout=5)
    assert told["code"] == "unauthorized" and told["id"] is None
    assert watcher.wait_closed(timeout=5) == 1008
