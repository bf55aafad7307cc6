"""A spectator catches up a 10,000-event table from seq 0 (issue 33), against a real server.

Before: a join's catch-up was written in one go, so a table of 1,006 events (727,919 bytes)
was more than `max_unread_bytes` and every client was dropped (1006) before its snapshot.
Now the catch-up is streamed as the connection drains (server/net/output.py), a page of
older events read at a time (server/runtime/catch_up.py). With the default limits: a client
that reads at once, and one that reads slowly while its table goes on, each get the snapshot
and then exactly every event, in order, and the server's RSS (from /proc, sampled every
10 ms during the join) grows by less than 20 MiB.

The table is written into the SQLite store before the server starts: its events are decided
by the real game in process (a hub on the memory store), then appended as they are.
"""

from __future__ import annotations

import threading
import time

import pytest
from rawws import RawClient
from server_process import ServerProcess
from test_server_play import DECK, SEATS
from twisted.internet.task import Clock

from protocol.messages import table_stream
from server.eventlog.backends import open_blocking_store, open_store
from server.eventlog.envelope import NewEvent
from server.games.base import Actor, Command
from server.runtime.hub import Hub

pytestmark = pytest.mark.e2e

TABLE_EVENTS = 10_000
RSS_GROWTH_BOUND = 20 * 1024 * 1024  # issue 33: bytes the server may grow by during the join
LIVE_EVENTS = 40  # events the table records while the slow reader catches up
CAUSE = "a pause for tea, with its cause written out at the longest a cause may be"[:64]
APPEND_BATCH = 1000  # events a store append takes at most (MAX_APPEND_EVENTS)


def result_of(d):
    results = []
    d.addBoth(results.append)
    [result] = results
    if hasattr(result, "raiseException"):
        result.raiseException()
    return result


def write_long_table(store_url: str, table: str, events: int) -> None:
    """A 24 Challenge table of `events` events (pause and resume, as a proctor's, with the
    longest cause: about 160 bytes a push, 1.6 MB in all, three times `max_unread_bytes`),
    decided in process and appended to the store at `store_url` (module doc)."""
    clock = Clock()
    clock.advance(time.time())
    memory = open_store("memory:", clock=clock.seconds)
    hub = Hub(memory, clock)
    options = {"seats": SEATS, "deck": DECK}
    actor = result_of(hub.create_table(table, "challenge", options, Actor("director", "d")))
    proctor = Actor("proctor", "p")
    result_of(actor.submit(Command("start_round", {}, proctor), int(clock.seconds() * 1e6)))
    while actor.seq < events:
        name = "resume_table" if actor.state.paused else "pause_table"
        args = {} if actor.state.paused else {"cause": CAUSE}
        result_of(actor.submit(Command(name, args, proctor), int(clock.seconds() * 1e6)))
    recorded = result_of(memory.read(table_stream(table)))
    store = open_blocking_store(store_url)
    try:
        for start in range(0, len(recorded), APPEND_BATCH):
            batch = recorded[start : start + APPEND_BATCH]
            new = [NewEvent(e.type, e.data, e.actor, e.causation) for e in batch]
            store.append(table_stream(table), start, new)
    finally:
        store.close()


class PeakRss(threading.Thread):
    """Samples a server's RSS every 10 ms until stopped; `peak` is the highest seen."""

    def __init__(self, process: ServerProcess) -> None:
        super().__init__(daemon=True)
        self.process = process
        self.peak = process.rss_bytes()
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.01):
            self.peak = max(self.peak, self.process.rss_bytes())

    def stop(self) -> int:
        self.done.set()
        self.join(timeout=5)
        return self.peak


class SlowClient(RawClient):
    """Reads at most `chunk` bytes at a time with a pause after each (about 1 MB/s)."""

    chunk = 8192
    pause = 0.005

    def _read(self, size: int) -> bytes:
        while len(self.buffer) < size:
            data = self.sock.recv(self.chunk)
            if not data:
                raise ConnectionError("closed by the server")
            self.buffer += data
            time.sleep(self.pause)
        data, self.buffer = self.buffer[:size], self.buffer[size:]
        return data


@pytest.fixture(scope="module")
def long_table_server(tmp_path_factory):
    """A server with the default limits whose table `long` has TABLE_EVENTS events."""
    directory = tmp_path_factory.mktemp("long")
    write_long_table(f"sqlite:///{directory / 't24.sqlite'}", "long", TABLE_EVENTS)
    process = ServerProcess(directory, "--log-level", "info").start()
    yield process
    process.kill()


def settled_rss(process: ServerProcess) -> int:
    """The server's RSS once a round trip shows it idle."""
    prober = RawClient(process.port)
    prober.round_trip()
    prober.close()
    return process.rss_bytes()


def test_a_spectator_catches_up_ten_thousand_events_within_the_memory_bound(long_table_server):
    process = long_table_server
    before = settled_rss(process)
    sampler = PeakRss(process)
    sampler.start()
    spectator = RawClient(process.port, timeout=60)
    spectator.request("hello", token=process.token("spectator", name="w", table="long"))
    started = time.monotonic()
    snapshot = spectator.request("join", table="long", after_seq=0)
    assert snapshot["type"] == "snapshot" and snapshot["seq"] == TABLE_EVENTS, snapshot
    seqs = [spectator.recv()["seq"] for _ in range(TABLE_EVENTS)]
    took = time.monotonic() - started
    growth = sampler.stop() - before
    assert seqs == list(range(1, TABLE_EVENTS + 1))  # exactly the log, in order
    reply = spectator.request("ping")  # still connected (the join's cost put it in debt)
    assert reply["type"] == "pong" or reply.get("code") == "rate_limited", reply
    cached = process.metrics()["t24_catch_up_cache_bytes"]
    print(
        f"catch-up of {TABLE_EVENTS} events in {took:.2f} s, RSS +{growth / 2**20:.1f} MiB "
        f"(the cache of older pushes holds {cached / 2**20:.1f} MiB of it)"
    )
    assert growth < RSS_GROWTH_BOUND, f"RSS +{growth / 2**20:.1f} MiB"
    assert "unread past the buffer" not in process.log_text()
    spectator.close()


def test_a_slow_reader_catches_up_while_its_table_goes_on(long_table_server):
    """The client reads about 1 MB/s with a small receive buffer, while a proctor records
    live events: it gets the snapshot, the catch-up, then the live events, none twice and
    none missing, and is never dropped."""
    process = long_table_server
    before = settled_rss(process)
    sampler = PeakRss(process)
    sampler.start()
    reader = SlowClient(process.port, timeout=60, receive_buffer=16384)
    reader.request("hello", token=process.token("spectator", name="slow", table="long"))
    reader.send("join", table="long", after_seq=0)
    proctor = RawClient(process.port)
    proctor.request("hello", token=process.token("proctor", name="p", table="long"))
    snapshot = reader.recv()
    assert snapshot["type"] == "snapshot", snapshot
    head = last = snapshot["seq"]
    paused = snapshot["view"]["paused"]
    for _ in range(LIVE_EVENTS):  # the table goes on during the catch-up
        name = "resume_table" if paused else "pause_table"
        args = {} if paused else {"cause": "tea"}
        reply = proctor.request("command", table="long", name=name, args=args)
        assert reply["type"] == "accepted", reply
        last, paused = reply["seq"], not paused
        time.sleep(0.05)
    seqs = []
    while not seqs or seqs[-1] < last:
        message = reader.recv()
        assert message["type"] in ("event", "presence"), message
        if message["type"] == "event":
            seqs.append(message["seq"])
    growth = sampler.stop() - before
    assert seqs == list(range(1, last + 1))  # the catch-up, then the live ones: no gap
    print(f"slow reader: {head} caught up, {last - head} live, RSS +{growth / 2**20:.1f} MiB")
    assert growth < RSS_GROWTH_BOUND, f"RSS +{growth / 2**20:.1f} MiB"
    assert "unread past the buffer" not in process.log_text()
    reader.close()
    proctor.close()
