"""The server process's life: kill -9 mid-card and restart (on SQLite and on PostgreSQL),
SIGTERM, connection limits, evicting finished tables, the demo, and one client that is not
Autobahn (`websockets`), so the protocol depends on no Autobahn quirk."""

from __future__ import annotations

import json
import os
import sqlite3
import stat

import pytest
from postgres_schemas import fresh_schema
from server_process import ServerProcess
from test_server_play import DECK, SEATS
from websockets.sync.client import connect as ws_connect
from wsclients import AutobahnClient, HandshakeRefused

from protocol.client import ClientSession
from server.eventlog.backends import open_blocking_store

pytestmark = pytest.mark.e2e


def start_table(process: ServerProcess, table: str, **options) -> tuple:
    director = AutobahnClient(process.url)
    director.hello(process.token("director", name="d"))
    created = director.request(
        "create_table", table=table, options={"seats": SEATS, "deck": DECK, **options}
    )
    assert created["type"] == "table_created", created
    proctor = AutobahnClient(process.url)
    proctor.hello(process.token("proctor", name="p", table=table))
    return director, proctor


def accepted(client, table, name, **args):
    reply = client.request("command", table=table, name=name, args=args)
    assert reply["type"] == "accepted", reply
    return reply


@pytest.fixture(params=["sqlite", "postgres"])
def durable_store(request):
    """The store URL of a crash test: a temp SQLite file (None) or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield None
        return
    with fresh_schema() as (url, _schema):
        yield url


def test_kill_9_mid_card_then_restart_pauses_and_resume_works(tmp_path, durable_store):
    process = ServerProcess(tmp_path / "crash", store=durable_store).start()
    try:
        director, proctor = start_table(process, "crash", pattern_seconds=0.5)
        s1 = AutobahnClient(process.url)
        s1.hello(process.token("player", table="crash", seat="s1"))
        accepted(proctor, "crash", "start_round")
        accepted(proctor, "crash", "place_card")
        accepted(proctor, "crash", "reveal_card")
        touched = accepted(s1, "crash", "touch_card")["seq"]
        process.kill()  # mid-card: the 0.5 s pattern deadline is live
        # a killed server sends no close frame: the connection is lost abnormally (1006),
        # unlike a graceful stop (1001)
        assert s1.wait_closed() == 1006

        # the log is intact: every acknowledged event is there and the chain verifies
        blocking = open_blocking_store(process.store, create=False)
        try:
            report = blocking.verify("table/crash")
            assert report.ok and report.last_seq == touched
        finally:
            blocking.close()

        process.start()  # same store, same secret
        proctor = AutobahnClient(process.url)
        proctor.hello(process.token("proctor", name="p", table="crash"))
        snapshot = proctor.request("join", table="crash")
        assert snapshot["seq"] == touched + 1
        assert snapshot["view"]["paused"] and snapshot["view"]["pause_cause"] == "server_restart"
        assert snapshot["view"]["deadlines"] == []
        events = proctor.request("join", table="crash", after_seq=touched)
        assert events["type"] == "snapshot"
        paused = proctor.event("TablePaused")
        assert paused["data"]["cause"] == "server_restart"
        # nobody was flagged for the time the server was down; resuming restarts the windows
        resumed = accepted(proctor, "crash", "resume_table")
        resumed_event = proctor.event("TableResumed")
        assert resumed_event["seq"] == resumed["seq"]
        flag = proctor.event("FlagIssued", timeout=5)  # the pattern window runs again in full
        assert flag["data"]["cause"] == "no_pattern"
        assert flag["data"]["at"] - resumed_event["data"]["at"] >= 500_000
    finally:
        process.kill()


def test_sigterm_closes_sockets_with_1001_after_in_flight_appends(tmp_path):
    """SIGTERM with an append in flight and commands queued behind it: every command that
    reached the server is decided, made durable and answered, pushes included, before the
    sockets close with 1001 and the store closes (docs/operations.md, "Start, recovery,
    stop"). The test holds SQLite's write lock, so the server's append waits in its writer
    thread until the test lets it go, after the shutdown has begun."""
    process = ServerProcess(tmp_path / "term").start()
    director, proctor = start_table(process, "term")
    players = {}
    for seat in ("s1", "s2", "s3", "s4"):
        players[seat] = AutobahnClient(process.url)
        players[seat].hello(process.token("player", table="term", seat=seat))
    watcher = AutobahnClient(process.url)
    watcher.hello(process.token("spectator", name="w", table="term"))
    watcher.request("join", table="term")
    accepted(proctor, "term", "start_round")
    accepted(proctor, "term", "place_card")

    lock = sqlite3.connect(process.dir / "t24.sqlite", isolation_level=None)
    lock.execute("BEGIN IMMEDIATE")  # the server's next append waits for this lock
    try:
        sent = {proctor: proctor.send("command", table="term", name="reveal_card")}
        for client in players.values():  # queued behind the reveal's append
            sent[client] = client.send("command", table="term", name="touch_card")
        for client in sent:  # frames are served in order: each command has reached the server
            assert client.request("ping")["type"] == "pong"
        for client, request_id in sent.items():  # and none is answered: the append is held
            assert not any(m.get("id") == request_id for m in client.backlog)
        process.send_term()
        process.wait_log('"msg": "shutting down"')
        late = director.request("command", table="term", name="place_card")
        assert late["code"] == "unavailable"  # arriving during the shutdown: refused
    finally:
        lock.execute("ROLLBACK")
        lock.close()

    replies = {
        client: client.wait_for(lambda m, rid=rid: m.get("id") == rid and m["type"] != "event")
        for client, rid in sent.items()
    }
    assert all(reply["type"] == "accepted" for reply in replies.values()), replies
    for client in (director, proctor, watcher, *players.values()):
        assert client.wait_closed() == 1001
    assert process.wait() == 0

    blocking = open_blocking_store(process.store, create=False)
    try:
        recorded = blocking.read("table/term")
        assert blocking.verify("table/term").ok
    finally:
        blocking.close()
    by_seq = {event.seq: event for event in recorded}
    assert by_seq[replies[proctor]["seq"]].type == "CardRevealed"
    touches = [by_seq[replies[players[seat]]["seq"]] for seat in players]
    assert [event.actor["id"] for event in touches] == list(players)
    assert sorted(event.type for event in touches) == ["CardTouched"] + ["TouchRefused"] * 3
    assert len(recorded) == 4 + len(players)  # nothing else: the late command wrote nothing
    # the watcher got every event pushed before its 1001 (its ClientSession refuses gaps)
    assert watcher.session.last_seq["term"] == recorded[-1].seq


def test_a_finished_table_logs_its_head_leaves_memory_and_stays_on_disk_after_restart(tmp_path):
    process = ServerProcess(tmp_path / "evict", "--evict-after", "1").start()
    try:
        director, proctor = start_table(process, "done")
        accepted(proctor, "done", "start_round")
        accepted(proctor, "done", "end_round")
        # Over when the score card is signed (R-ROUND-7), not at RoundEnded.
        ended = accepted(proctor, "done", "sign_score_card", initials="PK")["seq"]
        # The head hash goes to the log, outside the database: an official's anchor.
        blocking = open_blocking_store(process.store, create=False)
        try:
            head = blocking.verify("table/done").head_hash.hex()
        finally:
            blocking.close()
        process.wait_log(f"table done is over at seq {ended}, head {head}")
        process.wait_log("table done evicted")  # nobody joined it: gone after 1 s of quiet
        scraped = process.metrics()
        assert scraped["t24_live_tables"] == 0
        assert scraped["t24_events_in_memory"] == 0  # its log left memory with it
        listed = director.request("list_tables")["tables"]
        assert listed == [{"table": "done", "game": "challenge", "seq": ended, "over": True}]
        snapshot = proctor.request("join", table="done")  # replayed from the log
        assert snapshot["seq"] == ended and snapshot["view"]["phase"] == "ended"
        scraped = process.metrics()
        assert scraped["t24_live_tables"] == 1
        assert scraped["t24_events_in_memory"] == ended  # the whole log again (a short one)
        director.close()
        proctor.close()

        # After a restart the finished table is not replayed at all, only listed.
        assert process.terminate() == 0
        process.start()
        process.wait_log("1 finished table(s) left on disk until joined")
        assert process.metrics()["t24_live_tables"] == 0
        director, proctor = AutobahnClient(process.url), AutobahnClient(process.url)
        director.hello(process.token("director", name="d"))
        proctor.hello(process.token("proctor", name="p", table="done"))
        assert director.request("list_tables")["tables"] == listed
        assert proctor.request("join", table="done")["seq"] == ended
        director.close()
        proctor.close()
    finally:
        process.terminate()


def test_max_connections_refuses_extra_handshakes_with_503(tmp_path):
    process = ServerProcess(tmp_path / "full", "--max-connections", "2").start()
    clients = [AutobahnClient(process.url) for _ in range(2)]
    try:
        with pytest.raises(HandshakeRefused) as info:
            AutobahnClient(process.url)
        assert "503" in str(info.value)
        assert clients[0].request("ping")["type"] == "pong"
    finally:
        for client in clients:
            client.close()
        process.terminate()


def test_demo_writes_one_tokens_file_per_person_and_plays(tmp_path):
    tokens_dir = tmp_path / "demo" / "var" / "demo-tokens"
    process = ServerProcess(
        tmp_path / "demo",
        "--demo",
        "--demo-tokens-dir",
        str(tokens_dir),
        "--demo-auto-proctor",
        "0.2",
    ).start()
    try:
        names = sorted(path.name for path in tokens_dir.iterdir())
        assert names == [
            "director.json",
            "proctor.json",
            "s1.json",
            "s2.json",
            "s3.json",
            "s4.json",
            "spectator.json",
        ]
        assert stat.S_IMODE(os.stat(tokens_dir).st_mode) == 0o700
        assert all(stat.S_IMODE(os.stat(tokens_dir / n).st_mode) == 0o600 for n in names)
        seat = json.loads((tokens_dir / "s2.json").read_text())
        assert set(seat) == {"url", "table", "seats"} and len(seat["seats"]) == 1
        assert seat["seats"][0]["seat"] == "s2"
        tokens = json.loads((tokens_dir / "proctor.json").read_text())
        assert set(tokens) == {"url", "table", "proctor"}
        assert tokens["url"] == process.url
        director = json.loads((tokens_dir / "director.json").read_text())["director"]
        assert director not in process.log_text() and tokens["proctor"] not in process.log_text()
        assert f"t24 play --tokens {tokens_dir}/s1.json" in process.log_text()
        proctor = AutobahnClient(tokens["url"])
        proctor.hello(tokens["proctor"])
        view = proctor.request("join", table=tokens["table"])["view"]
        assert len(view["seats"]) == 4 and view["cards_left"] == 0
        accepted(proctor, "demo", "start_round")
        assert proctor.event("CardPlaced", timeout=15)["data"]["play"] == 1  # auto_proctor
        # beside it, a pocket table for the casual games' browser page (README)
        lister = AutobahnClient(tokens["url"])
        lister.hello(director)
        listed = {t["table"]: t["game"] for t in lister.request("list_tables")["tables"]}
        assert listed == {"demo": "challenge", "demo-pocket": "pocket"}
        lister.close()
    finally:
        process.terminate()


def test_the_protocol_with_the_websockets_package(server):
    """No Autobahn on the client side: the `websockets` sync client and `protocol/`."""
    director = AutobahnClient(server.url)
    director.hello(server.token("director", name="d"))
    director.request("create_table", table="plain-ws", options={"seats": SEATS, "deck": DECK})
    session = ClientSession()
    with ws_connect(server.url, subprotocols=["t24.v1"], open_timeout=5) as ws:
        assert ws.subprotocol == "t24.v1"

        def ask(kind, **fields):
            request_id, frame = session.request(kind, **fields)
            ws.send(frame)
            while True:
                message = session.receive(ws.recv(timeout=5))
                if message.get("id") == request_id and message["type"] != "event":
                    return message

        token = server.token("proctor", name="p", table="plain-ws")
        assert ask("hello", token=token)["type"] == "welcome"
        assert ask("join", table="plain-ws")["seq"] == 1
        assert ask("command", table="plain-ws", name="start_round")["type"] == "accepted"
        assert session.last_seq["plain-ws"] == 2  # the push arrived before the reply
        ws.send('{"type": "ping"}')  # a text frame: refused, connection kept
        assert session.receive(ws.recv(timeout=5))["code"] == "bad_encoding"
        assert ask("ping")["type"] == "pong"
    director.close()


def test_the_sqlite_log_and_its_wal_are_private(tmp_path):
    """Issue 18: the log holds deck orders and answers; it and its WAL are created 0600."""
    process = ServerProcess(tmp_path / "private").start()
    try:
        director, _proctor = start_table(process, "private")  # something written: a WAL
        database = process.dir / "t24.sqlite"
        for path in (database, database.with_name("t24.sqlite-wal")):
            assert path.exists(), path
            assert stat.S_IMODE(path.stat().st_mode) == 0o600, (path, oct(path.stat().st_mode))
    finally:
        process.kill()
