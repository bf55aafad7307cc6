"""Issue 16: a 24 Challenge round played across three nodes, its owner killed mid-card.

Three `t24-server` processes share one PostgreSQL schema (real processes on loopback, 1.5 s
leases). The proctor and two students use the reference client's link
(clients/reference_cli/connection.py: it follows `moved`, reconnects and resumes by
`after_seq`), each given a *different* node's URL than the owner's: every one of them is
redirected to the owner. Mid-card the owner is killed with SIGKILL; another node must own
the table within the lease, paused with cause `failover`; the links find it (back to the
URL they were given, then `moved` to the new owner) and resume. Every seq each client was
pushed is kept, so "no gap, no duplicate" is checked on what the clients received, and the
log itself (`t24 log verify`) on what was written.
"""

from __future__ import annotations

import subprocess
import threading
import time
from typing import Any

import pytest
from forkserver import t24_command
from postgres_schemas import fresh_schema
from server_process import ServerProcess, start_together
from twisted.internet import reactor
from twisted.internet.threads import blockingCallFromThread
from wsclients import AutobahnClient, reactor_thread

from clients.reference_cli.connection import Backoff, NotConnected, TableLink
from server.eventlog.backends import open_blocking_store

pytestmark = pytest.mark.e2e

LEASE = "1.5"  # short, but not so short that a loaded test machine loses leases
TABLE = "across"
SEATS = [{"seat": f"s{i}", "name": f"Student {i}"} for i in range(1, 5)]
# Three cards with a known solution each: (numbers, pattern, steps).
CARDS = [
    ([1, 2, 3, 4], "4*6", ["1+2=3", "3+3=6", "4*6=24"]),
    ([2, 2, 6, 6], "12+12", ["2*6=12", "2*6=12", "12+12=24"]),
    ([1, 1, 4, 6], "24*1", ["1*1=1", "4*6=24", "24*1=24"]),
]
DECK = [
    {"card_id": f"c{n}", "numbers": numbers, "dots": 1 + n % 3}
    for n, (numbers, _pattern, _steps) in enumerate(CARDS, start=1)
]
WAIT = 20.0  # seconds: generous for a loaded machine; each wait ends at its event


def node(tmp_path, name: str, store: str) -> ServerProcess:
    """A node process; the nodes share one secret, so a token works on every node."""
    process = ServerProcess(
        tmp_path / name, "--node-id", name, "--lease-seconds", LEASE, store=store
    )
    process.secret_file = tmp_path / "t24.secret"
    return process


class Client:
    """One person's reference-client link, run on the test's reactor thread.

    Keeps, thread-safely, every event seq pushed to it, the URL of each snapshot (which node
    served it) and the `after_seq` each join resumed from.
    """

    def __init__(self, url: str, token: str, table: str) -> None:
        reactor_thread()
        self.seqs: list[int] = []
        self.events: list[dict[str, Any]] = []
        self.snapshots: list[tuple[str, int | None]] = []  # (node URL, after_seq)
        self.statuses: list[str] = []
        self.fatal: str | None = None
        self._changed = threading.Condition()

        def make() -> TableLink:
            link = TableLink(
                url,
                token,
                reactor=reactor,
                listener=self,
                table=table,
                backoff=Backoff(initial=0.1, maximum=0.5),
            )
            link.start()
            return link

        self.link: TableLink = blockingCallFromThread(reactor, make)

    # -- the link's listener (reactor thread) -------------------------------------------------

    def _note(self, change: Any) -> None:
        with self._changed:
            change()
            self._changed.notify_all()

    def link_status(self, status: str) -> None:
        self._note(lambda: self.statuses.append(status))

    def link_welcome(self, welcome: dict[str, Any]) -> None:
        return None

    def link_snapshot(self, snapshot: dict[str, Any], after_seq: int | None) -> None:
        self._note(lambda: self.snapshots.append((self.link.url, after_seq)))

    def link_event(self, push: dict[str, Any]) -> None:
        def note() -> None:
            self.seqs.append(push["seq"])
            self.events.append(push)

        self._note(note)

    def link_presence(self, presence: dict[str, Any]) -> None:
        return None

    def link_fatal(self, code: str, message: str) -> None:
        self._note(lambda: setattr(self, "fatal", f"{code}: {message}"))

    # -- the test's side ----------------------------------------------------------------------

    def wait(self, predicate: Any, what: str, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        with self._changed:
            while not predicate():
                left = deadline - time.monotonic()
                assert self.fatal is None, self.fatal
                if left <= 0:
                    raise TimeoutError(f"{what}; statuses: {self.statuses[-8:]}")
                self._changed.wait(min(left, 0.2))

    def served_by(self, url: str, after: int = 0) -> None:
        """Wait until a join made after the `after`-th snapshot was served by node `url`."""
        self.wait(
            lambda: any(u == url for u, _ in self.snapshots[after:]) and self.link.ready,
            f"never joined at {url}",
        )

    def seen(self, seq: int) -> None:
        self.wait(lambda: bool(self.seqs) and self.seqs[-1] >= seq, f"never pushed seq {seq}")

    def command(self, name: str, **args: Any) -> dict[str, Any]:
        """Send a command once the link is up; its `accepted` reply."""
        deadline = time.monotonic() + WAIT
        while True:
            self.wait(lambda: self.link.ready, f"not connected to send {name}")
            try:
                reply = blockingCallFromThread(reactor, self.link.command, name, args)
            except NotConnected:  # dropped between the check and the send: wait again
                if time.monotonic() > deadline:
                    raise
                continue
            assert reply["type"] == "accepted", reply
            return reply

    def close(self) -> None:
        blockingCallFromThread(reactor, self.link.close)


def play_card(proctor: Client, winner: Client, index: int) -> int:
    """Place, reveal, and `winner` wins the card with its known solution; the last seq."""
    _numbers, pattern, steps = CARDS[index]
    proctor.command("place_card")
    proctor.command("reveal_card")
    winner.command("touch_card")
    winner.command("declare_pattern", pattern=pattern)
    return winner.command("fix_solution", steps=steps)["seq"]


def recorded(store: str) -> list:
    blocking = open_blocking_store(store, create=False)
    try:
        assert blocking.verify(f"table/{TABLE}").ok
        return blocking.read(f"table/{TABLE}")
    finally:
        blocking.close()


@pytest.fixture
def store():
    with fresh_schema() as (url, _schema):
        yield url


def test_a_round_across_three_nodes_survives_kill_9_of_its_owner(tmp_path, store):
    a, b, c = start_together(*(node(tmp_path, name, store) for name in ("a", "b", "c")))
    clients: list[Client] = []
    try:
        director = AutobahnClient(a.url)  # the table is created on, and owned by, node a
        director.hello(a.token("director", name="d"))
        options = {"seats": SEATS, "deck": DECK, "pattern_seconds": 30, "solution_seconds": 60}
        created = director.request("create_table", table=TABLE, options=options)
        assert created["type"] == "table_created", created
        # each person is given another node than the owner; each is sent to a by `moved`
        proctor = Client(b.url, a.token("proctor", name="p", table=TABLE), TABLE)
        s1 = Client(c.url, a.token("player", table=TABLE, seat="s1"), TABLE)
        s2 = Client(b.url, a.token("player", table=TABLE, seat="s2"), TABLE)
        clients += [proctor, s1, s2]
        for client in clients:
            client.served_by(a.url)
            assert any("served by " + a.url in s for s in client.statuses)

        proctor.command("start_round")
        won = play_card(proctor, s1, 0)
        proctor.command("place_card")
        proctor.command("reveal_card")
        touched = s2.command("touch_card")["seq"]  # mid-card: s2 is finding the pattern
        assert touched > won
        for client in clients:
            client.seen(touched)
        before = recorded(store)
        assert before[-1].seq == touched and before[-1].type == "CardTouched"
        snapshots = {id(client): len(client.snapshots) for client in clients}

        a.kill()
        killed = time.monotonic()
        deadline = killed + WAIT
        owner = None
        while owner is None:
            owner = next(
                (n for n in (b, c) if f"table {TABLE} taken over (failover)" in n.log_text()),
                None,
            )
            assert time.monotonic() < deadline, "no node took the table over"
            time.sleep(0.02)
        took = time.monotonic() - killed
        assert took < 5.0, took  # the lease, then a sweep (every third of it): within 5 s
        # the clients come back by the URL they were given and are sent to the new owner
        for client in clients:
            client.served_by(owner.url, after=snapshots[id(client)])
            client.seen(touched + 1)
        paused = [e for e in s2.events if e["seq"] == touched + 1]
        assert paused[0]["event_type"] == "TablePaused"
        assert paused[0]["data"]["cause"] == "failover"
        for client in clients:  # each resumed after the last seq it had been pushed
            resumed = [after for _url, after in client.snapshots[snapshots[id(client)] :]]
            assert resumed[-1] in (touched, touched + 1), resumed

        proctor.command("resume_table")  # the proctor resumes; s2 finishes the card
        _numbers, pattern, steps = CARDS[1]
        s2.command("declare_pattern", pattern=pattern)
        s2.command("fix_solution", steps=steps)
        last_card = play_card(proctor, s1, 2)  # the deck is played out: the round ends
        signed = proctor.command("sign_score_card", initials="PK")["seq"]
        assert signed > last_card
        for client in clients:
            client.seen(signed)

        events = recorded(store)  # chain-verified
        assert [e.seq for e in events] == list(range(1, signed + 1))  # no gap in the log
        assert [(e.seq, e.hash) for e in events[:touched]] == [(e.seq, e.hash) for e in before]
        types = [e.type for e in events]
        assert types.count("TablePaused") == 1 and types.count("TableResumed") == 1
        assert types.count("CardWon") == 3 and types.count("CardTouched") == 3  # none twice
        assert types.count("RoundEnded") == 1 and types[-1] == "ScoreCardSigned"
        dots = {card["card_id"]: card["dots"] for card in DECK}
        expected = {"s1": dots["c1"] + dots["c3"], "s2": dots["c2"], "s3": 0, "s4": 0}
        assert events[-1].data["scores"] == expected
        for client in clients:  # what each client was pushed: every seq once, in order
            assert client.seqs == list(range(1, signed + 1)), client.seqs
        verify = subprocess.run(
            t24_command("log", "verify", "--store", store),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert verify.returncode == 0, verify.stdout + verify.stderr
    finally:
        for client in clients:
            client.close()
        for process in (a, b, c):
            process.kill()
