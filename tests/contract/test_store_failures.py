"""Error paths of the stores: failed commits, locked files, lost races, exhausted pools."""

from __future__ import annotations

import sqlite3
import threading
import time

import pytest
from eventlog_backends import BackendCase
from postgres_schemas import POSTGRES_URL, fresh_schema
from shell_testcase import ShellTestCase

from server.eventlog import engine as engine_module
from server.eventlog import postgres as postgres_module
from server.eventlog.backends import open_blocking_store
from server.eventlog.envelope import InvalidEvent, NewEvent
from server.eventlog.memory import MemoryEngine
from server.eventlog.sqlite import SQLiteEngine
from server.eventlog.store import ConcurrencyError, CorruptStream, StoreClosed, StoreUnavailable


def event(n: int = 1) -> NewEvent:
    return NewEvent("Tick", {"n": n})


class FailureContract:
    """Error paths every store shares (run per store by the classes below)."""

    def test_a_failed_commit_fails_every_append_in_it_and_the_store_goes_on(self):
        backend = self.backend
        if backend.kind == "memory":
            pytest.skip("the memory store has no commit to fail")
        store = backend.open()
        real = store.engine.append_batch
        calls = []

        def failing_once(requests):
            calls.append(len(requests))
            if len(calls) == 2:
                raise StoreUnavailable("disk full")
            return real(requests)

        store.engine.append_batch = failing_once
        pending = [store.append(f"s{n}", 0, [event(n)]) for n in range(5)]
        assert backend.wait(pending[0])[0].seq == 1  # the first batch: one append
        for deferred in pending[1:]:  # the second batch: four appends, one failure each
            with pytest.raises(StoreUnavailable, match="disk full"):
                backend.wait(deferred)
        assert backend.wait(store.append("s1", 0, [event()]))[0].seq == 1
        assert calls == [1, 4, 1]
        assert backend.wait(store.streams()) == ["s0", "s1"]

    def test_close_reports_an_engine_that_fails_to_close(self):
        backend = self.backend
        if backend.kind == "memory":
            pytest.skip("the memory store's close cannot fail")
        store = backend.open()
        real = store.engine.close

        def failing():
            real()
            raise StoreUnavailable("connection lost while closing")

        store.engine.close = failing
        with pytest.raises(StoreUnavailable, match="closing"):
            backend.wait(store.close())

    def test_a_closed_blocking_engine_refuses_every_call(self):
        backend = self.backend
        engine = backend.blocking()
        engine.append("s", 0, [event()])
        engine.close()
        engine.close()
        for call in (
            lambda: engine.append("s", 1, [event()]),
            lambda: engine.read("s"),
            lambda: engine.load("s"),
            lambda: engine.last_seq("s"),
            lambda: engine.streams(),
            lambda: engine.verify("s"),
        ):
            with pytest.raises(StoreClosed):
                call()

    def test_bad_names_for_queries_are_invalid(self):
        backend = self.backend
        store = backend.open()
        for deferred in (
            store.last_seq(""),
            store.streams(5),
            store.load("a\x00"),
            store.verify(3),
        ):
            with pytest.raises(InvalidEvent):
                backend.wait(deferred)


class MemoryFailures(FailureContract, BackendCase):
    kind = "memory"


class SQLiteFailures(FailureContract, BackendCase):
    kind = "sqlite"


class PostgresFailures(FailureContract, BackendCase):
    kind = "postgres"


class EngineFailureTests(ShellTestCase):
    def test_load_refuses_a_stream_that_changed_under_it(self):
        monkeypatch = self.monkeypatch
        engine = MemoryEngine()
        engine.append("s", 0, [event()])
        monkeypatch.setattr(engine_module, "load_rows", lambda *args: None)
        with pytest.raises(CorruptStream, match="changed while it was loaded"):
            engine.load("s")

    def test_sqlite_locked_by_another_process_too_long_is_unavailable(self):
        tmp_path = self.tmp_path
        path = str(tmp_path / "locked.sqlite")
        engine = SQLiteEngine(path, busy_timeout_s=0.2)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # holds the write lock
        try:
            with pytest.raises(StoreUnavailable, match="database is locked"):
                engine.append("s", 0, [event()])
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert engine.append("s", 0, [event()])[0].seq == 1
        engine.close()

    def test_sqlite_without_wal_is_refused(self):
        with pytest.raises(StoreUnavailable, match="cannot use WAL"):
            open_blocking_store("sqlite:///:memory:")


class PostgresCase(ShellTestCase):
    """`pg_url`: (url, schema) of a fresh PostgreSQL schema, dropped after the test."""

    def setUp(self):
        super().setUp()
        self.pg_url = self.enterContext(fresh_schema())


class PostgresRaceTests(PostgresCase):
    def test_postgres_writer_losing_the_race_to_create_a_stream_gets_concurrency_error(self):
        pg_url = self.pg_url
        import psycopg

        url, schema = pg_url
        engine = open_blocking_store(url)
        other = psycopg.connect(POSTGRES_URL)
        watcher = psycopg.connect(POSTGRES_URL, autocommit=True)
        outcome: list[BaseException | list] = []
        try:
            other.execute(  # another node creates stream "x", not yet committed
                f'INSERT INTO "{schema}".streams VALUES (%s, 1, %s, 0)', ("x", bytes(32))
            )
            writer = threading.Thread(
                target=lambda: outcome.append(_call(engine.append, "x", 0, [event()]))
            )
            writer.start()
            deadline = time.monotonic() + 15
            while not watcher.execute(
                "SELECT count(*) FROM pg_locks l JOIN pg_stat_activity a USING (pid)"
                " WHERE NOT l.granted AND a.query LIKE %s",
                (f'%"{schema}".streams%',),
            ).fetchone()[0]:
                assert time.monotonic() < deadline, "our append never waited for the other node"
                time.sleep(0.01)
            other.commit()
            writer.join(timeout=15)
        finally:
            other.close()
            watcher.close()
            engine.close()
        [error] = outcome
        assert isinstance(error, ConcurrencyError) and error.actual_seq == 1


def _call(function, *args):
    try:
        return function(*args)
    except BaseException as error:  # handed to the test thread
        return error


class PostgresFailureTests(PostgresCase):
    def test_postgres_gives_up_after_repeated_conflicts(self):
        pg_url, monkeypatch = self.pg_url, self.monkeypatch
        from psycopg import errors

        url, _ = pg_url
        engine = open_blocking_store(url)

        def always_conflicting(*args):
            raise errors.UniqueViolation("simulated lost race")

        monkeypatch.setattr(postgres_module, "plan_appends", always_conflicting)
        try:
            with pytest.raises(StoreUnavailable, match="still conflicting after 8 attempts"):
                engine.append("s", 0, [event()])
        finally:
            engine.close()

    def test_postgres_without_a_free_connection_is_unavailable(self):
        pg_url = self.pg_url
        url, schema = pg_url
        open_blocking_store(url).close()
        engine = postgres_module.PostgresEngine(
            POSTGRES_URL, schema=schema, pool_size=1, pool_timeout_s=0.2
        )
        held = engine._pool.getconn()
        try:
            with pytest.raises(StoreUnavailable, match="PostgreSQL"):
                engine.last_seq("s")
            with pytest.raises(StoreUnavailable, match="no free connection"):
                engine.append("s", 0, [event()])
        finally:
            engine._pool.putconn(held)
            engine.close()

    def test_postgres_refuses_an_event_log_of_another_format(self):
        pg_url = self.pg_url
        import psycopg

        url, schema = pg_url
        open_blocking_store(url).close()
        with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
            connection.execute(f"UPDATE \"{schema}\".meta SET value = '2' WHERE key = 'format'")
        with pytest.raises(StoreUnavailable, match="format 2; this t24 knows 1"):
            open_blocking_store(url)
