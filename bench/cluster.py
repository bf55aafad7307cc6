"""Benchmark of several nodes on one PostgreSQL (issue 16): throughput and failover time.

    .venv/bin/python bench/cluster.py [--no-write] [--quick] [--seconds S] [--kills K]

In one run, on this machine, against a fresh schema of the PostgreSQL at
`T24_BENCH_POSTGRES_URL` (default postgresql://postgres@127.0.0.1:5432/postgres):
1. flat out, the load of `bench/server_load.py` (4 bots per table, `auto_proctor`, every bot
   touching as soon as it can) against 1 node and against 2 nodes, the same client program
   (one client process per node, each creating its own tables on its node, so each table is
   owned where its players are): commands/s of all nodes together and server CPU per
   command (the nodes' CPU seconds over the commands);
2. failover: 2 nodes with the default lease; a table in play on the owner, `kill -9` of the
   owner, and the time until the other node answers a `join` with a snapshot (it took the
   lease, replayed and paused the table); the killed node restarts and the next kill hits
   the new owner. Median and max over K kills (default 10).
Writes the "Several nodes" section of docs/performance.md. Two cores are shared by the
clients and the nodes: read the 1-node/2-node ratio, not the absolute figures.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from perfdoc import write_section  # noqa: E402
from server_load import PACED, drive, start_process, table_options  # noqa: E402

SECTION = "## Several nodes (`bench/cluster.py`)"
POSTGRES_URL = os.environ.get(
    "T24_BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)


class Schema:
    """A fresh schema, dropped on exit."""

    def __enter__(self) -> str:
        self.name = f"t24bench_{uuid.uuid4().hex[:8]}"
        return f"{POSTGRES_URL}?schema={self.name}"

    def __exit__(self, *exc: object) -> None:
        import psycopg
        from psycopg import sql

        with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
            drop = sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(self.name))
            connection.execute(drop)


def start_node(work: Path, name: str, store: str, *extra: str) -> tuple:
    run = work / name
    run.mkdir(exist_ok=True)
    ready = run / "ready.json"
    ready.unlink(missing_ok=True)
    command = [sys.executable, "-m", "server", "--port", "0", "--log-level", "warn"]
    command += ["--rate-per-second", "10000", "--rate-burst", "10000", "--node-id", name]
    command += ["--store", store, "--secret-file", str(work / "secret")]
    command += ["--ready-file", str(ready), *extra]
    return start_process(command, ready, run)


def flat_out(work: Path, nodes: int, seconds: float, tables: int) -> dict:
    """All nodes driven at once, one client per node; totals and CPU per command."""
    with Schema() as store:
        started = [start_node(work, f"n{nodes}-{i}", store) for i in range(nodes)]
        results: list[dict] = [{} for _ in started]

        def run(index: int) -> None:
            _process, info = started[index]
            results[index] = drive(
                info["url"],
                "t24",
                seconds,
                info["pid"],
                tables=tables // nodes,
                secret_file=work / "secret",
                flat_out=1,
                table_prefix=f"node{index}",
            )

        try:
            threads = [threading.Thread(target=run, args=(i,)) for i in range(nodes)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        finally:
            for process, _info in started:
                process.send_signal(signal.SIGTERM)
                process.wait(timeout=30)
    commands = sum(r["per_second"] for r in results)
    cpu = sum(r["server_cpu"] for r in results)
    return {
        "nodes": nodes,
        "commands_per_second": commands,
        "server_cpu_cores": cpu,
        "us_per_command": cpu / max(commands, 1e-9) * 1e6,
        "p99_ms": max(r["p99_ms"] for r in results),
    }


def failovers(work: Path, kills: int) -> list[float]:
    """Seconds from `kill -9` of a table's owner to the other node serving it."""
    from websockets.sync.client import connect

    from protocol.codec import decode, encode
    from server.net.tokens import TokenSigner, load_or_create_secret

    def ask(url: str, token: str, message: dict) -> dict:
        with connect(url, subprotocols=["t24.v1"], open_timeout=5) as ws:
            ws.send(encode({"type": "hello", "id": 1, "token": token}))
            decode(ws.recv(timeout=5))
            ws.send(encode({"id": 2, **message}))
            while True:
                reply = decode(ws.recv(timeout=5))
                if reply.get("id") == 2:
                    return reply

    times = []
    with Schema() as store:
        signer = TokenSigner(load_or_create_secret(work / "secret"))
        director = signer.issue("director", now=time.time())[0]
        nodes: dict = {}
        owner, other = "a", "b"
        try:
            for name in ("a", "b"):
                nodes[name] = start_node(work, f"f-{name}", store)
            for kill in range(kills):
                table = f"f{kill}"
                proctor = signer.issue("proctor", now=time.time(), name="p", table=table)[0]
                options = {**table_options(PACED), "auto_proctor": 0.2}
                created = ask(
                    nodes[owner][1]["url"],
                    director,
                    {
                        "type": "create_table",
                        "table": table,
                        "game": "challenge",
                        "options": options,
                    },
                )
                assert created["type"] == "table_created", created
                ask(
                    nodes[owner][1]["url"],
                    proctor,
                    {"type": "command", "table": table, "name": "start_round", "args": {}},
                )
                nodes[owner][0].kill()
                nodes[owner][0].wait()
                killed = time.perf_counter()
                while True:
                    reply = ask(nodes[other][1]["url"], proctor, {"type": "join", "table": table})
                    if reply["type"] == "snapshot":
                        break
                    time.sleep(0.02)
                times.append(time.perf_counter() - killed)
                print(json.dumps({"kill": kill, "failover_s": round(times[-1], 3)}), flush=True)
                nodes[owner] = start_node(work, f"f-{owner}", store)
                owner, other = other, owner
        finally:
            for process, _info in nodes.values():
                process.kill()
    return times


def section_body(rows: list[dict], times: list[float], seconds: float, tables: int) -> str:
    one, two = rows
    lines = [
        f"Measured by `bench/cluster.py` ({tables} tables of 4 bots, {seconds:g} s flat out per",
        "run, PostgreSQL on this machine, 2 cores shared by the clients, the nodes and",
        "PostgreSQL):",
        "",
        "| nodes | commands/s (all nodes) | server CPU per command | worst p99 |",
        "|---|---|---|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['nodes']} | {row['commands_per_second']:,.0f} | "
            f"{row['us_per_command']:,.0f} us | {row['p99_ms']:.1f} ms |"
        )
    lines += [
        "",
        f"2 nodes / 1 node: {two['commands_per_second'] / max(one['commands_per_second'], 1):.2f}"
        " x the commands/s. On one 2-core machine the nodes compete with the clients and",
        "PostgreSQL for the same cores, so this shows the cost of the leases and the fence",
        "(CPU per command), not the scaling across machines (docs/scaling.md).",
        "",
        f"Failover (default lease {3.0:g} s, `kill -9` of the owner to a snapshot from the other "
        f"node), {len(times)} kills: median {statistics.median(times):.2f} s, "
        f"max {max(times):.2f} s.",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="do not touch docs/")
    parser.add_argument("--quick", action="store_true", help="short runs, 3 kills")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    parser.add_argument("--tables", type=int, default=100, help="tables (4 bots each)")
    parser.add_argument("--kills", type=int, default=10, help="failovers to time")
    args = parser.parse_args()
    seconds = 3.0 if args.quick else args.seconds
    kills = 3 if args.quick else args.kills
    tables = 20 if args.quick else args.tables
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        rows = [flat_out(work, nodes, seconds, tables) for nodes in (1, 2)]
        for row in rows:
            print(json.dumps(row), flush=True)
        times = failovers(work, kills)
    if not args.no_write:
        write_section(SECTION, section_body(rows, times, seconds, tables))
        print("wrote the Several nodes section of docs/performance.md")


if __name__ == "__main__":
    main()
