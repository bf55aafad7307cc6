"""Placing a table on another node (issue 16): the hub records it started, then hands its
lease over; and a `get` that arrives while a table is being created waits for it.

A `FakeLeases` stands in for `server.cluster.ownership.LeaseManager` (the hub's side of it:
acquire, hand_off, lost, place); the real leases are tested on PostgreSQL by
tests/unit/test_lease_fencing.py and end to end by tests/e2e/test_cluster_tournament.py.
"""

from __future__ import annotations

import pytest
from shell_testcase import ShellTestCase
from test_hub_listing import HeldLoads
from test_runtime import DIRECTOR, OPTIONS, SPECTATOR, T0, GatedStore, Recorder, result_of, us
from twisted.internet.defer import Deferred, succeed
from twisted.internet.task import Clock

from server.cluster.leases import Acquired
from server.eventlog.backends import open_store
from server.games.base import Actor, Command
from server.runtime.hub import Hub, InvalidOptions

START = Command("start_round", {}, Actor("director", "tournament/cup"))


class FakeLeases:
    """This node is "a"; every lease is free; `hand_off` answers `handed`."""

    def __init__(self, handed: bool = True) -> None:
        self.owner = "a"
        self.handed = handed
        self.calls: list[tuple] = []
        self.counts = {"failovers": 0, "lost": 0, "redirects": 0}

    def acquire(self, stream: str):
        self.calls.append(("acquire", stream))
        return succeed(Acquired(stream, True, 1))

    def hand_off(self, stream: str, node: str, url: str):
        self.calls.append(("hand_off", stream, node, url))
        return succeed(self.handed)

    def lost(self, stream: str, why: str) -> None:
        self.calls.append(("lost", stream))

    def is_failover(self, acquired: Acquired) -> bool:
        return False

    def place(self, count: int):
        return succeed([("b", "ws://b")] * count)

    def keep(self, stream: str, row: dict) -> None:
        self.calls.append(("keep", stream, row["seq"]))

    def remote_rows(self) -> list:
        return []


class HeldReads:
    """A store whose `read`s are answered when `answer_reads()` says: with what the store
    holds then, or only up to `upto_seq` (a read answered from before a later commit)."""

    def __init__(self, store) -> None:
        self.store = store
        self.waiting: list[tuple[Deferred, str, int]] = []

    def read(self, stream: str, after_seq: int = 0) -> Deferred:
        d: Deferred = Deferred()
        self.waiting.append((d, stream, after_seq))
        return d

    def answer_reads(self, upto_seq: int | None = None) -> None:
        waiting, self.waiting = self.waiting, []
        for d, stream, after_seq in waiting:
            events = result_of(self.store.read(stream, after_seq=after_seq))
            d.callback([e for e in events if upto_seq is None or e.seq <= upto_seq])

    def __getattr__(self, name):
        return getattr(self.store, name)


def recorded(store, table: str) -> list[str]:
    return [e.type for e in result_of(store.read(f"table/{table}"))]


class HubPlacementTests(ShellTestCase):
    """A task.Clock at T0 and a gated memory store on it."""

    def setUp(self):
        super().setUp()
        self.clock = Clock()
        self.clock.advance(T0)
        self.store = GatedStore(open_store("memory:", clock=self.clock.seconds))

    def test_a_table_placed_on_another_node_is_recorded_started_then_handed_over(self):
        store, clock = self.store, self.clock
        leases = FakeLeases()
        hub = Hub(store, clock, ownership=leases)
        created = hub.create_table(
            "cup.r1", "challenge", OPTIONS, DIRECTOR, start=START, node=("b", "ws://b")
        )
        assert result_of(created) is None  # served by node b, not here
        assert "cup.r1" not in hub.actors
        assert recorded(store, "cup.r1") == ["TableCreated", "RoundStarted"]  # one append
        assert leases.calls == [
            ("acquire", "table/cup.r1"),
            ("hand_off", "table/cup.r1", "b", "ws://b"),
            ("keep", "table/cup.r1", 2),  # listed here until a refresh (issue 33)
        ]
        assert result_of(hub.placements(2)) == [("b", "ws://b")] * 2

    def test_a_hand_off_that_did_not_happen_serves_the_table_here(self):
        store, clock = self.store, self.clock
        hub = Hub(store, clock, ownership=FakeLeases(handed=False))
        actor = result_of(
            hub.create_table("cup.r1", "challenge", OPTIONS, DIRECTOR, start=START, node=("b", "x"))
        )
        assert hub.actors["cup.r1"] is actor and actor.state.started

    def test_a_table_placed_on_this_node_is_not_handed_over(self):
        store, clock = self.store, self.clock
        leases = FakeLeases()
        hub = Hub(store, clock, ownership=leases)
        actor = result_of(hub.create_table("t", "challenge", OPTIONS, DIRECTOR, node=("a", "x")))
        assert hub.actors["t"] is actor and [c[0] for c in leases.calls] == ["acquire"]

    def test_a_first_command_the_game_refuses_records_nothing(self):
        store, clock = self.store, self.clock
        hub = Hub(store, clock)
        place = Command("place_card", {}, DIRECTOR)  # the round has not started
        with pytest.raises(InvalidOptions, match="place_card"):
            result_of(hub.create_table("t", "challenge", OPTIONS, DIRECTOR, start=place))
        assert recorded(store, "t") == []

    def test_a_get_while_the_table_is_being_created_gets_the_created_table(self):
        store, clock = self.store, self.clock
        """Without the wait the `get` loaded a second actor of the same table (two writers)."""
        hub = Hub(store, clock)
        store.gated = True
        created = hub.create_table("t", "challenge", OPTIONS, DIRECTOR)
        got = hub.get("t")
        assert not got.called  # it waits for the creation in flight
        store.release()
        assert result_of(got) is result_of(created) is hub.actors["t"]

    def test_a_get_whose_read_finds_a_table_created_meanwhile_gets_the_created_table(self):
        """A join before the table exists (a bot at a round's table the tournament is still
        opening), its read of the store answered after the creation recorded it: the join
        gets the created actor. It loaded a second actor of the same table before: the
        players played on one while the tournament listened to the other, and waited for the
        table's result for ever (test_simulate_key.py, 2026-12-03)."""
        store, clock = HeldLoads(open_store("memory:", clock=self.clock.seconds)), self.clock
        store.holding = True
        hub = Hub(store, clock)
        got = hub.get("t")  # its read is in flight
        created = result_of(hub.create_table("t", "challenge", OPTIONS, DIRECTOR))
        store.release()  # the read finds the table just recorded
        assert result_of(got) is created is hub.actors["t"]

    def test_on_a_single_node_every_table_stays_here(self):
        store, clock = self.store, self.clock
        assert result_of(Hub(store, clock).placements(3)) == [None] * 3

    def test_a_replica_reads_what_it_missed_when_the_listen_connection_comes_back(self):
        store, clock = self.store, self.clock
        """A notification lost (the LISTEN connection was down) is made good by reading after
        the replica's own seq; a notification of what it has already read changes nothing."""
        owner = Hub(store, clock)  # the node that serves the table
        table = result_of(owner.create_table("t", "challenge", OPTIONS, DIRECTOR))
        here = Hub(store, clock)
        copy = result_of(here.replica("t"))
        watcher = Recorder(SPECTATOR)
        copy.subscribe(watcher)
        result_of(table.submit(Command("start_round", {}, DIRECTOR), us(clock)))
        assert copy.seq == 1  # no notification came
        here.catch_up_replicas()
        assert copy.seq == 2 and watcher.types() == ["RoundStarted"]
        here.remote_event("table/t", 2)
        assert copy.seq == 2 and watcher.types() == ["RoundStarted"]
        assert result_of(here.replica("t")) is copy

    def test_a_replica_reads_again_for_an_append_notified_while_its_read_was_in_flight(self):
        """The copy's first catch-up read (made at its load) is answered from before the next
        append's commit (a read on a thread of its own), and that append's notification came
        while the read was in flight: the copy reads again, and its viewer gets the event.
        Before: the read found nothing new and nothing read again (the spectator of
        tests/e2e/test_cluster.py waited in vain, 2026-12-03)."""
        store, clock = self.store, self.clock
        owner = Hub(store, clock)
        table = result_of(owner.create_table("t", "challenge", OPTIONS, DIRECTOR))
        held = HeldReads(store)
        here = Hub(held, clock)
        copy = result_of(here.replica("t"))  # its catch-up read is held
        watcher = Recorder(SPECTATOR)
        copy.subscribe(watcher)
        result_of(table.submit(Command("start_round", {}, DIRECTOR), us(clock)))
        here.remote_event("table/t", 2)  # the notification, while the read is in flight
        held.answer_reads(upto_seq=1)  # answered from before the append's commit
        assert copy.seq == 1 and watcher.types() == []
        held.answer_reads()  # the read made again
        assert copy.seq == 2 and watcher.types() == ["RoundStarted"]
        assert held.waiting == []  # and no more: a notification of what it read is done
        here.remote_event("table/t", 2)
        assert held.waiting == []
