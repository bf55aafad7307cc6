"""`/metrics` of real nodes (issue 16), scraped over HTTP and parsed by `prometheus_client`'s
own parser: the counts move with what the nodes did (a table created takes a lease, a
request for another node's table is a redirect, commands and appends are counted)."""

from __future__ import annotations

import pytest
from postgres_schemas import fresh_schema
from test_cluster import node
from test_server_lifecycle import accepted, start_table
from wsclients import AutobahnClient

pytestmark = pytest.mark.e2e

ACCEPTED = "t24_commands_total{outcome=accepted}"


def test_leases_redirects_and_commands_are_counted_on_the_node_that_did_them(tmp_path):
    with fresh_schema() as (store, _schema):
        a = node(tmp_path, "a", store).start()
        b = node(tmp_path, "b", store).start()
        try:
            status, _body, headers = a.get("/metrics")
            assert status == 200 and headers["Content-Type"].startswith("text/plain; version=0.0.4")
            before = a.metrics()
            assert before["t24_leases_held"] == 0 and before["t24_redirects_total"] == 0
            assert before["t24_failovers_total"] == 0 and before[ACCEPTED] == 0

            _director, proctor = start_table(a, "counted")
            accepted(proctor, "counted", "start_round")
            on_a = a.metrics()
            assert on_a["t24_leases_held"] == 1  # the creating node owns the table
            assert on_a[ACCEPTED] == 1
            assert on_a["t24_events_appended_total"] > before["t24_events_appended_total"]
            assert on_a["t24_connections"] == 2  # the director and the proctor
            assert b.metrics()["t24_leases_held"] == 0

            player = AutobahnClient(b.url)
            player.hello(b.token("player", table="counted", seat="s1"))
            assert player.request("join", table="counted")["type"] == "moved"
            moved = player.request("command", table="counted", name="touch_card", args={})
            assert moved["type"] == "moved"
            on_b = b.metrics()
            assert on_b["t24_redirects_total"] == 2  # one per request answered `moved`
            assert on_b[ACCEPTED] == 0  # b ran no command of a's table
            assert a.metrics()["t24_redirects_total"] == 0
            player.close()
        finally:
            a.kill()
            b.kill()
