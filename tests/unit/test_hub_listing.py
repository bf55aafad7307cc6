"""`list_tables` on a node of several never loses a table in transit (issue 33, item 8).

The race CI met once in four runs under load (tests/e2e/test_cluster_listing.py): node b
took the lease of a dead node's table (`lease of table/live taken`), and a listing refresh
that read the store after that no longer named the table (b holds it), while b's load of it
was still under way: for that moment b's `list_tables` lacked a table in play. Here the real
`LeaseManager` (its lease book faked, its calls made at once) and the real hub on a memory
store whose loads the test releases: the table stays listed through the take-over, the
refresh, a lost lease and a hand-off; each table is listed from its freshest row.
"""

from __future__ import annotations

from shell_testcase import ShellTestCase
from test_runtime import DIRECTOR, OPTIONS, T0, result_of
from twisted.internet.defer import Deferred, succeed
from twisted.internet.task import Clock

from server.cluster.leases import Acquired
from server.cluster.ownership import LeaseManager
from server.eventlog.backends import open_store
from server.runtime.hub import Hub


class FakeEngine:
    schema = "t24_test"


class FakeBook:
    """Every lease is free; this node takes them over from node "a"."""

    def acquire(self, stream: str) -> Acquired:
        return Acquired(stream, True, 2, previous_owner="a")

    def hand_off(self, stream: str, epoch: int, node: str, url: str) -> bool:
        return True


class HeldLoads:
    """The memory store, with each `load` held until the test releases it."""

    def __init__(self, store) -> None:
        self.store = store
        self.held: list[tuple[Deferred, str]] = []
        self.holding = False

    def load(self, stream):
        if not self.holding:
            return self.store.load(stream)
        d: Deferred = Deferred()
        self.held.append((d, stream))
        return d

    def release(self) -> None:
        held, self.held = self.held, []
        for d, stream in held:
            self.store.load(stream).chainDeferred(d)

    def __getattr__(self, name):
        return getattr(self.store, name)


def row(table: str, seq: int, over: bool = False) -> dict:
    return {"table": table, "game": "challenge", "seq": seq, "over": over}


def listed(hub: Hub) -> dict[str, dict]:
    return {r["table"]: r for r in hub.tables()}


class ListingTests(ShellTestCase):
    def setUp(self):
        super().setUp()
        self.clock = Clock()
        self.clock.advance(T0)
        self.store = HeldLoads(open_store("memory:", clock=self.clock.seconds))
        self.leases = LeaseManager(FakeEngine(), self.clock, ttl=1.5)
        self.leases.book = FakeBook()  # type: ignore[assignment]
        self.leases._call = lambda function, *args: succeed(function(*args))  # at once
        self.leases.owner = "b"
        self.hub = Hub(self.store, self.clock, ownership=self.leases)
        self.leases.hub = self.hub

    def other_nodes_table(self, table: str) -> None:
        """`table` recorded by another node (here: a hub of its own on the same store)."""
        result_of(
            Hub(self.store.store, self.clock).create_table(table, "challenge", OPTIONS, DIRECTOR)
        )

    def test_a_table_taken_over_stays_listed_while_it_loads_through_a_refresh(self):
        self.other_nodes_table("live")
        self.leases.listed({"table/live": row("live", 1)})  # a refresh: node a serves it
        self.store.holding = True
        loading = self.hub.get("live")  # the sweep's take-over: lease taken, load under way
        assert "table/live" in self.leases.fence.held() and self.store.held
        self.leases.listed({})  # a refresh after the lease: the store lists it no more
        assert listed(self.hub)["live"] == row("live", 1)  # was missing: the race
        self.store.release()
        actor = result_of(loading)
        assert listed(self.hub)["live"] == row("live", actor.seq)  # now the live actor's row
        assert self.leases.remote["table/live"] == row("live", 1)  # kept, never in the way

    def test_a_table_whose_lease_is_lost_stays_listed_until_a_refresh(self):
        self.other_nodes_table("lost")
        actor = result_of(self.hub.get("lost"))
        self.leases.lost("table/lost", "renewal refused")
        assert "lost" not in self.hub.actors
        assert listed(self.hub)["lost"] == row("lost", actor.seq)
        self.leases.listed({"table/lost": row("lost", actor.seq + 3)})  # its new node wrote
        assert listed(self.hub)["lost"]["seq"] == actor.seq + 3

    def test_a_table_handed_to_another_node_is_listed_here_at_once(self):
        created = self.hub.create_table(
            "cup.r1", "challenge", OPTIONS, DIRECTOR, node=("c", "ws://c")
        )
        assert result_of(created) is None and "cup.r1" not in self.hub.actors
        assert listed(self.hub)["cup.r1"] == row("cup.r1", 1)

    def test_each_table_is_listed_from_its_freshest_row(self):
        self.hub.retired["old"] = row("old", 9, over=True)
        self.leases.listed({"table/old": row("old", 7)})  # a listing older than the eviction
        assert listed(self.hub)["old"] == row("old", 9, over=True)
        self.leases.listed({"table/old": row("old", 12)})  # another node has played it since
        assert listed(self.hub)["old"] == row("old", 12)
        self.leases.listed({"table/old": row("old", 10)})  # an older listing never wins
        assert listed(self.hub)["old"] == row("old", 12)
