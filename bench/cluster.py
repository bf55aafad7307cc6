"""Benchmark of several nodes on one PostgreSQL (issue 16): throughput and failover time.

    .venv/bin/python bench/cluster.py [--no-write] [--quick] [--seconds S] [--tables N]
                                      [--rounds R] [--kills K]

In one run, on this machine, against fresh schemas of the PostgreSQL at
`T24_BENCH_POSTGRES_URL` (default postgresql://postgres@127.0.0.1:5432/postgres):
1. flat out, the load of `bench/server_load.py` (4 bots per table, `auto_proctor`, every bot
   touching as soon as it can) against 1 node and against 2 nodes, the same client both
   times: `CLIENTS` client processes of N / `CLIENTS` tables each, started, connected and
   then let go at once (their measured seconds overlap); with 2 nodes client i plays on
   node i % 2, creating its tables there, so each table is owned where its players are.
   Reported: commands/s of all nodes together, the nodes' CPU per command, the CPU per
   command of the nodes' PostgreSQL backends (found by `application_name`), the events
   appended per command (from the nodes' /metrics), the machine's load average, and any
   lease lost or connection closed during the run (either would spoil it). The runs
   alternate 1, 2, 2, 1, ... (R rounds of each): the machine's load drifts over minutes,
   and interleaved runs share the drift, so the ratio holds;
2. failover: 2 nodes with the default lease; a table in play on the owner, `kill -9` of the
   owner, and the time until the other node serves it (it took the lease, replayed and
   paused the table); the killed node restarts and the next kill hits the new owner. Timed
   two ways, K kills each (default 10), median and max: "asked", a client `join`s on the
   other node every 20 ms (the first join after the lease ran out takes the table), and
   "swept", nobody asks (the other node's `/healthz`, which takes nothing, is read every
   20 ms until it lists the table): only the background sweep (every third of the lease)
   takes it, as after a crash at night.
Writes the "Several nodes" section of docs/performance.md.

Every wait has a deadline (a load client that stops reporting, a table nobody takes over):
the default run used to wait for ever when one bot's connection was refused or dropped
while connecting (the load client then never reported; bench/server_load.py `LoadClient`).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from perfdoc import write_section  # noqa: E402
from server_load import PACED, LoadClient, cpu_seconds, start_process, table_options  # noqa: E402

SECTION = "## Several nodes (`bench/cluster.py`)"
POSTGRES_URL = os.environ.get(
    "T24_BENCH_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/postgres"
)
CLIENTS = 2  # load client processes, the same for 1 node and for 2
FAILOVER_DEADLINE = 30.0  # seconds for the other node to serve a killed owner's table
# The throughput runs' lease. Not the default (3 s): on this shared machine, loaded by
# others (load average 10-14 on 2 cores) and with the bench under `nice`, a node process
# can go seconds without a core; with the default lease both nodes then lost every lease in
# the first seconds (an append refused by the fence, the table dropped, its bots closed
# with 1012, the other node taking it over), which measures the machine's starvation, not
# a node's cost per command. The failover part keeps the default lease.
THROUGHPUT_LEASE_SECONDS = 30.0


class Schema:
    """A fresh schema, dropped on exit; nodes connect with an `application_name` of their
    own so their PostgreSQL backends can be found (and their CPU read)."""

    def __enter__(self) -> Schema:
        self.name = f"t24bench_{uuid.uuid4().hex[:8]}"
        return self

    def url(self, node: str) -> str:
        return f"{POSTGRES_URL}?schema={self.name}&application_name={self.name}_{node}"

    def backends(self) -> list[int]:
        """The PIDs of every backend of this run's nodes (pool, leases, LISTEN)."""
        import psycopg

        with psycopg.connect(POSTGRES_URL, autocommit=True) as connection:
            rows = connection.execute(
                "SELECT pid FROM pg_stat_activity WHERE starts_with(application_name, %s)",
                (self.name + "_",),
            ).fetchall()
        return [row[0] for row in rows]

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


def scrape(port: int) -> dict[str, float]:
    """A node's /metrics, parsed by prometheus_client: sample name (and labels) -> value."""
    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as answer:
        text = answer.read().decode()
    values = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            labels = ",".join(f"{k}={v}" for k, v in sorted(sample.labels.items()))
            values[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
    return values


def cpu_of(pids: list[int]) -> dict[int, float]:
    """CPU seconds of each process still alive."""
    found = {}
    for pid in pids:
        try:
            found[pid] = cpu_seconds(pid)
        except (FileNotFoundError, ProcessLookupError):
            pass
    return found


def flat_out(
    work: Path, nodes: int, seconds: float, tables: int, label: str, sqlite: bool = False
) -> dict:
    """All clients driven at once against `nodes` nodes on PostgreSQL (or, `sqlite`, one
    server on its own SQLite file: the baseline of one process); totals, CPU per command."""
    with Schema() as schema:
        started = []
        clients: list[LoadClient] = []
        try:
            for i in range(nodes):
                name = f"{label}-n{i}"
                if sqlite:
                    (work / name).mkdir(exist_ok=True)
                    store, extra = f"sqlite:///{work / name / 't24.sqlite'}", ()
                else:
                    store = schema.url(f"n{i}")
                    extra = ("--lease-seconds", str(THROUGHPUT_LEASE_SECONDS))
                started.append(start_node(work, name, store, *extra))
            for i in range(CLIENTS):
                info = started[i % nodes][1]
                clients.append(
                    LoadClient(
                        info["url"],
                        "t24",
                        seconds,
                        tables=tables // CLIENTS,
                        secret_file=work / "secret",
                        flat_out=1,
                        table_prefix=f"c{i}",
                    )
                )
            for client in clients:
                client.idle()
            node_pids = [info["pid"] for _process, info in started]
            client_pids = [client.process.pid for client in clients]
            metrics_before = [scrape(info["port"]) for _process, info in started]
            backends = schema.backends()
            load_before = os.getloadavg()[0]
            cpu_before = cpu_of(node_pids + client_pids + backends)
            began = time.perf_counter()
            for client in clients:
                client.go()
            results = [client.result() for client in clients]
            wall = time.perf_counter() - began
            backends = sorted(set(backends) | set(schema.backends()))
            cpu_after = cpu_of(node_pids + client_pids + backends)
            load_after = os.getloadavg()[0]
            metrics_after = [scrape(info["port"]) for _process, info in started]
        finally:
            for client in clients:
                client.kill()
            for process, _info in started:
                process.send_signal(signal.SIGTERM)
            for process, _info in started:
                process.wait(timeout=30)

    def cores(pids: list[int]) -> float:
        used = sum(cpu_after.get(pid, 0.0) - cpu_before.get(pid, 0.0) for pid in pids)
        return used / wall

    def moved(name: str) -> float:
        return sum(
            after.get(name, 0.0) - before.get(name, 0.0)
            for before, after in zip(metrics_before, metrics_after, strict=True)
        )

    commands = sum(r["per_second"] for r in results)
    per_command = 1e6 / max(commands, 1e-9)
    measured = min(r["seconds"] for r in results)
    events = moved("t24_events_appended_total") / wall
    return {
        "store": "sqlite" if sqlite else "postgresql",
        "nodes": nodes,
        "commands_per_second": commands,
        "server_cores": cores(node_pids),
        "us_per_command": cores(node_pids) * per_command,
        "postgres_cores": cores(backends),
        "postgres_us_per_command": cores(backends) * per_command,
        "client_cores": cores(client_pids),
        # per player command, the table's own (timers: place, reveal, resolve) included
        "events_per_command": events / max(commands, 1e-9),
        "events_per_second": events,
        "p99_ms": max(r["p99_ms"] for r in results),
        "errors": sum(r["errors"] for r in results),
        "closed": sum(r["closed"] for r in results),
        "leases_lost": moved("t24_leases_lost_total"),
        "load": (load_before + load_after) / 2,
        "measured_s": measured,
    }


def owns(url: str, table: str) -> bool:
    """Whether a node's `/healthz` lists `table` among its owned tables (reading it takes
    no lease: the "swept" failovers must be the sweep's alone)."""
    http = url.replace("ws://", "http://", 1).rsplit("/", 1)[0]
    with urllib.request.urlopen(f"{http}/healthz", timeout=10) as response:
        body = response.read().decode()
    owned = [line for line in body.splitlines() if line.startswith("owned_tables:")]
    return bool(owned) and table in owned[0].split(":", 1)[1].split()


def failovers(work: Path, kills: int, swept: bool = False) -> list[float]:
    """Seconds from `kill -9` of a table's owner to the other node serving it: asked by a
    `join` every 20 ms, or (`swept`) taken by its sweep with nobody asking."""
    from websockets.sync.client import connect

    from protocol.codec import decode, encode
    from server.net.tokens import TokenSigner, load_or_create_secret

    def ask(url: str, token: str, message: dict) -> dict:
        with connect(url, subprotocols=["t24.v1"], open_timeout=10) as ws:
            ws.send(encode({"type": "hello", "id": 1, "token": token}))
            decode(ws.recv(timeout=10))
            ws.send(encode({"id": 2, **message}))
            while True:
                reply = decode(ws.recv(timeout=10))
                if reply.get("id") == 2:
                    return reply

    times = []
    with Schema() as schema:
        store = schema.url("f")
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
                    url = nodes[other][1]["url"]
                    if swept:
                        reply = {"owned": owns(url, table)}
                        if reply["owned"]:
                            break
                    else:
                        reply = ask(url, proctor, {"type": "join", "table": table})
                        if reply["type"] == "snapshot":
                            break
                    if time.perf_counter() - killed > FAILOVER_DEADLINE:
                        raise RuntimeError(
                            f"{table} not served {FAILOVER_DEADLINE:g} s after the kill: {reply}"
                        )
                    time.sleep(0.02)
                times.append(time.perf_counter() - killed)
                how = "swept" if swept else "asked"
                print(json.dumps({how: kill, "failover_s": round(times[-1], 3)}), flush=True)
                nodes[owner] = start_node(work, f"f-{owner}", store)
                owner, other = other, owner
        finally:
            for process, _info in nodes.values():
                process.kill()
                process.wait()
    return times


CONFIGURATIONS = {  # label -> (nodes, on SQLite)
    "1 node, SQLite": (1, True),
    "1 node": (1, False),
    "2 nodes": (2, False),
}


def run_order(rounds: int) -> list[str]:
    """The configurations in mirrored order (A B C C B A ...): a drift of the machine's load
    over the run falls on every configuration alike."""
    forward = list(CONFIGURATIONS)
    order: list[str] = []
    for index in range(rounds):
        order += forward if index % 2 == 0 else forward[::-1]
    return order


def averaged(runs: list[dict]) -> dict:
    """The mean of each figure over the rounds of one configuration."""
    return {
        key: statistics.fmean(run[key] for run in runs)
        for key, value in runs[0].items()
        if not isinstance(value, str)
    }


def section_body(
    rows: dict[str, dict],
    times: dict[str, list[float]],
    seconds: float,
    tables: int,
    rounds: int,
) -> str:
    from server.cluster.leases import DEFAULT_LEASE_SECONDS

    sqlite, one, two = (rows[label] for label in CONFIGURATIONS)
    lines = [
        f"Measured by `bench/cluster.py`: {tables} tables of 4 bots flat out, {CLIENTS} load",
        "client processes (the same in every run, let go at once), "
        f"{seconds:g} s measured per run,",
        f"{rounds} run(s) of each configuration in mirrored order, averaged; PostgreSQL 15 on",
        "this machine (`synchronous_commit` on), nodes with leases of "
        f"{THROUGHPUT_LEASE_SECONDS:g} s (the default 3 s",
        'is lost by a node starved of CPU: docs/scaling.md, "Leases under load");',
        "the baseline is one server on its own SQLite file (durable, `synchronous=FULL`). All",
        "of it shares 2 cores with whatever else runs on the machine: its load average is in",
        "the table, and the bench runs under `nice`.",
        "",
        "| run | commands/s (all nodes) | node CPU per command | PostgreSQL CPU per command "
        "| events per command | events/s | node cores used | load average | worst p99 |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for label, row in rows.items():
        postgres = "-" if CONFIGURATIONS[label][1] else f"{row['postgres_us_per_command']:,.0f} us"
        lines.append(
            f"| {label} | {row['commands_per_second']:,.0f} | "
            f"{row['us_per_command']:,.0f} us | {postgres} | "
            f"{row['events_per_command']:.2f} | {row['events_per_second']:,.0f} | "
            f"{row['server_cores']:.2f} | {row['load']:.1f} | {row['p99_ms']:,.0f} ms |"
        )
    spoiled = sum(row["leases_lost"] + row["closed"] for row in rows.values())

    def ratio(a: dict, b: dict, key: str) -> str:
        return f"{a[key] / max(b[key], 1e-9):.2f}"

    lines += [
        "",
        f"2 nodes / 1 node: {ratio(two, one, 'commands_per_second')} x the commands/s, "
        f"{ratio(two, one, 'us_per_command')} x the node CPU per command. A PostgreSQL node /",
        f"the SQLite server: {ratio(one, sqlite, 'us_per_command')} x the CPU per command. "
        "Events per command count",
        "every event appended (the tables' timers too) per player command. PostgreSQL CPU is",
        "that of the nodes' own backends (found by `application_name`), not its WAL writer.",
        f"Leases lost or connections closed during the runs: {spoiled:.0f}.",
        "",
        reading(rows),
        "",
        f"Failover (default lease {DEFAULT_LEASE_SECONDS:g} s, `kill -9` of the owner to the "
        f"other node serving the table), {len(times['asked'])} kills each way. Asked (a "
        "client `join`s on the other node every 20 ms): median "
        f"{statistics.median(times['asked']):.2f} s, max {max(times['asked']):.2f} s. Swept "
        "(nobody asks; the other node's sweep, every third of the lease, takes it): median "
        f"{statistics.median(times['swept']):.2f} s, max {max(times['swept']):.2f} s. The "
        "time is the lease running out, then the first request for the table or the next "
        "sweep (up to a third of the lease later); replaying the table (a few dozen events) "
        "and pausing it (`failover`) take milliseconds.",
    ]
    return "\n".join(lines)


def reading(rows: dict[str, dict]) -> str:
    """What the figures can say, given the CPU the nodes actually got."""
    most = max(row["server_cores"] for row in rows.values())
    if most >= 0.8:
        cores = os.cpu_count() or 1
        busiest = max(
            rows.values(),
            key=lambda row: row["server_cores"] + row["client_cores"] + row["postgres_cores"],
        )
        used = busiest["server_cores"] + busiest["client_cores"] + busiest["postgres_cores"]
        return (
            "The nodes were busy (up to "
            f"{most:.2f} cores): commands/s are near what they can do on this machine. "
            f"In the busiest run the nodes, the load clients and PostgreSQL's backends used "
            f"{used:.2f} of the machine's {cores} cores together ({busiest['server_cores']:.2f} "
            f"+ {busiest['client_cores']:.2f} + {busiest['postgres_cores']:.2f}, PostgreSQL's "
            "WAL writer and the kernel not counted): where that is near the machine's cores, "
            "a second node has no core of its own, so 2 nodes against 1 shows the machine's "
            "bound, not the design's; the CPU per command is what carries over to a machine "
            "with a core per node (docs/scaling.md)."
        )
    return (
        f"The nodes got at most {most:.2f} of a core between them (flat out, one node alone "
        "would use 1.0): the machine was starved, so the commands/s are the share it gave, "
        "and 2 nodes against 1 cannot show scaling here. What carries over is the CPU per "
        "command (a starved process pays more per command than a busy one, likely less work "
        'per wake-up and colder caches: compare the SQLite row with "Server load" flat out) '
        "and "
        "the ratios between rows of this run; docs/scaling.md works from them."
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="do not touch docs/")
    parser.add_argument("--quick", action="store_true", help="20 tables, 3 s, 1 round, 3 kills")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    parser.add_argument("--tables", type=int, default=100, help="tables (4 bots each)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each configuration")
    parser.add_argument("--kills", type=int, default=10, help="failovers to time")
    args = parser.parse_args()
    seconds = 3.0 if args.quick else args.seconds
    kills = 3 if args.quick else args.kills
    tables = 20 if args.quick else args.tables
    rounds = 1 if args.quick else args.rounds
    runs: dict[str, list[dict]] = {label: [] for label in CONFIGURATIONS}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for index, label in enumerate(run_order(rounds)):
            nodes, sqlite = CONFIGURATIONS[label]
            run = flat_out(work, nodes, seconds, tables, f"r{index}", sqlite=sqlite)
            runs[label].append(run)
            print(json.dumps({"run": label, **run}), flush=True)
        times = {
            "asked": failovers(work, kills),
            "swept": failovers(work, kills, swept=True),
        }
    rows = {label: averaged(found) for label, found in runs.items()}
    if not args.no_write:
        write_section(SECTION, section_body(rows, times, seconds, tables, rounds))
        print("wrote the Several nodes section of docs/performance.md")


if __name__ == "__main__":
    main()
