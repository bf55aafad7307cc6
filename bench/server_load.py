"""Benchmark of the server under load: t24 against a raw Autobahn echo server, on loopback.

    .venv/bin/python bench/server_load.py [--no-write] [--quick] [--seconds S]
    .venv/bin/python bench/server_load.py --before DIR [--rounds R] [--tables N]

In one run, on this machine, for N = 10, 100 and 250 tables (40, 400 and 1,000 connections):
1. baseline: a raw Autobahn echo server (no twisted.web, no protocol layer, no store) and
   4N client connections, each sending a command-sized binary frame as soon as the previous
   one came back (closed loop): messages/s and round-trip p50/p99;
2. t24: a fresh `t24-server` process (SQLite in a temp dir, durable group commit), N tables
   created over the wire, 4 bot players per table. The tables run with `auto_proctor`: when
   a card is revealed every bot sends `touch_card`; the first toucher sends `declare_pattern`
   and `fix_solution` (a correct solution from the solver). Reported: commands/s,
   command -> event latency (from sending a command to receiving the push of the event it
   caused, e.g. its own `CardTouched`, `TouchRefused`, `PatternDeclared`, `SolutionFixed`),
   frames pushed per second, and the server's memory per idle connection (RSS growth from
   connecting and joining the 4N bots, before any play, divided by 4N);
3. at the largest N, t24 flat out, and the echo server paced at the paced t24's command rate
   (open loop: each echo sent at its due time), so that a paced command's CPU can be read
   against what pacing alone costs a server that sleeps between messages (issue 32).

The client is one Python process (Twisted + Autobahn, the NVX masker) for both servers, so the
ratio compares the servers under the same client. Two cores are shared by client and server:
figures are noisy, read the ratios. Writes the "Server load" section of docs/performance.md.
Targets (issue 5): t24 commands/s >= 50% of the echo messages/s; p99 < 20 ms at 1,000
connections; < 50 KiB per idle connection.

`--before DIR` (A/B): DIR holds another source tree of the server (e.g. `git archive` of the
commit before a change); flat-out runs alternate between it and this tree, R rounds each, and
the server CPU per command of both is printed (nothing is written). Why alternate: the
machine's load drifts over minutes; interleaved runs share the drift, so the ratio holds.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from perfdoc import write_section  # noqa: E402
from server_load_report import section_body  # noqa: E402

from server.games.base import MIN_SECONDS  # noqa: E402

SECTION = "## Server load (`bench/server_load.py`)"
TABLE_COUNTS = (10, 100, 250)
PACED = {"auto_proctor": 3.0, "auto_reveal_seconds": 1.0}  # a card about every 4 s per table
# As fast as a new table may go: its timers at the shortest duration (base.MIN_SECONDS, 0.05 s;
# runs before issue 33 used 0.001 s, so their flat-out figures had 0.1 s less of each card).
FLAT_OUT = {"auto_proctor": MIN_SECONDS, "auto_reveal_seconds": MIN_SECONDS}


# -- the echo server (baseline) ------------------------------------------------------------


def echo_server(ready_file: str) -> None:
    """A raw Autobahn echo server with the same payload limits; writes its port when ready."""
    from autobahn.twisted.websocket import WebSocketServerFactory, WebSocketServerProtocol
    from twisted.internet import reactor

    class Echo(WebSocketServerProtocol):
        def onConnect(self, request):
            return "t24.v1"

        def onMessage(self, payload, isBinary):
            self.sendMessage(payload, isBinary)

    factory = WebSocketServerFactory(protocols=["t24.v1"])
    factory.protocol = Echo
    factory.setProtocolOptions(
        webStatus=False,
        maxFramePayloadSize=65536,
        maxMessagePayloadSize=65536,
        autoPingInterval=20,
        autoPingTimeout=10,
        allowNullOrigin=True,
        tcpNoDelay=True,
    )
    port = reactor.listenTCP(0, factory, interface="127.0.0.1", backlog=2048)
    Path(ready_file).write_text(json.dumps({"port": port.getHost().port, "pid": os.getpid()}))
    reactor.run()


# -- the load client -----------------------------------------------------------------------


def load_client(args: argparse.Namespace) -> None:
    """Connect the bots, report when idle, play for `seconds` after "go", print JSON figures."""
    from autobahn.twisted.websocket import (
        WebSocketClientFactory,
        WebSocketClientProtocol,
        connectWS,
    )
    from twisted.internet import defer, reactor, stdio
    from twisted.protocols.basic import LineReceiver

    from protocol.codec import decode, encode
    from server.net.tokens import TokenSigner, load_or_create_secret

    url, mode, seconds = args.url, args.mode, args.seconds
    pace = FLAT_OUT if args.flat_out else PACED
    latencies: list[float] = []
    counts = {"commands": 0, "pushes": 0, "errors": 0, "messages": 0, "closed": 0}
    state = {"measuring": False, "playing": False}
    echo_payload = encode({"type": "ping", "id": 1, "pad": "x" * 40})  # command-sized

    class Bot(WebSocketClientProtocol):
        """One client connection. Lean on purpose (it drives both servers, so its cost is
        shared): incoming frames skip Autobahn's per-read debug formatting and its unobserved
        "message" event, as the t24 server's do; outgoing frames are masked with a fresh key
        by `prepareMessage` and written as they are (no per-call `sendMessage` overhead)."""

        seat: str = ""
        table: str = ""
        pending: dict

        def dataReceived(self, data):
            self._dataReceived(data)

        def onMessageEnd(self):
            if not self.failedByMe:
                self.onMessage(b"".join(self.message_data), self.message_is_binary)
            self.message_data = None

        def write_frame(self, payload: bytes) -> None:
            prepared = self.factory.prepareMessage(payload, isBinary=True)  # a fresh mask
            if self.send_queue:
                self.sendPreparedMessage(prepared)
            else:
                self.transport.write(prepared.payloadHybi)

        def onOpen(self):
            self.pending = {}
            self.next_id = 1
            self.factory.opened.callback(self)

        def onClose(self, wasClean, code, reason):
            # A connection refused (HTTP 503, a handshake past the server's deadline on a
            # loaded machine) or closed before its reply used to leave the run waiting for
            # ever, and `make bench` with it: fail the run instead, saying why.
            self.factory.lost(f"connection closed before its answer ({code}: {reason})")
            if state["playing"]:
                counts["closed"] += 1  # e.g. 1012: its table moved to another node

        def send(self, message: dict, key=None) -> None:
            message["id"] = self.next_id
            self.next_id += 1
            if key is not None:
                self.pending[key] = time.perf_counter()
                if state["measuring"]:
                    counts["commands"] += 1
            self.write_frame(encode(message))

        def command(self, name: str, key, **args) -> None:
            self.send({"type": "command", "table": self.table, "name": name, "args": args}, key)

        def onMessage(self, payload, isBinary):
            if mode == "echo":
                sent = self.pending.pop("echo", None)
                if sent is not None and state["measuring"]:
                    latencies.append(time.perf_counter() - sent)
                    counts["messages"] += 1
                if state["playing"] and not args.echo_rate:
                    self.echo()  # closed loop: the next one as soon as this one is back
                return
            message = decode(payload)
            kind = message["type"]
            waiter = self.factory.waiting.pop(message.get("id"), None)
            if waiter is not None:
                waiter.callback(message)
            if kind == "event":
                if state["measuring"]:
                    counts["pushes"] += 1
                self.on_event(message)
            elif kind == "error" and state["measuring"]:
                counts["errors"] += 1

        def echo(self) -> None:
            self.pending["echo"] = time.perf_counter()
            self.write_frame(echo_payload)

        def done(self, key) -> None:
            sent = self.pending.pop(key, None)
            if sent is not None and state["measuring"]:
                latencies.append(time.perf_counter() - sent)

        def on_event(self, message: dict) -> None:
            if not state["playing"]:
                return
            kind, data = message["event_type"], message["data"]
            play = data.get("play")
            mine = data.get("seat") == self.seat
            if kind == "CardRevealed":
                self.card = data["card_id"]
                self.command("touch_card", ("touch", play))
            elif kind in ("CardTouched", "TouchRefused") and mine:
                self.done(("touch", play))
                if kind == "CardTouched":
                    pattern, steps = solutions()[self.card]
                    self.command("declare_pattern", ("pattern", play), pattern=pattern)
                    self.steps = steps
            elif kind == "PatternDeclared" and mine:
                self.done(("pattern", play))
                self.command("fix_solution", ("fix", play), steps=list(self.steps))
            elif kind == "SolutionFixed" and mine:
                self.done(("fix", play))

    def connect(token: str | None, table: str = "", seat: str = "") -> defer.Deferred:
        factory = WebSocketClientFactory(url, protocols=["t24.v1"])
        factory.protocol = Bot
        factory.setProtocolOptions(autoPingInterval=0, openHandshakeTimeout=30)
        factory.opened = defer.Deferred()
        factory.waiting = {}

        def lost(why: str) -> None:
            if not factory.opened.called:
                factory.opened.errback(ConnectionError(why))
            waiting, factory.waiting = factory.waiting, {}
            for waiter in waiting.values():
                waiter.errback(ConnectionError(why))

        factory.lost = lost
        factory.clientConnectionFailed = lambda _connector, reason: lost(
            f"connection failed: {reason.getErrorMessage()}"
        )
        connectWS(factory, timeout=30)

        def opened(bot: Bot) -> defer.Deferred:
            bot.seat, bot.table = seat, table
            if token is None:
                return defer.succeed(bot)
            return request(bot, {"type": "hello", "token": token}).addCallback(lambda _: bot)

        return factory.opened.addCallback(opened)

    def request(bot, message: dict) -> defer.Deferred:
        d = defer.Deferred()
        bot.factory.waiting[bot.next_id] = d
        bot.send(message)
        return d

    @defer.inlineCallbacks
    def run():
        bots = []
        state["playing"] = False
        if mode == "echo":
            for start in range(0, args.connections, 100):
                batch = [connect(None) for _ in range(start, min(args.connections, start + 100))]
                bots += yield defer.gatherResults(batch, consumeErrors=True)
        else:
            signer = TokenSigner(load_or_create_secret(args.secret_file))
            now = time.time()
            director = yield connect(signer.issue("director", now=now)[0])
            tables = [f"{args.table_prefix}-{i}" for i in range(args.tables)]
            for table in tables:
                reply = yield request(
                    director,
                    {"type": "create_table", "table": table, "options": table_options(pace)},
                )
                assert reply["type"] == "table_created", reply
            pending = []
            for table in tables:
                for seat in SEATS:
                    token = signer.issue("player", now=now, table=table, seat=seat)[0]
                    pending.append(connect(token, table, seat))
                if len(pending) >= 100:
                    bots += yield defer.gatherResults(pending, consumeErrors=True)
                    pending = []
            bots += yield defer.gatherResults(pending, consumeErrors=True)
            for bot in bots:
                yield request(bot, {"type": "join", "table": bot.table})
        print(json.dumps({"idle": len(bots)}), flush=True)
        yield go
        state["playing"] = True
        if mode == "echo" and args.echo_rate:
            paced_echoes(bots, args.echo_rate)
        elif mode == "echo":
            for bot in bots:
                bot.echo()
        else:
            # Staggered starts: tables that all reveal at the same instant would measure a
            # thundering herd of 4N touches, not a server under a steady load.
            period = pace["auto_proctor"] + pace["auto_reveal_seconds"]
            for i, table in enumerate(tables):
                message = {"type": "command", "table": table, "name": "start_round"}
                reactor.callLater(period * i / len(tables), director.send, message)
        warm_up = min(2.0, seconds / 4) if mode == "echo" else max(2.0, period * 1.5)
        yield sleep(warm_up)
        state["measuring"] = True
        started = time.perf_counter()
        yield sleep(seconds)
        elapsed = time.perf_counter() - started
        state["measuring"] = False
        state["playing"] = False
        if mode != "echo":
            for table in tables:
                director.send({"type": "command", "table": table, "name": "end_round"})
            yield sleep(0.5)
        result = {
            "connections": len(bots),
            "seconds": elapsed,
            "per_second": (counts["messages"] if mode == "echo" else counts["commands"]) / elapsed,
            "pushes_per_second": counts["pushes"] / elapsed,
            "errors": counts["errors"],
            "closed": counts["closed"],
            "p50_ms": percentile(latencies, 50) * 1000,
            "p99_ms": percentile(latencies, 99) * 1000,
            "max_ms": percentile(latencies, 100) * 1000,
            "samples": len(latencies),
        }
        print(json.dumps(result), flush=True)
        reactor.stop()

    def paced_echoes(bots: list, rate: float) -> None:
        """Open loop: `rate` echoes a second over all the bots in turn, each sent at its due
        time (a tick per echo; a late tick sends what fell due meanwhile)."""
        start, sent = time.perf_counter(), 0

        def tick() -> None:
            nonlocal sent
            if not state["playing"]:
                return
            due = int((time.perf_counter() - start) * rate) + 1
            while sent < due:
                bots[sent % len(bots)].echo()
                sent += 1
            reactor.callLater(max(0.0, start + sent / rate - time.perf_counter()), tick)

        tick()

    def sleep(delay: float) -> defer.Deferred:
        d = defer.Deferred()
        reactor.callLater(delay, d.callback, None)
        return d

    go = defer.Deferred()

    class Control(LineReceiver):
        delimiter = b"\n"

        def lineReceived(self, line):
            if line.strip() == b"go" and not go.called:
                go.callback(None)

    stdio.StandardIO(Control())

    def failed(failure):
        if isinstance(failure.value, defer.FirstError):
            failure = failure.value.subFailure
        print(json.dumps({"error": failure.getErrorMessage()}), flush=True)
        reactor.stop()

    reactor.callWhenRunning(lambda: run().addErrback(failed))
    reactor.run()


SEATS = ("s1", "s2", "s3", "s4")


@functools.cache
def deck() -> list[dict]:
    """The cards every table of the bench plays (two seeds' single-digits halves): drawn on
    first use, not at import, since the tests import this module for `LoadClient` alone
    (drawing is 0.7 s of solver calls)."""
    from server.games.challenge.options import tournament_table_deck

    deck = []
    for seed in (1, 2):
        for card in tournament_table_deck("single-digits", seed, 1):
            deck.append({**card, "card_id": f"{seed}-{card['card_id']}"})
    return deck


@functools.cache
def solutions() -> dict[str, tuple[str, tuple[str, ...]]]:
    """A pattern and steps for each card of `deck()`, by card id."""
    from server.puzzles.solver import solve

    found = {}
    for card in deck():
        best = solve(card["numbers"])[0]
        found[card["card_id"]] = (best.ascii_steps[-1].split("=")[0].strip(), best.ascii_steps)
    return found


def table_options(pace: dict) -> dict:
    return {"seats": [{"seat": seat, "name": seat} for seat in SEATS], "deck": deck(), **pace}


def percentile(values: list[float], pct: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(pct / 100 * len(ordered)) - 1))
    return ordered[index]


# -- the orchestrator ----------------------------------------------------------------------


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def start_process(
    command: list[str],
    ready_file: Path,
    cwd: Path,
    tree: Path | None = None,
    timeout: float = 30.0,
) -> tuple[subprocess.Popen, dict]:
    env = None if tree is None else {**os.environ, "PYTHONPATH": str(tree)}
    process = subprocess.Popen(
        command,
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=open(cwd / "server.log", "ab"),
        env=env,
    )
    deadline = time.monotonic() + timeout
    while not ready_file.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{command[2]} did not start: {(cwd / 'server.log').read_text()}")
        time.sleep(0.05)
    return process, json.loads(ready_file.read_text())


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all its threads), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class LoadClient:
    """One load client process (`client` above), driven in its three steps: started (its bots
    connect and join: `idle`), `go`, and its figures (`result`). Several can be started and
    then let go at once, so their measured seconds overlap (bench/cluster.py).

    Every wait has a deadline: a client that neither reports nor exits (it never should, now
    that a refused or closed connection fails it) is killed and the run fails saying what
    it waited for, instead of waiting for ever.
    """

    def __init__(self, url: str, mode: str, seconds: float, **extra) -> None:
        command = [sys.executable, __file__, "client", "--url", url, "--mode", mode]
        command += ["--seconds", str(seconds)]
        for key, value in extra.items():
            command += [f"--{key.replace('_', '-')}", str(value)]
        self.seconds = seconds
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put("")  # the client exited

    def _line(self, timeout: float, what: str) -> dict:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.kill()
            raise RuntimeError(f"load client: no {what} within {timeout:g} s") from None
        if not line:
            raise RuntimeError(f"load client exited before its {what}")
        figures = json.loads(line)
        if "error" in figures:
            self.kill()
            raise RuntimeError(f"load client: {figures['error']}")
        return figures

    def idle(self, timeout: float = 300.0) -> int:
        """Wait until every bot is connected and joined; how many there are."""
        return self._line(timeout, "connected bots")["idle"]

    def go(self) -> None:
        self.process.stdin.write("go\n")
        self.process.stdin.flush()

    def result(self) -> dict:
        """The figures it printed. The process is not reaped here: until `kill` (or a
        wait) its CPU time stays readable in /proc, even once it has exited."""
        return self._line(self.seconds + 120.0, "figures")

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def drive(url: str, mode: str, seconds: float, server_pid: int, **extra) -> dict:
    """Run one load client; sample the server's RSS before and after the bots connect."""
    before = rss_kib(server_pid)
    client = LoadClient(url, mode, seconds, **extra)
    try:
        idle = client.idle()
        time.sleep(0.5)
        after = rss_kib(server_pid)
        cpu = (cpu_seconds(server_pid), cpu_seconds(client.process.pid), time.perf_counter())
        client.go()
        result = client.result()
        wall = time.perf_counter() - cpu[2]
        result["server_cpu"] = (cpu_seconds(server_pid) - cpu[0]) / wall
        result["client_cpu"] = (cpu_seconds(client.process.pid) - cpu[1]) / wall
        client.process.wait(timeout=60)
    finally:
        client.kill()
    result["kib_per_connection"] = (after - before) / max(1, idle)
    return result


def server_latency(port: int) -> dict[str, float]:
    """p50/p99 (bucket upper bounds, ms) of the server's own command and append histograms,
    read from /metrics: the part of the latency spent inside the server process."""
    import urllib.request

    from prometheus_client.parser import text_string_to_metric_families

    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10).read().decode()
    families = {family.name: family for family in text_string_to_metric_families(text)}
    figures = {}
    for name in ("t24_command_latency_seconds", "t24_append_latency_seconds"):
        buckets = [
            (float(sample.labels["le"]), sample.value)
            for sample in families[name].samples
            if sample.name == name + "_bucket"
        ]
        total = buckets[-1][1] or 1
        for pct in (50, 99):
            bound = next(b for b, count in buckets if count >= total * pct / 100)
            figures[f"{name.split('_')[1]}_p{pct}_ms"] = bound * 1000
    return figures


def t24_run(
    work: Path, name: str, seconds: float, tables: int, flat_out: bool, tree: Path | None = None
) -> dict:
    """One fresh t24-server process (its own SQLite file) driven by one load client; `tree`:
    run the server from that source tree instead of this one."""
    run = work / name
    run.mkdir()
    ready = run / "ready.json"
    command = [sys.executable, "-m", "server", "--port", "0", "--log-level", "warn"]
    # the director creates N tables in a burst: a rate limit for a bench, not for people
    command += ["--rate-per-second", "10000", "--rate-burst", "10000"]
    # every bot and the director connect from 127.0.0.1: 1,000 bots and the director are over
    # the default 1,000 sockets per address (issue 18's gate answers the rest HTTP 503)
    command += ["--max-connections-per-address", "5000"]
    command += ["--store", f"sqlite:///{run / 't24.sqlite'}", "--secret-file", str(run / "s")]
    command += ["--ready-file", str(ready)]
    server, info = start_process(command, ready, run, tree)
    try:
        figures = drive(
            info["url"],
            "t24",
            seconds,
            info["pid"],
            tables=tables,
            secret_file=run / "s",
            flat_out=int(flat_out),
        )
        figures["server"] = server_latency(info["port"])
        return figures
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


def measure(seconds: float, counts: tuple[int, ...]) -> dict:
    """Echo baseline and paced t24 for each N; flat-out t24 and echo at the largest N."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        echo_ready = work / "echo.json"
        echo, echo_info = start_process(
            [sys.executable, __file__, "echo-server", "--ready-file", str(echo_ready)],
            echo_ready,
            work,
        )
        echo_url = f"ws://127.0.0.1:{echo_info['port']}"
        try:
            for n in counts:
                baseline = drive(echo_url, "echo", seconds, echo_info["pid"], connections=4 * n)
                paced = t24_run(work, f"paced-{n}", seconds, n, flat_out=False)
                rows.append({"tables": n, "echo": baseline, "t24": paced})
                print(json.dumps(rows[-1]), flush=True)
            n = counts[-1]
            flat = t24_run(work, f"flat-{n}", seconds, n, flat_out=True)
            print(json.dumps({"flat_out": flat}), flush=True)
            # The echo server paced at the paced t24's command rate: what a message costs a
            # server that sleeps between messages, against the same server flat out.
            rate = rows[-1]["t24"]["per_second"]
            paced_echo = drive(
                echo_url, "echo", seconds, echo_info["pid"], connections=4 * n, echo_rate=rate
            )
            print(json.dumps({"paced_echo": paced_echo}), flush=True)
        finally:
            echo.send_signal(signal.SIGTERM)
            echo.wait(timeout=30)
    return {
        "rows": rows,
        "flat_out": flat,
        "flat_out_echo": rows[-1]["echo"],
        "paced_echo": paced_echo,
    }


def compare(before: Path, rounds: int, tables: int, seconds: float) -> None:
    """A/B: server CPU per command, flat out, `before` tree against this one, interleaved."""
    per_command: dict[str, list[float]] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory() as tmp:
        for index in range(rounds):
            for label, tree in (("before", before.resolve()), ("after", None)):
                figures = t24_run(Path(tmp), f"{label}-{index}", seconds, tables, True, tree)
                us = figures["server_cpu"] / max(figures["per_second"], 1e-9) * 1e6
                per_command[label].append(us)
                line = {"run": label, "us_per_command": round(us), **figures}
                print(json.dumps(line), flush=True)
    for label, values in per_command.items():
        ordered = sorted(values)
        print(
            f"{label}: server CPU per command {ordered[len(ordered) // 2]:.0f} us median, "
            f"runs {', '.join(f'{v:.0f}' for v in values)}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="role")
    echo = sub.add_parser("echo-server")
    echo.add_argument("--ready-file", required=True)
    client = sub.add_parser("client")
    client.add_argument("--url", required=True)
    client.add_argument("--mode", choices=("echo", "t24"), required=True)
    client.add_argument("--seconds", type=float, default=10.0)
    client.add_argument("--connections", type=int, default=0)
    client.add_argument("--echo-rate", type=float, default=0.0, help="echoes/s; 0: closed loop")
    client.add_argument("--tables", type=int, default=0)
    client.add_argument("--secret-file", default="")
    client.add_argument("--flat-out", type=int, default=0)
    client.add_argument("--table-prefix", default="bench", help="table ids PREFIX-0, ...")
    parser.add_argument("--no-write", action="store_true", help="do not touch docs/")
    parser.add_argument("--quick", action="store_true", help="short runs, N = 10 only")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per run")
    parser.add_argument("--before", type=Path, help="A/B against this source tree")
    parser.add_argument("--rounds", type=int, default=3, help="A/B rounds")
    parser.add_argument("--tables", type=int, default=100, help="A/B tables (4 bots each)")
    args = parser.parse_args()
    if args.role == "echo-server":
        echo_server(args.ready_file)
    elif args.role == "client":
        load_client(args)
    elif args.before is not None:
        compare(args.before, args.rounds, args.tables, args.seconds)
    else:
        seconds = 3.0 if args.quick else args.seconds
        figures = measure(seconds, (10,) if args.quick else TABLE_COUNTS)
        if not args.no_write:
            write_section(SECTION, section_body(figures, seconds, PACED))
            print("wrote the Server load section of docs/performance.md")


if __name__ == "__main__":
    main()
