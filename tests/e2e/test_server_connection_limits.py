"""Slow and surplus connections against a real server process (issue 18): slowloris, the
connection caps, the open-file limit. The floods, whose bounds are latencies and so run
alone, are in test_server_floods.py.

Bounded: fixed counts, a few seconds each, loopback only.
"""

from __future__ import annotations

import socket
import time

import pytest
from rawws import RawClient, RawClosed
from server_process import ServerProcess

pytestmark = pytest.mark.e2e


def dripping_socket(port: int) -> socket.socket:
    """A socket that has started an upgrade request and sends one more byte now and then."""
    raw = socket.create_connection(("127.0.0.1", port), timeout=5)
    raw.sendall(b"GET /ws HTTP/1.1\r\n")
    return raw


def closed_by_server(raw: socket.socket) -> bool:
    """Whether the server has closed `raw` (EOF or reset), without waiting."""
    raw.setblocking(False)
    try:
        return raw.recv(4096) == b""
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
        tmp_path, "--open-handshake-timeout", "1", "--max-connections", "21"
    ).start()
    try:
        # Upgraded before the drips were accepted, so past the handshake deadline once they
        # are dropped: it shows an open WebSocket is not dropped at that deadline.
        upgraded = RawClient(process.port)
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
        client.close()
        assert upgraded.request("ping")["type"] == "pong"  # kept past the deadline
        upgraded.close()
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
