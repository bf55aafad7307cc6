"""Issue 16, the safety part: a server that cannot serve never writes.

A second `t24-server` started on the store of a running one (a second `make run`) used to
recover every table before failing to bind its port, appending `TablePaused server_restart`
to the live table. Now a start takes the store's ownership and binds its port before it
recovers anything: refused by either, it exits 1 and the log is byte for byte unchanged.
"""

from __future__ import annotations

import sqlite3

import pytest
from server_process import ServerProcess
from test_server_lifecycle import accepted, start_table
from wsclients import AutobahnClient

from server.eventlog.backends import open_blocking_store

pytestmark = pytest.mark.e2e


def recorded(store_url: str, stream: str) -> list:
    """Every row of `stream` exactly as stored."""
    blocking = open_blocking_store(store_url, create=False)
    try:
        return blocking.recorded(stream)[1]
    finally:
        blocking.close()


def refused_start(process: ServerProcess, *flags: str) -> str:
    """Start `process` expecting it to fail; its exit code is 1; returns its log."""
    with pytest.raises(RuntimeError, match="exited early"):
        process.start(*flags)
    assert process.wait() == 1
    return process.log_text()


def test_a_second_server_on_a_live_store_refuses_and_writes_nothing(tmp_path):
    first = ServerProcess(tmp_path / "first").start()
    try:
        _director, proctor = start_table(first, "live", pattern_seconds=60)
        s1 = AutobahnClient(first.url)
        s1.hello(first.token("player", table="live", seat="s1"))
        accepted(proctor, "live", "start_round")
        accepted(proctor, "live", "place_card")
        accepted(proctor, "live", "reveal_card")  # mid-card: the pattern deadline is live
        before = recorded(first.store, "table/live")

        # same store, same port: refused (the store is owned; the port is taken too)
        same_port = ServerProcess(tmp_path / "same-port", store=first.store)
        text = refused_start(same_port, "--port", str(first.port))
        assert "could not start" in text
        # same store, another port: refused by the store's owner lock, naming the owner
        other_port = ServerProcess(tmp_path / "other-port", store=first.store)
        text = refused_start(other_port)
        assert f"another t24-server (pid {first.pid})" in text
        assert "nothing was written" in text

        assert recorded(first.store, "table/live") == before
        assert "concurrent writer" not in first.log_text()
        # the first server's table plays on, never paused
        touched = accepted(s1, "live", "touch_card")
        assert touched["seq"] == before[-1][0] + 1
        types = [e.type for e in open_blocking_store(first.store).read("table/live")]
        assert "TablePaused" not in types
    finally:
        first.kill()


def test_a_start_whose_port_is_taken_recovers_nothing(tmp_path):
    """The start-up order on its own: a copy of a mid-card store (no owner), started on a
    port that is taken, fails on the bind before it recovers anything."""
    first = ServerProcess(tmp_path / "first").start()
    try:
        _director, proctor = start_table(first, "live", pattern_seconds=60)
        accepted(proctor, "live", "start_round")
        accepted(proctor, "live", "place_card")
        accepted(proctor, "live", "reveal_card")
        copy_path = tmp_path / "copy.sqlite"
        source = sqlite3.connect(first.store.removeprefix("sqlite:///"))
        target = sqlite3.connect(copy_path)
        source.backup(target)
        source.close()
        target.close()
        copy_url = f"sqlite:///{copy_path}"
        before = recorded(copy_url, "table/live")

        second = ServerProcess(tmp_path / "second", store=copy_url)
        text = refused_start(second, "--port", str(first.port))
        assert "could not start" in text
        assert "recovered" not in text
        assert recorded(copy_url, "table/live") == before

        # the same copy on a free port does recover it: the pause is recovery's, not lost
        second.start()
        types = [e.type for e in open_blocking_store(copy_url).read("table/live")]
        assert types[-1] == "TablePaused"
        second.terminate()
    finally:
        first.kill()


def test_a_sqlite_uri_store_is_owned_too_and_a_second_server_is_refused(tmp_path):
    """A `file:` URI target (SQLite's URI filenames) opens the file it names: the owner lock
    is that file's, so a second server is refused whichever way it names the same file."""
    path = tmp_path / "uri" / "t24.sqlite"
    uri_store = f"sqlite:///file:{path}%3Fmode%3Drwc"  # `?` inside the target is escaped
    first = ServerProcess(tmp_path / "first", store=uri_store).start()
    try:
        _director, proctor = start_table(first, "live", pattern_seconds=60)
        accepted(proctor, "live", "start_round")
        assert path.exists() and (tmp_path / "uri" / "t24.sqlite.owner").exists()
        assert not (tmp_path / "first" / "file:").exists()  # no directory named after the text
        before = recorded(f"sqlite:///{path}", "table/live")

        for name, store in (("same-uri", uri_store), ("plain-path", f"sqlite:///{path}")):
            text = refused_start(ServerProcess(tmp_path / name, store=store))
            assert f"another t24-server (pid {first.pid})" in text, text
            assert "nothing was written" in text

        assert recorded(f"sqlite:///{path}", "table/live") == before
        accepted(proctor, "live", "place_card")  # the first server plays on
    finally:
        first.kill()
