"""Issue 16: a node that stalled past its lease (SIGSTOP, a GC pause) and then appends is
refused by the fence, drops the table and closes its subscribers with 1012.

The whole node (`T24Server` on the real PostgreSQL, the real reactor) runs in this process,
so the test can stall exactly the part that matters: its lease timers (renewal and sweep)
stop, as they do in a stopped process, while the rest of it keeps serving. Another node
("b", a `LeaseBook` of its own) takes the lease once it ran out; then a command arrives
at the stalled node. Its renewal never runs again, so only the fence inside the append's
transaction can stop the write: the e2e test of a real SIGSTOP
(tests/e2e/test_cluster.py) cannot tell the two apart, since the node's first act after
SIGCONT is a renewal.
"""

from __future__ import annotations

from typing import Any

from postgres_schemas import POSTGRES_URL, fresh_schema
from test_server_in_process import DECK, SEATS, ServerCase
from twisted.internet import reactor, task, threads
from twisted.internet.defer import inlineCallbacks
from twisted.logger import globalLogPublisher

from server.cluster.leases import LeaseBook
from server.eventlog.backends import open_blocking_store
from server.eventlog.store import LeaseLost
from server.net.errors import LEASE_LOST_MESSAGE

LEASE = 1.0  # seconds: short, and still three renewals per lease on a loaded machine


def recorded_types(store_url: str, stream: str) -> list[str]:
    blocking = open_blocking_store(store_url, create=False)
    try:
        assert blocking.verify(stream).ok
        return [event.type for event in blocking.read(stream)]
    finally:
        blocking.close()


class StalledOwnerTests(ServerCase):
    def watch_leases_lost(self) -> list[dict[str, Any]]:
        """The `lease_lost` log events of the server, as they are logged."""
        lost: list[dict[str, Any]] = []

        def watch(event: dict[str, Any]) -> None:
            if event.get("event") == "lease_lost":
                lost.append(event)

        globalLogPublisher.addObserver(watch)
        self.addCleanup(globalLogPublisher.removeObserver, watch)
        return lost

    @inlineCallbacks
    def take_when_expired(self, book: LeaseBook, stream: str, timeout: float) -> Any:
        """Node b's takeover: try the lease until it ran out (the database's clock)."""
        deadline = reactor.seconds() + timeout
        while True:
            acquired = yield threads.deferToThread(book.acquire, stream)
            if acquired.held:
                return acquired
            assert reactor.seconds() < deadline, f"{stream} never expired"
            yield task.deferLater(reactor, 0.1, lambda: None)

    @inlineCallbacks
    def test_a_stalled_owner_that_appends_is_refused_by_the_fence(self):
        store_url, schema = self.enterContext(fresh_schema())
        server, url = yield self.start_server(
            store=store_url, lease_seconds=str(LEASE), node_id="a"
        )
        lost = self.watch_leases_lost()
        director = yield self.connect(server, url, "director", name="d")
        created = yield director.request(
            "create_table", table="t1", options={"seats": SEATS, "deck": DECK}
        )
        assert created["type"] == "table_created", created
        watcher = yield self.connect(server, url, "spectator", name="w", table="t1")
        snapshot = yield watcher.request("join", table="t1")
        assert snapshot["type"] == "snapshot" and snapshot["seq"] == 1
        ownership = server.ownership
        assert ownership is not None and ownership.held() == ["table/t1"]

        # Node a stalls: its lease timers stop (a stopped process runs none). A renewal already
        # on the lease thread finishes first: the thread runs one call at a time, in order.
        for loop in ownership._loops:
            loop.stop()
        yield ownership._call(lambda: None)
        epoch = ownership.fence.held()["table/t1"]

        # Node b takes the table once a's lease ran out
        book = LeaseBook(POSTGRES_URL, schema, 30.0, owner="b", url="ws://b")
        self.addCleanup(book.close)
        taken = yield self.take_when_expired(book, "table/t1", timeout=20 * LEASE)
        assert taken.epoch == epoch + 1 and taken.previous_owner == "a"
        assert ownership.fence.held() == {"table/t1": epoch}  # a still believes it owns it
        assert lost == []

        # A command reaches a: decided, appended with the right expected_seq, refused
        proctor = yield self.connect(server, url, "proctor", name="p", table="t1")
        reply = yield proctor.request("command", table="t1", name="start_round", args={})
        assert reply["type"] == "error" and reply["code"] == "unavailable", reply
        assert reply["message"] == LEASE_LOST_MESSAGE
        code = yield watcher.closed
        assert code == 1012  # its subscriber: reconnect, and be redirected to b
        assert [event["why"] for event in lost] == ["an append was refused by fencing"]
        assert lost[0]["stream"] == "table/t1"
        assert "t1" not in server.hub.actors and ownership.held() == []
        assert ownership.counts["lost"] == 1
        assert recorded_types(store_url, "table/t1") == ["TableCreated"]  # nothing written
        assert self.flushLoggedErrors(LeaseLost)  # the refused append, logged by the table

        # asked again, a points at the node that holds the table now
        again = yield proctor.request("command", table="t1", name="start_round", args={})
        assert again["type"] == "moved" and again["url"] == "ws://b", again
        assert recorded_types(store_url, "table/t1") == ["TableCreated"]
        yield server.stop()
