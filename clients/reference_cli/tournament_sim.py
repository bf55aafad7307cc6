"""`t24 tournament simulate`: a whole tournament on a real server process, played by bots.

What it does: starts `t24-server` (its own process, the given store or SQLite in a temporary
directory), signs a director token with the server's secret (`t24-server token director`),
then, as the director over the protocol: creates the tournament (proctored tables with
`auto_proctor`), imports `--students` per grade for `--grades` grades, and runs the four
rounds: seat, start, let the bots play every table, wait for every result, close, play off
the tie-breaks the tournament seats, advance. It prints the champions and exits 0; with
`--bundle` it writes the officials' bundle, signed with a key made for the run, and prints
that key's public half (`signing key: HEX`) for `t24 audit verify --key`. The run's secrets
(the token secret, the signing key) are deleted when it ends, whatever the outcome.

The bots (`TableBots`, one connection per table, the director's token at a proctored table)
have mixed skill: each student is `strong`, `average` or `weak`, which scales the human
solving time of bots.py (a log-normal law fitted on people's times) and the chance of a wrong
answer. On each revealed card the quickest student touches, says the pattern and fixes the
solution (or a wrong one: a flag). `--fast` shortens every table timer and the bots' times in
proportion, and the tie-break rounds to a few seconds.

Waiting is done on the server's answers: the director re-reads the tournament's view (a
`join`, whose snapshot carries the standings) until the condition holds, with a deadline.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from twisted.internet.defer import inlineCallbacks
from twisted.internet.task import deferLater

from clients.reference_cli import exit_codes
from clients.reference_cli.connection import (
    BUSY_PING_TIMEOUT,
    Backoff,
    ServerRefused,
    TableLink,
    close_then_stop,
)
from clients.reference_cli.table_app import run_reactor
from clients.reference_cli.tournament_bots import INITIALS, SKILL_LEVELS, TableBots
from clients.reference_cli.tournament_words import WORDS

FAST_SCALE = 0.02
# A new table's shortest timer (the server's `server.games.base.MIN_SECONDS`, docs/protocol.md
# "Durations"); a client speaks the protocol only, and a test checks the two agree.
MIN_SECONDS = 0.05
POLL_SECONDS = 0.2
ROUND_TIMEOUT = 600.0


def table_timers(fast: bool) -> dict[str, Any]:
    """The tables' timers: the rules' own, or with `--fast` 50 times shorter but never under
    a new table's minimum (`MIN_SECONDS`, docs/protocol.md "Durations")."""
    scale = FAST_SCALE if fast else 1.0

    def seconds(rule: float) -> float:
        return max(MIN_SECONDS, rule * scale)

    return {
        "mode": "proctored",
        "pattern_seconds": seconds(3),
        "solution_seconds": seconds(15),
        "no_touch_seconds": seconds(15),
        "auto_proctor": seconds(3),
        "auto_reveal_seconds": seconds(1),
    }


def students_csv(per_grade: int, grades: list[str], seed: int) -> str:
    rng = random.Random(seed)
    first = ["Ada", "Bo", "Cy", "Di", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu"]
    rows = ["name,school,grade"]
    for grade in grades:
        for i in range(per_grade):
            name = f"{rng.choice(first)} {grade}-{i + 1:02d}"
            rows.append(f"{name},School {rng.randint(1, 5)},{grade}")
    return "\n".join(rows) + "\n"


class Director:
    """The director's connection: runs the whole tournament once welcomed (see module doc)."""

    def __init__(self, reactor: Any, url: str, token: str, args: argparse.Namespace) -> None:
        self.reactor = reactor
        self.url = url
        self.token = token
        self.args = args
        self.rng = random.Random(args.seed)
        self.scale = FAST_SCALE if args.fast else 1.0
        self.timers = table_timers(args.fast)
        self.tid = f"sim-{args.seed}"
        self.stream = f"tournament/{self.tid}"
        self.skills: dict[str, str] = {}
        self.started: set[str] = set()
        self.latencies: list[float] = []
        self.summary: dict[str, Any] = {"stream": self.stream, "protest": None}
        self.exit_code: int | None = None
        self.message = ""
        self.running = False  # the tournament runs once, from the first welcome
        self.link = TableLink(
            url,
            token,
            reactor=reactor,
            listener=self,
            join=False,
            retries=5,
            backoff=Backoff(initial=0.2, maximum=1.0),
            ping_timeout=BUSY_PING_TIMEOUT,  # one reactor plays every seat (connection.py)
        )

    # -- the link listener -------------------------------------------------------------------

    def link_status(self, status: str) -> None:
        return None

    def link_snapshot(self, snapshot: dict[str, Any], after_seq: int | None = None) -> None:
        return None

    def link_event(self, push: dict[str, Any]) -> None:
        return None

    def link_fatal(self, code: str, message: str) -> None:
        self.message = message
        self.stop(exit_codes.UNREACHABLE)

    def link_welcome(self, welcome: dict[str, Any]) -> None:
        if self.running:  # welcomed again after a `moved`: the link resends what it must
            return
        self.running = True
        self.run().addCallbacks(self.stop, self.failed)

    def failed(self, failure: Any) -> None:
        self.message = WORDS.say("simulate.failed", error=failure.getErrorMessage())
        self.stop(exit_codes.REFUSED if failure.check(ServerRefused) else exit_codes.UNREACHABLE)

    def stop(self, code: int) -> None:
        if self.exit_code is None:
            self.exit_code = code
            close_then_stop(self.link, self.reactor)

    # -- requests ----------------------------------------------------------------------------

    def command(self, name: str, table: str | None = None, **args: Any) -> Any:
        return self.link.request("command", table=table or self.stream, name=name, args=args)

    @inlineCallbacks
    def view(self) -> Any:
        reply = yield self.link.request("join", table=self.stream)
        return reply["view"]

    @inlineCallbacks
    def wait_for(self, condition: Any, tables: Any = None) -> Any:
        """Re-read the tournament's view until `condition(view)` holds (with a deadline);
        with `tables(view)`, seat bots again at any of those tables whose bots gave up (a
        link lost for good on a loaded machine must not stall the whole simulation)."""
        deadline = time.monotonic() + ROUND_TIMEOUT
        while True:
            view = yield self.view()
            if condition(view):
                return view
            if tables is not None:
                self.play_tables(view, tables(view))
            if time.monotonic() > deadline:
                raise TimeoutError(WORDS.say("simulate.too_slow"))
            yield deferLater(self.reactor, POLL_SECONDS, lambda: None)

    # -- playing tables ----------------------------------------------------------------------

    def play_tables(self, view: dict[str, Any], tables: list[dict[str, Any]]) -> None:
        """Bots for each table that has none yet; at a table of the forced tie (`--force-tie`,
        rounds 1 and 2) they forfeit: the round is ended at once, nobody scores, so the
        section ties."""
        for table in tables:
            if table["table"] in self.started or table.get("result"):
                continue
            self.started.add(table["table"])
            hub_table = f"{self.tid}.{table['table']}"
            forced = table["section"] == self.args.force_tie and table["table"][:2] in ("r1", "r2")
            bots = TableBots(
                self.reactor,
                self.url,
                self.token,
                hub_table,
                {s: self.skills[s] for s in table["students"]},
                random.Random(f"{self.args.seed}/{table['table']}"),
                self.scale,
                self.timers,
                self.latencies,
                forfeit=forced,
            )
            bots.start().addCallback(self._bots_done, table["table"], bots)

    def _bots_done(self, _result: Any, table: str, bots: TableBots) -> None:
        """Bots that gave up leave their table to be seated again at the next poll."""
        if bots.gave_up:
            self.started.discard(table)

    # -- the tournament ----------------------------------------------------------------------

    @inlineCallbacks
    def run(self) -> Any:
        started = time.monotonic()
        grades = grade_names(self.args.grades)
        options = {
            "name": f"Simulated tournament {self.args.seed}",
            "date": time.strftime("%Y-%m-%d"),
            "grades": grades,
            "deck_seed": self.args.seed,
            "rules": getattr(self.args, "rules", None) or "official",
            **({"edition": self.args.edition} if getattr(self.args, "edition", None) else {}),
            "tie_break_seconds": self.args.tie_break_seconds or (5 if self.args.fast else 300),
            "cards_per_round": self.args.cards,
            "table_options": self.timers,
        }
        yield self.link.request(
            "create_table", game="tournament", table=self.stream, options=options
        )
        csv = students_csv(self.args.students, grades, self.args.seed)
        yield self.command("import_students", csv=csv)
        yield self.command("close_registration")
        view = yield self.view()
        for student in view["students"]:
            self.skills[student["student"]] = self.rng.choice(list(SKILL_LEVELS))
        for number in (1, 2, 3, 4):
            view = yield self.view()
            if view["finished"]:
                break
            yield self.command("seat_round", round=number)
            yield self.command("start_round", round=number)
            view = yield self.view()
            self.play_tables(view, view["rounds"][number - 1]["tables"])
            yield self.wait_for(
                lambda v, n=number: all(t["result"] for t in v["rounds"][n - 1]["tables"]),
                tables=lambda v, n=number: v["rounds"][n - 1]["tables"],
            )
            yield self.command("close_round", round=number)
            if number == 2 and self.args.protest:
                yield self.protest()
            if number > 1:
                yield self.advance(number)
        view = yield self.view()
        self.summary.update(
            champions=view["champions"],
            names={s["student"]: s["name"] for s in view["students"]},
            advanced={
                section: [r["student"] for r in st["qualifying"] if r["advanced"] != "eliminated"]
                for section, st in view["standings"].items()
            },
            tie_breaks=[
                {k: tie[k] for k in ("number", "round", "section", "students", "places")}
                for tie in view["tie_breaks"]
            ],
            seconds=round(time.monotonic() - started, 1),
            latency=latency_summary(self.latencies),
        )
        if self.summary["protest"]:
            student = self.summary["protest"]["student"]
            section = self.summary["protest"]["section"]
            self.summary["protest"]["advanced"] = student in self.summary["advanced"][section]
        return exit_codes.OK

    @inlineCallbacks
    def advance(self, number: int) -> Any:
        """Advance, playing off every tie-break the tournament seats first (R-ROUND-6)."""
        deadline = time.monotonic() + ROUND_TIMEOUT
        while True:
            if time.monotonic() > deadline:
                raise TimeoutError(WORDS.say("simulate.not_advanced", round=number))
            try:
                yield self.command("advance", round=number)
                return
            except ServerRefused as refused:
                if refused.code != "tie_break_pending":
                    raise
            view = yield self.view()
            self.play_tables(view, [t for tie in view["tie_breaks"] for t in tie["tables"]])
            yield deferLater(self.reactor, POLL_SECONDS, lambda: None)

    @inlineCallbacks
    def protest(self) -> Any:
        """R-ROUND-8 after round 2: the best-placed student outside the 16 of a section
        protests at their round-2 table; the proctor upholds it with a score adjustment that
        lifts them above the 16th; the card is signed again and the tournament recomputes."""
        view = yield self.view()
        sections = [s for s in view["sections"] if s != self.args.force_tie]
        section = sections[-1]
        rows = [r for r in view["standings"][section]["qualifying"] if not r["withdrawn"]]
        rows.sort(key=lambda r: -r["total"])
        if len(rows) <= ADVANCE_COUNT:
            raise RuntimeError(f"--protest needs more than {ADVANCE_COUNT} students a grade")
        cut = rows[ADVANCE_COUNT - 1]["total"]
        # the best-placed student outside the 16: on a tie at the cut (bot timing can give
        # one) they hold the cut's total and the adjustment of 1 still lifts them above it
        below = rows[ADVANCE_COUNT]
        student, delta = below["student"], cut - below["total"] + 1
        table = next(t for t in view["rounds"][1]["tables"] if student in t["students"])
        hub_table = f"{self.tid}.{table['table']}"
        before = table["result"]["seq"]
        yield self.command("reopen_score_card", hub_table, reason="a protest after round 2")
        yield self.command(
            "file_protest", hub_table, seat=student, seqs=[2], reason="my card was not counted"
        )
        correction = {"kind": "adjust_score", "seat": student, "delta": delta, "why": "upheld"}
        yield self.command(
            "rule_protest",
            hub_table,
            protest=1,
            upheld=True,
            ruling_text="upheld: the card was won",
            corrections=[correction],
        )
        yield self.command("sign_score_card", hub_table, initials=INITIALS)
        yield self.wait_for(
            lambda v: (
                next(t for t in v["rounds"][1]["tables"] if t["table"] == table["table"])["result"][
                    "seq"
                ]
                != before
            )
        )
        self.summary["protest"] = {
            "student": student,
            "section": section,
            "table": table["table"],
            "delta": delta,
            "total_before": below["total"],
            "cut": cut,
        }


ADVANCE_COUNT = 16


def latency_summary(latencies: list[float]) -> dict[str, Any]:
    """p50 / p99 of command -> event latency, in milliseconds."""
    if not latencies:
        return {"count": 0, "p50_ms": None, "p99_ms": None}
    ordered = sorted(latencies)

    def at(q: float) -> float:
        return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000, 1)

    return {"count": len(ordered), "p50_ms": at(0.5), "p99_ms": at(0.99)}


SECRET_FILE, KEY_FILE = "t24.secret", "t24-signing.key"  # in the run's temporary folder
KEY_LINE = "signing key: "  # the line that prints the bundle's public key (README greps it)


def start_server(store: str, directory: Path) -> tuple[subprocess.Popen, str, Path]:
    """A `t24-server` child process on a free loopback port; (process, url, secret file)."""
    ready, secret = directory / "ready.json", directory / SECRET_FILE
    log = open(directory / "server.log", "a")  # noqa: SIM115 - the child keeps it
    command = [sys.executable, "-m", "server", "--store", store, "--host", "127.0.0.1"]
    command += ["--port", "0", "--secret-file", str(secret), "--ready-file", str(ready)]
    env = {k: v for k, v in os.environ.items() if not k.startswith("T24_")}
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    log.close()
    deadline = time.monotonic() + 30
    while not ready.exists():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError((directory / "server.log").read_text())
        time.sleep(0.05)
    return process, json.loads(ready.read_text())["url"], secret


def director_token(secret: Path) -> str:
    out = subprocess.run(
        [sys.executable, "-m", "server", "token", "director", "--secret-file", str(secret)],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.strip()


def write_bundle(store: str, tournament: str, out: str, key_file: Path) -> int:
    """`t24 audit bundle` of the finished tournament (a child process: it reads the store)."""
    command = [sys.executable, "-m", "clients.reference_cli", "audit", "bundle", "--store", store]
    command += ["--tournament", tournament, "--out", out, "--key-file", str(key_file)]
    return subprocess.run(command, check=False).returncode


def grade_names(count: int) -> list[str]:
    """The simulated tournament's grades: G1, G2, ..."""
    return [f"G{i + 1}" for i in range(count)]


def input_problem(args: argparse.Namespace) -> str | None:
    """Why these arguments cannot run a simulation, or None. A `--force-tie` naming no grade
    of the simulation would force nothing and say nothing (issue 28): it is refused."""
    if args.students < 3 or args.students == 5 or not 1 <= args.grades <= 20:
        return WORDS.say("simulate.sizes")
    grades = grade_names(args.grades)
    if args.force_tie is not None and args.force_tie not in grades:
        tie = f"--force-tie {args.force_tie!r}"
        return WORDS.say("simulate.no_such_grade", flag=tie, grades=", ".join(grades))
    return None


def public_key(key_file: Path) -> str:
    """The public half of the signing key in `key_file` (`t24-server key --key-file`)."""
    command = [sys.executable, "-m", "server", "key", "--key-file", str(key_file)]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout.strip()


def forget_secrets(directory: Path) -> None:
    """Delete the run's secrets (the token secret, the signing key): nothing left in the
    temporary folder can sign a token or a bundle. The store and the log stay for a look."""
    for name in (SECRET_FILE, KEY_FILE):
        (directory / name).unlink(missing_ok=True)


def simulate(args: argparse.Namespace, reactor: Any = None) -> int:
    """Run the whole tournament (see module doc); print the champions (or JSON), and with
    `--bundle` the public key the bundle is signed with (`signing key: HEX`, the JSON's
    `key`): the run's own key, made for it and deleted with the token secret at the end."""
    problem = input_problem(args)
    if problem:
        print(f"t24 tournament simulate: {problem}", file=sys.stderr)
        return exit_codes.BAD_INPUT
    directory = Path(tempfile.mkdtemp(prefix="t24-sim-"))
    try:
        return simulated(args, directory, reactor)
    finally:
        forget_secrets(directory)


def simulated(args: argparse.Namespace, directory: Path, reactor: Any = None) -> int:
    store = args.store or f"sqlite:///{directory / 'sim.sqlite'}"
    process, url, secret = start_server(store, directory)
    try:
        if reactor is None:
            from twisted.internet import reactor
        director = Director(reactor, url, director_token(secret), args)
        run_reactor(reactor, director.stop, director.link.start)
    finally:
        process.terminate()
        process.wait(timeout=30)
    if director.exit_code != exit_codes.OK:
        print(f"t24 tournament simulate: {director.message}", file=sys.stderr)
        print(WORDS.say("simulate.server_log", path=directory / "server.log"), file=sys.stderr)
        return director.exit_code or exit_codes.INTERRUPTED
    summary = director.summary
    summary["store"] = store
    if args.bundle:
        key_file = directory / KEY_FILE
        if write_bundle(store, director.tid, args.bundle, key_file):
            return exit_codes.NEGATIVE
        summary["bundle"] = args.bundle
        summary["key"] = public_key(key_file)
    if args.json:
        print(json.dumps(summary, sort_keys=True))
        return exit_codes.OK
    names = summary["names"]
    for section, student in summary["champions"].items():
        print(WORDS.say("simulate.champion", section=section, name=names[student], id=student))
    seconds = summary["seconds"]
    print(WORDS.say("simulate.played", stream=director.stream, seconds=seconds, store=store))
    if args.bundle:
        print(WORDS.say("simulate.bundle", path=args.bundle))
        print(f"{KEY_LINE}{summary['key']}")  # a line scripts read: as it is in every language
        check = f"t24 audit verify {args.bundle} --key {summary['key']}"
        print(WORDS.say("cli.bundle_check", command=check))
    return exit_codes.OK
