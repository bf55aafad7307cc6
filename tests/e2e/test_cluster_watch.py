"""A director's or proctor's `join` with `watch` (issue 16): another node's table from a
read-only replica on this node, not `moved`; its commands still `moved` (docs/protocol.md).

Real node processes on one PostgreSQL schema. The browser test is the reason: the web
scoreboard watches every table, and one extra WebSocket per table another node serves made
thousands of sockets at 2,500 tables; now it needs one per `max_joins` tables.
"""

from __future__ import annotations

import time

import msgpack
import pytest
from postgres_schemas import fresh_schema
from server_process import ServerProcess, start_together
from test_server_lifecycle import accepted, start_table
from web_browser import Pages
from wsclients import AutobahnClient

pytestmark = pytest.mark.e2e

LEASE = "3.0"  # the default: nothing here needs a quick failover
WAIT = 20.0  # seconds: generous for a loaded machine; each wait ends at its event


def node(tmp_path, name: str, store: str) -> ServerProcess:
    """A node process; the nodes share one secret, so a token works on every node."""
    process = ServerProcess(
        tmp_path / name, "--node-id", name, "--lease-seconds", LEASE, store=store
    )
    process.secret_file = tmp_path / "t24.secret"
    return process


@pytest.fixture(scope="module")
def nodes(tmp_path_factory):
    """Two nodes for the module: its tests watch and list, and kill nothing; each uses
    tables of its own names."""
    directory = tmp_path_factory.mktemp("watch")
    with fresh_schema() as (store, _schema):
        a, b = start_together(node(directory, "a", store), node(directory, "b", store))
        try:
            yield a, b
        finally:
            a.kill()
            b.kill()


@pytest.fixture
def two_nodes(nodes):
    """The module's nodes and a `client(node, role, **claims)` factory; after the test its
    clients are closed and both nodes are seen to count no connection (the next test
    counts a's connections)."""
    a, b = nodes
    clients: list[AutobahnClient] = []

    def client(process: ServerProcess, role: str, **claims: str) -> AutobahnClient:
        made = AutobahnClient(process.url)
        clients.append(made)
        made.hello(process.token(role, **claims))
        return made

    yield a, b, client
    for made in clients:
        made.close()
    deadline = time.monotonic() + WAIT
    while a.metrics()["t24_connections"] or b.metrics()["t24_connections"]:
        assert time.monotonic() < deadline, "the test's connections were never closed"
        time.sleep(0.05)


def test_a_watching_director_or_proctor_is_served_a_replica_and_its_commands_moved(two_nodes):
    a, b, client = two_nodes
    director_a, proctor_a = start_table(a, "far", pattern_seconds=60)
    try:
        started = accepted(proctor_a, "far", "start_round")["seq"]

        director = client(b, "director", name="d")
        snapshot = director.request("join", table="far", watch=True)
        assert snapshot["type"] == "snapshot", snapshot  # served here, from a replica
        assert snapshot["seq"] == started and snapshot["table"] == "far", snapshot
        assert a.metrics()["t24_connections"] == 2  # a's own two clients only
        placed = accepted(proctor_a, "far", "place_card")["seq"]
        pushed = director.event("CardPlaced", timeout=WAIT)  # through LISTEN/NOTIFY
        assert pushed["seq"] == placed
        # a command on the watched table is the owner's: still `moved`
        moved = director.request("command", table="far", name="reveal_card", args={})
        assert moved["type"] == "moved" and moved["url"] == a.url, moved

        proctor = client(b, "proctor", name="p", table="far")
        assert proctor.request("join", table="far", watch=True)["type"] == "snapshot"
        # who is connected is known only on the owner: `presence` is still `moved`
        with_presence = proctor.request("join", table="far", watch=True, presence=True)
        assert with_presence["type"] == "moved", with_presence
        # without `watch` a director is sent to the owner as before; a player always is
        plain = client(b, "director", name="d2").request("join", table="far")
        assert plain["type"] == "moved", plain
        player = client(b, "player", table="far", seat="s1")
        assert player.request("join", table="far", watch=True)["type"] == "moved"
        # `watch` must be a bool (sent raw: the test's own client checks its requests)
        director.send_raw(msgpack.packb({"type": "join", "id": 99, "table": "far", "watch": 1}))
        refused = director.wait_for(lambda m: m.get("id") == 99)
        assert refused["type"] == "error" and refused["code"] == "bad_message", refused
    finally:
        director_a.close()
        proctor_a.close()


def test_the_board_watches_another_node_s_tables_on_one_connection(two_nodes, pages: Pages):
    a, b, client = two_nodes
    director_a = client(a, "director", name="dir")
    stack = [{"card_id": "p1", "numbers": [1, 2, 3, 4], "dots": 2}]
    seats = [{"seat": "s1", "name": "Ada"}, {"seat": "s2", "name": "Bo"}]
    tables = ["far1", "far2", "far3"]
    for table in tables:  # served by a
        reply = director_a.request(
            "create_table", table=table, game="pocket", options={"seats": seats, "stack": stack}
        )
        assert reply["type"] == "table_created", reply
    before = a.metrics()["t24_connections"]
    # b lists them within a third of the lease (docs/operations.md): the board lists once
    lister = client(b, "director", name="lister")
    deadline = time.monotonic() + WAIT
    while not set(tables) <= {row["table"] for row in lister.request("list_tables")["tables"]}:
        assert time.monotonic() < deadline, "b never listed a's tables"
        time.sleep(0.1)

    sockets: list = []
    board = pages.open(b.http, b.token("director", name="dir"), page="board")
    # `goto` returns before the page's module opens its socket: wait for that first
    # connection, or it may be counted too, then count the reload's
    board.locator("#status", has_text="Connected").wait_for(timeout=WAIT * 1000)
    board.on("websocket", lambda socket: sockets.append(socket))
    board.reload()  # counted from the first socket on
    for table in tables:  # every one drawn from its live view (scores)
        board.locator(f'[data-table="{table}"] tr[data-seat="s1"] td.score').wait_for(
            timeout=WAIT * 1000
        )
    ada = client(a, "player", table="far3", seat="s1")
    accepted(ada, "far3", "start_game")  # on a; b's replica pushes it to the board
    board.locator('[data-table="far3"] .card.up').wait_for(timeout=WAIT * 1000)
    # one connection open, to the page's own node (a loaded machine may have made it
    # reconnect, say after a lost lease: every socket went to b all the same)
    assert {socket.url for socket in sockets} == {b.url}, [socket.url for socket in sockets]
    assert len([socket for socket in sockets if not socket.is_closed()]) == 1
    assert a.metrics()["t24_connections"] == before + 1  # only ada: the board never came to a
