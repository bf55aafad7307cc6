"""Issue 16: several `t24-server` nodes on one PostgreSQL, as real processes on loopback.

Short leases (1 s) keep these quick; the default is 3 s (docs/operations.md).
"""

from __future__ import annotations

import signal
import time

import pytest
from postgres_schemas import fresh_schema
from server_process import ServerProcess, start_together
from test_server_lifecycle import accepted, start_table
from wsclients import AutobahnClient

from server.eventlog.backends import open_blocking_store

pytestmark = pytest.mark.e2e

LEASE = "1.0"


def node(tmp_path, name: str, store: str) -> ServerProcess:
    """A node process; every node shares one secret so a token works on any of them."""
    process = ServerProcess(
        tmp_path / name, "--node-id", name, "--lease-seconds", LEASE, store=store
    )
    process.secret_file = tmp_path / "t24.secret"
    return process


def events(store: str, stream: str) -> list:
    blocking = open_blocking_store(store, create=False)
    try:
        assert blocking.verify(stream).ok
        return blocking.read(stream)
    finally:
        blocking.close()


def wait_for(predicate, timeout: float = 10.0, what: str = "") -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(what)
        time.sleep(0.05)


@pytest.fixture
def store():
    with fresh_schema() as (url, _schema):
        yield url


def test_a_stalled_owner_is_fenced_and_its_table_fails_over(tmp_path, store):
    a, b = start_together(node(tmp_path, "a", store), node(tmp_path, "b", store))
    try:
        _director, proctor = start_table(a, "split", pattern_seconds=60)
        accepted(proctor, "split", "start_round")
        accepted(proctor, "split", "place_card")
        accepted(proctor, "split", "reveal_card")  # mid-card on node a
        s1 = AutobahnClient(a.url)
        s1.hello(a.token("player", table="split", seat="s1"))
        watcher = AutobahnClient(a.url)  # joined on a: told to go when a loses the table
        watcher.hello(a.token("spectator", name="w", table="split"))
        assert watcher.request("join", table="split")["type"] == "snapshot"
        # any node accepts a connection; b points at the owner
        s2 = AutobahnClient(b.url)
        s2.hello(b.token("player", table="split", seat="s2"))
        moved = s2.request("join", table="split")
        assert moved == {"type": "moved", "id": moved["id"], "table": "split", "url": a.url}
        # list_tables on b lists a's table too (refreshed every third of the lease)
        director_b = AutobahnClient(b.url)
        director_b.hello(b.token("director", name="d"))

        def listed_on_b() -> bool:
            return [t["table"] for t in director_b.request("list_tables")["tables"]] == ["split"]

        wait_for(listed_on_b, timeout=5, what="b never listed a's table")
        before = len(events(store, "table/split"))

        a.process.send_signal(signal.SIGSTOP)  # a stalls past its lease
        try:
            b.wait_log("table split taken over (failover)")
            paused = events(store, "table/split")[before:]
            assert [(e.type, e.data.get("cause")) for e in paused] == [("TablePaused", "failover")]
            # a command reaches a while it is stopped: a reads it when it wakes up
            late = s1.send("command", table="split", name="touch_card", args={})
        finally:
            a.process.send_signal(signal.SIGCONT)
        # Whichever a does first on waking, append it (the fence refuses: `unavailable`) or
        # renew (refused: the table is dropped, and the command is pointed at b), the
        # command is not accepted and nothing reaches the log. tests/unit/test_stalled_owner.py
        # shows the fence alone refusing it.
        refused = s1.wait_for(lambda m: m.get("id") == late and m["type"] != "event")
        assert refused["type"] in ("error", "moved"), refused
        assert refused.get("code", "unavailable") == "unavailable", refused
        a.wait_log("lease of table/split lost")
        a.wait_log("table split dropped")
        assert watcher.wait_closed() == 1012
        # a's player is not served by a any more: a points at b; nothing a did reached the log
        reply = s1.request("command", table="split", name="touch_card", args={})
        assert reply["type"] == "moved" and reply["url"] == b.url, reply
        after = events(store, "table/split")
        assert len(after) == before + 1 and after[-1].type == "TablePaused"
        # node b serves the table: the proctor resumes it there
        proctor_b = AutobahnClient(b.url)
        proctor_b.hello(b.token("proctor", name="p", table="split"))
        snapshot = proctor_b.request("join", table="split")
        assert snapshot["view"]["pause_cause"] == "failover"
        accepted(proctor_b, "split", "resume_table")
    finally:
        a.kill()
        b.kill()


def test_kill_9_of_the_owner_moves_its_table_within_the_lease_and_loses_nothing(tmp_path, store):
    a, b = start_together(node(tmp_path, "a", store), node(tmp_path, "b", store))
    try:
        _director, proctor = start_table(a, "crash", pattern_seconds=60)
        accepted(proctor, "crash", "start_round")
        accepted(proctor, "crash", "place_card")
        # a spectator on b watches a's table from a replica, fed through LISTEN/NOTIFY
        watcher = AutobahnClient(b.url)
        watcher.hello(b.token("spectator", name="w"))
        assert watcher.request("join", table="crash")["type"] == "snapshot"
        acknowledged = accepted(proctor, "crash", "reveal_card")["seq"]  # mid-card
        assert watcher.event("CardRevealed")["seq"] == acknowledged
        # a node that cannot bind its port takes no lease and writes nothing
        c = node(tmp_path, "c", store)
        with pytest.raises(RuntimeError, match="exited early"):
            c.start("--port", str(a.port))
        assert c.wait() == 1 and "lease of" not in c.log_text()
        assert len(events(store, "table/crash")) == acknowledged
        a.kill()
        killed = time.monotonic()
        # a client reconnects to any node: b answers `moved` to a until the lease expires,
        # then takes the table itself (failover) and serves it
        proctor_b = AutobahnClient(b.url)
        proctor_b.hello(b.token("proctor", name="p", table="crash"))

        def served_by_b() -> bool:
            return (
                proctor_b.request("join", table="crash", after_seq=acknowledged)["type"]
                == "snapshot"
            )

        wait_for(served_by_b, timeout=8, what="b never served the table")
        assert watcher.wait_closed() == 1012  # b serves it now: rejoin the real table
        took = time.monotonic() - killed
        assert took < 5.0, took  # a 1 s lease: well within the 5 s of the default 3 s lease
        paused = proctor_b.event("TablePaused")  # the catch-up after what we acknowledged
        assert paused["seq"] == acknowledged + 1 and paused["data"]["cause"] == "failover"
        assert [p["seq"] for p in proctor_b.events()] == []  # nothing seen twice
        recorded = events(store, "table/crash")  # verified: no event lost, none twice
        assert [e.seq for e in recorded] == list(range(1, acknowledged + 2))
        accepted(proctor_b, "crash", "resume_table")
        status, body, _ = b.get("/healthz")
        assert status == 200 and body == b"ok\nowned_tables: crash\n"
        metrics = b.metrics()
        assert metrics["t24_leases_held"] == 1 and metrics["t24_failovers_total"] == 1
    finally:
        a.kill()
        b.kill()
