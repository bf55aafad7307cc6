"""Benchmark: a burst of heavy work beside paced play (issue 32). Does a table's p99 move?

    .venv/bin/python bench/burst.py [--no-write] [--quick] [--seconds S] [--tables N]

In one run, three fresh `t24-server` processes (SQLite, durable), each with N tables (100;
400 bot connections) playing paced, as in `bench/server_load.py`, measured for S seconds:
1. idle: nothing else happens (the baseline of this run);
2. round start: a tournament of 2,000 students in one grade (imported and seated before the
   measured seconds) starts round 1 one second into them: 500 tables created at once, each
   with its 48-card deck, started, and listened to by the tournament;
3. pocket: a pocket table of the Double Digits edition is created without a seed (the
   server draws a fresh one, so no deck of it is cached anywhere) and started, one second
   into the measured seconds: its 24-card stack comes from a deck the solver must draw.
Reported for each: the paced bots' command -> event p50 / p99 / max (ms), the server's CPU,
and how long the burst took (the 500 tables live, or the pocket table started). Goal: p99
under 50 ms in 2 and 3. Writes the "Bursts beside paced play" section of
docs/performance.md. All of it shares the machine's cores with whatever else runs: the idle
run of the same invocation is the comparison.
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from perfdoc import write_section  # noqa: E402
from server_load import LoadClient, cpu_seconds, start_process  # noqa: E402

SECTION = "## Bursts beside paced play (`bench/burst.py`)"
STUDENTS = 2000  # a 2,000-student tournament: 500 round-1 tables
IMPORT_ROWS = 400  # students per `import_students` (a request stays under 64 KiB)
BURST_AFTER_S = 1.0  # into the measured seconds
KINDS = ("idle", "round start", "pocket")
GOAL_MS = 50.0


class Director:
    """A director's own connection (websockets, sync) beside the load client: requests in
    order, each answered before the next."""

    def __init__(self, url: str, secret_file: Path) -> None:
        from websockets.sync.client import connect

        from server.net.tokens import TokenSigner, load_or_create_secret

        self.ws = connect(url, subprotocols=["t24.v1"], open_timeout=30, max_size=2**24)
        self.next_id = 1
        token = TokenSigner(load_or_create_secret(secret_file)).issue("director", now=time.time())
        self.request({"type": "hello", "token": token[0]})

    def request(self, message: dict, timeout: float = 120.0) -> dict:
        from protocol.codec import decode, encode

        request_id, self.next_id = self.next_id, self.next_id + 1
        self.ws.send(encode({**message, "id": request_id}))
        deadline = time.monotonic() + timeout
        while True:
            reply = decode(self.ws.recv(timeout=max(0.1, deadline - time.monotonic())))
            if reply.get("id") == request_id:
                if reply["type"] == "error":
                    raise RuntimeError(f"{message.get('name') or message['type']}: {reply}")
                return reply

    def command(self, table: str, name: str, **args) -> dict:
        return self.request({"type": "command", "table": table, "name": name, "args": args})

    def close(self) -> None:
        self.ws.close()


def live_tables(port: int) -> int:
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as answer:
        for line in answer.read().decode().splitlines():
            if line.startswith("t24_live_tables "):
                return int(float(line.split()[1]))
    return 0


def histograms(port: int) -> dict[str, list[tuple[float, float]]]:
    """The server's command and append latency histograms (bucket bound, count so far)."""
    import urllib.request

    from prometheus_client.parser import text_string_to_metric_families

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as answer:
        text = answer.read().decode()
    found = {}
    for family in text_string_to_metric_families(text):
        if family.name in ("t24_command_latency_seconds", "t24_append_latency_seconds"):
            found[family.name] = [
                (float(s.labels["le"]), s.value)
                for s in family.samples
                if s.name == family.name + "_bucket"
            ]
    return found


def server_p99(before: dict, after: dict) -> dict[str, float]:
    """p99 (bucket bound, ms) of each histogram over the measured seconds only."""
    figures = {}
    for name, buckets in after.items():
        counts = [(bound, n - m) for (bound, n), (_b, m) in zip(buckets, before[name], strict=True)]
        total = counts[-1][1] or 1
        bound = next(b for b, n in counts if n >= 0.99 * total)
        figures[name.split("_")[1] + "_p99_ms"] = bound * 1000
    return figures


def prepare_tournament(director: Director) -> None:
    """A tournament of `STUDENTS` in one grade, registered and seated for round 1."""
    from clients.reference_cli.tournament_sim import students_csv

    # its tables wait for their proctors (no auto-proctor): the burst is their creation
    options = {"name": "Burst", "date": "2026-12-02", "grades": ["4th"], "deck_seed": 7}
    create = {"type": "create_table", "game": "tournament", "table": "tournament/burst"}
    reply = director.request({**create, "options": options})
    assert reply["type"] == "table_created", reply
    header, *rows = students_csv(STUDENTS, ["4th"], 7).splitlines()
    for start in range(0, len(rows), IMPORT_ROWS):
        chunk = "\n".join([header, *rows[start : start + IMPORT_ROWS]]) + "\n"
        director.command("tournament/burst", "import_students", csv=chunk)
    director.command("tournament/burst", "close_registration")
    director.command("tournament/burst", "seat_round", round=1)


def burst(kind: str, director: Director, port: int, before: int) -> float:
    """Set the burst off; seconds until it is done."""
    started = time.perf_counter()
    if kind == "round start":
        director.command("tournament/burst", "start_round", round=1)
        while live_tables(port) < before + STUDENTS // 4:
            time.sleep(0.1)
    elif kind == "pocket":
        options = {"edition": "double-digits", "seats": [{"seat": "s1", "name": "Ada"}]}
        reply = director.request(
            {"type": "create_table", "game": "pocket", "table": "pocket-dd", "options": options}
        )
        assert reply["type"] == "table_created", reply
        director.command("pocket-dd", "start_game")
    return time.perf_counter() - started


def run(work: Path, kind: str, seconds: float, tables: int) -> dict:
    run_dir = work / kind.replace(" ", "-")
    run_dir.mkdir()
    ready = run_dir / "ready.json"
    command = [sys.executable, "-m", "server", "--port", "0", "--log-level", "warn"]
    command += ["--rate-per-second", "10000", "--rate-burst", "10000"]
    command += ["--max-connections-per-address", "5000"]
    command += ["--store", f"sqlite:///{run_dir / 't24.sqlite'}"]
    command += ["--secret-file", str(run_dir / "s"), "--ready-file", str(ready)]
    server, info = start_process(command, ready, run_dir)
    director = None
    client = None
    try:
        director = Director(info["url"], run_dir / "s")
        if kind == "round start":
            prepare_tournament(director)
        client = LoadClient(
            info["url"], "t24", seconds, tables=tables, secret_file=run_dir / "s", flat_out=0
        )
        client.idle()
        before = live_tables(info["port"])
        latency0 = histograms(info["port"])
        cpu0, wall0 = cpu_seconds(info["pid"]), time.perf_counter()
        client.go()
        took: dict[str, float] = {}
        warm_up = 6.0  # the load client's (paced: 1.5 periods of 4 s)

        def set_off() -> None:
            time.sleep(warm_up + BURST_AFTER_S)
            took["s"] = burst(kind, director, info["port"], before)

        burster = threading.Thread(target=set_off, daemon=True)
        if kind != "idle":
            burster.start()
        figures = client.result()
        if kind != "idle":
            burster.join(timeout=300)
        figures["server_cpu"] = (cpu_seconds(info["pid"]) - cpu0) / (time.perf_counter() - wall0)
        figures["burst_s"] = took.get("s")
        figures.update(server_p99(latency0, histograms(info["port"])))
        figures["kind"] = kind
        return figures
    finally:
        if client is not None:
            client.kill()
        if director is not None:
            director.close()
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=60)


def section_body(rows: list[dict], seconds: float, tables: int) -> str:
    import os

    lines = [
        f"Measured by `bench/burst.py`: {tables} tables ({4 * tables} bot connections) playing "
        f'paced as in "Server load" for {seconds:g} s, a fresh server per row, SQLite; the '
        f"burst set off {BURST_AFTER_S:g} s into the measured seconds. Load average "
        f"{os.getloadavg()[0]:.1f} at the end, {time.strftime('%Y-%m-%d %H:%M', time.gmtime())} "
        "UTC (other work shares the 2 cores).",
        "",
        "| burst | command -> event p50 / p99 / max | server: command p99, append p99 "
        "| server CPU | the burst took |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        took = "-" if row["burst_s"] is None else f"{row['burst_s']:.1f} s"
        lines.append(
            f"| {row['kind']} | {row['p50_ms']:.1f} / {row['p99_ms']:.1f} / "
            f"{row['max_ms']:.0f} ms | <= {row['command_p99_ms']:g} ms, "
            f"<= {row['append_p99_ms']:g} ms | {row['server_cpu']:.2f} core | {took} |"
        )
    lines += [
        "",
        f"Round start: a {STUDENTS:,}-student tournament's round 1 ({STUDENTS // 4} tables "
        "created and started at once); pocket: a Double Digits pocket table created without a "
        "seed and started (its deck drawn by the server's worker process, "
        "server/runtime/offload.py). Goal (issue 32): p99 under "
        f"{GOAL_MS:g} ms during both bursts. The server's own figures are its /metrics "
        "histograms over the measured seconds (bucket bounds): the time from a command's "
        "arrival to its events' publication, and one durable append.",
        "",
        reading(rows),
    ]
    return "\n".join(lines)


def reading(rows: list[dict]) -> str:
    """What this run can say: each burst's p99 against the idle run's, and the goal only
    where the idle run itself was under it (else the machine, not the burst, decided)."""
    by_kind = {row["kind"]: row for row in rows}
    idle = by_kind.get("idle")
    if idle is None:
        return ""
    ratios = ", ".join(
        f"{kind} {by_kind[kind]['p99_ms'] / idle['p99_ms']:.2f} x"
        for kind in KINDS[1:]
        if kind in by_kind
    )
    text = f"p99 during each burst against the idle run's: {ratios}. "
    if idle["p99_ms"] >= GOAL_MS:
        return text + (
            f"The idle run's own p99 ({idle['p99_ms']:.0f} ms, its appends' p99 <= "
            f"{idle['append_p99_ms']:g} ms: the shared disk's fsyncs) is over the goal, so this "
            "run cannot show the goal; what it shows is whether a burst moved p99 beyond what "
            "the machine gave the idle server."
        )
    met = all(by_kind[kind]["p99_ms"] < GOAL_MS for kind in KINDS[1:] if kind in by_kind)
    return text + ("Goal: **met**." if met else "Goal: **not met**.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-write", action="store_true", help="do not touch docs/")
    parser.add_argument("--quick", action="store_true", help="20 tables, 8 s")
    parser.add_argument("--seconds", type=float, default=12.0, help="measured seconds per run")
    parser.add_argument("--tables", type=int, default=100, help="paced tables (4 bots each)")
    parser.add_argument("--only", choices=KINDS, action="append", help="run only these")
    args = parser.parse_args()
    seconds, tables = (8.0, 20) if args.quick else (args.seconds, args.tables)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for kind in args.only or KINDS:
            figures = run(Path(tmp), kind, seconds, tables)
            rows.append(figures)
            print(json.dumps(figures), flush=True)
    if not args.no_write and not args.only:
        write_section(SECTION, section_body(rows, seconds, tables))
        print("wrote the Bursts beside paced play section of docs/performance.md")


if __name__ == "__main__":
    main()
