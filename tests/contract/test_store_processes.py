"""Stores shared by processes: two writers racing for one stream, and a writer killed -9.

Both run `eventlog_child.py` with the real reactor against SQLite and PostgreSQL (the memory
store lives inside one process, so there is nothing to share or to survive).
"""

from __future__ import annotations

import os
import random
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from postgres_schemas import fresh_schema

from server.eventlog.backends import open_blocking_store

CHILD = str(Path(__file__).with_name("eventlog_child.py"))
ROOT = str(Path(__file__).resolve().parents[2])


@pytest.fixture(params=["sqlite", "postgres"])
def durable_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'shared.sqlite'}"
        return
    with fresh_schema() as (url, _schema):
        yield url


def spawn(*args: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen(
        [sys.executable, CHILD, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )


def read_line(child: subprocess.Popen, timeout: float = 20.0) -> str:
    ready, _, _ = select.select([child.stdout], [], [], timeout)
    if not ready:
        child.kill()
        raise TimeoutError(f"child said nothing in {timeout}s: {child.stderr.read()}")
    line = child.stdout.readline()
    if not line:
        raise RuntimeError(f"child exited: {child.wait()} {child.stderr.read()}")
    return line.strip()


def test_two_processes_racing_for_one_stream_never_both_extend_it(durable_url):
    open_blocking_store(durable_url).close()  # create the schema before the race
    count = 150
    children = [spawn("race", durable_url, "race/1", str(count), name) for name in "ab"]
    try:
        assert [read_line(child) for child in children] == ["ready", "ready"]
        for child in children:
            child.stdin.write("go\n")
            child.stdin.flush()
        results = [read_line(child, timeout=60) for child in children]
    finally:
        for child in children:
            child.kill()
            child.wait()
    conflicts = sum(int(line.split()[1]) for line in results)
    store = open_blocking_store(durable_url)
    try:
        events = store.load("race/1")  # verifies the chain
        assert [e.seq for e in events] == list(range(1, 2 * count + 1))
        written = sorted((e.data["writer"], e.data["n"]) for e in events)
        assert written == sorted((w, n) for w in "ab" for n in range(count))
        assert store.verify("race/1").ok
    finally:
        store.close()
    assert conflicts > 0, "the two writers never collided: the race was not exercised"


def test_acknowledged_appends_survive_a_sigkill_at_a_random_moment(durable_url):
    acked: dict[str, int] = {}
    for _round in range(2):  # the second child continues the streams the first left
        child = spawn("crash", durable_url, "4")
        lines: list[str] = []
        assert read_line(child) == "ready"
        first = read_line(child)
        lines.append(first)
        drain = threading.Thread(target=lines.extend, args=(child.stdout,), daemon=True)
        drain.start()
        time.sleep(random.uniform(0.2, 0.9))  # the random moment of the kill
        child.send_signal(signal.SIGKILL)
        child.wait()
        drain.join(timeout=10)
        for line in lines:
            stream, seq = line.split()
            assert int(seq) > acked.get(stream, 0), "acknowledged seqs only grow"
            acked[stream] = int(seq)
        store = open_blocking_store(durable_url)
        try:
            for stream, seq in acked.items():
                events = store.load(stream)  # CorruptStream if the chain broke
                assert len(events) >= seq, f"{stream}: acknowledged {seq}, found {len(events)}"
                assert [e.data["n"] for e in events] == list(range(1, len(events) + 1))
                assert store.verify(stream).ok
        finally:
            store.close()
    assert len(acked) == 4 and min(acked.values()) > 1
