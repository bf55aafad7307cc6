"""`t24 tournament simulate`: a whole tournament on a real server process, played by bots.

What it does: starts `t24-server` (its own process, the given store or SQLite in a temporary
directory), signs a director token with the server's secret (`t24-server token director`),
then, as the director over the protocol: creates the tournament (proctored tables with
`auto_proctor`), imports `--students` per grade for `--grades` grades, and runs the four
rounds: seat, start, let the bots play every table, wait for every result, close, play off
the tie-breaks the tournament seats, advance. It prints the champions and exits 0.

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

from twisted.internet.defer import Deferred, inlineCallbacks
from twisted.internet.task import deferLater

from clients.reference_cli import exit_codes
from clients.reference_cli.bots import best_answer, human_fails, human_seconds, wrong_steps
from clients.reference_cli.connection import Backoff, ServerRefused, TableLink, close_then_stop
from clients.reference_cli.table_app import run_reactor
from server.puzzles.difficulty import score as difficulty_score

SKILL_LEVELS = {"strong": (0.6, 0.5), "average": (1.0, 1.0), "weak": (1.7, 2.5)}
FAST_SCALE = 0.02
POLL_SECONDS = 0.2
ROUND_TIMEOUT = 600.0


def table_timers(fast: bool) -> dict[str, Any]:
    scale = FAST_SCALE if fast else 1.0
    return {
        "mode": "proctored",
        "pattern_seconds": 3 * scale,
        "solution_seconds": 15 * scale,
        "no_touch_seconds": 15 * scale,
        "auto_proctor": 3 * scale,
        "auto_reveal_seconds": 1 * scale,
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


class TableBots:
    """Plays every seat of one proctored table (see module doc); `done` fires at its end."""

    def __init__(self, reactor, url, token, table, skills, rng, scale, timers) -> None:
        self.reactor = reactor
        self.skills = skills
        self.rng = rng
        self.scale = scale
        self.no_touch = timers["no_touch_seconds"]
        self.out: set[str] = set()
        self.play: int | None = None
        self.done: Deferred = Deferred()
        self.link = TableLink(
            url, token, reactor=reactor, listener=self, table=table, retries=5, history=False
        )

    def start(self) -> Deferred:
        self.link.start()
        return self.done

    def link_status(self, status: str) -> None:
        return None

    def link_welcome(self, welcome: dict[str, Any]) -> None:
        return None

    def link_fatal(self, code: str, message: str) -> None:
        self._finish()

    def link_snapshot(self, snapshot: dict[str, Any], after_seq: int | None = None) -> None:
        view = snapshot["view"]
        for seat in view.get("seats", []):
            if seat.get("disqualified"):
                self.out.add(seat["seat"])
        if view.get("phase") == "ended":
            self._finish()
        elif view.get("phase") == "revealed" and view.get("card"):
            self._revealed(view["card"]["play"], view["card"]["numbers"])

    def link_event(self, push: dict[str, Any]) -> None:
        kind, data = push["event_type"], push["data"]
        if kind == "CardRevealed":
            self._revealed(data["play"], data["numbers"])
        elif kind in ("CardTouched", "CardWon", "CardStumped", "CardReturnedToDeck"):
            self.play = None
        elif kind == "PlayerDisqualified":
            self.out.add(data["seat"])
        elif kind == "RoundEnded":
            self._finish()

    def _revealed(self, play: int, numbers: list[int]) -> None:
        self.play = play
        answer = best_answer(numbers)
        seats = [seat for seat in self.skills if seat not in self.out]
        if answer is None or not seats:
            return
        card_score = difficulty_score(numbers)
        times = {}
        for seat in seats:
            slow, _ = SKILL_LEVELS[self.skills[seat]]
            times[seat] = human_seconds(card_score, self.rng) * slow * self.scale
        seat = min(times, key=times.get)
        if times[seat] >= self.no_touch:
            return  # stumped: nobody touches within the window (R-PLAY-7)
        _, error = SKILL_LEVELS[self.skills[seat]]
        pattern, steps = answer
        if self.rng.random() < min(0.9, human_fails(card_score) * error):
            steps = wrong_steps(steps)
        self.reactor.callLater(times[seat], self._answer, play, seat, pattern, steps)

    def _answer(self, play: int, seat: str, pattern: str, steps: list[str]) -> None:
        if play != self.play or self.done.called or not self.link.ready:
            return
        for name, args in (
            ("touch_card", {"seat": seat}),
            ("declare_pattern", {"seat": seat, "pattern": pattern}),
            ("fix_solution", {"seat": seat, "steps": steps}),
        ):
            self.link.command(name, args).addErrback(lambda _f: None)

    def _finish(self) -> None:
        if not self.done.called:
            self.link.close()
            self.done.callback(None)


class Director:
    """The director's connection: a one-shot listener that runs the whole tournament."""

    def __init__(self, reactor, url: str, token: str, args: argparse.Namespace) -> None:
        self.reactor = reactor
        self.url = url
        self.token = token
        self.args = args
        self.rng = random.Random(args.seed)
        self.scale = FAST_SCALE if args.fast else 1.0
        self.timers = table_timers(args.fast)
        self.stream = f"tournament/sim-{args.seed}"
        self.tid = self.stream.split("/", 1)[1]
        self.skills: dict[str, str] = {}
        self.started: set[str] = set()
        self.exit_code: int | None = None
        self.champions: dict[str, Any] = {}
        self.message = ""
        self.link = TableLink(
            url,
            token,
            reactor=reactor,
            listener=self,
            join=False,
            retries=5,
            backoff=Backoff(initial=0.2, maximum=1.0),
        )

    # -- listener ----------------------------------------------------------------------------

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
        d = self.run()
        d.addCallbacks(self.stop, self.failed)

    def failed(self, failure: Any) -> None:
        self.message = f"failed: {failure.getErrorMessage()}"
        self.stop(exit_codes.REFUSED if failure.check(ServerRefused) else exit_codes.UNREACHABLE)

    def stop(self, code: int) -> None:
        if self.exit_code is None:
            self.exit_code = code
            close_then_stop(self.link, self.reactor)

    # -- the tournament ----------------------------------------------------------------------

    def command(self, name: str, **args: Any) -> Deferred:
        return self.link.request("command", table=self.stream, name=name, args=args)

    @inlineCallbacks
    def view(self) -> Any:
        reply = yield self.link.request("join", table=self.stream)
        return reply["view"]

    def play_tables(self, view: dict[str, Any], names: list[str]) -> None:
        """Start the bots of every table named that has not got its bots yet."""
        for name in names:
            if name in self.started:
                continue
            self.started.add(name)
            seats = [t for t in self._all_tables(view) if t["table"] == name][0]["students"]
            bots = TableBots(
                self.reactor,
                self.url,
                self.token,
                f"{self.tid}.{name}",
                {s: self.skills[s] for s in seats},
                random.Random(f"{self.args.seed}/{name}"),
                self.scale,
                self.timers,
            )
            bots.start()

    def _all_tables(self, view: dict[str, Any]) -> list[dict[str, Any]]:
        tables = [t for r in view["rounds"] for t in r["tables"]]
        return tables + [t for tie in view["tie_breaks"] for t in tie["tables"]]

    @inlineCallbacks
    def wait_for(self, condition) -> Any:
        deadline = time.monotonic() + ROUND_TIMEOUT
        while True:
            view = yield self.view()
            if condition(view):
                return view
            if time.monotonic() > deadline:
                raise TimeoutError("the tournament did not get there in time")
            yield deferLater(self.reactor, POLL_SECONDS, lambda: None)

    @inlineCallbacks
    def run(self) -> Any:
        grades = [f"G{i + 1}" for i in range(self.args.grades)]
        options = {
            "name": f"Simulated tournament {self.args.seed}",
            "date": time.strftime("%Y-%m-%d"),
            "grades": grades,
            "deck_seed": self.args.seed,
            "tie_break_seconds": 5 if self.args.fast else 300,
            "table_options": self.timers,
        }
        yield self.link.request(
            "create_table", game="tournament", table=self.stream, options=options
        )
        yield self.command(
            "import_students", csv=students_csv(self.args.students, grades, self.args.seed)
        )
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
            names = [t["table"] for t in view["rounds"][number - 1]["tables"]]
            self.play_tables(view, names)
            yield self.wait_for(
                lambda v, n=number: all(t["result"] for t in v["rounds"][n - 1]["tables"])
            )
            yield self.command("close_round", round=number)
            if number > 1:
                yield self.advance(number)
        view = yield self.view()
        self.champions = {
            section: next(s for s in view["students"] if s["student"] == student)
            for section, student in view["champions"].items()
        }
        return exit_codes.OK

    @inlineCallbacks
    def advance(self, number: int) -> Any:
        """Advance, playing off every tie-break the tournament seats first (R-ROUND-6)."""
        while True:
            try:
                yield self.command("advance", round=number)
                return
            except ServerRefused as refused:
                if refused.code != "tie_break_pending":
                    raise
            view = yield self.view()
            pending = [
                t["table"]
                for tie in view["tie_breaks"]
                for t in tie["tables"]
                if t["table"] not in self.started
            ]
            self.play_tables(view, pending)
            yield deferLater(self.reactor, POLL_SECONDS, lambda: None)


def start_server(store: str, directory: Path) -> tuple[subprocess.Popen, str, Path]:
    """A `t24-server` child process on a free loopback port; (process, url, secret file)."""
    ready, secret = directory / "ready.json", directory / "t24.secret"
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


def simulate(args: argparse.Namespace, reactor: Any = None) -> int:
    if args.students < 3 or args.students == 5 or not 1 <= args.grades <= 20:
        print(
            "t24 tournament simulate: 3+ students per grade (not 5), 1..20 grades", file=sys.stderr
        )
        return exit_codes.BAD_INPUT
    directory = Path(tempfile.mkdtemp(prefix="t24-sim-"))
    store = args.store or f"sqlite:///{directory / 'sim.sqlite'}"
    process, url, secret = start_server(store, directory)
    try:
        if reactor is None:
            from twisted.internet import reactor
        director = Director(reactor, url, director_token(secret), args)
        started = time.monotonic()
        run_reactor(reactor, director.stop, director.link.start)
        if director.exit_code != exit_codes.OK:
            print(f"t24 tournament simulate: {director.message}", file=sys.stderr)
            return director.exit_code or exit_codes.INTERRUPTED
        for section, student in director.champions.items():
            who = f"{student['name']} ({student['student']}, {student['school']})"
            print(f"champion of {section}: {who}")
        elapsed = time.monotonic() - started
        print(f"tournament {director.stream} played in {elapsed:.1f} s; store {store}")
        return exit_codes.OK
    finally:
        process.terminate()
        process.wait(timeout=30)
