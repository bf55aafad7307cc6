"""Which file a SQLite store URL opens, and so where its owner lock is
(server/cluster/store_lock.py, `lock_path`; server/eventlog/sqlite.py, `database_file`)."""

from __future__ import annotations

import sqlite3

import pytest

from server.cluster.store_lock import lock_path
from server.eventlog.sqlite import database_file
from server.eventlog.store import StoreUnavailable


@pytest.mark.parametrize(
    ("url", "lock"),
    [
        ("sqlite:///var/t24.sqlite", "var/t24.sqlite.owner"),
        ("sqlite:////srv/t24.sqlite", "/srv/t24.sqlite.owner"),
        ("sqlite:///file:var/t24.sqlite", "var/t24.sqlite.owner"),
        ("sqlite:///file:/srv/t24.sqlite%3Fmode%3Drwc", "/srv/t24.sqlite.owner"),
        ("sqlite:///file:///srv/t24.sqlite", "/srv/t24.sqlite.owner"),
        ("sqlite:///file://localhost/srv/t24.sqlite#x", "/srv/t24.sqlite.owner"),
        ("sqlite:///file:/srv/a%2520b.sqlite", "/srv/a b.sqlite.owner"),  # %20 in the URI
        ("sqlite:///file::memory:", None),
        ("sqlite:///file:t24%3Fmode%3Dmemory%26cache%3Dshared", None),
        ("sqlite:///:memory:", None),
        ("memory:", None),
        ("postgresql://postgres@127.0.0.1:5432/postgres", None),
    ],
)
def test_the_owner_lock_is_next_to_the_file_the_store_opens(url, lock):
    assert lock_path(url) == lock


def test_a_uri_names_the_file_sqlite_itself_opens(tmp_path):
    uri = f"file:{tmp_path}/a%20b.sqlite?mode=rwc"
    connection = sqlite3.connect(uri, uri=True)
    try:
        opened = connection.execute("PRAGMA database_list").fetchone()[2]
    finally:
        connection.close()
    assert database_file(uri) == opened == f"{tmp_path}/a b.sqlite"


def test_a_uri_with_a_remote_host_is_refused_as_sqlite_refuses_it():
    with pytest.raises(StoreUnavailable, match="host must be empty or localhost"):
        lock_path("sqlite:///file://db.example/srv/t24.sqlite")
    with pytest.raises(sqlite3.OperationalError):
        sqlite3.connect("file://db.example/srv/t24.sqlite", uri=True)
