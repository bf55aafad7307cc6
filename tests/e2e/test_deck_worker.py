"""The server's deck worker (server/runtime/offload.py, issue 32) ends with the server, even
one killed with `kill -9`: it used to run on for ever, with its resource tracker."""

from __future__ import annotations

import os
import subprocess
import time

from server_process import ServerProcess
from websockets.sync.client import connect as ws_connect

from protocol.codec import decode, encode


def children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(child) for child in found.split()]


def create_pocket_table(process: ServerProcess) -> None:
    """A pocket table without a stack: the server draws its deck in the worker first."""
    with ws_connect(process.url, subprotocols=["t24.v1"], open_timeout=10) as ws:
        ws.send(encode({"type": "hello", "id": 1, "token": process.token("director")}))
        assert decode(ws.recv(timeout=10))["type"] == "welcome"
        options = {"edition": "single-digits", "seats": [{"seat": "s1", "name": "Ada"}]}
        create = {"type": "create_table", "id": 2, "table": "p1", "game": "pocket"}
        ws.send(encode({**create, "options": options}))
        reply = decode(ws.recv(timeout=120))
        assert reply["type"] == "table_created", reply


def test_the_deck_worker_ends_when_its_server_is_killed(tmp_path):
    process = ServerProcess(tmp_path / "worker").start()
    try:
        assert process.pid
        create_pocket_table(process)
        spawned = children(process.pid)
        assert spawned, "no worker process was started"
    finally:
        process.kill()  # kill -9: no shutdown of the pool
    deadline = time.monotonic() + 20
    alive = spawned
    while alive and time.monotonic() < deadline:
        time.sleep(0.2)
        alive = [pid for pid in spawned if os.path.exists(f"/proc/{pid}") and not zombie(pid)]
    assert alive == [], f"still running after the server's kill -9: {alive}"


def zombie(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] == "Z"
    except FileNotFoundError:
        return False
