"""Benchmark of the fair first touch (issue 19): who wins a race over lagged links.

    .venv/bin/python bench/fair_touch.py [--races N] [--quick] [--no-write]

A fresh `t24-server` (SQLite in a temp dir) on loopback; per condition, one table and two
real WebSocket players (Autobahn clients, the server's own lag probes answered by their
stacks), each behind a small loopback TCP proxy of this bench that delays every chunk, both
ways, by the link's delay plus a uniform jitter (order kept, as TCP does). A proctor
connection (no delay) places and reveals each card; 0.3 s after the reveal the two players
*press* at known moments of this process's clock (which is the server's: same machine), the
truly first one chosen at random, the gap drawn uniformly from 0-60 ms. The winner (the
`CardTouched` / `FirstTouchGranted` seat) solves the card and the next race starts.

Conditions: delay difference between the two links (the fast one is 5 ms) 0, 50, 100, 150 ms
x jitter 0, 10, 30 ms x compensation off / on (`touch_compensation`, `max_credit_ms` 100),
all tables racing at once. Reported per condition: the share of races won by the truly first
presser (all races, and those with a true gap >= 20 ms), and the decision delay the
compensation adds (first arrival -> grant, p50/p99). Writes the "Fair first touch" section of
docs/performance.md. Goal: >= 95% for gap >= 20 ms at up to 100 ms difference and 10 ms
jitter with compensation.
"""

from __future__ import annotations

import argparse
import json
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from perfdoc import write_section  # noqa: E402

SECTION = "## Fair first touch (`bench/fair_touch.py`)"
FAST_MS = 5
DIFFERENCES_MS = (0, 50, 100, 150)
JITTERS_MS = (0, 10, 30)
PRESS_AFTER_REVEAL_S = 0.3
MAX_GAP_MS = 60
WARM_UP_S = 4.0  # the server's lag probes run once a second; the estimate needs 2 RTTs
MAX_CREDIT_MS = 100


def deck(size: int) -> list[dict]:
    from server.games.challenge.options import tournament_table_deck

    cards = []
    seed = 1
    while len(cards) < size:
        for card in tournament_table_deck("single-digits", seed, 1):
            cards.append({**card, "card_id": f"{seed}-{card['card_id']}"})
        seed += 1
    return cards[:size]


def solutions(cards: list[dict]) -> dict[str, tuple[str, list[str]]]:
    from server.puzzles.solver import solve

    found = {}
    for card in cards:
        best = solve(card["numbers"])[0]
        found[card["card_id"]] = (best.ascii_steps[-1].split("=")[0].strip(), best.ascii_steps)
    return found


def percentile(values: list[float], pct: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(pct / 100 * len(ordered)) - 1))]


# -- the lagged link: a loopback TCP proxy --------------------------------------------------


class Lane:
    """One direction of a link: chunks leave in order, each no earlier than its arrival +
    delay + jitter (a later chunk never overtakes an earlier one, as on one TCP stream)."""

    def __init__(self, reactor, rng: random.Random, delay_ms: float, jitter_ms: float) -> None:
        self.reactor, self.rng = reactor, rng
        self.delay, self.jitter = delay_ms / 1000, jitter_ms / 1000
        self.queue: deque[tuple[float, bytes]] = deque()
        self.last = 0.0
        self.call = None
        self.out = None  # the transport to write to (set once connected)

    def send(self, data: bytes) -> None:
        now = self.reactor.seconds()
        at = max(self.last, now + self.delay + self.rng.uniform(0, self.jitter))
        self.last = at
        self.queue.append((at, data))
        self._arm()

    def _arm(self) -> None:
        if self.call is None and self.queue and self.out is not None:
            wait = max(0.0, self.queue[0][0] - self.reactor.seconds())
            self.call = self.reactor.callLater(wait, self._pump)

    def _pump(self) -> None:
        self.call = None
        now = self.reactor.seconds()
        while self.queue and self.queue[0][0] <= now + 0.0002:
            self.out.write(self.queue.popleft()[1])
        self._arm()


def start_proxy(reactor, server_port: int, delay_ms: float, jitter_ms: float, seed: int):
    """Listen on a loopback port; every connection to it is forwarded to the server through
    two lanes of this delay and jitter. Returns the listening port (a Deferred)."""
    from twisted.internet import endpoints, protocol

    rng = random.Random(seed)

    class Upstream(protocol.Protocol):
        def dataReceived(self, data):
            self.down.send(data)

        def connectionLost(self, reason):
            self.client.transport.loseConnection()

    class Proxy(protocol.Protocol):
        def connectionMade(self):
            self.up = Lane(reactor, rng, delay_ms, jitter_ms)
            self.down = Lane(reactor, rng, delay_ms, jitter_ms)
            self.down.out = self.transport
            endpoint = endpoints.TCP4ClientEndpoint(reactor, "127.0.0.1", server_port)
            d = endpoints.connectProtocol(endpoint, Upstream())

            def connected(upstream):
                upstream.down, upstream.client = self.down, self
                self.upstream = upstream
                self.up.out = upstream.transport
                upstream.transport.setTcpNoDelay(True)
                self.up._arm()

            d.addCallback(connected)
            self.transport.setTcpNoDelay(True)

        def dataReceived(self, data):
            self.up.send(data)

        def connectionLost(self, reason):
            upstream = getattr(self, "upstream", None)
            if upstream is not None:
                upstream.transport.loseConnection()

    factory = protocol.Factory.forProtocol(Proxy)
    return endpoints.TCP4ServerEndpoint(reactor, 0, interface="127.0.0.1").listen(factory)


# -- the race client ------------------------------------------------------------------------


def run_races(url: str, secret_file: Path, races: int, seed: int) -> list[dict]:
    """Every condition's table, all at once, in this process's reactor; returns the races."""
    from autobahn.twisted.websocket import WebSocketClientFactory, WebSocketClientProtocol
    from twisted.internet import defer, reactor, task

    from protocol.codec import decode, encode
    from server.net.tokens import TokenSigner, load_or_create_secret

    signer = TokenSigner(load_or_create_secret(str(secret_file)))
    port = int(url)
    cards = deck(races + 2)
    answers = solutions(cards)
    rng = random.Random(seed)
    results: list[dict] = []

    class Client(WebSocketClientProtocol):
        def onOpen(self):
            self.waiting, self.next_id, self.listener = {}, 1, None
            self.factory.opened.callback(self)

        def request(self, message: dict) -> defer.Deferred:
            message["id"] = self.next_id
            self.next_id += 1
            d = defer.Deferred()
            self.waiting[message["id"]] = d
            self.sendMessage(encode(message), isBinary=True)
            return d

        def onClose(self, wasClean, code, reason):
            if not self.factory.opened.called:
                self.factory.opened.errback(RuntimeError(f"connection refused: {reason}"))

        def onMessage(self, payload, isBinary):
            message = decode(payload)
            waiter = self.waiting.pop(message.get("id"), None)
            if waiter is not None:
                waiter.callback(message)
            if message["type"] == "event" and self.listener is not None:
                self.listener(message)

    @defer.inlineCallbacks
    def connect(ws_port: int, role: str, **claims) -> defer.Deferred:
        factory = WebSocketClientFactory(f"ws://127.0.0.1:{ws_port}/ws", protocols=["t24.v1"])
        factory.protocol = Client
        factory.opened = defer.Deferred()
        factory.setProtocolOptions(tcpNoDelay=True)
        reactor.connectTCP("127.0.0.1", ws_port, factory)
        client = yield factory.opened
        token = signer.issue(role, now=time.time(), **claims)[0]
        welcome = yield client.request({"type": "hello", "token": token})
        assert welcome["type"] == "welcome", welcome
        return client

    @defer.inlineCallbacks
    def condition(director, difference: int, jitter: int, compensation: bool, n: int):
        table = f"d{difference}-j{jitter}-{'on' if compensation else 'off'}"
        options = {
            "seats": [{"seat": s, "name": s} for s in ("s1", "s2", "s3")],
            "deck": cards,
            "touch_compensation": compensation,
            "max_credit_ms": MAX_CREDIT_MS,
        }
        created = yield director.request(
            {"type": "create_table", "table": table, "game": "challenge", "options": options}
        )
        assert created["type"] == "table_created", created
        delays = {"s1": FAST_MS + difference, "s2": FAST_MS}  # s1 is the slow link
        players = {}
        for number, seat in enumerate(("s1", "s2")):
            proxy = yield start_proxy(reactor, port, delays[seat], jitter, seed + number)
            client = yield connect(proxy.getHost().port, "player", table=table, seat=seat)
            joined = yield client.request({"type": "join", "table": table})
            assert joined["type"] == "snapshot", joined
            players[seat] = client
        proctor = yield connect(port, "proctor", table=table)
        yield proctor.request({"type": "join", "table": table})
        yield proctor.request({"type": "command", "table": table, "name": "start_round"})
        yield task.deferLater(reactor, WARM_UP_S, lambda: None)
        for _race in range(n):
            outcome: defer.Deferred = defer.Deferred()
            race: dict = {
                "condition": table,
                "difference": difference,
                "jitter": jitter,
                "compensation": compensation,
            }

            def on_event(message, race=race, outcome=outcome):
                kind, data = message["event_type"], message["data"]
                if kind == "CardRevealed":
                    race["card"] = data["card_id"]
                elif kind == "CardTouched" and "winner" not in race:
                    race["winner"], race["decision_us"] = data["seat"], 0
                elif kind == "FirstTouchGranted":
                    first = min(c["arrival"] for c in data["considered"])
                    race["winner"], race["decision_us"] = data["seat"], data["at"] - first
                if kind in ("CardTouched", "FirstTouchGranted") and race.get("winner"):
                    pattern, steps = answers[race["card"]]
                    winner = players[race["winner"]]
                    winner.request(
                        {
                            "type": "command",
                            "table": table,
                            "name": "declare_pattern",
                            "args": {"pattern": pattern},
                        }
                    )
                    winner.request(
                        {
                            "type": "command",
                            "table": table,
                            "name": "fix_solution",
                            "args": {"steps": list(steps)},
                        }
                    )
                if kind in ("CardWon", "CardReturnedToDeck", "RoundEnded") and not outcome.called:
                    outcome.callback(None)

            proctor.listener = on_event
            yield proctor.request({"type": "command", "table": table, "name": "place_card"})
            yield proctor.request({"type": "command", "table": table, "name": "reveal_card"})
            gap = rng.uniform(0, MAX_GAP_MS) / 1000
            first = rng.choice(("s1", "s2"))
            second = "s2" if first == "s1" else "s1"
            race.update(first=first, gap_ms=gap * 1000)
            for seat, after in (
                (first, PRESS_AFTER_REVEAL_S),
                (second, PRESS_AFTER_REVEAL_S + gap),
            ):
                reactor.callLater(
                    after,
                    players[seat].request,
                    {"type": "command", "table": table, "name": "touch_card", "args": {}},
                )
            yield outcome
            results.append(race)
            yield task.deferLater(reactor, 0.2, lambda: None)  # stray refusals settle

    @defer.inlineCallbacks
    def main():
        try:
            director = yield connect(port, "director")
            runs = [
                condition(director, difference, jitter, compensation, races)
                for difference in DIFFERENCES_MS
                for jitter in JITTERS_MS
                for compensation in (False, True)
            ]
            yield defer.gatherResults(runs, consumeErrors=True)
        finally:
            reactor.stop()

    reactor.callWhenRunning(main)
    reactor.run()
    return results


# -- the report -----------------------------------------------------------------------------


def summarize(races: list[dict]) -> list[dict]:
    rows = []
    for difference in DIFFERENCES_MS:
        for jitter in JITTERS_MS:
            for compensation in (False, True):
                mine = [
                    r
                    for r in races
                    if r["difference"] == difference
                    and r["jitter"] == jitter
                    and r["compensation"] == compensation
                    and "winner" in r
                ]
                wide = [r for r in mine if r["gap_ms"] >= 20]
                decisions = [r["decision_us"] / 1000 for r in mine]
                slow = [r for r in mine if r["first"] == "s1"]  # s1 is the slow link
                rows.append(
                    {
                        "difference": difference,
                        "jitter": jitter,
                        "compensation": compensation,
                        "races": len(mine),
                        "first_wins": sum(r["winner"] == r["first"] for r in mine)
                        / max(1, len(mine)),
                        "wide": len(wide),
                        "wide_first_wins": sum(r["winner"] == r["first"] for r in wide)
                        / max(1, len(wide)),
                        "slow": len(slow),
                        "slow_first_wins": sum(r["winner"] == "s1" for r in slow)
                        / max(1, len(slow)),
                        "decision_p50_ms": percentile(decisions, 50),
                        "decision_p99_ms": percentile(decisions, 99),
                    }
                )
    return rows


def section_body(rows: list[dict], races: int) -> str:
    lines = [
        f"Measured by `bench/fair_touch.py` ({races} races per condition; two real players "
        f"behind the bench's loopback delay proxy, the fast link {FAST_MS} ms one way, the "
        f"slow one {FAST_MS} ms + the difference; true press gaps uniform in 0-{MAX_GAP_MS} "
        f"ms, the truly first presser chosen at random; `max_credit_ms` {MAX_CREDIT_MS}). "
        '"First wins" is the share of races the truly first presser won; "gap >= 20 ms" '
        "counts only races with a true gap of at least 20 ms. Decision delay: from the "
        'first touch\'s arrival to the grant (0 without compensation). "Slow link first": '
        "the races where the student on the slower link pressed first, and how often they "
        "won: without compensation they lose whenever the gap is below the delay difference.",
        "",
        "| delay difference | jitter | compensation | races | first wins | gap >= 20 ms: "
        "races, first wins | slow link first: races, it wins | decision delay p50 / p99 |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in rows:
        lines.append(
            f"| {row['difference']} ms | {row['jitter']} ms | "
            f"{'on' if row['compensation'] else 'off'} | {row['races']} | "
            f"{row['first_wins']:.0%} | {row['wide']}, {row['wide_first_wins']:.0%} | "
            f"{row['slow']}, {row['slow_first_wins']:.0%} | "
            f"{row['decision_p50_ms']:.0f} / {row['decision_p99_ms']:.0f} ms |"
        )
    goal = [r for r in rows if r["compensation"] and r["difference"] <= 100 and r["jitter"] <= 10]
    met = all(r["wide_first_wins"] >= 0.95 for r in goal)
    lines += [
        "",
        "Goal (issue 19): with compensation, >= 95% of races with a true gap >= 20 ms won by "
        "the truly first presser at up to 100 ms of delay difference and 10 ms of jitter: "
        + ("**met**." if met else "**not met** in this run (see the rows above)."),
        "",
        "Reading it: at 150 ms of difference the slow link's 155 ms is more than the 100 ms "
        "cap, so compensation cannot close the gap (by design: the cap is what a cheater "
        "could gain). The decision delay is bounded by the window (100 ms) plus the server's "
        "timer lateness: the p99 above 100 ms is the reactor late on a 2-core machine shared "
        "by 48 bench connections, the bench's own proxies and other work.",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=40, help="races per condition")
    parser.add_argument("--quick", action="store_true", help="10 races per condition")
    parser.add_argument("--no-write", action="store_true", help="do not write the doc")
    parser.add_argument("--seed", type=int, default=19)
    parser.add_argument(
        "--client", nargs=3, metavar=("PORT", "SECRET", "RACES"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.client:  # the race process: its own reactor, results as JSON on stdout
        url, secret, count = args.client
        print(json.dumps(run_races(url, Path(secret), int(count), args.seed)))
        return
    races = 10 if args.quick else args.races
    with tempfile.TemporaryDirectory() as work_dir:
        work = Path(work_dir)
        ready = work / "ready.json"
        command = [sys.executable, "-m", "server", "--port", "0", "--log-level", "warn"]
        command += ["--rate-per-second", "10000", "--rate-burst", "10000"]
        command += [
            "--store",
            f"sqlite:///{work / 't24.sqlite'}",
            "--secret-file",
            str(work / "s"),
            "--ready-file",
            str(ready),
        ]
        server = subprocess.Popen(
            command, cwd=work, stdout=subprocess.DEVNULL, stderr=open(work / "server.log", "ab")
        )
        try:
            deadline = time.monotonic() + 30
            while not ready.exists():
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError((work / "server.log").read_text())
                time.sleep(0.05)
            info = json.loads(ready.read_text())
            out = subprocess.run(
                [
                    sys.executable,
                    __file__,
                    "--seed",
                    str(args.seed),
                    "--client",
                    str(info["port"]),
                    str(work / "s"),
                    str(races),
                ],
                stdout=subprocess.PIPE,
                text=True,
                check=True,
                timeout=3600,
            ).stdout
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=30)
    rows = summarize(json.loads(out.strip().splitlines()[-1]))
    body = section_body(rows, races)
    print(body)
    if not args.no_write:
        write_section(SECTION, body)


if __name__ == "__main__":
    main()
