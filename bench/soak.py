"""Soak: a tournament day's churn at tournament pace for 30 minutes (issues 18 and 33).

    .venv/bin/python bench/soak.py [--minutes 30] [--warm-up-minutes 15] [--tables 166]
                                   [--cards 12] [--no-write]

One `t24-server` process (SQLite in a temp dir, default settings) and one client process
(asyncio + `websockets`). The client keeps `--tables` tables in play, one after another in
each slot: the director creates a table with a short deck (`--cards` cards), a proctor, four
players and a spectator connect and join (spread over the loopback addresses 127.0.0.2-9 as
players come from many hosts), they play it at tournament pace to its end, the proctor signs
the score card (the table is over: the server evicts it once nobody has joined it for
`evict_after`, 10 minutes), everyone disconnects, and the slot starts its next table. So
tables finish and new ones start all the time, about one a second with the defaults. The
pace: `auto_proctor` places a card 3 s after the last one was resolved and reveals it 1 s
later; on a reveal each player touches with probability 1/2 after 0.3 to 2.5 s; the first
toucher declares a pattern and fixes a solution (from the solver) a second apart. Mixed in,
from addresses of their own:
- a join storm: 5 spectators re-joining the table of slot 0 from `after_seq` 0, 40 times a
  second each (rate-limited, closed for abuse, cooled down, back again);
- a slow reader: a spectator of that table that asks for the whole history a few times and
  never reads (its catch-up stalls; the server's keep-alive drops it);
- a prober: a ping every 100 ms from 127.0.0.1, whose round trips give the p99.

Measured every 10 s: the server's RSS, the live tables (`t24_live_tables`: in play, and
finished ones not evicted yet), the events they hold in memory (`t24_events_in_memory`) and
the bytes of its cache of older pushes (`t24_catch_up_cache_bytes`). The first
`--warm-up-minutes` are the warm-up: the slots fill, the first tables finish, and the
finished ones accumulate until the first are evicted (`evict_after` plus a sweep); its RSS
is reported apart. Then the minute after the warm-up ("start") is compared with the last
minute ("end"), each the mean of its samples: the prober's p50 and p99, the RSS, the live
tables and the events in memory. "Flat" means: the end minute's RSS within `FLAT_SHARE`
(10%) of the start minute's, and the events held within the live tables' windows. Over the
whole run: tables started and finished, commands sent and accepted. Writes the "Soak"
section of docs/performance.md. Not in CI and not in `make bench`: it takes `--minutes`
plus a minute of set-up, and much CPU (run it with `nice`); a shorter run (`--minutes 4
--warm-up-minutes 1 --no-write`) checks it works and shows the trend.
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
from server_load import SEATS, cpu_seconds, deck, rss_kib, solutions  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

from server.net.tokens import TokenSigner, load_or_create_secret  # noqa: E402
from server.runtime.table_actor import RECENT_EVENTS  # noqa: E402

SECTION = "## Soak (`bench/soak.py`, `make soak`)"
PACE = {"auto_proctor": 3.0, "auto_reveal_seconds": 1.0, "stumped_cards": "set_aside"}
WINDOW = 60.0  # seconds: the minute after the warm-up and the last minute are compared
FLAT_SHARE = 0.10  # RSS is flat when the end minute's is within 10% of the start minute's
SAMPLE_EVERY = 10.0  # seconds between two samples of the server's memory
TABLE_TIMEOUT = 600.0  # seconds a table may take to its end before its slot gives it up
DROPPED = "was dropped past max_unread_bytes"
STALLED = "was dropped by the keep-alive (its catch-up stalled, its memory bounded)"


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

    async def open(self, token: str | None, attempts: int = 3) -> Client:
        """Connect (again after a second, at most `attempts` times: on a loaded machine a
        handshake may miss the server's deadline) and say hello."""
        for attempt in range(attempts):
            try:
                self.ws = await connect(
                    self.url,
                    subprotocols=["t24.v1"],
                    local_addr=(self.source, 0),
                    max_size=None,
                    ping_interval=None,
                    open_timeout=60,
                )
                break
            except Exception:
                if attempt == attempts - 1:
                    raise
                await asyncio.sleep(1.0)
        asyncio.ensure_future(self._read())
        if token is not None:
            await self.request("hello", token=token)
        return self

    def send(self, kind: str, **fields: Any) -> int:
        self.next_id += 1
        asyncio.ensure_future(
            self._send(msgpack.packb({"type": kind, "id": self.next_id, **fields}))
        )
        return self.next_id

    async def _send(self, frame: bytes) -> None:
        try:
            await self.ws.send(frame)
        except Exception:  # closed meanwhile (its table ended): the reply waits as "closed"
            pass

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

    async def close(self) -> None:
        try:
            await self.ws.close()
        except Exception:
            pass

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
        self.calls: list[asyncio.TimerHandle] = []

    def command(self, name: str, **args: Any) -> None:
        assert self.client is not None
        self.counts["sent"] += 1

        async def run() -> None:
            reply = await self.client.request("command", table=self.table, name=name, args=args)
            outcome = {"accepted": "accepted", "closed": "unanswered"}.get(reply["type"])
            self.counts[outcome or "refused"] += 1

        asyncio.ensure_future(run())

    def later(self, delay: float, name: str, **args: Any) -> None:
        loop = asyncio.get_running_loop()
        self.calls.append(loop.call_later(delay, lambda: self.command(name, **args)))

    def stop(self) -> None:
        for call in self.calls:
            call.cancel()

    def on_event(self, message: dict[str, Any]) -> None:
        kind, data = message["event_type"], message["data"]
        if kind == "CardRevealed":
            self.card = data.get("card_id", "")
            if random.random() < 0.5:
                self.later(random.uniform(0.3, 2.5), "touch_card")
        elif kind == "CardTouched" and data.get("seat") == self.seat and self.card in solutions():
            pattern, steps = solutions()[self.card]
            self.later(1.0, "declare_pattern", pattern=pattern)
            self.later(2.0, "fix_solution", steps=list(steps))


class Slot:
    """One table after another, each played to its signed end (see module doc)."""

    def __init__(self, index: int, url: str, signer: TokenSigner, director: Client, run: Run):
        self.index, self.url, self.signer, self.director, self.run = (
            index,
            url,
            signer,
            director,
            run,
        )
        self.source = f"127.0.0.{2 + index % 8}"
        self.table = ""  # the table in play (the storm and the slow reader follow slot 0's)

    async def loop(self) -> None:
        number = 0
        while not self.run.stop.is_set():
            number += 1
            table = f"t{self.index:03d}-{number:04d}"
            try:
                await self.play(table)
            except Exception as exc:  # noqa: BLE001 - counted and reported, the slot goes on
                self.run.counts["table_errors"] += 1
                self.run.errors.append(f"{type(exc).__name__}: {exc}")
                await self.abandon(table)

    async def abandon(self, table: str) -> None:
        """A table that could not be played to its end is ended and signed by a proctor of
        its own (as a real one would), so that it is evicted like the others instead of
        staying in memory, unsigned, for the rest of the run."""
        try:
            token = self.signer.issue("proctor", now=time.time(), name="p", table=table)[0]
            proctor = await Client(self.url, self.source).open(token)
            await proctor.patient("command", table=table, name="end_round")
            await proctor.patient(
                "command", table=table, name="sign_score_card", args={"initials": "PP"}
            )
            await proctor.close()
        except Exception:  # noqa: BLE001 - a table never created, or a server too busy
            await asyncio.sleep(1.0)

    async def play(self, table: str) -> None:
        run, signer, now = self.run, self.signer, time.time()
        created = await self.director.patient("create_table", table=table, options=run.options)
        assert created["type"] == "table_created", created
        run.counts["tables_started"] += 1
        ended = asyncio.get_running_loop().create_future()

        def on_proctor_event(message: dict[str, Any]) -> None:
            if message["event_type"] == "RoundEnded" and not ended.done():
                ended.set_result(message["seq"])

        clients: list[Client] = []
        players: list[Player] = []
        try:
            proctor = await Client(self.url, self.source, on_proctor_event).open(
                signer.issue("proctor", now=now, name="p", table=table)[0]
            )
            clients.append(proctor)
            spectator = await Client(self.url, self.source).open(
                signer.issue("spectator", now=now, name="s", table=table)[0]
            )
            clients.append(spectator)
            await spectator.patient("join", table=table)
            for seat in SEATS:
                player = Player(table, seat, run.counts)
                player.client = await Client(self.url, self.source, player.on_event).open(
                    signer.issue("player", now=now, table=table, seat=seat)[0]
                )
                clients.append(player.client)
                players.append(player)
                await player.client.patient("join", table=table)
            await proctor.patient("join", table=table)
            self.table = table
            started = await proctor.patient("command", table=table, name="start_round")
            assert started["type"] == "accepted", started
            await asyncio.wait_for(ended, TABLE_TIMEOUT)
            signed = await proctor.patient(
                "command", table=table, name="sign_score_card", args={"initials": "PP"}
            )
            assert signed["type"] == "accepted", signed
            run.counts["tables_finished"] += 1
        finally:
            for player in players:
                player.stop()
            await asyncio.gather(*(client.close() for client in clients))


class Run:
    """What the slots share: the options, the counts, the stop signal."""

    def __init__(self, cards: int) -> None:
        options = {"seats": [{"seat": s, "name": s} for s in SEATS], "deck": deck()[:cards]}
        self.options = {**options, **PACE}
        self.counts = {
            "sent": 0,
            "accepted": 0,
            "refused": 0,
            "unanswered": 0,
            "storm_joins": 0,
            "tables_started": 0,
            "tables_finished": 0,
            "table_errors": 0,
        }
        self.errors: list[str] = []
        self.stop = asyncio.Event()


async def join_storm(url: str, token: str, slot: Slot, run: Run) -> None:
    """One spectator re-joining slot 0's table from seq 0, 40 times a second, reconnecting."""
    while not run.stop.is_set():
        try:
            client = await Client(url, "127.0.0.10").open(token)
            while not run.stop.is_set() and client.ws.state.name == "OPEN":
                if slot.table:
                    client.send("join", table=slot.table, after_seq=0)
                    run.counts["storm_joins"] += 1
                await asyncio.sleep(1 / 40)
            await client.close()
        except Exception:
            pass
        await asyncio.sleep(1.0)


def slow_reader(port: int, token: str, slot: Slot, stop: threading.Event) -> None:
    """A spectator of slot 0's table that asks for its whole history 5 times every 5 s and
    never reads a byte (see module doc); a thread, since its sends block once the server
    stops reading it."""
    from rawws import RawClient  # the e2e tests' raw client (tests/e2e on sys.path)

    raw = RawClient(port, receive_buffer=4096, source="127.0.0.11")
    raw.request("hello", token=token)
    try:
        while not stop.wait(5.0):
            for _ in range(5):
                raw.send("join", table=slot.table, after_seq=0)
    except OSError:
        pass  # dropped by the server
    finally:
        raw.close()


async def soak(url: str, port: int, signer: TokenSigner, args: argparse.Namespace, pid: int):
    now = time.time()
    run = Run(args.cards)
    director = await Client(url, "127.0.0.1").open(signer.issue("director", now=now)[0])
    slots = [Slot(index, url, signer, director, run) for index in range(args.tables)]
    tasks = []
    for slot in slots:  # started a little apart, so that the tables do not end together
        tasks.append(asyncio.ensure_future(slot.loop()))
        await asyncio.sleep(0.2)
    print(f"{len(slots)} table slots playing", flush=True)
    watcher = signer.issue("spectator", now=now, name="storm")[0]  # any table
    storms = [asyncio.ensure_future(join_storm(url, watcher, slots[0], run)) for _ in range(5)]
    sleeping = threading.Event()
    sleeper = threading.Thread(
        target=slow_reader,
        args=(port, signer.issue("spectator", now=now, name="z")[0], slots[0], sleeping),
        daemon=True,
    )
    sleeper.start()
    prober = await Client(url, "127.0.0.1").open(  # says hello: else closed after 10 s
        signer.issue("spectator", now=now, name="prober")[0]
    )
    samples: list[tuple[float, float]] = []
    memory: list[tuple[float, int, int, int, int]] = []  # (t, RSS KiB, tables, events, cache)
    started = time.monotonic()
    next_sample = started
    seconds = args.minutes * 60

    async def sample_memory() -> None:
        scraped = await asyncio.to_thread(read_metrics, port)
        tables = int(scraped.get("t24_live_tables", 0))
        held = int(scraped.get("t24_events_in_memory", 0))
        cached = int(scraped.get("t24_catch_up_cache_bytes", 0))
        elapsed = time.monotonic() - started
        memory.append((elapsed, rss_kib(pid), tables, held, cached))
        print(
            f"{elapsed:6.0f} s  RSS {memory[-1][1] / 1024:6.1f} MiB  live tables {tables:5d}  "
            f"events held {held:7,d}  finished {run.counts['tables_finished']:6,d}",
            flush=True,
        )

    set_up_rss = rss_kib(pid)
    loads = [os.getloadavg()[0]]
    server_cpu, client_cpu = cpu_seconds(pid), time.process_time()
    while time.monotonic() - started < seconds:
        sent = time.perf_counter()
        reply = await asyncio.wait_for(prober.request("ping"), timeout=30)
        if reply["type"] == "pong":
            samples.append((time.monotonic() - started, time.perf_counter() - sent))
        if time.monotonic() >= next_sample:
            await sample_memory()
            loads.append(os.getloadavg()[0])
            next_sample += SAMPLE_EVERY
        await asyncio.sleep(0.1)
    await sample_memory()
    server_cpu, client_cpu = cpu_seconds(pid) - server_cpu, time.process_time() - client_cpu
    run.stop.set()
    for task in (*tasks, *storms):
        task.cancel()
    await asyncio.gather(*tasks, *storms, return_exceptions=True)
    metrics = await asyncio.to_thread(read_metrics, port)
    sleeping.set()
    end, warm = seconds, args.warm_up_minutes * 60
    first = [rtt for t, rtt in samples if warm <= t < warm + WINDOW]
    last = [rtt for t, rtt in samples if t >= end - WINDOW]
    at_start = [m for m in memory if warm <= m[0] <= warm + WINDOW] or memory[:1]
    at_end = [m for m in memory if m[0] >= end - WINDOW] or memory[-1:]
    after_warm_up = [m for m in memory if m[0] >= warm] or memory

    def mean(samples: list[tuple[float, int, int, int, int]], field: int) -> float:
        return sum(sample[field] for sample in samples) / len(samples)

    return {
        "slots": len(slots),
        "cards": args.cards,
        "minutes": args.minutes,
        "warm_up_minutes": args.warm_up_minutes,
        "p99_start_ms": percentile(first, 99) * 1000,
        "p99_end_ms": percentile(last, 99) * 1000,
        "p50_start_ms": percentile(first, 50) * 1000,
        "p50_end_ms": percentile(last, 50) * 1000,
        "rss_set_up_mib": set_up_rss / 1024,
        "rss_start_mib": mean(at_start, 1) / 1024,
        "rss_end_mib": mean(at_end, 1) / 1024,
        "rss_max_mib": max(sample[1] for sample in after_warm_up) / 1024,
        "rss_min_mib": min(sample[1] for sample in after_warm_up) / 1024,
        "tables_start": round(mean(at_start, 2)),
        "tables_end": round(mean(at_end, 2)),
        "held_start": round(mean(at_start, 3)),
        "held_end": round(mean(at_end, 3)),
        "held_bound_ok": all(sample[3] <= sample[2] * RECENT_EVENTS for sample in memory),
        "cache_end_mib": memory[-1][4] / 1024 / 1024,
        "events": int(metrics.get("t24_events_appended_total", 0)),
        "errors": run.errors[:5],
        "load_mean": sum(loads) / len(loads),
        "server_cpu": server_cpu / seconds,  # of one core, over the run
        "client_cpu": client_cpu / seconds,
        "load_max": max(loads),
        **run.counts,
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
    share = grown / result["rss_start_mib"]
    flat = abs(share) <= FLAT_SHARE and result["held_bound_ok"]
    return "\n".join(
        [
            f"{result['slots']} tables in play at a time for {result['minutes']:.0f} minutes, "
            "each a short round of "
            f"{result['cards']} cards played to its end and signed, then a new table in its "
            "place with new connections (a proctor, four players and a spectator: "
            f"{result['slots'] * 6:,} connections at a time), plus a 5-connection join storm, "
            "a slow reader, the director and a prober; one server process on SQLite with the "
            "default settings (finished tables evicted after 10 minutes), on the shared "
            f"2-core machine (load average {result['load_mean']:.1f} on the mean, at most "
            f"{result['load_max']:.1f}; the server used {result['server_cpu']:.0%} of a "
            f"core, this client {result['client_cpu']:.0%}; `bench/soak.py`, module doc). "
            "Tables started "
            f"{result['tables_started']:,}, finished {result['tables_finished']:,}. Warm-up: "
            f"the first {result['warm_up_minutes']:.0f} minutes (RSS "
            f"{result['rss_set_up_mib']:.0f} MiB when the slots were filled; then finished "
            "tables accumulate until the first are evicted); then the minute after it "
            "(start) and the last minute (end), each the mean of its samples (one every "
            f"{SAMPLE_EVERY:.0f} s):",
            "",
            "| | start | end |",
            "|---|---|---|",
            f"| prober ping p50 | {result['p50_start_ms']:.1f} ms "
            f"| {result['p50_end_ms']:.1f} ms |",
            f"| prober ping p99 | {result['p99_start_ms']:.1f} ms "
            f"| {result['p99_end_ms']:.1f} ms |",
            f"| server RSS | {result['rss_start_mib']:.0f} MiB | {result['rss_end_mib']:.0f} MiB |",
            f"| live tables (`t24_live_tables`: in play, and finished ones not evicted yet) | "
            f"{result['tables_start']:,} | {result['tables_end']:,} |",
            f"| events they hold (`t24_events_in_memory`) | "
            f"{result['held_start']:,} | {result['held_end']:,} |",
            "",
            f"RSS from start to end: {grown:+.1f} MiB ({share:+.1%}); "
            + (
                f"flat (within {FLAT_SHARE:.0%}, and the events held never above the live "
                "tables' windows)"
                if flat
                else f"NOT flat (the bound: within {FLAT_SHARE:.0%}, and the events held "
                "within the live tables' windows)"
            )
            + f". After the warm-up RSS stayed between {result['rss_min_mib']:.0f} and "
            f"{result['rss_max_mib']:.0f} MiB; the cache of older pushes held "
            f"{result['cache_end_mib']:.1f} MiB at the end. Commands sent {result['sent']:,}, "
            f"accepted {result['accepted']:,}, refused {result['refused']:,} (a touch after "
            f"another player's, or too late, as in play), unanswered {result['unanswered']:,} "
            "(in flight when its table ended and the player left); storm joins sent "
            f"{result['storm_joins']:,} (most "
            "rate-limited, the storm closed for abuse and cooled down again and again); the "
            f"slow reader {DROPPED if dropped else STALLED}; tables a slot gave up (a "
            f"connection or a request failed; then ended and signed by another proctor) "
            f"{result['table_errors']}. Events appended: {result['events']:,}.",
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0, help="the whole run")
    parser.add_argument("--warm-up-minutes", type=float, default=15.0, help="of --minutes")
    parser.add_argument("--tables", type=int, default=166, help="tables in play at a time")
    parser.add_argument("--cards", type=int, default=12, help="cards in each table's round")
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
    if result["errors"]:
        print("first table errors:", *result["errors"], sep="\n  ")
    if not args.no_write:
        write_section(SECTION, body)
    return 0


if __name__ == "__main__":
    sys.exit(main())
