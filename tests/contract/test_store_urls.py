"""Opening stores by URL: every accepted form, and a clear error for everything else."""

from __future__ import annotations

import sqlite3

import pytest
from postgres_schemas import fresh_schema
from shell_testcase import ShellTestCase

from server.eventlog.backends import open_blocking_store, open_store
from server.eventlog.memory import MemoryEngine, MemoryStore
from server.eventlog.store import (
    DEFAULT_STORE_URL,
    StoreUnavailable,
    StoreURLError,
    parse_store_url,
)

FULL = {"synchronous": "full"}


class StoreURLTests(ShellTestCase):
    def test_accepted_urls(self):
        for url, kind, target, options in [
            ("memory:", "memory", "", {}),
            ("memory://", "memory", "", {}),
            (DEFAULT_STORE_URL, "sqlite", "var/t24.sqlite", FULL),
            ("sqlite:////srv/t24/log.sqlite", "sqlite", "/srv/t24/log.sqlite", FULL),
            ("sqlite:///a%20b?synchronous=NORMAL", "sqlite", "a b", {"synchronous": "normal"}),
            (
                "postgresql://u@h:5433/db",
                "postgresql",
                "postgresql://u@h:5433/db",
                {"schema": "t24"},
            ),
            (
                "postgres://u@h/db?schema=prod&sslmode=disable",
                "postgresql",
                "postgresql://u@h/db?sslmode=disable",
                {"schema": "prod"},
            ),
        ]:
            parsed = parse_store_url(url)
            assert (parsed.kind, parsed.target, dict(parsed.options)) == (kind, target, options)

    def test_refused_urls_say_what_is_accepted(self):
        for url, message in [
            ("", "non-empty string"),
            (None, "non-empty string"),
            ("mysql://h/db", "unknown store URL 'mysql://h/db': expected memory:, sqlite:///"),
            ("var/t24.sqlite", "unknown store URL"),
            ("memory:x", "unknown store URL"),
            ("sqlite://var/t24.sqlite", "three slashes"),
            ("sqlite:///", "names no file"),
            ("sqlite:///var/", "names no file"),
            ("sqlite:///x.sqlite?journal=off", "unknown SQLite option 'journal'"),
            ("sqlite:///x.sqlite?synchronous=off", "expected one of"),
            ("sqlite:///x.sqlite?synchronous", "malformed SQLite URL"),
            ("postgresql://h:port/db", "malformed PostgreSQL URL"),
            ("postgresql://h/db?schema=", "1 to 63 bytes"),
            ("postgresql://h/db?schema=" + "s" * 64, "1 to 63 bytes"),
            ("postgresql://h/db?nonsense_option=1", "malformed PostgreSQL URL"),
        ]:
            with pytest.raises(StoreURLError, match=message):
                parse_store_url(url)
            with pytest.raises(StoreURLError):
                open_store(url)

    def test_memory_urls_open_a_memory_store(self):
        assert isinstance(open_store("memory:"), MemoryStore)
        assert isinstance(open_blocking_store("memory:"), MemoryEngine)

    def test_a_reader_never_creates_a_missing_sqlite_file(self):
        tmp_path = self.tmp_path
        path = tmp_path / "absent.sqlite"
        with pytest.raises(StoreUnavailable, match="no SQLite event log"):
            open_blocking_store(f"sqlite:///{path}", create=False)
        assert not path.exists()
        engine = open_blocking_store(f"sqlite:///{tmp_path}/new/dir/log.sqlite")  # dirs created
        engine.close()
        open_blocking_store(f"sqlite:///{tmp_path}/new/dir/log.sqlite", create=False).close()

    def test_sqlite_refuses_foreign_files_and_newer_formats(self):
        tmp_path = self.tmp_path
        junk = tmp_path / "junk.sqlite"
        junk.write_bytes(b"this is not a database, just bytes" * 100)
        with pytest.raises(StoreUnavailable, match="file is not a database"):
            open_blocking_store(f"sqlite:///{junk}")
        newer = tmp_path / "newer.sqlite"
        connection = sqlite3.connect(newer)
        connection.execute("PRAGMA user_version = 2")
        connection.close()
        with pytest.raises(StoreUnavailable, match="format 2; this t24 knows 1"):
            open_blocking_store(f"sqlite:///{newer}")

    def test_postgres_that_does_not_answer_is_store_unavailable(self):
        with pytest.raises(StoreUnavailable, match="does not answer") as caught:
            open_blocking_store("postgresql://nobody:secret@127.0.0.1:1/db")
        assert "secret" not in str(caught.value)

    def test_postgres_reader_needs_an_existing_event_log(self):
        with fresh_schema() as (url, _schema):
            with pytest.raises(StoreUnavailable, match="no event log"):
                open_blocking_store(url, create=False)
            open_blocking_store(url).close()
            open_blocking_store(url, create=False).close()
