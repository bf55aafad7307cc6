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

from server.cluster.leases import Fence, LeaseBook, LeaseLost, failover_order
from server.eventlog.envelope import NewEvent
from server.eventlog.postgres import PostgresEngine
from server.eventlog.store import parse_store_url


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
        assert two_nodes["b"][1].orphans() == ([], set())
        a_book.release(["table/t"])
        assert a_book.orphans() == (["table/t"], set())  # its own node may take it back too
        assert two_nodes["b"][1].orphans() == (["table/t"], set())
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

    def test_a_tournament_fails_over_first_and_its_tables_go_with_it(self):
        """The tournament actor drives its tables through its own hub: they move together."""
        orphans = ["table/cup.r1.s0.t01", "table/free", "tournament/cup", "table/x.y"]
        tournaments = {"tournament/cup"}
        assert failover_order(orphans, tournaments, set()) == [
            "tournament/cup",
            "table/cup.r1.s0.t01",
            "table/free",
            "table/x.y",  # no tournament x: an ordinary table with a dot in its id
        ]
        # the tournament is live elsewhere (not an orphan): its tables wait for its node
        assert failover_order(["table/cup.r1.s0.t01", "table/free"], tournaments, set()) == [
            "table/free"
        ]
        # what this node holds is never taken over
        assert failover_order(["table/free"], set(), {"table/free": 3}) == []
