"""A store that fails under a live table (issue 18): a real server process on PostgreSQL.

The fault is made real and reversible: the schema's `events` table is renamed away (every
append fails in the database, while reads of stream heads, the health probe's, still
answer) and renamed back. Before the fix, a deadline whose append failed was remembered as
refused and never fired again: the auto-proctored table froze for good, `/healthz` 200.
"""

from __future__ import annotations

import contextlib
import time

import psycopg
import pytest
from postgres_schemas import POSTGRES_URL, fresh_schema
from psycopg import sql
from server_process import ServerProcess
from test_server_lifecycle import accepted, start_table

pytestmark = pytest.mark.e2e


@contextlib.contextmanager
def events_table_away(schema: str):
    """Every append fails while inside (the events table is renamed), then it comes back."""

    def rename(old: str, new: str) -> None:
        with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
            connection.execute(
                sql.SQL("ALTER TABLE {}.{} RENAME TO {}").format(
                    sql.Identifier(schema), sql.Identifier(old), sql.Identifier(new)
                )
            )

    rename("events", "events_away")
    try:
        yield
    finally:
        rename("events_away", "events")


def wait_health(process: ServerProcess, status: int, timeout: float = 10.0) -> bytes:
    """Poll /healthz until it answers `status`; the body."""
    deadline = time.monotonic() + timeout
    while True:
        code, body, _headers = process.get("/healthz")
        if code == status:
            return body
        if time.monotonic() > deadline:
            raise TimeoutError(f"/healthz still {code} {body!r}, not {status}")
        time.sleep(0.05)


@pytest.fixture
def postgres_server(tmp_path):
    with fresh_schema() as (url, schema):
        process = ServerProcess(tmp_path / "faults", store=url).start()
        try:
            yield process, schema
        finally:
            process.kill()


def test_a_deadline_whose_append_failed_is_retried_when_the_store_is_back(postgres_server):
    process, schema = postgres_server
    _director, proctor = start_table(process, "blip", auto_proctor=1)
    proctor.request("join", table="blip")
    with events_table_away(schema):
        accepted_round = proctor.request("command", table="blip", name="start_round")
        assert accepted_round["code"] == "unavailable"  # nothing written: the store is down
    started = accepted(proctor, "blip", "start_round")
    with events_table_away(schema):
        # the place deadline falls due 1 s after the round started, inside the outage
        process.wait_log("the store failed a server command")
    placed = proctor.event("CardPlaced")  # retried once the store answers
    assert placed["seq"] == started["seq"] + 1
    assert wait_health(process, 200)


def test_a_store_that_stays_down_pauses_the_table_and_fails_healthz(postgres_server):
    process, schema = postgres_server
    _director, proctor = start_table(process, "down", auto_proctor=1)
    proctor.request("join", table="down")
    accepted(proctor, "down", "start_round")
    with events_table_away(schema):
        process.wait_log("the store failed a server command")
        body = wait_health(process, 503)
        assert b"store failing" in body and b"down" in body
        process.wait_log("attempt 4")  # the pause itself failed too: still down
    paused = proctor.event("TablePaused", timeout=15)
    assert paused["data"]["cause"] == "store_failure"
    assert not [m for m in proctor.backlog if m.get("event_type") == "CardPlaced"]
    assert wait_health(process, 200)
    accepted(proctor, "down", "resume_table")
    assert proctor.event("CardPlaced")["seq"] > paused["seq"]


def test_a_repeated_failure_is_logged_a_bounded_number_of_times(postgres_server):
    """Issue 18 (log amplification): every command failing on a down store logged its own
    traceback; repeated warnings of one kind are now at most 10 per 10 s, then counted."""
    process, schema = postgres_server
    _director, proctor = start_table(process, "noisy")
    with events_table_away(schema):
        last = None
        for _ in range(60):
            last = proctor.request("command", table="noisy", name="start_round")
        assert last is not None and last["code"] == "unavailable"
    accepted(proctor, "noisy", "start_round")
    failures = process.log_text().count("event store failure")
    assert 1 <= failures <= 10, failures
