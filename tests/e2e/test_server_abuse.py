"""Abuse against a real server process (issue 18): join storms and clients that never read.

Bounded: each test runs a few seconds on loopback, with fixed counts. The figures asserted
(another connection's ping p99, the server's RSS growth) are for this 2-core machine shared
with other work, with a wide margin; before the fixes the p99 was 1 to 17 s.
"""

from __future__ import annotations

import statistics
import threading
import time

import pytest
from rawws import RawClient, RawClosed
from server_process import ServerProcess
from test_server_play import DECK, SEATS

pytestmark = pytest.mark.e2e

HISTORY = 1000  # events in the table the storm re-joins
STORM_CONNECTIONS = 10
STORM_JOINS_PER_SECOND = 40  # per connection: within the default 50 requests/s
STORM_SECONDS = 5.0
# Seconds: another connection's ping round trip during the storm. Measured 6 ms; the margin
# is for this shared 2-core machine. Before the fixes: 1 to 17 s.
P99_BOUND = 0.25
RSS_GROWTH_BOUND = 200 * 1024 * 1024


def build_history(process: ServerProcess, table: str, events: int, create: bool = True) -> None:
    """A running table with `events` more events (pause/resume), sent pipelined; `create`:
    the table is created and started first (else it is running and not paused)."""
    director = RawClient(process.port)
    director.request("hello", token=process.token("director", name="d"))
    proctor = RawClient(process.port)
    proctor.request("hello", token=process.token("proctor", name="p", table=table))
    if create:
        options = {"seats": SEATS, "deck": DECK}
        created = director.request("create_table", table=table, options=options)
        assert created["type"] == "table_created", created
        assert proctor.request("command", table=table, name="start_round")["type"] == "accepted"
    last = 0
    for n in range(events):
        last = proctor.send("command", table=table, name=("pause_table", "resume_table")[n % 2])
    while True:
        reply = proctor.recv()
        if reply.get("id") == last:
            assert reply["type"] == "accepted", reply
            break
    director.close()
    proctor.close()


@pytest.fixture(scope="module")
def history_server(tmp_path_factory):
    """A server whose table `long` has ~1,000 events, restarted with the default limits."""
    directory = tmp_path_factory.mktemp("abuse")
    builder = ServerProcess(directory, "--rate-per-second", "100000", "--rate-burst", "100000")
    builder.start()
    try:
        build_history(builder, "long", HISTORY)
    finally:
        builder.terminate()
    process = ServerProcess(directory, "--log-level", "info").start()
    yield process
    process.kill()


def storm(port: int, token: str, stop: threading.Event, counts: list[int]) -> None:
    """One spectator re-joining `long` from seq 0, STORM_JOINS_PER_SECOND times a second,
    reading (and dropping) whatever comes back."""
    try:
        client = RawClient(port, source="127.0.0.2")  # not the prober's address
        client.request("hello", token=token)
    except (OSError, RawClosed):
        return
    period = 1.0 / STORM_JOINS_PER_SECOND
    next_send = time.monotonic()
    try:
        while not stop.is_set():
            client.send("join", table="long", after_seq=0)
            counts[0] += 1
            next_send += period
            while time.monotonic() < next_send:
                if client.discard() < 0:
                    return  # closed by the server (sustained abuse): fine
                time.sleep(0.002)
    except OSError:
        return
    finally:
        client.close()


def test_a_join_storm_does_not_stall_another_table(history_server):
    process = history_server
    token = process.token("spectator", name="storm", table="long")
    prober = RawClient(process.port)
    baseline = [prober.round_trip() for _ in range(50)]
    rss_before = process.rss_bytes()
    cpu_before = process.cpu_seconds()
    stop = threading.Event()
    counts = [0]
    threads = [
        threading.Thread(target=storm, args=(process.port, token, stop, counts), daemon=True)
        for _ in range(STORM_CONNECTIONS)
    ]
    for thread in threads:
        thread.start()
    samples = []
    started = time.monotonic()
    try:
        while time.monotonic() - started < STORM_SECONDS:
            samples.append(prober.round_trip())
            time.sleep(0.02)
    finally:
        stop.set()
        for thread in threads:
            thread.join(timeout=10)
    p99 = statistics.quantiles(samples, n=100)[98]
    growth = process.rss_bytes() - rss_before
    print(
        f"joins sent {counts[0]}, pings {len(samples)}, baseline p50 "
        f"{statistics.median(baseline) * 1000:.2f} ms, storm p99 {p99 * 1000:.1f} ms, "
        f"RSS +{growth / 1e6:.0f} MB, server CPU {process.cpu_seconds() - cpu_before:.2f} s"
    )
    assert counts[0] > STORM_CONNECTIONS * STORM_JOINS_PER_SECOND  # the storm really ran
    assert p99 < P99_BOUND, f"p99 {p99 * 1000:.0f} ms during the join storm"
    assert growth < RSS_GROWTH_BOUND
    prober.close()


def test_a_client_that_never_reads_is_closed_past_the_unread_bound(tmp_path):
    """The spectator never reads while its table is busy: its catch-up stalls (streamed as
    it drains, server/net/output.py, so the history alone never trips the bound), and the
    table's live pushes wait behind it; past `max_unread_bytes` held for it, the server
    drops the connection, and gives its output back: the bytes held unsent over every socket
    the server still has in memory (`t24_output_buffered_bytes`, open or closed) return to
    what they were before it connected. A server-side count, not RSS: it does not depend on
    the machine's load or the allocator, and it would stay up if the closed connection's
    buffer were kept (server/net/limits.py, `drop_output`)."""
    process = ServerProcess(
        tmp_path,
        "--max-unread-bytes",
        "65536",
        "--rate-per-second",
        "100000",
        "--rate-burst",
        "100000",
        "--log-level",
        "info",
    ).start()
    try:
        build_history(process, "busy", 4000)
        baseline = process.metrics()["t24_output_buffered_bytes"]
        sleeper = RawClient(process.port, receive_buffer=4096)
        sleeper.request("hello", token=process.token("spectator", name="z", table="busy"))
        for _ in range(20):  # 20 whole histories asked for (~12 MB), and nothing read
            sleeper.send("join", table="busy", after_seq=0)
        build_history(process, "busy", 2000, create=False)  # ~200 KB of live pushes
        process.wait_log("bytes unread past the buffer", timeout=20)
        assert process.metrics()["t24_connections"] == 0
        deadline = time.monotonic() + 10
        while process.metrics()["t24_output_buffered_bytes"] > baseline:  # given back
            assert time.monotonic() < deadline, process.metrics()["t24_output_buffered_bytes"]
            time.sleep(0.05)
        with pytest.raises((RawClosed, OSError)):  # what arrived, then the end
            while True:
                sleeper.recv()
    finally:
        process.kill()


def test_an_abuse_close_is_logged_once_however_many_frames_follow(tmp_path):
    """A server of its own with small limits (a burst of 10, 10 requests a second, 20
    strikes): the close comes after about 30 frames and one `RATE_LIMITED_PAUSE`, and the
    other 570 follow it. At the default limits (100 and 100) the pauses took 2-3 s."""
    process = ServerProcess(
        tmp_path,
        "--log-level",
        "info",
        "--rate-burst",
        "10",
        "--rate-per-second",
        "10",
        "--abuse-strikes",
        "20",
    ).start()
    try:
        flooder = RawClient(process.port, source="127.0.0.3")  # an address of its own
        peer = f"127.0.0.3:{flooder.sock.getsockname()[1]})"
        try:
            for _ in range(600):  # burst 10, then 20 strikes, then 1008; then the rest
                flooder.send("ping")
        except OSError:
            pass  # the server ended the connection after its close: nothing more is read
        with pytest.raises((RawClosed, OSError)) as closed:
            while True:
                flooder.recv()
        if isinstance(closed.value, RawClosed) and closed.value.code is not None:
            assert closed.value.code == 1008
        process.wait_log(peer)
        lines = [line for line in process.log_text().splitlines() if peer in line]
        closing = [line for line in lines if "closing connection" in line]
        assert len(closing) == 1 and "1008 sustained rate-limit abuse" in closing[0], lines
        flooder.close()
    finally:
        process.kill()


def test_list_tables_pages_past_the_frame_limit_and_refusals_never_echo_unbounded_input(
    tmp_path,
):
    """702 tables answered `internal` (one reply over 64 KiB); a refusal that quoted a huge
    argument broke the connection. Now: pages with a cursor, and messages cut."""
    process = ServerProcess(
        tmp_path, "--rate-per-second", "100000", "--rate-burst", "100000", "--log-level", "info"
    ).start()
    try:
        director = RawClient(process.port)
        director.request("hello", token=process.token("director", name="d"))
        options = {"seats": SEATS, "deck": DECK}
        last = 0
        for n in range(702):
            last = director.send("create_table", table=f"t{n:04d}-{'x' * 50}", options=options)
        while True:
            reply = director.recv()
            if reply.get("id") == last:
                assert reply["type"] == "table_created", reply
                break
        seen: list[str] = []
        page = director.request("list_tables")
        pages = 1
        while True:
            assert page["type"] == "tables", page
            seen += [row["table"] for row in page["tables"]]
            if page["next"] is None:
                break
            page = director.request("list_tables", after=page["next"])
            pages += 1
        assert len(seen) == 702 and seen == sorted(seen) and pages == 4
        small = director.request("list_tables", limit=5)
        assert len(small["tables"]) == 5 and small["next"] == small["tables"][-1]["table"]

        huge = "y" * 16000  # a seat id the game quotes in its refusal
        refusal = director.request(
            "command",
            table="t0000-" + "x" * 50,
            name="issue_flag",
            args={"seat": huge, "cause": "no_pattern"},
        )
        assert refusal["type"] == "error" and len(refusal["message"]) <= 240, refusal
        assert director.request("ping")["type"] == "pong"  # the connection is intact
    finally:
        process.kill()
