"""Issue 16: leases and fencing on the real PostgreSQL, two nodes as two engines.

The fence is what makes ownership safe: a node that lost its lease (it stalled past the
expiry, another node took the table) must not append even when its `expected_seq` is right.
"""

from __future__ import annotations

import time
from contextlib import ExitStack

import pytest
from postgres_schemas import fresh_schema
from shell_testcase import ShellTestCase

from server.cluster.leases import (
    Fence,
    LeaseBook,
    deal_tables,
    failover_order,
    failover_share,
)
from server.eventlog.envelope import NewEvent
from server.eventlog.postgres import PostgresEngine
from server.eventlog.store import LeaseLost, parse_store_url


def open_two_nodes(case: ShellTestCase) -> dict:
    """Two (engine, book, fence, lost) nodes "a" and "b" on one fresh schema, lease 0.3 s;
    closed, and the schema dropped, when `case` ends."""
    stack = ExitStack()
    case.addCleanup(stack.close)  # registered first: the schema is dropped last
    url, _schema = stack.enter_context(fresh_schema())
    parsed = parse_store_url(url)
    nodes = {}
    for name in ("a", "b"):
        engine = PostgresEngine(parsed.target, schema=parsed.options["schema"])
        lost: list[str] = []
        fence = Fence(engine.schema, lost.append, owner=name)
        engine.fence = fence
        book = LeaseBook(engine.conninfo, engine.schema, 0.3, owner=name, url=f"ws://{name}")
        nodes[name] = (engine, book, fence, lost)
    for engine, book, _fence, _lost in nodes.values():
        case.addCleanup(engine.close)  # cleanups run last in, first out: the book first
        case.addCleanup(book.close)
    return nodes


def hold(node, stream: str):
    _engine, book, fence, _lost = node
    acquired = book.acquire(stream)
    if acquired.held:
        fence.hold(stream, acquired.epoch)
    return acquired


class LeaseFencingTests(ShellTestCase):
    def setUp(self):
        super().setUp()
        self.two_nodes = open_two_nodes(self)

    def test_an_append_needs_the_lease(self):
        two_nodes = self.two_nodes
        engine, _book, _fence, _lost = two_nodes["a"]
        with pytest.raises(LeaseLost):
            engine.append("table/t", 0, [NewEvent("TableCreated", {})])
        assert engine.last_seq("table/t") == 0
        assert hold(two_nodes["a"], "table/t").held
        assert engine.append("table/t", 0, [NewEvent("TableCreated", {})])[0].seq == 1

    def test_a_live_lease_is_not_taken_and_names_its_owner(self):
        two_nodes = self.two_nodes
        assert hold(two_nodes["a"], "table/t").held
        refused = hold(two_nodes["b"], "table/t")
        assert not refused.held and refused.owner_url == "ws://a"

    def test_a_node_whose_lease_was_taken_over_is_fenced_even_with_the_right_seq(self):
        two_nodes = self.two_nodes
        a_engine, a_book, _a_fence, a_lost = two_nodes["a"]
        b_engine = two_nodes["b"][0]
        first = hold(two_nodes["a"], "table/t")
        a_engine.append("table/t", 0, [NewEvent("TableCreated", {})])
        time.sleep(0.4)  # "a" stalls past its lease (SIGSTOP, a GC pause): nobody renews it
        taken = hold(two_nodes["b"], "table/t")
        assert taken.held and taken.epoch == first.epoch + 1 and taken.previous_owner == "a"
        # "a" wakes up and appends with the right expected_seq: refused, nothing written
        with pytest.raises(LeaseLost):
            a_engine.append("table/t", 1, [NewEvent("Late", {})])
        assert a_lost == ["table/t"]
        assert a_book.renew({"table/t": first.epoch}) == set()  # its renewal is refused too
        assert b_engine.append("table/t", 1, [NewEvent("TablePaused", {"cause": "failover"})])
        assert [e.type for e in b_engine.read("table/t")] == ["TableCreated", "TablePaused"]

    def test_renewal_keeps_a_lease_past_its_first_expiry(self):
        two_nodes = self.two_nodes
        _engine, a_book, _fence, _lost = two_nodes["a"]
        epoch = hold(two_nodes["a"], "table/t").epoch
        for _ in range(3):
            time.sleep(0.15)
            assert a_book.renew({"table/t": epoch}) == {"table/t"}
        assert not hold(two_nodes["b"], "table/t").held

    def test_a_released_lease_is_an_orphan_other_nodes_take(self):
        two_nodes = self.two_nodes
        _engine, a_book, _fence, _lost = two_nodes["a"]
        hold(two_nodes["a"], "table/t")
        assert two_nodes["b"][1].claimable().orphans == []
        a_book.release(["table/t"])
        assert a_book.claimable().orphans == ["table/t"]  # its own node may take it back too
        assert two_nodes["b"][1].claimable().orphans == ["table/t"]
        assert hold(two_nodes["b"], "table/t").held

    def test_one_refused_stream_does_not_fail_the_others_of_a_group_commit(self):
        two_nodes = self.two_nodes
        from server.eventlog.engine import make_request

        engine = two_nodes["a"][0]
        hold(two_nodes["a"], "table/mine")
        outcomes = engine.append_batch(
            [
                make_request("table/other", 0, [NewEvent("TableCreated", {})]),
                make_request("table/mine", 0, [NewEvent("TableCreated", {})]),
            ]
        )
        assert isinstance(outcomes[0], LeaseLost)
        assert [e.seq for e in outcomes[1]] == [1]

    def test_a_tournament_fails_over_first_and_its_tables_are_taken_by_any_node(self):
        """A tournament reads its tables from the store wherever they are served: they need
        not move with it; it comes back first so that its standings do."""
        orphans = ["table/cup.r1.s0.t01", "table/free", "tournament/cup"]
        assert failover_order(orphans, set()) == [
            "tournament/cup",
            "table/cup.r1.s0.t01",
            "table/free",
        ]
        # what this node holds is never taken over
        assert failover_order(["table/free"], {"table/free": 3}) == []

    def test_a_dead_nodes_tables_are_shared_by_the_live_nodes(self):
        """Each sweep takes its share, starting at a table of its own: the first node to
        sweep no longer takes every table of a dead node."""
        tables = [f"table/t{n}" for n in range(6)]
        firsts = {failover_order(tables, set(), node)[0] for node in ("a", "b", "c", "d")}
        assert len(firsts) > 1  # nodes start at different tables
        for node in ("a", "b"):
            assert sorted(failover_order(tables, set(), node)) == tables  # every one, once
        assert [failover_share(6, live) for live in (0, 1, 2, 4, 7)] == [6, 6, 3, 2, 1]

    def test_tables_are_dealt_to_the_least_loaded_live_nodes_ties_to_this_one(self):
        loads = [("a", "ws://a", 3), ("b", "ws://b", 1), ("c", "ws://c", 1)]
        dealt = deal_tables(loads, 5, ("c", "ws://c"))  # this node is c
        # b and c hold 1: the tie goes to this node; then b (1 < 2); then the tie of b and c
        # at 2 to c again; b; and at 3 each, c once more (a tie: this node first)
        assert [node for node, _url in dealt] == ["c", "b", "c", "b", "c"]
        assert dealt[1] == ("b", "ws://b")
        # a node that is not in the registry yet counts as live and empty
        assert deal_tables([], 2, ("me", "ws://me")) == [("me", "ws://me")] * 2

    def test_a_handed_lease_is_the_new_nodes_and_fences_the_old_one(self):
        two_nodes = self.two_nodes
        a_engine, a_book, _a_fence, _lost = two_nodes["a"]
        b_engine, b_book, _b_fence, _b_lost = two_nodes["b"]
        for book in (a_book, b_book):
            book.ttl = 30.0  # nothing expires during this test, however loaded the machine
            book.heartbeat()
        assert a_book.loads() == [("a", "ws://a", 0), ("b", "ws://b", 0)]
        epoch = hold(two_nodes["a"], "table/t").epoch
        a_engine.append("table/t", 0, [NewEvent("TableCreated", {})])
        assert a_book.loads() == [("a", "ws://a", 1), ("b", "ws://b", 0)]
        assert not a_book.hand_off("table/t", epoch + 5, "b", "ws://b")  # not the epoch held
        assert a_book.hand_off("table/t", epoch, "b", "ws://b")
        assert b_book.claimable() == ([], ["table/t"], 2)  # handed to b, 2 live nodes
        assert a_book.claimable() == ([], [], 2)
        taken = hold(two_nodes["b"], "table/t")
        assert taken.held and taken.handed_from == "a" and taken.previous_owner == "b"
        assert b_book.claimable().handed == []  # taken: no longer offered
        with pytest.raises(LeaseLost):  # a may not write it any more
            a_engine.append("table/t", 1, [NewEvent("Late", {})])
        assert b_engine.append("table/t", 1, [NewEvent("Next", {})])[0].seq == 2
        b_book.leave()
        assert a_book.loads() == [("a", "ws://a", 0)]

    def test_a_hand_off_nobody_took_in_time_is_a_failover_for_the_node_that_takes_it(self):
        two_nodes = self.two_nodes
        _engine, a_book, _fence, _lost = two_nodes["a"]
        epoch = hold(two_nodes["a"], "table/t").epoch
        assert a_book.hand_off("table/t", epoch, "b", "ws://b")
        time.sleep(0.4)  # b died before taking it: the lease expires
        taken = hold(two_nodes["a"], "table/t")
        assert taken.held and taken.previous_owner == "b" and taken.handed_from == ""


class LeaseTableUpgradeTests(ShellTestCase):
    def test_a_leases_table_from_before_hand_offs_gains_the_column(self):
        import psycopg
        from postgres_schemas import POSTGRES_URL

        with fresh_schema() as (_url, schema):
            with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
                connection.execute(f'CREATE SCHEMA "{schema}"')
                connection.execute(
                    f'CREATE TABLE "{schema}".leases (stream text PRIMARY KEY, owner text NOT NULL,'
                    " url text NOT NULL, epoch bigint NOT NULL, expires_at timestamptz NOT NULL)"
                )
                connection.execute(
                    f"INSERT INTO \"{schema}\".leases VALUES ('table/old', 'x', 'ws://x', 4, now())"
                )
            book = LeaseBook(POSTGRES_URL, schema, 30.0, owner="a", url="ws://a")
            try:
                taken = book.acquire("table/old")  # expired: taken, the old row upgraded
                assert taken.held and taken.epoch == 5 and taken.handed_from == ""
            finally:
                book.close()
