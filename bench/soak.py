"""Soak: 1,000 connections at tournament pace for 10 minutes, with abuse mixed in (issue 18).

    .venv/bin/python bench/soak.py [--seconds 600] [--warm-up 120] [--tables 166] [--no-write]

One `t24-server` process (SQLite in a temp dir, default settings) and one client process
(asyncio + `websockets`). The client opens, per table, a proctor, four players and a
spectator (6 x 166 = 996 connections, spread over the loopback addresses 127.0.0.2-9 as
players come from many hosts), and plays at tournament pace: `auto_proctor` places a card
3 s after the last one was resolved and reveals it 1 s later; on a reveal each player
touches with probability 1/2 after 0.3 to 2.5 s; the first toucher declares a pattern and
fixes a solution (from the solver) a second apart. Mixed in, from addresses of their own:
- a join storm: 5 spectators re-joining table 0 from `after_seq` 0, 40 times a second each
  (rate-limited, closed for abuse, cooled down, back again);
- a slow reader: a spectator of table 0 that asks for the whole history a few times and
  never reads (the server drops it past `max_unread_bytes`);
- a prober: a ping every 100 ms from 127.0.0.1, whose round trips give the p99.

Measured every 10 s: the server's RSS, the events its live tables hold in memory (the
`t24_events_in_memory` gauge) and the bytes of its cache of older pushes
(`t24_catch_up_cache_bytes`). The first `--warm-up` seconds (of `--seconds`) are the
warm-up: the first cards are dealt, the tables fill their windows of recent events
(`RECENT_EVENTS`), the allocator's arenas grow; its RSS is reported apart. Then the minute
after the warm-up ("start") is compared with the last minute ("end"), each the mean of its
samples: the prober's p50 and p99, the RSS and the events in memory. "Flat" means: the end
minute's RSS within `FLAT_MIB` of the start minute's, and the events held within the
tables' windows. Over the whole run: commands sent and accepted. Writes
the "Soak" section of docs/performance.md. Not in CI and not in `make bench`: it takes
`--seconds` plus about a minute of set-up; a shorter run (`--seconds 240 --warm-up 60
--no-write`) checks it works.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import msgpack  # noqa: E402
from perfdoc import write_section  # noqa: E402
from server_load import DECK, SEATS, SOLUTIONS, rss_kib  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from server.net.tokens import TokenSigner, load_or_create_secret  # noqa: E402
from server.runtime.table_actor import RECENT_EVENTS  # noqa: E402

SECTION = "## Soak (`bench/soak.py`, `make soak`)"
PACE = {"auto_proctor": 3.0, "auto_reveal_seconds": 1.0}
WINDOW = 60.0  # seconds: the minute after the warm-up and the last minute are compared
FLAT_MIB = 5.0  # RSS is flat when the end minute's is within this of the start minute's
DROPPED = "was dropped past max_unread_bytes"
STALLED = (
    "was not dropped: once its transport buffer was full the server stopped reading it, "
    "so no more of its joins were served and what it held stayed under max_unread_bytes "
    "(stalled, its memory bounded; a busier table's live pushes would have dropped it)"
)


def percentile(values: list[float], pct: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(pct / 100 * len(ordered)) - 1))]


class Client:
    """One WebSocket connection speaking t24 (requests with ids, pushes to a callback)."""

    def __init__(self, url: str, source: str, on_event: Any = None) -> None:
        self.url, self.source, self.on_event = url, source, on_event
        self.ws: Any = None
        self.next_id = 0
        self.waiting: dict[int, asyncio.Future] = {}

    async def open(self, token: str | None) -> Client:
        self.ws = await connect(
            self.url,
            subprotocols=["t24.v1"],
            local_addr=(self.source, 0),
            max_size=None,
            ping_interval=None,
            open_timeout=60,
        )
        asyncio.ensure_future(self._read())
        if token is not None:
            await self.request("hello", token=token)
        return self

    def send(self, kind: str, **fields: Any) -> int:
        self.next_id += 1
        asyncio.ensure_future(
            self.ws.send(msgpack.packb({"type": kind, "id": self.next_id, **fields}))
        )
        return self.next_id

    async def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        request_id = self.send(kind, **fields)
        future = self.waiting[request_id] = asyncio.get_running_loop().create_future()
        return await future

    async def patient(self, kind: str, **fields: Any) -> dict[str, Any]:
        """A set-up request: sent again after a pause while it is rate-limited."""
        while True:
            reply = await self.request(kind, **fields)
            if reply.get("code") != "rate_limited":
                return reply
            await asyncio.sleep(0.5)

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                message = msgpack.unpackb(frame)
                waiter = self.waiting.pop(message.get("id"), None)
                if waiter is not None and message["type"] != "event":
                    if not waiter.done():
                        waiter.set_result(message)
                elif message["type"] == "event" and self.on_event is not None:
                    self.on_event(message)
        except Exception:
            pass
        for waiter in self.waiting.values():
            if not waiter.done():
                waiter.set_result({"type": "closed"})


class Player:
    """A player at tournament pace (see module doc)."""

    def __init__(self, table: str, seat: str, counts: dict[str, int]) -> None:
        self.table, self.seat, self.counts = table, seat, counts
        self.client: Client | None = None
        self.card = ""

    def command(self, name: str, **args: Any) -> None:
        assert self.client is not None
        self.counts["sent"] += 1

        async def run() -> None:
            reply = await self.client.request("command", table=self.table, name=name, args=args)
            self.counts["accepted" if reply["type"] == "accepted" else "refused"] += 1

        asyncio.ensure_future(run())

    def later(self, delay: float, name: str, **args: Any) -> None:
        asyncio.get_running_loop().call_later(delay, lambda: self.command(name, **args))

    def on_event(self, message: dict[str, Any]) -> None:
        kind, data = message["event_type"], message["data"]
        if kind == "CardRevealed":
            self.card = data.get("card_id", "")
            if random.random() < 0.5:
                self.later(random.uniform(0.3, 2.5), "touch_card")
        elif kind == "CardTouched" and data.get("seat") == self.seat and self.card in SOLUTIONS:
            pattern, steps = SOLUTIONS[self.card]
            self.later(1.0, "declare_pattern", pattern=pattern)
            self.later(2.0, "fix_solution", steps=list(steps))


async def join_storm(url: str, token: str, stop: asyncio.Event, counts: dict[str, int]) -> None:
    """One spectator re-joining table 0 from seq 0, 40 times a second, reconnecting."""
    while not stop.is_set():
        try:
            client = await Client(url, "127.0.0.10").open(token)
            while not stop.is_set() and client.ws.state.name == "OPEN":
                client.send("join", table="t000", after_seq=0)
                counts["storm_joins"] += 1
                await asyncio.sleep(1 / 40)
            await client.ws.close()
        except Exception:
            pass
        await asyncio.sleep(1.0)


def slow_reader(port: int, token: str, stop: threading.Event) -> None:
    """A spectator of table 0 that asks for its whole history 5 times every 5 s and never
    reads a byte (see module doc); a thread, since its sends block once the server stops
    reading it."""
    from rawws import RawClient  # the e2e tests' raw client (tests/e2e on sys.path)

    raw = RawClient(port, receive_buffer=4096, source="127.0.0.11")
    raw.request("hello", token=token)
    try:
        while not stop.wait(5.0):
            for _ in range(5):
                raw.send("join", table="t000", after_seq=0)
    except OSError:
        pass  # dropped by the server
    finally:
        raw.close()


async def soak(url: str, port: int, signer: TokenSigner, args: argparse.Namespace, pid: int):
    now = time.time()
    counts = {"sent": 0, "accepted": 0, "refused": 0, "storm_joins": 0}
    director = await Client(url, "127.0.0.1").open(signer.issue("director", now=now)[0])
    options = {"seats": [{"seat": s, "name": s} for s in SEATS], "deck": DECK, **PACE}
    tables = [f"t{n:03d}" for n in range(args.tables)]
    for table in tables:
        reply = await director.patient("create_table", table=table, options=options)
        assert reply["type"] == "table_created", reply
    connections = 0
    for index, table in enumerate(tables):
        source = f"127.0.0.{2 + index % 8}"
        proctor = await Client(url, source).open(
            signer.issue("proctor", now=now, name="p", table=table)[0]
        )
        spectator = await Client(url, source).open(
            signer.issue("spectator", now=now, name="s", table=table)[0]
        )
        await spectator.request("join", table=table)
        connections += 2
        for seat in SEATS:
            player = Player(table, seat, counts)
            player.client = await Client(url, source, player.on_event).open(
                signer.issue("player", now=now, table=table, seat=seat)[0]
            )
            await player.client.request("join", table=table)
            connections += 1
        proctor.send("command", table=table, name="start_round")
    print(f"{connections} connections open, {len(tables)} tables playing", flush=True)

    stop = asyncio.Event()
    storm_token = signer.issue("spectator", now=now, name="storm", table="t000")[0]
    storms = [asyncio.ensure_future(join_storm(url, storm_token, stop, counts)) for _ in range(5)]
    sleeping = threading.Event()
    sleeper = threading.Thread(
        target=slow_reader,
        args=(port, signer.issue("spectator", now=now, name="z", table="t000")[0], sleeping),
        daemon=True,
    )
    sleeper.start()
    prober = await Client(url, "127.0.0.1").open(  # says hello: else closed after 10 s
        signer.issue("spectator", now=now, name="prober")[0]
    )
    samples: list[tuple[float, float]] = []
    memory: list[tuple[float, int, int, int]] = []  # (t, RSS KiB, events held, cache bytes)
    started = time.monotonic()
    next_sample = started

    async def sample_memory() -> None:
        scraped = await asyncio.to_thread(read_metrics, port)
        held = int(scraped.get("t24_events_in_memory", 0))
        cached = int(scraped.get("t24_catch_up_cache_bytes", 0))
        memory.append((time.monotonic() - started, rss_kib(pid), held, cached))

    set_up_rss = rss_kib(pid)
    while time.monotonic() - started < args.seconds:
        sent = time.perf_counter()
        reply = await asyncio.wait_for(prober.request("ping"), timeout=30)
        if reply["type"] == "pong":
            samples.append((time.monotonic() - started, time.perf_counter() - sent))
        if time.monotonic() >= next_sample:
            await sample_memory()
            next_sample += 10.0
        await asyncio.sleep(0.1)
    await sample_memory()
    stop.set()
    await asyncio.gather(*storms, return_exceptions=True)
    metrics = await asyncio.to_thread(read_metrics, port)
    sleeping.set()
    end, warm = args.seconds, args.warm_up
    first = [rtt for t, rtt in samples if warm <= t < warm + WINDOW]
    last = [rtt for t, rtt in samples if t >= end - WINDOW]
    at_start = [m for m in memory if warm <= m[0] <= warm + WINDOW] or memory[:1]
    at_end = [m for m in memory if m[0] >= end - WINDOW] or memory[-1:]

    def mean(samples: list[tuple[float, int, int, int]], field: int) -> float:
        return sum(sample[field] for sample in samples) / len(samples)

    return {
        "connections": connections + 5 + 1 + 1 + 1,
        "tables": len(tables),
        "seconds": args.seconds,
        "warm_up": warm,
        "p99_start_ms": percentile(first, 99) * 1000,
        "p99_end_ms": percentile(last, 99) * 1000,
        "p50_start_ms": percentile(first, 50) * 1000,
        "p50_end_ms": percentile(last, 50) * 1000,
        "rss_set_up_mib": set_up_rss / 1024,
        "rss_start_mib": mean(at_start, 1) / 1024,
        "rss_end_mib": mean(at_end, 1) / 1024,
        "rss_max_mib": max(sample[1] for sample in memory) / 1024,
        "held_start": round(mean(at_start, 2)),
        "held_end": round(mean(at_end, 2)),
        "held_max": max(sample[2] for sample in memory),
        "window_bound": len(tables) * RECENT_EVENTS,
        "cache_end_mib": memory[-1][3] / 1024 / 1024,
        "events": int(metrics.get("t24_events_appended_total", 0)),
        **counts,
    }


def read_metrics(port: int) -> dict[str, float]:
    """The server's plain (unlabelled) metrics, from /metrics."""
    import urllib.request

    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=30) as answer:
        text = answer.read().decode()
    values = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if line and not line.startswith("#") and "{" not in name:
            values[name] = float(value)
    return values


def report(result: dict[str, Any], dropped: bool) -> str:
    grown = result["rss_end_mib"] - result["rss_start_mib"]
    flat = abs(grown) <= FLAT_MIB and result["held_max"] <= result["window_bound"]
    return "\n".join(
        [
            f"{result['connections']:,} connections ({result['tables']} tables of a proctor, "
            f"four players and a spectator, plus a 5-connection join storm, a slow reader, "
            f"the director and a prober) for {result['seconds'] / 60:.0f} minutes, one server "
            "process on SQLite, on the shared 2-core machine (`bench/soak.py`). Players play "
            "at tournament pace (module doc). Warm-up: the first "
            f"{result['warm_up']:.0f} s, RSS {result['rss_set_up_mib']:.0f} MiB when every "
            "connection was open; then the minute after it (start) and the last minute (end), "
            "each the mean of its samples (one every 10 s):",
            "",
            "| | start | end |",
            "|---|---|---|",
            f"| prober ping p50 | {result['p50_start_ms']:.1f} ms "
            f"| {result['p50_end_ms']:.1f} ms |",
            f"| prober ping p99 | {result['p99_start_ms']:.1f} ms "
            f"| {result['p99_end_ms']:.1f} ms |",
            f"| server RSS | {result['rss_start_mib']:.0f} MiB | {result['rss_end_mib']:.0f} MiB |",
            f"| events held by the live tables (`t24_events_in_memory`) | "
            f"{result['held_start']:,} | {result['held_end']:,} |",
            "",
            f"RSS from start to end: {grown:+.1f} MiB; "
            + (
                f"flat (within {FLAT_MIB:.0f} MiB, and the events held never above the "
                f"tables' windows: at most {result['held_max']:,} of {result['window_bound']:,})"
                if flat
                else f"NOT flat (the bound: within {FLAT_MIB:.0f} MiB, events held at most "
                f"{result['window_bound']:,}; held at most {result['held_max']:,})"
            )
            + f". Peak RSS {result['rss_max_mib']:.0f} MiB; the cache of older pushes held "
            f"{result['cache_end_mib']:.1f} MiB at the end. Commands sent {result['sent']:,}, "
            f"accepted {result['accepted']:,}, refused {result['refused']:,} (a touch after "
            f"another player's, as in play); storm joins sent {result['storm_joins']:,} (most "
            "rate-limited, the storm closed for abuse and cooled down again and again); the "
            f"slow reader {DROPPED if dropped else STALLED}. Events appended: "
            f"{result['events']:,}.",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=600.0, help="the whole run")
    parser.add_argument("--warm-up", type=float, default=120.0, help="of --seconds")
    parser.add_argument("--tables", type=int, default=166)
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests" / "e2e"))
    with tempfile.TemporaryDirectory() as directory:
        ready, secret = Path(directory, "ready.json"), Path(directory, "t24.secret")
        log = open(Path(directory, "server.log"), "w")  # noqa: SIM115
        server = subprocess.Popen(
            [sys.executable, "-m", "server", "--store", f"sqlite:///{directory}/t24.sqlite",
             "--port", "0", "--secret-file", str(secret), "--ready-file", str(ready),
             "--log-format", "json"],
            cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
            env={k: v for k, v in os.environ.items() if not k.startswith("T24_")},
        )  # fmt: skip
        try:
            while not ready.exists():
                if server.poll() is not None:
                    raise SystemExit("t24-server exited early")
                time.sleep(0.05)
            info = json.loads(ready.read_text())
            signer = TokenSigner(load_or_create_secret(str(secret)))
            result = asyncio.run(soak(info["url"], info["port"], signer, args, server.pid))
            dropped = "unread past the buffer" in Path(directory, "server.log").read_text()
        finally:
            server.terminate()
            server.wait(timeout=30)
            log.close()
    body = report(result, dropped)
    print(body)
    if not args.no_write:
        write_section(SECTION, body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
