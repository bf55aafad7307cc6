"""Driving the `t24` command in pseudo-terminals for the end-to-end CLI tests.

`T24Cli(tmp_dir)` runs `python -m clients.reference_cli` as a child process (forked by the
tests' fork server, forkserver.py: `t24_command`): `run(...)` for
one-shot commands (admin, replay), `spawn(...)` for the interactive ones, in a 120x50
pseudo-terminal with NO_COLOR set (colour is tested in the unit tests). Each spawned
client writes its debug log next to the test's files; `logs()` returns them for failure
reports. Tests wait for text with `expect(..., timeout=...)`, never with fixed sleeps.
`create_table(...)` runs `t24 admin create-table`'s own code in the test's process unless a
test asks for the real process (`process=True`): most tests only need the table.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pexpect
from forkserver import t24_command
from twisted.internet.defer import Deferred, fail, succeed
from wsclients import AutobahnClient

from server.puzzles.solver import solve

ROOT = Path(__file__).resolve().parents[2]
WAIT = 20  # seconds: generous on a loaded 2-core machine; tests pass in far less
CARD = re.compile(r"play (\d+) · card \S+ · (\d+) (\d+) (\d+) (\d+) ·")


def environment() -> dict[str, str]:
    """The test run's environment, less our own settings and a terminal size: the CLI must
    see the pty's 120x50, and rich reads `COLUMNS`/`LINES` before the terminal's. A pytest-xdist
    worker's environment has them (80x24, set in the worker process at its start): a screen cut
    to 24 lines hid the lines the tests wait for, and three tests timed out on `-n 2` only."""
    dropped = {"COLUMNS", "LINES", "LANGUAGE", "LC_ALL", "LC_MESSAGES"}  # English unless asked
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith("T24_") and key not in dropped
    }
    env.update(NO_COLOR="1", TERM="xterm", LANG="C.UTF-8", PYTHONPATH=str(ROOT))
    return env


class T24Cli:
    """Runs `t24` subcommands for one test (see module doc)."""

    def __init__(self, tmp_dir: Path) -> None:
        self.dir = Path(tmp_dir)
        self.children: list[pexpect.spawn] = []
        self.count = 0

    def command(self, *args: str) -> list[str]:
        return t24_command(*args)

    def run(
        self,
        *args: str,
        input: str | None = None,
        timeout: float = WAIT,
        env: dict[str, str] | None = None,
    ) -> subprocess.CompletedProcess:
        """A one-shot command (stdin: `input`, else nothing); its output as text. `env` adds
        to the environment (`T24_WORDS_DIR`, `LANG`)."""
        return subprocess.run(
            self.command(*args),
            cwd=self.dir,
            env={**environment(), **(env or {})},
            input=input or "",
            capture_output=True,
            text=True,
            timeout=timeout,
        )

    def spawn(
        self, *args: str, log: bool = True, env: dict[str, str] | None = None
    ) -> pexpect.spawn:
        """An interactive command in a pseudo-terminal (120 columns, 50 lines); `env` adds to
        the environment."""
        self.count += 1
        extra = ["--log", str(self.dir / f"client-{self.count}.log")] if log else []
        argv = self.command(*args, *extra)
        child = pexpect.spawn(
            argv[0],
            argv[1:],
            cwd=str(self.dir),
            env={**environment(), **(env or {})},
            dimensions=(50, 120),
            encoding="utf-8",
            codec_errors="replace",
            timeout=WAIT,
        )
        # No 50 ms sleep before each keystroke (pexpect's default, for a password prompt that
        # turns echo off after printing itself): every test waits for the screen it types at,
        # drawn after the client set up its terminal. About 2.5 s a file of tests (53 sends in
        # test_cli_play.py).
        child.delaybeforesend = None
        child.logfile_read = io.StringIO()  # everything it printed, for checks after the fact
        self.children.append(child)
        return child

    def close(self) -> None:
        for child in self.children:
            if child.isalive():
                child.terminate(force=True)

    def logs(self) -> str:
        return "\n".join(
            f"== {path.name}\n{path.read_text()[-3000:]}"
            for path in sorted(self.dir.glob("client-*.log"))
        )

    def create_table(
        self, server: Any, table: str, *flags: str, seats: str, process: bool = False
    ) -> Path:
        """`t24 admin create-table --tokens-out DIR ...flags` as a director; returns the
        table's tokens directory (one file per person: `--tokens DIR --seat s1` picks
        `DIR/s1.json`). With `process` it runs the real `t24` process; else the command's own
        code (its parser, `table_options`, `create_table` and token files) runs in this
        process over a director's connection: a test of `t24 play` or `t24 bot` tests those,
        and a `t24` process costs ~0.45 s of CPU (tests keep one real run per command)."""
        tokens = self.dir / table
        director = server.token("director", name="director")
        argv = [
            "admin",
            "create-table",
            "--url",  # connection flags after the subcommand, as a new user types them
            server.url,
            "--token",
            director,
            "--table",
            table,
            "--seats",
            seats,
            "--tokens-out",
            str(tokens),
            *flags,
        ]
        if process:
            done = self.run(*argv)
            assert done.returncode == 0, done.stderr
            assert f"created table {table}" in done.stdout
            return tokens
        created = admin_in_process(server.url, director, argv)
        assert created["table"] == table and created["tokens_dir"] == str(tokens), created
        return tokens

    def deck_file(self, name: str, cards: list[tuple[str, list[int], int]]) -> str:
        path = self.dir / f"{name}.json"
        path.write_text(json.dumps([{"card_id": c, "numbers": n, "dots": d} for c, n, d in cards]))
        return str(path)


class DirectorLink:
    """The link `t24 admin`'s work functions ask for (`url`, `request` -> Deferred), over an
    Autobahn client said hello as the director: each reply comes back already fired."""

    def __init__(self, url: str, token: str) -> None:
        self.url = url
        self.client = AutobahnClient(url)
        self.client.hello(token)

    def request(self, kind: str, **fields: Any) -> Deferred[dict[str, Any]]:
        reply = self.client.request(kind, **fields)
        if reply.get("type") == "error":
            return fail(AssertionError(f"{kind} refused: {reply}"))
        return succeed(reply)


def admin_in_process(url: str, token: str, argv: list[str]) -> dict[str, Any]:
    """Run a `t24 admin` subcommand's work (parsed by the CLI's own parser) in this process,
    with `--json`; its printed result."""
    from clients.reference_cli.cli import build_parser

    args = build_parser(["admin_commands"]).parse_args([*argv, "--json"])
    link = DirectorLink(url, token)
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            done = args.work(link, {}, args)
    finally:
        link.client.close()
    outcome: list[Any] = []
    done.addBoth(outcome.append)
    assert outcome == [0], outcome  # fired at once (every reply had come): exit code 0
    result: dict[str, Any] = json.loads(printed.getvalue())
    return result


def start_round(server: Any, table: str) -> None:
    """The proctor starts the round by a request (`t24 proctor --plain` with `start` piped in
    does the same in ~0.45 s of a process's CPU; test_cli_play.py runs that for real): for the
    tests of what the players' terminals do once the round has started."""
    proctor = AutobahnClient(server.url)
    try:
        proctor.hello(server.token("proctor", name="proctor", table=table))
        reply = proctor.request("command", table=table, name="start_round", args={})
        assert reply["type"] == "accepted", reply
    finally:
        proctor.close()


def answer(numbers: list[int]) -> tuple[str, list[str]]:
    """(pattern, three steps) of a card, ASCII, as a student would type them."""
    steps = list(solve(numbers)[0].ascii_steps)
    return steps[-1].split("=")[0].strip(), steps


def revealed_card(child: pexpect.spawn) -> tuple[int, list[int]]:
    """Wait for a revealed card on a player's screen: (play, numbers)."""
    child.expect(CARD)
    match = child.match
    return int(match.group(1)), [int(match.group(i)) for i in range(2, 6)]


def win_card(child: pexpect.spawn, numbers: list[int], ahead: bool = False) -> None:
    """Touch (one key), type the pattern, the three steps, and fix (R-PLAY-2/4/5); `ahead`
    types it all at once, before any reply, as a fast student does."""
    pattern, steps = answer(numbers)
    if ahead:
        child.send(" " + pattern + "\r" + "".join(step + "\r" for step in steps) + "\r")
        return
    child.send(" ")
    child.expect("pattern>")
    child.send(pattern + "\r")
    child.expect("step 1 of 3>")
    for step in steps:
        child.send(step + "\r")
    child.expect("steps ready")
    child.send("\r")
