"""Floods at the socket against a real server process (issue 18): slowloris, connection
caps, and many connections sending flat out while another table is played.

Bounded: fixed counts, a few seconds each, loopback only.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest
from rawws import RawClient, RawClosed
from server_process import ServerProcess

pytestmark = pytest.mark.e2e

HERE = Path(__file__).resolve().parent
FLOODERS = 40
FLOOD_SECONDS = 4.5  # shorter than the abuse cool-down (5 s): one wave of 40 flooders
# Seconds: another connection's ping round trip while 40 connections flood. Measured 20-40 ms
# on this 2-core machine when it is quiet; it is shared with other work (load 7 is common),
# hence the margin. Before the fixes: ~1.2 s, and 7 pings answered in 5 s.
P99_BOUND = 0.25


def dripping_socket(port: int) -> socket.socket:
    """A socket that has started an upgrade request and sends one more byte now and then."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=5)
    raw.sendall(b"GET /ws HTTP/1.1\r\n")
    return raw


def closed_by_server(raw: socket.socket) -> bool:
    """Whether the server has closed `raw` (EOF or reset), without waiting."""
    raw.setblocking(False)
    try:
        return raw.recv(4096) in (b"",) or False
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        raw.setblocking(True)


def test_a_dripped_upgrade_is_dropped_at_an_absolute_deadline_and_counted(tmp_path):
    """Slowloris: a byte every 0.3 s resets an idle timeout forever; the deadline counts from
    the accept. And half-open sockets count in max_connections (the extra ones get 503)."""
    process = ServerProcess(
        tmp_path, "--open-handshake-timeout", "1", "--max-connections", "20"
    ).start()
    try:
        drips = [dripping_socket(process.port) for _ in range(20)]
        extra = socket.create_connection(("127.0.0.1", process.port), timeout=5)
        assert extra.recv(64).startswith(b"HTTP/1.1 503")  # every accepted socket counts
        extra.close()
        started = time.monotonic()
        while not all(closed_by_server(raw) for raw in drips):
            assert time.monotonic() - started < 3.0, "dripping sockets outlived the deadline"
            for raw in drips:
                try:
                    raw.send(b"X")
                except OSError:
                    pass
            time.sleep(0.3)
        for raw in drips:
            raw.close()
        client = RawClient(process.port)  # room again for a legitimate client
        assert client.request("ping")["type"] == "pong"
        time.sleep(1.5)  # past the handshake deadline: an open WebSocket is not dropped
        assert client.request("ping")["type"] == "pong"
        client.close()
    finally:
        process.kill()


def test_one_address_may_open_at_most_its_connection_cap(tmp_path):
    process = ServerProcess(tmp_path, "--max-connections-per-address", "3").start()
    try:
        clients = [RawClient(process.port) for _ in range(3)]
        with pytest.raises(RawClosed) as refused:
            RawClient(process.port)
        assert refused.value.code == 503
        clients.pop().close()
        deadline = time.monotonic() + 5
        while True:  # the closed one's place is free once the server has seen it go
            try:
                clients.append(RawClient(process.port))
                break
            except RawClosed:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        for client in clients:
            client.close()
    finally:
        process.kill()


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def test_forty_connections_flooding_do_not_stall_another_table(tmp_path):
    process = ServerProcess(tmp_path, "--log-level", "info").start()
    try:
        prober = RawClient(process.port)
        flooders = subprocess.Popen(
            [
                sys.executable,
                str(HERE / "flooder.py"),
                str(process.port),
                str(FLOODERS),
                str(FLOOD_SECONDS),
            ],
            stdout=subprocess.PIPE,
            cwd=HERE,
            env={**os.environ, "PYTHONPATH": f"{HERE}:{HERE.parents[1]}"},
        )
        samples = []
        cpu_before = cpu_seconds(process.process.pid)
        time.sleep(0.5)  # the flood is under way (the prober measures during it, not before)
        started = time.monotonic()
        try:
            while time.monotonic() - started < FLOOD_SECONDS - 0.5:
                samples.append(prober.round_trip())
                time.sleep(0.02)
        finally:
            out, _ = flooders.communicate(timeout=30)
        sent = [int(out.split()[-1])]
        p99 = statistics.quantiles(samples, n=100)[98]
        closes = process.log_text().count("sustained rate-limit abuse")
        print(f"server CPU during the flood {cpu_seconds(process.process.pid) - cpu_before:.2f} s")
        print(
            f"flood frames sent {sent[0]}, abuse closes {closes}, pings {len(samples)}, "
            f"p99 {p99 * 1000:.1f} ms, slowest {max(samples) * 1000:.0f} ms"
        )
        assert sent[0] > 100_000  # the flood really ran
        assert closes and "address 127.0.0.2 refused for 5.0 s" in process.log_text()
        assert p99 < P99_BOUND, f"p99 {p99 * 1000:.0f} ms during the flood"
        prober.close()
    finally:
        process.kill()


def test_a_file_limit_below_max_connections_is_reported_at_start(tmp_path):
    """Sockets are file descriptors: past `ulimit -n` every client is locked out, whatever
    max_connections says; the server names the mismatch when it starts."""
    import resource

    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    process = ServerProcess(tmp_path, "--max-connections", str(soft + 1000)).start()
    try:
        process.wait_log("descriptors_short")
        assert f"the open-file limit is {soft}" in process.log_text()
    finally:
        process.kill()
