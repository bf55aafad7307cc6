"""Benchmark of the event log: durable appends and replay, against raw baselines.

    .venv/bin/python bench/eventlog.py [--no-write] [--quick]

In one run, on this machine:
1. raw baseline: plain `sqlite3` inserting the same rows (canonical bodies, hashes) into the
   same table, with the store's settings (WAL, synchronous=FULL), one transaction per event
   and one transaction for all;
2. the SQLite store through its Deferred API on the real reactor: durable appends/s with
   one writer (each append awaited before the next) and with 100 concurrent streams (group
   commit), each stream's appends awaited one after another as a table actor does;
3. replay of a 100,000-event stream: `load` (read + decode + verify), blocking and through
   the Deferred API, beside a raw read + msgpack decode with no checks;
4. the same store figures on PostgreSQL (skipped, with the reason, if no server answers).

Then it writes the figures into the "Event log" section of docs/performance.md (only that
section). Targets (issue 3): group commit >= 20,000 durable events/s on SQLite, replay >=
200,000 events/s.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sqlite3
import sys
import tempfile
import time
import uuid
from pathlib import Path

import msgpack
from twisted.internet import defer, task

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from perfdoc import write_section  # noqa: E402

from server.eventlog import engine as engine_module  # noqa: E402
from server.eventlog.backends import open_blocking_store, open_store  # noqa: E402
from server.eventlog.envelope import NewEvent, chain_hash, encode_body, genesis_hash  # noqa: E402

POSTGRES_URL = os.environ.get(
    "T24_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
PLAYER = {"role": "player", "id": "seat-3"}
TARGET_GROUP = 20_000
TARGET_REPLAY = 200_000
SECTION = "## Event log (`bench/eventlog.py`)"


def touched(n: int) -> NewEvent:
    """A typical table event (~120 bytes recorded)."""
    return NewEvent(
        "CardTouched",
        {"card": f"card-{n % 40}", "seat": n % 4, "elapsed_us": 1_234_567 + n},
        actor=PLAYER,
        causation=f"conn-12:req-{n}",
    )


def rows_for(stream: str, count: int) -> list[tuple[str, int, bytes, bytes, bytes]]:
    """The rows the store would write for `count` events: the raw baseline inserts them."""
    prev = genesis_hash(stream)
    rows = []
    for seq in range(1, count + 1):
        body = encode_body(stream, seq, 1_700_000_000_000_000 + seq, touched(seq))
        digest = chain_hash(prev, body)
        rows.append((stream, seq, body, prev, digest))
        prev = digest
    return rows


def raw_sqlite(directory: str, per_event: int, all_in_one: int) -> dict[str, float]:
    """Plain sqlite3, same table and settings as the store: the ceiling to compare with."""
    path = os.path.join(directory, "raw.sqlite")
    connection = sqlite3.connect(path, isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA synchronous = FULL")
    connection.execute(
        "CREATE TABLE events (stream TEXT NOT NULL, seq INTEGER NOT NULL, body BLOB NOT NULL,"
        " prev_hash BLOB NOT NULL, hash BLOB NOT NULL, PRIMARY KEY (stream, seq)) STRICT"
    )
    insert = "INSERT INTO events VALUES (?, ?, ?, ?, ?)"
    one_per_txn = per_hundred = 0.0
    for attempt in range(3):  # best of 3, like the store's figures
        rows = rows_for(f"raw/one/{attempt}", per_event)
        started = time.perf_counter()
        for row in rows:
            connection.execute("BEGIN IMMEDIATE")
            connection.execute(insert, row)
            connection.execute("COMMIT")
        one_per_txn = max(one_per_txn, per_event / (time.perf_counter() - started))
        streams = [rows_for(f"raw/group/{attempt}/{n}", per_event // 50) for n in range(100)]
        started = time.perf_counter()
        for k in range(per_event // 50):  # what group commit does: 100 streams, one commit
            connection.execute("BEGIN IMMEDIATE")
            connection.executemany(insert, [rows[k] for rows in streams])
            connection.execute("COMMIT")
        elapsed = time.perf_counter() - started
        per_hundred = max(per_hundred, (per_event // 50) * 100 / elapsed)
    rows = rows_for("raw/all", all_in_one)
    started = time.perf_counter()
    connection.execute("BEGIN IMMEDIATE")
    connection.executemany(insert, rows)
    connection.execute("COMMIT")
    all_in_txn = all_in_one / (time.perf_counter() - started)
    select = "SELECT seq, body, prev_hash, hash FROM events WHERE stream = ? ORDER BY seq"

    def read_and_decode() -> None:
        for _, body, _, _ in connection.execute(select, ("raw/all",)).fetchall():
            msgpack.unpackb(body)

    raw_read = all_in_one / best_of(3, read_and_decode)
    connection.close()
    return {
        "txn_per_event": one_per_txn,
        "txn_per_100": per_hundred,
        "one_txn": all_in_txn,
        "read_decode": raw_read,
    }


@defer.inlineCallbacks
def appends(url: str, streams: int, per_stream: int):
    """Durable appends/s: `streams` writers, each awaiting its append before the next."""
    store = open_store(url)
    batches = []
    real = store.engine.append_batch

    def counting(requests):
        batches.append(len(requests))
        return real(requests)

    store.engine.append_batch = counting
    run = uuid.uuid4().hex[:6]

    def writer(name: str) -> defer.Deferred:
        """A table actor's shape: the next append only once the previous one is durable."""
        finished: defer.Deferred = defer.Deferred()

        def next_append(recorded: list, n: int) -> None:
            if n == per_stream:
                finished.callback(None)
                return
            appended = store.append(name, recorded[-1].seq if recorded else 0, [touched(n)])
            appended.addCallback(next_append, n + 1).addErrback(finished.errback)

        next_append([], 0)
        return finished

    started, cpu = time.perf_counter(), time.process_time()
    yield defer.gatherResults([writer(f"bench/{run}/{s}") for s in range(streams)])
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    yield store.close()
    total = streams * per_stream
    return {
        "events_per_s": total / elapsed,
        "mean_batch": total / len(batches),
        "cpu_us_per_event": cpu / total * 1e6,
    }


def best_of(runs: int, function) -> float:
    """The shortest of `runs` timings: the least disturbed by the other work on the machine."""
    best = float("inf")
    for _ in range(runs):
        started = time.perf_counter()
        function()
        best = min(best, time.perf_counter() - started)
    return best


@defer.inlineCallbacks
def replay(url: str, count: int):
    """Replay of one `count`-event stream: blocking `load`, Deferred `load`, no GC pause."""
    engine = open_blocking_store(url)
    stream = f"replay/{uuid.uuid4().hex[:6]}"
    seq = 0
    for start in range(0, count, 1000):
        batch = [touched(n) for n in range(start, min(count, start + 1000))]
        seq = engine.append(stream, seq, batch)[-1].seq

    def load_blocking():
        assert len(engine.load(stream)) == count

    blocking = count / best_of(3, load_blocking)
    with _without_gc_pause():
        no_pause = count / best_of(3, load_blocking)
    engine.close()
    store = open_store(url)
    timings = []
    for _ in range(3):
        started = time.perf_counter()
        events = yield store.load(stream)
        timings.append(time.perf_counter() - started)
        assert len(events) == count
    yield store.close()
    return {
        "blocking": blocking,
        "deferred": count / min(timings),
        "no_gc_pause": no_pause,
        "events": count,
    }


@contextlib.contextmanager
def _without_gc_pause():
    real = engine_module.bulk_decoding
    engine_module.bulk_decoding = contextlib.nullcontext
    try:
        yield
    finally:
        engine_module.bulk_decoding = real


def postgres_schema() -> tuple[str | None, str]:
    """A fresh schema name when PostgreSQL answers, else None and the reason."""
    try:
        import psycopg

        psycopg.connect(POSTGRES_URL, connect_timeout=3).close()
    except Exception as error:
        return None, f"no PostgreSQL answers at {POSTGRES_URL}: {error}"
    schema = f"t24bench_{uuid.uuid4().hex[:8]}"
    return schema, ""


def drop_schema(schema: str) -> None:
    """Remove the benchmark's schema: it leaves nothing behind."""
    import psycopg
    from psycopg import sql

    with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
        drop = sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(schema))
        connection.execute(drop)


@defer.inlineCallbacks
def store_figures(url: str, quick: bool):
    """Appends with 1 and 100 streams (best of 3 runs each), then replay, on one store URL."""
    single, group = [], []
    for _ in range(3):
        single.append((yield appends(url, 1, 300 if quick else 1000)))
        group.append((yield appends(url, 100, 60 if quick else 200)))
    single = max(single, key=lambda figures: figures["events_per_s"])
    group = max(group, key=lambda figures: figures["events_per_s"])
    replayed = yield replay(url, 20_000 if quick else 100_000)
    return {"single": single, "group": group, "replay": replayed}


def render(raw: dict, sqlite_figures: dict, pg_figures: dict | None, pg_note: str) -> str:
    """The body of the Event log section of docs/performance.md."""

    def n(value: float) -> str:
        return f"{value:,.0f}"

    sq = sqlite_figures
    lines = [
        "",
        f"Measured {time.strftime('%Y-%m-%d')} on this 2-core machine (shared, so noisy; each",
        "figure but the one-transaction-for-all insert is the best of 3 runs);",
        "events of ~120 bytes; every figure is durable (SQLite `synchronous=FULL`, PostgreSQL",
        "`synchronous_commit=on`) unless said otherwise. Ratios are against the raw baseline",
        "measured in the same run.",
        "",
        "| SQLite | events/s | vs raw |",
        "|---|---:|---:|",
        f"| raw sqlite3, one transaction per event | {n(raw['txn_per_event'])} | 1.00 |",
        f"| raw sqlite3, one transaction per 100 events (100 streams) | "
        f"{n(raw['txn_per_100'])} | {raw['txn_per_100'] / raw['txn_per_event']:.2f} |",
        f"| raw sqlite3, one transaction for all | {n(raw['one_txn'])} | "
        f"{raw['one_txn'] / raw['txn_per_event']:.2f} |",
        f"| store, 1 writer (each append awaited) | {n(sq['single']['events_per_s'])} | "
        f"{sq['single']['events_per_s'] / raw['txn_per_event']:.2f} |",
        f"| store, 100 concurrent streams (group commit, mean {sq['group']['mean_batch']:.0f}"
        f" appends per commit, {sq['group']['cpu_us_per_event']:.0f} µs CPU per event) | "
        f"{n(sq['group']['events_per_s'])} | "
        f"{sq['group']['events_per_s'] / raw['txn_per_event']:.2f} |",
        "",
        f"| Replay of a {sq['replay']['events']:,}-event stream | events/s | vs raw read |",
        "|---|---:|---:|",
        f"| raw: SELECT + msgpack decode, no checks, no objects | {n(raw['read_decode'])} | 1.00 |",
        f"| SQLite `load` (read + decode + verify), blocking | {n(sq['replay']['blocking'])} | "
        f"{sq['replay']['blocking'] / raw['read_decode']:.2f} |",
        f"| SQLite `load` through the Deferred API | {n(sq['replay']['deferred'])} | "
        f"{sq['replay']['deferred'] / raw['read_decode']:.2f} |",
        f"| SQLite `load`, blocking, GC not paused | {n(sq['replay']['no_gc_pause'])} | "
        f"{sq['replay']['no_gc_pause'] / raw['read_decode']:.2f} |",
        "",
    ]
    if pg_figures:
        pg = pg_figures
        lines += [
            "| PostgreSQL (same machine) | events/s |",
            "|---|---:|",
            f"| store, 1 writer | {n(pg['single']['events_per_s'])} |",
            f"| store, 100 concurrent streams (group commit, mean "
            f"{pg['group']['mean_batch']:.0f} appends per commit, "
            f"{pg['group']['cpu_us_per_event']:.0f} µs CPU per event in our process) | "
            f"{n(pg['group']['events_per_s'])} |",
            f"| `load` of a {pg['replay']['events']:,}-event stream, blocking | "
            f"{n(pg['replay']['blocking'])} |",
            f"| `load` through the Deferred API | {n(pg['replay']['deferred'])} |",
            "",
        ]
    else:
        lines += [f"PostgreSQL: not measured ({pg_note}).", ""]
    group_vs_raw = sq["group"]["events_per_s"] / raw["txn_per_100"]
    lines += [
        f"Group commit reaches {group_vs_raw:.2f} of raw sqlite3 committing the same 100-event",
        "batches. The raw loop is bound by fsync latency, which on this shared machine varies",
        "ten-fold between runs (see the first row); the store is bound by its CPU work per",
        "event (building and validating the `NewEvent`, canonical encoding, hashing, planning",
        "against the heads, the inserts, the thread hop and one Deferred per append), because a",
        "table actor's next append waits for the previous one, so the reactor's work and the",
        "writer's alternate rather than overlap.",
        "",
    ]
    group_ok = sq["group"]["events_per_s"] >= TARGET_GROUP
    replay_ok = sq["replay"]["deferred"] >= TARGET_REPLAY
    lines += [
        f"Targets: group commit >= {TARGET_GROUP:,} durable events/s on SQLite: "
        f"{'met' if group_ok else 'NOT met'}; replay >= {TARGET_REPLAY:,} events/s: "
        f"{'met' if replay_ok else 'NOT met'}.",
        "",
        "Why these shapes: a table actor awaits each append before the next (one stream is",
        "sequential), so throughput comes from many tables committing together; the writer",
        "thread takes everything that queued during the previous commit (one fsync for all).",
        "Replay hashes the stored bytes directly (`sha256(prev_hash + body)`), decodes each body",
        "once, builds NamedTuples, and pauses the cyclic GC for the bulk decode.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="do not touch docs/")
    parser.add_argument("--quick", action="store_true", help="smaller runs (a smoke test)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="t24-bench-") as directory:
        raw = raw_sqlite(directory, 300 if args.quick else 1000, 100_000)
        print(f"raw sqlite3: {raw}")
        schema, pg_note = postgres_schema()
        results: dict = {}

        @defer.inlineCallbacks
        def run(_reactor):
            results["sqlite"] = yield store_figures(
                f"sqlite:///{directory}/store.sqlite", args.quick
            )
            print(f"sqlite store: {results['sqlite']}")
            if schema:
                try:
                    results["pg"] = yield store_figures(
                        f"{POSTGRES_URL}?schema={schema}", args.quick
                    )
                    print(f"postgresql store: {results['pg']}")
                finally:
                    drop_schema(schema)
            else:
                print(f"postgresql: skipped ({pg_note})")

        try:
            task.react(run)
        except SystemExit as exit_:
            if exit_.code:
                raise
    body = render(raw, results["sqlite"], results.get("pg"), pg_note)
    print(body)
    if not args.no_write:
        write_section(SECTION, body)
        print("wrote docs/performance.md (Event log section)")


if __name__ == "__main__":
    main()
