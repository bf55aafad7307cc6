"""Issue 16: a tournament on several nodes drives tables placed on other nodes.

Real `t24-server` processes on one PostgreSQL schema (2 s leases). The tournament is created
on node a; each round's tables are dealt over the live nodes by load (docs/tournament.md,
"Several nodes"), so they are served by other nodes than the tournament's, and the
tournament learns their results from the store (a replica fed by LISTEN/NOTIFY). The
director is one person who asks any node and follows `moved`, as the reference client does.
Killed with SIGKILL: a node serving some of the tournament's tables mid-card, and the
tournament's own node; either way the tournament completes on the nodes left.

Two students' sections of 3 (grades G1, G2) keep it short: every round has one table per
section; with `advance_count` 3 everybody advances after round 2, and each section's one
semi-final table names its champion (R-ROUND-4), so round 3 ends the tournament.
"""

from __future__ import annotations

import subprocess
import time
from typing import Any

import pytest
from forkserver import t24_command
from postgres_schemas import fresh_schema
from server_process import ServerProcess, start_together
from wsclients import AutobahnClient, Closed

from clients.reference_cli.games.challenge.bot import best_answer
from server.eventlog.backends import open_blocking_store

pytestmark = pytest.mark.e2e

LEASE = "2.0"  # short, but not so short that a loaded test machine loses leases
TID = "cup"
STREAM = f"tournament/{TID}"
WAIT = 30.0  # seconds: each wait ends at its condition; generous for a loaded machine
TABLE_OPTIONS = {
    "mode": "proctored",  # the director records touches and answers for the seats
    "pattern_seconds": 30,
    "solution_seconds": 60,
    "no_touch_seconds": 60,
}
STUDENTS = "name,school,grade\n" + "".join(
    f"Student {grade}-{n},School 1,{grade}\n" for grade in ("G1", "G2") for n in (1, 2, 3)
)


def node(tmp_path, name: str, store: str) -> ServerProcess:
    """A node process; the nodes share one secret, so a token works on every node."""
    process = ServerProcess(
        tmp_path / name, "--node-id", name, "--lease-seconds", LEASE, store=store
    )
    process.secret_file = tmp_path / "t24.secret"
    return process


def nodes_started(tmp_path, store: str, names: tuple[str, ...]) -> list[ServerProcess]:
    """The nodes, started side by side (each start waits for its own ready file; half a
    second of start-up each, not one after another). Their shared secret is made first, so
    that no two nodes make one each."""
    return list(start_together(*(node(tmp_path, name, store) for name in names)))


# A command resent because its connection closed before the reply (a node's failover closes
# its replicas' watchers with 1012) may find that its first send was recorded: the refusal
# that says so is its success (a reply lost with its connection leaves the outcome unknown).
ALREADY_RECORDED = {"start_round": "round_started", "advance": "already_advanced"}


class Director:
    """The director's requests, sent to any live node and following `moved` there (one
    connection per node, made when first needed). A node the test killed is left out."""

    def __init__(self, nodes: list[ServerProcess]) -> None:
        self.nodes = nodes
        self.token = nodes[0].token("director", name="d")
        self.clients: dict[str, AutobahnClient] = {}
        self.resent_after_close = False  # the last request was sent again after a close

    def live(self) -> list[str]:
        return [n.url for n in self.nodes if n.running()]

    def _client(self, url: str) -> AutobahnClient:
        if url not in self.clients:
            client = AutobahnClient(url)
            client.hello(self.token)
            self.clients[url] = client
        return self.clients[url]

    def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """The reply of the node that serves the table (moved, or a dead node: ask again)."""
        deadline = time.monotonic() + WAIT
        url = self.live()[0]
        self.resent_after_close = False
        while True:
            assert time.monotonic() < deadline, f"{kind} {fields}: no node answered"
            if url not in self.live():  # `moved` to a node that is gone: its lease expires
                time.sleep(0.1)
                url = self.live()[0]
                continue
            try:
                reply = self._client(url).request(kind, **fields)
            except Closed:
                self.clients.pop(url, None)
                self.resent_after_close = True
                continue
            if reply["type"] == "moved":
                url = reply["url"]
            elif reply["type"] == "error" and reply["code"] == "unavailable":
                time.sleep(0.1)  # nothing was written: ask again (docs/protocol.md)
                url = self.live()[0]
            else:
                return reply

    def command(self, table: str, name: str, **args: Any) -> dict[str, Any]:
        reply = self.request("command", table=table, name=name, args=args)
        if (
            reply["type"] == "error"
            and self.resent_after_close
            and reply["code"] == ALREADY_RECORDED.get(name)
        ):
            return reply  # its first send was recorded (see ALREADY_RECORDED)
        assert reply["type"] == "accepted", (table, name, reply)
        return reply

    def tournament(self, name: str, **args: Any) -> dict[str, Any]:
        return self.command(STREAM, name, **args)

    def view(self) -> dict[str, Any]:
        reply = self.request("join", table=STREAM)
        assert reply["type"] == "snapshot", reply
        return reply["view"]

    def wait_view(self, condition: Any, what: str) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT
        while True:
            view = self.view()
            if condition(view):
                return view
            assert time.monotonic() < deadline, what
            time.sleep(0.1)

    def close(self) -> None:
        for client in self.clients.values():
            client.close()


def owners(nodes: list[ServerProcess]) -> dict[str, str]:
    """Table id -> the node serving it, from each live node's /healthz."""
    served = {}
    for process in nodes:
        if process.running():
            status, body, _ = process.get("/healthz")
            assert status == 200, body
            line = body.decode().split("owned_tables:", 1)[-1]
            for table in line.split():
                served[table] = process.dir.name
    return served


def round_tables(view: dict[str, Any], number: int) -> list[str]:
    return [f"{TID}.{t['table']}" for t in view["rounds"][number - 1]["tables"]]


def served_when_open(nodes: list[ServerProcess], tables: list[str]) -> dict[str, str]:
    """Wait until a node serves each of `tables` (the tournament creates them once the
    round's start is recorded, and a placed table once its node took it); who serves what."""
    deadline = time.monotonic() + WAIT
    while True:
        served = owners(nodes)
        if all(table in served for table in tables):
            return served
        assert time.monotonic() < deadline, f"not all of {tables} are served: {served}"
        time.sleep(0.1)


def play_round(director: Director, nodes: list[ServerProcess], number: int) -> set[str]:
    """Seat and start round `number`; each table is ended at once and signed (nobody
    scores); close the round. Returns the nodes that served its tables."""
    director.tournament("seat_round", round=number)
    director.tournament("start_round", round=number)
    tables = round_tables(director.view(), number)
    served = served_when_open(nodes, tables)
    for table in tables:
        director.command(table, "end_round")
        director.command(table, "sign_score_card", initials="DD")
    director.wait_view(
        lambda v: all(t["result"] for t in v["rounds"][number - 1]["tables"]),
        f"round {number}'s results never reached the tournament",
    )
    director.tournament("close_round", round=number)
    return {served[table] for table in tables}


def card_in_play(store: str, table: str) -> list[int]:
    """The numbers of the card last placed at `table`, read from its stream."""
    blocking = open_blocking_store(store, create=False)
    try:
        events = blocking.read(f"table/{table}")
    finally:
        blocking.close()
    return [e for e in events if e.type == "CardPlaced"][-1].data["numbers"]


def win_card(director: Director, table: str, seat: str, numbers: list[int]) -> None:
    answer = best_answer(numbers)
    assert answer is not None, numbers
    pattern, steps = answer
    director.command(table, "declare_pattern", seat=seat, pattern=pattern)
    director.command(table, "fix_solution", seat=seat, steps=steps)


def new_tournament(director: Director) -> None:
    options = {
        "name": "Cluster Cup",
        "date": "2026-12-01",
        "grades": ["G1", "G2"],
        "deck_seed": 16,
        "advance_count": 3,
        "cards_per_round": 4,
        "table_options": TABLE_OPTIONS,
    }
    created = director.request("create_table", game="tournament", table=STREAM, options=options)
    assert created["type"] == "table_created", created
    director.tournament("import_students", csv=STUDENTS)
    director.tournament("close_registration")


def verify_logs(store: str) -> None:
    done = subprocess.run(
        t24_command("log", "verify", "--store", store),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture
def store():
    with fresh_schema() as (url, _schema):
        yield url


def test_a_tournament_plays_a_round_on_other_nodes_and_advances(tmp_path, store):
    nodes = nodes_started(tmp_path, store, ("a", "b", "c"))
    director = Director(nodes)
    try:
        new_tournament(director)  # on node a: a holds the tournament's lease
        assert owners(nodes)[STREAM] == "a"
        # round 1: a holds 1 lease, b and c none: one table each on b and c
        assert play_round(director, nodes, 1) == {"b", "c"}
        a_log = nodes[0].log_text()
        assert "handed to b" in a_log and "handed to c" in a_log
        # round 2: one lease each (a's round-1 table is elsewhere): a tie, a first, then b
        assert play_round(director, nodes, 2) == {"a", "b"}
        director.tournament("advance", round=2)
        view = director.view()
        assert view["rounds"][1]["advanced"]
        for section in ("G1", "G2"):  # R-ROUND-3: the 3 of each section advance
            rows = view["standings"][section]["qualifying"]
            assert [r["advanced"] for r in rows] == ["top"] * 3
        # results came from the tables' own logs, wherever they were served
        for number in (1, 2):
            for table in view["rounds"][number - 1]["tables"]:
                assert table["result"]["initials"] == "DD"
        verify_logs(store)
    finally:
        director.close()
        for process in nodes:
            process.kill()


def test_the_tournament_completes_after_a_node_holding_its_tables_is_killed(tmp_path, store):
    a, b = nodes = nodes_started(tmp_path, store, ("a", "b"))
    director = Director(nodes)
    try:
        new_tournament(director)
        for number in (1, 2):
            play_round(director, nodes, number)
        director.tournament("advance", round=2)
        director.tournament("seat_round", round=3)
        director.tournament("start_round", round=3)
        view = director.view()
        served = served_when_open(nodes, round_tables(view, 3))
        semis = {t["table"]: t["students"] for t in view["rounds"][2]["tables"]}
        on_b = [name for name in semis if served[f"{TID}.{name}"] == "b"]
        on_a = [name for name in semis if served[f"{TID}.{name}"] == "a"]
        assert len(on_b) == 1 and len(on_a) == 1, served
        doomed, safe = f"{TID}.{on_b[0]}", f"{TID}.{on_a[0]}"
        # mid-card on b: placed, revealed, touched by a student (the director begins play:
        # nobody joins a seat here, docs/rules.md decision 30)
        director.command(doomed, "begin_play")
        director.command(doomed, "place_card")
        director.command(doomed, "reveal_card")
        winner_b = semis[on_b[0]][0]
        touched = director.command(doomed, "touch_card", seat=winner_b)["seq"]
        b.kill()
        killed = time.monotonic()
        a.wait_log(f"table {doomed} taken over (failover)", timeout=WAIT)
        assert time.monotonic() - killed < 10.0
        blocking = open_blocking_store(store, create=False)
        try:
            after = blocking.read(f"table/{doomed}", after_seq=touched)
        finally:
            blocking.close()
        assert [(e.type, e.data.get("cause")) for e in after] == [("TablePaused", "failover")]
        director.command(doomed, "resume_table")  # served by a now
        win_card(director, doomed, winner_b, card_in_play(store, doomed))
        # the other semi-final, on a all along
        director.command(safe, "begin_play")
        director.command(safe, "place_card")
        director.command(safe, "reveal_card")
        winner_a = semis[on_a[0]][1]
        director.command(safe, "touch_card", seat=winner_a)
        win_card(director, safe, winner_a, card_in_play(store, safe))
        for table in (doomed, safe):
            director.command(table, "end_round")
            director.command(table, "sign_score_card", initials="DD")
        director.wait_view(
            lambda v: all(t["result"] for t in v["rounds"][2]["tables"]),
            "the semi-finals' results never reached the tournament",
        )
        director.tournament("close_round", round=3)
        director.tournament("advance", round=3)
        view = director.view()
        assert view["finished"]
        assert set(view["champions"].values()) == {winner_a, winner_b}
        verify_logs(store)
    finally:
        director.close()
        for process in nodes:
            process.kill()


def test_the_tournament_goes_on_when_its_own_node_is_killed(tmp_path, store):
    a, b = nodes = nodes_started(tmp_path, store, ("a", "b"))
    director = Director(nodes)
    try:
        new_tournament(director)
        for number in (1, 2):
            play_round(director, nodes, number)
        director.tournament("advance", round=2)
        a.kill()  # the tournament's node, and half of its tables
        b.wait_log(f"table {STREAM} taken over (failover)", timeout=WAIT)
        view = director.view()  # served by b now, replayed from the store
        assert view["rounds"][1]["advanced"] and owners(nodes)[STREAM] == "b"
        director.tournament("seat_round", round=3)
        director.tournament("start_round", round=3)
        view = director.view()
        served_when_open(nodes, round_tables(view, 3))
        winners = {}
        for table in view["rounds"][2]["tables"]:
            name, winner = f"{TID}.{table['table']}", table["students"][0]
            director.command(name, "begin_play")
            director.command(name, "place_card")
            director.command(name, "reveal_card")
            director.command(name, "touch_card", seat=winner)
            win_card(director, name, winner, card_in_play(store, name))
            director.command(name, "end_round")
            director.command(name, "sign_score_card", initials="DD")
            winners[table["section"]] = winner
        director.wait_view(
            lambda v: all(t["result"] for t in v["rounds"][2]["tables"]),
            "the semi-finals' results never reached the tournament",
        )
        director.tournament("close_round", round=3)
        director.tournament("advance", round=3)
        view = director.view()
        assert view["finished"] and view["champions"] == winners
        verify_logs(store)
    finally:
        director.close()
        for process in nodes:
            process.kill()
